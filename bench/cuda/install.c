/*
 * install.c -- the benchmark-only GPU strategies of this folder handed
 * to the engines (paper.h, cuda/gpu_bench.h): the one table of them, and
 * the call a benchmark or a GPU test makes at its start.
 */
#include "gpu_bench.h"
#include "paper.h"

static const struct xg__gpu_bench strategies = {
    xg__cuda_paper_segtri,
    xg__paper_segtri_pairs,
    xg__paper_redblue,
    xg__cuda_inside_seed,
};

void xg__gpu_bench_install(void)
{
    xg__gpu_bench_register(&strategies);
}
