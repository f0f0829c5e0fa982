/*
 * xg_interval.h -- interval arithmetic that provably contains the exact
 * result, written once for the host and the GPU.
 *
 * Host: every operation is done in the default round-to-nearest mode and
 * its result is pushed outward by one unit in the last place (next_down /
 * next_up on the bit pattern).  IEEE 754 guarantees a correctly rounded
 * result lies within half an ulp of the exact one, so the widened bounds
 * enclose it, whatever the magnitude (subnormals and overflow included).
 * No rounding mode is ever changed, so nothing else in the process is
 * affected and the compiler needs no -frounding-math; but it must not
 * contract a*b+c into an FMA, which would skip the rounding we widen:
 * every file that includes this is compiled with -ffp-contract=off, and
 * the widening goes through integer bit operations that cannot be fused.
 *
 * Device: the directed-rounding intrinsics (__dadd_rd, __dmul_ru, ...),
 * which nvcc never contracts into FMA.
 *
 * A NaN anywhere (inf - inf, 0 * inf after overflow) makes the interval
 * uncertain, and uncertain signs go to exact arithmetic: overflow can cost
 * time, never correctness.
 */
#ifndef XG_INTERVAL_H
#define XG_INTERVAL_H

#ifdef __CUDACC__
#define XG_HD static inline __host__ __device__
#elif defined(__GNUC__)
/* Inlined into the one filter that calls them: GCC otherwise keeps the
 * cross product out of line and the hot loop pays for the calls. */
#define XG_HD static inline __attribute__((always_inline))
#else
#define XG_HD static inline
#endif

/* The rare stages behind a filter (the exact expansions of
 * xg_expansion.h): out of line, so that a filter's hot loop keeps its
 * code small and, on the device, its registers. */
#ifdef __CUDACC__
#define XG_HD_COLD static __host__ __device__ __noinline__
#elif defined(__GNUC__)
#define XG_HD_COLD static __attribute__((noinline, unused))
#else
#define XG_HD_COLD static
#endif

#ifndef __CUDA_ARCH__
#include <stdint.h>
#include <string.h>
#include <math.h>
#endif

#ifndef XG_POS
#define XG_NEG    (-1)
#define XG_ZERO     0
#define XG_POS      1
#define XG_UNSURE   2
#endif

struct xg_iv {
    double lo, hi;
};

