/*
 * inside_gpu_t.c -- the GPU point-in-solid engines (ours and the seed's
 * method) against the cpu engine on random closed solids: star-shaped
 * bumpy ellipsoids with exact (dyadic) vertices at UTM coordinates, some
 * nested, touching or overlapping (bench/gen_inside.h), with points on a
 * lattice that sends rays through vertices and along edges, and points
 * exactly on vertices, edges and faces; with and without outside
 * records, and with device memory caps that force many point batches
 * (points uploaded per batch, and all at once before them); progress
 * and cancellation between the batches; 3M points, which go up from
 * their own memory, locked.
 * Prints "1..0 # SKIP no GPU" where there is none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xg_engine.h"
#include "op/inside/xg_inside.h"
#ifdef XG_HAVE_CUDA
#include "../bench/cuda/install.h"
#endif
#include "tap.h"
#include "gen_inside.h"

static void make(struct xg_set *a, struct xg_set *b, int K, size_t ntri,
                 uint64_t seed, uint64_t n, int permil)
{
    struct gi_model m;
    uint64_t i;
    size_t t;
    if (gi_model_make(&m, K, ntri, seed))
        abort();
    for (t = 0; t < m.ntri; t++) {
        const double *v = m.tri + 9 * t;
        xg_set_push_triangle(b, v, v + 3, v + 6, m.fid[t], 0);
    }
    for (i = 0; i < n; i++) {
        double p[3];
        gi_point(&m, n, permil, i, p);
        xg_set_push_point(a, p, (int64_t)i, 0);
    }
    gi_model_free(&m);
}

/* The kinds of the records in c: inside, boundary, outside. */
static void tally(const struct xg_contacts *c, size_t k[3])
{
    size_t i;
    k[0] = k[1] = k[2] = 0;
    for (i = 0; i < c->n; i++)
        k[c->v[i].kind == XG_KIND_INSIDE     ? 0
          : c->v[i].kind == XG_KIND_BOUNDARY ? 1
                                             : 2]++;
}

/* The cpu engine, then the gpu engine, on a and b with opt (its engine
 * changed): the cpu engine's record count when both succeed with the
 * same records, else SIZE_MAX. */
static size_t gpu_same_as_cpu(struct xg_ctx *ctx, const struct xg_set *a,
                              const struct xg_set *b, struct xg_opts *opt)
{
    struct xg_contacts cpu = {0}, gpu = {0};
    size_t n = SIZE_MAX;
    int rc1, rc2;
    opt->engine = XG_ENGINE_CPU;
    rc1 = xg_inside(ctx, a, b, opt, &cpu, NULL);
    opt->engine = XG_ENGINE_GPU;
    rc2 = xg_inside(ctx, a, b, opt, &gpu, NULL);
    if (rc1 == XG_OK && rc2 == XG_OK && xg_contacts_diff(&gpu, &cpu) == SIZE_MAX)
        n = cpu.n;
    xg_contacts_free(&cpu);
    xg_contacts_free(&gpu);
    return n;
}

/* The same for input both engines must refuse: a test line (what, then
 * both engines' codes and messages), ok when both fail with one code
 * (want, where it is not XG_OK) and one message, and leave no records. */
static void gpu_fails_as_cpu(struct xg_ctx *ctx, const struct xg_set *a,
                             const struct xg_set *b, struct xg_opts *opt,
                             int want, const char *what)
{
    struct xg_contacts out = {0};
    char msg[1024];
    int rc1, rc2, same;
    opt->engine = XG_ENGINE_CPU;
    rc1 = xg_inside(ctx, a, b, opt, &out, NULL);
    snprintf(msg, sizeof msg, "%s", xg_ctx_errmsg(ctx));
    opt->engine = XG_ENGINE_GPU;
    rc2 = xg_inside(ctx, a, b, opt, &out, NULL);
    same = rc1 != XG_OK && (want == XG_OK || rc1 == want) && rc2 == rc1 &&
           out.n == 0 && strcmp(msg, xg_ctx_errmsg(ctx)) == 0;
    ok(same, "%s: gpu fails as cpu (%d \"%s\", %d \"%s\")", what, rc1, msg,
       rc2, xg_ctx_errmsg(ctx));
    xg_contacts_free(&out);
}

