/*
 * interval_t.c -- the host interval arithmetic of xg_interval.h encloses
 * the exact result, checked against MPFR on millions of operations: add,
 * sub, diff, mul and div (by the operands' signs), sqr and pow (n = 0..7)
 * on random magnitudes over the whole exponent range, UTM-sized values and
 * their ulp neighbours, cancellation, subnormals, signed zeros, values near
 * overflow, intervals straddling zero, touching zero, and unbounded ones
 * (an infinite bound, as an overflow leaves).
 *
 * The check is exact: for a double r and a real v, r <= v holds exactly
 * when r <= RD53(v), MPFR's rounding of v downward to 53 bits with an
 * unbounded exponent (no overflow, no underflow), and likewise
 * v <= r when RU53(v) <= r.  MPFR's rounded values also keep the sign of
 * v, so the certified signs are checked exactly as well.  Powers are
 * first computed exactly (424 bits hold x^7 of a 53-bit x), which also
 * measures how tight their bounds are.  mul and div are checked to give
 * the bounds of the four-corner hull they replaced, bit for bit.
 */
#include "xg_test.h"
#include "iv_ref.h"

static struct iv_tallies tl;
static struct tally hull_same[2];

/* The old xg_iv_mul / xg_iv_div, the hull of the four corners (each
 * rounded to nearest, the extremes widened by an ulp), which gave up
 * (*gave_up, the whole line) when the sum of the corners was NaN: a
 * corner 0 * inf or inf / inf, or a sum meeting -inf and +inf, even one
 * that overflowed on its own ([-2, 2^1000] / [2^-1000, 2^-1000] summed
 * -2^1001 twice).  The versions by signs must equal it where it did not
 * give up; where it did, they may say more, and the containment check
 * covers them. */
static struct xg_iv hull4(int op, struct xg_iv a, struct xg_iv b,
                          int *gave_up)
{
    double p[4];
    struct xg_iv r;
    int k;
    for (k = 0; k < 4; k++) {
        double x = k & 2 ? a.hi : a.lo, y = k & 1 ? b.hi : b.lo;
        p[k] = op == OP_MUL ? x * y : x / y;
    }
    *gave_up = isnan(p[0] + p[1] + p[2] + p[3]);
    if (*gave_up)
        return xg_iv_whole();
    r.lo = xg__next_down(fmin(fmin(p[0], p[1]), fmin(p[2], p[3])));
    r.hi = xg__next_up(fmax(fmax(p[0], p[1]), fmax(p[2], p[3])));
    return r;
}

static void check_op(int op, int g, struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
    unsigned n = op >= OP_POW0 ? (unsigned)(op - OP_POW0) : 2;
    if (op == OP_DIFF && (isinf(a.lo) || isinf(b.lo)))
        return;                       /* diff takes two finite doubles */
    switch (op) {
    case OP_ADD: r = xg_iv_add(a, b); break;
    case OP_SUB: r = xg_iv_sub(a, b); break;
    case OP_DIFF: r = xg_iv_diff(a.lo, b.lo); break;
    case OP_MUL: r = xg_iv_mul(a, b); break;
    case OP_DIV: r = xg_iv_div(a, b); break;
    case OP_SQR: r = xg_iv_sqr(a); break;
    default: r = xg_iv_pow(a, n); break;
    }
    if (iv_ref_check(&tl, op, g, a, b, r) &&
        (op == OP_MUL || op == OP_DIV)) {
        int gave_up;
        struct xg_iv h = hull4(op, a, b, &gave_up);
        if (!gave_up)
            CHECK(&hull_same[op == OP_DIV],
                  r.lo == h.lo && r.hi == h.hi,
                  "%s [%a,%a] [%a,%a]: [%a,%a], the hull [%a,%a]",
                  op_name[op], a.lo, a.hi, b.lo, b.hi, r.lo, r.hi, h.lo,
                  h.hi);
    }
}

