/*
 * earclip_t.c -- xg_triangulate on hand-built and random polygons,
 * each embedded in horizontal, vertical and tilted planes at the origin
 * and at UTM magnitudes, with every ring orientation.
 *
 * Each result is checked exactly, with GMP, in the polygon's own (u, v)
 * coordinates (the embeddings are exact affine maps, so (u, v) answers
 * are the 3D answers):
 *   (a) n - 2 + 2 * holes triangles, touch_count() when rings touch;
 *   (b) every triangle turns like the outer ring as given;
 *   (c) the signed areas add up to the polygon's area (mpq shoelace);
 *   (d) no two triangles' interiors overlap (separating edge lines);
 *   (e) every triangle lies in the polygon: no polygon edge meets its
 *       open interior, and its centroid is inside (crossing number).
 * (c), (d) and (e) together mean that the triangles tile the polygon.
 */
#include <gmp.h>
#include <math.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"
#include "xg_rng.h"

#define MAXV 1024
#define MAXR 64
#define SCALE 8 /* (u, v) are multiples of 2^-SCALE */

struct poly {
    double uv[2 * MAXV];
    size_t rs[MAXR + 1]; /* ring r: rs[r] .. rs[r+1]-1 */
    size_t nr;
};

static void begin_ring(struct poly *p)
{
    if (p->nr == 0)
        p->rs[0] = 0;
    p->nr++;
    p->rs[p->nr] = p->rs[p->nr - 1];
}

static void add(struct poly *p, double u, double v)
{
    size_t i = p->rs[p->nr]++;
    p->uv[2 * i] = u;
    p->uv[2 * i + 1] = v;
}

static void reverse_ring(struct poly *p, size_t r)
{
    size_t i = p->rs[r], j = p->rs[r + 1] - 1;
    for (; i < j; i++, j--) {
        double u = p->uv[2 * i], v = p->uv[2 * i + 1];
        p->uv[2 * i] = p->uv[2 * j];
        p->uv[2 * i + 1] = p->uv[2 * j + 1];
        p->uv[2 * j] = u;
        p->uv[2 * j + 1] = v;
    }
}

/* ---- embeddings: exact affine maps of (u, v) into 3D ---- */

#define NEMBED 5
static const char *embed_name[NEMBED] = {
    "horizontal at 0", "horizontal UTM", "vertical x=z UTM",
    "vertical oblique UTM", "tilted UTM"};

static void embed(int kind, double u, double v, double *p)
{
    const double X = 500000.25, Y = 7000000.5, Z = 812.75;
    switch (kind) {
    case 0: p[0] = u; p[1] = v; p[2] = 0; break;
    case 1: p[0] = X + u; p[1] = Y + v; p[2] = Z; break;
    case 2: p[0] = X + u; p[1] = Y; p[2] = Z + v; break;
    case 3: p[0] = X + u; p[1] = Y + u / 2; p[2] = Z + v; break;
    default: p[0] = X + u; p[1] = Y + v; p[2] = Z + u / 2 - v / 4; break;
    }
}

static void to_xyz(const struct poly *p, int kind, double *xyz)
{
    size_t i;
    for (i = 0; i < p->rs[p->nr]; i++)
        embed(kind, p->uv[2 * i], p->uv[2 * i + 1], xyz + 3 * i);
}

/* ---- exact checks in (u, v) ---- */

static mpz_t X[MAXV], Y[MAXV];

static void load_exact(const struct poly *p)
{
    size_t i;
    for (i = 0; i < p->rs[p->nr]; i++) {
        double su = ldexp(p->uv[2 * i], SCALE), sv = ldexp(p->uv[2 * i + 1], SCALE);
        if (su != floor(su) || sv != floor(sv))
            abort(); /* test data off the grid */
        mpz_set_d(X[i], su);
        mpz_set_d(Y[i], sv);
    }
}

/* Sign of det[b-a; c-a] for points given by integer coordinates. */
static int orient_z(const mpz_t ax, const mpz_t ay, const mpz_t bx,
                    const mpz_t by, const mpz_t cx, const mpz_t cy)
{
    mpz_t l, r, t;
    int s;
    mpz_inits(l, r, t, NULL);
    mpz_sub(l, bx, ax);
    mpz_sub(t, cy, ay);
    mpz_mul(l, l, t);
    mpz_sub(r, by, ay);
    mpz_sub(t, cx, ax);
    mpz_mul(r, r, t);
    s = mpz_cmp(l, r);
    mpz_clears(l, r, t, NULL);
    return (s > 0) - (s < 0);
}

static int orient_i(size_t a, size_t b, size_t c)
{
    return orient_z(X[a], Y[a], X[b], Y[b], X[c], Y[c]);
}

/* Twice the signed area of the ring through vertices ids[0..n), by the
 * shoelace formula in mpq from the doubles themselves. */
static void shoelace(const struct poly *p, const size_t *ids, size_t n,
                     mpq_t area)
{
    size_t i;
    mpq_t a, b, t;
    mpq_inits(a, b, t, NULL);
    mpq_set_ui(area, 0, 1);
    for (i = 0; i < n; i++) {
        size_t k = ids[i], l = ids[(i + 1) % n];
        mpq_set_d(a, p->uv[2 * k]);
        mpq_set_d(b, p->uv[2 * l + 1]);
        mpq_mul(t, a, b);
        mpq_add(area, area, t);
        mpq_set_d(a, p->uv[2 * l]);
        mpq_set_d(b, p->uv[2 * k + 1]);
        mpq_mul(t, a, b);
        mpq_sub(area, area, t);
    }
    mpq_clears(a, b, t, NULL);
}

