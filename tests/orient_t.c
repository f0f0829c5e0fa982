/*
 * orient_t.c -- xg_orient2d / xg_orient3d and their stages against an
 * independent reference: the determinants evaluated in GMP rationals
 * (mpq_set_d is exact), written here from the definition and sharing no
 * code with src/exact.c.
 *
 * Inputs: random points at several scales, exactly collinear / coplanar
 * constructions (dyadic steps, so every coordinate is exact), the same
 * moved by one ulp, points rounded onto a line or plane (sign genuinely
 * hard), UTM magnitudes, tiny, subnormal and huge coordinates.
 * Checked: the predicate, the exact stage and the filter's certified
 * sign all equal the reference; the filter's interval encloses the exact
 * determinant; the counters count what happened; sign symmetries.
 */
#include <gmp.h>
#include "exactgeo.h"
#include "xg_filter_orient.h"
#include "xg_test.h"
#include "pred_ref.h"

static mpq_t q[12], t1, t2, det;

/* det = (a-c)x (b-c)y - (a-c)y (b-c)x, exactly. */
static int ref_orient2d(const double *a, const double *b, const double *c)
{
    int i;
    for (i = 0; i < 2; i++) {
        mpq_set_d(q[0], a[i]);
        mpq_set_d(q[1], c[i]);
        mpq_sub(q[2 + i], q[0], q[1]);     /* a - c */
        mpq_set_d(q[0], b[i]);
        mpq_sub(q[4 + i], q[0], q[1]);     /* b - c */
    }
    mpq_mul(t1, q[2], q[5]);
    mpq_mul(t2, q[3], q[4]);
    mpq_sub(det, t1, t2);
    return mpq_sgn(det);
}

/* det of the rows a-d, b-d, c-d, by cofactors along the first row. */
static int ref_orient3d(const double *a, const double *b, const double *c,
                        const double *d)
{
    const double *p[3] = {a, b, c};
    mpq_t *m = q + 3;      /* m[3 r + k] = p_r[k] - d[k] */
    int r, k;
    for (k = 0; k < 3; k++) {
        mpq_set_d(q[1], d[k]);
        for (r = 0; r < 3; r++) {
            mpq_set_d(q[0], p[r][k]);
            mpq_sub(m[3 * r + k], q[0], q[1]);
        }
    }
    mpq_set_ui(det, 0, 1);
    for (k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        mpq_mul(t1, m[3 + k1], m[6 + k2]);
        mpq_mul(t2, m[3 + k2], m[6 + k1]);
        mpq_sub(t1, t1, t2);
        mpq_mul(t1, t1, m[k]);
        mpq_add(det, det, t1);
    }
    return mpq_sgn(det);
}

enum cls { C_RANDOM, C_DEGEN, C_NEAR, C_ROUNDED, C_COUNT };
static const char *const cls_name[C_COUNT] = {
    "random", "exactly degenerate", "degenerate moved by 1 ulp",
    "rounded onto the line/plane"};

static int cur_scale;
static struct pred_stats st2[C_COUNT], st3[C_COUNT];

/* ---- coordinates: rng_coord, rng_step, rng_base (xg_test.h) ---- */

/* ---- one evaluation, all checks ---- */

