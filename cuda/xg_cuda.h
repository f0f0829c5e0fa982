/*
 * xg_cuda.h -- the plain C interface between the GPU engine's host code
 * (segtri_gpu.c) and its kernels (segtri_kernels.cu).  Not installed.
 *
 * Every launcher takes the context for error detail and a stream, and
 * returns an int code (XG_OK or XG_EGPU with "file:line: call: reason"
 * in ctx).  Launchers only enqueue work: the caller synchronizes.
 * Device pointers are named d_...
 */
#ifndef XG_CUDA_H
#define XG_CUDA_H

#include <cuda_runtime_api.h>
/* C headers first, outside extern "C": under C++ some of them pull in
 * templates, which cannot have C linkage. */
#include <gmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif
#include "xg_internal.h"

/* Checks one runtime call (or, with cudaGetLastError(), a launch) and
 * returns XG_EGPU from the enclosing function, naming file and line. */
#define XG_CUDA_TRY(ctx, call)                                            \
    do {                                                                  \
        cudaError_t xg_e_ = (call);                                       \
        if (xg_e_ != cudaSuccess)                                         \
            return xg__error((ctx), XG_EGPU, "%s:%d: %s: %s", __FILE__,   \
                             __LINE__, #call, cudaGetErrorString(xg_e_)); \
    } while (0)

/* Threads per block of the pair kernels. */
#define XG_GPU_THREADS 64
/* Pairs per block of the packed multi-block kernel. */
#define XG_GPU_PACK_PAIRS 2048

/* The device arrays of one batch.  Elements are numbered locally
 * (0..na-1, 0..nb-1); cells globally, the CSR starts being indexed by
 * cell - c0.  origin: the local origin of the float count pass. */
struct xg_gpu_view {
    const double *d_seg, *d_tri;        /* 6 and 9 doubles per element */
    const int32_t *d_a_cell, *d_b_cell; /* 6 per element: lo xyz, hi xyz */
    const uint4 *d_a_rec, *d_b_rec;     /* packed: 2 per element
                                           (xg__cuda_records) */
    const uint32_t *d_a_start, *d_a_items, *d_b_start, *d_b_items;
    uint32_t c0, c1;
    uint32_t na, nb;
    int n[3];
    double origin[3];
};

/* ---- the device grid (grid_gpu.cu), shared by segtri and red/blue ----
 *
 * The grid of xg__grid_build, built on the device from device boxes (6
 * doubles per element: min xyz, max xyz; min x > max x marks "no box"):
 * the same region (where the two sets' hulls meet), the same dimensions
 * (cells, or xg_grid_default), the same monotone cell function and the
 * same CSR (each cell lists its elements in ascending order).  Arrays are
 * device memory, owned by the structure (xg__cuda_grid_free). */
struct xg_dgrid {
    int n[3];
    double lo[3], hi[3], inv[3];
    size_t ncell;
    int32_t *d_a_cell, *d_b_cell;           /* 6 per element           */
    uint32_t *d_a_start, *d_a_items;        /* ncell + 1, refs         */
    uint32_t *d_b_start, *d_b_items;
    uint64_t refs[2];
};

#ifdef __CUDACC__
/* The cell coordinate of x along axis k: xg__cell_of's formula (built
 * with -fmad=false, so the same double operations), monotone in x. */
__device__ static inline int xg__dcell_of(const int *n, const double *lo,
                                          const double *inv, int k, double x)
{
    double f = (x - lo[k]) * inv[k];
    if (!(f > 0.0))
        return 0;
    if (f >= (double)n[k])
        return n[k] - 1;
    return (int)f;
}
#endif

/* Builds g over the na boxes at d_abox and the nb at d_bbox; cells as
 * xg__grid_build's.  Synchronizes the stream (it reads back the hulls
 * and the reference counts).  XG_ELIMIT past 2^32 references. */
int xg__cuda_grid_build(struct xg_ctx *ctx, const double *d_abox, size_t na,
                        const double *d_bbox, size_t nb, const int cells[3],
                        struct xg_dgrid *g, cudaStream_t s);
void xg__cuda_grid_free(struct xg_dgrid *g);

/* What each strategy enumerates. */
struct xg_gpu_sched {
    const uint32_t *d_cell;             /* multi: block tables */
    const uint64_t *d_first, *d_last;
    uint64_t nblocks;
    const uint32_t *d_pairs;            /* list: 2 per pair (a, b) */
    uint64_t npairs;
    const uint32_t *d_pcell, *d_bcell;  /* packed: xg__cuda_packed_tables */
    const uint64_t *d_pw;
    uint64_t total;                     /* packed: candidate pairs */
};

struct xg_gpu_origin {
    double o[3];
};

/* One entry of the interval pass's output. */
#define XG_GPU_HIT_DONE 0       /* kind and point certified            */
#define XG_GPU_HIT_DEFER 1      /* classification left to GMP          */
#define XG_GPU_HIT_CONSTRUCT 2  /* kind certified, point left to GMP   */
#define XG_GPU_HIT_DONE_DD 3    /* point certified in double-double    */
struct xg_gpu_hit {
    uint32_t a, b;              /* local numbers until the host maps them */
    int32_t kind, flag;
    double p[3];
};

/* d_count[0] += pairs whose boxes meet, that the cell owns and that the
 * float estimate keeps; d_count[1] += box-meeting pairs another cell
 * owns (packed: float boxes); d_count[2] += box-meeting pairs this cell
 * owns.  The packed strategy also writes to s->d_pairs (room for every
 * candidate) the pairs whose float boxes meet and that their cell owns,
 * d_count[3] of them: the interval pass takes that list. */
int xg__cuda_count(struct xg_ctx *ctx, int strategy,
                   const struct xg_gpu_view *v, const struct xg_gpu_sched *s,
                   unsigned long long *d_count, cudaStream_t stream);

/* The interval pass: appends every hit and deferral to d_hit with an
 * atomic counter d_n[0] (zeroed by the caller); entries past cap are not
 * written, so d_n[0] > cap means "relaunch with more room".  The packed
 * strategy adds to d_n[1] (zeroed too) the pairs that reached the edge
 * tests. */
int xg__cuda_intersect(struct xg_ctx *ctx, int strategy,
                       const struct xg_gpu_view *v,
                       const struct xg_gpu_sched *s, struct xg_gpu_hit *d_hit,
                       uint64_t cap, unsigned long long *d_n,
                       cudaStream_t stream);

/* Sorts n hits by (a, b) into d_out.  d_tmp NULL: *tmp_bytes gets the
 * scratch size to allocate. */
int xg__cuda_sort_hits(struct xg_ctx *ctx, const struct xg_gpu_hit *d_in,
                       struct xg_gpu_hit *d_out, uint32_t n, void *d_tmp,
                       size_t *tmp_bytes, cudaStream_t stream);

/* Device preparation of segtri.  Boxes (6 doubles: min xyz, max xyz) of
 * the na segments and nb triangles; a zero-length segment gets none and
 * is counted in d_counts[0]; a triangle the interval filter cannot
 * certify non-degenerate is listed in d_flag (room for nb) and counted in
 * d_counts[1] (both zeroed by the caller): the host decides it exactly
 * and clears the boxes of the degenerate ones (xg__cuda_clear_boxes). */
int xg__cuda_segtri_boxes(struct xg_ctx *ctx, const double *d_seg,
                          uint32_t na, const double *d_tri, uint32_t nb,
                          double *d_abox, double *d_bbox,
                          unsigned long long *d_counts, uint32_t *d_flag,
                          cudaStream_t stream);
int xg__cuda_clear_boxes(struct xg_ctx *ctx, double *d_box,
                         const uint32_t *d_idx, uint32_t n,
                         cudaStream_t stream);
/* The multi-block tables from the device CSR starts: d_w[c] = pairs of
 * cell c, d_off[c] = its first block (ncell each); *candidates and
 * *nblocks come back (synchronizes).  Then xg__cuda_tables fills cell,
 * first, last (nblocks each) as xg__blocks_build does. */
int xg__cuda_blocks(struct xg_ctx *ctx, const uint32_t *d_as,
                    const uint32_t *d_bs, size_t ncell, unsigned th,
                    uint64_t *d_w, uint64_t *d_off, uint64_t *candidates,
                    uint64_t *nblocks, cudaStream_t stream);
int xg__cuda_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                    const uint64_t *d_off, size_t ncell, uint64_t nblocks,
                    unsigned th, uint32_t *d_cell, uint64_t *d_first,
                    uint64_t *d_last, cudaStream_t stream);