static void ring_area(const struct poly *p, size_t r, mpq_t area)
{
    static size_t ids[MAXV];
    size_t i;
    for (i = p->rs[r]; i < p->rs[r + 1]; i++)
        ids[i - p->rs[r]] = i;
    shoelace(p, ids, p->rs[r + 1] - p->rs[r], area);
}

/* Interiors of triangles s and t (same turn sign) are disjoint when one
 * edge line of either leaves the other triangle on its closed outside. */
static int interiors_disjoint(const uint32_t *s, const uint32_t *t, int sign)
{
    int pass, e, k;
    for (pass = 0; pass < 2; pass++) {
        const uint32_t *a = pass ? t : s, *b = pass ? s : t;
        for (e = 0; e < 3; e++) {
            int out = 1;
            for (k = 0; k < 3 && out; k++)
                out = sign * orient_i(a[e], a[(e + 1) % 3], b[k]) <= 0;
            if (out)
                return 1;
        }
    }
    return 0;
}

/* Does the closed segment pq meet the open triangle t (turn sign)? */
static int seg_meets_open_tri(size_t p, size_t q, const uint32_t *t, int sign)
{
    int e, lo = 0, hi = 0;
    for (e = 0; e < 3; e++)
        if (sign * orient_i(t[e], t[(e + 1) % 3], p) <= 0 &&
            sign * orient_i(t[e], t[(e + 1) % 3], q) <= 0)
            return 0;
    for (e = 0; e < 3; e++) {
        int s = orient_i(p, q, t[e]);
        lo |= s < 0;
        hi |= s > 0;
    }
    return lo && hi;
}

/* Is the centroid of t strictly inside the polygon (parity over all
 * rings)?  Works with 3 * centroid against 3 * vertices. */
static int centroid_inside(const struct poly *p, const uint32_t *t)
{
    mpz_t gx, gy, ax, ay, bx, by;
    size_t r, i;
    int in = 0;
    mpz_inits(gx, gy, ax, ay, bx, by, NULL);
    mpz_add(gx, X[t[0]], X[t[1]]);
    mpz_add(gx, gx, X[t[2]]);
    mpz_add(gy, Y[t[0]], Y[t[1]]);
    mpz_add(gy, gy, Y[t[2]]);
    for (r = 0; r < p->nr; r++) {
        size_t n = p->rs[r + 1] - p->rs[r];
        for (i = 0; i < n; i++) {
            size_t k = p->rs[r] + i, l = p->rs[r] + (i + 1) % n;
            int ak, bk, s;
            mpz_mul_ui(ax, X[k], 3);
            mpz_mul_ui(ay, Y[k], 3);
            mpz_mul_ui(bx, X[l], 3);
            mpz_mul_ui(by, Y[l], 3);
            ak = mpz_cmp(ay, gy) > 0;
            bk = mpz_cmp(by, gy) > 0;
            if (ak == bk)
                continue;
            s = orient_z(ax, ay, bx, by, gx, gy);
            if ((bk && s > 0) || (ak && s < 0))
                in = !in;
        }
    }
    mpz_clears(gx, gy, ax, ay, bx, by, NULL);
    return in;
}

static char why[256];

/* NULL when tri[0..nt) tiles polygon p exactly (expecting `expect`
 * triangles, or any number when expect < 0); else the first failure. */
static const char *verify(const struct poly *p, const uint32_t *tri,
                          size_t nt, long expect)
{
    mpq_t area, hole, sum, t2;
    size_t i, j, r, nv = p->rs[p->nr];
    int sign, bad = 0;

    load_exact(p);
    if (expect >= 0 && nt != (size_t)expect) {
        snprintf(why, sizeof why, "(a) %zu triangles, expected %ld", nt, expect);
        return why;
    }
    for (i = 0; i < 3 * nt; i++)
        if (tri[i] >= nv) {
            snprintf(why, sizeof why, "index %u out of range", tri[i]);
            return why;
        }
    mpq_inits(area, hole, sum, t2, NULL);
    ring_area(p, 0, area);
    sign = mpq_sgn(area);
    if (sign < 0)
        mpq_neg(area, area);
    for (r = 1; r < p->nr; r++) {
        ring_area(p, r, hole);
        if (mpq_sgn(hole) < 0)
            mpq_neg(hole, hole);
        mpq_sub(area, area, hole);
    }
    mpq_set_si(t2, sign, 1);
    mpq_mul(area, area, t2);            /* signed like the outer ring */
    mpq_set_ui(sum, 0, 1);
    for (i = 0; i < nt && !bad; i++) {
        const uint32_t *q = tri + 3 * i;
        size_t ids[3];
        if (orient_i(q[0], q[1], q[2]) != sign) {
            snprintf(why, sizeof why, "(b) triangle %zu turns wrong", i);
            bad = 1;
        }
        for (j = 0; j < 3; j++)
            ids[j] = q[j];
        shoelace(p, ids, 3, t2);
        mpq_add(sum, sum, t2);
    }
    if (!bad && !mpq_equal(sum, area)) {
        snprintf(why, sizeof why, "(c) triangle areas do not add up");
        bad = 1;
    }
    for (i = 0; i < nt && !bad; i++)
        for (j = i + 1; j < nt && !bad; j++)
            if (!interiors_disjoint(tri + 3 * i, tri + 3 * j, sign)) {
                snprintf(why, sizeof why, "(d) triangles %zu and %zu overlap",
                         i, j);
                bad = 1;
            }
    for (i = 0; i < nt && !bad; i++) {
        if (!centroid_inside(p, tri + 3 * i)) {
            snprintf(why, sizeof why, "(e) triangle %zu outside", i);
            bad = 1;
        }
        for (r = 0; r < p->nr && !bad; r++) {
            size_t n = p->rs[r + 1] - p->rs[r];
            for (j = 0; j < n && !bad; j++) {
                size_t k = p->rs[r] + j, l = p->rs[r] + (j + 1) % n;
                if (mpz_cmp(X[k], X[l]) == 0 && mpz_cmp(Y[k], Y[l]) == 0)
                    continue;           /* repeated vertex */
                if (seg_meets_open_tri(k, l, tri + 3 * i, sign)) {
                    snprintf(why, sizeof why,
                             "(e) edge %zu cuts triangle %zu", k, i);
                    bad = 1;
                }
            }
        }
    }
    mpq_clears(area, hole, sum, t2, NULL);
    return bad ? why : NULL;
}

