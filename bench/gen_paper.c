/*
 * gen_paper.c -- a synthetic data set shaped like the mining data of the
 * paper's Table 11.3 (1,000,000 triangles, 7,846 drill-hole segments,
 * about 15.5 million candidate pairs on a 100^3 grid, about 211,000
 * contacts), written as an exactgeo dump.
 *
 *   bench/gen_paper [--seed N] [--scale S] [-o PATH]
 *
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

#define SHEETS 32
#define QUADS 125               /* per side at scale 1: 2*125^2*32 = 1e6 */
#define SEGMENTS 7846
#define SIDE 1500.0             /* metres, at scale 1 */
#define X0 499250.0
#define Y0 6999250.0
#define BASE_Z 100.0            /* elevation of the lowest sheet */
#define SHEET_DZ 15.0           /* spacing of the sheets */
#define RUN_MIN 8.0             /* horizontal run of a segment, metres */
#define RUN_MAX 49.0

struct rng {
    uint64_t s;
};

static uint64_t next_u64(struct rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static double uniform(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_u64(r) >> 11) * 0x1p-53;
}

/* Nearest multiple of 2^-10: exact, and stable against libm's last bit. */
static double snap(double v)
{
    return nearbyint(v * 1024.0) / 1024.0;
}

/* The undulation of sheet k: a shared large-scale fold plus a small
 * sheet-specific ripple, so sheets stay apart (|ripple| < SHEET_DZ / 2). */
struct sheet {
    double ph[3];
};

static double sheet_z(const struct sheet *s, int k, double x, double y)
{
    const double two_pi = 6.283185307179586;
    double u = (x - X0) / 700.0, v = (y - Y0) / 900.0;
    double fold = 22.0 * sin(two_pi * u * 0.8 + 0.3) * cos(two_pi * v * 0.6) +
                  9.0 * sin(two_pi * (u + v) * 1.7);
    double ripple = 3.0 * sin(two_pi * u * 5.0 + s->ph[0]) *
                        cos(two_pi * v * 4.0 + s->ph[1]) +
                    2.0 * sin(two_pi * (u - v) * 9.0 + s->ph[2]);
    return BASE_Z + SHEET_DZ * k + fold + ripple;
}

static int generate(uint64_t seed, double scale, struct xg_set *a,
                    struct xg_set *b)
{
    struct rng r = {seed};
    struct sheet sh[SHEETS];
    double grow = sqrt(scale), side = SIDE * grow, h, *z;
    int n = (int)lround(QUADS * grow), k, i, j;
    long nseg = lround(SEGMENTS * scale), s;

    for (k = 0; k < SHEETS; k++)
        for (i = 0; i < 3; i++)
            sh[k].ph[i] = uniform(&r, 0.0, 6.283185307179586);
    h = side / n;
    z = malloc((size_t)(n + 1) * (size_t)(n + 1) * sizeof *z);
    if (!z)
        return XG_ENOMEM;
    for (k = 0; k < SHEETS; k++) {
        int64_t sub = 0;
        for (j = 0; j <= n; j++)
            for (i = 0; i <= n; i++)
                z[(size_t)j * (size_t)(n + 1) + (size_t)i] =
                    snap(sheet_z(&sh[k], k, X0 + i * h, Y0 + j * h));
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) {
                double p[4][3];
                int c, rc;
                for (c = 0; c < 4; c++) {
                    int ii = i + (c & 1), jj = j + (c >> 1);
                    p[c][0] = snap(X0 + ii * h);
                    p[c][1] = snap(Y0 + jj * h);
                    p[c][2] = z[(size_t)jj * (size_t)(n + 1) + (size_t)ii];
                }
                /* Split each quad along alternating diagonals. */
                if ((i + j) & 1) {
                    if ((rc = xg_set_push_triangle(b, p[0], p[1], p[3], k, sub++)) ||
                        (rc = xg_set_push_triangle(b, p[0], p[3], p[2], k, sub++))) {
                        free(z);
                        return rc;
                    }
                } else {
                    if ((rc = xg_set_push_triangle(b, p[0], p[1], p[2], k, sub++)) ||
                        (rc = xg_set_push_triangle(b, p[1], p[3], p[2], k, sub++))) {
                        free(z);
                        return rc;
                    }
                }
            }
    }
    free(z);

    /* Holes: collar above the stack, end among the lowest sheets, so each
     * crosses about 27 of the 32 sheets on average. */
    for (s = 0; s < nseg; s++) {
        double p[3], q[3], run = uniform(&r, RUN_MIN, RUN_MAX);
        double az = uniform(&r, 0.0, 6.283185307179586);
        double dx = run * sin(az), dy = run * cos(az);
        int rc;
        p[0] = snap(uniform(&r, X0 + RUN_MAX, X0 + side - RUN_MAX));
        p[1] = snap(uniform(&r, Y0 + RUN_MAX, Y0 + side - RUN_MAX));
        p[2] = snap(uniform(&r, 640.0, 700.0));
        q[0] = snap(p[0] + dx);
        q[1] = snap(p[1] + dy);
        q[2] = snap(BASE_Z + SHEET_DZ * uniform(&r, -1.5, 10.5));
        if ((rc = xg_set_push_segment(a, p, q, s, 0)))
            return rc;
    }
    return XG_OK;
}

static void usage(FILE *f)
{
    fputs("usage: gen_paper [--seed N] [--scale S] [-o PATH]\n"
          "  Writes ~1e6*S triangles and 7846*S segments (exactgeo dump)\n"
          "  to PATH (default bench/data/paper-x<S>.xgdump).\n",
          f);
}

int main(int argc, char **argv)
{
    uint64_t seed = 11;
    double scale = 1.0;
    const char *path = NULL;
    char defpath[256];
    struct xg_ctx *ctx;
    struct xg_set a = {0};
    struct xg_set b = {0};
    int i, rc;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
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
        snprintf(defpath, sizeof defpath, "bench/data/paper-x%g.xgdump",
                 scale);
        path = defpath;
    }
    if (!(ctx = xg_ctx_new())) {
        fprintf(stderr, "gen_paper: out of memory\n");
        return 1;
    }
    rc = generate(seed, scale, &a, &b);
    if (rc == XG_OK)
        rc = xg_dump_write(ctx, path, &a, &b);
    if (rc != XG_OK)
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
