/*
 * bench_redblue.c -- the red/blue job on one 2D dump through every
 * engine (seq, cpu, the GPU as the paper does it, the GPU as we do it)
 * and through GEOS (C API, STRtree over B, GEOSIntersection_r per pair
 * whose envelopes meet), timing each and checking each against seq.
 * For GEOS, counts how its answers differ from the exact ones: pairs
 * missed or invented, a point or a stretch that is not the exactly
 * rounded one, a point where there is a stretch or the reverse.
 *
 * Usage: bench_redblue MAPS.xgd [runs [nogeos]]
 * Prints one table row per engine: best wall time of `runs` runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <geos_c.h>
#include "xg_engine.h"
#include "xg_ctx.h"
#include "op/redblue/xg_redblue.h"
#ifdef XG_HAVE_CUDA
#include "cuda/install.h"
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- GEOS ---- */

struct gpair {
    uint32_t a, b;
    int type;           /* 0 point, 1 line */
    double p[2], q[2];
};

struct gq {
    uint32_t *v;
    size_t n, cap;
};

static void collect(void *item, void *user)
{
    struct gq *q = user;
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 64;
        q->v = realloc(q->v, q->cap * sizeof *q->v);
    }
    q->v[q->n++] = (uint32_t)(uintptr_t)item;
}

static GEOSGeometry *line(GEOSContextHandle_t h, const double *s)
{
    GEOSCoordSequence *cs = GEOSCoordSeq_create_r(h, 2, 2);
    GEOSCoordSeq_setXY_r(h, cs, 0, s[0], s[1]);
    GEOSCoordSeq_setXY_r(h, cs, 1, s[3], s[4]);
    return GEOSGeom_createLineString_r(h, cs);
}

/* Every pair of a zero-length-free A and B segment GEOS says meet, with
 * GEOS's geometry, in (a, b) order.  Returns the pair count. */
static size_t geos_job(const struct xg_set *a, const struct xg_set *b,
                       struct gpair **out, size_t *calls)
{
    GEOSContextHandle_t h = GEOS_init_r();
    GEOSSTRtree *tree = GEOSSTRtree_create_r(h, 10);
    GEOSGeometry **gb = malloc((b->n ? b->n : 1) * sizeof *gb);
    struct gq q = {0};
    struct gpair *v = NULL;
    size_t n = 0, cap = 0, i, k;

    *calls = 0;
    for (i = 0; i < b->n; i++) {
        const double *s = b->xyz + 6 * i;
        gb[i] = NULL;
        if (s[0] == s[3] && s[1] == s[4])
            continue;
        gb[i] = line(h, s);
        GEOSSTRtree_insert_r(h, tree, gb[i], (void *)(uintptr_t)i);
    }
    for (i = 0; i < a->n; i++) {
        const double *s = a->xyz + 6 * i;
        GEOSGeometry *ga;
        if (s[0] == s[3] && s[1] == s[4])
            continue;
        ga = line(h, s);
        q.n = 0;
        GEOSSTRtree_query_r(h, tree, ga, collect, &q);
        for (k = 0; k < q.n; k++) {
            uint32_t j = q.v[k];
            GEOSGeometry *x;
            int t;
            (*calls)++;
            x = GEOSIntersection_r(h, ga, gb[j]);
            if (!x)
                continue;
            if (!GEOSisEmpty_r(h, x)) {
                const GEOSCoordSequence *cs;
                t = GEOSGeomTypeId_r(h, x);
                if (n == cap) {
                    cap = cap ? 2 * cap : 1024;
                    v = realloc(v, cap * sizeof *v);
                }
                v[n].a = (uint32_t)i;
                v[n].b = j;
                v[n].type = t == GEOS_POINT ? 0 : t == GEOS_LINESTRING ? 1 : 2;
                v[n].p[0] = v[n].p[1] = v[n].q[0] = v[n].q[1] = 0;
                if (v[n].type < 2) {
                    cs = GEOSGeom_getCoordSeq_r(h, x);
                    GEOSCoordSeq_getXY_r(h, cs, 0, &v[n].p[0], &v[n].p[1]);
                    if (v[n].type == 1)
                        GEOSCoordSeq_getXY_r(h, cs, 1, &v[n].q[0],
                                             &v[n].q[1]);
                }
                n++;
            }
            GEOSGeom_destroy_r(h, x);
        }
        GEOSGeom_destroy_r(h, ga);
    }
    GEOSSTRtree_destroy_r(h, tree);
    for (i = 0; i < b->n; i++)
        if (gb[i])
            GEOSGeom_destroy_r(h, gb[i]);
    free(gb);
    free(q.v);
    GEOS_finish_r(h);
    *out = v;
    return n;
}