static void compare_sets(struct xg_ctx *ctx, const char *what,
                         struct xg_set *ap, struct xg_set *bp, size_t cap)
{
#define a (*ap)
#define b (*bp)
    struct xg_opts opt;
    struct xg_stats st;
    int outside;
    for (outside = 0; outside < 2; outside++) {
        struct xg_contacts cpu = {0}, gpu = {0}, seed_gpu = {0};
        struct xg__engine_knobs seed = {XG__IN_SEED, NULL};
        size_t k[3];
        int rc1, rc2, rc3;
        memset(&opt, 0, sizeof opt);
        opt.outside = outside;
        opt.gpu_mem_cap = cap;
        opt.engine = XG_ENGINE_CPU;
        rc1 = xg_inside(ctx, &a, &b, &opt, &cpu, &st);
        opt.engine = XG_ENGINE_GPU;
        memset(&st, 0, sizeof st);
        rc2 = xg_inside(ctx, &a, &b, &opt, &gpu, &st);
        if (rc2 == XG_OK) {
            /* the engine counts its records' kinds itself */
            uint64_t kk[XG_KIND_COUNT] = {0};
            size_t i;
            int j, same = 1;
            for (i = 0; i < gpu.n; i++)
                kk[gpu.v[i].kind]++;
            for (j = 0; j < XG_KIND_COUNT; j++)
                same &= kk[j] == st.contacts[j];
            if (!same)
                rc2 = -1;
        }
        memset(&st, 0, sizeof st);
        rc3 = xg__engine_pair(ctx, &xg__op_inside, XG_ENGINE_GPU, &a, &b,
                              &opt, &seed, &seed_gpu, &st);
        tally(&cpu, k);
        ok(rc1 == XG_OK && rc2 == XG_OK &&
               xg_contacts_diff(&gpu, &cpu) == SIZE_MAX,
           "%s%s: gpu equals cpu (%zu inside, %zu boundary, %zu outside)",
           what, outside ? ", outside" : "", k[0], k[1], k[2]);
        ok(rc3 == XG_OK && xg_contacts_diff(&seed_gpu, &cpu) == SIZE_MAX,
           "%s%s: the seed's GPU method equals cpu (%llu pairs deferred)",
           what, outside ? ", outside" : "", (unsigned long long)st.deferred);
        /* The data must hold every case, or the comparison proves little. */
        if (!outside)
            ok(k[0] > 0 && k[1] > 0 && k[2] == 0,
               "%s: inside and boundary records, no outside", what);
        else
            ok(k[0] > 0 && k[1] > 0 && k[2] > 0,
               "%s, outside: all three kinds", what);
        xg_contacts_free(&cpu);
        xg_contacts_free(&gpu);
        xg_contacts_free(&seed_gpu);
    }
#undef a
#undef b
}

static void compare(struct xg_ctx *ctx, const char *what, int K,
                    size_t ntri, uint64_t seed, uint64_t n, int permil,
                    size_t cap)
{
    struct xg_set a = {0}, b = {0};
    make(&a, &b, K, ntri, seed, n, permil);
    compare_sets(ctx, what, &a, &b, cap);
    xg_set_free(&a);
    xg_set_free(&b);
}

/* Axis-aligned boxes at UTM coordinates -- a box, one nested in it, one
 * touching it -- and a lattice of points on their grid: vertical walls
 * with points on them and on the lines of their shadows, where the
 * device's intervals certify sides that are exactly zero (the host's
 * never do, so only this test sees those paths). */