/* Triangulates p in embedding `kind`; NULL on success as verified. */
static const char *run(const struct poly *p, int kind, long expect)
{
    static double xyz[3 * MAXV];
    uint32_t *tri = NULL, *again = NULL;
    size_t nt = 0, nt2 = 0;
    const char *res;
    int rc;
    to_xyz(p, kind, xyz);
    rc = xg_triangulate(NULL, xyz, p->rs, p->nr, &tri, &nt);
    if (rc != XG_OK) {
        snprintf(why, sizeof why, "returned %s", xg_strerror(rc));
        return why;
    }
    res = verify(p, tri, nt, expect);
    if (!res) {                         /* same input, same output */
        rc = xg_triangulate(NULL, xyz, p->rs, p->nr, &again, &nt2);
        if (rc != XG_OK || nt2 != nt ||
            memcmp(tri, again, 3 * nt * sizeof *tri) != 0)
            res = "second run differs";
    }
    free(tri);
    free(again);
    return res;
}

/* Every embedding, every combination of outer / hole orientations
 * (holes reversed all together, and the first one alone). */
static void check_all(const char *name, const struct poly *p0, long expect)
{
    int kind, variant;
    for (variant = 0; variant < 4; variant++) {
        struct poly p = *p0;
        const char *res = NULL;
        size_t r;
        if (variant & 1)
            reverse_ring(&p, 0);
        if (variant & 2)
            for (r = 1; r < p.nr; r++)
                reverse_ring(&p, r);
        if (variant == 3 && p.nr > 1)
            reverse_ring(&p, 1);
        for (kind = 0; kind < NEMBED && !res; kind++)
            res = run(&p, kind, expect);
        ok(!res, "%s (%s%s)%s%s%s%s", name,
           variant & 1 ? "outer reversed" : "outer as given",
           variant == 2 ? ", holes reversed" :
           variant == 3 ? ", holes but the first reversed" : "",
           res ? ": " : "", res ? res : "", res ? " in plane " : "",
           res ? embed_name[kind - 1] : "");
    }
}

/* ---- polygons ---- */

static void rect(struct poly *p, double u0, double v0, double u1, double v1)
{
    begin_ring(p);
    add(p, u0, v0);
    add(p, u1, v0);
    add(p, u1, v1);
    add(p, u0, v1);
}

static double grid(double x) { return ldexp(nearbyint(ldexp(x, 4)), -4); }

static void comb(struct poly *p, int k)
{
    int i;
    begin_ring(p);
    add(p, 0, 0);
    add(p, 2 * k - 1, 0);
    for (i = k - 1; i >= 0; i--) {
        add(p, 2 * i + 1, 10);
        add(p, 2 * i, 10);
        if (i > 0) {
            add(p, 2 * i, 2);
            add(p, 2 * i - 1, 2);
        }
    }
}

static void spiral(struct poly *p, int turns, int per_turn)
{
    const double pi = 3.14159265358979323846;
    int j, m = turns * per_turn;
    begin_ring(p);
    for (j = 0; j <= m; j++) {           /* outer arc out */
        double th = 2 * pi * j / per_turn, r = 3.5 + 3 * th / (2 * pi);
        add(p, grid(r * cos(th)), grid(r * sin(th)));
    }
    for (j = m; j >= 0; j--) {           /* inner arc back */
        double th = 2 * pi * j / per_turn, r = 2 + 3 * th / (2 * pi);
        add(p, grid(r * cos(th)), grid(r * sin(th)));
    }
}

static void star(struct poly *p, int points, double r0, double r1, double cu,
                 double cv)
{
    const double pi = 3.14159265358979323846;
    int j;
    begin_ring(p);
    for (j = 0; j < 2 * points; j++) {
        double th = pi * j / points, r = j % 2 ? r1 : r0;
        add(p, grid(cu + r * cos(th)), grid(cv + r * sin(th)));
    }
}

