/*
 * segtri_t.c -- every kind of segment-triangle contact on hand-built
 * cases, at small and at UTM-sized coordinates, and the engines against
 * brute force on random and degenerate sets.
 */
#include <math.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"

/* Origin shift: the same configuration at UTM magnitudes, exactly (all
 * offsets are multiples of 1/4 and the sums stay exact). */
static double ox, oy, oz;

static void seg(double *s, double x0, double y0, double z0, double x1,
                double y1, double z1)
{
    s[0] = ox + x0; s[1] = oy + y0; s[2] = oz + z0;
    s[3] = ox + x1; s[4] = oy + y1; s[5] = oz + z1;
}

static const double base_tri[9] = {0, 0, 0, 4, 0, 0, 0, 4, 0};

static void tri(double *t)
{
    int i;
    for (i = 0; i < 3; i++) {
        t[3 * i] = ox + base_tri[3 * i];
        t[3 * i + 1] = oy + base_tri[3 * i + 1];
        t[3 * i + 2] = oz + base_tri[3 * i + 2];
    }
}

static int same_point(const double *p, double x, double y, double z)
{
    return p[0] == ox + x && p[1] == oy + y && p[2] == oz + z;
}

static void hand_built(const char *where)
{
    double s[6], t[9];
    struct xg_contact c;
    int r;

    tri(t);
    seg(s, 1, 1, -1, 1, 1, 1);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_PROPER && same_point(c.p, 1, 1, 0),
       "%s: proper crossing at (1,1,0)", where);

    seg(s, 0, 0, -1, 0, 0, 2);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_TOUCH && same_point(c.p, 0, 0, 0),
       "%s: through a vertex is a touch at the vertex", where);

    seg(s, 2, 0, -3, 2, 0, 1);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_TOUCH && same_point(c.p, 2, 0, 0),
       "%s: through an edge is a touch on the edge", where);

    seg(s, 1, 1, 0, 1, 1, 5);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_TOUCH && same_point(c.p, 1, 1, 0),
       "%s: endpoint on the face is a touch", where);

    seg(s, 2, 2, 0, 2, 2, -5);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_TOUCH && same_point(c.p, 2, 2, 0),
       "%s: endpoint on the hypotenuse is a touch", where);

    seg(s, 3, 3, 0, 3, 3, 1);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 0, "%s: endpoint in the plane outside the triangle misses", where);

    seg(s, -1, 1, 0, 5, 1, 0);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_OVERLAP && same_point(c.p, 0, 1, 0) &&
           same_point(c.q, 3, 1, 0),
       "%s: coplanar overlap clipped to (0,1,0)-(3,1,0)", where);

    seg(s, 5, 5, 0, 6, 1, 0);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 0, "%s: coplanar miss", where);

    seg(s, 4, 0, 0, 6, 0, 0);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_TOUCH && same_point(c.p, 4, 0, 0),
       "%s: coplanar, touching a corner only, is a touch", where);

    seg(s, -2, 2, 0, 2, -2, 0);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_TOUCH && same_point(c.p, 0, 0, 0),
       "%s: coplanar, crossing the corner diagonally, is a touch", where);

    seg(s, 0, 0, 0, 4, 0, 0);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 1 && c.kind == XG_KIND_OVERLAP && same_point(c.p, 0, 0, 0) &&
           same_point(c.q, 4, 0, 0),
       "%s: segment along an edge is a coplanar overlap", where);

    seg(s, 0, 0, 1, 4, 4, 1);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 0, "%s: parallel above the plane misses", where);

    seg(s, 3, 3, -1, 3, 3, 1);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 0, "%s: crossing the plane outside the triangle misses", where);

    seg(s, 1, 1, 0.25, 1, 1, 1);
    r = xg_segtri_pair(NULL, s, t, &c);
    ok(r == 0, "%s: segment ending just above the face misses", where);
}

/* An endpoint copied as the contact point: -0 comes out +0, as every
 * constructed point does, so outputs never carry a negative zero. */
static void negative_zero(void)
{
    double s[6] = {1, 1, -0.0, 1, 1, 3}, t[9] = {0, 0, 0, 4, 0, 0, 0, 4, 0};
    double r[6] = {-0.0, 2, 0, 3, 2, 0}, q[6] = {-0.0, 0, 0, 0, 3, 0};
    struct xg_contact c;
    int ret = xg_segtri_pair(NULL, s, t, &c);
    ok(ret == 1 && c.kind == XG_KIND_TOUCH && c.p[2] == 0.0 && !signbit(c.p[2]),
       "endpoint z = -0 on the face: touch reported at +0");
    ret = xg_redblue_pair(NULL, r, q, &c);
    ok(ret == 1 && c.kind == XG_KIND_TOUCH && c.p[0] == 0.0 && !signbit(c.p[0]),
       "2D endpoint x = -0 on the other segment: touch reported at +0");
}

/* orient2d decides exactly collinear UTM points (the shared vertices and
 * edges of map overlay) in its middle stage, without GMP; a point one ulp
 * off the line too. */
static void orient2d_middle_stage(void)
{
    double a[2] = {500000.25, 7000000.5}, b[2] = {500012.75, 7000003.625};
    double c[2] = {500025.25, 7000006.75}, d[2];
    struct xg_counters k = {0};
    int s = xg_orient2d(&k, a, b, c);
    ok(s == XG_ZERO && k.filter_failures == 1 && k.exact_evals == 0,
       "collinear UTM points: zero, decided without GMP (%d, %llu GMP)", s,
       (unsigned long long)k.exact_evals);
    d[0] = c[0];
    d[1] = nextafter(c[1], 1e300);
    memset(&k, 0, sizeof k);
    s = xg_orient2d(&k, a, b, d);
    ok(s == xg_orient2d_exact(a, b, d) && s == XG_POS && k.exact_evals == 0,
       "one ulp off the line: positive, without GMP (%d, %llu GMP)", s,
       (unsigned long long)k.exact_evals);
}

/* xg_contacts_diff: identical lists, a one-bit difference in a point, a
 * different kind, and a prefix. */
static void contacts_diff(void)
{
    struct xg_contact v[3] = {{1, 2, XG_KIND_PROPER, 0, {1, 2, 3}, {0, 0, 0}},
                              {1, 5, XG_KIND_TOUCH, 0, {4, 5, 6}, {0, 0, 0}},
                              {2, 0, XG_KIND_OVERLAP, 0, {7, 8, 9}, {1, 1, 1}}};
    struct xg_contact w[3];
    struct xg_contacts x = {3, 3, v}, y = {3, 3, w};
    memcpy(w, v, sizeof v);
    ok(xg_contacts_diff(&x, &y) == SIZE_MAX, "contacts_diff: identical lists");
    w[2].q[1] = nextafter(1.0, 2.0);
    ok(xg_contacts_diff(&x, &y) == 2, "contacts_diff: one ulp in an overlap end");
    memcpy(w, v, sizeof v);
    w[1].kind = XG_KIND_PROPER;
    ok(xg_contacts_diff(&x, &y) == 1, "contacts_diff: a different kind");
    memcpy(w, v, sizeof v);
    y.n = 2;
    ok(xg_contacts_diff(&x, &y) == 2 && xg_contacts_diff(&y, &x) == 2,
       "contacts_diff: a prefix differs at its length");
}

int main(void)
{
    contacts_diff();
    orient2d_middle_stage();
    negative_zero();
    hand_built("origin");
    ox = 500000.25;
    oy = 7000000.5;
    oz = 350.75;
    hand_built("UTM");
    return tap_done(), tap_exit();
}
