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
#include <mpfr.h>
#include "xg_interval.h"
#include "xg_test.h"

enum op { OP_ADD, OP_SUB, OP_DIFF, OP_MUL, OP_DIV, OP_SQR, OP_POW0,
          OP_COUNT = OP_POW0 + 8 };
static const char *const op_name[OP_COUNT] = {
    "add", "sub", "diff", "mul", "div", "sqr", "pow n=0", "pow n=1",
    "pow n=2", "pow n=3", "pow n=4", "pow n=5", "pow n=6", "pow n=7"};

enum gen { GEN_WIDE, GEN_UTM, GEN_CANCEL, GEN_TINY, GEN_HUGE, GEN_ZERO,
           GEN_STRADDLE, GEN_TOUCH, GEN_INF, GEN_COUNT };
static const char *const gen_name[GEN_COUNT] = {
    "full exponent range", "UTM magnitudes", "cancellation",
    "subnormal", "near overflow", "signed zeros", "straddling zero",
    "touching zero", "unbounded"};

static struct tally contain[OP_COUNT], signs[OP_COUNT];
static struct tally hull_same[2], div_zero, sqr_zero, pow_tight;
static long per_gen[GEN_COUNT], per_op[OP_COUNT];
static mpfr_t lo_t, hi_t, x_t, y_t, xl_t, xh_t, w_t;

/* One double from generator g. */
static double draw(int g)
{
    switch (g) {
    case GEN_WIDE:
        return rng_exp(-1074, 1024);
    case GEN_UTM:
        return rng_utm();
    case GEN_TINY:
        return rng_int(3) ? rng_exp(-1074, -1021) : ldexp(rng_int(9) - 4, -1074);
    case GEN_HUGE:
        return rng_int(4) ? rng_exp(1018, 1024)
                          : ulps(rng_u64() & 1 ? DBL_MAX : -DBL_MAX,
                                 rng_u64() & 1 ? -rng_int(3) : rng_int(3));
    case GEN_ZERO:
        switch (rng_int(4)) {
        case 0: return 0.0;
        case 1: return -0.0;
        case 2: return rng_exp(-1074, -1000);
        default: return rng_exp(-60, 60);
        }
    default:
        return rng_exp(-60, 60);
    }
}

/* An interval from generator g: a point, a one-ulp box, or the hull of
 * two draws; GEN_CANCEL makes b nearly a (or -a) so that a - b (a + b)
 * cancels; GEN_STRADDLE puts zero inside. */
static struct xg_iv draw_iv(int g, const struct xg_iv *near)
{
    struct xg_iv r;
    double x, y;
    if (g == GEN_CANCEL && near) {
        double base = rng_u64() & 1 ? near->lo : -near->hi;
        x = ulps(base, rng_int(5) - 2);
        y = rng_int(2) ? x : ulps(x, rng_int(3));
    } else if (g == GEN_STRADDLE) {
        x = -fabs(draw(rng_int(2) ? GEN_WIDE : GEN_UTM));
        y = fabs(draw(rng_int(2) ? GEN_WIDE : GEN_UTM));
    } else if (g == GEN_TOUCH) {
        /* [+-0, y] or [x, +-0] */
        x = rng_u64() & 1 ? 0.0 : -0.0;
        y = fabs(draw(rng_int(3)   ? GEN_WIDE
                      : rng_int(2) ? GEN_TINY
                                   : GEN_HUGE));
        if (rng_u64() & 1) {
            r.lo = -y;
            r.hi = x;
        } else {
            r.lo = x;
            r.hi = y;
        }
        return r;
    } else if (g == GEN_INF) {
        /* one bound (or both) infinite, the other anything finite; or
         * [DBL_MAX, inf], what an overflowing sum leaves */
        x = draw(rng_int(2) ? GEN_WIDE : GEN_HUGE);
        if (isinf(x))
            x = copysign(DBL_MAX, x);
        switch (rng_int(4)) {
        case 0: r.lo = x; r.hi = HUGE_VAL; break;
        case 1: r.lo = -HUGE_VAL; r.hi = x; break;
        case 2: r.lo = -HUGE_VAL; r.hi = HUGE_VAL; break;
        default:
            r.lo = rng_u64() & 1 ? DBL_MAX : -HUGE_VAL;
            r.hi = r.lo > 0 ? HUGE_VAL : -DBL_MAX;
            break;
        }
        return r;
    } else {
        int gg = g == GEN_CANCEL ? GEN_UTM : g;
        x = draw(gg);
        switch (rng_int(3)) {
        case 0: y = x; break;
        case 1: y = ulps(x, 1); break;
        default: y = draw(gg); break;
        }
    }
    if (isinf(x) || isinf(y)) {        /* ulps past DBL_MAX */
        x = copysign(DBL_MAX, x);
        y = copysign(DBL_MAX, y);
    }
    r.lo = x < y ? x : y;
    r.hi = x < y ? y : x;
    return r;
}