/* The packed multi-block tables from d_w (pairs per cell, from
 * xg__cuda_blocks) and the total of candidate pairs: d_pcell (room for
 * ncell), d_pw (ncell + 1), d_bcell (total / XG_GPU_PACK_PAIRS + 2);
 * *ncomp and *nblocks come back (synchronizes). */
int xg__cuda_packed_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                           size_t ncell, uint32_t *d_pcell, uint64_t *d_pw,
                           uint32_t *d_bcell, uint64_t total, uint32_t *ncomp,
                           uint64_t *nblocks, cudaStream_t stream);
/* The packed kernel's records (32 bytes per element: float box outward
 * and relative to origin, low cell) of n elements of pts points each,
 * d_cell their cell ranges; the grid must have at most 65536 cells in x
 * and in y (XG_GPU_PACK_MAX_XY). */
#define XG_GPU_PACK_MAX_XY 65536
int xg__cuda_records(struct xg_ctx *ctx, const double *d_xyz,
                     const int32_t *d_cell, uint32_t n, int pts,
                     const double origin[3], void *d_rec,
                     cudaStream_t stream);
/* The double-double stage on the n hits at d_hit: each CONSTRUCT whose
 * point it certifies becomes DONE_DD, counted in *d_done. */
int xg__cuda_refine(struct xg_ctx *ctx, const struct xg_gpu_view *v,
                    struct xg_gpu_hit *d_hit, uint32_t n,
                    unsigned long long *d_done, cudaStream_t stream);

/* For the tests: d_out[i] = xg_orient3d_iv of the 4 points d_pts[12i..];
 * and d_ops[4i..4i+3] = add, sub, mul, div of the intervals
 * (d_iv[2i], d_iv[2i+1]). */
int xg__cuda_orient3d_iv(struct xg_ctx *ctx, const double *d_pts, size_t n,
                         struct xg_iv *d_out, cudaStream_t stream);
int xg__cuda_iv_ops(struct xg_ctx *ctx, const struct xg_iv *d_iv, size_t n,
                    struct xg_iv *d_ops, cudaStream_t stream);
/* For the tests: the fast pass on the device, pair i = seg 6i, tri 9i:
 * d_res[i] = XG_SEGTRI_*, d_t[i] its t. */
int xg__cuda_segtri_fast(struct xg_ctx *ctx, const double *d_seg,
                         const double *d_tri, size_t n, int *d_res,
                         struct xg_iv *d_t, cudaStream_t stream);
/* For the tests: xg_plane_point_dd on the device, case i = segment 6i,
 * triangle 9i: d_ok[i] its answer, d_p[3i..] the point. */
int xg__cuda_plane_point_dd(struct xg_ctx *ctx, const double *d_seg,
                            const double *d_tri, size_t n, int *d_ok,
                            double *d_p, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* XG_CUDA_H */