static void hand_built(void)
{
    struct poly p;
    int i;

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 4, 3);
    check_all("square", &p, 2);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 2, 0); add(&p, 5, 0); add(&p, 7, 2); add(&p, 7, 5);
    add(&p, 5, 7); add(&p, 2, 7); add(&p, 0, 5); add(&p, 0, 2);
    check_all("convex octagon", &p, 6);

    memset(&p, 0, sizeof p);
    comb(&p, 6);
    check_all("comb of 6 teeth", &p, 22);

    memset(&p, 0, sizeof p);
    spiral(&p, 3, 24);
    check_all("spiral of 3 turns, 146 vertices", &p, 144);

    memset(&p, 0, sizeof p);
    star(&p, 12, 10, 4, 0, 0);
    check_all("12-point star", &p, 22);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    rect(&p, 5, 5, 8, 9);
    check_all("square with one hole", &p, 4 - 2 + 4 + 2);

    memset(&p, 0, sizeof p);
    star(&p, 8, 30, 20, 0, 0);
    rect(&p, 5, -2, 9, 2);
    rect(&p, -9, -2, -5, 2);
    check_all("star with two holes", &p, 16 - 2 + 8 + 4);

    /* B's straight bridge is blocked by A; D ties A's rightmost x; the
     * triangle C has a vertical edge at its rightmost x. */
    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 30, 30);
    rect(&p, 20, 10, 24, 14);
    rect(&p, 10, 10, 14, 14);
    begin_ring(&p);
    add(&p, 5, 20); add(&p, 9, 20); add(&p, 9, 25);
    check_all("square with three holes (blocked bridge, tie)", &p,
              4 - 2 + 11 + 6);
    rect(&p, 20, 20, 24, 24);
    check_all("square with four holes", &p, 4 - 2 + 15 + 8);

    /* Collinear runs: every integer point on the sides of a square, and
     * on an L whose reflex corner lines up with other vertices. */
    memset(&p, 0, sizeof p);
    begin_ring(&p);
    for (i = 0; i < 4; i++) add(&p, i, 0);
    for (i = 0; i < 4; i++) add(&p, 4, i);
    for (i = 4; i > 0; i--) add(&p, i, 4);
    for (i = 4; i > 0; i--) add(&p, 0, i);
    check_all("square with collinear runs", &p, 16 - 2);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 2, 0); add(&p, 4, 0); add(&p, 4, 2);
    add(&p, 2, 2); add(&p, 2, 4); add(&p, 2, 6); add(&p, 0, 6);
    add(&p, 0, 4); add(&p, 0, 2);
    rect(&p, 0.5, 0.5, 1.5, 1.5);
    begin_ring(&p);                     /* hole with a collinear run */
    add(&p, 0.5, 3); add(&p, 1, 3); add(&p, 1.5, 3); add(&p, 1.5, 5);
    add(&p, 0.5, 5);
    check_all("L with collinear runs and holes lined up", &p,
              10 - 2 + 9 + 4);

    /* Repeated consecutive vertices and a repeated closing vertex. */
    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 0, 0); add(&p, 3, 0); add(&p, 3, 2);
    add(&p, 3, 2); add(&p, 3, 2); add(&p, 1, 3); add(&p, 0, 0);
    check_all("repeated vertices", &p, 2);
}

/* The checks themselves must fail on wrong tilings. */
static void checks_can_fail(void)
{
    struct poly p;
    uint32_t fan[3 * 22], dup[3 * 2] = {0, 1, 2, 0, 1, 2};
    uint32_t i;
    const char *res;

    memset(&p, 0, sizeof p);
    comb(&p, 6);
    for (i = 0; i < 22; i++) {
        fan[3 * i] = 0;
        fan[3 * i + 1] = i + 1;
        fan[3 * i + 2] = i + 2;
    }
    res = verify(&p, fan, 22, 22);
    ok(res != NULL, "the checks refuse a fan over a comb: %s", res ? res : "");

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 4, 3);
    res = verify(&p, dup, 2, 2);
    ok(res != NULL, "the checks refuse a doubled triangle: %s",
       res ? res : "");
    dup[3] = 3;
    dup[4] = 2;
    dup[5] = 1;
    res = verify(&p, dup, 2, 2);
    ok(res != NULL, "the checks refuse a triangle turning the wrong way: %s",
       res ? res : "");
}

/* ---- refusals ---- */

static int result_of(const struct poly *p, int kind)
{
    static double xyz[3 * MAXV];
    uint32_t *tri = NULL;
    size_t nt = 0;
    int rc;
    to_xyz(p, kind, xyz);
    rc = xg_triangulate(NULL, xyz, p->rs, p->nr, &tri, &nt);
    free(tri);
    return rc;
}

static void refuses(const char *name, const struct poly *p, int expect)
{
    int kind, rc = expect;
    for (kind = 0; kind < NEMBED && rc == expect; kind++)
        rc = result_of(p, kind);
    ok(rc == expect, "%s: %s (got %s)", name, xg_strerror(expect),
       xg_strerror(rc));
}

