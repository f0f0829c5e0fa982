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
 * questions the filters left to the host) and cnt.  XG_EDEGENERATE,
 * XG_ELIMIT, XG_ENOMEM, XG_EGPU with detail in ctx. */
int xg__delaunay_gpu_run(struct xg_ctx *ctx, const struct xg_set *pts,
                         const uint32_t *gid, size_t n,
                         struct xg_triangles *out, struct xg_stats *st);

#ifdef __cplusplus
}
#endif
#endif
