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

XG_HD struct xg_iv xg_iv_point(double x)
{
    struct xg_iv r;
    r.lo = x;
    r.hi = x;
    return r;
}

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

XG_HD double xg__min2(double a, double b) { return a < b ? a : b; }
XG_HD double xg__max2(double a, double b) { return a > b ? a : b; }

XG_HD struct xg_iv xg_iv_whole(void)
{
    struct xg_iv r;
    r.lo = -HUGE_VAL;
    r.hi = HUGE_VAL;
    return r;
}

/* Product: the hull of the four corner products.  A NaN corner can come
 * only from 0 * inf after an overflow; the whole line is then returned. */
XG_HD struct xg_iv xg_iv_mul(struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
#ifdef __CUDA_ARCH__
    double l1 = __dmul_rd(a.lo, b.lo), h1 = __dmul_ru(a.lo, b.lo);
    double l2 = __dmul_rd(a.lo, b.hi), h2 = __dmul_ru(a.lo, b.hi);
    double l3 = __dmul_rd(a.hi, b.lo), h3 = __dmul_ru(a.hi, b.lo);
    double l4 = __dmul_rd(a.hi, b.hi), h4 = __dmul_ru(a.hi, b.hi);
    if (isnan(l1 + l2 + l3 + l4))
        return xg_iv_whole();
    r.lo = xg__min2(xg__min2(l1, l2), xg__min2(l3, l4));
    r.hi = xg__max2(xg__max2(h1, h2), xg__max2(h3, h4));
#else
    double p1 = a.lo * b.lo, p2 = a.lo * b.hi;
    double p3 = a.hi * b.lo, p4 = a.hi * b.hi;
    if (isnan(p1 + p2 + p3 + p4))
        return xg_iv_whole();
    r.lo = xg__next_down(xg__min2(xg__min2(p1, p2), xg__min2(p3, p4)));
    r.hi = xg__next_up(xg__max2(xg__max2(p1, p2), xg__max2(p3, p4)));
#endif
    return r;
}

/* Quotient, for b not containing zero (the caller's precondition). */
XG_HD struct xg_iv xg_iv_div(struct xg_iv a, struct xg_iv b)
{
    struct xg_iv r;
#ifdef __CUDA_ARCH__
    double l1 = __ddiv_rd(a.lo, b.lo), h1 = __ddiv_ru(a.lo, b.lo);
    double l2 = __ddiv_rd(a.lo, b.hi), h2 = __ddiv_ru(a.lo, b.hi);
    double l3 = __ddiv_rd(a.hi, b.lo), h3 = __ddiv_ru(a.hi, b.lo);
    double l4 = __ddiv_rd(a.hi, b.hi), h4 = __ddiv_ru(a.hi, b.hi);
    if (isnan(l1 + l2 + l3 + l4))
        return xg_iv_whole();
    r.lo = xg__min2(xg__min2(l1, l2), xg__min2(l3, l4));
    r.hi = xg__max2(xg__max2(h1, h2), xg__max2(h3, h4));
#else
    double p1 = a.lo / b.lo, p2 = a.lo / b.hi;
    double p3 = a.hi / b.lo, p4 = a.hi / b.hi;
    if (isnan(p1 + p2 + p3 + p4))
        return xg_iv_whole();
    r.lo = xg__next_down(xg__min2(xg__min2(p1, p2), xg__min2(p3, p4)));
    r.hi = xg__next_up(xg__max2(xg__max2(p1, p2), xg__max2(p3, p4)));
#endif
    return r;
}

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