static void run2(int c, const double *a, const double *b, const double *cc,
                 int expect_zero)
{
    struct pred_stats *s = &st2[c];
    struct xg_counters k = {0};
    int ref = ref_orient2d(a, b, cc);
    int f = xg_orient2d_filter(a, b, cc);
    int p = xg_orient2d(&k, a, b, cc);
    struct xg_iv iv = xg_orient2d_iv(a, b, cc);

    CHECK(&s->encl, ref_encloses(iv, det),
          "[%a,%a] at (%a,%a) (%a,%a) (%a,%a)", iv.lo, iv.hi, a[0], a[1],
          b[0], b[1], cc[0], cc[1]);
    CHECK(&s->pred, p == ref, "got %d, exact %d at (%a,%a) (%a,%a) (%a,%a)",
          p, ref, a[0], a[1], b[0], b[1], cc[0], cc[1]);
    CHECK(&s->exact, xg_orient2d_exact(a, b, cc) == ref,
          "exact stage wrong at (%a,%a) (%a,%a) (%a,%a)", a[0], a[1], b[0],
          b[1], cc[0], cc[1]);
    CHECK(&s->filt, f == XG_UNSURE || f == ref,
          "filter says %d, exact %d at (%a,%a) (%a,%a) (%a,%a)", f, ref, a[0],
          a[1], b[0], b[1], cc[0], cc[1]);
    /* The static stage proves a zero only from two zero products: a
     * zero coordinate difference in each (a repeated point, or
     * axis-parallel points). */
    CHECK(&s->filt, f != XG_ZERO || ((a[0] == cc[0] || b[1] == cc[1]) &&
                                     (a[1] == cc[1] || b[0] == cc[0])),
          "filter proves zero without a zero product at (%a,%a) (%a,%a) "
          "(%a,%a)", a[0], a[1], b[0], b[1], cc[0], cc[1]);
    CHECK(&s->sym, xg_orient2d(NULL, b, cc, a) == ref &&
                       xg_orient2d(NULL, b, a, cc) == -ref,
          "cyclic / swapped orders disagree at (%a,%a) (%a,%a) (%a,%a)",
          a[0], a[1], b[0], b[1], cc[0], cc[1]);
    if (expect_zero >= 0)
        CHECK(&s->constr, (ref == 0) == expect_zero,
              "built %s but the reference says %d",
              expect_zero ? "collinear" : "off the line", ref);
    pred_stats_count(s, f, ref, &k,
                     cur_scale == S_UNIT || cur_scale == S_UTM);
}

static void run3(int c, const double *a, const double *b, const double *cc,
                 const double *d, int expect_zero)
{
    struct pred_stats *s = &st3[c];
    struct xg_counters k = {0};
    int ref = ref_orient3d(a, b, cc, d);
    int f = xg_orient3d_filter(a, b, cc, d);
    int p = xg_orient3d(&k, a, b, cc, d);
    struct xg_iv iv = xg_orient3d_iv(a, b, cc, d);

    CHECK(&s->encl, ref_encloses(iv, det), "[%a,%a] at d=(%a,%a,%a)", iv.lo,
          iv.hi, d[0], d[1], d[2]);
    CHECK(&s->pred, p == ref,
          "got %d, exact %d at (%a,%a,%a) (%a,%a,%a) (%a,%a,%a) (%a,%a,%a)",
          p, ref, a[0], a[1], a[2], b[0], b[1], b[2], cc[0], cc[1], cc[2],
          d[0], d[1], d[2]);
    CHECK(&s->exact, xg_orient3d_exact(a, b, cc, d) == ref,
          "exact stage wrong at d=(%a,%a,%a)", d[0], d[1], d[2]);
    CHECK(&s->filt, f == XG_UNSURE || f == ref,
          "filter says %d, exact %d at d=(%a,%a,%a)", f, ref, d[0], d[1],
          d[2]);
    /* The static stage proves a zero only from the pattern of zero
     * coordinate differences (a zero in every term of the expansion),
     * checked here on the coordinates themselves. */
    {
        const double *r[3] = {a, b, cc};
        int nz[3][3], i, j;
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++)
                nz[i][j] = r[i][j] != d[j];
        CHECK(&s->filt, f != XG_ZERO || xg__det3_zero_pattern(nz),
              "filter proves zero without a zero pattern at d=(%a,%a,%a)",
              d[0], d[1], d[2]);
    }
    /* An even permutation of the rows keeps the sign; odd ones flip it. */
    CHECK(&s->sym, xg_orient3d(NULL, b, cc, a, d) == ref &&
                       xg_orient3d(NULL, b, a, cc, d) == -ref,
          "row permutations disagree at d=(%a,%a,%a)", d[0], d[1], d[2]);
    if (expect_zero >= 0)
        CHECK(&s->constr, (ref == 0) == expect_zero,
              "built %s but the reference says %d",
              expect_zero ? "coplanar" : "off the plane", ref);
    pred_stats_count(s, f, ref, &k,
                     cur_scale == S_UNIT || cur_scale == S_UTM);
}

