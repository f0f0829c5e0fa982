/*
 * interval_t.c -- the host interval arithmetic of xg_interval.h encloses
 * the exact result, checked against MPFR with directed rounding on over
 * a million operations: random magnitudes over the whole exponent range,
 * UTM-sized values and their ulp neighbours, cancellation, subnormals,
 * signed zeros, values near overflow, intervals straddling zero.
 *
 * The check is exact: for a double r and a real v, r <= v holds exactly
 * when r <= RD53(v), MPFR's rounding of v downward to 53 bits with an
 * unbounded exponent (no overflow, no underflow), and likewise
 * v <= r when RU53(v) <= r.  MPFR's rounded values also keep the sign of
 * v, so the certified signs are checked exactly as well.
 */
#include <mpfr.h>
#include "xg_interval.h"
#include "xg_test.h"

enum op { OP_ADD, OP_SUB, OP_DIFF, OP_MUL, OP_DIV, OP_COUNT };
static const char *const op_name[OP_COUNT] = {"add", "sub", "diff", "mul",
                                              "div"};

enum gen { GEN_WIDE, GEN_UTM, GEN_CANCEL, GEN_TINY, GEN_HUGE, GEN_ZERO,
           GEN_STRADDLE, GEN_COUNT };
static const char *const gen_name[GEN_COUNT] = {
    "full exponent range", "UTM magnitudes", "cancellation",
    "subnormal", "near overflow", "signed zeros", "straddling zero"};

static struct tally contain[OP_COUNT], signs[OP_COUNT];
static long per_gen[GEN_COUNT];
static mpfr_t lo_t, hi_t, x_t, y_t;

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

/* Sets lo_t / hi_t to RD / RU of the exact op on the corners of a, b
 * (the extreme corner values); returns 0 when op is div and b holds 0. */
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
            } else {
                mpfr_div(l, x_t, y_t, MPFR_RNDD);
                mpfr_div(h, x_t, y_t, MPFR_RNDU);
            }
            if (first || mpfr_less_p(l, lo_t))
                mpfr_set(lo_t, l, MPFR_RNDN);
            if (first || mpfr_greater_p(h, hi_t))
                mpfr_set(hi_t, h, MPFR_RNDN);
            first = 0;
            mpfr_clears(l, h, (mpfr_ptr)0);
        }
    return 1;
}

static void check_op(int op, int g, struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
    int s, unsure_nan;
    if (!exact_hull(op, a, b))
        return;
    switch (op) {
    case OP_ADD: r = xg_iv_add(a, b); break;
    case OP_SUB: r = xg_iv_sub(a, b); break;
    case OP_DIFF: r = xg_iv_diff(a.lo, b.lo); break;
    case OP_MUL: r = xg_iv_mul(a, b); break;
    default: r = xg_iv_div(a, b); break;
    }
    s = xg_iv_sign(r);
    per_gen[g]++;
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
    mpfr_inits2(53, lo_t, hi_t, x_t, y_t, (mpfr_ptr)0);
    for (op = 0; op < OP_COUNT; op++) {
        contain[op].what = op_name[op];
        signs[op].what = op_name[op];
    }
    static char cname[OP_COUNT][64], sname[OP_COUNT][64];
    for (op = 0; op < OP_COUNT; op++) {
        snprintf(cname[op], sizeof cname[op], "%s encloses the exact result",
                 op_name[op]);
        snprintf(sname[op], sizeof sname[op], "%s: certified signs are exact",
                 op_name[op]);
        contain[op].what = cname[op];
        signs[op].what = sname[op];
    }

    /* Each round: one pair of intervals per generator, every operation
     * on it, and on it with the operands mixed across generators. */
    for (i = 0; i < rounds; i++)
        for (g = 0; g < GEN_COUNT; g++) {
            struct xg_iv a = draw_iv(g, NULL), b = draw_iv(g, &a);
            struct xg_iv c = draw_iv(rng_int(GEN_COUNT), NULL);
            for (op = 0; op < OP_COUNT; op++) {
                check_op(op, g, a, b);
                if (op != OP_DIFF)
                    check_op(op, g, b, c);
            }
        }

    for (op = 0; op < OP_COUNT; op++)
        tally_ok(&contain[op]);
    for (op = 0; op < OP_COUNT; op++)
        tally_ok(&signs[op]);
    {
        long total = 0;
        for (g = 0; g < GEN_COUNT; g++) {
            printf("# %s: %ld operations\n", gen_name[g], per_gen[g]);
            total += per_gen[g];
        }
        ok(total >= 1000000, "%ld operations checked in all", total);
    }
    known_cases();
    mpfr_clears(lo_t, hi_t, x_t, y_t, (mpfr_ptr)0);
    mpfr_free_cache();
    return tap_done(), tap_exit();
}
