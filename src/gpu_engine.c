/*
 * gpu_engine.c -- the one door from src/ to the GPU engines: the table
 * the CUDA build registers (cuda/gpu_engines.c; NULL without CUDA,
 * gpu_none.c), the context's choice of devices and stream, and what
 * users see when there is no engine to run.
 */
#include <string.h>
#include "xg_inside.h"

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

int xg__gpu_segtri_ex(struct xg_ctx *ctx, const struct xg_set *a,
                      const struct xg_set *b, const struct xg_opts *opt,
                      struct xg_gpu_opts *gopt, struct xg_contacts *out,
                      struct xg_stats *st)
{
    if (!xg__gpu_engine)
        return xg__error(ctx, XG_ENOTSUP, NO_CUDA);
    return xg__gpu_engine->segtri(ctx, a, b, opt, gopt, out, st);
}

int xg__gpu_segtri(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg_set *b, const struct xg_opts *opt,
                   struct xg_contacts *out, struct xg_stats *st)
{
    struct xg_gpu_opts go;
    memset(&go, 0, sizeof go);
    go.strategy = XG_GPU_PACKED;
    return xg__gpu_segtri_ex(ctx, a, b, opt, &go, out, st);
}

int xg__gpu_redblue(struct xg_ctx *ctx, const struct xg_set *a,
                    const struct xg_set *b, const struct xg_opts *opt,
                    int method, struct xg_contacts *out, struct xg_stats *st)
{
    if (!xg__gpu_engine)
        return xg__error(ctx, XG_ENOTSUP, NO_CUDA);
    return xg__gpu_engine->redblue(ctx, a, b, opt, method, out, st);
}

int xg__gpu_inside(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg_set *b, const struct xg_opts *opt,
                   int method, struct xg_contacts *out, struct xg_stats *st)
{
    if (!xg__gpu_engine)
        return xg__error(ctx, XG_ENOTSUP, NO_CUDA);
    if (!xg__gpu_engine->inside)
        return xg__error(ctx, XG_ENOTSUP, "this build's GPU engine has no "
                                          "point-in-solid");
    return xg__gpu_engine->inside(ctx, a, b, opt, method, out, st);
}

int xg__gpu_delaunay(struct xg_ctx *ctx, const struct xg_set *pts,
                     const uint32_t *gid, size_t n, const struct xg_opts *opt,
                     struct xg_triangles *out, struct xg_stats *st)
{
    if (!xg__gpu_engine)
        return xg__error(ctx, XG_ENOTSUP, NO_CUDA);
    if (!xg__gpu_engine->delaunay)
        return xg__error(ctx, XG_ENOTSUP, "this build's GPU engine has no "
                                          "delaunay");
    return xg__gpu_engine->delaunay(ctx, pts, gid, n, opt, out, st);
}
