/*
 * delaunay_gpu_t.c -- the gpu engine of xg_delaunay against the seq
 * engine: identical lists on random sets, lattices (all cocircular),
 * points on circles, collinear hull points, duplicates, at unit scale and
 * UTM magnitudes; every gpu list passes xg_delaunay_check.  Built only
 * with CUDA, static, run on the GPU machine (make check-gpu); skips
 * without a GPU.
 *
 *   tests/delaunay_gpu_t            the tests (XG_GPU_T_SMALL set: no
 *                                   200000-point sets, for memcheck)
 *   tests/delaunay_gpu_t bench [n]  seconds of the gpu engine on 10^6 and
 *                                   10^7 uniform points, or n (the cpu
 *                                   engine's too with XG_BENCH_CPU set)
 */
#include <math.h>
#include <string.h>
#include <time.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include "exactgeo.h"
#include "xg_test.h"
#include "dt_sets.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run(struct xg_ctx *ctx, const struct xg_set *s, int engine,
               struct xg_triangles *t, struct xg_stats *st)
{
    struct xg_opts o;
    memset(&o, 0, sizeof o);
    o.engine = engine;
    memset(t, 0, sizeof *t);
    return xg_delaunay(ctx, s, &o, t, st);
}

static int cancel_after, progress_calls;
static double progress_last;

static int cancel_progress(double fraction, void *user)
{
    (void)user;
    progress_last = fraction;
    return ++progress_calls >= cancel_after;
}

static void check(struct xg_ctx *ctx, const struct xg_set *s,
                  const char *name)
{
    struct xg_triangles a, b;
    struct xg_stats sa, sb;
    struct xg_delaunay_report rep;
    int ra = run(ctx, s, XG_ENGINE_SEQ, &a, &sa);
    int rb = run(ctx, s, XG_ENGINE_GPU, &b, &sb);
    if (!ok(ra == rb, "%s: seq and gpu answer alike (%d, %d)", name, ra,
            rb))
        printf("# %s\n", xg_ctx_errmsg(ctx));
    if (ra == XG_OK && rb == XG_OK) {
        ok(a.n == b.n && memcmp(a.v, b.v, a.n * sizeof a.v[0]) == 0,
           "%s: identical lists (%zu and %zu triangles; gpu rounds %llu, "
           "host signs %llu, merged %llu, z differ %llu/%llu)",
           name, a.n, b.n, (unsigned long long)sb.candidates,
           (unsigned long long)sb.deferred,
           (unsigned long long)sb.a_skipped,
           (unsigned long long)sb.z_differ, (unsigned long long)sa.z_differ);
        ok(sa.a_skipped == sb.a_skipped && sa.z_differ == sb.z_differ,
           "%s: the same merges (%llu, z %llu)", name,
           (unsigned long long)sa.a_skipped, (unsigned long long)sa.z_differ);
        memset(&rep, 0, sizeof rep);
        xg_delaunay_check(ctx, s, (const uint32_t(*)[3])b.v, b.n, &rep);
        ok(dt_report_clean(&rep), "%s: the audit finds nothing in gpu's "
           "list (ccw %llu, edges %llu, missing %llu, count %llu, not "
           "Delaunay %llu, ties %llu)", name, (unsigned long long)rep.not_ccw,
           (unsigned long long)rep.bad_edges,
           (unsigned long long)rep.missing,
           (unsigned long long)rep.count_off,
           (unsigned long long)rep.not_delaunay,
           (unsigned long long)rep.not_canonical);
    }
    xg_triangles_free(&a);
    xg_triangles_free(&b);
}