/* Sets lo_t / hi_t to RD / RU of the extremes of the exact op on the
 * corners of a, b; returns 0 when op is div and b holds 0.  An infinite
 * bound stands for values beyond every double: a corner 0 * inf is 0,
 * and a corner inf / inf is never an extreme (the extremes divide the
 * largest magnitude by the smallest or the smallest by the largest), so
 * it is left out. */
static int exact_hull(int op, struct xg_iv a, struct xg_iv b)
{
    double ac[2] = {a.lo, a.hi}, bc[2] = {b.lo, b.hi};
    int i, j, first = 1;
    if (op == OP_DIV && !(b.lo > 0.0 || b.hi < 0.0))
        return 0;
    if (op == OP_ADD || op == OP_SUB || op == OP_DIFF) {
        /* add: [a.lo + b.lo, a.hi + b.hi]; sub: [a.lo - b.hi, a.hi - b.lo];
         * diff takes points (a.lo, b.lo). */
        double bl = op == OP_ADD ? b.lo : b.hi, bh = op == OP_ADD ? b.hi : b.lo;
        if (op == OP_DIFF)
            bl = bh = b.lo;
        mpfr_set_d(x_t, a.lo, MPFR_RNDN);
        mpfr_set_d(y_t, bl, MPFR_RNDN);
        if (op == OP_ADD)
            mpfr_add(lo_t, x_t, y_t, MPFR_RNDD);
        else
            mpfr_sub(lo_t, x_t, y_t, MPFR_RNDD);
        mpfr_set_d(x_t, op == OP_DIFF ? a.lo : a.hi, MPFR_RNDN);
        mpfr_set_d(y_t, bh, MPFR_RNDN);
        if (op == OP_ADD)
            mpfr_add(hi_t, x_t, y_t, MPFR_RNDU);
        else
            mpfr_sub(hi_t, x_t, y_t, MPFR_RNDU);
        return 1;
    }
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            mpfr_t l, h;
            mpfr_inits2(53, l, h, (mpfr_ptr)0);
            mpfr_set_d(x_t, ac[i], MPFR_RNDN);
            mpfr_set_d(y_t, bc[j], MPFR_RNDN);
            if (op == OP_MUL) {
                mpfr_mul(l, x_t, y_t, MPFR_RNDD);
                mpfr_mul(h, x_t, y_t, MPFR_RNDU);
                if (mpfr_nan_p(l)) {            /* 0 * inf */
                    mpfr_set_zero(l, 1);
                    mpfr_set_zero(h, 1);
                }
            } else {
                mpfr_div(l, x_t, y_t, MPFR_RNDD);
                mpfr_div(h, x_t, y_t, MPFR_RNDU);
            }
            if (!mpfr_nan_p(l)) {
                if (first || mpfr_less_p(l, lo_t))
                    mpfr_set(lo_t, l, MPFR_RNDN);
                if (first || mpfr_greater_p(h, hi_t))
                    mpfr_set(hi_t, h, MPFR_RNDN);
                first = 0;
            }
            mpfr_clears(l, h, (mpfr_ptr)0);
        }
    return 1;
}

/* The exact range of x^n over a, at 424 bits (x^7 of a 53-bit x is
 * exact): xl_t, xh_t; lo_t, hi_t their RD / RU to 53 bits. */
static void exact_pow(struct xg_iv a, unsigned n)
{
    int even = n % 2 == 0;
    mpfr_set_d(x_t, a.lo, MPFR_RNDN);
    mpfr_set_d(y_t, a.hi, MPFR_RNDN);
    mpfr_pow_ui(xl_t, x_t, n, MPFR_RNDN);    /* exact */
    mpfr_pow_ui(xh_t, y_t, n, MPFR_RNDN);
    if (even && a.hi <= 0.0)                  /* x^n falls over a */
        mpfr_swap(xl_t, xh_t);
    else if (even && a.lo < 0.0) {            /* straddles: 0 inside */
        if (mpfr_greater_p(xl_t, xh_t))
            mpfr_swap(xl_t, xh_t);
        mpfr_set_zero(xl_t, 1);
    }
    if (n == 0) {
        mpfr_set_ui(xl_t, 1, MPFR_RNDN);
        mpfr_set_ui(xh_t, 1, MPFR_RNDN);
    }
    mpfr_set(lo_t, xl_t, MPFR_RNDD);
    mpfr_set(hi_t, xh_t, MPFR_RNDU);
}

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

