/*
 * gpu_engine.c -- the one door from src/ to the registered engines: the
 * list the CUDA build registers by (operation, kind) (xg_engine.h,
 * cuda/gpu_engines.c; NULL without CUDA, gpu_none.c), the context's
 * choice of devices and stream, and what users see when there is no
 * engine to run.
 */
#include <string.h>
#include "xg_engine.h"
#include "xg_ctx.h"
#include "xg_gpu.h"

#define NO_CUDA "this build has no CUDA support"

int xg_ctx_set_gpu(struct xg_ctx *ctx, int device, void *stream)
{
    int rc, resolved = device;
    if (device < -1)
        return xg__error(ctx, XG_EINVAL, "GPU device %d: a device number "
                         "is 0 or more, or -1 for the current one", device);
    if (device != -1 || stream) {
        if (!xg__gpu_engine)
            return xg__error(ctx, XG_ENOTSUP, NO_CUDA);
        if ((rc = xg__gpu_engine->check(ctx, device, stream, &resolved)) !=
            XG_OK)
            return rc;
    }
    /* (-1, NULL) is the default, in every build */
    ctx->gpus[0] = resolved;
    ctx->ngpus = 1;
    ctx->gpu_stream = stream;
    return XG_OK;
}

int xg_ctx_set_gpus(struct xg_ctx *ctx, const int *devices, int n)
{
    int i, rc, resolved;
    if (!devices || n < 1 || n > XG_GPUS_MAX)
        return xg__error(ctx, XG_EINVAL, "%d GPUs: a list holds 1 to %d "
                         "devices", n, XG_GPUS_MAX);
    if (n == 1)
        return xg_ctx_set_gpu(ctx, devices[0], NULL);
    for (i = 0; i < n; i++)
        if (devices[i] < 0)
            return xg__error(ctx, XG_EINVAL, "GPU device %d: a device in a "
                             "list is 0 or more", devices[i]);
    if (!xg__gpu_engine)
        return xg__error(ctx, XG_ENOTSUP, NO_CUDA);
    for (i = 0; i < n; i++) {
        if ((rc = xg__gpu_engine->check(ctx, devices[i], NULL,
                                        &resolved)) != XG_OK)
            return rc;
    }
    memcpy(ctx->gpus, devices, (size_t)n * sizeof *devices);
    ctx->ngpus = n;
    ctx->gpu_stream = NULL;
    return XG_OK;
}

int xg_ctx_gpu(const struct xg_ctx *ctx)
{
    return ctx->gpus[0];
}

int xg_ctx_gpus(const struct xg_ctx *ctx, int *devices, int max)
{
    int i;
    for (i = 0; i < ctx->ngpus && i < max; i++)
        devices[i] = ctx->gpus[i];
    return ctx->ngpus;
}

void *xg_ctx_gpu_stream(const struct xg_ctx *ctx)
{
    return ctx->gpu_stream;
}

int xg_gpu_count(void)
{
    return xg__gpu_engine ? xg__gpu_engine->count() : 0;
}

int xg__gpu_usable(struct xg_ctx *ctx)
{
    int resolved;
    return xg__gpu_engine &&
           xg__gpu_engine->check(NULL, ctx ? ctx->gpus[0] : -1, NULL,
                                 &resolved) == XG_OK;
}

int xg_gpu_available(void)
{
    return xg__gpu_usable(NULL);
}

int xg__gpu_require(struct xg_ctx *ctx)
{
    if (xg__gpu_usable(ctx))
        return XG_OK;
    return xg__error(ctx, XG_ENOGPU,
                     "the gpu engine needs a CUDA build and a usable GPU; "
                     "this %s",
                     xg__gpu_engine ? "build has CUDA but found no usable GPU"
                                    : "build has no CUDA support");
}

const struct xg__engine *xg__engine_find(const struct xg_op *op, int kind)
{
    size_t i;
    for (i = 0; xg__gpu_engine && i < xg__gpu_engine->nruns; i++) {
        const struct xg__engine *e = &xg__gpu_engine->runs[i];
        if (e->op == op && e->kind == kind)
            return e;
    }
    return NULL;
}

/* XG_ENOTSUP for a run of op that no engine registered: the build has
 * no CUDA, or its GPU engine does not run op. */
static int none(struct xg_ctx *ctx, const struct xg_op *op)
{
    if (!xg__gpu_engine)
        return xg__error(ctx, XG_ENOTSUP, NO_CUDA);
    return xg__error(ctx, XG_ENOTSUP, "this build's GPU engine has no %s",
                     op->name);
}

int xg__engine_pair(struct xg_ctx *ctx, const struct xg_op *op, int kind,
                    const struct xg_set *a, const struct xg_set *b,
                    const struct xg_opts *opt,
                    const struct xg__engine_knobs *k,
                    struct xg_contacts *out, struct xg_stats *st)
{
    const struct xg__engine *e = xg__engine_find(op, kind);
    if (!e || !e->pair)
        return none(ctx, op);
    return e->pair(ctx, a, b, opt, k, out, st);
}

int xg__engine_tri(struct xg_ctx *ctx, const struct xg_op *op, int kind,
                   const struct xg_set *pts, const uint32_t *gid, size_t n,
                   const struct xg_opts *opt, struct xg_triangles *out,
                   struct xg_stats *st)
{
    const struct xg__engine *e = xg__engine_find(op, kind);
    if (!e || !e->tri)
        return none(ctx, op);
    return e->tri(ctx, pts, gid, n, opt, out, st);
}