/* ---- generators ---- */

static void gen2(int sc)
{
    double a[2], b[2], c[2], d[2], t;
    int i, j, m;

    for (i = 0; i < 2; i++) {
        a[i] = rng_coord(sc);
        b[i] = rng_coord(sc);
        c[i] = rng_coord(sc);
    }
    run2(C_RANDOM, a, b, c, -1);

    /* exactly collinear: a, a + u, a + m u with a dyadic step u */
    for (i = 0; i < 2; i++) {
        a[i] = rng_base(sc);
        d[i] = rng_step(sc);
    }
    m = rng_int(17) - 8;
    for (i = 0; i < 2; i++) {
        b[i] = a[i] + d[i];
        c[i] = a[i] + m * d[i];
    }
    run2(C_DEGEN, a, b, c, 1);
    run2(C_DEGEN, c, a, b, 1);
    /* ... one coordinate of one point moved by one ulp: nonzero
     * whenever the line is not parallel to that axis */
    j = rng_int(2);
    i = rng_int(2);
    {
        double save = c[i];
        int nz = d[1 - i] != 0.0;
        c[i] = ulps(c[i], j ? 1 : -1);
        run2(C_NEAR, a, b, c, nz ? 0 : -1);
        c[i] = save;
    }
    /* rounded onto the segment ab: the sign is anyone's guess */
    t = rng_unit();
    for (i = 0; i < 2; i++) {
        a[i] = rng_coord(sc);
        b[i] = rng_coord(sc);
        c[i] = a[i] + t * (b[i] - a[i]);
    }
    run2(C_ROUNDED, a, b, c, -1);
}

static void gen3(int sc)
{
    double a[3], b[3], c[3], d[3], u[3], v[3], t, w;
    int i, j, m, n;

    for (i = 0; i < 3; i++) {
        a[i] = rng_coord(sc);
        b[i] = rng_coord(sc);
        c[i] = rng_coord(sc);
        d[i] = rng_coord(sc);
    }
    run3(C_RANDOM, a, b, c, d, -1);

    /* exactly coplanar: a, a + u, a + v, a + m u + n v */
    for (i = 0; i < 3; i++) {
        a[i] = rng_base(sc);
        u[i] = rng_step(sc);
        v[i] = rng_step(sc);
    }
    if (rng_int(4) == 0)
        u[2] = v[2] = 0.0;      /* a horizontal plane */
    m = rng_int(9) - 4;
    n = rng_int(9) - 4;
    for (i = 0; i < 3; i++) {
        b[i] = a[i] + u[i];
        c[i] = a[i] + v[i];
        d[i] = a[i] + m * u[i] + n * v[i];
    }
    run3(C_DEGEN, a, b, c, d, 1);
    run3(C_DEGEN, d, a, c, b, 1);
    /* ... d moved by one ulp along the axis of the largest normal
     * component (never parallel to the plane when the normal is not 0) */
    {
        double nn[3];
        int ax = 0;
        nn[0] = u[1] * v[2] - u[2] * v[1];   /* exact: small integers */
        nn[1] = u[2] * v[0] - u[0] * v[2];
        nn[2] = u[0] * v[1] - u[1] * v[0];
        for (j = 1; j < 3; j++)
            if (fabs(nn[j]) > fabs(nn[ax]))
                ax = j;
        d[ax] = ulps(d[ax], rng_int(2) ? 1 : -1);
        run3(C_NEAR, a, b, c, d, nn[ax] != 0.0 ? 0 : -1);
    }
    /* rounded onto the plane through a, b, c */
    t = rng_unit();
    w = rng_unit() * (1.0 - t);
    for (i = 0; i < 3; i++) {
        a[i] = rng_coord(sc);
        b[i] = rng_coord(sc);
        c[i] = rng_coord(sc);
        d[i] = a[i] + t * (b[i] - a[i]) + w * (c[i] - a[i]);
    }
    run3(C_ROUNDED, a, b, c, d, -1);
}

