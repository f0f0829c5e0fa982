/*
 * incircle_t.c -- xg_incircle and its stages against an independent
 * reference: the lifted 4x4 determinant in GMP rationals (pred_ref.h),
 * sharing no code with src/.
 *
 * Inputs, at unit, UTM, tiny, subnormal, huge and mixed scales: random
 * points; exactly cocircular ones (the corners of rectangles of rotated
 * lattices, points of a circle with rational Pythagorean coordinates),
 * the same with one point moved by one ulp off the circle; points rounded
 * onto a circle (the sign genuinely hard); four points of a rotated
 * lattice (cocircular and collinear often).  Checked: the predicate, the
 * GMP stage and the filter's certified sign all equal the reference; the
 * filter's interval encloses the exact determinant; the counters count
 * what happened; the determinant's symmetries (a cyclic turn of a, b, c
 * keeps the sign, swapping two of the four points flips it); and the
 * middle stage settles every exactly cocircular and lattice case at unit
 * and UTM scales without GMP.
 */
#include <gmp.h>
#include "exactgeo.h"
#include "xg_filter_orient.h"
#include "xg_test.h"
#include "pred_ref.h"

static mpq_t det;

enum cls { C_RANDOM, C_COCIRC, C_NEAR, C_ROUNDED, C_LATTICE, C_COUNT };
static const char *const cls_name[C_COUNT] = {
    "random", "exactly cocircular", "cocircular moved by 1 ulp",
    "rounded onto a circle", "rotated lattice"};

static int cur_scale;
static struct pred_stats st[C_COUNT];

/* ---- one evaluation, all checks ---- */

#define PTS "(%a,%a) (%a,%a) (%a,%a) (%a,%a)"
#define PTV(a, b, c, d) a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]

/* expect_zero: 1 built cocircular, 0 built off the circle, -1 unknown */
static void run(int c, const double *a, const double *b, const double *cc,
                const double *d, int expect_zero)
{
    struct pred_stats *s = &st[c];
    struct xg_counters k = {0};
    int ref = ref_incircle(det, a, b, cc, d);
    int f = xg_incircle_filter(a, b, cc, d);
    int p = xg_incircle(&k, a, b, cc, d);
    struct xg_iv iv = xg_incircle_iv(a, b, cc, d);

    CHECK(&s->encl, ref_encloses(iv, det), "[%a,%a] at " PTS, iv.lo, iv.hi,
          PTV(a, b, cc, d));
    CHECK(&s->pred, p == ref, "got %d, exact %d at " PTS, p, ref,
          PTV(a, b, cc, d));
    CHECK(&s->exact, xg_incircle_exact(a, b, cc, d) == ref,
          "GMP stage wrong at " PTS, PTV(a, b, cc, d));
    CHECK(&s->filt, f == XG_UNSURE || f == ref,
          "filter says %d, exact %d at " PTS, f, ref, PTV(a, b, cc, d));
    /* The 4x4 determinant is alternating in its rows: a cyclic turn of
     * a, b, c keeps the sign, a swap of any two points flips it (the
     * swap with d changes the point the differences are taken to). */
    CHECK(&s->sym, xg_incircle(NULL, b, cc, a, d) == ref &&
                       xg_incircle(NULL, b, a, cc, d) == -ref &&
                       xg_incircle(NULL, d, b, cc, a) == -ref,
          "permutations disagree at " PTS, PTV(a, b, cc, d));
    if (expect_zero >= 0)
        CHECK(&s->constr, (ref == 0) == expect_zero,
              "built %s but the reference says %d at " PTS,
              expect_zero ? "cocircular" : "off the circle", ref,
              PTV(a, b, cc, d));
    pred_stats_count(s, f, ref, &k,
                     cur_scale == S_UNIT || cur_scale == S_UTM);
}

/* ---- generators ---- */

/* The points of the circle x^2 + y^2 = 65^2 with integer coordinates
 * (65 = 5 * 13 has four representations as a sum of two squares): the
 * first quadrant's, from which signs and swaps make the other 32. */
static const int pyth65[5][2] = {{0, 65}, {16, 63}, {25, 60}, {33, 56},
                                 {39, 52}};

static void circle_point(double *p, const double *o, double t)
{
    const int *q = pyth65[rng_int(5)];
    int x = q[0], y = q[1], sw;
    if (rng_int(2)) {
        sw = x;
        x = y;
        y = sw;
    }
    p[0] = o[0] + (rng_int(2) ? x : -x) * t;
    p[1] = o[1] + (rng_int(2) ? y : -y) * t;
}

static int same(const double *p, const double *q)
{
    return p[0] == q[0] && p[1] == q[1];
}

/* p moved by one ulp along the axis where it is farthest from o, the
 * circle's centre: off the circle (the square of the distance changes
 * by 2 e (p - o) + e^2 with e far below |p - o| at every scale but the
 * subnormal one, where expect says -1: unknown). */
