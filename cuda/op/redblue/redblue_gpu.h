/*
 * redblue_gpu.h -- what is particular to the GPU red/blue engine
 * (redblue_gpu.c, redblue_kernels.cu); the plumbing it shares with the
 * other engines is xg_cuda.h's; the paper's method is the benchmark's
 * (bench/cuda/paper.h, reached through gpu_bench.h).  Not installed.
 */
#ifndef XG_REDBLUE_GPU_H
#define XG_REDBLUE_GPU_H

#include "xg_cuda.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The first room of the output protocol (xg_gpu_fill): a guess from the
 * input sizes, since red/blue has no count pass. */
static inline uint64_t xg__redblue_hits_guess(const struct xg_set *a,
                                              const struct xg_set *b)
{
    return 2 * ((uint64_t)a->n + b->n) + 1024;
}

/* The pairs of the run of all pairs of g's cells: d_first, each cell's
 * first pair in the run (xg__cuda_blocks with th = 1), and total pairs.
 * d_a, d_b: the segments; d_abox, d_bbox: their boxes. */
struct xg_redblue_pass {
    const double *d_a, *d_b, *d_abox, *d_bbox;
    const struct xg_dgrid *g;
    const uint64_t *d_first;
    uint64_t total;
};
/* One thread per pair: the box test, the ownership rule, then
 * xg__redblue_hit.  A filling pass of the output protocol
 * (xg_gpu_fill.launch; user: a struct xg_redblue_pass). */
int xg__cuda_redblue_pairs(struct xg_ctx *ctx, void *user,
                           void *d_out, uint64_t cap,
                           unsigned long long *d_n, cudaStream_t stream);

/* The engine's run (xg__gpu_engine's redblue, reached through
 * xg__gpu_redblue): the contract of xg__gpu_redblue. */
int xg__redblue_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                        const struct xg_set *b, const struct xg_opts *opt,
                        int method, struct xg_contacts *out,
                        struct xg_stats *st);

#ifdef __cplusplus
}
#endif
#endif /* XG_REDBLUE_GPU_H */