static void box_solid(struct xg_set *b, const double *lo, double h,
                      int64_t fid)
{
    static const int q[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    double v[8][3];
    int i, f;
    for (i = 0; i < 8; i++) {
        v[i][0] = lo[0] + h * (i & 1);
        v[i][1] = lo[1] + h * ((i >> 1) & 1);
        v[i][2] = lo[2] + h * ((i >> 2) & 1);
    }
    for (f = 0; f < 6; f++) {
        xg_set_push_triangle(b, v[q[f][0]], v[q[f][1]], v[q[f][2]], fid,
                             2 * f);
        xg_set_push_triangle(b, v[q[f][0]], v[q[f][2]], v[q[f][3]], fid,
                             2 * f + 1);
    }
}

static void walls(struct xg_ctx *ctx)
{
    struct xg_set a = {0}, b = {0};
    double o[3] = {500000.25, 7000000.5, 350.75}, lo[3];
    int i, j, k;
    box_solid(&b, o, 2.0, 1);
    lo[0] = o[0] + 0.5, lo[1] = o[1] + 0.5, lo[2] = o[2] + 0.5;
    box_solid(&b, lo, 1.0, 2);
    lo[0] = o[0] + 2.0, lo[1] = o[1], lo[2] = o[2];
    box_solid(&b, lo, 2.0, 3);
    for (i = -2; i <= 18; i++)
        for (j = -2; j <= 10; j++)
            for (k = -2; k <= 10; k++) {
                double p[3] = {o[0] + 0.25 * i, o[1] + 0.25 * j,
                               o[2] + 0.25 * k};
                xg_set_push_point(&a, p, i * 10000 + j * 100 + k, 0);
            }
    compare_sets(ctx, "boxes with vertical walls, points on their lattice",
                 &a, &b, 0);
    xg_set_free(&a);
    xg_set_free(&b);
}

/* A triangular prism at UTM coordinates whose vertical walls run
 * diagonally in (x, y), and points on a lattice of its base (on its
 * walls, inside, outside) at heights below, on and above it, each also
 * one ulp off in x.  The edge vectors d and e carry 30 significant bits,
 * so a point on a wall's line is exactly on it, but the products of the
 * sides' determinants are not exact doubles: the device's intervals
 * cannot certify their zeros, and only its exact stage in doubles
 * (xg_ray_side) and its wall stage (xg_ray_wall) decide these pairs
 * where the host does not.  (The coordinate differences stay exact: at
 * 500000 a double resolves 2^-33, and the lattice's offsets need 2^-32.)
 */
static void diagonal_walls(struct xg_ctx *ctx)
{
    struct xg_set a = {0}, b = {0};
    const double o[3] = {500000.25, 7000000.5, 350.75}, h = 2.0;
    const double d[2] = {1.0 + 0x1p-29, 2.0 + 0x1p-28};
    const double e[2] = {-(2.0 + 0x1p-28), 1.0 + 0x1p-29};
    double v[6][3];
    static const int f[8][3] = {{0, 2, 1}, {3, 4, 5}, {0, 1, 4}, {0, 4, 3},
                                {1, 2, 5}, {1, 5, 4}, {2, 0, 3}, {2, 3, 5}};
    int i, j, k, u;
    for (k = 0; k < 6; k++) {
        v[k][0] = o[0] + (k % 3 == 1 ? d[0] : k % 3 == 2 ? e[0] : 0.0);
        v[k][1] = o[1] + (k % 3 == 1 ? d[1] : k % 3 == 2 ? e[1] : 0.0);
        v[k][2] = o[2] + (k < 3 ? 0.0 : h);
    }
    for (k = 0; k < 8; k++)
        xg_set_push_triangle(&b, v[f[k][0]], v[f[k][1]], v[f[k][2]], 1, k);
    for (i = -1; i <= 9; i++)
        for (j = -1; j <= 9; j++)
            for (k = -1; k <= 9; k++)
                for (u = -1; u <= 1; u++) {
                    double p[3];
                    p[0] = o[0] + (i / 8.0 * d[0] + j / 8.0 * e[0]);
                    p[1] = o[1] + (i / 8.0 * d[1] + j / 8.0 * e[1]);
                    p[2] = o[2] + 0.25 * k;
                    if (u)
                        p[0] = nextafter(p[0], u * HUGE_VAL);
                    xg_set_push_point(&a, p, ((i * 16 + j) * 16 + k) * 4 + u,
                                      0);
                }
    compare_sets(ctx, "a prism with diagonal vertical walls, points on "
                 "them at UTM coordinates and one ulp off",
                 &a, &b, 0);
    {
        /* and the cpu engine against the exact stage, point by point */
        struct xg_opts opt;
        struct xg_contacts cpu = {0};
        size_t bad = 0, n[3] = {0, 0, 0};
        memset(&opt, 0, sizeof opt);
        opt.outside = 1;
        opt.engine = XG_ENGINE_CPU;
        if (xg_inside(ctx, &a, &b, &opt, &cpu, NULL) != XG_OK ||
            cpu.n != a.n)
            bad = SIZE_MAX;
        for (i = 0; bad != SIZE_MAX && i < (int)a.n; i++) {
            int want = xg_inside_point(NULL, a.xyz + 3 * i, b.xyz, 8);
            bad += cpu.v[i].a != (uint32_t)i || cpu.v[i].kind != want;
            n[want == XG_KIND_INSIDE ? 0 : want == XG_KIND_BOUNDARY ? 1 : 2]++;
        }
        ok(bad == 0 && n[0] > 0 && n[1] > 0 && n[2] > 0,
           "the prism's points: cpu equals the exact stage point by point "
           "(%zu inside, %zu boundary, %zu outside; %zu differ)", n[0], n[1],
           n[2], bad);
        xg_contacts_free(&cpu);
    }
    xg_set_free(&a);
    xg_set_free(&b);
}

/* An open solid (one triangle of the second of 8 solids dropped): the
 * gpu engine checks closedness while the device starts, not before, and
 * must fail as the cpu engine does, with its message, whether the points
 * go up at once or batch by batch (a cap), and with no points at all;
 * its run after that is whole. */
static void open_solid(struct xg_ctx *ctx)
{
    static const size_t caps[2] = {0, (size_t)512 << 10};
    struct xg_set a = {0}, b = {0}, open = {0}, none = {0};
    struct xg_opts opt;
    size_t i, n, drop = SIZE_MAX;
    int c, k;
    make(&a, &b, 8, 2000, 7, 20000, 50);
    for (i = 0; i < b.n; i++) {
        if (drop == SIZE_MAX && i > 0 && b.fid[i] != b.fid[0])
            drop = i;       /* the first triangle of the second solid */
        if (i != drop)
            xg_set_push_triangle(&open, b.xyz + 9 * i, b.xyz + 9 * i + 3,
                                 b.xyz + 9 * i + 6, b.fid[i], b.sub[i]);
    }
    none.elem = XG_ELEM_POINT;
    memset(&opt, 0, sizeof opt);
    for (c = 0; c < 2; c++)
        for (k = 0; k < 2; k++) {
            char what[128];
            snprintf(what, sizeof what, "open solid, %s, cap %zu",
                     k ? "no points" : "20000 points", caps[c]);
            opt.gpu_mem_cap = caps[c];
            gpu_fails_as_cpu(ctx, k ? &none : &a, &open, &opt, XG_EFORMAT,
                             what);
        }
    opt.gpu_mem_cap = 0;
    n = gpu_same_as_cpu(ctx, &a, &b, &opt);
    ok(n != SIZE_MAX && n > 0, "after the open solid, the closed ones: gpu "
       "equals cpu (%zu records)", n);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_set_free(&open);
    xg_set_free(&none);
}

/* Non-finite coordinates in the points, the triangles or both: the gpu
 * engine checks them itself (the points as they go up, or before the
 * batches under a cap), and must fail as the cpu engine does, with the
 * same message (the first bad point's before any triangle's). */
static void nonfinite(struct xg_ctx *ctx)
{
    static const size_t caps[2] = {0, (size_t)512 << 10};
    struct xg_set a = {0}, b = {0};
    int c, bad;
    make(&a, &b, 8, 2000, 6, 20000, 50);
    for (c = 0; c < 2; c++)
        for (bad = 1; bad < 4; bad++) {
            double sa[2] = {a.xyz[3 * 12345 + 2], a.xyz[3 * 17000]};
            double sb = b.xyz[9 * 700 + 4];
            struct xg_opts opt;
            char what[128];
            if (bad & 1) {
                a.xyz[3 * 12345 + 2] = NAN;
                a.xyz[3 * 17000] = INFINITY;
            }
            if (bad & 2)
                b.xyz[9 * 700 + 4] = -INFINITY;
            memset(&opt, 0, sizeof opt);
            opt.gpu_mem_cap = caps[c];
            snprintf(what, sizeof what, "non-finite %s, cap %zu",
                     bad == 1 ? "point" : bad == 2 ? "triangle" : "both",
                     caps[c]);
            gpu_fails_as_cpu(ctx, &a, &b, &opt, XG_OK, what);
            a.xyz[3 * 12345 + 2] = sa[0];
            a.xyz[3 * 17000] = sa[1];
            b.xyz[9 * 700 + 4] = sb;
        }
    xg_set_free(&a);
    xg_set_free(&b);
}

/* Points of 64 MiB or more go up from their own memory, locked, and are
 * checked for non-finite coordinates on the device: 3M points (72 MB)
 * against the cpu engine, then with a NaN and an infinity among them,
 * failing as the cpu engine fails. */
static void locked(struct xg_ctx *ctx)
{
    struct xg_set a = {0}, b = {0};
    struct xg_opts opt;
    size_t n;
    int k;
    make(&a, &b, 8, 2000, 9, 3000000, 20);
    memset(&opt, 0, sizeof opt);
    n = gpu_same_as_cpu(ctx, &a, &b, &opt);
    ok(n != SIZE_MAX && n > 100000,
       "3M points from their own memory: gpu equals cpu (%zu records)", n);
    for (k = 0; k < 2; k++) {
        size_t at = k ? 3 * (size_t)2999999 + 1 : 3 * (size_t)1234567 + 2;
        double keep = a.xyz[at];
        a.xyz[at] = k ? INFINITY : NAN;
        gpu_fails_as_cpu(ctx, &a, &b, &opt, XG_OK,
                         k ? "3M points, an infinity in one"
                           : "3M points, a NaN in one");
        a.xyz[at] = keep;
    }
    xg_set_free(&a);
    xg_set_free(&b);
}

/* Progress and cancellation through the gpu engine's batches (a 512 KiB
 * cap: about a dozen of them, the device running ahead of the host's
 * finishes): the fractions never go backwards and end at 1; cancelled
 * at any call, the run ends in XG_ECANCEL with no records and no later
 * call; the next run is whole. */
struct cancel_at {
    int calls, at, backwards;
    double last;
};

static int progress(double fraction, void *user)
{
    struct cancel_at *c = user;
    c->backwards |= fraction < c->last;
    c->last = fraction;
    return ++c->calls == c->at;
}

static void cancel(struct xg_ctx *ctx)
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts ref = {0}, out = {0};
    struct xg_opts opt;
    struct cancel_at c = {0, 0, 0, 0.0};
    int rc1, rc2, calls, at;
    make(&a, &b, 8, 2000, 7, 20000, 50);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    rc1 = xg_inside(ctx, &a, &b, &opt, &ref, NULL);
    opt.engine = XG_ENGINE_GPU;
    opt.gpu_mem_cap = (size_t)512 << 10;
    xg_ctx_set_progress(ctx, progress, &c);
    rc2 = xg_inside(ctx, &a, &b, &opt, &out, NULL);
    calls = c.calls;
    ok(rc1 == XG_OK && rc2 == XG_OK && xg_contacts_diff(&ref, &out) ==
               SIZE_MAX && ref.n > 1000 && calls >= 8 && !c.backwards &&
           c.last == 1.0,
       "gpu: %d progress calls, never backwards, last 1; records equal "
       "cpu's (%d, %d)", calls, rc1, rc2);
    for (at = 1; at <= calls; at++) {
        memset(&c, 0, sizeof c);
        c.at = at;
        rc2 = xg_inside(ctx, &a, &b, &opt, &out, NULL);
        ok(rc2 == XG_ECANCEL && out.n == 0 && c.calls == at,
           "gpu: cancelled at progress call %d of %d: %d, %zu records, %d "
           "calls", at, calls, rc2, out.n, c.calls);
    }
    memset(&c, 0, sizeof c);
    rc2 = xg_inside(ctx, &a, &b, &opt, &out, NULL);
    ok(rc2 == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX,
       "gpu: the next run is whole (%d)", rc2);
    xg_ctx_set_progress(ctx, NULL, NULL);
    xg_contacts_free(&ref);
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
}

