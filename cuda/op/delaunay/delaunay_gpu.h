/*
 * delaunay_gpu.h -- the GPU Delaunay engine (delaunay_gpu.cu, its
 * orderings on the device in delaunay_order.cu; the method in
 * delaunay_core.cuh), registered in the engine table (cuda/gpu_engines.c)
 * as its delaunay entry.
 */
#ifndef XG_DELAUNAY_GPU_H
#define XG_DELAUNAY_GPU_H

#include "xg_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Delaunay triangulation of the points pts->xyz[3 g], g in gid[0 ..
 * n-1], on the context's GPU: out gets the real triangles as set
 * indices in the canonical order (xg__dt_canonical), st (may be NULL)
 * a_count, a_skipped and z_differ (the merged points), candidates (the
 * insertion rounds), bbox_pairs (the triangles), deferred (the
 * questions the filters left to the host) and cnt.  The device memory
 * it needs (xg__delaunay_gpu_bytes) is checked against the budget
 * (opt->gpu_mem_cap, else what the device has free) before anything is
 * allocated; the progress callback of ctx is called between insertion
 * rounds and may cancel.  XG_EDEGENERATE, XG_ELIMIT, XG_ENOMEM,
 * XG_ECANCEL, XG_EGPU with detail in ctx. */
int xg__delaunay_gpu_run(struct xg_ctx *ctx, const struct xg_set *pts,
                         const uint32_t *gid, size_t n,
                         const struct xg_opts *opt, struct xg_triangles *out,
                         struct xg_stats *st);
/* An upper bound of the device bytes xg__delaunay_gpu_run allocates for
 * n of the npts points of a set (with FIDs when has_fid), given the
 * scratch bytes of its CUB calls sort_tmp (xg__dt_gpu_order_bytes):
 * every array at its largest, as if no point merged. */
uint64_t xg__delaunay_gpu_bytes(size_t npts, size_t n, int has_fid,
                                size_t sort_tmp);

/* ---- the orderings on the device (delaunay_order.cu) ----
 * Each enqueues its work on s, its CUB scratch from t (xg_cub.cuh: the
 * run's arena), and returns XG_OK, or XG_EGPU / XG_ELIMIT with detail
 * in ctx. */
struct xg_cub_tmp;

/* The merge's arrays, device memory of the run's arena.  In: d_xyz (the
 * set's points), d_fid (their FIDs; NULL: none), d_gid (the n points'
 * set indices), d_zd (one counter, zeroed); scratch: d_idx, d_keep,
 * d_pos (n each), d_k0, d_k1 (n 64-bit keys each).  Out: m, d_xy and
 * d_l2g (m entries each, from the arena), z_differ. */
struct xg_dt_merge {
    const double *d_xyz;
    const int64_t *d_fid;
    const uint32_t *d_gid;
    uint32_t *d_idx, *d_keep, *d_pos;
    unsigned long long *d_k0, *d_k1, *d_zd;
    uint32_t m;                 /* the distinct (x, y) */
    double *d_xy;               /* 2 per distinct point, sorted by (x, y) */
    uint32_t *d_l2g;            /* its set index: the lowest (fid, index) */
    uint64_t z_differ;          /* merged points whose z differs */
};
/* The n points (n >= 1) sorted by (x, y) and each run of equal (x, y)
 * merged into its point of lowest (fid, index), into w's outputs (m
 * <= n), allocated from arena; synchronizes. */
int xg__dt_gpu_merge(struct xg_ctx *ctx, struct xg_dmem *arena,
                     struct xg_cub_tmp *t, struct xg_dt_merge *w,
                     uint32_t n, cudaStream_t s);
/* The coordinates of the first point least in each of the directions
 * x, x + y, y, -x + y, -x, -x - y, -y, x - y (counter-clockwise from
 * -x), of the m local points d_xy, into poly (host); d_key (m entries)
 * is scratch.  Synchronizes. */
int xg__dt_gpu_extremes(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                        const double *d_xy, uint32_t m,
                        unsigned long long *d_key, double poly[16],
                        cudaStream_t s);
/* The n triangles d_tri (3 vertex numbers below 2^28 each) into the
 * canonical order (xg__dt_canonical's), in place; d_k0, d_k1, d_v0,
 * d_v1 (n entries each) are scratch. */
int xg__dt_gpu_canonical(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                         uint32_t *d_tri, uint32_t n,
                         unsigned long long *d_k0, unsigned long long *d_k1,
                         uint32_t *d_v0, uint32_t *d_v1, cudaStream_t s);
/* *bytes = the most scratch the three above take for n points (the
 * scratch of t grows call by call: the sum of their sizes). */
int xg__dt_gpu_order_bytes(struct xg_ctx *ctx, size_t n, size_t *bytes,
                           cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
