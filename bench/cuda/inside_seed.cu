/*
 * inside_seed.cu -- the seed's GPU point-in-solid method, kept for the
 * benchmark only (xg__gpu_inside with XG__IN_SEED, where a program has
 * linked it: paper.h): each thread holds
 * XG_SEED_POINTS points in registers and tests them against every
 * triangle of every solid, in order: a point is in a solid when it lies
 * in an odd number of the tetrahedra joining the origin to its faces.
 * The four orientations of a tetrahedron are evaluated with intervals
 * (xg_orient3d_iv); any sign they cannot certify -- the point on a face,
 * or on a plane through the origin and an edge -- sends the (point,
 * solid) pair to the host, which decides it with xg__inside_seq_point
 * (the same test, exact).  The seed's 0.5 for a point on a face shared
 * by two tetrahedra is that doubt.  All threads of a warp read the same
 * triangle at the same time: one broadcast load per triangle.
 */
#include "op/inside/inside_gpu.h"
#include "paper.h"
#include "xg_cuda_dev.cuh"

/* Points a thread holds in registers. */
#define XG_SEED_POINTS 4
#define SP XG_SEED_POINTS

/* 1 when p lies in the tetrahedron (O, A, B, C) of orientation v (XG_POS
 * or XG_NEG), 0 when it does not, -1 when an interval doubts.  The order
 * of the tests is xg__origin_tet_holds': a certain mismatch settles it. */
__device__ static inline int tet_holds(const double *A, const double *B,
                                       const double *C, const double *p,
                                       int v)
{
    const double O[3] = {0.0, 0.0, 0.0};
    int d = xg_iv_sign(xg_orient3d_iv(A, B, C, p));
    if (d == XG_ZERO || d == XG_UNSURE)
        return -1;              /* on the face's plane, or no telling */
    if (d != v)
        return 0;
    d = xg_iv_sign(xg_orient3d_iv(O, B, C, p));
    if (d == XG_ZERO || d == XG_UNSURE)
        return -1;
    if (d != -v)
        return 0;
    d = xg_iv_sign(xg_orient3d_iv(O, C, A, p));
    if (d == XG_ZERO || d == XG_UNSURE)
        return -1;
    if (d != -v)
        return 0;
    d = xg_iv_sign(xg_orient3d_iv(O, A, B, p));
    if (d == XG_ZERO || d == XG_UNSURE)
        return -1;
    return d == -v;
}

__global__ static void __launch_bounds__(128)
    k_seed(struct xg_inside_dev d, const double *pts, uint32_t n,
           uint32_t a0, xg_key_out io, unsigned long long *tally)
{
    const double O[3] = {0.0, 0.0, 0.0};
    uint32_t i0 = (blockIdx.x * blockDim.x + threadIdx.x) * SP, s;
    unsigned pairs = 0, deferred = 0;
    double p[SP][3];
    int k, live = 0;
    for (k = 0; k < SP; k++)
        if (i0 + k < n) {
            live = k + 1;
            p[k][0] = pts[3 * (size_t)(i0 + k)];
            p[k][1] = pts[3 * (size_t)(i0 + k) + 1];
            p[k][2] = pts[3 * (size_t)(i0 + k) + 2];
        }
    for (s = 0; s < d.nsolid && live; s++) {
        uint32_t t, t1 = d.d_tri_start[s + 1];
        int parity[SP], doubt[SP];
        for (k = 0; k < SP; k++)
            parity[k] = doubt[k] = 0;
        for (t = d.d_tri_start[s]; t < t1; t++) {
            double T[9];
            int j, v;
            for (j = 0; j < 9; j++)
                T[j] = __ldg(d.d_tri + 9 * (size_t)t + j);
            v = xg_iv_sign(xg_orient3d_iv(T, T + 3, T + 6, O));
            for (k = 0; k < live; k++) {
                int h;
                if (doubt[k])
                    continue;
                if (v == XG_ZERO) {
                    /* A flat tetrahedron holds nothing; only the face
                     * itself is left to doubt. */
                    int dd = xg_iv_sign(xg_orient3d_iv(T, T + 3, T + 6,
                                                       p[k]));
                    doubt[k] = dd == XG_ZERO || dd == XG_UNSURE;
                    continue;
                }
                h = v == XG_UNSURE ? -1 : tet_holds(T, T + 3, T + 6, p[k], v);
                if (h < 0)
                    doubt[k] = 1;
                else
                    parity[k] ^= h;
            }
        }
        for (k = 0; k < live; k++) {
            pairs += t1 - d.d_tri_start[s];
            deferred += doubt[k];
            if (doubt[k] || parity[k])
                xg_append(io, xg__inside_key(a0 + i0 + k, s, XG_KIND_INSIDE,
                                             doubt[k]));
        }
    }
    xg_warp_add(tally, pairs);
    xg_warp_add(tally + 1, pairs);
    xg_warp_add(tally + 2, deferred);
}

extern "C" int xg__cuda_inside_seed(struct xg_ctx *ctx, void *user,
                                    void *d_out, uint64_t cap,
                                    unsigned long long *d_n, cudaStream_t s)
{
    const struct xg_inside_pass *p = (const struct xg_inside_pass *)user;
    xg_key_out io = {(uint64_t *)d_out, cap, d_n};
    uint32_t threads = (p->n + SP - 1) / SP;
    int rc;
    if (p->n == 0)
        return XG_OK;
    if ((rc = XG_CUDA(ctx, cudaMemsetAsync(p->d_tally, 0,
                                           3 * sizeof *p->d_tally, s))) !=
        XG_OK)
        return rc;
    k_seed<<<(threads + 127) / 128, 128, 0, s>>>(*p->dev, p->d_pts, p->n,
                                                 p->a0, io, p->d_tally);
    return XG_CUDA(ctx, cudaGetLastError());
}