/* No context (the API takes a NULL one): the gpu engine has no pinned
 * buffers to keep, and moves data through the driver's own copies; the
 * records equal the cpu engine's, for points within a whole upload and
 * points that fail the check.  On a GPU machine the default (auto)
 * engine is the gpu one, and this crashed before. */
static void no_context(struct xg_ctx *ctx)
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts cpu = {0}, gpu = {0};
    struct xg_opts opt;
    double bad[3] = {0, NAN, 0};
    int rc1, rc2;
    make(&a, &b, 8, 2000, 6, 20000, 50);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    rc1 = xg_inside(ctx, &a, &b, &opt, &cpu, NULL);
    opt.engine = XG_ENGINE_GPU;
    rc2 = xg_inside(NULL, &a, &b, &opt, &gpu, NULL);
    ok(rc1 == XG_OK && rc2 == XG_OK && cpu.n > 0 &&
           xg_contacts_diff(&gpu, &cpu) == SIZE_MAX,
       "no context: the gpu engine's %zu records equal the cpu engine's "
       "(%d, %d)", cpu.n, rc1, rc2);
    rc2 = xg_inside(NULL, &a, &b, NULL, &gpu, NULL);
    ok(rc2 == XG_OK && xg_contacts_diff(&gpu, &cpu) == SIZE_MAX,
       "no context, no options (the auto engine): the same (%d)", rc2);
    xg_set_push_point(&a, bad, 99, 0);
    rc2 = xg_inside(NULL, &a, &b, &opt, &gpu, NULL);
    ok(rc2 == XG_EINVAL && gpu.n == 0,
       "no context, a NaN point: refused, no records (%d)", rc2);
    xg_contacts_free(&cpu);
    xg_contacts_free(&gpu);
    xg_set_free(&a);
    xg_set_free(&b);
}

