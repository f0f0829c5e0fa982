/*
 * gen_shapes.h -- the synthetic segment x triangle data sets of the CPU
 * benchmark (bench_cpu), one function per shape, written so that no one
 * shape decides how the engines are tuned (issue 16):
 *
 *   paper      the paper's Table 11.3: 32 undulating sheets 15 m apart
 *              (1M triangles), 7,846 steep holes with a short horizontal
 *              run, each crossing about 27 sheets;
 *   horizons   30 thin stacked horizon surfaces 6 m apart (33K triangles
 *              each), 7,846 long inclined holes (45-65 degrees), each one
 *              segment crossing about 20 horizons: boxes that hold
 *              thousands of triangles the hole never comes near;
 *   clustered  ore bodies (UV spheres) whose triangles range from 25 cm
 *              to 25 m, gathered in a few clusters, under a coarse
 *              topography, and holes of 4 segments aimed at the clusters:
 *              cells of one size fit none of them;
 *   axis       the horizons crossed by holes parallel to a grid axis:
 *              vertical ones (a tenth exactly on the columns of the
 *              mesh's vertices) and horizontal ones along x or y (a tenth
 *              exactly above a row of mesh edges), which the exact stage
 *              must settle.
 *
 * gs_make(NAME, seed, scale, A, B): scale multiplies both counts (the
 * square grows by sqrt(scale) per side at the same density).  Every
 * coordinate is on a 2^-10 m raster at UTM magnitudes (EPSG:32634), so
 * the sets do not depend on the last bit of libm; one splitmix64 stream
 * per seed.  Header-only, for bench/gen_paper and bench/bench_cpu.
 * gs_paper's output is the one gen_paper always wrote.
 */
#ifndef GEN_SHAPES_H
#define GEN_SHAPES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"

#define GS_X0 499250.0
#define GS_Y0 6999250.0
#define GS_SIDE 1500.0          /* metres, at scale 1 */
#define GS_BASE_Z 100.0         /* elevation of the lowest sheet */
#define GS_SEGMENTS 7846        /* the paper's, at scale 1 */
#define GS_TWO_PI 6.283185307179586

struct gs_rng {
    uint64_t s;
};

