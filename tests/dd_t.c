/*
 * dd_t.c -- the double-double construction stages, the host's (src/
 * refine.c, a value and an error bound) and the intervals shared with the
 * GPU (src/xg_dd.h), against an exact reference written here from the
 * definition, in mpq rationals:
 *
 *   plane   sD = det[A - D; B - D; C - D], sE likewise (xg_dd.h uses
 *           (A - D) . ((B - A) x (C - A)): the same number, another
 *           formula);
 *   line    sD = (q - p) x (D - p), sE likewise;
 *   point   D + t (E - D), t = sD / (sD - sE), when sD and sE have
 *           strictly opposite signs; each coordinate rounded to the
 *           nearest double, ties to even, by MPFR at 53 bits with the
 *           binary64 exponent range (mpfr_set_q + mpfr_subnormalize),
 *           -0 written as +0.
 *
 * Building blocks: xg__dd_add/mul/div_dn and _up must bound the exact
 * sum, product and quotient of two double-doubles from the side their
 * name says (wherever ok stays set), come out normalized (hi is
 * hi + lo rounded to nearest), and on ordinary input (2^-300 .. 2^300)
 * keep ok set and be tight (width under 2^-99, 2^-98 for div, relative).
 *
 * Both stages (xg__plane_point_ddb / xg__line_point_ddb and
 * xg_plane_point_dd / xg_line_point_dd) may decline (0), but a point they
 * certify (1) must be the reference bit for bit.  Cases: random segments
 * at UTM coordinates, drill holes hundreds of metres long through small
 * triangles, drill holes of kilometres crossing z = 0 (elevations of both
 * signs, whose differences are seldom doubles: the host's stage carries
 * them as two-sums), segments nearly parallel to the plane (line),
 * triangles of a few ulps and triangles one ulp from degenerate,
 * crossings within ulps of a shared vertex, axis-aligned planes (z =
 * 237.0625), local coordinates with zeros, crossings that are exactly
 * doubles (through a vertex, an edge, a tilted plane), exactly halfway
 * between two doubles (only the even one may come back) or a hair off
 * halfway (2^-15 .. 2^-60 ulps, on both sides of what 106 bits resolve),
 * and scaled by 2^+-250, to 1e-300 and to 1e+300.  Every case runs in
 * four orientations (segment reversed, triangle rotated or mirrored, line
 * reversed).  Ends on one side, on the plane (line), in it, degenerate
 * triangles and p == q must give 0.
 *
 * How many points each kind and stage certifies is printed (and how many
 * of those the host's stage declined the intervals certify); random UTM
 * segments, drill holes (long ones too), triangles of a few ulps,
 * axis-aligned planes, map segments and exact crossings (tilted,
 * horizontal, on lines) must be at least 99% certified by each stage.
 */
#include <gmp.h>
#include <mpfr.h>
#include "xg_exact.h"
#include "xg_dd.h"
#include "xg_test.h"

/* Sized for about two seconds in all on a slow machine. */
#define BB_ROUNDS 50000
#define PLANE_ROUNDS 24000
#define LINE_ROUNDS 24000

/* ---- the reference ---- */

static mpfr_t fr;
static mpq_t q1, q2, q3, sd, se, qt;
static mpq_t qp[5][3];           /* the input points */
static mpq_t ab[3], ac[3], nv[3], pt[3];

/* RN(v) as a double, ties to even, subnormals and overflow as binary64;
 * a zero comes out as +0. */
static double round_q(const mpq_t v)
{
    int inex = mpfr_set_q(fr, v, MPFR_RNDN);
    inex = mpfr_subnormalize(fr, inex, MPFR_RNDN);
    (void)inex;
    return mpfr_get_d(fr, MPFR_RNDN) + 0.0;
}

enum { PT_DOUBLE, PT_TIE, PT_OTHER };

/* Whether v is the double r itself, the midpoint of r and a neighbour,
 * or neither (r = RN(v)). */
static int classify(const mpq_t v, double r)
{
    double r2;
    if (isinf(r))
        return PT_OTHER;
    mpq_set_d(q1, r);
    if (mpq_equal(q1, v))
        return PT_DOUBLE;
    r2 = nextafter(r, mpq_cmp(v, q1) > 0 ? HUGE_VAL : -HUGE_VAL);
    mpq_set_d(q2, r2);
    mpq_add(q2, q2, q1);
    mpq_div_2exp(q2, q2, 1);
    return mpq_equal(q2, v) ? PT_TIE : PT_OTHER;
}

/* From sd, se and the segment in qp[0], qp[1]: 1 when sd, se have
 * strictly opposite signs, want[] then the rounded crossing and kind[]
 * the class of each exact coordinate. */
static int ref_finish(int dim, double *want, int *kind)
{
    int k;
    if (mpq_sgn(sd) * mpq_sgn(se) >= 0)
        return 0;
    mpq_sub(q3, sd, se);
    mpq_div(qt, sd, q3);
    for (k = 0; k < dim; k++) {
        mpq_sub(pt[k], qp[1][k], qp[0][k]);
        mpq_mul(pt[k], pt[k], qt);
        mpq_add(pt[k], pt[k], qp[0][k]);
        want[k] = round_q(pt[k]);
        kind[k] = classify(pt[k], want[k]);
    }
    return 1;
}

/* (X - D) . ((Y - D) x (Z - D)) for the points i, j, l of qp and the
 * endpoint d: the triple product det[A - D; B - D; C - D], which equals
 * (A - D) . ((B - A) x (C - A)); written in this other form so that the
 * reference shares no formula with xg_dd.h beyond the definition. */
static void ref_det3(mpq_t r, int d)
{
    mpq_t *A = qp[2], *B = qp[3], *C = qp[4], *X = qp[d];
    int k;
    for (k = 0; k < 3; k++) {
        mpq_sub(ab[k], B[k], X[k]);
        mpq_sub(ac[k], C[k], X[k]);
    }
    for (k = 0; k < 3; k++) {
        int j = (k + 1) % 3, l = (k + 2) % 3;
        mpq_mul(q1, ab[j], ac[l]);
        mpq_mul(q2, ab[l], ac[j]);
        mpq_sub(nv[k], q1, q2);
    }
    mpq_set_ui(r, 0, 1);
    for (k = 0; k < 3; k++) {
        mpq_sub(q1, A[k], X[k]);
        mpq_mul(q1, q1, nv[k]);
        mpq_add(r, r, q1);
    }
}

static int ref_plane(const double *tri, const double *D, const double *E,
                     double want[3], int kind[3])
{
    int i, k;
    for (k = 0; k < 3; k++) {
        mpq_set_d(qp[0][k], D[k]);
        mpq_set_d(qp[1][k], E[k]);
        for (i = 0; i < 3; i++)
            mpq_set_d(qp[2 + i][k], tri[3 * i + k]);
    }
    ref_det3(sd, 0);
    ref_det3(se, 1);
    return ref_finish(3, want, kind);
}

