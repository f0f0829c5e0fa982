/*
 * bench_digest.c -- a digest of every engine's answer on the benchmark
 * sets, so that two builds (before and after a change that must not
 * change behaviour) or two engines of one build can be compared bit for
 * bit without keeping the answers: bench/same_output.sh runs it.
 *
 *   bench/bench_digest [-s SCALE] [-e ENGINES] [-m MAPS.xgdump]
 *
 * One line per (operation, set, engine, threads, regions): the counts and
 * a 64-bit FNV-1a digest of the records as the library returns them
 * (contacts: a, b, kind and both points, bit for bit; triangles: the
 * vertex indices), and the stats' input counts.  Seconds are not printed:
 * two runs of the same build print the same lines.
 *   -s SCALE   sizes relative to the defaults (segtri shapes at scale
 *              0.1 of the paper's 1e6 triangles, inside 16 solids of 1e5
 *              triangles and 2e5 points, delaunay 2e5 points); default 1
 *   -e ENGINES comma-separated: seq, cpu, gpu, regions (cpu in 3
 *              regions), threads (cpu on 1 and 3 threads); default
 *              seq,cpu,regions,threads, and gpu where one is usable
 *   -m PATH    a dump of two segment sets (bench/gen_maps) for redblue;
 *              without it redblue is left out
 * Only the public API (src/exactgeo.h) is used, so the same source builds
 * against any build tree: same_output.sh compiles it against both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "gen_shapes.h"
#include "gen_inside.h"
#include "gen_delaunay.h"

static double scale = 1.0;
static const char *engines = NULL;

/* FNV-1a over n bytes at p, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= c[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The digest of a contact list: each record's fields, never its padding. */
static uint64_t contacts_digest(const struct xg_contacts *c)
{
    uint64_t h = 14695981039346656037ULL;
    size_t i;
    for (i = 0; i < c->n; i++) {
        const struct xg_contact *r = &c->v[i];
        h = fnv(h, &r->a, sizeof r->a);
        h = fnv(h, &r->b, sizeof r->b);
        h = fnv(h, &r->kind, sizeof r->kind);
        h = fnv(h, r->p, sizeof r->p);
        h = fnv(h, r->q, sizeof r->q);
    }
    return h;
}

/* Non-zero when the engine list (-e) names what. */
static int wanted(const char *what)
{
    const char *s = engines;
    size_t n = strlen(what);
    while (s && *s) {
        if (strncmp(s, what, n) == 0 && (s[n] == ',' || s[n] == '\0'))
            return 1;
        s = strchr(s, ',');
        s = s ? s + 1 : NULL;
    }
    return 0;
}

/* The runs of one set, as the engine list asks: engine, threads, regions. */
struct variant {
    const char *name;
    int engine, threads, regions;
};