static int bench(struct xg_ctx *ctx, size_t only)
{
    static const size_t sizes[] = {1000000, 10000000};
    int i, r;
    for (i = 0; i < 2; i++) {
        size_t n = only ? only : sizes[i], k;
        struct xg_set s = {0};
        struct xg_triangles t;
        struct xg_stats st;
        for (k = 0; k < n; k++)
            dt_push(&s, rng_unit(), rng_unit(), 0, (int64_t)k);
        for (r = 0; r < 3; r++) {
            double t0 = now();
            int rc = run(ctx, &s, XG_ENGINE_GPU, &t, &st);
            double sec = now() - t0;
            printf("gpu n %zu run %d: rc %d, %.3f s (upload %.3f prepare "
                   "%.3f rounds %.3f download %.3f sort %.3f), %zu "
                   "triangles, %llu rounds, %llu host signs\n",
                   n, r, rc, sec, st.seconds[XG_STAGE_UPLOAD],
                   st.seconds[XG_STAGE_PREPARE],
                   st.seconds[XG_STAGE_INTERSECT],
                   st.seconds[XG_STAGE_DOWNLOAD],
                   st.seconds[XG_STAGE_UNIQUE], t.n,
                   (unsigned long long)st.candidates,
                   (unsigned long long)st.deferred);
            fflush(stdout);
            xg_triangles_free(&t);
        }
        if (getenv("XG_BENCH_CPU")) {
            double t0 = now();
            int rc = run(ctx, &s, XG_ENGINE_CPU, &t, &st);
            printf("cpu n %zu: rc %d, %.3f s, %d threads\n", n, rc,
                   now() - t0, st.threads);
            xg_triangles_free(&t);
        }
        xg_set_free(&s);
        if (only)
            break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx;
    static const double off[2][2] = {{0, 0}, {500000.25, 7000000.5}};
    int o, i, small = getenv("XG_GPU_T_SMALL") != NULL;
    if (!xg_gpu_available())
        tap_skip_all("no usable GPU");
    ctx = xg_ctx_new();
    rng_seed_from_env(14);
    if (argc > 1 && strcmp(argv[1], "bench") == 0)
        return bench(ctx, argc > 2 ? (size_t)atof(argv[2]) : 0);

    for (o = 0; o < 2; o++) {
        char name[128];
        double ox = off[o][0], oy = off[o][1];
        const char *at = o ? "UTM" : "unit";
        {
            static const int sizes[] = {3, 5, 17, 100, 1000, 20000, 200000};
            for (i = 0; i < (small ? 6 : 7); i++) {
                struct xg_set s = {0};
                dt_random(&s, sizes[i], ox, oy);
                snprintf(name, sizeof name, "%d random points at %s",
                         sizes[i], at);
                check(ctx, &s, name);
                xg_set_free(&s);
            }
        }
        {
            struct xg_set s = {0};
            int m = 60;
            dt_lattice(&s, m, ox, oy);
            snprintf(name, sizeof name, "%dx%d lattice at %s", m, m, at);
            check(ctx, &s, name);
            xg_set_free(&s);
        }
        {
            struct xg_set s = {0};
            int m = 40;
            dt_rotated(&s, m, ox, oy);
            snprintf(name, sizeof name, "rotated %dx%d lattice at %s", m, m,
                     at);
            check(ctx, &s, name);
            xg_set_free(&s);
        }
        {
            /* integer points of x^2 + y^2 = 5^2 13^2 17^2, the centre */
            struct xg_set s = {0};
            int nc = dt_circle_ints(&s, ox, oy);
            dt_push(&s, ox, oy, 0, nc);
            snprintf(name, sizeof name, "%d cocircular points and the "
                     "centre at %s", nc, at);
            check(ctx, &s, name);
            xg_set_free(&s);
        }
        {
            /* all in convex position, the gpu's hardest start (every
             * point a hull corner): rounded onto one circle, timed */
            struct xg_set s = {0};
            int m = small ? 2000 : 100000;
            double t0;
            for (i = 0; i < m; i++) {
                double a = 2 * M_PI * i / m;
                dt_push(&s, ox + 500 * cos(a), oy + 500 * sin(a), 0, i);
            }
            t0 = now();
            snprintf(name, sizeof name, "%d points rounded onto a circle "
                     "at %s", m, at);
            check(ctx, &s, name);
            printf("# %s: seq, gpu and the audit in %.3f s\n", name,
                   now() - t0);
            xg_set_free(&s);
        }
        {
            /* rounded points of a circle: nearly cocircular */
            struct xg_set s = {0};
            for (i = 0; i < 2000; i++) {
                double a = 2 * M_PI * i / 2000;
                dt_push(&s, ox + 50 * cos(a), oy + 50 * sin(a), 0, i);
            }
            for (i = 0; i < 300; i++)
                dt_push(&s, ox + rng_unit() * 40 - 20,
                        oy + rng_unit() * 40 - 20, 0, 2000 + i);
            snprintf(name, sizeof name, "2000 points on a circle and 300 "
                     "inside at %s", at);
            check(ctx, &s, name);
            xg_set_free(&s);
        }
        {
            /* collinear points along the hull, and a diagonal */
            struct xg_set s = {0};
            int k = 0;
            for (i = 0; i <= 200; i++) {
                dt_push(&s, ox + i, oy, 0, k++);
                dt_push(&s, ox + i, oy + 200, 0, k++);
                dt_push(&s, ox, oy + i, 0, k++);
                dt_push(&s, ox + 200, oy + i, 0, k++);
                dt_push(&s, ox + i * 0.7 + 10, oy + i * 0.3 + 20, 0, k++);
            }
            for (i = 0; i < 3000; i++)
                dt_push(&s, ox + rng_unit() * 200,
                        oy + rng_unit() * 200, 0, k++);
            snprintf(name, sizeof name, "collinear hull points at %s", at);
            check(ctx, &s, name);
            xg_set_free(&s);
        }
        {
            /* duplicates: a coarse grid drawn many times, z and fid vary */
            struct xg_set s = {0};
            for (i = 0; i < 30000; i++)
                dt_push(&s, ox + rng_int(100) * 0.125,
                        oy + rng_int(100) * 0.125, rng_int(3),
                        rng_int(50));
            snprintf(name, sizeof name, "30000 points on 10^4 places at %s",
                     at);
            check(ctx, &s, name);
            xg_set_free(&s);
        }
    }
    {
        struct xg_set s = {0};
        struct xg_triangles t;
        for (i = 0; i < 100; i++)
            dt_push(&s, i * 0.5, i * 0.25, 0, i);
        ok(run(ctx, &s, XG_ENGINE_GPU, &t, NULL) == XG_EDEGENERATE,
           "collinear points: XG_EDEGENERATE");
        xg_set_free(&s);
    }
    {
        /* a budget too small: refused before the run, with the estimate,
         * nothing returned; the same points run in a budget that holds
         * them */
        struct xg_set s = {0};
        struct xg_triangles t;
        struct xg_opts o;
        int rc;
        for (i = 0; i < 100000; i++)
            dt_push(&s, rng_unit() * 100, rng_unit() * 100, 0, i);
        memset(&o, 0, sizeof o);
        o.engine = XG_ENGINE_GPU;
        o.gpu_mem_cap = 16u << 20;
        memset(&t, 0, sizeof t);
        rc = xg_delaunay(ctx, &s, &o, &t, NULL);
        ok(rc == XG_ENOMEM && t.n == 0 && t.v == NULL &&
               strstr(xg_ctx_errmsg(ctx), "does not hold the triangulation"),
           "100000 points in a 16 MiB budget: refused (%s)",
           xg_ctx_errmsg(ctx));
        o.gpu_mem_cap = (size_t)1 << 30;
        rc = xg_delaunay(ctx, &s, &o, &t, NULL);
        ok(rc == XG_OK && t.n > 0, "the same points in 1 GiB: %zu triangles",
           t.n);
        xg_triangles_free(&t);
        /* cancelled from the progress callback between rounds: XG_ECANCEL,
         * nothing returned; the callback was asked at least twice */
        cancel_after = 2;
        progress_calls = 0;
        xg_ctx_set_progress(ctx, cancel_progress, NULL);
        rc = run(ctx, &s, XG_ENGINE_GPU, &t, NULL);
        ok(rc == XG_ECANCEL && t.n == 0 && t.v == NULL &&
               progress_calls == 2 && progress_last > 0.0 &&
               progress_last < 0.9,
           "cancelled between rounds, at the second progress call (%d "
           "calls, the last at %.3f, rc %d)",
           progress_calls, progress_last, rc);
        xg_ctx_set_progress(ctx, NULL, NULL);
        xg_set_free(&s);
    }
    xg_ctx_free(ctx);
    tap_done();
    return tap_failed != 0;
}
