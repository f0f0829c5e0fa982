/*
 * pair_engine_t.c -- the error and cancel paths shared by every engine
 * (src/pair_engine.c): a grid that cannot be built leaves no memory
 * behind; the progress callback keeps its contract (calling thread only,
 * never concurrent, 0 first, 1 last, never decreasing); and a cancel
 * asked at any call -- the first, one in the middle, the last -- always
 * ends in XG_ECANCEL with no contacts, on seq, on cpu with one thread and
 * on cpu with many, 200 times each so that a race would show.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#if defined(__SANITIZE_ADDRESS__)
/* ASan's own count (sanitizer/allocator_interface.h, which GCC 12 does
 * not install). */
size_t __sanitizer_get_current_allocated_bytes(void);
#elif defined(__GLIBC__)
#include <malloc.h>
#endif
#include "exactgeo.h"
#include "tap.h"
#include "xg_rng.h"

#define REPEAT 200
#define N 300               /* segments and triangles */

static double lattice(int n)    /* a multiple of 1/4 in [0, n) */
{
    return (double)rng_int(4 * n) / 4.0;
}

static void make_inputs(struct xg_set *a, struct xg_set *b, int n)
{
    int i, k;
    for (i = 0; i < n; i++) {
        double p[3], q[3], t[3][3];
        for (k = 0; k < 3; k++) {
            p[k] = lattice(10);
            q[k] = p[k] + lattice(4) - 2.0;
        }
        xg_set_push_segment(a, p, q, i, 0);
        for (k = 0; k < 3; k++) {
            t[0][k] = lattice(10);
            t[1][k] = t[0][k] + lattice(4);
            t[2][k] = t[0][k] + lattice(4) - 2.0;
        }
        xg_set_push_triangle(b, t[0], t[1], t[2], i, 0);
    }
}

/* ---- the leak when the grid cannot be built ---- */

/* Bytes the allocator has handed out and not had back; -1 when this
 * platform cannot tell. */
static long long heap_in_use(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return (long long)__sanitizer_get_current_allocated_bytes();
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    struct mallinfo2 m = mallinfo2();
    return (long long)(m.uordblks + m.hblkhd);
#else
    return -1;
#endif
}

/* A grid of 2048^3 cells is over the limit (2^31): xg__grid_build fails
 * after xg__pair_prepare has made the boxes (48 bytes an element). */
static void grid_failure_frees(void)
{
    struct xg_set a = {0};
    struct xg_set b = {0};
    struct xg_contacts out = {0};
    struct xg_opts opt = {.engine = XG_ENGINE_SEQ, .grid = {2048, 2048, 2048}};
    struct xg_ctx *ctx = xg_ctx_new();
    long long before, after, boxes = 20000LL * 48 * 2;
    int e, rc = XG_OK, i;

    make_inputs(&a, &b, 20000);
    for (e = 0; e < 2; e++) {
        opt.engine = e ? XG_ENGINE_CPU : XG_ENGINE_SEQ;
        xg_ctx_set_threads(ctx, e ? 4 : 1);
        before = heap_in_use();
        for (i = 0; i < 3; i++)
            rc = xg_segtri(ctx, &a, &b, &opt, &out, NULL);
        after = heap_in_use();
        ok(rc == XG_ELIMIT && out.n == 0,
           "%s: a grid over the cell limit is XG_ELIMIT (%s)",
           e ? "cpu" : "seq", xg_ctx_errmsg(ctx));
        if (before < 0)
            ok(1, "# SKIP no way to measure the heap here");
        else
            ok(after - before < boxes / 4,
               "%s: three failed grids leave no memory behind "
               "(%lld bytes still held; the boxes are %lld a run)",
               e ? "cpu" : "seq", after - before, boxes);
    }
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
}

/* ---- the progress contract and cancellation ---- */

struct probe {
    pthread_t caller;
    atomic_int inside;          /* calls running now */
    double cancel_from;         /* cancel at the first fraction >= this */
    int calls, cancels, after_cancel, concurrent, other_thread, backwards,
        out_of_range;
    double first, last;
};

static int probe_cb(double f, void *user)
{
    struct probe *p = user;
    int cancel;
    if (atomic_fetch_add(&p->inside, 1) != 0)
        p->concurrent++;
    if (!pthread_equal(pthread_self(), p->caller))
        p->other_thread++;
    if (p->cancels)
        p->after_cancel++;
    if (!(f >= 0.0 && f <= 1.0))
        p->out_of_range++;
    if (p->calls == 0)
        p->first = f;
    else if (f < p->last)
        p->backwards++;
    p->last = f;
    p->calls++;
    cancel = f >= p->cancel_from;
    p->cancels += cancel;
    atomic_fetch_sub(&p->inside, 1);
    return cancel;
}

static void probe_reset(struct probe *p, double cancel_from)
{
    memset(p, 0, sizeof *p);
    atomic_init(&p->inside, 0);
    p->caller = pthread_self();
    p->cancel_from = cancel_from;
}

