/*
 * gen_inside.h -- the data of the point-in-solid benchmark and of
 * tests/inside_gpu_t: K ore-body-like closed solids (star-shaped bumpy
 * ellipsoids at UTM coordinates, some nested in another, some touching
 * another at a vertex) and block centroids on a lattice over them, a
 * share of them placed exactly on the solids' vertices, edges and faces.
 * Everything is a function of the arguments, so bench/bench_inside.c and
 * the CGAL peer (bench/cgal_inside.cpp) make the same data from this one
 * header.  Plain C that C++ also compiles; all static.
 *
 * Every coordinate is exact: a vertex is its solid's centre plus an
 * offset rounded to 1/16 m (centres on that grid too, magnitudes below
 * 2^23 m), so vertices shared by two faces are equal bit for bit, an edge's
 * midpoint and the face point (A + 2B + C) / 4 are exact doubles, and a
 * centroid on the 1/16 m grid sends rays through vertices and along
 * edges: the degenerate cases are common, not rare.
 */
#ifndef GEN_INSIDE_H
#define GEN_INSIDE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct gi_model {
    size_t nsolid, ntri;
    double *tri;            /* 9 doubles per triangle                   */
    int64_t *fid;           /* per triangle: its solid's fid (1, 2, ...) */
    double lo[3], hi[3];    /* the box of all vertices                  */
};

static double gi_q(double x) { return nearbyint(x * 16.0) / 16.0; }

