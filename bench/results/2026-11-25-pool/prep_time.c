#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "op/inside/xg_inside.h"
#include "xg_thread.h"
#include "gen_inside.h"
static void noop(void *a, int t) { (void)a; (void)t; }
int main(int argc, char **argv)
{
    int th = argc > 1 ? atoi(argv[1]) : 2;
    size_t ntri = argc > 2 ? (size_t)atol(argv[2]) : 100000;
    int K = argc > 3 ? atoi(argv[3]) : 8;
    struct gi_model m; struct xg_set b = {0}; size_t i; int r;
    struct xg_ctx *ctx = xg_ctx_new();
    xg_ctx_set_threads(ctx, th);
    gi_model_make(&m, K, ntri, 7);
    for (i = 0; i < m.ntri; i++)
        xg_set_push_triangle(&b, m.tri + 9 * i, m.tri + 9 * i + 3, m.tri + 9 * i + 6, m.fid[i], 0);
    for (r = 0; r < 6; r++) {
        struct xg__solids S; struct xg_stats st; struct xg_opts opt;
        double t0, t1, t2, t3;
        memset(&st, 0, sizeof st); memset(&opt, 0, sizeof opt);
        t0 = xg__now();
        xg__inside_check_finite(ctx, &b, 0);
        t1 = xg__now();
        xg__solids_prepare(ctx, &b, &opt, th, 0, &S, &st);
        t2 = xg__now();
        xg__solids_closed(ctx, &b, th);
        t3 = xg__now();
        fprintf(stderr, "finite %.2f ms prepare %.2f ms closed %.2f ms; grid %d x %d, refs %u, runs %zu\n",
               1e3*(t1-t0), 1e3*(t2-t1), 1e3*(t3-t2), S.g.n[0], S.g.n[1], S.g.b_start[S.g.ncell], S.nrun);
        xg__solids_free(&S);
    }
    {
        double t0 = xg__now(); int k;
        for (k = 0; k < 100; k++) xg__parallel(th, noop, NULL);
        printf("empty xg__parallel(%d): %.1f us each\n", th, 1e6 * (xg__now() - t0) / 100);
    }
    return 0;
}