static void refusals(void)
{
    struct poly p;
    double xyz[3 * 8];
    /* The coordinates that leave each embedding's plane when moved. */
    static const int off_plane[NEMBED] = {4, 4, 2, 3, 7};
    size_t rs[2] = {0, 5}, nt = 7, i;
    static uint32_t dummy;
    uint32_t *tri = &dummy;
    int rc, kind, all;

    /* One ulp off the plane, in each embedding and at each coordinate. */
    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 4, 0); add(&p, 5, 3); add(&p, 2, 5); add(&p, -1, 3);
    all = 1;
    for (kind = 0; kind < NEMBED; kind++)
        for (i = 0; i < 15; i++) {
            if (!(off_plane[kind] >> (i % 3) & 1))
                continue;
            to_xyz(&p, kind, xyz);
            xyz[i] = nextafter(xyz[i], i % 2 ? INFINITY : -INFINITY);
            rc = xg_triangulate(NULL, xyz, rs, 1, &tri, &nt);
            all &= rc == XG_ENONPLANAR && tri == NULL && nt == 0;
            if (rc == XG_OK)
                free(tri);
        }
    ok(all, "a vertex one ulp off the plane: %s", xg_strerror(XG_ENONPLANAR));

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 1, 1); add(&p, 3, 3); add(&p, 2.5, 2.5); add(&p, -2, -2);
    refuses("collinear vertices", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 1, 1); add(&p, 1, 1); add(&p, 1, 1);
    refuses("one point", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 4, 0); add(&p, 0, 4); add(&p, 4, 4);
    refuses("bow tie", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 4, 0); add(&p, 4, 4); add(&p, 2, 2);
    add(&p, 6, 2); add(&p, 0, 4);
    refuses("self-crossing ring", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 4, 0); add(&p, 4, 2); add(&p, 6, 2);
    add(&p, 5, 2); add(&p, 4, 3); add(&p, 0, 3);
    refuses("spike folding back on an edge", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 4, 0); add(&p, 2, 2); add(&p, 4, 4);
    add(&p, 0, 4); add(&p, 2, 2);
    refuses("ring touching itself at a vertex", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 4, 0); add(&p, 4, 4); add(&p, 2, 0);
    add(&p, 0, 4);
    refuses("vertex on another edge", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    rect(&p, 12, 2, 14, 4);
    refuses("hole outside", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    rect(&p, 0, 2, 4, 4);
    refuses("hole on the outer ring's edge", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    rect(&p, 2, 2, 8, 8);
    rect(&p, 4, 4, 6, 6);
    refuses("nested holes", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    rect(&p, 2, 2, 6, 6);
    rect(&p, 4, 4, 8, 8);
    refuses("overlapping holes", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    begin_ring(&p);
    add(&p, 2, 2); add(&p, 3, 3);
    refuses("hole of two vertices", &p, XG_EDEGENERATE);

    rc = xg_triangulate(NULL, xyz, rs, 0, &tri, &nt);
    ok(rc == XG_EINVAL, "no rings: %s", xg_strerror(rc));
    xyz[4] = NAN;
    rc = xg_triangulate(NULL, xyz, rs, 1, &tri, &nt);
    ok(rc == XG_EINVAL, "NaN coordinate: %s", xg_strerror(rc));
}

/* ---- rings touching at a point (OGC-valid) ---- */

static void tri3(struct poly *p, double u0, double v0, double u1, double v1,
                 double u2, double v2)
{
    begin_ring(p);
    add(p, u0, v0);
    add(p, u1, v1);
    add(p, u2, v2);
}

/* Expected triangle count for n input vertices (after dropping repeats),
 * s points where a vertex of one ring lies inside an edge of another (the
 * edge is split there, once per point), h holes and touch points where
 * m_1, m_2, ... rings meet, t = sum (m_i - 1):
 *     n + s - 2 + 2 * (h - t).
 * Each ring vertex turns by the region's interior angle there; the angles
 * add up to pi per triangle.  With the n + s vertices kept apart they add
 * up to pi (n + s - 2 + 2 h) for a polygon with h disjoint holes, and
 * each merge of two rings at a point takes one full turn, 2 pi, away
 * from the sum (the angles at that point are now one vertex's angles
 * around a shared point, not two separate vertices' angles around two).
 * The random tests check the count on every case. */
static long touch_count(long n, long s, long h, long t)
{
    return n + s - 2 + 2 * (h - t);
}

static void touching(void)
{
    struct poly p;

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 10, 10, 8, 9, 9, 8);
    check_all("hole touching the outer ring at a shared vertex", &p,
              touch_count(7, 0, 1, 1));

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 5, 0, 6, 2, 4, 2);
    check_all("hole vertex inside an outer edge", &p, touch_count(7, 1, 1, 1));

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 5, 0); add(&p, 10, 0); add(&p, 10, 10); add(&p, 0, 10);
    tri3(&p, 5, 0, 6, 2, 4, 2);
    check_all("hole touching a straight outer vertex", &p,
              touch_count(8, 0, 1, 1));

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 10, 0); add(&p, 10, 10); add(&p, 5, 6); add(&p, 0, 10);
    tri3(&p, 5, 6, 3, 2, 7, 2);
    check_all("hole touching a reflex outer vertex", &p,
              touch_count(8, 0, 1, 1));

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 10, 0); add(&p, 10, 10); add(&p, 5, 6); add(&p, 0, 10);
    tri3(&p, 3, 6, 5, 2, 7, 6);
    check_all("outer vertex inside a hole edge", &p, touch_count(8, 1, 1, 1));

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    tri3(&p, 15, 0, 16, 2, 14, 2);
    tri3(&p, 5, 0, 6, 2, 4, 2);
    tri3(&p, 20, 12, 18, 13, 18, 11);
    check_all("three holes touching inside outer edges, two on one edge", &p,
              touch_count(13, 3, 3, 3));

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    tri3(&p, 4, 4, 10, 10, 4, 8);
    tri3(&p, 10, 10, 16, 12, 16, 16);
    check_all("two holes touching at a shared vertex", &p,
              touch_count(10, 0, 2, 1));

    /* the holes' shared point is the rightmost vertex of both: the first
     * hole's bridge starts at the touch point */
    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    tri3(&p, 10, 10, 4, 8, 4, 4);
    tri3(&p, 10, 10, 6, 2, 9, 3);
    check_all("two holes touching at their rightmost vertex", &p,
              touch_count(10, 0, 2, 1));

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    rect(&p, 4, 4, 10, 10);
    tri3(&p, 10, 7, 14, 5, 14, 9);
    check_all("hole vertex inside another hole's edge", &p,
              touch_count(11, 1, 2, 1));

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 10, 10, 6, 9, 7, 8);
    tri3(&p, 10, 10, 8, 7, 9, 6);
    check_all("outer ring and two holes at one vertex", &p,
              touch_count(10, 0, 2, 2));

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 5, 0, 4, 3, 2, 2);
    tri3(&p, 5, 0, 8, 2, 6, 3);
    check_all("two holes at one point inside an outer edge", &p,
              touch_count(10, 1, 2, 2));

    /* outer - A (inside its edge) - B (vertex) - C (inside B's edge);
     * D - E away from the outer ring; F alone */
    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 40, 40);
    tri3(&p, 10, 0, 14, 4, 6, 4);
    tri3(&p, 14, 4, 20, 6, 16, 10);
    tri3(&p, 18, 8, 24, 12, 20, 14);
    rect(&p, 30, 30, 34, 34);
    tri3(&p, 34, 34, 38, 36, 36, 38);
    rect(&p, 2, 30, 6, 34);
    check_all("a tree of six holes touching", &p, touch_count(24, 2, 6, 4));
}

