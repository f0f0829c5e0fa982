/*
 * gen_delaunay.h -- the point sets of the Delaunay benchmark, the same in
 * C (bench_delaunay) and C++ (cgal_delaunay): point i of a set of n is a
 * function of (set, n, i) alone, so any program and thread makes it.
 *
 *   uniform:   x, y uniform over 10 km x 10 km at UTM (500000, 7000000);
 *   lattice:   a square grid of 1 m at UTM, side ceil(sqrt(n)), the
 *              first n nodes by rows (every cell's corners cocircular);
 *   clustered: a terrain survey: 70% of the points in 200 clusters of
 *              very different spreads (1 m to 300 m), the rest uniform;
 *              coordinates rounded to the millimetre, as surveys store
 *              them, so some points repeat.
 */
#ifndef GEN_DELAUNAY_H
#define GEN_DELAUNAY_H

#include <math.h>
#include <stdint.h>

enum { GD_UNIFORM, GD_LATTICE, GD_CLUSTERED, GD_COUNT };
static const char *const gd_name[GD_COUNT] = {"uniform", "lattice",
                                              "clustered"};

static inline uint64_t gd_hash(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* uniform in [0, 1) from (i, k) */
static inline double gd_unit(uint64_t i, uint64_t k)
{
    return (double)(gd_hash(i * 8 + k) >> 11) * (1.0 / 9007199254740992.0);
}

static inline void gd_point(int set, uint64_t n, uint64_t i, double p[3])
{
    const double X0 = 500000.0, Y0 = 7000000.0, W = 10000.0;
    if (set == GD_LATTICE) {
        uint64_t side = (uint64_t)ceil(sqrt((double)n));
        p[0] = X0 + (double)(i % side);
        p[1] = Y0 + (double)(i / side);
        p[2] = 100.0 + 0.001 * (double)((i * 7) % 1000);
        return;
    }
    if (set == GD_CLUSTERED && gd_unit(i, 0) < 0.7) {
        uint64_t c = gd_hash(i * 8 + 1) % 200;
        double cx = gd_unit(c + 1000000007ull, 2) * W;
        double cy = gd_unit(c + 1000000007ull, 3) * W;
        double sd = exp(log(1.0) + gd_unit(c + 1000000007ull, 4) *
                                       (log(300.0) - log(1.0)));
        /* Box-Muller */
        double u1 = gd_unit(i, 5) + 1e-300, u2 = gd_unit(i, 6);
        double r = sd * sqrt(-2.0 * log(u1));
        p[0] = X0 + round((cx + r * cos(6.283185307179586 * u2)) * 1000) / 1000;
        p[1] = Y0 + round((cy + r * sin(6.283185307179586 * u2)) * 1000) / 1000;
    } else {
        p[0] = X0 + gd_unit(i, 2) * W;
        p[1] = Y0 + gd_unit(i, 3) * W;
        if (set == GD_CLUSTERED) {
            p[0] = X0 + round((p[0] - X0) * 1000) / 1000;
            p[1] = Y0 + round((p[1] - Y0) * 1000) / 1000;
        }
    }
    p[2] = 100.0 + 50.0 * sin((p[0] - X0) / 700.0) * cos((p[1] - Y0) / 900.0);
}

#endif
