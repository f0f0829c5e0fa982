/*
 * delaunay_gpu.h -- the GPU Delaunay engine (delaunay_gpu.cu; the method
 * in delaunay_core.cuh), registered in the engine table
 * (cuda/gpu_engines.c) as its delaunay entry.
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
 * radix sort's scratch bytes sort_tmp: every array at its largest, as
 * if no point merged. */
uint64_t xg__delaunay_gpu_bytes(size_t npts, size_t n, int has_fid,
                                size_t sort_tmp);

#ifdef __cplusplus
}
#endif
#endif