/* A hole vertex one ulp either side of, and exactly on, a diagonal outer
 * edge at UTM magnitudes: inside it is a plain hole, on it a touch (one
 * triangle fewer), outside a crossing.  (Off the 2^-8 grid, so checked
 * by outcome and count only.) */
static void near_touches(void)
{
    const double X = 500000.25, Y = 7000000.5;
    static const double dir[3] = {-INFINITY, 0, INFINITY};
    static const char *where[3] = {"one ulp inside", "exactly on",
                                   "one ulp outside"};
    size_t rs[3] = {0, 3, 6}, nt;
    int k, axis;
    for (axis = 0; axis < 2; axis++)
        for (k = 0; k < 3; k++) {
            double xyz[18] = {X, Y, 0, X + 10, Y, 0, X + 10, Y + 10, 0,
                              X + 5, Y + 5, 0, X + 7, Y + 3, 0,
                              X + 8, Y + 5, 0};
            uint32_t *tri = NULL;
            int rc, want = k == 2 ? XG_EDEGENERATE : XG_OK;
            /* below the diagonal y = x is inside: lower y or raise x */
            if (k != 1) {
                double *c = xyz + 9 + axis;
                *c = nextafter(*c, axis ? dir[k] : dir[2 - k]);
            }
            rc = xg_triangulate(NULL, xyz, rs, 2, &tri, &nt);
            ok(rc == want && (rc != XG_OK || nt == (k == 0 ? 6u : 5u)),
               "hole vertex %s a diagonal outer edge (moved in %s): %s, "
               "%zu triangles", where[k], axis ? "y" : "x", xg_strerror(rc),
               rc == XG_OK ? nt : 0);
            free(tri);
        }
}

