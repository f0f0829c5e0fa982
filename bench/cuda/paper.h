/*
 * paper.h -- the benchmark-only GPU strategies, outside the library:
 * the paper's (section 11.3), kept for the benchmark's Table 11.3 and the
 * red/blue comparison, and the seed's point-in-solid method:
 *   segtri  XG_GPU_LIST (the list of pairs built on the CPU), XG_GPU_SEG
 *           (one segment per thread) and XG_GPU_TRI (one triangle per
 *           thread), chosen through xg_gpu_opts.strategy;
 *   red/blue XG__RB_PAPER: every pair sharing a cell listed on the CPU,
 *           evaluated once per cell, duplicates dropped at the end;
 *   inside  XG__IN_SEED: each thread a few points against every triangle
 *           of every solid.
 * Kernels in paper.cu and inside_seed.cu, host side in paper.c; the
 * table that hands them to the engines (cuda/gpu_bench.h) in install.c.
 * Linked only into the programs that use them (bench/local.mk,
 * cuda/local.mk).  Not installed.
 */
#ifndef XG_PAPER_H
#define XG_PAPER_H

#include "install.h"
#include "op/segtri/segtri_gpu.h"
#ifdef __cplusplus
extern "C" {
#endif


/* The segtri pass of a paper strategy: mode 0 the count pass (d_count as
 * xg__cuda_count's; d_hit unused), 1 the interval pass (appends to d_hit
 * as xg__cuda_intersect does). */
int xg__cuda_paper_segtri(struct xg_ctx *ctx, int mode, int strategy,
                          const struct xg_gpu_view *v,
                          const struct xg_gpu_sched *s,
                          struct xg_gpu_hit *d_hit, uint64_t cap,
                          unsigned long long *d_n,
                          unsigned long long *d_count, cudaStream_t stream);

/* XG_GPU_LIST's list, on the CPU: every pair of a cell of g whose boxes
 * meet and which the cell owns, 2 numbers per pair (*pairs, caller
 * frees). */
int xg__paper_segtri_pairs(const struct xg_grid *g, uint32_t **pairs,
                           uint64_t *npairs);

/* Red/blue, the paper's way: one thread per listed pair (d_pairs, 2
 * numbers each), the filter alone.  d_a, d_b: the segments. */
struct xg_paper_redblue_pass {
    const double *d_a, *d_b;
    const uint32_t *d_pairs;
    uint64_t npairs;
};
/* A filling pass of the output protocol (xg_gpu_fill.launch; user: a
 * struct xg_paper_redblue_pass). */
int xg__cuda_paper_redblue(struct xg_ctx *ctx, void *user,
                           void *d_out, uint64_t cap,
                           unsigned long long *d_n, cudaStream_t stream);
/* The whole red/blue run the paper's way (xg__gpu_redblue with
 * XG__RB_PAPER), segments d_a and d_b already on the device. */
int xg__paper_redblue(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                      const struct xg_set *a, const struct xg_set *b,
                      const struct xg_opts *opt, const double *d_a,
                      const double *d_b, struct xg_contacts *out,
                      struct xg_stats *st);

/* The seed's point-in-solid method (xg__gpu_inside with XG__IN_SEED), a
 * filling pass of the output protocol (xg_gpu_fill.launch; user: a
 * struct xg_inside_pass, inside_gpu.h): each thread XG_SEED_POINTS
 * points against every triangle of every solid (origin tetrahedra),
 * the hits as xg__cuda_inside's. */
int xg__cuda_inside_seed(struct xg_ctx *ctx, void *user, void *d_out,
                         uint64_t cap, unsigned long long *d_n,
                         cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif /* XG_PAPER_H */
