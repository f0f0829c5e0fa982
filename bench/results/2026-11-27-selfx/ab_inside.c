/*
 * ab_inside.c -- xg_inside on bench_inside's cases, through the public
 * API only, so that one program weighs the base's library and this
 * tree's alike (run it with LD_LIBRARY_PATH at either's
 * libexactgeo.so.0; xg_opts.solids_checked is the struct's last field,
 * which the base does not read).  bench_inside -g prints no cpu figure;
 * this does, for both.  Per case ((a) 8 solids, 102,400 triangles, 10^7
 * points; (b) 16 solids, 991,232 triangles, 10^8 points; bench/
 * gen_inside.h, seed 7): the cpu engine (one warm-up run, then REPS), and
 * the gpu engine where there is one (likewise), each the median of REPS
 * wall times of the xg_inside call; with -n, each run alternated with
 * one without the check (solids_checked).  Records compared by count of
 * each kind between every run.
 *
 *   ab_inside [-r REPS] [-d DIVISOR] [-n] [-t THREADS]
 *   cc -O2 -pthread -Isrc -Ibench ab_inside.c -Lsrc/.libs -lexactgeo -lm
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "exactgeo.h"
#include "gen_inside.h"

static int reps = 5, nocheck = 0, threads = 0;
static uint64_t divide = 1;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct gen {
    const struct gi_model *m;
    uint64_t n, lo, hi;
    struct xg_set *a;
};

static void *gen_part(void *arg)
{
    struct gen *g = arg;
    uint64_t i;
    for (i = g->lo; i < g->hi; i++) {
        gi_point(g->m, g->n, 20, i, g->a->xyz + 3 * i);
        g->a->fid[i] = (int64_t)i;
        g->a->sub[i] = 0;
    }
    return NULL;
}

static void points(struct xg_set *a, const struct gi_model *m, uint64_t n)
{
    pthread_t th[256];
    struct gen g[256];
    int t, nt = threads > 256 ? 256 : threads;
    a->elem = XG_ELEM_POINT;
    a->xyz = malloc(n * 3 * sizeof(double));
    a->fid = malloc(n * sizeof(int64_t));
    a->sub = malloc(n * sizeof(int64_t));
    if (!a->xyz || !a->fid || !a->sub) {
        fprintf(stderr, "ab_inside: out of memory\n");
        exit(2);
    }
    a->n = a->cap = n;
    for (t = 0; t < nt; t++) {
        g[t].m = m;
        g[t].n = n;
        g[t].lo = n * (uint64_t)t / (uint64_t)nt;
        g[t].hi = n * (uint64_t)(t + 1) / (uint64_t)nt;
        g[t].a = a;
        pthread_create(&th[t], NULL, gen_part, &g[t]);
    }
    for (t = 0; t < nt; t++)
        pthread_join(th[t], NULL);
}

/* one call: its wall seconds; the counts of its records by kind in k */
static double one(struct xg_ctx *ctx, const struct xg_set *a,
                  const struct xg_set *b, int engine, int checked,
                  uint64_t k[3])
{
    struct xg_opts opt;
    struct xg_contacts out = {0};
    struct xg_stats st;
    double t0, t;
    size_t i;
    memset(&opt, 0, sizeof opt);
    opt.engine = engine;
    opt.solids_checked = checked;
    t0 = now();
    if (xg_inside(ctx, a, b, &opt, &out, &st) != XG_OK) {
        fprintf(stderr, "ab_inside: %s\n", xg_ctx_errmsg(ctx));
        exit(2);
    }
    t = now() - t0;
    k[0] = k[1] = k[2] = 0;
    for (i = 0; i < out.n; i++)
        k[out.v[i].kind == XG_KIND_INSIDE ? 0
          : out.v[i].kind == XG_KIND_BOUNDARY ? 1 : 2]++;
    xg_contacts_free(&out);
    return t;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void line(const char *what, double *t)
{
    double s[16];
    int r;
    memcpy(s, t, (size_t)reps * sizeof *t);
    qsort(s, (size_t)reps, sizeof *s, cmp);
    printf("  %-22s %8.3f s  (median of %d; runs", what, s[reps / 2], reps);
    for (r = 0; r < reps; r++)
        printf(" %.3f", t[r]);
    printf(")\n");
}

static void one_case(struct xg_ctx *ctx, const char *name, int K,
                     size_t ntri, uint64_t n, int gpu)
{
    struct gi_model m;
    struct xg_set a = {0}, b = {0};
    uint64_t k0[3], k[3];
    double on[16], off[16];
    int e, r, same = 1;
    size_t i;
    if (gi_model_make(&m, K, ntri, 7)) {
        fprintf(stderr, "ab_inside: out of memory\n");
        exit(2);
    }
    for (i = 0; i < m.ntri; i++)
        xg_set_push_triangle(&b, m.tri + 9 * i, m.tri + 9 * i + 3,
                             m.tri + 9 * i + 6, m.fid[i], 0);
    points(&a, &m, n);
    one(ctx, &a, &b, XG_ENGINE_CPU, 0, k0);
    printf("== case %s: %d solids, %zu triangles, %llu points; %llu inside, "
           "%llu boundary\n", name, K, m.ntri, (unsigned long long)n,
           (unsigned long long)k0[0], (unsigned long long)k0[1]);
    for (e = XG_ENGINE_CPU; e <= (gpu ? XG_ENGINE_GPU : XG_ENGINE_CPU);
         e++) {
        if (e == XG_ENGINE_GPU)
            one(ctx, &a, &b, e, 0, k);      /* warm-up */
        for (r = 0; r < reps; r++) {
            on[r] = one(ctx, &a, &b, e, 0, k);
            same &= !memcmp(k, k0, sizeof k);
            if (nocheck) {
                off[r] = one(ctx, &a, &b, e, 1, k);
                same &= !memcmp(k, k0, sizeof k);
            }
        }
        line(e == XG_ENGINE_CPU ? "cpu" : "gpu", on);
        if (nocheck)
            line(e == XG_ENGINE_CPU ? "cpu, solids_checked"
                                    : "gpu, solids_checked", off);
    }
    printf("  records: %s\n", same ? "the same counts in every run"
                                   : "DIFFERENT counts");
    xg_set_free(&a);
    xg_set_free(&b);
    gi_model_free(&m);
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx;
    int c, gpu;
    while ((c = getopt(argc, argv, "r:d:nt:")) != -1) {
        if (c == 'r' && atoi(optarg) > 0 && atoi(optarg) <= 15)
            reps = atoi(optarg);
        else if (c == 'd' && atoi(optarg) > 0)
            divide = (uint64_t)atoi(optarg);
        else if (c == 'n')
            nocheck = 1;
        else if (c == 't')
            threads = atoi(optarg);
        else {
            fprintf(stderr, "usage: ab_inside [-r REPS] [-d DIVISOR] [-n] "
                            "[-t THREADS]\n");
            return 2;
        }
    }
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    ctx = xg_ctx_new();
    xg_ctx_set_threads(ctx, threads);
    gpu = xg_gpu_available();
    printf("ab_inside: %d threads, %s%s\n", threads,
           gpu ? "cpu and gpu engines" : "cpu engine (no GPU)",
           nocheck ? ", each run alternated with one without the check" : "");
    one_case(ctx, "(a)", 8, 100000 / divide, 10000000 / divide, gpu);
    one_case(ctx, "(b)", 16, 1000000 / divide, 100000000 / divide, gpu);
    xg_ctx_free(ctx);
    return 0;
}