static void touching_refusals(void)
{
    struct poly p;

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 5, 0, 10, 5, 5, 5);
    refuses("hole touching the outer ring at two points", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 7, 3); add(&p, 10, 10); add(&p, 3, 7);
    refuses("hole joining two outer corners", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    begin_ring(&p);
    add(&p, 2, 4); add(&p, 5, 2); add(&p, 8, 4); add(&p, 5, 6);
    begin_ring(&p);
    add(&p, 2, 4); add(&p, 1, 9); add(&p, 9, 9); add(&p, 8, 4); add(&p, 5, 7);
    refuses("two holes touching at two points", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 4, 3, 5, 1, 6, 3);
    tri3(&p, 6, 3, 8, 6, 5, 5);
    tri3(&p, 5, 5, 2, 6, 4, 3);
    refuses("three holes touching in a cycle", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 0, 5, 5, 5, 2, 7);
    tri3(&p, 5, 5, 10, 5, 8, 3);
    refuses("two touching holes chained across the outer ring", &p,
            XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 10, 10, 12, 11, 11, 12);
    refuses("hole outside, touching the outer ring at a vertex", &p,
            XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 5, 10, 6, 12, 4, 12);
    refuses("hole outside, its vertex inside an outer edge", &p,
            XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    rect(&p, 2, 2, 12, 12);
    tri3(&p, 12, 12, 9, 11, 11, 9);
    refuses("hole inside another hole, touching it at a vertex", &p,
            XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    rect(&p, 2, 2, 12, 12);
    tri3(&p, 12, 7, 10, 6, 10, 8);
    refuses("hole inside another hole, its vertex inside an edge", &p,
            XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    rect(&p, 2, 2, 6, 6);
    rect(&p, 6, 2, 10, 6);
    refuses("two holes sharing an edge", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 20, 20);
    rect(&p, 2, 2, 6, 6);
    rect(&p, 6, 4, 10, 8);
    refuses("two holes sharing part of an edge", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 10, 10, 10, 7, 8, 8);
    refuses("hole edge along an outer edge from a shared corner", &p,
            XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    tri3(&p, 8, 8, 12, 9, 9, 12);
    refuses("hole crossing the outer ring", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 10, 0); add(&p, 10, 10); add(&p, 5, 10);
    add(&p, 7, 5); add(&p, 3, 5); add(&p, 5, 10); add(&p, 0, 10);
    refuses("outer ring touching itself (inverted hole)", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    begin_ring(&p);
    add(&p, 0, 0); add(&p, 10, 0); add(&p, 10, 10); add(&p, 6, 4);
    add(&p, 5, 0); add(&p, 4, 4); add(&p, 0, 10);
    refuses("outer ring with a vertex inside its own edge", &p, XG_EDEGENERATE);

    memset(&p, 0, sizeof p);
    rect(&p, 0, 0, 10, 10);
    begin_ring(&p);
    add(&p, 2, 2); add(&p, 5, 5); add(&p, 8, 2); add(&p, 8, 8);
    add(&p, 5, 5); add(&p, 2, 8);
    refuses("hole touching itself", &p, XG_EDEGENERATE);
}

/* ---- random polygons ---- */

static double rnd(void) /* uniform in [0, 1) */
{
    return rng_unit();
}

/* Star-shaped about the origin: strictly increasing angles, radius in
 * [5, 40], on the 1/16 grid (rounding moves angles far less than the
 * gaps, so the ring stays simple). */
static void random_star(struct poly *p, int n)
{
    const double pi = 3.14159265358979323846;
    int j;
    begin_ring(p);
    for (j = 0; j < n; j++) {
        double th = 2 * pi * (j + 0.3 * rnd()) / n, r = 5 + 35 * rnd();
        add(p, grid(r * cos(th)), grid(r * sin(th)));
    }
}

/* On the integer grid, to make collinear triples and ties everywhere: a
 * square with every integer point of its sides, and holes in disjoint
 * 4 x 4 cells (rectangles, triangles with axis-parallel legs). */
static int random_grid(struct poly *p, int cells)
{
    int i, j, side = 4 * cells, holes = 0;
    begin_ring(p);
    for (i = 0; i < side; i++) add(p, i, 0);
    for (i = 0; i < side; i++) add(p, side, i);
    for (i = side; i > 0; i--) add(p, i, side);
    for (i = side; i > 0; i--) add(p, 0, i);
    for (i = 0; i < cells; i++)
        for (j = 0; j < cells; j++) {
            double u = 4 * i + 1 + (rnd() < 0.5), v = 4 * j + 1 + (rnd() < 0.5);
            double w = 1 + (u == 4 * i + 1 && rnd() < 0.5);
            double h = 1 + (v == 4 * j + 1 && rnd() < 0.5);
            double pick = rnd();
            if (pick < 0.3 || p->nr >= MAXR)
                continue;
            holes++;
            if (pick < 0.7) {
                rect(p, u, v, u + w, v + h);
            } else {
                begin_ring(p);
                add(p, u, v); add(p, u + w, v); add(p, u, v + h);
            }
            if (rnd() < 0.5)
                reverse_ring(p, p->nr - 1);
        }
    return holes;
}

/* Union-find for the generator below (its own bookkeeping of which
 * rings pass through which lattice points). */
static int uf_find(int *up, int x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* A square of side 4 * cells whose sides hold each integer point with
 * probability 1/2, and in most 4 x 4 cells a quadrilateral hole with one
 * vertex in each corner square [0, 1.5]^2 of the cell (so it is simple
 * and holes are disjoint), where some vertices sit exactly on a cell
 * corner: one corner, or two opposite ones (edges never run along a cell
 * side).  Holes meeting at a corner touch there; a corner on the square's
 * side touches the outer ring, at a vertex or inside an edge.  Unless
 * allow_cycles, a corner that would close a cycle of touches is moved off
 * the corner, so the interior stays connected; *cycle says whether one
 * was closed.  *expect is touch_count() of the result. */
static void random_touching(struct poly *p, int cells, int allow_cycles,
                            int *cycle, long *expect)
{
    enum { L = 5, NP = L * L };     /* lattice points (cells <= 4) */
    int i, j, c, side = 4 * cells, up[MAXR + NP], rings[NP] = {0};
    int shellv[4 * 16] = {0}, holes = 0;
    long n, s = 0, t = 0;
    static const int du[4] = {0, 1, 1, 0}, dv[4] = {0, 0, 1, 1};

    *cycle = 0;
    for (i = 0; i < MAXR + NP; i++)
        up[i] = i;
    begin_ring(p);
    for (i = 0; i < 4 * side; i++) {  /* corners always, others by chance */
        shellv[i] = i % side == 0 || rnd() < 0.5;
        if (shellv[i]) {
            int k = i / side, d = i % side;
            double u = k == 0 ? d : k == 1 ? side : k == 2 ? side - d : 0;
            double v = k == 0 ? 0 : k == 1 ? d : k == 2 ? side : side - d;
            add(p, u, v);
        }
    }
    /* union-find nodes: 0 the outer ring, 1 .. MAXR-1 the holes, MAXR + pt
     * the lattice points; the outer ring passes through every lattice
     * point on the square's sides */
    for (i = 0; i <= cells; i++)
        for (j = 0; j <= cells; j++)
            if (i == 0 || j == 0 || i == cells || j == cells) {
                up[uf_find(up, MAXR + i * L + j)] = uf_find(up, 0);
                rings[i * L + j] = 1;
            }
    for (i = 0; i < cells; i++)
        for (j = 0; j < cells; j++) {
            double pick = rnd();
            int exact[4] = {0, 0, 0, 0}, h = holes + 1;
            if (pick < 0.15)
                continue;
            if (pick < 0.55)
                exact[(int)(rnd() * 4)] = 1;
            else if (pick < 0.9) {
                c = rnd() < 0.5;
                exact[c] = exact[c + 2] = 1;
            }
            begin_ring(p);
            holes++;
            for (c = 0; c < 4; c++) {
                int pt = (i + du[c]) * L + (j + dv[c]);
                double a = 0.5 * (1 + (int)(rnd() * 3));
                double b = 0.5 * (1 + (int)(rnd() * 3));
                if (exact[c]) {
                    int x = uf_find(up, h), y = uf_find(up, MAXR + pt);
                    if (x == y && !allow_cycles) {
                        exact[c] = 0;
                    } else {
                        *cycle |= x == y;
                        up[x] = y;
                    }
                }
                if (exact[c]) {
                    a = b = 0;
                    if (rings[pt] == 1 && (i + du[c] == 0 || j + dv[c] == 0 ||
                                           i + du[c] == cells ||
                                           j + dv[c] == cells)) {
                        /* first hole at a point of a side: a shell vertex? */
                        int u = 4 * (i + du[c]), v = 4 * (j + dv[c]), k;
                        k = v == 0 ? u : u == side ? side + v :
                            v == side ? 2 * side + (side - u) :
                            3 * side + (side - v);
                        s += !shellv[k % (4 * side)];
                    }
                    t += rings[pt] > 0;
                    rings[pt]++;
                }
                add(p, 4 * i + (du[c] ? 4 - a : a), 4 * j + (dv[c] ? 4 - b : b));
            }
            if (rnd() < 0.5)
                reverse_ring(p, p->nr - 1);
        }
    n = (long)p->rs[p->nr];
    *expect = touch_count(n, s, holes, t);
}

static void random_cases(void)
{
    int it, fails = 0, cycles = 0, touches = 0;
    const char *first = NULL;
    char keep[300] = "";
    for (it = 0; it < 200; it++) {
        struct poly p;
        const char *res;
        int n = 3 + (int)(rnd() * 60);
        memset(&p, 0, sizeof p);
        random_star(&p, n);
        if (rnd() < 0.5)
            reverse_ring(&p, 0);
        res = run(&p, it % NEMBED, n - 2);
        if (res && !first) {
            snprintf(keep, sizeof keep, "iteration %d: %s", it, res);
            first = keep;
        }
        fails += res != NULL;
    }
    ok(!fails, "200 random star-shaped polygons tile exactly%s%s",
       first ? ": " : "", first ? first : "");

    fails = 0;
    first = NULL;
    for (it = 0; it < 40; it++) {
        struct poly p;
        const char *res;
        int cells = 2 + it % 3, holes;
        memset(&p, 0, sizeof p);
        holes = random_grid(&p, cells);
        if (rnd() < 0.5)
            reverse_ring(&p, 0);
        res = run(&p, it % NEMBED,
                  (long)p.rs[p.nr] - 2 + 2 * holes);
        if (res && !first) {
            snprintf(keep, sizeof keep, "iteration %d: %s", it, res);
            first = keep;
        }
        fails += res != NULL;
    }
    ok(!fails, "40 random grid polygons with holes and collinear runs tile "
       "exactly%s%s", first ? ": " : "", first ? first : "");

    fails = 0;
    first = NULL;
    for (it = 0; it < 120; it++) {
        struct poly p;
        const char *res;
        int cells = 2 + it % 3, cycle, allow = it >= 60;
        long expect;
        memset(&p, 0, sizeof p);
        random_touching(&p, cells, allow, &cycle, &expect);
        if (rnd() < 0.5)
            reverse_ring(&p, 0);
        if (cycle) {
            int rc = result_of(&p, it % NEMBED);
            res = rc == XG_EDEGENERATE ? NULL : "a cycle of touches accepted";
            cycles++;
        } else {
            res = run(&p, it % NEMBED, expect);
            touches += expect < (long)p.rs[p.nr] - 2 + 2 * (long)(p.nr - 1);
        }
        if (res && !first) {
            snprintf(keep, sizeof keep, "iteration %d: %s", it, res);
            first = keep;
        }
        fails += res != NULL;
    }
    ok(!fails && cycles > 10 && touches > 60,
       "120 random polygons with holes touching the outer ring and each "
       "other: %d with a cycle refused, %d with touches tile exactly%s%s",
       cycles, touches, first ? ": " : "", first ? first : "");
}

int main(void)
{
    size_t i;
    (void)tap_plan;
    (void)tap_skip_all;
    rng_seed_from_env(4096);
    for (i = 0; i < MAXV; i++) {
        mpz_init(X[i]);
        mpz_init(Y[i]);
    }
    checks_can_fail();
    hand_built();
    refusals();
    touching();
    touching_refusals();
    near_touches();
    random_cases();
    for (i = 0; i < MAXV; i++) {
        mpz_clear(X[i]);
        mpz_clear(Y[i]);
    }
    tap_done();
    return tap_exit();
}