static uint64_t gi_hash(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* One solid: centre c (on the 1/16 grid), radius R, axes scale ax, ay,
 * az, bump phase w. */
struct gi_shape {
    double c[3], R, ax[3], w;
};

/* The vertex of lattice point (i, j, k), i + j + k = L, of the octant of
 * signs sx, sy, sz: a function of the signed direction alone, so faces
 * sharing it compute the same double. */
static void gi_vertex(const struct gi_shape *s, int L, int sx, int sy,
                      int sz, int i, int j, int k, double v[3])
{
    double d[3], r, nrm, bump;
    int m;
    d[0] = sx * (double)i;
    d[1] = sy * (double)j;
    d[2] = sz * (double)k;
    nrm = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (m = 0; m < 3; m++)
        d[m] = d[m] / nrm + 0.0;    /* + 0.0: no -0 */
    (void)L;
    /* Bumps that fade at the poles, so a pole is the top (bottom) of its
     * solid and a solid set on another's pole touches it there. */
    bump = sin(3.0 * d[0] + 5.0 * d[1] + s->w) * cos(4.0 * d[1] - 2.0 * d[0] +
                                                     s->w) *
           (1.0 - d[2] * d[2]);
    r = s->R * (1.0 + 0.15 * bump);
    for (m = 0; m < 3; m++)
        v[m] = s->c[m] + gi_q(r * d[m] * s->ax[m]);
}

/* Appends the 8 L^2 triangles of shape s (outward, counter-clockwise). */
static void gi_solid(const struct gi_shape *s, int L, int64_t fid,
                     struct gi_model *m)
{
    int o, a, b;
    for (o = 0; o < 8; o++) {
        int sx = o & 1 ? -1 : 1, sy = o & 2 ? -1 : 1, sz = o & 4 ? -1 : 1;
        int flip = sx * sy * sz < 0;
        for (a = 0; a < L; a++)
            for (b = 0; b < L - a; b++) {
                int up, tri[2][3][2] = {{{a, b}, {a + 1, b}, {a, b + 1}},
                                        {{a + 1, b}, {a + 1, b + 1},
                                         {a, b + 1}}};
                for (up = 0; up < (b < L - a - 1 ? 2 : 1); up++) {
                    double *t = m->tri + 9 * m->ntri;
                    int q;
                    for (q = 0; q < 3; q++) {
                        int qq = flip ? 2 - q : q;
                        int i = tri[up][qq][0], j = tri[up][qq][1];
                        gi_vertex(s, L, sx, sy, sz, i, j, L - i - j,
                                  t + 3 * q);
                    }
                    m->fid[m->ntri++] = fid;
                }
            }
    }
}

/* K solids of about ntri triangles in all (at least 8 per solid), from
 * seed.  Solid 4q + 1 is nested in 4q, solid 4q + 2 sits on top of 4q,
 * touching its pole; 4q + 3 stands beside 4q (and may overlap it).  0, or -1 out of memory. */
static int gi_model_make(struct gi_model *m, int K, size_t ntri,
                         uint64_t seed)
{
    int L = (int)floor(sqrt((double)ntri / (8.0 * K)) + 0.5), s, k;
    struct gi_shape prev;
    size_t i;
    if (L < 1)
        L = 1;
    memset(m, 0, sizeof *m);
    m->tri = (double *)malloc((size_t)K * 8 * L * L * 9 * sizeof(double));
    m->fid = (int64_t *)malloc((size_t)K * 8 * L * L * sizeof(int64_t));
    if (!m->tri || !m->fid)
        return -1;
    memset(&prev, 0, sizeof prev);
    for (s = 0; s < K; s++) {
        struct gi_shape sh;
        uint64_t h = gi_hash(seed * 1000 + (uint64_t)s);
        int col = (s / 4) % 4, row = s / 16;
        sh.R = 60.0 + (double)(h % 61);
        sh.ax[0] = 1.0 + (double)((h >> 8) % 50) / 100.0;
        sh.ax[1] = 0.7 + (double)((h >> 16) % 40) / 100.0;
        sh.ax[2] = 0.5 + (double)((h >> 24) % 30) / 100.0;
        sh.w = (double)((h >> 32) % 628) / 100.0;
        sh.c[0] = 512000.0 + 400.0 * col + (double)((h >> 40) % 64) / 16.0;
        sh.c[1] = 7045000.0 + 400.0 * row + (double)((h >> 48) % 64) / 16.0;
        sh.c[2] = 250.0;
        if (s % 4 == 3)
            sh.c[1] += 200.0;
        if (s % 4 == 1) {           /* nested in the previous one */
            memcpy(sh.c, prev.c, sizeof sh.c);
            memcpy(sh.ax, prev.ax, sizeof sh.ax);
            sh.R = 0.5 * prev.R;
        } else if (s % 4 == 2) {    /* on the top pole of 4q */
            double top[3], bottom[3];
            gi_vertex(&prev, L, 1, 1, 1, 0, 0, L, top);
            sh.c[0] = sh.c[1] = sh.c[2] = 0.0;
            gi_vertex(&sh, L, 1, 1, -1, 0, 0, L, bottom);
            for (k = 0; k < 3; k++)
                sh.c[k] = top[k] - bottom[k];
        }
        if (s % 4 == 0)
            prev = sh;
        gi_solid(&sh, L, (int64_t)s + 1, m);
    }
    m->nsolid = (size_t)K;
    for (k = 0; k < 3; k++) {
        m->lo[k] = m->hi[k] = m->tri[k];
        for (i = 0; i < 3 * m->ntri; i++) {
            double v = m->tri[3 * i + k];
            m->lo[k] = v < m->lo[k] ? v : m->lo[k];
            m->hi[k] = v > m->hi[k] ? v : m->hi[k];
        }
    }
    return 0;
}

static void gi_model_free(struct gi_model *m)
{
    free(m->tri);
    free(m->fid);
    memset(m, 0, sizeof *m);
}

/* Point i of n: the centroid of block i of a lattice of about n blocks
 * over the model's box (x fastest), or, for permil of the points in a
 * thousand, a point exactly on a vertex, an edge's midpoint or a face. */
static void gi_point(const struct gi_model *m, uint64_t n, int permil,
                     uint64_t i, double p[3])
{
    double ext[3], vol = 1.0, side;
    uint64_t nb[3], h = gi_hash(i ^ 0x5bd1e995u);
    int k;
    if ((int)(h % 1000) < permil) {
        const double *t = m->tri + 9 * ((h >> 10) % m->ntri);
        int w = (int)((h >> 40) % 3), e = (int)((h >> 50) % 3);
        for (k = 0; k < 3; k++) {
            const double *u = t + 3 * e + k, *v = t + 3 * ((e + 1) % 3) + k;
            p[k] = w == 0   ? *u
                   : w == 1 ? (*u + *v) / 2.0
                            : (t[k] + 2.0 * t[3 + k] + t[6 + k]) / 4.0;
        }
        return;
    }
    for (k = 0; k < 3; k++) {
        ext[k] = 1.02 * (m->hi[k] - m->lo[k]) + 1.0;
        vol *= ext[k];
    }
    side = cbrt(vol / (double)n);
    for (k = 0; k < 3; k++) {
        nb[k] = (uint64_t)ceil(ext[k] / side);
        if (nb[k] < 1)
            nb[k] = 1;
    }
    {
        uint64_t ix = i % nb[0], iy = (i / nb[0]) % nb[1],
                 iz = i / (nb[0] * nb[1]);
        uint64_t ii[3] = {ix, iy, iz};
        for (k = 0; k < 3; k++) {
            double lo = m->lo[k] - 0.01 * (m->hi[k] - m->lo[k]);
            p[k] = gi_q(lo) + gi_q(((double)ii[k] + 0.5) * ext[k] /
                                   (double)nb[k]);
        }
    }
}

#endif /* GEN_INSIDE_H */
