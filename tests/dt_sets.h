/*
 * dt_sets.h -- the point sets the Delaunay tests share (delaunay_t on the
 * CPU engines, delaunay_gpu_t on the GPU), so that both test the same
 * degeneracies: uniform random points, a square lattice (every cell's
 * corners cocircular), a 3-4-5 rotated lattice (delaunator #61), the
 * integer points of one circle; and the audit's "nothing found".
 * Needs exactgeo.h and xg_test.h (the seeded generator) first.
 */
#ifndef DT_SETS_H
#define DT_SETS_H

#include <math.h>

static inline void dt_push(struct xg_set *s, double x, double y, double z,
                           int64_t fid)
{
    double p[3] = {x, y, z};
    xg_set_push_point(s, p, fid, 0);
}

/* n uniform points in [0, 100)^2 about (ox, oy); point j has z = fid = j */
static inline void dt_random(struct xg_set *s, int n, double ox, double oy)
{
    int j;
    for (j = 0; j < n; j++)
        dt_push(s, ox + rng_unit() * 100, oy + rng_unit() * 100, j, j);
}

/* an m x m lattice of spacing 1/2 (exact at UTM magnitudes) */
static inline void dt_lattice(struct xg_set *s, int m, double ox, double oy)
{
    int i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++)
            dt_push(s, ox + i * 0.5, oy + j * 0.5, 0, i * m + j);
}

/* the same lattice turned by the 3-4-5 rotation, spacing 5/4 */
static inline void dt_rotated(struct xg_set *s, int m, double ox, double oy)
{
    int i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++)
            dt_push(s, ox + (3 * i - 4 * j) * 0.25,
                    oy + (4 * i + 3 * j) * 0.25, 0, i * m + j);
}

/* the integer points of x^2 + y^2 = 5^2 13^2 17^2 scaled by 1/64 (all
 * exactly cocircular), fids from 0; their number */
static inline int dt_circle_ints(struct xg_set *s, double ox, double oy)
{
    long r2 = 25L * 169 * 289, x;
    int nc = 0;
    for (x = -1105; x <= 1105; x++) {
        long y2 = r2 - x * x, y = (long)sqrt((double)y2);
        while (y * y > y2)
            y--;
        while ((y + 1) * (y + 1) <= y2)
            y++;
        if (y * y != y2)
            continue;
        dt_push(s, ox + x / 64.0, oy + y / 64.0, 0, nc++);
        if (y)
            dt_push(s, ox + x / 64.0, oy - y / 64.0, 0, nc++);
    }
    return nc;
}

/* xg_delaunay_check found nothing wrong */
static inline int dt_report_clean(const struct xg_delaunay_report *r)
{
    return r->bad_index == 0 && r->not_ccw == 0 && r->bad_edges == 0 &&
           r->missing == 0 && r->count_off == 0 && r->not_delaunay == 0 &&
           r->not_canonical == 0;
}

#endif