static void nudge(int c, double *p, const double *o, int sc,
                  const double *a, const double *b, const double *cc)
{
    int ax = fabs(p[0] - o[0]) >= fabs(p[1] - o[1]) ? 0 : 1;
    double save = p[ax];
    p[ax] = ulps(p[ax], rng_int(2) ? 1 : -1);
    run(c, a, b, cc, p, sc == S_SUBNORMAL ? -1 : 0);
    p[ax] = save;
}

static void gen(int sc)
{
    double a[2], b[2], c[2], d[2], o[2], u[2], v[2], q = scale_quantum(sc);
    double *pts[4] = {a, b, c, d}, *t;
    int i, j, i1, i2, j1, j2;

    for (i = 0; i < 2; i++) {
        a[i] = rng_coord(sc);
        b[i] = rng_coord(sc);
        c[i] = rng_coord(sc);
        d[i] = rng_coord(sc);
    }
    run(C_RANDOM, a, b, c, d, -1);

    /* a rectangle of the lattice o + i u + j v, v = u turned by 90
     * degrees: its corners are cocircular, in any order */
    o[0] = rng_base(sc);
    o[1] = rng_base(sc);
    do {
        u[0] = (rng_int(17) - 8) * q;
        u[1] = (rng_int(17) - 8) * q;
    } while (u[0] == 0.0 && u[1] == 0.0);
    v[0] = -u[1];
    v[1] = u[0];
    i1 = rng_int(9) - 4;
    j1 = rng_int(9) - 4;
    i2 = i1 + 1 + rng_int(4);
    j2 = j1 + 1 + rng_int(4);
    for (i = 0; i < 2; i++) {
        a[i] = o[i] + i1 * u[i] + j1 * v[i];
        b[i] = o[i] + i2 * u[i] + j1 * v[i];
        c[i] = o[i] + i2 * u[i] + j2 * v[i];
        d[i] = o[i] + i1 * u[i] + j2 * v[i];
    }
    for (i = 3; i > 0; i--) {           /* any order */
        j = rng_int(i + 1);
        t = pts[i];
        pts[i] = pts[j];
        pts[j] = t;
    }
    run(C_COCIRC, pts[0], pts[1], pts[2], pts[3], 1);
    {
        /* the centre, o + ((i1 + i2) u + (j1 + j2) v) / 2: only nudge
         * reads it, to pick the axis */
        double ctr[2];
        for (i = 0; i < 2; i++)
            ctr[i] = o[i] + 0.5 * ((i1 + i2) * u[i] + (j1 + j2) * v[i]);
        nudge(C_NEAR, pts[3], ctr, sc, pts[0], pts[1], pts[2]);
    }

    /* four distinct points of a circle of radius 65 t around o */
    {
        double t65 = (1 + rng_int(4)) * q;
        circle_point(a, o, t65);
        do
            circle_point(b, o, t65);
        while (same(b, a));
        do
            circle_point(c, o, t65);
        while (same(c, a) || same(c, b));
        do
            circle_point(d, o, t65);
        while (same(d, a) || same(d, b) || same(d, c));
        run(C_COCIRC, a, b, c, d, 1);
        nudge(C_NEAR, d, o, sc, a, b, c);
    }

    /* rounded onto a circle: cos and sin of random angles, rounded */
    {
        double r = fabs(rng_coord(sc));
        if (r == 0.0)
            r = q;
        o[0] = rng_coord(sc);
        o[1] = rng_coord(sc);
        for (i = 0; i < 4; i++) {
            double th = 6.283185307179586 * rng_unit();
            pts[i][0] = o[0] + r * cos(th);
            pts[i][1] = o[1] + r * sin(th);
        }
        run(C_ROUNDED, pts[0], pts[1], pts[2], pts[3], -1);
    }

    /* four points of the rotated lattice g + i u + j v: often
     * cocircular, collinear or repeated */
    {
        double g[2];
        g[0] = rng_base(sc);
        g[1] = rng_base(sc);
        for (i = 0; i < 4; i++) {
            int ii = rng_int(5) - 2, jj = rng_int(5) - 2;
            for (j = 0; j < 2; j++)
                pts[i][j] = g[j] + ii * u[j] + jj * v[j];
        }
        run(C_LATTICE, pts[0], pts[1], pts[2], pts[3], -1);
    }
}

/* The stages in doubles answer only when every coordinate difference is
 * 0 or within [2^-200, 2^200] (src/orient.c): differences just inside
 * and just outside those bounds, random and exactly cocircular (a square
 * of side 2^e around d), at d = 0 and at UTM magnitudes; the filter's
 * certified sign and xg_incircle equal the GMP reference. */
