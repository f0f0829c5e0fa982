/*
 * iv_ref.h -- what the interval tests share (interval_t on the host,
 * gpu_iv_t on the device): the generators of awkward intervals and the
 * MPFR reference, exact: lo_t / hi_t are RD / RU to 53 bits (with an
 * unbounded exponent) of the exact extremes, so that r <= lo_t exactly
 * when r is below the exact value, and xl_t / xh_t the exact extremes of
 * a power.  Include after xg_test.h; call iv_ref_init() first.
 */
#ifndef XG_IV_REF_H
#define XG_IV_REF_H

#include <mpfr.h>
#include "xg_interval.h"

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

static mpfr_t lo_t, hi_t, x_t, y_t, xl_t, xh_t, w_t;

static inline void iv_ref_init(void)
{
    mpfr_inits2(53, lo_t, hi_t, x_t, y_t, (mpfr_ptr)0);
    mpfr_inits2(424, xl_t, xh_t, (mpfr_ptr)0);
    mpfr_init2(w_t, 2200);
}

static inline void iv_ref_free(void)
{
    mpfr_clears(lo_t, hi_t, x_t, y_t, xl_t, xh_t, w_t, (mpfr_ptr)0);
    mpfr_free_cache();
}

/* One double from generator g. */
static inline double draw(int g)
{
    switch (g) {
    case GEN_WIDE:
        return rng_exp(-1074, 1024);
    case GEN_UTM:
        return rng_utm();
    case GEN_TINY:
        return rng_int(3) ? rng_exp(-1074, -1021)
                          : ldexp(rng_int(9) - 4, -1074);
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
static inline struct xg_iv draw_iv(int g, const struct xg_iv *near)
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
static inline int exact_hull(int op, struct xg_iv a, struct xg_iv b)
{
    double ac[2] = {a.lo, a.hi}, bc[2] = {b.lo, b.hi};
    int i, j, first = 1;
    if (op == OP_DIV && !(b.lo > 0.0 || b.hi < 0.0))
        return 0;
    if (op == OP_ADD || op == OP_SUB || op == OP_DIFF) {
        /* add: [a.lo + b.lo, a.hi + b.hi]; sub: [a.lo - b.hi, a.hi - b.lo];
         * diff takes points (a.lo, b.lo). */
        double bl = op == OP_ADD ? b.lo : b.hi;
        double bh = op == OP_ADD ? b.hi : b.lo;
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
static inline void exact_pow(struct xg_iv a, unsigned n)
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

/* Is the double r within (n - 1) 1.5 2^-52 |v| of v (v = xl_t or xh_t),
 * with a hair of slack for the second-order terms?  Where nothing
 * underflows or overflows, each of the at most n - 1 steps of a power
 * is off by at most 1.5 ulp of its result (rounding, then the widening),
 * at most 1.5 2^-52 of it, and an error in x^k reaches x^n k times over:
 * the relative errors add up to (n - 1) 1.5 2^-52.  x^1 is exact. */
static inline int near_pow(double r, mpfr_t v, unsigned n)
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

static inline int normal_d(double x)
{
    return fabs(x) >= DBL_MIN && fabs(x) <= DBL_MAX / 4;
}

/* Does r enclose the exact [lo_t, hi_t]?  A NaN bound is allowed only
 * as "no information": the sign unsure. */
static inline int iv_ref_encloses(struct xg_iv r)
{
    if (isnan(r.lo) || isnan(r.hi))
        return xg_iv_sign(r) == XG_UNSURE;
    return mpfr_cmp_d(lo_t, r.lo) >= 0 && mpfr_cmp_d(hi_t, r.hi) <= 0 &&
           r.lo <= r.hi;
}

/* Is the sign r certifies, if any, that of every value in [lo_t, hi_t]? */
static inline int iv_ref_sign_ok(struct xg_iv r)
{
    switch (xg_iv_sign(r)) {
    case XG_POS: return mpfr_sgn(lo_t) > 0;
    case XG_NEG: return mpfr_sgn(hi_t) < 0;
    case XG_ZERO: return mpfr_zero_p(lo_t) && mpfr_zero_p(hi_t);
    default: return xg_iv_sign(r) == XG_UNSURE;
    }
}

/* r = a^n after exact_pow(a, n): is it within near_pow's bound where
 * nothing underflows or overflows (and [1, 1] for n = 0)?  *zero_ok:
 * does it start at 0 where n is even and a contains 0? */
static inline int iv_ref_pow_ok(struct xg_iv a, struct xg_iv r, unsigned n,
                                int *zero_ok)
{
    int lo_from = !mpfr_zero_p(xl_t);
    *zero_ok = n == 0 || n % 2 || !(a.lo <= 0.0 && a.hi >= 0.0) ||
               r.lo == 0.0;
    if (n == 0)
        return r.lo == 1.0 && r.hi == 1.0;
    if (!normal_d(a.lo) || !normal_d(a.hi))
        return 1;
    return (!lo_from || !normal_d(r.lo) || near_pow(r.lo, xl_t, n)) &&
           (!normal_d(r.hi) || near_pow(r.hi, xh_t, n));
}

/* The checks every interval test makes, per operation, and its counts. */
struct iv_tallies {
    struct tally contain[OP_COUNT], signs[OP_COUNT];
    struct tally div_zero, pow_zero, pow_tight;
    long per_op[OP_COUNT], per_gen[GEN_COUNT];
    char names[2][OP_COUNT][64];
};

/* Names the tallies, each after who ("" or "device "). */
static inline void iv_tallies_init(struct iv_tallies *t, const char *who)
{
    static char dz[80], pz[96], pt[128];
    int op;
    for (op = 0; op < OP_COUNT; op++) {
        snprintf(t->names[0][op], sizeof t->names[0][op],
                 "%s%s encloses the exact result", who, op_name[op]);
        snprintf(t->names[1][op], sizeof t->names[1][op],
                 "%s%s: certified signs are exact", who, op_name[op]);
        t->contain[op].what = t->names[0][op];
        t->signs[op].what = t->names[1][op];
    }
    snprintf(dz, sizeof dz, "%sdiv by an interval containing 0: the "
             "whole line", who);
    snprintf(pz, sizeof pz, "%ssqr, even pow of an interval containing 0 "
             "start at 0", who);
    snprintf(pt, sizeof pt, "%ssqr, pow within (n-1) 1.5 2^-52 of the "
             "exact bounds (normal range), x^0 = [1, 1]", who);
    t->div_zero.what = dz;
    t->pow_zero.what = pz;
    t->pow_tight.what = pt;
}

/* Checks r, the result of op on a (and b), drawn by generator g: a
 * quotient by an interval containing 0 is the whole line; otherwise r
 * encloses the exact result, certifies only its sign, and for sqr and
 * pow is tight (iv_ref_pow_ok).  Returns 1 when it left the exact
 * extremes in lo_t / hi_t for more checks, 0 for the quotient by 0. */
static inline int iv_ref_check(struct iv_tallies *t, int op, int g,
                               struct xg_iv a, struct xg_iv b,
                               struct xg_iv r)
{
    unsigned n = op >= OP_POW0 ? (unsigned)(op - OP_POW0) : 2;
    t->per_op[op]++;
    t->per_gen[g]++;
    if (op == OP_DIV && !(b.lo > 0.0 || b.hi < 0.0)) {
        CHECK(&t->div_zero, r.lo == -HUGE_VAL && r.hi == HUGE_VAL,
              "[%a,%a] / [%a,%a] -> [%a,%a]", a.lo, a.hi, b.lo, b.hi, r.lo,
              r.hi);
        return 0;
    }
    if (op >= OP_SQR)
        exact_pow(a, n);
    else
        exact_hull(op, a, b);
    CHECK(&t->contain[op], iv_ref_encloses(r),
          "%s (%s) [%a,%a] [%a,%a] -> [%a,%a] misses the exact hull",
          op_name[op], gen_name[g], a.lo, a.hi, b.lo, b.hi, r.lo, r.hi);
    CHECK(&t->signs[op], iv_ref_sign_ok(r),
          "%s (%s): sign %d is wrong for [%a,%a] [%a,%a]", op_name[op],
          gen_name[g], xg_iv_sign(r), a.lo, a.hi, b.lo, b.hi);
    if (op >= OP_SQR) {
        int zero_ok, tight = iv_ref_pow_ok(a, r, n, &zero_ok);
        CHECK(&t->pow_zero, zero_ok, "%s of [%a,%a] is [%a,%a]",
              op_name[op], a.lo, a.hi, r.lo, r.hi);
        CHECK(&t->pow_tight, tight,
              "%s of [%a,%a] is [%a,%a]: looser than (n-1) 1.5 ulp",
              op_name[op], a.lo, a.hi, r.lo, r.hi);
    }
    return 1;
}

/* The TAP lines of the tallies of ops first .. OP_COUNT - 1, the counts
 * as comments; returns the number of operations checked. */
static inline long iv_tallies_report(struct iv_tallies *t, int first)
{
    long total = 0;
    int op, g;
    for (op = first; op < OP_COUNT; op++)
        tally_ok(&t->contain[op]);
    for (op = first; op < OP_COUNT; op++)
        tally_ok(&t->signs[op]);
    tally_ok(&t->div_zero);
    tally_ok(&t->pow_zero);
    tally_ok(&t->pow_tight);
    for (g = 0; g < GEN_COUNT; g++)
        printf("# %s: %ld operations\n", gen_name[g], t->per_gen[g]);
    for (op = first; op < OP_COUNT; op++) {
        printf("# %s: %ld operations\n", op_name[op], t->per_op[op]);
        total += t->per_op[op];
    }
    return total;
}

#endif /* XG_IV_REF_H */
