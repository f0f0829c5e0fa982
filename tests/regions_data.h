/*
 * regions_data.h -- the data of the partitioned-run tests (tests/regions_t
 * on the CPU engines, tests/regions_gpu_t on the GPU): sets for segtri,
 * redblue and inside whose contacts crowd the regions' cuts.  Lattice
 * data spans exactly [0, 6] in x (and less in y), so that the cuts of 2,
 * 3 and 6 regions fall on integers, and every vertex lies on the
 * half-unit lattice: contacts at integer x (vertices, edges, faces,
 * overlaps starting there) are everywhere.  Random data at UTM
 * magnitudes has constructed points rounded near the cuts.  Degenerate
 * elements (zero-length segments, collinear triangles) are mixed in, so
 * that the skipped counts are tested too.  Draws from xg_rng.h.
 */
#ifndef REGIONS_DATA_H
#define REGIONS_DATA_H

#include <string.h>
#include "exactgeo.h"
#include "xg_rng.h"

/* A lattice value: lo + k/2 for k in 0 .. 2 (hi - lo). */
static double rd_lat(double lo, double hi)
{
    return lo + 0.5 * rng_int((int)(2 * (hi - lo)) + 1);
}

/* A point of the lattice box [0,6] x [0,2] x [-1,1]; when corner, one
 * of the box's corners in x (so that the hull is [0, 6] exactly). */
static void rd_lat_point(double p[3])
{
    p[0] = rd_lat(0, 6);
    p[1] = rd_lat(0, 2);
    p[2] = rd_lat(-1, 1);
}

/* A lattice point moved back into [0,6] x [0,2] (z free): the data's
 * hull stays [0, 6] in x, where the cuts fall on integers. */
static void rd_clamp(double p[3])
{
    p[0] = p[0] < 0 ? 0 : p[0] > 6 ? 6 : p[0];
    p[1] = p[1] < 0 ? 0 : p[1] > 2 ? 2 : p[1];
}

/* A point at a UTM offset, random doubles. */
static void rd_utm_point(double p[3], double w)
{
    p[0] = 500000.25 + rng_range(0, 6 * w);
    p[1] = 7000000.5 + rng_range(0, 2 * w);
    p[2] = 100.0 + rng_range(-w, w);
}

/* A segment near p: the other end within d of it on the lattice (or the
 * same point: a zero-length one, now and then). */
static void rd_segment(struct xg_set *s, int lattice, int64_t fid,
                       int64_t sub, int dim)
{
    double p[3], q[3];
    int k;
    if (lattice) {
        rd_lat_point(p);
        for (k = 0; k < 3; k++)
            q[k] = p[k] + 0.5 * (rng_int(7) - 3);
        rd_clamp(q);
    } else {
        rd_utm_point(p, 1.0);
        for (k = 0; k < 3; k++)
            q[k] = p[k] + rng_range(-0.7, 0.7);
    }
    if (rng_int(40) == 0)
        memcpy(q, p, sizeof q);
    if (dim == 2)
        p[2] = q[2] = 0.0;
    xg_set_push_segment(s, p, q, fid, sub);
}

static void rd_triangle(struct xg_set *s, int lattice, int64_t fid,
                        int64_t sub)
{
    double v[3][3];
    int i, k;
    if (lattice)
        rd_lat_point(v[0]);
    else
        rd_utm_point(v[0], 1.0);
    for (i = 1; i < 3; i++) {
        for (k = 0; k < 3; k++)
            v[i][k] = v[0][k] + (lattice ? 0.5 * (rng_int(9) - 4)
                                         : rng_range(-1, 1));
        if (lattice)
            rd_clamp(v[i]);
    }
    /* a collinear one now and then (a repeated vertex: it stays in the
     * box of the others) */
    if (rng_int(30) == 0)
        memcpy(v[2], v[1], sizeof v[2]);
    xg_set_push_triangle(s, v[0], v[1], v[2], fid, sub);
}

/* segtri's A and B: n segments, m triangles; lattice data also gets
 * vertical holes at integer x through horizontal faces at z = 0, and
 * elements at x = 0 and 6. */
static void rd_segtri(struct xg_set *a, struct xg_set *b, size_t n, size_t m,
                     int lattice)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (lattice && i % 4 == 0) {
            double p[3], q[3];
            p[0] = q[0] = (double)(i / 4 % 7);
            p[1] = q[1] = rd_lat(0, 2);
            p[2] = -1;
            q[2] = 1;
            xg_set_push_segment(a, p, q, (int64_t)(i / 3), (int64_t)(i % 3));
        } else {
            rd_segment(a, lattice, (int64_t)(i / 3), (int64_t)(i % 3), 3);
        }
    }
    for (i = 0; i < m; i++) {
        if (lattice && i % 5 == 0) {
            double u[3], v[3], w[3];
            double x = (double)(i / 5 % 6), y = rd_lat(0, 1.5);
            u[0] = x;       u[1] = y;       u[2] = 0;
            v[0] = x + 1;   v[1] = y;       v[2] = 0;
            w[0] = x;       w[1] = y + 0.5; w[2] = 0;
            xg_set_push_triangle(b, u, v, w, (int64_t)(i / 4),
                                 (int64_t)(i % 4));
        } else {
            rd_triangle(b, lattice, (int64_t)(i / 4), (int64_t)(i % 4));
        }
    }
}