/* Hand-picked cases whose outcome is known: overflow, NaN, zeros. */
static void known_cases(void)
{
    struct xg_iv big = {DBL_MAX, DBL_MAX}, r;
    r = xg_iv_add(big, big);
    ok(r.lo == DBL_MAX && r.hi == HUGE_VAL && xg_iv_sign(r) == XG_POS,
       "DBL_MAX + DBL_MAX encloses 2 DBL_MAX as [DBL_MAX, inf], sign POS");
    r = xg_iv_mul(xg_iv_point(-DBL_MAX), big);
    ok(r.hi == -DBL_MAX && r.lo == -HUGE_VAL && xg_iv_sign(r) == XG_NEG,
       "-DBL_MAX * DBL_MAX is [-inf, -DBL_MAX], sign NEG");
    r = xg_iv_sub(xg_iv_add(big, big), xg_iv_add(big, big));
    ok(xg_iv_sign(r) == XG_UNSURE, "inf - inf after overflow is unsure");
    r = xg_iv_mul(xg_iv_add(big, big), xg_iv_point(0.0));
    ok(xg_iv_sign(r) == XG_UNSURE && r.lo == -HUGE_VAL && r.hi == HUGE_VAL,
       "0 * inf after overflow is the whole line");
    r = xg_iv_mul(xg_iv_point(0x1p-1074), xg_iv_point(0x1p-1074));
    ok(r.lo < 0.0 && r.hi > 0.0 && xg_iv_sign(r) == XG_UNSURE,
       "an underflowing product straddles zero: sign unsure, never ZERO");
    r = xg_iv_diff(0.0, -0.0);
    ok(xg_iv_sign(r) == XG_UNSURE && r.lo < 0.0 && r.hi > 0.0,
       "0 - (-0) is widened to [-tiny, tiny]");
    ok(xg_iv_sign(xg_iv_point(0.0)) == XG_ZERO &&
           xg_iv_sign(xg_iv_point(-0.0)) == XG_ZERO,
       "a point zero (either sign) has sign ZERO");
    r.lo = NAN;
    r.hi = 1.0;
    ok(xg_iv_sign(r) == XG_UNSURE, "a NaN bound makes the sign unsure");
    {
        struct xg_iv x = {-2.0, 3.0}, z = {-0.0, 0.0}, m = {-3.0, -2.0};
        r = xg_iv_sqr(x);
        ok(r.lo == 0.0 && r.hi > 9.0 && r.hi == ulps(9.0, 1),
           "sqr [-2, 3] = [0, 9 + ulp] (x * x would be [-6, 9])");
        r = xg_iv_pow(x, 3);
        ok(r.lo < -8.0 && r.lo >= ulps(-8.0, -3) && r.hi > 27.0 &&
               r.hi <= ulps(27.0, 3),
           "pow [-2, 3]^3 is [-8, 27] widened by 1 to 3 ulps");
        r = xg_iv_pow(m, 4);
        ok(r.lo < 16.0 && r.lo >= ulps(16.0, -3) && r.hi > 81.0 &&
               r.hi <= ulps(81.0, 3),
           "pow [-3, -2]^4 is [16, 81] widened by 1 to 3 ulps");
        r = xg_iv_sqr(z);
        ok(r.lo == 0.0 && r.hi == 0.0 && xg_iv_sign(r) == XG_ZERO,
           "sqr [-0, 0] = [0, 0]: an exact zero is kept");
        r = xg_iv_pow(xg_iv_whole(), 0);
        ok(r.lo == 1.0 && r.hi == 1.0,
           "x^0 = [1, 1], even for the whole line");
        x.lo = -HUGE_VAL;
        r = xg_iv_pow(x, 6);
        ok(r.lo == 0.0 && r.hi == HUGE_VAL, "[-inf, 3]^6 = [0, inf]");
        r = xg_iv_pow(xg_iv_point(0x1p-600), 2);
        ok(r.lo == 0.0 && r.hi == 0x1p-1074,
           "an underflowing square is [0, 2^-1074], never below 0");
        r = xg_iv_div(xg_iv_point(1.0), x);
        ok(r.lo == -HUGE_VAL && r.hi == HUGE_VAL,
           "div by an interval containing 0 is the whole line");
        r.lo = NAN;
        r.hi = 1.0;
        r = xg_iv_mul(r, xg_iv_point(2.0));
        ok(r.lo == -HUGE_VAL && r.hi == HUGE_VAL,
           "mul with a NaN bound is the whole line");
    }
    ok(xg__next_up(-0x1p-1074) == 0.0 && xg__next_up(DBL_MAX) == HUGE_VAL &&
           xg__next_up(-HUGE_VAL) == -DBL_MAX &&
           xg__next_down(0.0) == -0x1p-1074 &&
           xg__next_down(0x1p-1022) == ulps(0x1p-1022, -1),
       "next_up / next_down at the edges of the format");
}

int main(void)
{
    const long rounds = 50000;
    long i;
    int op, g;

    rng_seed_from_env(20240601);
    iv_ref_init();
    iv_tallies_init(&tl, "");
    hull_same[0].what = "mul by signs: the four-corner hull's bounds, bit "
                        "for bit";
    hull_same[1].what = "div by signs: the four-corner hull's bounds, bit "
                        "for bit";

    /* Each round: one pair of intervals per generator, every operation
     * on it, and on it with the operands mixed across generators. */
    for (i = 0; i < rounds; i++)
        for (g = 0; g < GEN_COUNT; g++) {
            struct xg_iv a = draw_iv(g, NULL), b = draw_iv(g, &a);
            struct xg_iv c = draw_iv(rng_int(GEN_COUNT), NULL);
            for (op = 0; op < OP_COUNT; op++) {
                check_op(op, g, a, b);
                if (op != OP_DIFF && op < OP_SQR)
                    check_op(op, g, b, c);
            }
        }

    tally_ok(&hull_same[0]);
    tally_ok(&hull_same[1]);
    {
        long total = iv_tallies_report(&tl, 0);
        ok(total >= 1000000, "%ld operations checked in all", total);
    }
    known_cases();
    iv_ref_free();
    return tap_done(), tap_exit();
}
