/*
 * regions_t.c -- the partitioned run (xg_opts.regions, regions_run.c):
 * with 1 to 7 regions, on the seq engine and the cpu engine on 1, 2 and 3
 * threads, xg_segtri, xg_redblue and xg_inside (with and without
 * outside records) give the whole run's contacts bit for bit and its
 * counts (a_count, b_count, a_skipped, b_skipped, contacts[]), on random
 * data at UTM magnitudes and on lattice data whose contacts crowd the
 * cuts (tests/regions_data.h).  Also: an open solid fails as the whole
 * run fails, with its message; progress and cancel across regions; the
 * limits; and the context's list of GPUs (xg_ctx_set_gpus) in a build or
 * on a machine without a GPU.
 */
#include <math.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"
#include "regions_data.h"

static struct xg_ctx *ctx;

struct engine {
    int engine, threads;
    const char *name;
};

static const struct engine engines[] = {
    {XG_ENGINE_SEQ, 1, "seq"},
    {XG_ENGINE_CPU, 1, "cpu/1"},
    {XG_ENGINE_CPU, 2, "cpu/2"},
    {XG_ENGINE_CPU, 3, "cpu/3"},
};
#define NENGINES (sizeof engines / sizeof engines[0])

/* The counts that describe the input and the answer: the whole run's. */
static int same_counts(const struct xg_stats *x, const struct xg_stats *y)
{
    return x->a_count == y->a_count && x->b_count == y->b_count &&
           x->a_skipped == y->a_skipped && x->b_skipped == y->b_skipped &&
           memcmp(x->contacts, y->contacts, sizeof x->contacts) == 0 &&
           x->engine == y->engine && x->threads == y->threads;
}

/* Contacts whose point has an integer x in 1 .. 5: on a cut of 2, 3 or
 * 6 regions over [0, 6]. */
static size_t on_cuts(const struct xg_contacts *c)
{
    size_t i, n = 0;
    for (i = 0; i < c->n; i++) {
        double x = c->v[i].p[0];
        n += x >= 1 && x <= 5 && x == floor(x);
    }
    return n;
}

/* The x range of the elements of a set. */
static void x_range(const struct xg_set *s, double *lo, double *hi)
{
    size_t i, per = (size_t)xg_elem_doubles(s->elem);
    for (i = 0; i < s->n * per; i += 3) {
        if (s->xyz[i] < *lo)
            *lo = s->xyz[i];
        if (s->xyz[i] > *hi)
            *hi = s->xyz[i];
    }
}

/* op over a and b, whole and in 2..7 regions, on every engine. */
static void check_op(const char *name, xg_op_run_fn run,
                     const struct xg_set *a, const struct xg_set *b,
                     int outside, int lattice)
{
    struct xg_contacts whole, part;
    struct xg_stats sw, sp;
    struct xg_opts opt;
    size_t e;
    int n, runs = 0, differ = 0, counts = 0, failed = 0, tagged = 0;
    memset(&whole, 0, sizeof whole);
    memset(&part, 0, sizeof part);
    for (e = 0; e < NENGINES; e++) {
        memset(&opt, 0, sizeof opt);
        opt.engine = engines[e].engine;
        opt.outside = outside;
        xg_ctx_set_threads(ctx, engines[e].threads);
        if (run(ctx, a, b, &opt, &whole, &sw) != XG_OK) {
            ok(0, "%s, %s: the whole run fails: %s", name, engines[e].name,
               xg_ctx_errmsg(ctx));
            continue;
        }
        if (e == 0 && lattice) {
            double lo = HUGE_VAL, hi = -HUGE_VAL;
            x_range(a, &lo, &hi);
            x_range(b, &lo, &hi);
            ok(lo == 0 && hi == 6, "%s: the data spans [%g, %g] in x: the "
               "cuts of 2, 3, 6 regions are integers", name, lo, hi);
        }
        if (e == 0) {
            ok(whole.n > 0 && (!lattice || on_cuts(&whole) > whole.n / 10),
               "%s: %zu contacts, %zu of them at integer x in 1..5 (on "
               "the cuts of 2, 3, 6 regions)", name, whole.n,
               on_cuts(&whole));
            ok(sw.regions == 1, "%s: the whole run says 1 region", name);
        }
        for (n = 1; n <= 7; n++) {
            opt.regions = n;
            runs++;
            if (run(ctx, a, b, &opt, &part, &sp) != XG_OK) {
                failed++;
                printf("# %s, %s, %d regions: %s\n", name, engines[e].name,
                       n, xg_ctx_errmsg(ctx));
                continue;
            }
            if (xg_contacts_diff(&whole, &part) != SIZE_MAX) {
                differ++;
                printf("# %s, %s, %d regions: first difference at %zu "
                       "(%zu vs %zu contacts)\n", name, engines[e].name, n,
                       xg_contacts_diff(&whole, &part), whole.n, part.n);
            }
            if (!same_counts(&sw, &sp)) {
                counts++;
                printf("# %s, %s, %d regions: counts differ (skipped %llu "
                       "%llu vs %llu %llu)\n", name, engines[e].name, n,
                       (unsigned long long)sw.a_skipped,
                       (unsigned long long)sw.b_skipped,
                       (unsigned long long)sp.a_skipped,
                       (unsigned long long)sp.b_skipped);
            }
            tagged += sp.regions != n || sp.gpus != 0;
        }
    }
    ok(runs > 0 && differ == 0 && failed == 0,
       "%s: %d partitioned runs (1..7 regions, seq and cpu on 1..3 "
       "threads) give the whole run's contacts bit for bit (%d differ, %d "
       "failed)", name, runs, differ, failed);
    ok(counts == 0 && tagged == 0,
       "%s: and its counts (%d differ; %d with the wrong regions or gpus)",
       name, counts, tagged);
    xg_contacts_free(&whole);
    xg_contacts_free(&part);
}

