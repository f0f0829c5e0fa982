/*
 * gpu_ctx_t.c -- the context's GPU choice (xg_ctx_set_gpu) is checked,
 * and a build or machine without a usable GPU answers exactly as before:
 * the same codes and messages from the engines (src/gpu_engine.c).  Runs
 * everywhere; the runs on a chosen device and stream are in gpu_t.c.
 */
#include <string.h>
#include "xg_engine.h"
#include "tap.h"
#include "xg_gpu.h"

static void small_sets(struct xg_set *a, struct xg_set *b)
{
    static const double p[3] = {0, 0, -1}, q[3] = {0, 0, 1};
    static const double t0[3] = {-1, -1, 0}, t1[3] = {1, -1, 0},
                        t2[3] = {0, 1, 0};
    xg_set_push_segment(a, p, q, 1, 0);
    xg_set_push_triangle(b, t0, t1, t2, 2, 0);
}

/* What the gpu engine answers here, through the public entries. */
static void engine_refuses(struct xg_ctx *ctx, const char *why)
{
    struct xg_set a = {0}, b = {0}, ra = {0}, rb = {0};
    struct xg_contacts out = {0};
    struct xg_opts opt;
    struct xg_stats st;
    char want[160];
    static const double p[3] = {0, 0, 0}, q[3] = {1, 1, 0},
                        r[3] = {0, 1, 0}, s[3] = {1, 0, 0};
    int rc;

    small_sets(&a, &b);
    xg_set_push_segment(&ra, p, q, 1, 0);
    xg_set_push_segment(&rb, r, s, 2, 0);
    snprintf(want, sizeof want, "the gpu engine needs a CUDA build and a "
             "usable GPU; this %s", why);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_GPU;
    rc = xg_segtri(ctx, &a, &b, &opt, &out, &st);
    ok(rc == XG_ENOGPU && strcmp(xg_ctx_errmsg(ctx), want) == 0 &&
           out.n == 0,
       "segtri on the gpu engine: XG_ENOGPU, \"%s\"", xg_ctx_errmsg(ctx));
    rc = xg_redblue(ctx, &ra, &rb, &opt, &out, &st);
    ok(rc == XG_ENOGPU && strcmp(xg_ctx_errmsg(ctx), want) == 0,
       "redblue on the gpu engine: XG_ENOGPU, the same message");
    opt.engine = XG_ENGINE_AUTO;
    rc = xg_segtri(ctx, &a, &b, &opt, &out, &st);
    ok(rc == XG_OK && st.engine == XG_ENGINE_CPU && out.n == 1,
       "engine auto runs on the cpu (%zu contact)", out.n);
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_set_free(&ra);
    xg_set_free(&rb);
}

int main(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0}, b = {0};
    struct xg_contacts out = {0};
    struct xg_stats st;
    int rc;

    (void)tap_plan;
    ok(xg_ctx_gpu(ctx) == -1 && xg_ctx_gpu_stream(ctx) == NULL,
       "a new context: the current device, the engine's own stream");
    rc = xg_ctx_set_gpu(ctx, -2, NULL);
    ok(rc == XG_EINVAL && strstr(xg_ctx_errmsg(ctx), "GPU device -2") &&
           xg_ctx_gpu(ctx) == -1,
       "device -2: XG_EINVAL (\"%s\"), choice kept", xg_ctx_errmsg(ctx));
    ok(xg_ctx_set_gpu(ctx, -1, NULL) == XG_OK && xg_ctx_gpu(ctx) == -1,
       "the default (-1, NULL) is accepted by every build");

    if (!xg__gpu_engine) {
        rc = xg_ctx_set_gpu(ctx, 0, NULL);
        ok(rc == XG_ENOTSUP &&
               strcmp(xg_ctx_errmsg(ctx), "this build has no CUDA support") ==
                   0 &&
               xg_ctx_gpu(ctx) == -1,
           "no CUDA: device 0 is XG_ENOTSUP, choice kept");
        rc = xg_ctx_set_gpu(ctx, -1, &rc);
        ok(rc == XG_ENOTSUP && xg_ctx_gpu_stream(ctx) == NULL,
           "no CUDA: a stream is XG_ENOTSUP, choice kept");
        ok(!xg_gpu_available() && !xg__gpu_usable(ctx),
           "no CUDA: no usable GPU");
        engine_refuses(ctx, "build has no CUDA support");
        small_sets(&a, &b);
        rc = xg__engine_pair(ctx, &xg__op_segtri, XG_ENGINE_GPU, &a, &b, NULL,
                             NULL, &out, &st);
        ok(rc == XG_ENOTSUP &&
               strcmp(xg_ctx_errmsg(ctx), "this build has no CUDA support") ==
                   0,
           "no CUDA: the segtri engine itself is XG_ENOTSUP");
        rc = xg__engine_pair(ctx, &xg__op_redblue, XG_ENGINE_GPU, &a, &a,
                             NULL, NULL, &out, &st);
        ok(rc == XG_ENOTSUP &&
               strcmp(xg_ctx_errmsg(ctx), "this build has no CUDA support") ==
                   0,
           "no CUDA: the red/blue engine itself is XG_ENOTSUP");
    } else {
        /* A CUDA build: a device number past any machine's. */
        rc = xg_ctx_set_gpu(ctx, 1 << 20, NULL);
        ok((rc == XG_EINVAL || (rc == XG_ENOGPU && !xg_gpu_available())) &&
               xg_ctx_gpu(ctx) == -1,
           "CUDA: device 2^20 is refused (%s: \"%s\"), choice kept",
           xg_strerror(rc), xg_ctx_errmsg(ctx));
        if (!xg_gpu_available())
            engine_refuses(ctx, "build has CUDA but found no usable GPU");
        else
            ok(xg__gpu_usable(ctx), "CUDA: the current device is usable");
    }
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
