/*
 * bench_segtri.c -- times xg_segtri's CPU engines on a dump and checks
 * that they agree bit for bit.
 *
 *   bench/bench_segtri [-n RUNS] [-g NX,NY,NZ | -g auto] [-t THREADS] DUMP
 *
 * Runs engine seq, then engine cpu (THREADS threads, default all online
 * processors), RUNS times each (default 3), and prints per-stage seconds
 * (median and min over the runs), the work counters, the contacts by
 * kind, the cpu/seq speedup and the exact share (seconds in GMP work /
 * seconds in the intersect stage).  The process CPU time of each call is
 * printed too: on a busy machine the ratio of the engines' CPU times
 * (the work the threads add) is steadier than their wall-clock ratio.  Every run's contacts must equal the
 * first seq run's, byte for byte; the program says so, and exits 1 when
 * they differ.  Timings are wall-clock: on a shared machine they are
 * noisy, which is why min is printed next to median.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "exactgeo.h"

#define MAX_RUNS 64

struct engine_runs {
    int engine;
    int nruns;
    struct xg_stats st[MAX_RUNS];
    double total[MAX_RUNS];     /* wall-clock of the whole xg_segtri call */
    double cpu[MAX_RUNS];       /* process CPU time of the call, all threads */
};

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median and min of n values (n >= 1); v is left unchanged. */
static void med_min(const double *v, int n, double *med, double *min)
{
    double s[MAX_RUNS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *min = s[0];
    *med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static void stage_stat(const struct engine_runs *e, int stage, double *med,
                       double *min)
{
    double v[MAX_RUNS];
    int i;
    for (i = 0; i < e->nruns; i++)
        v[i] = stage == -2 ? e->cpu[i]
               : stage < 0 ? e->total[i] : e->st[i].seconds[stage];
    med_min(v, e->nruns, med, min);
}

/* Runs one engine nruns times; the first contacts ever computed become
 * *ref, every later result is compared with it.  Returns XG_OK or the
 * error of xg_segtri; *same becomes 0 on any difference. */
static int run_engine(struct xg_ctx *ctx, const struct xg_set *a,
                      const struct xg_set *b, const struct xg_opts *base,
                      struct engine_runs *e, struct xg_contacts *ref,
                      int *have_ref, int *same)
{
    struct xg_opts o = *base;
    int i, rc;
    o.engine = e->engine;
    for (i = 0; i < e->nruns; i++) {
        struct xg_contacts out = {0};
        double t = clock_s(CLOCK_MONOTONIC);
        double c = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        rc = xg_segtri(ctx, a, b, &o, &out, &e->st[i]);
        e->total[i] = clock_s(CLOCK_MONOTONIC) - t;
        e->cpu[i] = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c;
        if (rc != XG_OK) {
            xg_contacts_free(&out);
            return rc;
        }
        fprintf(stderr, "  %s run %d: %.3f s, %zu contacts\n",
                xg_engine_name(e->engine), i + 1, e->total[i], out.n);
        if (!*have_ref) {
            *ref = out;
            *have_ref = 1;
            continue;
        }
        if (xg_contacts_diff(ref, &out) != SIZE_MAX)
            *same = 0;
        xg_contacts_free(&out);
    }
    return XG_OK;
}

static void print_report(const struct engine_runs *e, int ne,
                         const struct xg_set *a, const struct xg_set *b)
{
    const struct xg_stats *s0 = &e[0].st[0];
    double med[2], min[2];
    int i, k;

    printf("input: %zu segments, %zu triangles; grid %d x %d x %d; "
           "%d run(s) per engine\n",
           a->n, b->n, s0->grid[0], s0->grid[1], s0->grid[2], e[0].nruns);
    printf("\n%-22s", "seconds (median/min)");
    for (i = 0; i < ne; i++)
        printf(" %10s(%2d thr)   ", xg_engine_name(e[i].engine),
               e[i].st[0].threads);
    printf("\n");
    for (k = -2; k < XG_STAGE_COUNT; k++) {
        printf("%-22s", k == -2 ? "cpu time (all thr)"
                        : k < 0 ? "total (wall)" : xg_stage_name(k));
        for (i = 0; i < ne; i++) {
            stage_stat(&e[i], k, &med[0], &min[0]);
            printf("   %8.3f / %8.3f", med[0], min[0]);
        }
        printf("\n");
    }
    printf("\n%-22s", "counters");
    for (i = 0; i < ne; i++)
        printf(" %21s", xg_engine_name(e[i].engine));
    printf("\n");
#define ROW(label, expr)                                                  \
    do {                                                                  \
        printf("%-22s", label);                                           \
        for (i = 0; i < ne; i++) {                                        \
            const struct xg_stats *s = &e[i].st[0];                       \
            printf(" %21llu", (unsigned long long)(expr));                \
        }                                                                 \
        printf("\n");                                                     \
    } while (0)
    ROW("grid refs A", s->grid_refs_a);
    ROW("grid refs B", s->grid_refs_b);
    ROW("candidate pairs", s->candidates);
    ROW("bbox pairs", s->bbox_pairs);
    ROW("deferred pairs", s->deferred);
    ROW("predicates", s->cnt.predicates);
    ROW("filter failures", s->cnt.filter_failures);
    ROW("exact evaluations", s->cnt.exact_evals);
    ROW("constructions", s->cnt.constructions);
    ROW("  certified in dd, bound", s->cnt.construct_ld);
    ROW("  certified in dd intervals", s->cnt.construct_dd);
    ROW("  rounded with GMP", s->cnt.construct_exact);
    ROW("skipped A / B", s->a_skipped + s->b_skipped);
    for (k = 0; k < XG_KIND_COUNT; k++) {
        char label[40];
        snprintf(label, sizeof label, "contacts %s", xg_kind_name(k, 3));
        ROW(label, s->contacts[k]);
    }
#undef ROW
    printf("%-22s", "exact share (median)");
    for (i = 0; i < ne; i++) {
        double v[MAX_RUNS], m, mn;
        int r;
        for (r = 0; r < e[i].nruns; r++) {
            const struct xg_stats *s = &e[i].st[r];
            v[r] = s->seconds[XG_STAGE_INTERSECT] > 0.0
                       ? s->seconds[XG_STAGE_EXACT] /
                             s->seconds[XG_STAGE_INTERSECT]
                       : 0.0;
        }
        med_min(v, e[i].nruns, &m, &mn);
        printf(" %20.3f%%", 100.0 * m);
    }
    printf("\n");
    if (ne == 2) {
        stage_stat(&e[0], -1, &med[0], &min[0]);
        stage_stat(&e[1], -1, &med[1], &min[1]);
        printf("speedup cpu/seq: %.2fx (medians), %.2fx (mins)\n",
               med[1] > 0.0 ? med[0] / med[1] : 0.0,
               min[1] > 0.0 ? min[0] / min[1] : 0.0);
        stage_stat(&e[0], XG_STAGE_INTERSECT, &med[0], &min[0]);
        stage_stat(&e[1], XG_STAGE_INTERSECT, &med[1], &min[1]);
        printf("speedup of the intersect stage: %.2fx (medians)\n",
               med[1] > 0.0 ? med[0] / med[1] : 0.0);
        stage_stat(&e[0], -2, &med[0], &min[0]);
        stage_stat(&e[1], -2, &med[1], &min[1]);
        printf("work inflation cpu/seq (cpu time, medians): %.2fx; "
               "the best speedup the threads allow on idle cores is about "
               "%d / inflation\n",
               med[0] > 0.0 ? med[1] / med[0] : 0.0, e[1].st[0].threads);
    }
}

static int parse_grid(const char *s, int g[3])
{
    if (!strcmp(s, "auto")) {
        g[0] = g[1] = g[2] = 0;
        return 1;
    }
    return sscanf(s, "%d,%d,%d", &g[0], &g[1], &g[2]) == 3 && g[0] > 0 &&
           g[1] > 0 && g[2] > 0;
}

static void usage(FILE *f)
{
    fputs("usage: bench_segtri [-n RUNS] [-g NX,NY,NZ|auto] [-t THREADS] "
          "DUMP\n"
          "  RUNS per engine (default 3, at most 64); grid default "
          "100,100,100;\n"
          "  THREADS for engine cpu (default 0: all online processors).\n",
          f);
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx;
    struct xg_set a = {0};
    struct xg_set b = {0};
    struct xg_opts opt;
    struct xg_contacts ref = {0};
    static struct engine_runs e[2];
    const char *path = NULL;
    int i, runs = 3, threads = 0, rc = XG_OK, have_ref = 0, same = 1;

    memset(&opt, 0, sizeof opt);
    opt.grid[0] = opt.grid[1] = opt.grid[2] = 100;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-g") && i + 1 < argc) {
            if (!parse_grid(argv[++i], opt.grid)) {
                fprintf(stderr, "bench_segtri: bad grid '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] != '-' && !path) {
            path = argv[i];
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!path || runs < 1 || runs > MAX_RUNS || threads < 0) {
        usage(stderr);
        return 2;
    }
    if (!(ctx = xg_ctx_new())) {
        fprintf(stderr, "bench_segtri: out of memory\n");
        return 1;
    }
    xg_ctx_set_threads(ctx, threads);
    rc = xg_dump_read(ctx, path, &a, &b);
    if (rc != XG_OK) {
        fprintf(stderr, "bench_segtri: %s\n", xg_ctx_errmsg(ctx));
        xg_ctx_free(ctx);
        return 1;
    }
    e[0].engine = XG_ENGINE_SEQ;
    e[1].engine = XG_ENGINE_CPU;
    for (i = 0; i < 2 && rc == XG_OK; i++) {
        e[i].nruns = runs;
        rc = run_engine(ctx, &a, &b, &opt, &e[i], &ref, &have_ref, &same);
    }
    if (rc != XG_OK) {
        fprintf(stderr, "bench_segtri: %s: %s: %s\n", path, xg_strerror(rc),
                xg_ctx_errmsg(ctx));
    } else {
        print_report(e, 2, &a, &b);
        printf("results: %s (%zu contacts; %d seq and %d cpu runs "
               "compared byte for byte)\n",
               same ? "identical" : "DIFFERENT", ref.n, runs, runs);
    }
    xg_contacts_free(&ref);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    return rc != XG_OK ? 1 : same ? 0 : 1;
}