static void segtri_cases(void)
{
    int lattice;
    for (lattice = 1; lattice >= 0; lattice--) {
        struct xg_set a = {0}, b = {0};
        rd_segtri(&a, &b, 700, 500, lattice);
        check_op(lattice ? "segtri, lattice" : "segtri, random UTM",
                 xg_segtri, &a, &b, 0, lattice);
        xg_set_free(&a);
        xg_set_free(&b);
    }
}

static void redblue_cases(void)
{
    int lattice;
    for (lattice = 1; lattice >= 0; lattice--) {
        struct xg_set a = {0}, b = {0};
        rd_redblue(&a, &b, 600, 600, lattice);
        check_op(lattice ? "redblue, lattice" : "redblue, random UTM",
                 xg_redblue, &a, &b, 0, lattice);
        xg_set_free(&a);
        xg_set_free(&b);
    }
}

static void inside_cases(void)
{
    int lattice, outside;
    for (lattice = 1; lattice >= 0; lattice--)
        for (outside = 0; outside < 2; outside++) {
            struct xg_set a = {0}, b = {0};
            char name[64];
            rd_inside(&a, &b, 1500, 12, lattice, 0, 0);
            snprintf(name, sizeof name, "inside, %s%s",
                     lattice ? "lattice" : "random UTM",
                     outside ? ", outside" : "");
            check_op(name, xg_inside, &a, &b, outside, lattice);
            xg_set_free(&a);
            xg_set_free(&b);
        }
}

/* An open solid fails the partitioned run as it fails the whole run:
 * XG_EFORMAT, the same message (B's first open solid, fid 7, although
 * fid 3 may be the first that some region meets), no contacts. */
static void open_solid(void)
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts c;
    struct xg_opts opt;
    char whole[1024];
    int n, rc, same = 1;
    memset(&c, 0, sizeof c);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    xg_ctx_set_threads(ctx, 2);
    /* fid 7 opened first in B's order: swap so that its triangles come
     * before fid 3's */
    rd_inside(&a, &b, 300, 9, 1, 3, 7);
    {
        /* move fid 7's triangles to the front */
        struct xg_set r = {0};
        size_t i;
        int pass;
        for (pass = 0; pass < 2; pass++)
            for (i = 0; i < b.n; i++)
                if ((b.fid[i] == 7) == (pass == 0))
                    xg_set_push(&r, XG_ELEM_TRIANGLE, b.xyz + 9 * i,
                                b.fid[i], b.sub[i]);
        xg_set_free(&b);
        b = r;
    }
    rc = xg_inside(ctx, &a, &b, &opt, &c, NULL);
    snprintf(whole, sizeof whole, "%s", xg_ctx_errmsg(ctx));
    ok(rc == XG_EFORMAT && strstr(whole, "fid 7 is not closed"),
       "the whole run fails on the open solid first in B: %s", whole);
    for (n = 2; n <= 7; n++) {
        c.n = 1;
        opt.regions = n;
        rc = xg_inside(ctx, &a, &b, &opt, &c, NULL);
        if (rc != XG_EFORMAT || strcmp(xg_ctx_errmsg(ctx), whole) != 0 ||
            c.n != 0) {
            same = 0;
            printf("# %d regions: %d %s\n", n, rc, xg_ctx_errmsg(ctx));
        }
    }
    ok(same, "in 2..7 regions too, with the same message and no contacts");
    xg_contacts_free(&c);
    xg_set_free(&a);
    xg_set_free(&b);
}

struct progress {
    double last;
    int calls, backwards, cancel_at;
};

static int progress(double f, void *user)
{
    struct progress *p = user;
    p->backwards += f < p->last;
    p->last = f;
    p->calls++;
    return p->cancel_at && p->calls >= p->cancel_at;
}

