/*
 * mesh_t.c -- the indexed mesh (src/xg_mesh.h, mesh.c, mesh_edges.c) on
 * exact degenerate cases, each against a brute force written here: the
 * sides of all triangles compared pairwise by their ends' bits (-0 as
 * +0), an edge's uses counted by a pass over all sides.  A closed
 * tetrahedron, an open one, an edge of three triangles, a triangle
 * twice, corners 1 ulp apart (two vertices), -0 against +0 (one),
 * UTM-sized coordinates, no triangle, a subset by index, a fan of many
 * sides at one vertex, random soups over few positions; a build into a
 * used mesh and into a reserved one give the fresh build's answer.
 */
#include <math.h>
#include <stdint.h>
#include "exactgeo.h"
#include "xg_mesh.h"
#include "xg_test.h"

/* A corner's coordinates as the weld keys them: -0 as +0. */
static void key3(const double *p, double k[3])
{
    int j;
    for (j = 0; j < 3; j++)
        k[j] = p[j] + 0.0;
}

/* The ends of side k of triangle t (9 doubles), ordered by x, then y,
 * then z on the first coordinate that differs, keyed (-0 as +0). */
static void side_key(const double *t, int k, double e[6])
{
    const double *u = t + 3 * k, *v = t + 3 * ((k + 1) % 3);
    int j, swap = 0;
    for (j = 0; j < 3; j++)
        if (u[j] != v[j]) {
            swap = v[j] < u[j];
            break;
        }
    key3(swap ? v : u, e);
    key3(swap ? u : v, e + 3);
}

/* What the brute force finds in n triangles: distinct corners, distinct
 * sides, sides used an odd number of times, sides not used twice. */
struct brute {
    size_t nvert, nedge;
    uint64_t odd, irregular;
};

static struct brute brute(const double *xyz, const uint32_t *idx, size_t n)
{
    struct brute b = {0, 0, 0, 0};
    size_t i, j;
    for (i = 0; i < 3 * n; i++) {
        const double *ti = xyz + 9 * (size_t)(idx ? idx[i / 3] : i / 3);
        double ki[3], ei[6];
        size_t uses = 0, first = 1;
        key3(ti + 3 * (i % 3), ki);
        for (j = 0; j < i && first; j++) {
            double kj[3];
            key3(xyz + 9 * (size_t)(idx ? idx[j / 3] : j / 3) + 3 * (j % 3),
                 kj);
            first = memcmp(ki, kj, sizeof ki) != 0;
        }
        b.nvert += first;
        side_key(ti, (int)(i % 3), ei);
        first = 1;
        for (j = 0; j < 3 * n; j++) {
            double ej[6];
            side_key(xyz + 9 * (size_t)(idx ? idx[j / 3] : j / 3),
                     (int)(j % 3), ej);
            if (memcmp(ei, ej, sizeof ei) == 0) {
                uses++;
                first &= j >= i;
            }
        }
        if (first) {
            b.nedge++;
            b.odd += uses & 1;
            b.irregular += uses != 2;
        }
    }
    return b;
}

/* Whether m is a faithful index of the n triangles: each corner's
 * vertex holds its coordinates (bits, -0 as +0), vertices distinct,
 * each edge's ends distinct from the previous edge's and its uses
 * ascending sides with those ends, every side used once.  Non-zero when
 * all hold. */
static int faithful(const struct xg__mesh *m, const double *xyz,
                    const uint32_t *idx, size_t n)
{
    size_t i, e, v, w, total = 0;
    if (m->ntri != n)
        return 0;
    for (i = 0; i < 3 * n; i++) {
        double k[3];
        key3(xyz + 9 * (size_t)(idx ? idx[i / 3] : i / 3) + 3 * (i % 3), k);
        if (m->tri[i] >= m->nvert ||
            memcmp(m->xyz + 3 * (size_t)m->tri[i], k, sizeof k) != 0)
            return 0;
    }
    for (v = 0; v < m->nvert; v++)
        for (w = 0; w < v; w++)
            if (memcmp(m->xyz + 3 * v, m->xyz + 3 * w, 3 * sizeof(double)) ==
                0)
                return 0;
    for (e = 0; e < m->nedge; e++) {
        const uint32_t *use;
        size_t nu = xg__mesh_edge_uses(m, e, &use), u;
        double want[6];
        if (nu == 0)
            return 0;
        memcpy(want, m->xyz + 3 * (size_t)m->edge[2 * e], 3 * sizeof(double));
        memcpy(want + 3, m->xyz + 3 * (size_t)m->edge[2 * e + 1],
               3 * sizeof(double));
        if (e > 0 && m->edge[2 * e] == m->edge[2 * e - 2] &&
            m->edge[2 * e + 1] == m->edge[2 * e - 1])
            return 0;
        for (u = 0; u < nu; u++) {
            double got[6];
            if (use[u] >= 3 * n || (u > 0 && use[u] <= use[u - 1]))
                return 0;
            side_key(xyz + 9 * (size_t)(idx ? idx[use[u] / 3] : use[u] / 3),
                     (int)(use[u] % 3), got);
            if (memcmp(got, want, sizeof got) != 0)
                return 0;
        }
        total += nu;
    }
    return total == 3 * n;
}