static const struct variant variants[] = {
    {"seq", XG_ENGINE_SEQ, 1, 1},     {"cpu", XG_ENGINE_CPU, 0, 1},
    {"threads", XG_ENGINE_CPU, 1, 1}, {"threads", XG_ENGINE_CPU, 3, 1},
    {"regions", XG_ENGINE_CPU, 0, 3}, {"gpu", XG_ENGINE_GPU, 0, 1},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

typedef int (*pair_fn)(struct xg_ctx *, const struct xg_set *,
                       const struct xg_set *, const struct xg_opts *,
                       struct xg_contacts *, struct xg_stats *);

/* Runs fn on a, b for each variant wanted and prints a line per run;
 * returns the number of failed runs. */
static int pairs(struct xg_ctx *ctx, const char *op, const char *set,
                 pair_fn fn, const struct xg_set *a, const struct xg_set *b,
                 int outside)
{
    size_t v;
    int bad = 0;
    for (v = 0; v < NVARIANTS; v++) {
        const struct variant *w = &variants[v];
        struct xg_opts opt;
        struct xg_contacts out = {0};
        struct xg_stats st;
        int rc;
        if (!wanted(w->name))
            continue;
        memset(&opt, 0, sizeof opt);
        opt.engine = w->engine;
        opt.regions = w->regions;
        opt.outside = outside;
        xg_ctx_set_threads(ctx, w->threads);
        rc = fn(ctx, a, b, &opt, &out, &st);
        if (rc != XG_OK) {
            printf("%s %s %s threads=%d regions=%d: error %s: %s\n", op, set,
                   xg_engine_name(w->engine), w->threads, w->regions,
                   xg_strerror(rc), xg_ctx_errmsg(ctx));
            bad++;
            continue;
        }
        printf("%s %s %s threads=%d regions=%d a=%llu b=%llu skipped=%llu/%llu "
               "records=%zu digest=%016llx\n", op, set,
               xg_engine_name(w->engine), w->threads, w->regions,
               (unsigned long long)st.a_count, (unsigned long long)st.b_count,
               (unsigned long long)st.a_skipped,
               (unsigned long long)st.b_skipped, out.n,
               (unsigned long long)contacts_digest(&out));
        fflush(stdout);
        xg_contacts_free(&out);
    }
    return bad;
}

/* segtri on each shape of bench/gen_shapes.h. */
static int segtri_sets(struct xg_ctx *ctx)
{
    int i, bad = 0;
    for (i = 0; gs_names[i]; i++) {
        struct xg_set a = {0}, b = {0};
        if (gs_make(gs_names[i], 1, 0.1 * scale, &a, &b) != XG_OK) {
            printf("segtri %s: cannot make the set\n", gs_names[i]);
            bad++;
        } else {
            bad += pairs(ctx, "segtri", gs_names[i], xg_segtri, &a, &b, 0);
        }
        xg_set_free(&a);
        xg_set_free(&b);
    }
    return bad;
}

/* inside on bench_inside's model: 16 solids, points of its lattice with
 * 2% of them on a vertex, an edge or a face; with and without -outside. */
static int inside_sets(struct xg_ctx *ctx)
{
    struct gi_model m;
    struct xg_set a = {0}, b = {0};
    uint64_t n = (uint64_t)(200000 * scale), i;
    double p[3];
    int bad = 0;
    if (gi_model_make(&m, 16, (size_t)(100000 * scale), 7))
        return 1;
    for (i = 0; i < m.ntri; i++)
        xg_set_push_triangle(&b, m.tri + 9 * i, m.tri + 9 * i + 3,
                             m.tri + 9 * i + 6, m.fid[i], 0);
    for (i = 0; i < n; i++) {
        gi_point(&m, n, 20, i, p);
        xg_set_push_point(&a, p, (int64_t)i, 0);
    }
    bad += pairs(ctx, "inside", "model", xg_inside, &a, &b, 0);
    bad += pairs(ctx, "inside", "model-outside", xg_inside, &a, &b, 1);
    gi_model_free(&m);
    xg_set_free(&a);
    xg_set_free(&b);
    return bad;
}

/* redblue on the maps of a dump. */
static int redblue_sets(struct xg_ctx *ctx, const char *path)
{
    struct xg_set a = {0}, b = {0};
    int bad;
    if (xg_dump_read(ctx, path, &a, &b) != XG_OK) {
        printf("redblue %s: %s\n", path, xg_ctx_errmsg(ctx));
        return 1;
    }
    bad = pairs(ctx, "redblue", "maps", xg_redblue, &a, &b, 0);
    xg_set_free(&a);
    xg_set_free(&b);
    return bad;
}

/* delaunay on each set of bench/gen_delaunay.h. */
static int delaunay_sets(struct xg_ctx *ctx)
{
    uint64_t n = (uint64_t)(200000 * scale), k;
    int set, bad = 0;
    for (set = 0; set < GD_COUNT; set++) {
        struct xg_set s = {0};
        size_t v;
        double p[3];
        for (k = 0; k < n; k++) {
            gd_point(set, n, k, p);
            xg_set_push_point(&s, p, (int64_t)k, 0);
        }
        for (v = 0; v < NVARIANTS; v++) {
            const struct variant *w = &variants[v];
            struct xg_opts opt;
            struct xg_triangles t = {0};
            struct xg_stats st;
            int rc;
            if (!wanted(w->name) || w->regions > 1)
                continue;
            memset(&opt, 0, sizeof opt);
            opt.engine = w->engine;
            xg_ctx_set_threads(ctx, w->threads);
            rc = xg_delaunay(ctx, &s, &opt, &t, &st);
            if (rc != XG_OK) {
                printf("delaunay %s %s threads=%d: error %s: %s\n",
                       gd_name[set], xg_engine_name(w->engine), w->threads,
                       xg_strerror(rc), xg_ctx_errmsg(ctx));
                bad++;
                continue;
            }
            printf("delaunay %s %s threads=%d regions=1 a=%llu skipped=%llu "
                   "records=%zu digest=%016llx\n", gd_name[set],
                   xg_engine_name(w->engine), w->threads,
                   (unsigned long long)st.a_count,
                   (unsigned long long)st.a_skipped, t.n,
                   (unsigned long long)fnv(14695981039346656037ULL, t.v,
                                           t.n * sizeof *t.v));
            fflush(stdout);
            xg_triangles_free(&t);
        }
        xg_set_free(&s);
    }
    return bad;
}

int main(int argc, char **argv)
{
    const char *maps = NULL;
    struct xg_ctx *ctx;
    int i, bad = 0;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-s") && i + 1 < argc)
            scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "-e") && i + 1 < argc)
            engines = argv[++i];
        else if (!strcmp(argv[i], "-m") && i + 1 < argc)
            maps = argv[++i];
        else {
            fprintf(stderr, "usage: bench_digest [-s SCALE] [-e ENGINES] "
                            "[-m MAPS.xgdump]\n");
            return 2;
        }
    }
    if (!(scale > 0.0)) {
        fprintf(stderr, "bench_digest: -s: a positive scale\n");
        return 2;
    }
    if (!engines)
        engines = xg_gpu_available() ? "seq,cpu,regions,threads,gpu"
                                     : "seq,cpu,regions,threads";
    if (!(ctx = xg_ctx_new()))
        return 2;
    xg_ctx_set_memory(ctx, XG_MEMORY_UNCHECKED);
    bad += segtri_sets(ctx);
    if (maps)
        bad += redblue_sets(ctx, maps);
    bad += inside_sets(ctx);
    bad += delaunay_sets(ctx);
    xg_ctx_free(ctx);
    return bad ? 1 : 0;
}
