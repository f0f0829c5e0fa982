/*
 * inside_gpu.h -- what is particular to the GPU point-in-solid engines
 * (inside_kernels.cu; the host side's own header is inside_run.h; the
 * seed's method, for the benchmark only, is bench/cuda/inside_seed.cu);
 * the plumbing they share with the other engines is xg_cuda.h's.  Not
 * installed.
 */
#ifndef XG_INSIDE_GPU_H
#define XG_INSIDE_GPU_H

#include "xg_cuda.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The solids on the device (struct xg__solids, xg_inside.h): kept
 * triangles (9 doubles each), their boxes (6 doubles), per solid its
 * first kept triangle (nsolid + 1), and the columns: grid dimensions,
 * region, each column's runs, the runs' triangles and their box tops. */
struct xg_inside_dev {
    const double *d_tri, *d_box;
    const uint32_t *d_tri_start;
    const uint32_t *d_run_start, *d_items;
    const struct xg__run *d_run;
    const double *d_top;       /* per item: its box top */
    const int8_t *d_turn;      /* per kept triangle: its exact turn */
    uint32_t nsolid;
    int n[3];
    double lo[3], hi[3], inv[3];
};

/* One batch of points: n points (3 doubles each) at d_pts, the first
 * numbered a0; d_tally[0..2] gets (pairs looked at, pairs whose box holds
 * the ray, (point, solid) pairs deferred), zeroed by the caller. */
struct xg_inside_pass {
    const struct xg_inside_dev *dev;
    const double *d_pts;
    uint32_t n, a0;
    unsigned long long *d_tally;
};

/* Filling passes of the output protocol (xg_gpu_fill.launch; user: a
 * struct xg_inside_pass).  Each appends, per (point, solid) with the
 * point in the closed solid, a hit (a = point number, b = solid number,
 * kind XG_KIND_INSIDE or _BOUNDARY, flag XG_GPU_HIT_DONE), or a hit with
 * flag XG_GPU_HIT_DEFER where a filter doubted, for the host to decide.
 * xg__cuda_inside: ours, one thread per point walking its column (the
 * seed's, bench/cuda/inside_seed.cu, appends the same hits). */
int xg__cuda_inside(struct xg_ctx *ctx, void *user, void *d_out, uint64_t cap,
                    unsigned long long *d_n, cudaStream_t s);

/* *bad = whether one of the n doubles at d_v (device memory) is infinite
 * or NaN: the points' check when they went up from their own memory
 * (xg__gpu_upload_locked), with the host's test (xg__nonfinite_carry). */
int xg__cuda_nonfinite(struct xg_ctx *ctx, const double *d_v, size_t n,
                       int *bad, cudaStream_t s);

/* The engine's run (xg__gpu_engine's inside): the contract of
 * xg__gpu_inside (xg_inside.h). */
int xg__inside_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       int method, struct xg_contacts *out,
                       struct xg_stats *st);

#ifdef __cplusplus
}
#endif
#endif /* XG_INSIDE_GPU_H */