#ifndef __CUDA_ARCH__
/* The next double above x (x itself for +inf and NaN). */
static inline double xg__next_up(double x)
{
    uint64_t u;
    if (!(x < INFINITY))          /* +inf or NaN */
        return x;
    if (x == 0.0)
        return 4.9406564584124654e-324;   /* 2^-1074, smallest subnormal */
    memcpy(&u, &x, sizeof u);
    if (x > 0.0)
        u++;
    else
        u--;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The next double below x (x itself for -inf and NaN). */
static inline double xg__next_down(double x)
{
    return -xg__next_up(-x);
}
#endif

/* One operation rounded down (_rd) or up (_ru): a bound on the exact
 * result on the side the name says, for the double-double stage
 * (xg_dd.h).
 *
 * An exact zero comes back as it is, as the GPU's directed rounding
 * returns it: a sum of a and -a, a product with a zero factor (the test
 * is on the operands, so a flush-to-zero FPU cannot fake it).  Widened to
 * -+2^-1074, it would make every later product fall under the underflow
 * guard of xg__dd_mul_dn, which clears ok: the host then declined every
 * plane with a zero normal component (all axis-aligned planes) and every
 * coordinate with D == E. */
XG_HD double xg__add_rd(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dadd_rd(a, b);
#else
    double r = a + b;
    return r == 0.0 && a == -b ? r : xg__next_down(r);
#endif
}

XG_HD double xg__add_ru(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dadd_ru(a, b);
#else
    double r = a + b;
    return r == 0.0 && a == -b ? r : xg__next_up(r);
#endif
}

XG_HD double xg__mul_rd(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dmul_rd(a, b);
#else
    double r = a * b;
    return a == 0.0 || b == 0.0 ? r : xg__next_down(r);
#endif
}

XG_HD double xg__mul_ru(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dmul_ru(a, b);
#else
    double r = a * b;
    return a == 0.0 || b == 0.0 ? r : xg__next_up(r);
#endif
}

XG_HD double xg__div_rd(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __ddiv_rd(a, b);
#else
    return xg__next_down(a / b);
#endif
}

XG_HD double xg__div_ru(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __ddiv_ru(a, b);
#else
    return xg__next_up(a / b);
#endif
}

/* The interval [x, x] of an exact double. */
XG_HD struct xg_iv xg_iv_point(double x)
{
    struct xg_iv r;
    r.lo = x;
    r.hi = x;
    return r;
}

/* a + b, each bound rounded outwards. */
XG_HD struct xg_iv xg_iv_add(struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
#ifdef __CUDA_ARCH__
    r.lo = __dadd_rd(a.lo, b.lo);
    r.hi = __dadd_ru(a.hi, b.hi);
#else
    r.lo = xg__next_down(a.lo + b.lo);
    r.hi = xg__next_up(a.hi + b.hi);
#endif
    return r;
}

/* a - b, each bound rounded outwards. */
XG_HD struct xg_iv xg_iv_sub(struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
#ifdef __CUDA_ARCH__
    r.lo = __dsub_rd(a.lo, b.hi);
    r.hi = __dsub_ru(a.hi, b.lo);
#else
    r.lo = xg__next_down(a.lo - b.hi);
    r.hi = xg__next_up(a.hi - b.lo);
#endif
    return r;
}

/* Difference of two exact doubles: the common first step of every
 * predicate, with half the work of xg_iv_sub. */
XG_HD struct xg_iv xg_iv_diff(double a, double b)
{
    struct xg_iv r;
#ifdef __CUDA_ARCH__
    r.lo = __dsub_rd(a, b);
    r.hi = __dsub_ru(a, b);
#else
    double d = a - b;
    r.lo = xg__next_down(d);
    r.hi = xg__next_up(d);
#endif
    return r;
}

/* The smaller and the larger of a and b, inline, without fmin's and
 * fmax's NaN rules (the callers' values are finite). */
XG_HD double xg__min2(double a, double b) { return a < b ? a : b; }
XG_HD double xg__max2(double a, double b) { return a > b ? a : b; }

/* The whole line [-inf, +inf]: the answer that certifies no sign. */
XG_HD struct xg_iv xg_iv_whole(void)
{
    struct xg_iv r;
    r.lo = -HUGE_VAL;
    r.hi = HUGE_VAL;
    return r;
}

/* [x1 y1 rounded down, x2 y2 rounded up]: the bounds of a product once
 * the operands' signs have picked its corners (xg_iv_mul).  On the host
 * each is widened even when a factor is zero (unlike xg__mul_rd), so
 * that xg_iv_mul's bounds are those of the four-corner hull it replaced,
 * bit for bit.  A NaN (0 * inf after an overflow, or a NaN operand)
 * gives the whole line; so do bounds -inf and +inf, which it equals. */
XG_HD struct xg_iv xg__iv_mul_corners(double x1, double y1, double x2,
                                      double y2)
{
    struct xg_iv r;
#ifdef __CUDA_ARCH__
    r.lo = __dmul_rd(x1, y1);
    r.hi = __dmul_ru(x2, y2);
    if (isnan(r.lo + r.hi))
        return xg_iv_whole();
#else
    r.lo = x1 * y1;
    r.hi = x2 * y2;
    if (isnan(r.lo + r.hi))
        return xg_iv_whole();
    r.lo = xg__next_down(r.lo);
    r.hi = xg__next_up(r.hi);
#endif
    return r;
}

/* Product, by the signs of the operands (Collange et al., table 1; Boost's
 * interval library): each bound is one corner product except when both
 * operands straddle zero, where each bound is the extreme of two.  With
 * a = [a0, a1] and b = [b0, b1]:
 *
 *              b >= 0            b <= 0            b straddles 0
 *   a >= 0     [a0 b0, a1 b1]    [a1 b0, a0 b1]    [a1 b0, a1 b1]
 *   a <= 0     [a0 b1, a1 b0]    [a1 b1, a0 b0]    [a0 b1, a0 b0]
 *   straddles  [a0 b1, a1 b1]    [a1 b0, a0 b0]    [min(a0 b1, a1 b0),
 *                                                   max(a0 b0, a1 b1)]
 *
 * Rounding is monotone, so the rounded extreme corner is the extreme
 * rounded corner: the bounds are those of the four-corner hull (on the
 * host and the device alike: interval_t and gpu_iv_t check it), at two
 * products instead of four (eight on the device) and two comparisons per
 * operand instead of six min/max.  The one difference: a hull corner 0 *
 * inf that the table never forms (a = [0, 2], b = [1, inf]) no longer
 * turns the answer into the whole line, which was only a loss.  A NaN
 * bound always reaches a product (a NaN lower bound fails "a >= 0", so a
 * is "a <= 0", whose lower bound every row uses; and likewise), so NaN
 * still gives the whole line. */
XG_HD struct xg_iv xg_iv_mul(struct xg_iv a, struct xg_iv b)
{
    if (a.lo >= 0.0) {
        if (b.lo >= 0.0)
            return xg__iv_mul_corners(a.lo, b.lo, a.hi, b.hi);
        if (b.hi <= 0.0)
            return xg__iv_mul_corners(a.hi, b.lo, a.lo, b.hi);
        return xg__iv_mul_corners(a.hi, b.lo, a.hi, b.hi);
    }
    if (a.hi <= 0.0) {
        if (b.lo >= 0.0)
            return xg__iv_mul_corners(a.lo, b.hi, a.hi, b.lo);
        if (b.hi <= 0.0)
            return xg__iv_mul_corners(a.hi, b.hi, a.lo, b.lo);
        return xg__iv_mul_corners(a.lo, b.hi, a.lo, b.lo);
    }
    if (b.lo >= 0.0)
        return xg__iv_mul_corners(a.lo, b.hi, a.hi, b.hi);
    if (b.hi <= 0.0)
        return xg__iv_mul_corners(a.hi, b.lo, a.lo, b.lo);
    {
        /* both straddle: the negative corners a0 b1, a1 b0 and the
         * positive ones a0 b0, a1 b1.  A sum of two NaN-free products of
         * one sign is not NaN, so the test misses no NaN. */
        struct xg_iv r;
#ifdef __CUDA_ARCH__
        double l1 = __dmul_rd(a.lo, b.hi), l2 = __dmul_rd(a.hi, b.lo);
        double h1 = __dmul_ru(a.lo, b.lo), h2 = __dmul_ru(a.hi, b.hi);
        if (isnan(l1 + l2 + h1 + h2))
            return xg_iv_whole();
        r.lo = xg__min2(l1, l2);
        r.hi = xg__max2(h1, h2);
#else
        double l1 = a.lo * b.hi, l2 = a.hi * b.lo;
        double h1 = a.lo * b.lo, h2 = a.hi * b.hi;
        if (isnan(l1 + l2 + h1 + h2))
            return xg_iv_whole();
        /* next_down is monotone: widening the extreme is widening each */
        r.lo = xg__next_down(xg__min2(l1, l2));
        r.hi = xg__next_up(xg__max2(h1, h2));
#endif
        return r;
    }
}

/* Quotient, by the signs of the operands: a divisor that contains zero
 * (or has a NaN bound) gives the whole line.  With b > 0 the extreme
 * quotients divide by b0 where |a| is large and by b1 where it is small:
 *
 *              b > 0             b < 0
 *   a >= 0     [a0/b1, a1/b0]    [a1/b1, a0/b0]
 *   a <= 0     [a0/b0, a1/b1]    [a1/b0, a0/b1]
 *   straddles  [a0/b0, a1/b0]    [a1/b1, a0/b1]
 *
 * so each bound's numerator is fixed by the sign of b and its divisor by
 * the sign of that numerator.  Bounds are those of the four-corner hull
 * (rounding is monotone), at two divisions instead of four (eight on the
 * device); NaN (inf / inf, or a NaN bound of a: each is a numerator)
 * gives the whole line. */
XG_HD struct xg_iv xg_iv_div(struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
    if (b.lo > 0.0) {
        r.lo = xg__div_rd(a.lo, a.lo >= 0.0 ? b.hi : b.lo);
        r.hi = xg__div_ru(a.hi, a.hi >= 0.0 ? b.lo : b.hi);
    } else if (b.hi < 0.0) {
        r.lo = xg__div_rd(a.hi, a.hi >= 0.0 ? b.hi : b.lo);
        r.hi = xg__div_ru(a.lo, a.lo >= 0.0 ? b.lo : b.hi);
    } else
        return xg_iv_whole();
    if (isnan(r.lo + r.hi))
        return xg_iv_whole();
    return r;
}

/* x y rounded down, for x, y >= 0: never below 0.  The host widens an
 * underflow to -2^-1074, which would make a later step wrong (-tiny *
 * -tiny > 0); the exact product is >= 0, so 0 bounds it. */
XG_HD double xg__mul_rd_pos(double x, double y)
{
#ifdef __CUDA_ARCH__
    return __dmul_rd(x, y);
#else
    return xg__max2(xg__mul_rd(x, y), 0.0);
#endif
}

/* x^n for x >= 0 and n >= 1, rounded up (up != 0) or down: the binary
 * method (square the base, multiply in the set bits of n), each step
 * rounded the same way.  The factors are never negative, so every step
 * rounded down stays below the exact partial power and every step
 * rounded up above it.  xg__mul_rd/_ru keep an exact zero, so 0^n is
 * [0, 0]. */
XG_HD double xg__pow_mag(double x, unsigned n, int up)
{
    double r;
    while (!(n & 1u)) {           /* the low zero bits: squarings only */
        x = up ? xg__mul_ru(x, x) : xg__mul_rd_pos(x, x);
        n >>= 1;
    }
    r = x;
    for (n >>= 1; n; n >>= 1) {
        x = up ? xg__mul_ru(x, x) : xg__mul_rd_pos(x, x);
        if (n & 1u)
            r = up ? xg__mul_ru(r, x) : xg__mul_rd_pos(r, x);
    }
    return r;
}

/* x^n for an integer n >= 0 (Collange et al., table 2), by the signs of
 * x and the parity of n.  Odd powers are monotone: [x0^n, x1^n].  Even
 * powers: [m^n, M^n] with M the largest magnitude in x and m the
 * smallest, 0 when x contains 0, so that the square of an interval
 * containing 0 starts at 0 (x * x would give [-M^2, M^2]).  Each bound
 * comes from its own chain of floor(log2 n) squarings and popcount(n) - 1
 * products, rounded outward: sqr is one product per bound, x^7 four.
 * x^0 = [1, 1] for every x (NaN included); otherwise a NaN bound gives
 * the whole line. */
XG_HD struct xg_iv xg_iv_pow(struct xg_iv x, unsigned n)
{
    struct xg_iv r;
    if (n == 0)
        return xg_iv_point(1.0);
    if (isnan(x.lo) || isnan(x.hi))
        return xg_iv_whole();
    if (n & 1u) {
        r.lo = x.lo >= 0.0 ? xg__pow_mag(x.lo, n, 0)
                           : -xg__pow_mag(-x.lo, n, 1);
        r.hi = x.hi >= 0.0 ? xg__pow_mag(x.hi, n, 1)
                           : -xg__pow_mag(-x.hi, n, 0);
        return r;
    }
    r.lo = x.lo >= 0.0 ? xg__pow_mag(x.lo, n, 0)
           : x.hi <= 0.0 ? xg__pow_mag(-x.hi, n, 0) : 0.0;
    r.hi = xg__pow_mag(xg__max2(-x.lo, x.hi), n, 1);
    return r;
}

/* x^2, tight: xg_iv_pow(x, 2), one product per bound. */
XG_HD struct xg_iv xg_iv_sqr(struct xg_iv x)
{
    return xg_iv_pow(x, 2);
}

/* -a, exactly: the bounds negated and swapped. */
XG_HD struct xg_iv xg_iv_neg(struct xg_iv a)
{
    struct xg_iv r;
    r.lo = -a.hi;
    r.hi = -a.lo;
    return r;
}

/* The sign the interval certifies, or XG_UNSURE.  NaN bounds fail every
 * comparison and so come out XG_UNSURE. */
XG_HD int xg_iv_sign(struct xg_iv a)
{
    if (a.lo > 0.0)
        return XG_POS;
    if (a.hi < 0.0)
        return XG_NEG;
    if (a.lo == 0.0 && a.hi == 0.0)
        return XG_ZERO;
    return XG_UNSURE;
}

#endif /* XG_INTERVAL_H */