static void progress_and_cancel(void)
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts c;
    struct xg_opts opt;
    struct progress p;
    int rc;
    memset(&c, 0, sizeof c);
    memset(&opt, 0, sizeof opt);
    memset(&p, 0, sizeof p);
    rd_segtri(&a, &b, 300, 300, 1);
    opt.engine = XG_ENGINE_CPU;
    opt.regions = 5;
    xg_ctx_set_progress(ctx, progress, &p);
    rc = xg_segtri(ctx, &a, &b, &opt, &c, NULL);
    ok(rc == XG_OK && p.backwards == 0 && p.last == 1.0 && p.calls >= 7,
       "5 regions: progress 0 .. 1 never backwards, between regions (%d "
       "calls)", p.calls);
    memset(&p, 0, sizeof p);
    p.cancel_at = 3;
    rc = xg_segtri(ctx, &a, &b, &opt, &c, NULL);
    ok(rc == XG_ECANCEL && c.n == 0 && p.calls == 3,
       "a cancel between regions: XG_ECANCEL, no contacts, no call after "
       "it (%d calls)", p.calls);
    xg_ctx_set_progress(ctx, NULL, NULL);
    opt.regions = XG_REGIONS_MAX + 1;
    rc = xg_segtri(ctx, &a, &b, &opt, &c, NULL);
    ok(rc == XG_EINVAL, "more than XG_REGIONS_MAX regions: XG_EINVAL (%s)",
       xg_ctx_errmsg(ctx));
    xg_contacts_free(&c);
    xg_set_free(&a);
    xg_set_free(&b);
}

/* Empty sets and sets of degenerate elements only, in regions. */
static void empty_sets(void)
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts c;
    struct xg_opts opt;
    struct xg_stats st;
    double p[3] = {1, 2, 3};
    int rc;
    memset(&c, 0, sizeof c);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    opt.regions = 4;
    rc = xg_segtri(ctx, &a, &b, &opt, &c, &st);
    ok(rc == XG_OK && c.n == 0 && st.regions == 4,
       "empty sets in 4 regions: no contacts");
    xg_set_push_segment(&a, p, p, 1, 0);
    rc = xg_segtri(ctx, &a, &b, &opt, &c, &st);
    ok(rc == XG_OK && c.n == 0 && st.a_skipped == 1 && st.a_count == 1,
       "a zero-length segment alone: skipped, counted once");
    opt.outside = 1;
    xg_set_free(&a);
    xg_set_push_point(&a, p, 5, 0);
    rc = xg_inside(ctx, &a, &b, &opt, &c, &st);
    ok(rc == XG_OK && c.n == 1 && c.v[0].b == UINT32_MAX &&
           c.v[0].kind == XG_KIND_OUTSIDE,
       "a point and no solid, in regions: one outside record");
    xg_contacts_free(&c);
    xg_set_free(&a);
    xg_set_free(&b);
}

/* The context's GPUs where none can run: errors leave it as it was. */
static void gpus_without_gpu(void)
{
    int dev[3] = {0, 0, 1}, got[4] = {9, 9, 9, 9}, rc;
    struct xg_ctx *c = xg_ctx_new();
    ok(xg_ctx_gpus(c, got, 4) == 1 && got[0] == -1 && got[1] == 9,
       "a new context: one device, the current one (-1)");
    ok(xg_ctx_set_gpus(c, dev, 0) == XG_EINVAL &&
           xg_ctx_set_gpus(c, NULL, 2) == XG_EINVAL &&
           xg_ctx_set_gpus(c, dev, XG_GPUS_MAX + 1) == XG_EINVAL,
       "no devices, NULL, or more than XG_GPUS_MAX: XG_EINVAL");
    dev[1] = -1;
    ok(xg_ctx_set_gpus(c, dev, 2) == XG_EINVAL,
       "a negative device in a list: XG_EINVAL (%s)", xg_ctx_errmsg(c));
    dev[1] = 0;
    if (xg_gpu_count() == 0) {
        rc = xg_ctx_set_gpus(c, dev, 2);
        ok((rc == XG_ENOGPU || rc == XG_ENOTSUP) &&
               xg_ctx_gpus(c, got, 4) == 1 && got[0] == -1,
           "devices {0, 0} where there is no GPU: %s (%s), the context "
           "unchanged", xg_strerror(rc), xg_ctx_errmsg(c));
    } else {
        ok(1, "# SKIP this machine has a GPU (tests/regions_gpu_t)");
    }
    ok(xg_ctx_set_gpus(c, dev, 1) == xg_ctx_set_gpu(c, 0, NULL),
       "one device in a list is xg_ctx_set_gpu's");
    xg_ctx_free(c);
}

int main(void)
{
    rng_seed_from_env(1515);
    ctx = xg_ctx_new();
    segtri_cases();
    redblue_cases();
    inside_cases();
    open_solid();
    progress_and_cancel();
    empty_sets();
    gpus_without_gpu();
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
