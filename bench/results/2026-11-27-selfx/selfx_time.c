/*
 * selfx_time.c -- the self-crossing check as the tool's reader makes it
 * (ogr_driver/read.c, crossing_check): xg_self_crossing on each solid's
 * triangles alone, a fresh context per solid, on bench_inside's solids
 * (bench/gen_inside.h, seed 7: (a) 8 solids, 102,400 triangles; (b) 16,
 * 991,232).  The seconds of all the solids' calls, on all threads and on
 * one: the best and the median of REPS.
 *
 *   selfx_time [-r REPS] [-t THREADS]
 *   cc -O2 -Isrc -Ibench selfx_time.c -Lsrc/.libs -lexactgeo -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "exactgeo.h"
#include "gen_inside.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* every solid of m checked alone, as the reader does: seconds */
static double per_solid(const struct gi_model *m, int threads, int *found)
{
    size_t i = 0, j;
    double t0 = now();
    *found = 0;
    while (i < m->ntri) {
        struct xg_ctx *ctx = xg_ctx_new();
        size_t pair[2];
        int f = 0;
        for (j = i; j < m->ntri && m->fid[j] == m->fid[i]; j++)
            ;
        xg_ctx_set_threads(ctx, threads);
        if (xg_self_crossing(ctx, m->tri + 9 * i, j - i, pair, &f) != XG_OK) {
            fprintf(stderr, "selfx_time: %s\n", xg_ctx_errmsg(ctx));
            exit(2);
        }
        *found += f;
        xg_ctx_free(ctx);
        i = j;
    }
    return now() - t0;
}

int main(int argc, char **argv)
{
    int reps = 5, threads = 0, c, k, th, r;
    while ((c = getopt(argc, argv, "r:t:")) != -1) {
        if (c == 'r' && atoi(optarg) > 0 && atoi(optarg) <= 15)
            reps = atoi(optarg);
        else if (c == 't')
            threads = atoi(optarg);
        else {
            fprintf(stderr, "usage: selfx_time [-r REPS] [-t THREADS]\n");
            return 2;
        }
    }
    (void)gi_point;
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (k = 0; k < 2; k++) {
        struct gi_model m;
        int K = k ? 16 : 8;
        if (gi_model_make(&m, K, k ? 1000000 : 100000, 7))
            return 2;
        for (th = threads; th >= 1; th = th > 1 ? 1 : 0) {
            double t[16], s[16];
            int found = 0;
            for (r = 0; r < reps; r++)
                t[r] = per_solid(&m, th, &found);
            memcpy(s, t, sizeof t);
            qsort(s, (size_t)reps, sizeof *s, cmp);
            printf("case (%c): %d solids, %zu triangles, %2d thread%s: "
                   "%.3f s best, %.3f median of %d (runs", k ? 'b' : 'a', K,
                   m.ntri, th, th == 1 ? " " : "s", s[0], s[reps / 2], reps);
            for (r = 0; r < reps; r++)
                printf(" %.3f", t[r]);
            printf("); %d crossing\n", found);
        }
        gi_model_free(&m);
    }
    return 0;
}