/* orient2d(p, q, X) into r, as (q - p) x (X - p). */
static void ref_orient2d(mpq_t r, int x)
{
    mpq_sub(q1, qp[3][0], qp[2][0]);
    mpq_sub(q2, qp[x][1], qp[2][1]);
    mpq_mul(r, q1, q2);
    mpq_sub(q1, qp[3][1], qp[2][1]);
    mpq_sub(q2, qp[x][0], qp[2][0]);
    mpq_mul(q1, q1, q2);
    mpq_sub(r, r, q1);
}

static int ref_line(const double *p, const double *q, const double *D,
                    const double *E, int dim, double *want, int *kind)
{
    int k;
    for (k = 0; k < dim; k++) {
        mpq_set_d(qp[0][k], D[k]);
        mpq_set_d(qp[1][k], E[k]);
    }
    for (k = 0; k < 2; k++) {
        mpq_set_d(qp[2][k], p[k]);
        mpq_set_d(qp[3][k], q[k]);
    }
    ref_orient2d(sd, 0);
    ref_orient2d(se, 1);
    return ref_finish(dim, want, kind);
}

/* ---- the building blocks ---- */

static struct tally bb_encl[3] = {
    {"dd_add_dn <= a + b <= dd_add_up", 0, 0},
    {"dd_mul_dn <= a * b <= dd_mul_up (where ok stays set)", 0, 0},
    {"dd_div_dn <= a / b <= dd_div_up, b > 0 (where ok stays set)", 0, 0}};
static struct tally bb_norm = {"every bound comes out normalized: "
                               "hi == RN(hi + lo)", 0, 0};
static struct tally bb_tight[3] = {
    {"ordinary input: add bounds within 2^-99 (|a| + |b|)", 0, 0},
    {"ordinary input: mul keeps ok, bounds within 2^-99 |a b|", 0, 0},
    {"ordinary input: div keeps ok, bounds within 2^-98 |a / b|", 0, 0}};
static const double tight_max[3] = {0x1p-99, 0x1p-99, 0x1p-98};
static double widest[3];
static long bb_notok[3], bb_calls[3];
static mpq_t xa, xb, xe, xl, xh;

static void dd_q(mpq_t r, struct xg_dd a)
{
    mpq_set_d(r, a.hi);
    mpq_set_d(q3, a.lo);
    mpq_add(r, r, q3);
}

static int normalized(struct xg_dd a)
{
    if (!isfinite(a.hi) || !isfinite(a.lo))
        return 0;
    dd_q(q2, a);
    return round_q(q2) == a.hi;
}

/* A random double-double of kind g, normalized through a two-sum. */
enum { DD_ORD, DD_ZERO, DD_NOLO, DD_WIDE, DD_HALF, DD_TINY, DD_UTM,
       DD_KINDS };

static struct xg_dd rand_dd(int g)
{
    double x, y;
    int e;
    switch (g) {
    case DD_ZERO:
        return xg__dd_sum(0.0, 0.0);
    case DD_NOLO:
        return xg__dd_sum(rng_exp(-60, 60), 0.0);
    case DD_WIDE:
        x = rng_exp(-1000, 1000);
        break;
    case DD_TINY:
        x = rng_exp(-1074, -900);
        break;
    case DD_UTM:
        x = rng_utm();
        if (x == 0.0)
            x = 500000.25;
        break;
    default:
        x = rng_exp(-60, 60);
        break;
    }
    (void)frexp(x, &e);
    if (g == DD_HALF)          /* lo half an ulp: hi + lo is a tie */
        y = ldexp(rng_u64() & 1 ? 0.5 : -0.5, e - 53);
    else
        y = ldexp(rng_range(-1.0, 1.0), e - 53 - rng_int(4));
    return xg__dd_sum(x, y);
}

/* a and b, with b made to cancel a (b near -a) for add or to lie an ulp
 * from a for mul and div, sometimes. */
static void rand_pair(struct xg_dd *a, struct xg_dd *b, int op)
{
    int ga = rng_int(DD_KINDS);
    *a = rand_dd(ga);
    *b = rand_dd(rng_int(3) ? ga : rng_int(DD_KINDS));
    switch (rng_int(6)) {
    case 0:
        if (op == 0)
            *b = xg__dd_sum(-ulps(a->hi, rng_int(3) - 1),
                            rng_int(2) ? -a->lo : b->lo * 0x1p-60);
        else
            *b = xg__dd_sum(ulps(a->hi, rng_int(3) - 1), a->lo);
        break;
    case 1:                      /* same hi, lo differs */
        *b = xg__dd_sum(a->hi, b->lo);
        break;
    default:
        break;
    }
}

/* Ordinary input, where the bounds must be tight and ok must stay set:
 * nonzero, magnitudes 2^-300 .. 2^300. */
static int ordinary(double x)
{
    return fabs(x) >= 0x1p-300 && fabs(x) <= 0x1p300;
}

static void bb_one(int op, struct xg_dd a, struct xg_dd b)
{
    struct xg_dd dn, up;
    int okf = 1, ord = ordinary(a.hi) && ordinary(b.hi);
    double w;
    if (op == 2 && b.hi < 0.0)
        b = xg__dd_neg(b);
    if (op == 2 && !(b.hi > 0.0))
        return;
    bb_calls[op]++;
    dd_q(xa, a);
    dd_q(xb, b);
    switch (op) {
    case 0:
        dn = xg__dd_add_dn(a, b);
        up = xg__dd_add_up(a, b);
        mpq_add(xe, xa, xb);
        break;
    case 1:
        dn = xg__dd_mul_dn(a, b, &okf);
        up = xg__dd_mul_up(a, b, &okf);
        mpq_mul(xe, xa, xb);
        break;
    default:
        dn = xg__dd_div_dn(a, b, &okf);
        up = xg__dd_div_up(a, b, &okf);
        mpq_div(xe, xa, xb);
        break;
    }
    if (!okf) {
        bb_notok[op]++;
        CHECK(&bb_tight[op], !ord, "a %a%+a b %a%+a: ok cleared", a.hi,
              a.lo, b.hi, b.lo);
        return;
    }
    CHECK(&bb_norm, normalized(dn) && normalized(up),
          "op %d a %a%+a b %a%+a: dn %a%+a up %a%+a", op, a.hi, a.lo, b.hi,
          b.lo, dn.hi, dn.lo, up.hi, up.lo);
    if (!isfinite(dn.hi + dn.lo) || !isfinite(up.hi + up.lo)) {
        CHECK(&bb_encl[op], 0, "a %a%+a b %a%+a: dn %a%+a up %a%+a",
              a.hi, a.lo, b.hi, b.lo, dn.hi, dn.lo, up.hi, up.lo);
        return;
    }
    dd_q(xl, dn);
    dd_q(xh, up);
    CHECK(&bb_encl[op], mpq_cmp(xl, xe) <= 0 && mpq_cmp(xe, xh) <= 0,
          "a %a%+a b %a%+a: dn %a%+a up %a%+a", a.hi, a.lo, b.hi, b.lo,
          dn.hi, dn.lo, up.hi, up.lo);
    if (!ord)
        return;
    /* the width relative to |a| + |b|, |a b| or |a / b| */
    mpq_sub(xh, xh, xl);
    if (op == 0) {
        mpq_abs(xa, xa);
        mpq_abs(xb, xb);
        mpq_add(xe, xa, xb);
    }
    mpq_abs(xe, xe);
    mpq_div(xh, xh, xe);
    w = mpq_get_d(xh);
    if (w > widest[op])
        widest[op] = w;
    CHECK(&bb_tight[op], w <= tight_max[op],
          "a %a%+a b %a%+a: width 2^%.1f", a.hi, a.lo, b.hi, b.lo, log2(w));
}