/* Is the double r within (n - 1) 1.5 2^-52 |v| of v (v = xl_t or xh_t),
 * with a hair of slack for the second-order terms?  Where nothing
 * underflows or overflows, each of the at most n - 1 steps of a power
 * is off by at most 1.5 ulp of its result (rounding, then the widening),
 * at most 1.5 2^-52 of it, and an error in x^k reaches x^n k times over:
 * the relative errors add up to (n - 1) 1.5 2^-52.  x^1 is exact. */
static int near_pow(double r, mpfr_t v, unsigned n)
{
    mpfr_set_d(w_t, r, MPFR_RNDN);
    mpfr_sub(w_t, w_t, v, MPFR_RNDN);         /* exact at 2200 bits */
    mpfr_abs(w_t, w_t, MPFR_RNDN);
    if (n == 1)
        return mpfr_zero_p(w_t);
    mpfr_mul_2si(w_t, w_t, 53, MPFR_RNDN);
    mpfr_div_ui(w_t, w_t, 3 * (n - 1), MPFR_RNDU);
    mpfr_mul_d(w_t, w_t, 1.0 - 0x1p-40, MPFR_RNDD);
    return mpfr_cmpabs(w_t, v) <= 0;
}

static int normal_d(double x)
{
    return fabs(x) >= DBL_MIN && fabs(x) <= DBL_MAX / 4;
}