static void range_guards(void)
{
    static const int ex[] = {-203, -201, -200, -199, -150, 0,
                             150, 199, 200, 201, 203};
    int ne = (int)(sizeof ex / sizeof ex[0]), i, k, bad = 0, n = 0;
    for (i = 0; i < 4000; i++) {
        int e = ex[rng_int(ne)];
        double o[2] = {0.0, 0.0}, p[4][2];
        if (i % 2 && e <= -150)
            o[0] = 500000.25, o[1] = 7000000.5; /* differences round away */
        for (k = 0; k < 4; k++) {
            if (i % 3 == 0) {
                /* exactly cocircular: the corners of a square */
                p[k][0] = o[0] + ldexp((k == 1 || k == 2) ? 1.0 : -1.0, e);
                p[k][1] = o[1] + ldexp(k >= 2 ? 1.0 : -1.0, e);
            } else {
                p[k][0] = o[0] + ldexp(rng_unit() * 2 - 1, e);
                p[k][1] = o[1] + ldexp(rng_unit() * 2 - 1, e + rng_int(3) - 1);
            }
        }
        {
            int ref = ref_incircle(det, p[0], p[1], p[2], p[3]);
            int f = xg_incircle_filter(p[0], p[1], p[2], p[3]);
            int x = xg_incircle(NULL, p[0], p[1], p[2], p[3]);
            n++;
            if (!((f == XG_UNSURE || f == ref) && x == ref)) {
                if (bad++ < 5)
                    printf("# range guard: e %d, filter %d, incircle %d, "
                           "exact %d\n", e, f, x, ref);
            }
        }
    }
    ok(bad == 0, "differences around 2^-200 and 2^200 (the stages in "
       "doubles' guards), random and cocircular: %d cases, %d wrong", n,
       bad);
}

static void known_cases(void)
{
    double a[2] = {1, 0}, b[2] = {0, 1}, c[2] = {-1, 0};
    double in[2] = {0, 0}, out[2] = {2, 0}, on[2] = {0, -1};
    double p[2] = {500000.25, 7000000.5}, r[2] = {500001.25, 7000000.5};
    double s[2] = {500001.25, 7000001.5}, w[2] = {500000.25, 7000001.5};
    struct xg_counters k = {0};
    ok(xg_incircle(NULL, a, b, c, in) == XG_POS &&
           xg_incircle(NULL, a, b, c, out) == XG_NEG &&
           xg_incircle(NULL, a, b, c, on) == XG_ZERO &&
           xg_incircle(NULL, c, b, a, in) == XG_NEG,
       "incircle: positive inside a counter-clockwise circle, negative "
       "outside, zero on it, reversed clockwise");
    ok(xg_incircle(&k, p, r, s, w) == XG_ZERO &&
           xg_incircle_filter(p, r, s, w) == XG_UNSURE &&
           k.filter_failures == 1 && k.exact_evals == 0,
       "incircle: a unit square at UTM coordinates is cocircular, decided "
       "by the middle stage, not GMP");
}

static void report(void)
{
    long z = 0, zf = 0, mid = 0, ff = 0;
    int c;
    for (c = 0; c < C_COUNT; c++) {
        struct pred_stats *s = &st[c];
        pred_stats_report(s, "incircle", cls_name[c]);
        z += s->zeros;
        zf += s->zero_failures;
        mid += s->mid_settled;
        ff += s->failures;
    }
    /* The host filter widens every result, so it can never certify an
     * exact zero. */
    ok(z > 0 && z == zf,
       "incircle: every exactly zero case is a filter failure (%ld)", z);
    ok(st[C_COCIRC].plain_failures == st[C_COCIRC].plain_calls &&
           st[C_COCIRC].plain_mid == st[C_COCIRC].plain_failures &&
           st[C_LATTICE].plain_mid == st[C_LATTICE].plain_failures,
       "incircle: the middle stage settles %ld of %ld filter failures, "
       "every exactly cocircular (%ld) and lattice (%ld) one at unit and "
       "UTM scales", mid, ff, st[C_COCIRC].plain_failures,
       st[C_LATTICE].plain_failures);
    ok(st[C_RANDOM].plain_failures * 100 < st[C_RANDOM].plain_calls,
       "incircle: under 1%% filter failures on random unit/UTM input "
       "(%ld of %ld)", st[C_RANDOM].plain_failures,
       st[C_RANDOM].plain_calls);
    ok(st[C_NEAR].zeros < st[C_NEAR].calls,
       "incircle: the 1-ulp moves leave the circle");
}

int main(void)
{
    const int rounds = 3000;
    int i, c, sc;

    rng_seed_from_env(65);
    mpq_init(det);
    for (c = 0; c < C_COUNT; c++)
        pred_stats_init(&st[c], "incircle", cls_name[c]);
    for (i = 0; i < rounds; i++)
        for (sc = 0; sc < S_COUNT; sc++) {
            cur_scale = sc;
            gen(sc);
        }
    report();
    known_cases();
    range_guards();
    mpq_clear(det);
    return tap_done(), tap_exit();
}