/* The zeros orient3d's static stage proves (xg_filters.h): a vertical
 * drill hole D E through a mesh vertex A at UTM coordinates, against an
 * edge A B, and a horizontal one along x above a row edge A B.  Moved by
 * one ulp they are not zero, and the filter must not say so; at tiny
 * magnitudes the range guard leaves the same pattern to the later
 * stages, which find the zero. */
static void axis_cases(void)
{
    double A[3] = {500011.71875, 7000023.4375, 131.0625};
    double B[3] = {500023.4375, 7000035.15625, 129.5};
    double D[3] = {500011.71875, 7000023.4375, 330.25};
    double E[3] = {500011.71875, 7000023.4375, 61.75};
    double R[3] = {500000.0, 7000023.4375, 129.5};   /* on A's row */
    double H0[3] = {499700.5, 7000023.4375, 130.0};
    double H1[3] = {500400.25, 7000023.4375, 130.0};
    double t[4][3];
    int i, k;
    struct xg_counters cnt = {0};

    ok(xg_orient3d_filter(A, B, D, E) == XG_ZERO &&
           xg_orient3d_filter(B, A, D, E) == XG_ZERO &&
           xg_orient3d_filter(A, B, E, D) == XG_ZERO,
       "orient3d: a vertical segment through a vertex against its edge is "
       "proved zero by the static stage");
    ok(xg_orient3d_filter(A, R, H0, H1) == XG_ZERO &&
           xg_orient3d(&cnt, A, R, H0, H1) == XG_ZERO &&
           cnt.filter_failures == 0,
       "orient3d: a horizontal segment along a row edge is proved zero, "
       "without a filter failure");
    ok(xg_orient3d_filter(A, B, D, E) == XG_ZERO &&
           xg_orient3d_exact(A, B, D, E) == XG_ZERO &&
           xg_orient3d_exact(A, R, H0, H1) == XG_ZERO,
       "orient3d: the proved zeros are the exact stage's");
    for (k = 0; k < 2; k++) {
        int bad = 0, off = 0;
        for (i = 0; i < 3; i++) {
            double *v[4] = {A, B, D, E};
            double save;
            int j;
            for (j = 0; j < 4; j++) {
                save = v[j][i];
                v[j][i] = ulps(save, k ? 1 : -1);
                off += xg_orient3d_exact(A, B, D, E) != XG_ZERO;
                bad += xg_orient3d_filter(A, B, D, E) == XG_ZERO &&
                       xg_orient3d_exact(A, B, D, E) != XG_ZERO;
                v[j][i] = save;
            }
        }
        ok(bad == 0 && off >= 4,
           "orient3d: near the vertical zero (one coordinate moved by one "
           "ulp %s: %d of 12 leave it), the filter never says zero where "
           "the exact stage does not", k ? "up" : "down", off);
    }
    /* B moved off the vertical plane through A: a near zero, not proved */
    {
        double B1[3] = {B[0], B[1], B[2]};
        double D1[3] = {D[0], ulps(D[1], 1), D[2]};
        ok(xg_orient3d_filter(A, B1, D1, E) != XG_ZERO &&
               xg_orient3d_exact(A, B1, D1, E) != XG_ZERO,
           "orient3d: D one ulp off the vertical: not zero, not proved");
    }
    /* the range guard: the same pattern at 2^-1000 */
    for (k = 0; k < 3; k++) {
        t[0][k] = (A[k] - 500000.0 + (k == 1 ? -7000000.0 : 0.0)) * 0x1p-1000;
        t[1][k] = (B[k] - 500000.0 + (k == 1 ? -7000000.0 : 0.0)) * 0x1p-1000;
        t[2][k] = (D[k] - 500000.0 + (k == 1 ? -7000000.0 : 0.0)) * 0x1p-1000;
        t[3][k] = (E[k] - 500000.0 + (k == 1 ? -7000000.0 : 0.0)) * 0x1p-1000;
    }
    ok(xg_orient3d_filter(t[0], t[1], t[2], t[3]) == XG_UNSURE &&
           xg_orient3d(NULL, t[0], t[1], t[2], t[3]) == XG_ZERO,
       "orient3d: out of the static range the pattern is left unsure, and "
       "the exact stages find the zero");
}

