/*
 * xg_expansion.h -- exact sums and products of doubles as expansions
 * (Shewchuk's arithmetic): the middle stages of the predicates, between
 * the interval filter and GMP (orient.c).  Host only.
 *
 * An expansion is an array of doubles whose exact sum is the value, the
 * components non-overlapping and in increasing magnitude, zeros allowed;
 * its sign is that of its largest nonzero component.  Every step is exact
 * as long as nothing overflows and no product's error term underflows:
 * the callers bound their operands' magnitudes first and answer
 * XG_UNSURE (on to GMP) outside the bounds.  Compiled with
 * -ffp-contract=off: the error terms are exact only if each operation
 * rounds once.
 */
#ifndef XG_EXPANSION_H
#define XG_EXPANSION_H

#include <math.h>

/* s + e = a + b exactly (Knuth's two-sum). */
static inline void xg__two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

/* p + e = a * b exactly (the FMA gives the product's rounding error). */
static inline void xg__two_prod(double a, double b, double *p, double *e)
{
    *p = a * b;
    *e = fma(a, b, -*p);
}

/* a - b when that difference is an exact double (*d), else non-zero. */
static inline int xg__diff_inexact(double a, double b, double *d)
{
    double e;
    xg__two_sum(a, -b, d, &e);
    return e != 0.0;
}

/* Adds b to the expansion x[0..n-1]: n + 1 components, zeros dropped,
 * so the result has at most n + 1 (returned). */
static inline int xg__exp_grow(double *x, int n, double b)
{
    int i, m = 0;
    double q = b, h;
    for (i = 0; i < n; i++) {
        xg__two_sum(q, x[i], &q, &h);
        if (h != 0.0)
            x[m++] = h;
    }
    if (q != 0.0 || m == 0)
        x[m++] = q;
    return m;
}

/* h = e * b exactly, e = e[0..m-1] (m >= 1): at most 2 m components
 * (returned), zeros dropped, non-overlapping and in increasing magnitude
 * like e (Shewchuk's scale_expansion_zeroelim, with two-sums where he
 * has fast two-sums: the same results, without the ordering to prove).
 * h may not be e. */
static inline int xg__exp_scale(const double *e, int m, double b, double *h)
{
    double q, hh, p1, p0, sum;
    int i, n = 0;
    xg__two_prod(e[0], b, &q, &hh);
    if (hh != 0.0)
        h[n++] = hh;
    for (i = 1; i < m; i++) {
        xg__two_prod(e[i], b, &p1, &p0);
        xg__two_sum(q, p0, &sum, &hh);
        if (hh != 0.0)
            h[n++] = hh;
        xg__two_sum(p1, sum, &q, &hh);
        if (hh != 0.0)
            h[n++] = hh;
    }
    if (q != 0.0 || n == 0)
        h[n++] = q;
    return n;
}

/* The sign of the expansion x[0..n-1]: XG_POS, XG_NEG or XG_ZERO. */
static inline int xg__expansion_sign(const double *x, int n)
{
    int i;
    for (i = n - 1; i >= 0; i--)
        if (x[i] != 0.0)
            return x[i] > 0.0 ? 1 : -1;
    return 0;
}

#endif /* XG_EXPANSION_H */