int main(void)
{
    struct xg_ctx *ctx;
    (void)tap_plan;
    if (!xg_gpu_available())
        tap_skip_all("no GPU");
#ifdef XG_HAVE_CUDA
    xg__gpu_bench_install();    /* the seed's method, compared too */
#endif
    ctx = xg_ctx_new();
    walls(ctx);
    diagonal_walls(ctx);
    open_solid(ctx);
    nonfinite(ctx);
    cancel(ctx);
    no_context(ctx);
    compare(ctx, "4 solids, 8 triangles each", 4, 32, 1, 3000, 100, 0);
    compare(ctx, "8 solids, 2000 triangles", 8, 2000, 2, 20000, 50, 0);
    /* A cap of 512 KiB: the solids (250 KiB), then batches of about 1700
     * points. */
    compare(ctx, "8 solids, 2000 triangles, 512 KiB of device memory", 8,
            2000, 3, 20000, 50, (size_t)512 << 10);
    /* 2 MiB: all the points go up while the solids are prepared, then
     * batches of about 9000 of them. */
    compare(ctx, "8 solids, 2000 triangles, 2 MiB of device memory", 8,
            2000, 5, 20000, 50, (size_t)2 << 20);
    /* XG_INSIDE_GPU_T_SMALL: the small cases only (compute-sanitizer). */
    if (!getenv("XG_INSIDE_GPU_T_SMALL")) {
        compare(ctx, "16 solids, 20000 triangles", 16, 20000, 4, 100000, 20,
                0);
        locked(ctx);
    }
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