static int by_pair(const void *x, const void *y)
{
    const struct gpair *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

static int eq2(const double *g, const double *e)
{
    return g[0] == e[0] && g[1] == e[1];
}

/* Compares GEOS's pairs with the exact list. */
static void geos_diff(struct gpair *g, size_t ng, const struct xg_contacts *x)
{
    size_t i = 0, j = 0, missed = 0, invented = 0, point = 0, kind = 0,
           stretch = 0, ex_miss[3] = {0, 0, 0}, ex_point[3] = {0, 0, 0};
    qsort(g, ng, sizeof *g, by_pair);
    while (i < ng || j < x->n) {
        const struct xg_contact *c = j < x->n ? &x->v[j] : NULL;
        if (c && (i == ng || c->a < g[i].a ||
                  (c->a == g[i].a && c->b < g[i].b))) {
            missed++;
            ex_miss[c->kind]++;
            j++;
        } else if (!c || g[i].a < c->a ||
                   (g[i].a == c->a && g[i].b < c->b)) {
            invented++;
            i++;
        } else {
            int gl = g[i].type == 1, xl = c->kind == XG_KIND_OVERLAP;
            if (gl != xl || g[i].type == 2)
                kind++;
            else if (!xl && !eq2(g[i].p, c->p)) {
                point++;
                ex_point[c->kind]++;
            } else if (xl && !((eq2(g[i].p, c->p) && eq2(g[i].q, c->q)) ||
                               (eq2(g[i].p, c->q) && eq2(g[i].q, c->p))))
                stretch++;
            i++;
            j++;
        }
    }
    printf("GEOS vs exact: %zu answers differ: %zu pairs missed (%zu proper, "
           "%zu touch, %zu overlap), %zu invented, %zu points not the "
           "exactly rounded one (%zu proper, %zu touch), %zu stretches "
           "differ, %zu point/stretch confusions\n",
           missed + invented + point + stretch + kind, missed, ex_miss[0],
           ex_miss[1], ex_miss[2], invented, point, ex_point[0], ex_point[1],
           stretch, kind);
}

/* ---- engines ---- */

struct row {
    const char *name;
    double best;
    int ok;             /* -1 not run, 0 differs from seq, 1 same */
    struct xg_stats st;
};

static int run_engine(struct xg_ctx *ctx, int engine, int method,
                      const struct xg_set *a, const struct xg_set *b,
                      struct xg_contacts *out, struct xg_stats *st)
{
    struct xg_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.engine = engine;
    if (method == XG__RB_PAPER) {
        memset(st, 0, sizeof *st);
        opt.grid[2] = 1;
        return xg__engine_pair(ctx, &xg__op_redblue, XG_ENGINE_GPU, a, b,
                               &opt, &(struct xg__engine_knobs){method, NULL},
                               out, st);
    }
    return xg_redblue(ctx, a, b, &opt, out, st);
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0}, b = {0};
    struct xg_contacts ref = {0}, out = {0};
    struct row rows[5] = {{"seq", 0, -1, {0}},
                          {"cpu", 0, -1, {0}},
                          {"gpu (paper: CPU pair list)", 0, -1, {0}},
                          {"gpu (ours: grid and pairs on GPU)", 0, -1, {0}},
                          {"GEOS (STRtree + GEOSIntersection)", 0, -1, {0}}};
    int engines[4] = {XG_ENGINE_SEQ, XG_ENGINE_CPU, XG_ENGINE_GPU,
                      XG_ENGINE_GPU};
    int methods[4] = {0, 0, XG__RB_PAPER, 0};
    int runs = argc > 2 ? atoi(argv[2]) : 3, e, r, k;
    int geos = !(argc > 3 && strcmp(argv[3], "nogeos") == 0);

#ifdef XG_HAVE_CUDA
    xg__gpu_bench_install();    /* the paper's method, timed too */
#endif
    if (argc < 2 || runs < 1) {
        fprintf(stderr, "usage: bench_redblue MAPS.xgd [runs [nogeos]]\n");
        return 2;
    }
    if (xg_dump_read(ctx, argv[1], &a, &b) != XG_OK) {
        fprintf(stderr, "bench_redblue: %s\n", xg_ctx_errmsg(ctx));
        return 1;
    }
    printf("maps: %s: A %zu segments, B %zu segments; %d threads; "
           "best of %d runs\n",
           argv[1], a.n, b.n, xg_ctx_threads(ctx) ? xg_ctx_threads(ctx)
                                                   : xg__threads(ctx),
           runs);
    for (e = 0; e < 4; e++) {
        if (engines[e] == XG_ENGINE_GPU && !xg_gpu_available())
            continue;
        if (engines[e] == XG_ENGINE_GPU) {  /* warm-up: context, kernels */
            struct xg_stats st;
            run_engine(ctx, engines[e], methods[e], &a, &b, &out, &st);
        }
        for (r = 0; r < runs; r++) {
            struct xg_stats st;
            double t0 = now(), t;
            int rc = run_engine(ctx, engines[e], methods[e], &a, &b,
                                e == 0 ? &ref : &out, &st);
            t = now() - t0;
            if (rc != XG_OK) {
                fprintf(stderr, "bench_redblue: %s: %s\n", rows[e].name,
                        xg_ctx_errmsg(ctx));
                return 1;
            }
            if (r == 0 || t < rows[e].best) {
                rows[e].best = t;
                rows[e].st = st;
            }
            rows[e].ok = e == 0 ? 1 : xg_contacts_diff(&out, &ref) == SIZE_MAX;
            if (!rows[e].ok)
                break;
        }
    }
    if (geos) {
        struct gpair *g = NULL;
        size_t ng, calls;
        double t0 = now();
        ng = geos_job(&a, &b, &g, &calls);
        rows[4].best = now() - t0;
        rows[4].ok = 2;
        printf("GEOS: %zu envelope pairs, %zu pairs meet\n", calls, ng);
        geos_diff(g, ng, &ref);
        free(g);
    }
    {
        const struct xg_stats *s = &rows[0].st;
        printf("exact: %llu contacts (%llu proper, %llu touch, %llu overlap); "
               "grid %d x %d; %llu candidates, %llu box pairs, %llu deferred "
               "to GMP, %llu constructions (%llu exact)\n",
               (unsigned long long)ref.n,
               (unsigned long long)s->contacts[0],
               (unsigned long long)s->contacts[1],
               (unsigned long long)s->contacts[2], s->grid[0], s->grid[1],
               (unsigned long long)s->candidates,
               (unsigned long long)s->bbox_pairs,
               (unsigned long long)s->deferred,
               (unsigned long long)s->cnt.constructions,
               (unsigned long long)s->cnt.construct_exact);
    }
    printf("\n| engine | seconds | x seq | x GEOS | same as seq | stages "
           "(prepare/upload/intersect/download/exact/unique) |\n"
           "|---|---|---|---|---|---|\n");
    for (e = 0; e < 5; e++) {
        if (rows[e].ok < 0) {
            printf("| %s | not run | | | | |\n", rows[e].name);
            continue;
        }
        printf("| %s | %.4f | %.1f | %s", rows[e].name, rows[e].best,
               rows[0].best / rows[e].best, rows[4].ok > 0 ? "" : "n/a");
        if (rows[4].ok > 0)
            printf("%.1f", rows[4].best / rows[e].best);
        printf(" | %s |", rows[e].ok == 2 ? "see above"
                          : rows[e].ok ? "yes" : "NO");
        if (e < 4)
            for (k = 0; k < XG_STAGE_COUNT; k++)
                printf("%s%.4f", k ? "/" : " ", rows[e].st.seconds[k]);
        printf(" |\n");
    }
    xg_contacts_free(&ref);
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    for (e = 0; e < 4; e++)
        if (rows[e].ok == 0)
            return 1;
    return 0;
}
