/*
 * pair_sink_t.c -- the pair engine's seam for the operations to come: an
 * A set of points, and a sink that reduces contacts into per-element
 * state instead of listing them (struct xg__pair_sink).
 *
 * A toy pair, point x triangle: a pair whose closed boxes meet is a
 * contact, of kind proper when the point lies strictly inside the
 * triangle's xy projection, touch when on its boundary, overlap when
 * outside (decided with xg_orient2d; the fast pass with the filter).
 * The reduce sink keeps per point the number of its contacts (a sum),
 * the parity of its proper ones (XOR) and whether one touched (OR),
 * with atomics -- point-in-solid's state in miniature.  Seq and cpu on
 * 1, 2 and 4 threads, on several grids, must give the brute-force loop's
 * state, run after run; the emit sink the brute force's list.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_sets.h"
#include "xg_pair.h"
#include "xg_boxes.h"
#include "xg_interval.h"
#include "tap.h"
#include "xg_rng.h"

/* ---- the toy pair ---- */

static int point_box(struct xg_counters *cnt, const double *p, double *box)
{
    (void)cnt;
    memcpy(box, p, 3 * sizeof *p);
    memcpy(box + 3, p, 3 * sizeof *p);
    return 0;
}

static int tri_box(struct xg_counters *cnt, const double *t, double *box)
{
    (void)cnt;
    xg__tri_box(t, box);
    return 0;
}

/* The kind from the three sides of p (each XG_NEG/ZERO/POS) and the
 * triangle's own orientation s (non-zero: the generator makes sure). */
static int kind_of(const int o[3], int s)
{
    int k, zero = 0;
    for (k = 0; k < 3; k++) {
        if (o[k] == -s)
            return XG_KIND_OVERLAP;
        zero += o[k] == XG_ZERO;
    }
    return zero ? XG_KIND_TOUCH : XG_KIND_PROPER;
}

static int toy_exact(struct xg_counters *cnt, const double *p,
                     const double *t, struct xg_contact *c)
{
    int o[3], k;
    for (k = 0; k < 3; k++)
        o[k] = xg_orient2d(cnt, t + 3 * k, t + 3 * ((k + 1) % 3), p);
    memset(c, 0, sizeof *c);
    c->kind = kind_of(o, xg_orient2d(cnt, t, t + 3, t + 6));
    memcpy(c->p, p, sizeof c->p);
    return 1;
}

static int toy_fast(struct xg_counters *cnt, const double *p,
                    const double *t, struct xg_contact *c)
{
    int o[3], k, s = xg_orient2d_filter(t, t + 3, t + 6);
    (void)cnt;
    for (k = 0; k < 3; k++)
        o[k] = xg_orient2d_filter(t + 3 * k, t + 3 * ((k + 1) % 3), p);
    if (s == XG_UNSURE || s == XG_ZERO || o[0] == XG_UNSURE ||
        o[1] == XG_UNSURE || o[2] == XG_UNSURE)
        return -1;
    memset(c, 0, sizeof *c);
    c->kind = kind_of(o, s);
    memcpy(c->p, p, sizeof c->p);
    return 1;
}

static const struct xg__pair_ops toy_ops = {
    XG_ELEM_POINT, XG_ELEM_TRIANGLE, 3, point_box, tri_box,
    toy_fast, toy_exact, NULL, 0,
};

/* ---- the reduce sink: per point, count, parity, touched ---- */

struct state {
    size_t n;
    atomic_uint *count;
    atomic_uint *bits;          /* 1: parity of proper, 2: touched */
    atomic_uint calls;
    unsigned fail_at;           /* non-zero: XG_ELIMIT at that call */
};

static int reduce(void *user, int tid, const struct xg_contact *c)
{
    struct state *s = user;
    (void)tid;
    if (s->fail_at && atomic_fetch_add(&s->calls, 1) + 1 == s->fail_at)
        return XG_ELIMIT;
    atomic_fetch_add_explicit(&s->count[c->a], 1, memory_order_relaxed);
    if (c->kind == XG_KIND_PROPER)
        atomic_fetch_xor_explicit(&s->bits[c->a], 1, memory_order_relaxed);
    else if (c->kind == XG_KIND_TOUCH)
        atomic_fetch_or_explicit(&s->bits[c->a], 2, memory_order_relaxed);
    return XG_OK;
}

