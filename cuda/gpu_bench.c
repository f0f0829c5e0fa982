/*
 * gpu_bench.c -- where a program that links the benchmark-only GPU
 * strategies hands them to the engines (gpu_bench.h).  The one mutable
 * pointer of the library: set once at a benchmark's or a test's start,
 * read by the engines' runs after.
 */
#include "gpu_bench.h"

static const struct xg__gpu_bench *registered;

void xg__gpu_bench_register(const struct xg__gpu_bench *b)
{
    registered = b;
}

int xg__gpu_bench_get(struct xg_ctx *ctx, const char *what,
                      const struct xg__gpu_bench **b)
{
    *b = registered;
    if (!registered)
        return xg__error(ctx, XG_ENOTSUP, "%s is the benchmark's only "
                         "(bench/cuda/), and this program has not linked "
                         "it", what);
    return XG_OK;
}