/* One case: the mesh of the n triangles against the brute force and
 * the expected counts (SIZE_MAX: not given), and faithful. */
static void check(const char *what, const double *xyz, const uint32_t *idx,
                  size_t n, size_t nvert, size_t nedge, uint64_t odd,
                  uint64_t irregular)
{
    struct xg__mesh m;
    struct brute b = brute(xyz, idx, n);
    int rc;
    memset(&m, 0, sizeof m);
    rc = xg__mesh_build(&m, xyz, idx, n);
    ok(rc == XG_OK && m.nvert == b.nvert && m.nedge == b.nedge &&
           xg__mesh_odd_edges(&m) == b.odd &&
           xg__mesh_irregular_edges(&m) == b.irregular &&
           faithful(&m, xyz, idx, n),
       "%s: %zu vertices, %zu edges, %llu odd, %llu not twice (brute force "
       "%zu, %zu, %llu, %llu)",
       what, m.nvert, m.nedge, (unsigned long long)xg__mesh_odd_edges(&m),
       (unsigned long long)xg__mesh_irregular_edges(&m), b.nvert, b.nedge,
       (unsigned long long)b.odd, (unsigned long long)b.irregular);
    if (nvert != SIZE_MAX)
        ok(b.nvert == nvert && b.nedge == nedge && b.odd == odd &&
               b.irregular == irregular,
           "%s: the counts expected (%zu, %zu, %llu, %llu)", what, nvert,
           nedge, (unsigned long long)odd, (unsigned long long)irregular);
    xg__mesh_free(&m);
}

/* Triangle t of out (9 doubles) from corners a, b, c of p (3 doubles
 * each). */
static void tri(double *out, size_t t, const double *p, int a, int b, int c)
{
    memcpy(out + 9 * t, p + 3 * a, 3 * sizeof(double));
    memcpy(out + 9 * t + 3, p + 3 * b, 3 * sizeof(double));
    memcpy(out + 9 * t + 6, p + 3 * c, 3 * sizeof(double));
}

/* The closed tetrahedron of corners p (4 points), outward turns. */
static void tetra(double *out, const double *p)
{
    tri(out, 0, p, 0, 2, 1);
    tri(out, 1, p, 0, 1, 3);
    tri(out, 2, p, 1, 2, 3);
    tri(out, 3, p, 2, 0, 3);
}

static void cases(void)
{
    double p[5 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1};
    double t[8 * 9], u[8 * 9];
    uint32_t sel[2] = {3, 1};
    int j;

    tetra(t, p);
    check("closed tetrahedron", t, NULL, 4, 4, 6, 0, 0);
    check("open tetrahedron (one face less)", t, NULL, 3, 4, 6, 3, 3);
    check("two of its faces by index", t, sel, 2, 4, 5, 4, 4);
    check("no triangle", t, NULL, 0, 0, 0, 0, 0);

    /* an edge of three triangles: 0-1 with apexes 2, 3 and 4 */
    tri(u, 0, p, 0, 1, 2);
    tri(u, 1, p, 1, 0, 3);
    tri(u, 2, p, 0, 1, 4);
    check("an edge of three triangles", u, NULL, 3, 5, 7, 7, 7);

    /* a triangle twice, in either turn */
    tri(u, 0, p, 0, 1, 2);
    tri(u, 1, p, 0, 1, 2);
    check("a triangle twice", u, NULL, 2, 3, 3, 0, 0);
    tri(u, 1, p, 2, 1, 0);
    check("a triangle and its reverse", u, NULL, 2, 3, 3, 0, 0);
    tri(u, 2, p, 1, 2, 0);
    check("a triangle thrice", u, NULL, 3, 3, 3, 3, 3);

    /* corners 1 ulp apart: two vertices, the faces around it open */
    tetra(u, p);
    u[9 * 1 + 3 * 2 + 2] = ulps(1.0, 1);  /* face 1's copy of corner 3 */
    check("a corner 1 ulp off in one face", u, NULL, 4, 5, 8, 4, 4);
    u[9 * 1 + 3 * 2 + 2] = ulps(1.0, -1);
    check("a corner 1 ulp below in one face", u, NULL, 4, 5, 8, 4, 4);

    /* -0 against +0: one vertex */
    tetra(u, p);
    for (j = 0; j < 4 * 9; j += 2)
        if (u[j] == 0)
            u[j] = -0.0;
    check("-0.0 and 0.0 mixed", u, NULL, 4, 4, 6, 0, 0);
    {
        struct xg__mesh m;
        size_t v;
        int plus = 1;
        memset(&m, 0, sizeof m);
        ok(xg__mesh_build(&m, u, NULL, 4) == XG_OK, "-0.0: built");
        for (v = 0; v < 3 * m.nvert; v++)
            plus &= !signbit(m.xyz[v]);
        ok(plus, "-0.0: the vertices hold +0");
        xg__mesh_free(&m);
    }

    /* UTM-sized: shifted, and a corner 1 ulp off there */
    for (j = 0; j < 15; j += 3) {
        u[j] = p[j] + 500000.25;
        u[j + 1] = p[j + 1] + 7000000.5;
        u[j + 2] = p[j + 2] + 350.75;
    }
    memcpy(t + 36, u, 15 * sizeof(double));
    tetra(u, t + 36);
    check("UTM coordinates, closed", u, NULL, 4, 4, 6, 0, 0);
    u[9 * 2 + 0] = ulps(u[9 * 2 + 0], 1);   /* face 2's corner 1, in x */
    check("UTM coordinates, 1 ulp off in x", u, NULL, 4, 5, 8, 4, 4);
}