/* redblue's red and blue segments (z = 0). */
static void rd_redblue(struct xg_set *a, struct xg_set *b, size_t n,
                       size_t m, int lattice)
{
    size_t i;
    for (i = 0; i < n; i++)
        rd_segment(a, lattice, (int64_t)(i / 2), (int64_t)(i % 2), 2);
    if (lattice) {
        /* the hull's ends, x = 0 and 6, along the other axis */
        double p[3] = {0, 0, 0}, q[3] = {0, 2, 0};
        xg_set_push_segment(b, p, q, -1, 0);
        p[0] = q[0] = 6;
        xg_set_push_segment(b, p, q, -2, 0);
    }
    for (i = 0; i < m; i++)
        rd_segment(b, lattice, (int64_t)(i / 2), (int64_t)(i % 2), 2);
}

/* A closed box [x0, x1] x [y0, y1] x [z0, z1]: 12 triangles of fid,
 * facing out; missing (0..11, or -1 for none) is left out, which opens
 * it. */
static void rd_box(struct xg_set *b, int64_t fid, const double lo[3],
                   const double hi[3], int missing)
{
    static const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6},
                                    {0, 1, 5, 4}, {2, 6, 7, 3},
                                    {0, 4, 6, 2}, {1, 3, 7, 5}};
    double c[8][3];
    int i, f, t = 0;
    for (i = 0; i < 8; i++) {
        c[i][0] = i & 1 ? hi[0] : lo[0];
        c[i][1] = i & 2 ? hi[1] : lo[1];
        c[i][2] = i & 4 ? hi[2] : lo[2];
    }
    for (f = 0; f < 6; f++) {
        const int *q = quads[f];
        if (t++ != missing)
            xg_set_push_triangle(b, c[q[0]], c[q[1]], c[q[2]], fid, t);
        if (t++ != missing)
            xg_set_push_triangle(b, c[q[0]], c[q[2]], c[q[3]], fid, t);
    }
}

/* inside's points and solids: boxes on the lattice (some across the
 * cuts, some nested, one as wide as the data), their triangles
 * interleaved between fids now and then; points on the lattice (on
 * faces, edges, vertices and the cuts) or random.  open: the fid of a
 * box left open (0: none), and open2 a second one. */
static void rd_inside(struct xg_set *a, struct xg_set *b, size_t n,
                      size_t nbox, int lattice, int64_t open, int64_t open2)
{
    size_t i;
    for (i = 0; i < nbox; i++) {
        double lo[3], hi[3];
        int k;
        int64_t fid = (int64_t)(i + 1);
        if (i == 0) {
            lo[0] = 0; lo[1] = 0; lo[2] = -1;
            hi[0] = 6; hi[1] = 2; hi[2] = 1;
        } else {
            for (k = 0; k < 3; k++) {
                double span = k == 0 ? 6 : 2, base = k == 2 ? -1 : 0;
                double u = rd_lat(base, base + span),
                       v = rd_lat(base, base + span);
                if (u == v)     /* a flat box: widen it inside the data */
                    v = u < base + span ? u + 0.5 : u - 0.5;
                lo[k] = u < v ? u : v;
                hi[k] = u < v ? v : u;
            }
        }
        if (!lattice)
            for (k = 0; k < 3; k++) {
                double off = k == 0 ? 500000.25 : k == 1 ? 7000000.5 : 100;
                lo[k] = off + lo[k] * 1.03125;
                hi[k] = off + hi[k] * 1.03125;
            }
        rd_box(b, fid, lo, hi, fid == open || fid == open2 ? 5 : -1);
    }
    /* a few triangles swapped between solids: a fid's triangles need
     * not be consecutive */
    for (i = 0; nbox > 1 && i < b->n / 20; i++) {
        size_t x = (size_t)rng_int((int)b->n), y = (size_t)rng_int((int)b->n);
        double t[9];
        int64_t f = b->fid[x], s = b->sub[x];
        memcpy(t, b->xyz + 9 * x, sizeof t);
        memcpy(b->xyz + 9 * x, b->xyz + 9 * y, sizeof t);
        memcpy(b->xyz + 9 * y, t, sizeof t);
        b->fid[x] = b->fid[y];
        b->sub[x] = b->sub[y];
        b->fid[y] = f;
        b->sub[y] = s;
    }
    for (i = 0; i < n; i++) {
        double p[3];
        if (lattice) {
            rd_lat_point(p);
        } else {
            rd_utm_point(p, 1.03125);
        }
        xg_set_push_point(a, p, (int64_t)i, 0);
    }
}

#endif