static void building_blocks(int rounds)
{
    int i, op;
    for (i = 0; i < rounds; i++)
        for (op = 0; op < 3; op++) {
            struct xg_dd a, b;
            rand_pair(&a, &b, op);
            bb_one(op, a, b);
            bb_one(op, b, a);
        }
}

/* ---- the constructions: tallies per kind of case ---- */

struct kind {
    const char *what;
    long cases;          /* D, E strictly on opposite sides */
    long certified;      /* of those, certified in the first orientation
                            by the intervals (xg_dd.h) */
    long hcertified;     /* ... by the host's stage (refine.c) */
    long calls, wrong;   /* every call, and certified wrong answers */
    long exact, exact_certified; /* the point is a double */
    long ties, ties_certified;   /* a coordinate is exactly halfway */
    long h_declined, dd_after_h; /* the host's stage declined */
};

/* Not strictly on opposite sides: every call must decline. */
static struct kind plane_zero = {"plane: not strictly on opposite sides",
                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static struct kind line_zero = {"line: not strictly on opposite sides",
                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

static void show(const struct kind *c)
{
    printf("# %s: %ld cases, certified %ld by the intervals (%.2f%%), %ld "
           "by the host's stage (%.2f%%)", c->what, c->cases, c->certified,
           c->cases ? 100.0 * c->certified / c->cases : 0.0, c->hcertified,
           c->cases ? 100.0 * c->hcertified / c->cases : 0.0);
    if (c->exact)
        printf("; exact doubles %ld/%ld", c->exact_certified, c->exact);
    if (c->ties)
        printf("; ties %ld/%ld", c->ties_certified, c->ties);
    if (c->h_declined)
        printf("; the host's stage declined %ld, the intervals certified "
               "%ld of those", c->h_declined, c->dd_after_h);
    printf("\n");
}

static int kind_ok(const struct kind *c)
{
    show(c);
    return ok(c->calls > 0 && c->wrong == 0,
              "%s: %ld calls, %ld certified wrong", c->what, c->calls,
              c->wrong);
}

static void print_v(const char *name, const double *v, int n)
{
    int i;
    printf(" %s", name);
    for (i = 0; i < n; i++)
        printf("%c%a", i ? ',' : '(', v[i]);
    printf(")");
}

static void report_plane(struct kind *c, int st, const double *tri,
                         const double *D, const double *E, const double *got,
                         const double *want)
{
    if (c->wrong++ >= 5)
        return;
    printf("# %s: wrong (%s):", c->what, st ? "host" : "intervals");
    print_v("tri", tri, 9);
    print_v("D", D, 3);
    print_v("E", E, 3);
    print_v("got", got, 3);
    if (want)
        print_v("want", want, 3);
    printf("\n");
}

/* One plane case in four orientations, through both stages: as given,
 * the segment reversed, the vertices rotated and mirrored (n flips).  Not
 * strictly on opposite sides: every call must decline (plane_zero). */
static void plane_case(struct kind *c, const double *tri, const double *D,
                       const double *E)
{
    static const int perm[4][3] = {{0, 1, 2}, {1, 2, 0}, {0, 2, 1},
                                   {2, 1, 0}};
    double want[3], out[3], t[9];
    int kind[3], v, i, r, st, r0[2] = {0, 0}, has_tie, all_exact;
    int opp = ref_plane(tri, D, E, want, kind);
    struct kind *to = opp ? c : &plane_zero;
    to->cases++;
    for (v = 0; v < 4; v++) {
        for (i = 0; i < 3; i++)
            memcpy(t + 3 * i, tri + 3 * perm[v][i], 3 * sizeof *t);
        for (st = 0; st < 2; st++) {
            const double *d = v & 1 ? E : D, *e = v & 1 ? D : E;
            to->calls++;
            r = st ? xg__plane_point_ddb(t, d, e, out)
                   : xg_plane_point_dd(t, d, e, out);
            if (v == 0)
                r0[st] = r;
            if (r && (!opp || memcmp(out, want, sizeof want) != 0))
                report_plane(to, st, tri, D, E, out, opp ? want : NULL);
        }
    }
    if (!opp)
        return;
    c->certified += r0[0];
    c->hcertified += r0[1];
    has_tie = 0;
    all_exact = 1;
    for (i = 0; i < 3; i++) {
        has_tie |= kind[i] == PT_TIE;
        all_exact &= kind[i] == PT_DOUBLE;
    }
    c->ties += has_tie;
    c->ties_certified += has_tie && r0[0];
    c->exact += all_exact;
    c->exact_certified += all_exact && r0[0];
    if (!r0[1]) {
        c->h_declined++;
        c->dd_after_h += r0[0];
    }
}

/* ---- generators ---- */

static void unit_vec(double *u, double zmin, double zmax)
{
    double n;
    int k;
    do {
        u[0] = rng_range(-1.0, 1.0);
        u[1] = rng_range(-1.0, 1.0);
        u[2] = rng_range(zmin, zmax);
        n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    } while (n < 0.1);
    for (k = 0; k < 3; k++)
        u[k] /= n;
}

/* A point of a UTM-like map: easting ~ 500000.25, northing ~ 7000000.5,
 * elevation 0 .. 1000 m. */
static void utm_point(double *p)
{
    p[0] = 500000.25 + rng_range(-1000.0, 1000.0);
    p[1] = 7000000.5 + rng_range(-1000.0, 1000.0);
    p[2] = rng_range(0.0, 1000.0);
}

/* A triangle around A with edges up to size, and a segment of length
 * len through a point X of its plane (barycentric u, v in -0.2 .. 1.2;
 * the segment dips along dir, split at X by a random fraction). */
static void drill(double *tri, double *D, double *E, double size,
                  double len)
{
    double X[3], dir[3], u = rng_range(-0.2, 1.2), v = rng_range(-0.2, 1.2);
    double f = rng_range(0.02, 0.98);
    int k;
    utm_point(tri);
    for (k = 0; k < 3; k++) {
        tri[3 + k] = tri[k] + rng_range(-size, size);
        tri[6 + k] = tri[k] + rng_range(-size, size);
        X[k] = tri[k] + u * (tri[3 + k] - tri[k]) + v * (tri[6 + k] - tri[k]);
    }
    unit_vec(dir, -1.0, -0.3);
    for (k = 0; k < 3; k++) {
        D[k] = X[k] - f * len * dir[k];
        E[k] = X[k] + (1.0 - f) * len * dir[k];
    }
}

/* The unit normal of tri, roughly (doubles). */
static void rough_normal(const double *tri, double *n)
{
    double a[3], b[3], l;
    int k;
    for (k = 0; k < 3; k++) {
        a[k] = tri[3 + k] - tri[k];
        b[k] = tri[6 + k] - tri[k];
    }
    n[0] = a[1] * b[2] - a[2] * b[1];
    n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
    l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (k = 0; k < 3; k++)
        n[k] = l > 0.0 ? n[k] / l : 0.0;
}


/* A segment len long through the centroid of tri along dir, split at a
 * random fraction. */
static void through_centroid(const double *tri, const double *dir,
                             double len, double *D, double *E)
{
    double f = rng_range(0.1, 0.9);
    int k;
    for (k = 0; k < 3; k++) {
        double x = (tri[k] + tri[3 + k] + tri[6 + k]) / 3.0;
        D[k] = x - f * len * dir[k];
        E[k] = x + (1.0 - f) * len * dir[k];
    }
}

/* A segment hundreds of metres long nearly parallel to the plane of
 * tri: an in-plane direction tilted out of it by 1e-2 .. 1e-12. */
static void near_parallel(double *tri, double *D, double *E)
{
    double n[3], w[3], dir[3], dot, eps = pow(10.0, -rng_range(2.0, 12.0));
    int k;
    drill(tri, D, E, 50.0, 1.0);
    rough_normal(tri, n);
    unit_vec(w, -1.0, 1.0);
    dot = w[0] * n[0] + w[1] * n[1] + w[2] * n[2];
    for (k = 0; k < 3; k++)
        dir[k] = w[k] - dot * n[k] + eps * n[k];
    through_centroid(tri, dir, rng_range(100.0, 800.0), D, E);
}

/* A triangle of a few ulps at UTM coordinates (edges about 1e-9 m) and
 * a drill hole through it. */
static void tiny_triangle(double *tri, double *D, double *E)
{
    double dir[3];
    int k;
    utm_point(tri);
    for (k = 0; k < 3; k++) {
        tri[3 + k] = ulps(tri[k], rng_int(17) - 8);
        tri[6 + k] = ulps(tri[k], rng_int(17) - 8);
    }
    unit_vec(dir, -1.0, -0.3);
    through_centroid(tri, dir, rng_range(100.0, 800.0), D, E);
}

/* A triangle whose C is one ulp (in one coordinate) from the line AB,
 * or on it exactly when exact is set (a degenerate triangle: no plane). */
static void flat_triangle(double *tri, double *D, double *E, int exact)
{
    double dir[3], w[3];
    int k, c = rng_int(3), where = rng_int(3);
    for (k = 0; k < 3; k++) {
        static const double o[3] = {500000.25, 7000000.5, 300.0};
        tri[k] = o[k] + 0.0625 * (rng_int(32001) - 16000);
        w[k] = 0.125 * (rng_int(801) - 400);
        tri[3 + k] = tri[k] + w[k];
        /* the midpoint, B's reflection in A, or beyond B */
        tri[6 + k] = where == 0 ? tri[k] + 0.5 * w[k]
                   : where == 1 ? tri[k] - w[k] : tri[k] + 2.0 * w[k];
    }
    if (!exact)
        tri[6 + c] = ulps(tri[6 + c], rng_int(2) ? 1 : -1);
    unit_vec(dir, -1.0, 1.0);
    through_centroid(tri, dir, rng_range(10.0, 800.0), D, E);
}

/* A triangle in an axis-aligned plane (z = 237.0625 mostly, else
 * x = 500000.25 or y = 7000000.5) and a random segment through it. */
static void axis_plane(double *tri, double *D, double *E)
{
    static const double c[3] = {500000.25, 7000000.5, 237.0625};
    int a = rng_int(4) ? 2 : rng_int(2), i;
    drill(tri, D, E, 50.0, rng_range(1.0, 800.0));
    for (i = 0; i < 3; i++)
        tri[3 * i + a] = c[a];
    if (D[a] > c[a])
        D[a] = c[a] - rng_range(0.0, 400.0);
    if (E[a] < c[a])
        E[a] = c[a] + rng_range(0.0, 400.0);
}

/* Exact crossings.  A point P whose coordinates are each a double X or
 * the midpoint X + h of X and its upper neighbour (h half an ulp of X);
 * vertices and endpoints are P plus integer multiples of h, odd for a
 * halfway coordinate and multiples of 4 for the others, so they are
 * doubles (the bases keep every value in the binade of X) and P lies on
 * the plane and on the segment exactly: through a vertex, through an
 * edge, or on the plane of a tilted triangle that does not contain it;
 * horizontal planes at z = 237.0625 too. */
struct lattice {
    double X[3], h[3];
    int tie[3];
};

/* flat: a coordinate that must stay a double (that of an axis-aligned
 * plane or line), -1 for none; the plane z = 237.0625 when it is z. */
static void lattice_init(struct lattice *L, int ties, int flat)
{
    int k;
    L->X[0] = 500000.25 + 0.0625 * (rng_int(32001) - 16000);
    L->X[1] = 7000000.5 + 0.0625 * (rng_int(32001) - 16000);
    L->X[2] = flat == 2 ? 237.0625 : 300.0 + 0.0625 * rng_int(2801);
    for (k = 0; k < 3; k++) {
        if (k != flat)           /* odd or even: ties go either way */
            L->X[k] = ulps(L->X[k], rng_int(4));
        L->h[k] = 0.5 * (nextafter(L->X[k], HUGE_VAL) - L->X[k]);
        L->tie[k] = ties && rng_int(2) && k != flat;
    }
    if (ties && !L->tie[0] && !L->tie[1] && !L->tie[2])
        L->tie[flat == 0 ? 1 : 0] = 1;
}

/* An offset of up to size metres in coordinate k, in units of h. */
static long lattice_count(const struct lattice *L, int k, double size)
{
    long n = (long)(rng_range(-size, size) / L->h[k]);
    return L->tie[k] ? n | 1 : n & ~3L;
}

/* The double P + c h in coordinate k (c even by construction). */
static double lattice_at(const struct lattice *L, int k, long c)
{
    return L->X[k] + (double)(c + L->tie[k]) * L->h[k];
}

/* P is the crossing point where it is a double (no halfway coordinate).
 * low: the tilted shape, with A's z a few h above 0 (for near_tie_tilted). */
static void lattice_plane_low(double *tri, double *D, double *E, double *P,
                              int ties, int horizontal, int low, int *shape)
{
    struct lattice L;
    long u1[3], u2[3], v[3];
    int k, km = 1 + 2 * rng_int(5), mm = 1 + 2 * rng_int(5);
    static const double usize[3] = {10.0, 10.0, 2.0};
    lattice_init(&L, ties, horizontal ? 2 : -1);
    *shape = low ? 2 : ties ? 1 + rng_int(2) : rng_int(3);
    for (k = 0; k < 3; k++) {
        u1[k] = lattice_count(&L, k, usize[k]);
        if (low && k == 2)       /* X + (u1 + tie) h = 1 .. 32 h */
            u1[k] = ((-(long)(L.X[k] / L.h[k])) & ~3L) +
                    4 * (1 + rng_int(8)) - L.tie[k];
        u2[k] = lattice_count(&L, k, usize[k]);
        v[k] = lattice_count(&L, k, k == 2 ? 2.0 : 1.0);
        if (horizontal && k == 2) {
            u1[k] = u2[k] = 0;
            if (v[k] == 0)
                v[k] = 4;
        }
        switch (*shape) {
        case 0:                  /* through the vertex A = P */
            tri[k] = lattice_at(&L, k, 0);
            tri[3 + k] = lattice_at(&L, k, u1[k]);
            tri[6 + k] = lattice_at(&L, k, u2[k]);
            break;
        case 1:                  /* through the midpoint of edge AB */
            tri[k] = lattice_at(&L, k, u1[k]);
            tri[3 + k] = lattice_at(&L, k, -u1[k]);
            tri[6 + k] = lattice_at(&L, k, u2[k]);
            break;
        default:                 /* P on the plane, off the triangle */
            tri[k] = lattice_at(&L, k, u1[k]);
            tri[3 + k] = lattice_at(&L, k, u2[k]);
            tri[6 + k] = lattice_at(&L, k, u1[k] + 2 * u2[k]);
            break;
        }
        D[k] = lattice_at(&L, k, -km * v[k]);
        E[k] = lattice_at(&L, k, mm * v[k]);
        if (P)
            P[k] = L.X[k];
    }
}

static void lattice_plane(double *tri, double *D, double *E, double *P,
                          int ties, int horizontal, int *shape)
{
    lattice_plane_low(tri, D, E, P, ties, horizontal, 0, shape);
}

static void scale_all(double *v, int n, int e)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = ldexp(v[i], e);
}

/* Local coordinates (metres from a site origin, 1/8 steps): a vertical
 * hole at x = 0 or y = 0 (either zero's sign), or a segment D = -E
 * through the origin on a plane through it; zero coordinates must come
 * out +0. */
static void local_plane(double *tri, double *D, double *E)
{
    int k, i;
    for (i = 0; i < 9; i++)
        tri[i] = 0.125 * (rng_int(161) - 80);
    if (rng_int(2)) {
        for (k = 0; k < 2; k++)
            D[k] = E[k] = rng_int(2) ? 0.125 * (rng_int(81) - 40)
                                     : rng_int(2) ? 0.0 : -0.0;
        if (rng_int(2))
            E[0] = -D[0];
        D[2] = -10.0 - rng_range(0.0, 100.0);
        E[2] = 10.0 + rng_range(0.0, 100.0);
    } else {
        /* the plane of 0, B, C; the origin halfway along DE */
        for (k = 0; k < 3; k++) {
            tri[k] = rng_int(2) ? 0.0 : -0.0;
            E[k] = rng_range(-50.0, 50.0);
            D[k] = -E[k];
        }
    }
}

/* Crossings a hair from a midpoint: the plane (line) z = c (y = c),
 * D at c - a and E at c + a (1 + d), so t = 1 / (2 + d); D.x = X and
 * E.x = X + j ulp (j odd) put x = X + j ulp / (2 + d), within about
 * j d / 4 ulps of the midpoint X + j ulp / 2 (d = +-2^-20 .. 2^-52,
 * about 2^-20 .. 2^-54 ulps: above and below what 106 bits resolve;
 * where c + a (1 + d) rounds, an exact tie).  The other coordinate is
 * made the same way or left random. */
static void near_tie(double *D, double *E, int axis, double c)
{
    double a = ldexp(1.0, rng_int(8));
    double d = ldexp(rng_int(2) ? 1.0 : -1.0, -20 - rng_int(33));
    int k;
    utm_point(D);
    for (k = 0; k < 3; k++) {
        int j = 1 + 2 * rng_int(4);
        if (k == axis)
            continue;
        E[k] = rng_int(4) ? ulps(D[k], j) : D[k] + rng_range(-50.0, 50.0);
    }
    D[axis] = c - a;
    E[axis] = c + (a + a * d);
}

/* Near ties on a tilted plane: an exact halfway crossing (lattice_plane)
 * whose vertex A lies a few h above z = 0, where its ulp is about
 * 2^-95; moving A.z by j 2^k of those moves the crossing by about
 * 2^-60 .. 2^-15 ulps, so the point lands a hair off the midpoint,
 * on either side. */
static void near_tie_tilted(double *tri, double *D, double *E)
{
    int shape, j = 1 + rng_int(3);
    double u;
    lattice_plane_low(tri, D, E, NULL, 1, 0, 1, &shape);
    u = nextafter(tri[2], HUGE_VAL) - tri[2];
    tri[2] += (rng_int(2) ? j : -j) * ldexp(u, rng_int(46));
}

static void near_tie_plane(double *tri, double *D, double *E)
{
    double c = rng_int(4) ? 237.0625 : 0.0;
    near_tie(D, E, 2, c);
    tri[0] = D[0] - 10.0;
    tri[1] = D[1] - 10.0;
    tri[3] = D[0] + 20.0;
    tri[4] = D[1] - 5.0;
    tri[6] = D[0] + 1.5;
    tri[7] = D[1] + 30.0;
    tri[2] = tri[5] = tri[8] = c;
}

/* Any of the generators above, for the scaled runs. */
static void any_plane(double *tri, double *D, double *E)
{
    int shape;
    switch (rng_int(4)) {
    case 0: drill(tri, D, E, 50.0, rng_range(10.0, 800.0)); break;
    case 1: drill(tri, D, E, 1.0, rng_range(100.0, 800.0)); break;
    case 2: lattice_plane(tri, D, E, NULL, 0, 0, &shape); break;
    default: lattice_plane(tri, D, E, NULL, 1, rng_int(2), &shape); break;
    }
}

/* Cases that must decline: both ends on one side, an end or both on the
 * plane, a degenerate triangle; at UTM coordinates and scaled to 1e-300
 * and 1e+300.  (Whatever does cross after all goes to *other.) */
static void plane_zero_cases(struct kind *other, int rounds)
{
    double tri[9], D[3], E[3], P[3];
    int i, k, shape;
    for (i = 0; i < rounds; i++) {
        switch (rng_int(4)) {
        case 0:                  /* E beyond D, away from the plane */
            drill(tri, D, E, 50.0, rng_range(1.0, 800.0));
            for (k = 0; k < 3; k++)
                E[k] = D[k] + rng_range(0.0, 2.0) * (D[k] - E[k]);
            break;
        case 1:                  /* D the crossing point itself */
            lattice_plane(tri, D, E, P, 0, rng_int(2), &shape);
            memcpy(rng_int(2) ? D : E, P, sizeof P);
            break;
        case 2:                  /* the segment in the plane */
            lattice_plane(tri, D, E, P, 0, rng_int(2), &shape);
            k = rng_int(3);
            memcpy(D, tri + 3 * k, sizeof D);
            if (rng_int(2))
                memcpy(E, tri + 3 * ((k + 1 + rng_int(2)) % 3), sizeof E);
            else
                memcpy(E, P, sizeof P);
            break;
        default:                 /* a degenerate triangle */
            flat_triangle(tri, D, E, 1);
            break;
        }
        if (rng_int(4) == 0) {
            int e = rng_int(2) ? 990 : -1000 - rng_int(40);
            scale_all(tri, 9, e);
            scale_all(D, 3, e);
            scale_all(E, 3, e);
        }
        plane_case(other, tri, D, E);
    }
}

static struct kind k_utm = {.what = "plane: random UTM triangles (edges "
                            "<= 50 m), segments 10 .. 800 m"};
static struct kind k_holes = {.what = "plane: drill holes 100 .. 1000 m "
                              "through triangles of 0.05 .. 2 m"};
static struct kind k_long = {.what = "plane: drill holes 1 .. 5 km through "
                             "triangles of 0.05 .. 50 m, crossing z = 0"};
static struct kind k_par = {.what = "plane: segments nearly parallel to "
                            "the plane (tilt 1e-2 .. 1e-12)"};
static struct kind k_tinytri = {.what = "plane: triangles of a few ulps at "
                                "UTM coordinates"};
static struct kind k_flat = {.what = "plane: triangles one ulp from "
                             "degenerate"};
static struct kind k_axis = {.what = "plane: axis-aligned planes "
                             "(z = 237.0625, x = 500000.25, y = 7000000.5)"};
static struct kind k_exact = {.what = "plane: crossings exactly at doubles "
                              "(vertex, edge, tilted plane)"};
static struct kind k_exacth = {.what = "plane: crossings exactly at doubles "
                               "on the plane z = 237.0625"};
static struct kind k_local = {.what = "plane: local coordinates, vertical "
                              "holes at x = 0, crossings at 0 (+0 out)"};
static struct kind k_near = {.what = "plane: crossings 2^-20 .. 2^-54 "
                             "ulps off a midpoint (z = 0, z = 237.0625)"};
static struct kind k_neart = {.what = "plane: crossings a hair off a "
                              "midpoint, tilted planes"};
static struct kind k_ties = {.what = "plane: crossings with a coordinate "
                             "exactly halfway between doubles"};
static struct kind k_mid = {.what = "plane: scaled by 2^-250 .. 2^250"};
static struct kind k_tiny = {.what = "plane: scaled to 1e-300 "
                             "(2^-1060 .. 2^-960)"};
static struct kind k_huge = {.what = "plane: scaled to 1e+300 "
                             "(2^940 .. 2^1000)"};
static struct kind k_zother = {.what = "plane: must-decline generators "
                               "that cross after all (scaled, rounded)"};

static void plane_tests(int n)
{
    double tri[9], D[3], E[3];
    int i, shape;
    for (i = 0; i < n; i++) {
        drill(tri, D, E, 50.0, rng_range(10.0, 800.0));
        plane_case(&k_utm, tri, D, E);
    }
    for (i = 0; i < n / 2; i++) {
        drill(tri, D, E, rng_range(0.05, 2.0), rng_range(100.0, 1000.0));
        plane_case(&k_holes, tri, D, E);
    }
    for (i = 0; i < n / 4; i++) {
        /* elevations of both signs: their differences are seldom
         * exact doubles */
        drill(tri, D, E, rng_range(0.05, 50.0), rng_range(1000.0, 5000.0));
        plane_case(&k_long, tri, D, E);
        near_parallel(tri, D, E);
        plane_case(&k_par, tri, D, E);
        tiny_triangle(tri, D, E);
        plane_case(&k_tinytri, tri, D, E);
        flat_triangle(tri, D, E, 0);
        plane_case(&k_flat, tri, D, E);
        axis_plane(tri, D, E);
        plane_case(&k_axis, tri, D, E);
        lattice_plane(tri, D, E, NULL, 0, 0, &shape);
        plane_case(&k_exact, tri, D, E);
        lattice_plane(tri, D, E, NULL, 0, 1, &shape);
        plane_case(&k_exacth, tri, D, E);
        local_plane(tri, D, E);
        plane_case(&k_local, tri, D, E);
        lattice_plane(tri, D, E, NULL, 1, rng_int(3) == 0, &shape);
        plane_case(&k_ties, tri, D, E);
        near_tie_plane(tri, D, E);
        plane_case(&k_near, tri, D, E);
        near_tie_tilted(tri, D, E);
        plane_case(&k_neart, tri, D, E);
    }
    for (i = 0; i < n / 4; i++) {
        int e = rng_int(501) - 250;
        any_plane(tri, D, E);
        scale_all(tri, 9, e);
        scale_all(D, 3, e);
        scale_all(E, 3, e);
        plane_case(&k_mid, tri, D, E);
        e = -960 - rng_int(101);
        any_plane(tri, D, E);
        scale_all(tri, 9, e);
        scale_all(D, 3, e);
        scale_all(E, 3, e);
        plane_case(&k_tiny, tri, D, E);
        e = 940 + rng_int(61);
        any_plane(tri, D, E);
        scale_all(tri, 9, e);
        scale_all(D, 3, e);
        scale_all(E, 3, e);
        plane_case(&k_huge, tri, D, E);
    }
    plane_zero_cases(&k_zother, n / 2);
}

/* ---- lines ---- */

static void report_line(struct kind *c, int st, const double *p,
                        const double *q, const double *D, const double *E,
                        int dim, const double *got, const double *want)
{
    if (c->wrong++ >= 5)
        return;
    printf("# %s: wrong (%s), dim %d:", c->what, st ? "host" : "intervals",
           dim);
    print_v("p", p, 2);
    print_v("q", q, 2);
    print_v("D", D, dim);
    print_v("E", E, dim);
    print_v("got", got, dim);
    if (want)
        print_v("want", want, dim);
    printf("\n");
}

/* One line case in four orientations, through both stages: pq and qp,
 * DE and ED. */
static void line_case(struct kind *c, const double *p, const double *q,
                      const double *D, const double *E, int dim)
{
    double want[3], out[3];
    int kind[3], v, r, st, r0[2] = {0, 0}, k, has_tie, all_exact;
    struct kind *z = &line_zero;
    int opp = ref_line(p, q, D, E, dim, want, kind);
    if (!opp)
        z->cases++;
    else
        c->cases++;
    for (v = 0; v < 4; v++) {
        const double *a = v & 1 ? q : p, *b = v & 1 ? p : q;
        const double *d = v & 2 ? E : D, *e = v & 2 ? D : E;
        for (st = 0; st < 2; st++) {
            memset(out, 0, sizeof out);
            (opp ? c : z)->calls++;
            r = st ? xg__line_point_ddb(a, b, d, e, dim, out)
                   : xg_line_point_dd(a, b, d, e, dim, out);
            if (v == 0)
                r0[st] = r;
            if (r && (!opp || memcmp(out, want, dim * sizeof *out) != 0))
                report_line(opp ? c : z, st, p, q, D, E, dim, out,
                            opp ? want : NULL);
        }
    }
    if (!opp)
        return;
    c->certified += r0[0];
    c->hcertified += r0[1];
    has_tie = 0;
    all_exact = 1;
    for (k = 0; k < dim; k++) {
        has_tie |= kind[k] == PT_TIE;
        all_exact &= kind[k] == PT_DOUBLE;
    }
    c->ties += has_tie;
    c->ties_certified += has_tie && r0[0];
    c->exact += all_exact;
    c->exact_certified += all_exact && r0[0];
    if (!r0[1]) {
        c->h_declined++;
        c->dd_after_h += r0[0];
    }
}

/* A map segment pq and a segment DE (1 .. 2000 m) crossing its line
 * near it; elevations 0 .. 1000 m for dim 3. */
static void map_lines(double *p, double *q, double *D, double *E)
{
    double X[2], dir[3], u = rng_range(-0.1, 1.1), f = rng_range(0.02, 0.98);
    double len = rng_range(1.0, 2000.0);
    int k;
    utm_point(p);
    for (k = 0; k < 2; k++) {
        q[k] = p[k] + rng_range(-1000.0, 1000.0);
        X[k] = p[k] + u * (q[k] - p[k]);
    }
    unit_vec(dir, 0.0, 0.0);
    for (k = 0; k < 2; k++) {
        D[k] = X[k] - f * len * dir[k];
        E[k] = X[k] + (1.0 - f) * len * dir[k];
    }
    D[2] = rng_range(0.0, 1000.0);
    E[2] = rng_range(0.0, 1000.0);
}

/* Segments from (nearly) one shared vertex V: p and D within a few ulps
 * of V, q and E up to 100 m away (or, one time in four, up to 1 mm). */
static void shared_vertex(double *p, double *q, double *D, double *E)
{
    double V[3], s = rng_int(4) ? 100.0 : 1e-3;
    int k;
    utm_point(V);
    for (k = 0; k < 3; k++) {
        p[k] = ulps(V[k], rng_int(7) - 3);
        D[k] = ulps(V[k], rng_int(7) - 3);
        q[k] = V[k] + rng_range(-s, s);
        E[k] = V[k] + rng_range(-s, s);
    }
}

/* DE nearly parallel to pq: pq's direction tilted by 1e-2 .. 1e-12. */
static void parallel_lines(double *p, double *q, double *D, double *E)
{
    double eps = pow(10.0, -rng_range(2.0, 12.0)), d[2], l, X[2];
    double len = rng_range(10.0, 2000.0), f = rng_range(0.1, 0.9);
    int k;
    map_lines(p, q, D, E);
    d[0] = q[0] - p[0];
    d[1] = q[1] - p[1];
    l = sqrt(d[0] * d[0] + d[1] * d[1]);
    d[0] /= l;
    d[1] /= l;
    X[0] = 0.5 * (p[0] + q[0]);
    X[1] = 0.5 * (p[1] + q[1]);
    for (k = 0; k < 2; k++) {
        double dk = d[k] + eps * (k ? d[0] : -d[1]);
        D[k] = X[k] - f * len * dk;
        E[k] = X[k] + (1.0 - f) * len * dk;
    }
}

/* Lattice lines (see lattice_plane): P on pq (p = P, P the midpoint of
 * pq, or P outside pq), horizontal lines y = c among them; P + ... as
 * the crossing of DE, z interpolated along DE; P is returned where it is
 * a double. */
static void lattice_line(double *p, double *q, double *D, double *E,
                         double *P, int ties, int horizontal, int *shape)
{
    struct lattice L;
    long u[3], v[3];
    int k, km = 1 + 2 * rng_int(5), mm = 1 + 2 * rng_int(5);
    lattice_init(&L, ties, horizontal ? 1 : -1);
    *shape = ties && (L.tie[0] || L.tie[1]) ? 1 + rng_int(2) : rng_int(3);
    for (k = 0; k < 3; k++) {
        u[k] = lattice_count(&L, k, 100.0);
        v[k] = lattice_count(&L, k, k == 2 ? 2.0 : 10.0);
        if (horizontal && k == 1) {
            u[k] = 0;
            if (v[k] == 0)
                v[k] = 4;
        }
        if (k < 2) {
            p[k] = lattice_at(&L, k, *shape == 0 ? 0 : u[k]);
            q[k] = lattice_at(&L, k, *shape == 0 ? u[k]
                                   : *shape == 1 ? -u[k] : 3 * u[k]);
        }
        D[k] = lattice_at(&L, k, -km * v[k]);
        E[k] = lattice_at(&L, k, mm * v[k]);
        if (P)
            P[k] = L.X[k];
    }
}

/* The line analogue of local_plane: DE at x = 0 (or the same x) across
 * a line, or D = -E through the origin on a line through it. */
static void local_line(double *p, double *q, double *D, double *E)
{
    int k;
    for (k = 0; k < 2; k++) {
        p[k] = 0.125 * (rng_int(161) - 80);
        q[k] = 0.125 * (rng_int(161) - 80);
    }
    if (rng_int(2)) {
        D[0] = E[0] = rng_int(2) ? 0.125 * (rng_int(81) - 40)
                                 : rng_int(2) ? 0.0 : -0.0;
        if (rng_int(2))
            E[0] = -D[0];
        D[1] = -20.0 - rng_range(0.0, 100.0);
        E[1] = 20.0 + rng_range(0.0, 100.0);
    } else {
        p[0] = rng_int(2) ? 0.0 : -0.0;
        p[1] = rng_int(2) ? 0.0 : -0.0;
        for (k = 0; k < 2; k++) {
            E[k] = rng_range(-50.0, 50.0);
            D[k] = -E[k];
        }
    }
    D[2] = rng_range(-50.0, 50.0);
    E[2] = rng_int(2) ? -D[2] : rng_range(-50.0, 50.0);
}

static void near_tie_line(double *p, double *q, double *D, double *E)
{
    double c = rng_int(4) ? 7000000.5 : 0.0;
    near_tie(D, E, 1, c);
    p[0] = D[0] - rng_range(0.0, 100.0);
    q[0] = D[0] + rng_range(0.0, 100.0);
    p[1] = q[1] = c;
}

static void any_line(double *p, double *q, double *D, double *E)
{
    int shape;
    switch (rng_int(4)) {
    case 0: map_lines(p, q, D, E); break;
    case 1: shared_vertex(p, q, D, E); break;
    case 2: lattice_line(p, q, D, E, NULL, 0, 0, &shape); break;
    default: lattice_line(p, q, D, E, NULL, 1, rng_int(2), &shape); break;
    }
}

static void scale_line(double *p, double *q, double *D, double *E, int e)
{
    scale_all(p, 3, e);
    scale_all(q, 3, e);
    scale_all(D, 3, e);
    scale_all(E, 3, e);
}

static struct kind l_map = {.what = "line: random map segments (pq up to "
                            "1 km, DE 1 .. 2000 m)"};
static struct kind l_shared = {.what = "line: crossings within ulps of a "
                               "shared vertex"};
static struct kind l_par = {.what = "line: DE nearly parallel to pq "
                            "(tilt 1e-2 .. 1e-12)"};
static struct kind l_exact = {.what = "line: crossings exactly at doubles "
                              "(at p, at the midpoint, beyond; y = c)"};
static struct kind l_local = {.what = "line: local coordinates, segments "
                              "at x = 0, crossings at 0 (+0 out)"};
static struct kind l_near = {.what = "line: crossings 2^-20 .. 2^-54 "
                             "ulps off a midpoint (y = 0, y = 7000000.5)"};
static struct kind l_ties = {.what = "line: crossings with a coordinate "
                             "exactly halfway between doubles"};
static struct kind l_mid = {.what = "line: scaled by 2^-250 .. 2^250"};
static struct kind l_tiny = {.what = "line: scaled to 1e-300 "
                             "(2^-1060 .. 2^-960)"};
static struct kind l_huge = {.what = "line: scaled to 1e+300 "
                             "(2^940 .. 2^1000)"};
static struct kind l_zother = {.what = "line: must-decline generators "
                               "that cross after all (scaled, rounded)"};

static void line_zero_cases(int rounds)
{
    double p[3], q[3], D[3], E[3], P[3];
    int i, k, shape;
    for (i = 0; i < rounds; i++) {
        switch (rng_int(4)) {
        case 0:                  /* E beyond D, away from the line */
            map_lines(p, q, D, E);
            for (k = 0; k < 3; k++)
                E[k] = D[k] + rng_range(0.0, 2.0) * (D[k] - E[k]);
            break;
        case 1:                  /* D or E the crossing point */
            lattice_line(p, q, D, E, P, 0, rng_int(2), &shape);
            memcpy(rng_int(2) ? D : E, P, 2 * sizeof *P);
            break;
        case 2:                  /* DE on the line */
            lattice_line(p, q, D, E, P, 0, rng_int(2), &shape);
            memcpy(D, rng_int(2) ? p : P, 2 * sizeof *P);
            memcpy(E, rng_int(2) ? q : P, 2 * sizeof *P);
            break;
        default:                 /* p == q: no line */
            map_lines(p, q, D, E);
            memcpy(q, p, sizeof q);
            break;
        }
        if (rng_int(4) == 0)
            scale_line(p, q, D, E, rng_int(2) ? 990 : -1000 - rng_int(40));
        line_case(&l_zother, p, q, D, E, 2 + rng_int(2));
    }
}

static void line_tests(int n)
{
    double p[3], q[3], D[3], E[3];
    int i, shape;
    for (i = 0; i < n; i++) {
        map_lines(p, q, D, E);
        line_case(&l_map, p, q, D, E, 2 + rng_int(2));
    }
    for (i = 0; i < n / 4; i++) {
        shared_vertex(p, q, D, E);
        line_case(&l_shared, p, q, D, E, 2 + rng_int(2));
        parallel_lines(p, q, D, E);
        line_case(&l_par, p, q, D, E, 2 + rng_int(2));
        lattice_line(p, q, D, E, NULL, 0, rng_int(3) == 0, &shape);
        line_case(&l_exact, p, q, D, E, 2 + rng_int(2));
        lattice_line(p, q, D, E, NULL, 1, rng_int(3) == 0, &shape);
        line_case(&l_ties, p, q, D, E, 2 + rng_int(2));
        near_tie_line(p, q, D, E);
        line_case(&l_near, p, q, D, E, 2 + rng_int(2));
        local_line(p, q, D, E);
        line_case(&l_local, p, q, D, E, 2 + rng_int(2));
    }
    for (i = 0; i < n / 4; i++) {
        any_line(p, q, D, E);
        scale_line(p, q, D, E, rng_int(501) - 250);
        line_case(&l_mid, p, q, D, E, 2 + rng_int(2));
        any_line(p, q, D, E);
        scale_line(p, q, D, E, -960 - rng_int(101));
        line_case(&l_tiny, p, q, D, E, 2 + rng_int(2));
        any_line(p, q, D, E);
        scale_line(p, q, D, E, 940 + rng_int(61));
        line_case(&l_huge, p, q, D, E, 2 + rng_int(2));
    }
    line_zero_cases(n / 2);
}

/* At least pct percent of c's cases certified, by each stage. */
static int certifies(const struct kind *c, double pct)
{
    return ok(c->cases > 0 && c->certified >= pct / 100.0 * c->cases &&
                  c->hcertified >= pct / 100.0 * c->cases,
              "%s: each stage certifies at least %g%% (intervals %ld, "
              "host %ld, of %ld)", c->what, pct, c->certified,
              c->hcertified, c->cases);
}

int main(void)
{
    static struct kind *const planes[] = {
        &k_utm, &k_holes, &k_long, &k_par, &k_tinytri, &k_flat, &k_axis,
        &k_exact, &k_exacth, &k_local, &k_ties, &k_near, &k_neart, &k_mid,
        &k_tiny, &k_huge, &k_zother};
    static struct kind *const lines[] = {
        &l_map, &l_shared, &l_par, &l_exact, &l_local, &l_ties, &l_near, &l_mid, &l_tiny,
        &l_huge, &l_zother};
    size_t i;
    int k;

    rng_seed_from_env(2370625);
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    mpfr_init2(fr, 53);
    mpq_inits(q1, q2, q3, sd, se, qt, xa, xb, xe, xl, xh, NULL);
    for (k = 0; k < 3; k++) {
        mpq_inits(ab[k], ac[k], nv[k], pt[k], NULL);
        for (i = 0; i < 5; i++)
            mpq_init(qp[i][k]);
    }

    building_blocks(BB_ROUNDS);
    for (k = 0; k < 3; k++) {
        tally_ok(&bb_encl[k]);
        tally_ok(&bb_tight[k]);
        printf("# %s: %ld calls, ok cleared in %ld; widest ordinary bound "
               "2^%.2f\n", k == 0 ? "add" : k == 1 ? "mul" : "div",
               bb_calls[k], bb_notok[k], log2(widest[k]));
    }
    tally_ok(&bb_norm);

    plane_tests(PLANE_ROUNDS);
    for (i = 0; i < sizeof planes / sizeof *planes; i++)
        kind_ok(planes[i]);
    show(&plane_zero);
    ok(plane_zero.cases > 0 && plane_zero.wrong == 0,
       "plane: every call declines when D, E are not strictly on opposite "
       "sides (%ld cases)", plane_zero.cases);
    certifies(&k_utm, 99.0);
    certifies(&k_holes, 99.0);
    certifies(&k_long, 99.0);
    certifies(&k_exact, 99.0);
    certifies(&k_exacth, 99.0);
    certifies(&k_axis, 99.0);
    certifies(&k_tinytri, 99.0);

    line_tests(LINE_ROUNDS);
    for (i = 0; i < sizeof lines / sizeof *lines; i++)
        kind_ok(lines[i]);
    show(&line_zero);
    ok(line_zero.cases > 0 && line_zero.wrong == 0,
       "line: every call declines when D, E are not strictly on opposite "
       "sides (%ld cases)", line_zero.cases);
    certifies(&l_map, 99.0);
    certifies(&l_exact, 99.0);

    for (k = 0; k < 3; k++) {
        mpq_clears(ab[k], ac[k], nv[k], pt[k], NULL);
        for (i = 0; i < 5; i++)
            mpq_clear(qp[i][k]);
    }
    mpq_clears(q1, q2, q3, sd, se, qt, xa, xb, xe, xl, xh, NULL);
    mpfr_clear(fr);
    mpfr_free_cache();
    return tap_done(), tap_exit();
}
