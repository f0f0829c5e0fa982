/*
 * ab.c -- one tree's GPU engine timed for an A/B comparison of two
 * builds (public API only, so the same source builds against either
 * tree's header and loads either tree's libexactgeo.so.0):
 *
 *   ab segtri DUMP NX,NY,NZ RUNS   xg_segtri, engine gpu (its default
 *                                  strategy, packed), on a dump
 *   ab delaunay N RUNS             xg_delaunay, engine gpu, on the
 *                                  uniform set of N points
 *                                  (bench/gen_delaunay.h)
 *
 * One untimed warm-up, then RUNS timed calls: one line per call with the
 * wall-clock of the call (inputs in host memory to the answer in host
 * memory, as bench_gpu's Total and bench_delaunay's time) and the
 * stats' stages; a last line with the answer's size and the median.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "exactgeo.h"
#include "gen_delaunay.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a, b;
    struct xg_opts o;
    struct xg_stats st;
    double t[64];
    int runs, k, rc, seg;
    size_t n = 0;
    if (argc < 4 || !ctx)
        return 2;
    seg = !strcmp(argv[1], "segtri");
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&o, 0, sizeof o);
    o.engine = XG_ENGINE_GPU;
    if (seg) {
        if (argc < 5 || sscanf(argv[3], "%d,%d,%d", &o.grid[0], &o.grid[1],
                               &o.grid[2]) != 3)
            return 2;
        if ((rc = xg_dump_read(ctx, argv[2], &a, &b)) != XG_OK) {
            fprintf(stderr, "ab: %s\n", xg_ctx_errmsg(ctx));
            return 1;
        }
        runs = atoi(argv[4]);
    } else {
        uint64_t np = (uint64_t)strtod(argv[2], NULL), i;
        double p[3];
        for (i = 0; i < np; i++) {
            gd_point(GD_UNIFORM, np, i, p);
            if (xg_set_push_point(&a, p, (int64_t)i, 0) != XG_OK)
                return 1;
        }
        runs = atoi(argv[3]);
    }
    if (runs < 1 || runs > 64)
        return 2;
    for (k = -1; k < runs; k++) {
        struct xg_contacts c = {0};
        struct xg_triangles tr = {0};
        double t0 = now();
        memset(&st, 0, sizeof st);
        rc = seg ? xg_segtri(ctx, &a, &b, &o, &c, &st)
                 : xg_delaunay(ctx, &a, &o, &tr, &st);
        t0 = now() - t0;
        if (rc != XG_OK) {
            fprintf(stderr, "ab: %s\n", xg_ctx_errmsg(ctx));
            return 1;
        }
        n = seg ? c.n : tr.n;
        xg_contacts_free(&c);
        xg_triangles_free(&tr);
        if (k < 0)
            continue;
        t[k] = t0;
        printf("run %d %.4f s; stages", k, t0);
        for (int s = 0; s < XG_STAGE_COUNT; s++)
            printf(" %.4f", st.seconds[s]);
        printf("\n");
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    printf("%s: %zu records, median %.4f s, min %.4f s\n", argv[1], n,
           t[runs / 2], t[0]);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    return 0;
}
