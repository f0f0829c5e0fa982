/*
 * gen_paper.c -- a synthetic data set shaped like the mining data of the
 * paper's Table 11.3 (1,000,000 triangles, 7,846 drill-hole segments,
 * about 15.5 million candidate pairs on a 100^3 grid, about 211,000
 * contacts), written as an exactgeo dump.
 *
 *   bench/gen_paper [--shape NAME] [--seed N] [--scale S] [-o PATH]
 *
 * --shape picks another of bench/gen_shapes.h's shapes (horizons,
 * clustered, axis: the CPU benchmark's); the default, paper, is this one.
 * Shape: SHEETS stacked undulating surfaces (ore-body shells and horizons)
 * over a square at UTM coordinates (EPSG:32634 magnitudes), each a height
 * field triangulated on an n x n quad mesh with shared vertices; and one
 * long straight segment per drill hole from above the stack down through
 * most of the sheets, inclined so that its bounding box spans a few grid
 * columns, as old collar-to-end-of-hole surveys do.
 *
 * --scale S multiplies both counts by S: the square grows by sqrt(S) on
 * each side at the same density, so a grid with the same cell size
 * (about 100 sqrt(S) x 100 sqrt(S) x 100) sees S times the work.
 *
 * Deterministic: one splitmix64 stream per seed; every coordinate is
 * rounded to a multiple of 2^-10 m, so the output does not depend on the
 * last bit of libm's sin().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "gen_shapes.h"

static void usage(FILE *f)
{
    fputs("usage: gen_paper [--shape NAME] [--seed N] [--scale S] [-o PATH]\n"
          "  Writes ~1e6*S triangles and 7846*S segments (exactgeo dump)\n"
          "  to PATH (default bench/data/NAME-x<S>.xgdump); NAME: paper\n"
          "  (default), horizons, clustered, axis (bench/gen_shapes.h).\n",
          f);
}

int main(int argc, char **argv)
{
    uint64_t seed = 11;
    double scale = 1.0;
    const char *path = NULL, *shape = "paper";
    char defpath[256];
    struct xg_ctx *ctx;
    struct xg_set a = {0};
    struct xg_set b = {0};
    int i, rc;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shape") && i + 1 < argc) {
            shape = argv[++i];
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            scale = strtod(argv[++i], NULL);
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            path = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!(scale >= 0.001 && scale <= 100.0)) {
        fprintf(stderr, "gen_paper: --scale must be in [0.001, 100]\n");
        return 2;
    }
    if (!path) {
        snprintf(defpath, sizeof defpath, "bench/data/%s-x%g.xgdump", shape,
                 scale);
        path = defpath;
    }
    if (!(ctx = xg_ctx_new())) {
        fprintf(stderr, "gen_paper: out of memory\n");
        return 1;
    }
    rc = gs_make(shape, seed, scale, &a, &b);
    if (rc == XG_OK)
        rc = xg_dump_write(ctx, path, &a, &b);
    if (rc == XG_EINVAL && !a.n && !b.n)
        fprintf(stderr, "gen_paper: unknown shape '%s'\n", shape);
    else if (rc != XG_OK)
        fprintf(stderr, "gen_paper: %s%s%s\n", xg_strerror(rc),
                *xg_ctx_errmsg(ctx) ? ": " : "", xg_ctx_errmsg(ctx));
    else
        printf("gen_paper: %s: %zu segments, %zu triangles (seed %llu, "
               "scale %g)\n",
               path, a.n, b.n, (unsigned long long)seed, scale);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    return rc == XG_OK ? 0 : 1;
}