/* A fan of k triangles around one apex (over 32 sides at one vertex,
 * past the insertion sort), closed into a double cone. */
static void fan(int k)
{
    double *t = malloc((size_t)(2 * k) * 9 * sizeof *t), c[9];
    int i;
    for (i = 0; i < k; i++) {
        double a0 = 2 * acos(-1.0) * i / k,
               a1 = 2 * acos(-1.0) * (i + 1) / k;
        double r0[3] = {cos(a0), sin(a0), 0}, r1[3] = {cos(a1), sin(a1), 0};
        if (i == k - 1)
            r1[0] = 1, r1[1] = 0;   /* the ring closes on its first point */
        memcpy(c, r0, sizeof r0);
        memcpy(c + 3, r1, sizeof r1);
        c[6] = 0, c[7] = 0, c[8] = 1;
        memcpy(t + 9 * i, c, sizeof c);
        c[8] = -1;
        memcpy(t + 9 * (k + i), c + 3, 3 * sizeof *c);
        memcpy(t + 9 * (k + i) + 3, c, 3 * sizeof *c);
        memcpy(t + 9 * (k + i) + 6, c + 6, 3 * sizeof *c);
    }
    check("a fan of 100 around an apex (open)", t, NULL, (size_t)k,
          (size_t)k + 1, 2 * (size_t)k, (uint64_t)k, (uint64_t)k);
    check("a double cone of 2 x 100 (closed)", t, NULL, 2 * (size_t)k,
          (size_t)k + 2, 3 * (size_t)k, 0, 0);
    free(t);
}

/* Whether the n bytes at p and q are equal; n 0 is equal whatever the
 * pointers (an empty mesh's arrays may be NULL, which memcmp may not
 * be given). */
static int same_bytes(const void *p, const void *q, size_t n)
{
    return n == 0 || memcmp(p, q, n) == 0;
}

/* Random soups over few positions (so that corners and sides repeat),
 * some a ulp apart and some -0, against the brute force; then the same
 * soups built into one used mesh, and into a reserved one. */
static void soups(void)
{
    static const double base[] = {0.0, -0.0, 1.0, 500000.25, 7000000.5};
    int s;
    struct xg__mesh used;
    memset(&used, 0, sizeof used);
    for (s = 0; s < 40; s++) {
        size_t n = (size_t)rng_int(60), i;
        double *t = malloc((n ? n : 1) * 9 * sizeof *t);
        struct xg__mesh fresh, kept;
        uint64_t open;
        char what[64];
        for (i = 0; i < 9 * n; i++) {
            double b = base[rng_int(5)];
            t[i] = rng_int(8) == 0 ? ulps(b, rng_int(3) - 1) : b;
        }
        snprintf(what, sizeof what, "random soup %d (%zu triangles)", s, n);
        check(what, t, NULL, n, SIZE_MAX, 0, 0, 0);
        memset(&fresh, 0, sizeof fresh);
        memset(&kept, 0, sizeof kept);
        ok(xg__mesh_build(&fresh, t, NULL, n) == XG_OK &&
               xg__mesh_build(&used, t, NULL, n) == XG_OK &&
               xg__mesh_reserve(&kept, n) == XG_OK &&
               xg__mesh_build(&kept, t, NULL, n) == XG_OK &&
               used.nvert == fresh.nvert && used.nedge == fresh.nedge &&
               kept.nvert == fresh.nvert && kept.nedge == fresh.nedge &&
               same_bytes(used.tri, fresh.tri, 3 * n * sizeof *fresh.tri) &&
               same_bytes(kept.tri, fresh.tri, 3 * n * sizeof *fresh.tri) &&
               same_bytes(used.edge, fresh.edge,
                          2 * fresh.nedge * sizeof *fresh.edge) &&
               same_bytes(used.use, fresh.use, 3 * n * sizeof *fresh.use) &&
               same_bytes(kept.use, fresh.use, 3 * n * sizeof *fresh.use) &&
               xg_open_edges(t, n, &open) == XG_OK &&
               open == xg__mesh_odd_edges(&fresh),
           "%s: a used mesh, a reserved one and xg_open_edges agree", what);
        xg__mesh_free(&fresh);
        xg__mesh_free(&kept);
        free(t);
    }
    xg__mesh_free(&used);
    xg__mesh_free(NULL);
    ok(1, "xg__mesh_free(NULL)");
}

int main(void)
{
    rng_seed_from_env(0x3e54);
    cases();
    fan(100);
    soups();
    tap_done();
    return tap_exit();
}