static uint64_t gs_next(struct gs_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static double gs_uniform(struct gs_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(gs_next(r) >> 11) * 0x1p-53;
}

/* Nearest multiple of 2^-10: exact, and stable against libm's last bit. */
static double gs_snap(double v)
{
    return nearbyint(v * 1024.0) / 1024.0;
}

/* ---- stacked sheets: the paper's and the horizons ---- */

struct gs_sheets {
    int count, quads;           /* sheets; quads per side */
    double side, dz, ripple;    /* square, spacing, ripple's scale */
    double ph[64][3];           /* per sheet: the ripple's phases */
};

/* The undulation of sheet k: a shared large-scale fold plus a small
 * sheet-specific ripple (|ripple| <= 5 * ripple < dz / 2, so sheets
 * never meet). */
static double gs_sheet_z(const struct gs_sheets *s, int k, double x, double y)
{
    double u = (x - GS_X0) / 700.0, v = (y - GS_Y0) / 900.0;
    double fold = 22.0 * sin(GS_TWO_PI * u * 0.8 + 0.3) *
                      cos(GS_TWO_PI * v * 0.6) +
                  9.0 * sin(GS_TWO_PI * (u + v) * 1.7);
    double ripple = 3.0 * sin(GS_TWO_PI * u * 5.0 + s->ph[k][0]) *
                        cos(GS_TWO_PI * v * 4.0 + s->ph[k][1]) +
                    2.0 * sin(GS_TWO_PI * (u - v) * 9.0 + s->ph[k][2]);
    return GS_BASE_Z + s->dz * k + fold + ripple * s->ripple;
}

/* Draws the sheets' phases (the first numbers of the stream). */
static void gs_sheets_init(struct gs_sheets *s, struct gs_rng *r, int count,
                           int quads, double side, double dz, double ripple)
{
    int k, i;
    s->count = count;
    s->quads = quads;
    s->side = side;
    s->dz = dz;
    s->ripple = ripple;
    for (k = 0; k < count; k++)
        for (i = 0; i < 3; i++)
            s->ph[k][i] = gs_uniform(r, 0.0, GS_TWO_PI);
}

/* Each sheet a height field on a quads x quads mesh with shared
 * vertices, quads split along alternating diagonals; fid = sheet. */
static int gs_sheets_push(const struct gs_sheets *s, struct xg_set *b)
{
    int n = s->quads, k, i, j, rc = XG_OK;
    double h = s->side / n, *z;
    z = malloc((size_t)(n + 1) * (size_t)(n + 1) * sizeof *z);
    if (!z)
        return XG_ENOMEM;
    for (k = 0; k < s->count && rc == XG_OK; k++) {
        int64_t sub = 0;
        for (j = 0; j <= n; j++)
            for (i = 0; i <= n; i++)
                z[(size_t)j * (size_t)(n + 1) + (size_t)i] =
                    gs_snap(gs_sheet_z(s, k, GS_X0 + i * h, GS_Y0 + j * h));
        for (j = 0; j < n && rc == XG_OK; j++)
            for (i = 0; i < n && rc == XG_OK; i++) {
                double p[4][3];
                int c;
                for (c = 0; c < 4; c++) {
                    int ii = i + (c & 1), jj = j + (c >> 1);
                    p[c][0] = gs_snap(GS_X0 + ii * h);
                    p[c][1] = gs_snap(GS_Y0 + jj * h);
                    p[c][2] = z[(size_t)jj * (size_t)(n + 1) + (size_t)ii];
                }
                if ((i + j) & 1) {
                    if (!(rc = xg_set_push_triangle(b, p[0], p[1], p[3], k, sub++)))
                        rc = xg_set_push_triangle(b, p[0], p[3], p[2], k, sub++);
                } else {
                    if (!(rc = xg_set_push_triangle(b, p[0], p[1], p[2], k, sub++)))
                        rc = xg_set_push_triangle(b, p[1], p[3], p[2], k, sub++);
                }
            }
    }
    free(z);
    return rc;
}

/* ---- the shapes ---- */

static int gs_paper(uint64_t seed, double scale, struct xg_set *a,
                    struct xg_set *b)
{
    const double run_min = 8.0, run_max = 49.0;   /* horizontal run, m */
    struct gs_rng r = {seed};
    struct gs_sheets sh;
    double grow = sqrt(scale), side = GS_SIDE * grow;
    long nseg = lround(GS_SEGMENTS * scale), s;
    int rc;

    /* 2 * 125^2 * 32 = 1e6 triangles at scale 1. */
    gs_sheets_init(&sh, &r, 32, (int)lround(125 * grow), side, 15.0, 1.0);
    if ((rc = gs_sheets_push(&sh, b)))
        return rc;
    /* Holes: collar above the stack, end among the lowest sheets, so each
     * crosses about 27 of the 32 sheets on average. */
    for (s = 0; s < nseg; s++) {
        double p[3], q[3], run = gs_uniform(&r, run_min, run_max);
        double az = gs_uniform(&r, 0.0, GS_TWO_PI);
        double dx = run * sin(az), dy = run * cos(az);
        p[0] = gs_snap(gs_uniform(&r, GS_X0 + run_max, GS_X0 + side - run_max));
        p[1] = gs_snap(gs_uniform(&r, GS_Y0 + run_max, GS_Y0 + side - run_max));
        p[2] = gs_snap(gs_uniform(&r, 640.0, 700.0));
        q[0] = gs_snap(p[0] + dx);
        q[1] = gs_snap(p[1] + dy);
        q[2] = gs_snap(GS_BASE_Z + 15.0 * gs_uniform(&r, -1.5, 10.5));
        if ((rc = xg_set_push_segment(a, p, q, s, 0)))
            return rc;
    }
    return XG_OK;
}

static int gs_horizons(uint64_t seed, double scale, struct xg_set *a,
                       struct xg_set *b)
{
    struct gs_rng r = {seed};
    struct gs_sheets sh;
    double grow = sqrt(scale), side = GS_SIDE * grow;
    long nseg = lround(GS_SEGMENTS * scale), s;
    int rc;

    /* 30 x 2 x 128^2 = 983,040 triangles; ripple within +-2.5 m. */
    gs_sheets_init(&sh, &r, 30, (int)lround(128 * grow), side, 6.0, 0.5);
    if ((rc = gs_sheets_push(&sh, b)))
        return rc;
    /* One straight segment per hole, dipping 45-65 degrees: collar above
     * the stack (top sheet near 274 m), end from below the stack to its
     * middle. */
    for (s = 0; s < nseg; s++) {
        double p[3], q[3], drop, run, az;
        p[2] = gs_snap(gs_uniform(&r, GS_BASE_Z + 215.0, GS_BASE_Z + 235.0));
        q[2] = gs_snap(gs_uniform(&r, GS_BASE_Z - 40.0, GS_BASE_Z + 90.0));
        drop = p[2] - q[2];
        run = drop / tan(gs_uniform(&r, 45.0, 65.0) * (GS_TWO_PI / 360.0));
        az = gs_uniform(&r, 0.0, GS_TWO_PI);
        p[0] = gs_snap(gs_uniform(&r, GS_X0 + 200.0, GS_X0 + side - 200.0));
        p[1] = gs_snap(gs_uniform(&r, GS_Y0 + 200.0, GS_Y0 + side - 200.0));
        q[0] = gs_snap(p[0] + run * sin(az));
        q[1] = gs_snap(p[1] + run * cos(az));
        if ((rc = xg_set_push_segment(a, p, q, s, 0)))
            return rc;
    }
    return XG_OK;
}

/* A UV sphere of radius rad around c, its edges about edge long. */
static int gs_sphere(struct xg_set *b, int64_t fid, const double c[3],
                     double rad, double edge)
{
    int nlat = (int)ceil(3.141592653589793 * rad / edge), nlon, i, j, rc;
    int64_t sub = 0;
    if (nlat < 4)
        nlat = 4;
    if (nlat > 200)
        nlat = 200;
    nlon = 2 * nlat;
    for (i = 0; i < nlat; i++)
        for (j = 0; j < nlon; j++) {
            double v[4][3];
            int q;
            for (q = 0; q < 4; q++) {
                double th = 3.141592653589793 * (i + (q >> 1)) / nlat;
                double ph = GS_TWO_PI * (j + (q & 1)) / nlon;
                v[q][0] = gs_snap(c[0] + rad * sin(th) * cos(ph));
                v[q][1] = gs_snap(c[1] + rad * sin(th) * sin(ph));
                v[q][2] = gs_snap(c[2] + rad * cos(th));
            }
            /* The poles' rows are fans: their first (last) two corners
             * are the pole itself. */
            if (i > 0 && (rc = xg_set_push_triangle(b, v[0], v[1], v[3], fid, sub++)))
                return rc;
            if (i < nlat - 1 && (rc = xg_set_push_triangle(b, v[0], v[3], v[2], fid, sub++)))
                return rc;
        }
    return XG_OK;
}

static int gs_clustered(uint64_t seed, double scale, struct xg_set *a,
                        struct xg_set *b)
{
    enum { CLUSTERS = 12 };
    struct gs_rng r = {seed};
    struct gs_sheets topo;
    double grow = sqrt(scale), side = GS_SIDE * grow, cen[CLUSTERS][3];
    size_t target = (size_t)(1e6 * scale);
    long nhole = lround(GS_SEGMENTS * scale / 4.0), s;
    int64_t fid = 1;
    int rc, k;

    /* The topography: one coarse sheet (23 m quads) high above. */
    gs_sheets_init(&topo, &r, 1, (int)lround(64 * grow), side, 0.0, 1.0);
    for (k = 0; k < CLUSTERS; k++) {
        cen[k][0] = gs_uniform(&r, GS_X0 + 200.0, GS_X0 + side - 200.0);
        cen[k][1] = gs_uniform(&r, GS_Y0 + 200.0, GS_Y0 + side - 200.0);
        cen[k][2] = gs_uniform(&r, -250.0, -50.0);
    }
    /* Bodies until the target: radius 3-120 m and edges 25 cm - 25 m,
     * drawn apart (log-uniform), near a cluster's centre. */
    while (b->n < target) {
        double c[3], rad = exp(gs_uniform(&r, log(3.0), log(120.0)));
        double edge = exp(gs_uniform(&r, log(0.25), log(25.0)));
        k = (int)(gs_next(&r) % CLUSTERS);
        c[0] = cen[k][0] + gs_uniform(&r, -150.0, 150.0);
        c[1] = cen[k][1] + gs_uniform(&r, -150.0, 150.0);
        c[2] = cen[k][2] + gs_uniform(&r, -80.0, 80.0);
        if ((rc = gs_sphere(b, fid++, c, rad, edge)))
            return rc;
    }
    {
        struct xg_set t = {0};
        size_t i;
        if ((rc = gs_sheets_push(&topo, &t)) == XG_OK)
            for (i = 0; i < t.n && rc == XG_OK; i++)
                rc = xg_set_push_triangle(b, t.xyz + 9 * i, t.xyz + 9 * i + 3,
                                          t.xyz + 9 * i + 6, 0, (int64_t)i);
        xg_set_free(&t);
        if (rc)
            return rc;
    }
    /* Holes of 4 segments from above the topography toward a cluster,
     * 300-600 m long, bending a little at each station. */
    for (s = 0; s < nhole; s++) {
        double p[3], q[3], len = gs_uniform(&r, 300.0, 600.0), d[3];
        int j;
        k = (int)(gs_next(&r) % CLUSTERS);
        p[0] = gs_snap(cen[k][0] + gs_uniform(&r, -250.0, 250.0));
        p[1] = gs_snap(cen[k][1] + gs_uniform(&r, -250.0, 250.0));
        p[2] = gs_snap(gs_uniform(&r, 180.0, 200.0));
        for (j = 0; j < 3; j++)
            d[j] = cen[k][j] + gs_uniform(&r, -100.0, 100.0) - p[j];
        for (j = 0; j < 4; j++) {
            double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            int m;
            for (m = 0; m < 3; m++) {
                d[m] = d[m] / n + gs_uniform(&r, -0.05, 0.05);
                q[m] = gs_snap(p[m] + d[m] * len / 4.0);
            }
            if ((rc = xg_set_push_segment(a, p, q, s, j)))
                return rc;
            memcpy(p, q, sizeof p);
        }
    }
    return XG_OK;
}

static int gs_axis(uint64_t seed, double scale, struct xg_set *a,
                   struct xg_set *b)
{
    struct gs_rng r = {seed};
    struct gs_sheets sh;
    double grow = sqrt(scale), side = GS_SIDE * grow, h;
    long nseg = lround(GS_SEGMENTS * scale), s;
    int rc;

    gs_sheets_init(&sh, &r, 30, (int)lround(128 * grow), side, 6.0, 0.5);
    if ((rc = gs_sheets_push(&sh, b)))
        return rc;
    h = side / sh.quads;
    for (s = 0; s < nseg; s++) {
        double p[3], q[3];
        int on_mesh = gs_next(&r) % 10 == 0;
        double x = gs_uniform(&r, GS_X0 + 10.0, GS_X0 + side - 10.0);
        double y = gs_uniform(&r, GS_Y0 + 10.0, GS_Y0 + side - 10.0);
        if (on_mesh) {      /* exactly on the mesh's vertex columns / rows */
            x = GS_X0 + floor((x - GS_X0) / h) * h;
            y = GS_Y0 + floor((y - GS_Y0) / h) * h;
        }
        p[0] = q[0] = gs_snap(x);
        p[1] = q[1] = gs_snap(y);
        if (s % 3 != 2) {   /* vertical, through most of the stack */
            p[2] = gs_snap(gs_uniform(&r, GS_BASE_Z + 215.0, GS_BASE_Z + 235.0));
            q[2] = gs_snap(gs_uniform(&r, GS_BASE_Z - 40.0, GS_BASE_Z + 90.0));
        } else {            /* horizontal, along x or y, inside the stack */
            int ax = (int)(gs_next(&r) & 1);
            double len = gs_uniform(&r, 300.0, 1200.0);
            double from = ax ? y : x, lim = (ax ? GS_Y0 : GS_X0) + side;
            p[2] = q[2] = gs_snap(gs_uniform(&r, GS_BASE_Z, GS_BASE_Z + 180.0));
            q[ax] = gs_snap(from + len < lim ? from + len : from - len);
        }
        if ((rc = xg_set_push_segment(a, p, q, s, 0)))
            return rc;
    }
    return XG_OK;
}

/* The shapes by name, NULL-terminated. */
static const char *const gs_names[] = {"paper", "horizons", "clustered",
                                       "axis", NULL};

/* Fills empty sets a (segments) and b (triangles) with shape name:
 * XG_OK, XG_EINVAL for an unknown name, or the sets' error. */
static int gs_make(const char *name, uint64_t seed, double scale,
                   struct xg_set *a, struct xg_set *b)
{
    if (!strcmp(name, "paper"))
        return gs_paper(seed, scale, a, b);
    if (!strcmp(name, "horizons"))
        return gs_horizons(seed, scale, a, b);
    if (!strcmp(name, "clustered"))
        return gs_clustered(seed, scale, a, b);
    if (!strcmp(name, "axis"))
        return gs_axis(seed, scale, a, b);
    return XG_EINVAL;
}

#endif /* GEN_SHAPES_H */
