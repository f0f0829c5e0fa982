/*
 * gen_maps.c -- two overlapping polygon maps for the red/blue benchmark,
 * written as a 2D dump (xg_dump_write): every ring edge of every
 * polygon is one segment (fid = polygon, sub = edge index), so an edge
 * between two polygons appears twice, as in a polygon layer.
 *
 *   A, "parcels": an n x n lattice of quadrilaterals, 20 m apart, corners
 *      jittered by up to 5 m on a 1/64 m raster, at UTM magnitudes
 *      (x near 500000, y near 7000000).
 *   B, "zones": a lattice of quadrilaterals 18 m apart, turned by 0.3 rad,
 *      corners on a 1/1024 m raster, covering the same square; then
 *        - about 4% of B's corners near an A edge snapped exactly onto
 *          that edge's midpoint (T-junctions, endpoints on segments),
 *        - about 4% snapped there and nudged by one ulp (near-degenerate
 *          crossings and near misses);
 *      plus a copy of every 50th A parcel (shared boundaries: edges
 *      shared exactly, shared vertices, collinear neighbours).
 * With n = 500 (the default) A has 1,000,000 edges and B about 1.25M.
 *
 * Usage: gen_maps OUT.xgd [n [seed]]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "exactgeo.h"

#define H 20.0          /* A spacing, metres */
#define X0 500000.0
#define Y0 7000000.0

static uint64_t rng;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double unit(void)
{
    return (double)(next() >> 11) * 0x1p-53;
}

static double raster(double v, double q)
{
    return round(v * q) / q;
}

struct lattice {
    int n;              /* corners per side: n + 1 */
    double *xy;
};

static double *corner(const struct lattice *l, int i, int j)
{
    return l->xy + 2 * ((size_t)j * (size_t)(l->n + 1) + (size_t)i);
}

/* The ring (four corners) of cell (i, j) as four edges of feature fid. */
static int push_cell(struct xg_set *s, const struct lattice *l, int i, int j,
                     int64_t fid)
{
    const double *c[4] = {corner(l, i, j), corner(l, i + 1, j),
                          corner(l, i + 1, j + 1), corner(l, i, j + 1)};
    int e;
    for (e = 0; e < 4; e++) {
        double p[3] = {c[e][0], c[e][1], 0.0};
        double q[3] = {c[(e + 1) % 4][0], c[(e + 1) % 4][1], 0.0};
        if (xg_set_push_segment(s, p, q, fid, e) != XG_OK)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx;
    struct xg_set a = {0}, b = {0};
    struct lattice la, lb;
    int n = argc > 2 ? atoi(argv[2]) : 500, i, j, nb, snapped = 0, nudged = 0;
    double L, hb = 18.0, ang = 0.3, ca = cos(ang), sa = sin(ang), half;
    int64_t fid = 0;

    if (argc < 2 || n < 2 || n > 20000) {
        fprintf(stderr, "usage: gen_maps OUT.xgd [n (2..20000) [seed]]\n");
        return 2;
    }
    rng = argc > 3 ? strtoull(argv[3], NULL, 10) * 2654435761u + 1
                   : 0x2545f4914f6cdd1dULL;
    L = n * H;

    la.n = n;
    la.xy = malloc((size_t)(n + 1) * (size_t)(n + 1) * 2 * sizeof(double));
    if (!la.xy)
        return 1;
    for (j = 0; j <= n; j++)
        for (i = 0; i <= n; i++) {
            double *c = corner(&la, i, j);
            double jx = (i == 0 || i == n) ? 0 : (unit() - 0.5) * 10.0;
            double jy = (j == 0 || j == n) ? 0 : (unit() - 0.5) * 10.0;
            c[0] = X0 + raster(i * H + jx, 64);
            c[1] = Y0 + raster(j * H + jy, 64);
        }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            if (push_cell(&a, &la, i, j, fid++))
                return 1;

    /* B: the turned lattice about the square's centre, large enough to
     * cover it; cells whose centre falls outside are dropped. */
    half = L * (ca + sa) / 2.0;
    nb = (int)ceil(2.0 * half / hb);
    lb.n = nb;
    lb.xy = malloc((size_t)(nb + 1) * (size_t)(nb + 1) * 2 * sizeof(double));
    if (!lb.xy)
        return 1;
    for (j = 0; j <= nb; j++)
        for (i = 0; i <= nb; i++) {
            double u = i * hb - half, v = j * hb - half;
            double x = L / 2 + ca * u - sa * v, y = L / 2 + sa * u + ca * v;
            double *c = corner(&lb, i, j);
            int ai = (int)floor(x / H), aj = (int)lround(y / H);
            c[0] = X0 + raster(x, 1024);
            c[1] = Y0 + raster(y, 1024);
            /* Near an A edge (ai, aj)-(ai+1, aj)?  Snap to its midpoint. */
            if (ai >= 0 && ai < n && aj >= 0 && aj <= n) {
                const double *p = corner(&la, ai, aj);
                const double *q = corner(&la, ai + 1, aj);
                double mx = (p[0] + q[0]) / 2, my = (p[1] + q[1]) / 2;
                if (hypot(mx - c[0], my - c[1]) < 4.0) {
                    uint64_t r = next() % 100;
                    if (r < 20) {
                        c[0] = mx;
                        c[1] = my;
                        snapped++;
                    } else if (r < 40) {
                        c[0] = mx;
                        c[1] = nextafter(my, r & 1 ? INFINITY : -INFINITY);
                        nudged++;
                    }
                }
            }
        }
    fid = 0;
    for (j = 0; j < nb; j++)
        for (i = 0; i < nb; i++) {
            double u = (i + 0.5) * hb - half, v = (j + 0.5) * hb - half;
            double x = L / 2 + ca * u - sa * v, y = L / 2 + sa * u + ca * v;
            if (x < 0 || x > L || y < 0 || y > L) {
                fid++;
                continue;
            }
            if (push_cell(&b, &lb, i, j, fid++))
                return 1;
        }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            if (((size_t)j * (size_t)n + (size_t)i) % 50 == 7)
                if (push_cell(&b, &la, i, j, fid++))
                    return 1;

    ctx = xg_ctx_new();
    if (xg_dump_write(ctx, argv[1], &a, &b) != XG_OK) {
        fprintf(stderr, "gen_maps: %s\n", xg_ctx_errmsg(ctx));
        return 1;
    }
    printf("gen_maps: %s: A %zu edges (%d x %d parcels), B %zu edges "
           "(%d snapped corners, %d nudged by an ulp, every 50th parcel "
           "copied)\n",
           argv[1], a.n, n, n, b.n, snapped, nudged);
    xg_ctx_free(ctx);
    xg_set_free(&a);
    xg_set_free(&b);
    free(la.xy);
    free(lb.xy);
    return 0;
}
