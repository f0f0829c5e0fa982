/*
 * gpu_engines.c -- the CUDA build registers its engines (src/xg_engine.h):
 * the device layer, and one line per operation it runs, {its row,
 * XG_ENGINE_GPU, its entry}.  A new GPU engine adds its line here and
 * nowhere in src/.  Entries take the signature of their operation's
 * shape; the adapters below turn the knobs tests and benchmarks may give
 * (struct xg__engine_knobs) into each engine's own arguments, and give
 * the product's defaults without them.
 */
#include <string.h>
#include "xg_engine.h"
#include "op/segtri/segtri_gpu.h"
#include "op/redblue/redblue_gpu.h"
#include "op/inside/inside_gpu.h"
#include "op/delaunay/delaunay_gpu.h"

/* segtri: k->gpu's strategy and figures, or the product's strategy
 * (XG_GPU_PACKED) without them. */
static int segtri(struct xg_ctx *ctx, const struct xg_set *a,
                  const struct xg_set *b, const struct xg_opts *opt,
                  const struct xg__engine_knobs *k, struct xg_contacts *out,
                  struct xg_stats *st)
{
    struct xg_gpu_opts go;
    if (k && k->gpu)
        return xg__segtri_gpu_run(ctx, a, b, opt, k->gpu, out, st);
    memset(&go, 0, sizeof go);
    go.strategy = XG_GPU_PACKED;
    return xg__segtri_gpu_run(ctx, a, b, opt, &go, out, st);
}

/* The method k names, or the product's. */
static int method(const struct xg__engine_knobs *k, int product)
{
    return k && k->method ? k->method : product;
}

/* redblue: k's method, or the list-free design (XG__RB_GPU). */
static int redblue(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg_set *b, const struct xg_opts *opt,
                   const struct xg__engine_knobs *k, struct xg_contacts *out,
                   struct xg_stats *st)
{
    return xg__redblue_gpu_run(ctx, a, b, opt, method(k, XG__RB_GPU), out,
                               st);
}

/* inside: k's method, or the columns (XG__IN_GPU). */
static int inside(struct xg_ctx *ctx, const struct xg_set *a,
                  const struct xg_set *b, const struct xg_opts *opt,
                  const struct xg__engine_knobs *k, struct xg_contacts *out,
                  struct xg_stats *st)
{
    return xg__inside_gpu_run(ctx, a, b, opt, method(k, XG__IN_GPU), out, st);
}

static const struct xg__engine runs[] = {
    {&xg__op_segtri, XG_ENGINE_GPU, segtri, NULL},
    {&xg__op_redblue, XG_ENGINE_GPU, redblue, NULL},
    {&xg__op_inside, XG_ENGINE_GPU, inside, NULL},
    {&xg__op_delaunay, XG_ENGINE_GPU, NULL, xg__delaunay_gpu_run},
};

static const struct xg__gpu_engine cuda_engines = {
    xg__cuda_device_check, xg__cuda_device_count, runs,
    sizeof runs / sizeof runs[0]};
const struct xg__gpu_engine *const xg__gpu_engine = &cuda_engines;