static void check_op(int op, int g, struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
    int s, unsure_nan;
    unsigned n = op >= OP_POW0 ? (unsigned)(op - OP_POW0) : 2;
    if (op == OP_DIFF && (isinf(a.lo) || isinf(b.lo)))
        return;                       /* diff takes two finite doubles */
    if (op == OP_DIV && !(b.lo > 0.0 || b.hi < 0.0)) {
        r = xg_iv_div(a, b);
        CHECK(&div_zero, r.lo == -HUGE_VAL && r.hi == HUGE_VAL,
              "[%a,%a] / [%a,%a] -> [%a,%a]", a.lo, a.hi, b.lo, b.hi, r.lo,
              r.hi);
        per_op[op]++;
        per_gen[g]++;
        return;
    }
    if (op >= OP_SQR)
        exact_pow(a, n);
    else
        exact_hull(op, a, b);
    switch (op) {
    case OP_ADD: r = xg_iv_add(a, b); break;
    case OP_SUB: r = xg_iv_sub(a, b); break;
    case OP_DIFF: r = xg_iv_diff(a.lo, b.lo); break;
    case OP_MUL: r = xg_iv_mul(a, b); break;
    case OP_DIV: r = xg_iv_div(a, b); break;
    case OP_SQR: r = xg_iv_sqr(a); break;
    default: r = xg_iv_pow(a, n); break;
    }
    s = xg_iv_sign(r);
    per_gen[g]++;
    per_op[op]++;
    /* A NaN bound is allowed only as "no information": sign unsure. */
    unsure_nan = (isnan(r.lo) || isnan(r.hi)) && s == XG_UNSURE;
    CHECK(&contain[op],
          unsure_nan || (mpfr_cmp_d(lo_t, r.lo) >= 0 &&
                         mpfr_cmp_d(hi_t, r.hi) <= 0 && r.lo <= r.hi),
          "%s (%s) [%a,%a] [%a,%a] -> [%a,%a] misses the exact hull",
          op_name[op], gen_name[g], a.lo, a.hi, b.lo, b.hi, r.lo, r.hi);
    if (s == XG_POS)
        CHECK(&signs[op], mpfr_sgn(lo_t) > 0, "%s (%s): POS is wrong for "
              "[%a,%a] [%a,%a]", op_name[op], gen_name[g], a.lo, a.hi, b.lo,
              b.hi);
    else if (s == XG_NEG)
        CHECK(&signs[op], mpfr_sgn(hi_t) < 0, "%s (%s): NEG is wrong for "
              "[%a,%a] [%a,%a]", op_name[op], gen_name[g], a.lo, a.hi, b.lo,
              b.hi);
    else if (s == XG_ZERO)
        CHECK(&signs[op], mpfr_zero_p(lo_t) && mpfr_zero_p(hi_t),
              "%s (%s): ZERO is wrong for [%a,%a] [%a,%a]", op_name[op],
              gen_name[g], a.lo, a.hi, b.lo, b.hi);
    else
        CHECK(&signs[op], s == XG_UNSURE, "%s: sign %d", op_name[op], s);

    if (op == OP_MUL || op == OP_DIV) {
        int gave_up;
        struct xg_iv h = hull4(op, a, b, &gave_up);
        if (!gave_up)
            CHECK(&hull_same[op == OP_DIV],
                  r.lo == h.lo && r.hi == h.hi,
                  "%s [%a,%a] [%a,%a]: [%a,%a], the hull [%a,%a]",
                  op_name[op], a.lo, a.hi, b.lo, b.hi, r.lo, r.hi, h.lo,
                  h.hi);
    }
    if (op >= OP_SQR && n % 2 == 0 && n > 0 && a.lo <= 0.0 && a.hi >= 0.0)
        CHECK(&sqr_zero, r.lo == 0.0, "%s of [%a,%a] is [%a,%a]",
              op_name[op], a.lo, a.hi, r.lo, r.hi);
    if (op >= OP_SQR && n > 0) {
        /* tight where nothing underflows or overflows: the bounds from
         * the ends of a, unless they are the exact 0 of a straddle */
        int lo_from = !mpfr_zero_p(xl_t), ok_lo, ok_hi;
        ok_lo = !lo_from || !normal_d(a.lo) || !normal_d(a.hi) ||
                !normal_d(r.lo) || near_pow(r.lo, xl_t, n);
        ok_hi = !normal_d(a.lo) || !normal_d(a.hi) || !normal_d(r.hi) ||
                near_pow(r.hi, xh_t, n);
        CHECK(&pow_tight, ok_lo && ok_hi,
              "%s of [%a,%a] is [%a,%a]: looser than (n-1) 1.5 ulp",
              op_name[op], a.lo, a.hi, r.lo, r.hi);
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
    static char cname[OP_COUNT][64], sname[OP_COUNT][64];

    rng_seed_from_env(20240601);
    mpfr_inits2(53, lo_t, hi_t, x_t, y_t, (mpfr_ptr)0);
    mpfr_inits2(424, xl_t, xh_t, (mpfr_ptr)0);
    mpfr_init2(w_t, 2200);
    for (op = 0; op < OP_COUNT; op++) {
        snprintf(cname[op], sizeof cname[op], "%s encloses the exact result",
                 op_name[op]);
        snprintf(sname[op], sizeof sname[op], "%s: certified signs are exact",
                 op_name[op]);
        contain[op].what = cname[op];
        signs[op].what = sname[op];
    }
    hull_same[0].what = "mul by signs: the four-corner hull's bounds, bit "
                        "for bit";
    hull_same[1].what = "div by signs: the four-corner hull's bounds, bit "
                        "for bit";
    div_zero.what = "div by an interval containing 0: the whole line";
    sqr_zero.what = "sqr, even pow of an interval containing 0 start at 0";
    pow_tight.what = "sqr, pow within (n-1) 1.5 2^-52 of the exact "
                     "bounds (normal range)";

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

    for (op = 0; op < OP_COUNT; op++)
        tally_ok(&contain[op]);
    for (op = 0; op < OP_COUNT; op++)
        tally_ok(&signs[op]);
    tally_ok(&hull_same[0]);
    tally_ok(&hull_same[1]);
    tally_ok(&div_zero);
    tally_ok(&sqr_zero);
    tally_ok(&pow_tight);
    {
        long total = 0;
        for (g = 0; g < GEN_COUNT; g++) {
            printf("# %s: %ld operations\n", gen_name[g], per_gen[g]);
            total += per_gen[g];
        }
        for (op = 0; op < OP_COUNT; op++)
            printf("# %s: %ld operations\n", op_name[op], per_op[op]);
        ok(total >= 1000000, "%ld operations checked in all", total);
    }
    known_cases();
    mpfr_clears(lo_t, hi_t, x_t, y_t, xl_t, xh_t, w_t, (mpfr_ptr)0);
    mpfr_free_cache();
    return tap_done(), tap_exit();
}