static void state_init(struct state *s, size_t n)
{
    size_t i;
    memset(s, 0, sizeof *s);
    s->n = n;
    s->count = malloc(n * sizeof *s->count);
    s->bits = malloc(n * sizeof *s->bits);
    for (i = 0; i < n; i++) {
        atomic_init(&s->count[i], 0);
        atomic_init(&s->bits[i], 0);
    }
    atomic_init(&s->calls, 0);
}

static void state_free(struct state *s)
{
    free(s->count);
    free(s->bits);
}

/* Index of the first point whose state differs, or SIZE_MAX. */
static size_t state_diff(const struct state *x, const struct state *y)
{
    size_t i;
    for (i = 0; i < x->n; i++)
        if (atomic_load(&x->count[i]) != atomic_load(&y->count[i]) ||
            atomic_load(&x->bits[i]) != atomic_load(&y->bits[i]))
            return i;
    return SIZE_MAX;
}

/* ---- inputs and the brute force ---- */

/* Points and triangles on a coarse lattice (ties everywhere: points on
 * vertices, edges and box faces), then random ones; no triangle whose
 * xy projection is collinear. */
static void make_inputs(struct xg_set *pts, struct xg_set *tris, size_t np,
                        size_t nt)
{
    size_t i;
    for (i = 0; i < np; i++) {
        double p[3];
        int k;
        for (k = 0; k < 3; k++)
            p[k] = i % 2 ? (double)rng_int(9) : rng_range(0.0, 8.0);
        xg_set_push_point(pts, p, (int64_t)i, 0);
    }
    while (tris->n < nt) {
        double v[9];
        int k;
        for (k = 0; k < 9; k++)
            v[k] = tris->n % 2 ? (double)rng_int(9) : rng_range(0.0, 8.0);
        if (xg_orient2d(NULL, v, v + 3, v + 6) != XG_ZERO)
            xg_set_push_triangle(tris, v, v + 3, v + 6, (int64_t)tris->n, 0);
    }
}

static void brute(const struct xg_set *pts, const struct xg_set *tris,
                  struct state *s, struct xg_contacts *list)
{
    size_t i, j;
    for (i = 0; i < pts->n; i++)
        for (j = 0; j < tris->n; j++) {
            double pb[6], tb[6];
            struct xg_contact c;
            point_box(NULL, pts->xyz + 3 * i, pb);
            tri_box(NULL, tris->xyz + 9 * j, tb);
            if (!xg__boxes_meet(pb, tb))
                continue;
            toy_exact(NULL, pts->xyz + 3 * i, tris->xyz + 9 * j, &c);
            c.a = (uint32_t)i;
            c.b = (uint32_t)j;
            reduce(s, 0, &c);
            xg__contacts_push(list, &c);
        }
}

/* One run of the toy through the engine's entry and run; sink NULL:
 * emit into out. */
static int run(struct xg_ctx *ctx, int engine, int threads, const int grid[3],
               const struct xg_set *pts, const struct xg_set *tris,
               const struct xg__pair_sink *sink, struct xg_contacts *out,
               struct xg_stats *st)
{
    struct xg_opts opt;
    struct xg_contacts none = {0};
    int rc, e;
    memset(&opt, 0, sizeof opt);
    opt.engine = engine;
    memcpy(opt.grid, grid, sizeof opt.grid);
    xg_ctx_set_threads(ctx, threads);
    rc = xg__pair_begin(ctx, &toy_ops, pts, tris, &opt, out ? out : &none,
                        st, &e);
    if (rc == XG_OK)
        rc = xg__pair_run(ctx, &toy_ops, pts->xyz, pts->n, tris->xyz,
                          tris->n, &opt, st->threads, sink, out, st);
    return rc;
}