static void known_cases(void)
{
    double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0};
    double below[3] = {0, 0, -1}, above[3] = {0, 0, 1};
    double p[2] = {500000.25, 7000000.5}, r[2] = {500001.25, 7000001.5};
    double s[2] = {500002.25, 7000002.5};
    ok(xg_orient2d(NULL, a, b, c) == XG_POS && xg_orient2d(NULL, a, c, b) ==
           XG_NEG, "orient2d: counter-clockwise is positive");
    ok(xg_orient3d(NULL, a, b, c, below) == XG_POS &&
           xg_orient3d(NULL, a, b, c, above) == XG_NEG,
       "orient3d: positive below a plane seen counter-clockwise from above");
    ok(xg_orient2d(NULL, p, r, s) == XG_ZERO &&
           xg_orient2d_filter(p, r, s) == XG_UNSURE,
       "orient2d: collinear UTM points are zero, and only exactly");
    axis_cases();
}

static void report(struct pred_stats *s, int dim)
{
    int c;
    for (c = 0; c < C_COUNT; c++) {
        char pred[16];
        snprintf(pred, sizeof pred, "orient%dd", dim);
        pred_stats_report(&s[c], pred, cls_name[c]);
    }
    /* Every exactly degenerate case must reach the exact stage (the
     * intervals widen every result, so they can never certify zero), but
     * for the zeros orient2d's static stage proves from two zero products
     * (checked in run2); and random input at unit and UTM scales should
     * almost never need it (tiny and subnormal scales underflow, so there
     * it always may). */
    {
        long z = 0, zf = 0, zp = 0;
        for (c = 0; c < C_COUNT; c++) {
            z += s[c].zeros;
            zf += s[c].zero_failures;
            zp += s[c].zero_proved;
        }
        ok(z > 0 && z == zf + zp && zp > 0,
           "orient%dd: every exactly zero case is a filter failure or "
           "proved from zero differences (%ld zeros, %ld proved)",
           dim, z, zp);
    }
    /* The middle stage settles the exactly degenerate constructions
     * (dyadic, so their differences are exact) without GMP. */
    {
        long mid = 0, ff = 0;
        for (c = 0; c < C_COUNT; c++) {
            mid += s[c].mid_settled;
            ff += s[c].failures;
        }
        ok(mid > 0 && s[C_DEGEN].plain_mid == s[C_DEGEN].plain_failures,
           "orient%dd: the middle stage settles %ld of %ld filter failures, "
           "every exactly degenerate one at unit and UTM scales (%ld)", dim,
           mid, ff, s[C_DEGEN].plain_failures);
    }
    ok(s[C_RANDOM].plain_failures * 100 < s[C_RANDOM].plain_calls,
       "orient%dd: under 1%% filter failures on random unit/UTM input "
       "(%ld of %ld)", dim, s[C_RANDOM].plain_failures,
       s[C_RANDOM].plain_calls);
    ok(s[C_NEAR].zeros < s[C_NEAR].calls,
       "orient%dd: the 1-ulp moves leave the line/plane", dim);
}

int main(void)
{
    const int rounds = 6000;
    int i, c, sc;

    rng_seed_from_env(7000000);
    for (i = 0; i < 12; i++)
        mpq_init(q[i]);
    mpq_inits(t1, t2, det, NULL);
    for (c = 0; c < C_COUNT; c++) {
        pred_stats_init(&st2[c], "orient2d", cls_name[c]);
        pred_stats_init(&st3[c], "orient3d", cls_name[c]);
    }
    for (i = 0; i < rounds; i++)
        for (sc = 0; sc < S_COUNT; sc++) {
            cur_scale = sc;
            gen2(sc);
            gen3(sc);
        }
    report(st2, 2);
    report(st3, 3);
    known_cases();
    for (i = 0; i < 12; i++)
        mpq_clear(q[i]);
    mpq_clears(t1, t2, det, NULL);
    return tap_done(), tap_exit();
}
