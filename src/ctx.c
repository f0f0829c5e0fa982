/* ctx.c -- the context, result codes and names. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exactgeo.h"
#include "xg_ctx.h"

const char *xg_strerror(int code)
{
    switch (code) {
#define XG__RESULT_TEXT(name, num, text) case num: return text;
        XG_RESULT_MAP(XG__RESULT_TEXT)
#undef XG__RESULT_TEXT
    default:
        return "unknown result code";
    }
}

struct xg_ctx *xg_ctx_new(void)
{
    struct xg_ctx *ctx = calloc(1, sizeof(struct xg_ctx));
    if (ctx) {
        ctx->gpus[0] = -1;        /* the calling thread's current device */
        ctx->ngpus = 1;
    }
    return ctx;
}

void xg_ctx_free(struct xg_ctx *ctx)
{
    if (ctx && ctx->gpu_free)
        ctx->gpu_free(ctx->gpu);
    free(ctx);
}

int xg_ctx_set_threads(struct xg_ctx *ctx, int nthreads)
{
    if (nthreads < 0 || nthreads > 1024)
        return xg__error(ctx, XG_EINVAL, "thread count %d is not in 0..1024",
                         nthreads);
    ctx->nthreads = nthreads;
    return XG_OK;
}

int xg_ctx_threads(const struct xg_ctx *ctx)
{
    return ctx->nthreads;
}

int xg__threads(const struct xg_ctx *ctx)
{
    long n;
    if (ctx && ctx->nthreads > 0)
        return ctx->nthreads;
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

void xg_ctx_set_progress(struct xg_ctx *ctx, xg_progress_fn fn, void *user)
{
    ctx->progress = fn;
    ctx->progress_user = user;
}

const char *xg_ctx_errmsg(const struct xg_ctx *ctx)
{
    return ctx ? ctx->errmsg : "";
}

int xg__error(struct xg_ctx *ctx, int code, const char *fmt, ...)
{
    va_list ap;
    if (!ctx)
        return code;
    va_start(ap, fmt);
    vsnprintf(ctx->errmsg, sizeof ctx->errmsg, fmt, ap);
    va_end(ap);
    return code;
}

const char *xg_kind_name(int kind, int dim)
{
    switch (kind) {
    case XG_KIND_PROPER:
        return "proper";
    case XG_KIND_TOUCH:
        return "touch";
    case XG_KIND_OVERLAP:
        return dim == 3 ? "coplanar" : "overlap";
    case XG_KIND_INSIDE:
        return "inside";
    case XG_KIND_BOUNDARY:
        return "boundary";
    case XG_KIND_OUTSIDE:
        return "outside";
    default:
        return "unknown";
    }
}

static const char *const engine_names[] = {"auto", "seq", "cpu", "gpu"};

const char *xg_engine_name(int engine)
{
    if (engine < 0 || engine > XG_ENGINE_GPU)
        return "unknown";
    return engine_names[engine];
}

int xg_engine_parse(const char *text)
{
    int i;
    for (i = 0; i <= XG_ENGINE_GPU; i++)
        if (strcmp(text, engine_names[i]) == 0)
            return i;
    return -1;
}

const char *xg_stage_name(int stage)
{
    static const char *const names[XG_STAGE_COUNT] = {
        "prepare", "upload", "intersect", "download", "exact", "unique"};
    return stage >= 0 && stage < XG_STAGE_COUNT ? names[stage] : "unknown";
}
