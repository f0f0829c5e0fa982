/*
 * gpu_bench.h -- the door through which the benchmark-only GPU
 * strategies reach the engines.  The paper's strategies (section 11.3:
 * segtri's list of pairs, one segment per thread, one triangle per
 * thread; red/blue's list of pairs) and the seed's point-in-solid method
 * live in bench/cuda/, outside the library: a program that links them
 * (the benchmarks, the GPU tests) hands their table to the engines with
 * xg__gpu_bench_register (bench/cuda/install.c does), once, before its
 * first run and before any other thread runs one.  Until then an engine
 * asked for one of them fails with XG_ENOTSUP; nothing the product
 * chooses ever asks.  Not installed.
 */
#ifndef XG_GPU_BENCH_H
#define XG_GPU_BENCH_H

#include "op/segtri/segtri_gpu.h"
#ifdef __cplusplus
extern "C" {
#endif

struct xg__gpu_bench {
    /* segtri's XG_GPU_LIST, XG_GPU_SEG and XG_GPU_TRI: the pass of
     * strategy over a batch, mode 0 the count pass (d_count as
     * xg__cuda_count's; d_hit unused), 1 the interval pass (appends to
     * d_hit as xg__cuda_intersect does). */
    int (*segtri_pass)(struct xg_ctx *ctx, int mode, int strategy,
                       const struct xg_gpu_view *v,
                       const struct xg_gpu_sched *s,
                       struct xg_gpu_hit *d_hit, uint64_t cap,
                       unsigned long long *d_n,
                       unsigned long long *d_count, cudaStream_t stream);
    /* XG_GPU_LIST's list, on the CPU: every pair of a cell of g whose
     * boxes meet and which the cell owns, 2 numbers per pair (*pairs,
     * caller frees); XG_OK or XG_ENOMEM. */
    int (*segtri_pairs)(const struct xg_grid *g, uint32_t **pairs,
                        uint64_t *npairs);
    /* The whole red/blue run of XG__RB_PAPER (xg__gpu_redblue), the
     * segments d_a and d_b already on gpu's device. */
    int (*redblue)(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                   const struct xg_set *a, const struct xg_set *b,
                   const struct xg_opts *opt, const double *d_a,
                   const double *d_b, struct xg_contacts *out,
                   struct xg_stats *st);
    /* The filling pass of XG__IN_SEED (xg__gpu_inside; user: a struct
     * xg_inside_pass, inside_gpu.h). */
    xg_gpu_fill_fn inside_seed;
};

/* Hands the engines the table b (static storage; NULL takes it back). */
void xg__gpu_bench_register(const struct xg__gpu_bench *b);
/* XG_OK with *b the table registered, or XG_ENOTSUP with a message
 * naming what (the strategy asked for) in ctx when none is. */
int xg__gpu_bench_get(struct xg_ctx *ctx, const char *what,
                      const struct xg__gpu_bench **b);

#ifdef __cplusplus
}
#endif
#endif /* XG_GPU_BENCH_H */