int main(void)
{
    static const int grids[3][3] = {{0, 0, 0}, {3, 3, 3}, {7, 5, 4}};
    static const int threads[4] = {1, 1, 2, 4};
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set pts = {0}, tris = {0};
    struct state want, got, again;
    struct xg_contacts list = {0}, out = {0};
    struct xg_stats st;
    struct xg__pair_sink sink;
    uint64_t kinds[XG_KIND_COUNT] = {0};
    size_t i, odd = 0, touched = 0;
    int gi, ti, rc;

    (void)tap_plan;
    rng_seed_from_env(0x5eed5);
    make_inputs(&pts, &tris, 2000, 300);
    state_init(&want, pts.n);
    brute(&pts, &tris, &want, &list);
    xg__contacts_sort(&list);
    for (i = 0; i < list.n; i++)
        kinds[list.v[i].kind]++;
    for (i = 0; i < pts.n; i++) {
        odd += atomic_load(&want.bits[i]) & 1;
        touched += (atomic_load(&want.bits[i]) & 2) != 0;
    }
    ok(list.n > 1000 && kinds[XG_KIND_PROPER] > 50 && kinds[XG_KIND_TOUCH] > 50 &&
           odd && touched,
       "brute force: %zu contacts (%llu inside, %llu on a boundary); %zu "
       "points of odd parity, %zu touched",
       list.n, (unsigned long long)kinds[XG_KIND_PROPER],
       (unsigned long long)kinds[XG_KIND_TOUCH], odd, touched);

    for (gi = 0; gi < 3; gi++)
        for (ti = 0; ti < 4; ti++) {
            int engine = ti == 0 ? XG_ENGINE_SEQ : XG_ENGINE_CPU;
            const char *ename = ti == 0 ? "seq" : "cpu";
            state_init(&got, pts.n);
            state_init(&again, pts.n);
            sink.reduce = reduce;
            sink.user = &got;
            rc = run(ctx, engine, threads[ti], grids[gi], &pts, &tris, &sink,
                     NULL, &st);
            ok(rc == XG_OK && state_diff(&got, &want) == SIZE_MAX &&
                   st.contacts[XG_KIND_PROPER] == kinds[XG_KIND_PROPER] &&
                   st.contacts[XG_KIND_TOUCH] == kinds[XG_KIND_TOUCH] &&
                   st.contacts[XG_KIND_OVERLAP] == kinds[XG_KIND_OVERLAP],
               "grid %d,%d,%d, %s, %d thread(s): reduce equals the brute "
               "force (grid %d x %d x %d; kinds counted)",
               grids[gi][0], grids[gi][1], grids[gi][2], ename, st.threads,
               st.grid[0], st.grid[1], st.grid[2]);
            sink.user = &again;
            rc = run(ctx, engine, threads[ti], grids[gi], &pts, &tris, &sink,
                     NULL, &st);
            ok(rc == XG_OK && state_diff(&again, &got) == SIZE_MAX,
               "... and again, the same state");
            rc = run(ctx, engine, threads[ti], grids[gi], &pts, &tris, NULL,
                     &out, &st);
            ok(rc == XG_OK && xg_contacts_diff(&out, &list) == SIZE_MAX,
               "... emit: the brute force's %zu contacts in (a, b) order",
               out.n);
            state_free(&got);
            state_free(&again);
        }

    /* A reduce that fails stops the run with its code. */
    state_init(&got, pts.n);
    got.fail_at = 100;
    sink.reduce = reduce;
    sink.user = &got;
    rc = run(ctx, XG_ENGINE_CPU, 2, grids[0], &pts, &tris, &sink, NULL, &st);
    ok(rc == XG_ELIMIT && strstr(xg_ctx_errmsg(ctx), "reduction"),
       "a reduce answering XG_ELIMIT stops the run: %s (\"%s\")",
       xg_strerror(rc), xg_ctx_errmsg(ctx));
    state_free(&got);

    xg_contacts_free(&out);
    xg_contacts_free(&list);
    state_free(&want);
    xg_set_free(&pts);
    xg_set_free(&tris);
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