/* Same contacts: ids, kind, point, and the other end of an overlap. */
static int same_contacts(const struct xg_contacts *x,
                         const struct xg_contacts *y)
{
    size_t i;
    if (x->n != y->n)
        return 0;
    for (i = 0; i < x->n; i++) {
        const struct xg_contact *c = &x->v[i], *d = &y->v[i];
        if (c->a != d->a || c->b != d->b || c->kind != d->kind ||
            memcmp(c->p, d->p, sizeof c->p) != 0 ||
            (c->kind == XG_KIND_OVERLAP &&
             memcmp(c->q, d->q, sizeof c->q) != 0))
            return 0;
    }
    return 1;
}

/* Runs of one engine; the contract checked on every run. */
struct config {
    const char *name;
    int engine, threads;
};

static int contract_kept(const struct probe *p)
{
    return p->concurrent == 0 && p->other_thread == 0 && p->backwards == 0 &&
           p->out_of_range == 0 && p->after_cancel == 0;
}

static void engine_cancels(const struct config *cf, const struct xg_set *a,
                           const struct xg_set *b,
                           const struct xg_contacts *ref)
{
    /* never, at the first call, from the middle on, at the last call */
    static const double at[4] = {2.0, 0.0, 0.5, 1.0};
    static const char *const what[4] = {
        "no cancel: the contacts, progress from 0 to 1",
        "cancel at the first call (0): XG_ECANCEL, no contacts",
        "cancel from fraction 0.5 on: XG_ECANCEL, no contacts",
        "cancel at the last call (1): XG_ECANCEL, no contacts"};
    struct xg_opts opt = {.engine = cf->engine};
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_contacts out = {0};
    struct probe p;
    int m, i;

    xg_ctx_set_threads(ctx, cf->threads);
    xg_ctx_set_progress(ctx, probe_cb, &p);
    for (m = 0; m < 4; m++) {
        int good = 0, rc = XG_OK, calls = 0;
        for (i = 0; i < REPEAT; i++) {
            int this_ok;
            probe_reset(&p, at[m]);
            rc = xg_segtri(ctx, a, b, &opt, &out, NULL);
            calls = p.calls;
            if (m == 0)
                this_ok = rc == XG_OK && same_contacts(&out, ref) &&
                          p.calls >= 2 && p.first == 0.0 && p.last == 1.0;
            else
                this_ok = rc == XG_ECANCEL && out.n == 0 && p.cancels == 1 &&
                          (m != 1 || p.calls == 1);
            good += this_ok && contract_kept(&p);
        }
        ok(good == REPEAT, "%s: %s (%d of %d runs; last: %s, %d calls)",
           cf->name, what[m], good, REPEAT, xg_strerror(rc), calls);
    }
    xg_contacts_free(&out);
    xg_ctx_free(ctx);
}

/* xg_redblue shares the entry and the exit: a cancel at the last call. */
static void redblue_cancels_last(int engine, const char *name)
{
    struct xg_set a = {0}, b = {0};
    struct xg_opts opt = {.engine = engine};
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_contacts out = {0};
    struct probe p;
    double s[2][3] = {{0, 0, 0}, {4, 4, 0}}, t[2][3] = {{0, 4, 0}, {4, 0, 0}};
    int rc;

    xg_set_push_segment(&a, s[0], s[1], 1, 0);
    xg_set_push_segment(&b, t[0], t[1], 1, 0);
    xg_ctx_set_progress(ctx, probe_cb, &p);
    probe_reset(&p, 1.0);
    rc = xg_redblue(ctx, &a, &b, &opt, &out, NULL);
    ok(rc == XG_ECANCEL && out.n == 0 && p.calls == 2 && p.first == 0.0 &&
           contract_kept(&p),
       "redblue %s: cancel at the last call is XG_ECANCEL (%s, %d calls)",
       name, xg_strerror(rc), p.calls);
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
}

int main(void)
{
    static const struct config cfs[4] = {
        {"seq", XG_ENGINE_SEQ, 1},
        {"cpu, 1 thread", XG_ENGINE_CPU, 1},
        {"cpu, 8 threads", XG_ENGINE_CPU, 8},
        {"gpu", XG_ENGINE_GPU, 1},
    };
    struct xg_set a = {0};
    struct xg_set b = {0};
    struct xg_contacts ref = {0};
    struct xg_opts opt = {.engine = XG_ENGINE_SEQ};
    int c;

    rng_seed_from_env(2024);
    (void)tap_plan;
    grid_failure_frees();

    make_inputs(&a, &b, N);
    c = xg_segtri(NULL, &a, &b, &opt, &ref, NULL);
    ok(c == XG_OK && ref.n > 50,
       "reference contacts from seq without progress (%zu)", ref.n);
    for (c = 0; c < 4; c++) {
        if (cfs[c].engine == XG_ENGINE_GPU && !xg_gpu_available()) {
            ok(1, "# SKIP no GPU: the gpu engine's cancels");
            continue;
        }
        engine_cancels(&cfs[c], &a, &b, &ref);
    }
    redblue_cancels_last(XG_ENGINE_SEQ, "seq");
    redblue_cancels_last(XG_ENGINE_CPU, "cpu");
    if (xg_gpu_available())
        redblue_cancels_last(XG_ENGINE_GPU, "gpu");

    xg_contacts_free(&ref);
    xg_set_free(&a);
    xg_set_free(&b);
    tap_done();
    return tap_exit();
}
