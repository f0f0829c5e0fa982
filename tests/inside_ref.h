/*
 * inside_ref.h -- an independent, all-rational reference for point in
 * closed solid, written from the definition and sharing nothing with
 * src/inside*.c nor with the ray functions of src/xg_filters.h:
 *
 *   boundary  p lies on a closed, non-collinear triangle of the surface
 *             (exactly coplanar, and on the inner side of its three
 *             edges within the plane);
 *   inside    otherwise, a ray p + t d (t > 0) in a direction d of small
 *             random integers (no zero component: neither vertical nor
 *             axis-aligned), checked to meet no edge and no vertex of the
 *             surface, crosses an odd number of triangles;
 *   outside   an even number.
 *
 * Arithmetic: every double is a dyadic rational, so scaling all of a
 * query's coordinates by one power of two 2^S makes them integers; the
 * tests are then evaluated in mpz exactly (rationals over the common
 * denominator 2^S, without mpq's gcd at each step).  The only doubles
 * compared directly are input coordinates (exact), to skip triangles
 * and edges lying wholly behind the ray in some axis.
 *
 * Collinear triangles bound nothing and are ignored (as the product's
 * contract says).  Results: XG_KIND_INSIDE, _BOUNDARY, _OUTSIDE.
 */
#ifndef XG_INSIDE_REF_H
#define XG_INSIDE_REF_H

#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"

/* ---- exact vectors of integers ---- */

typedef mpz_t ref_v3[3];

static mpz_t ref_t1, ref_t2;
static ref_v3 ref_e, ref_w, ref_c, ref_x, ref_y, ref_n, ref_pa;
static mpz_t ref_det, ref_tn, ref_sn, ref_cc, ref_den, ref_g;
static ref_v3 *ref_pts;      /* 3 per triangle, then the point */
static size_t ref_cap;
static int ref_ready;
static uint64_t ref_rng = 0x243f6a8885a308d3u;  /* its own source */
static long ref_redraws;                        /* directions rejected */

static void ref_init(void)
{
    int k;
    if (ref_ready)
        return;
    ref_ready = 1;
    mpz_inits(ref_t1, ref_t2, ref_det, ref_tn, ref_sn, ref_cc, ref_den, ref_g,
              NULL);
    for (k = 0; k < 3; k++)
        mpz_inits(ref_e[k], ref_w[k], ref_c[k], ref_x[k], ref_y[k], ref_n[k],
                  ref_pa[k], NULL);
}

static void ref_sub(ref_v3 r, ref_v3 a, ref_v3 b)
{
    int k;
    for (k = 0; k < 3; k++)
        mpz_sub(r[k], a[k], b[k]);
}

static void ref_cross(ref_v3 r, ref_v3 a, ref_v3 b)   /* r distinct */
{
    int k;
    for (k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        mpz_mul(ref_t1, a[i], b[j]);
        mpz_mul(ref_t2, a[j], b[i]);
        mpz_sub(r[k], ref_t1, ref_t2);
    }
}

static void ref_dot(mpz_t r, ref_v3 a, ref_v3 b)
{
    int k;
    mpz_mul(r, a[0], b[0]);
    for (k = 1; k < 3; k++)
        mpz_addmul(r, a[k], b[k]);
}

static int ref_is_zero(ref_v3 a)
{
    return !mpz_sgn(a[0]) && !mpz_sgn(a[1]) && !mpz_sgn(a[2]);
}

/* The scale making x * 2^S an integer: S >= 53 - (x's binary exponent). */
static int ref_scale_of(double x, int S)
{
    int e;
    if (x == 0)
        return S;
    frexp(x, &e);
    return 53 - e > S ? 53 - e : S;
}

static void ref_set(mpz_t r, double x, int S)
{
    int e;
    double m = frexp(x, &e);          /* x = m 2^e, |m| in [1/2, 1) */
    if (x == 0) {
        mpz_set_ui(r, 0);
        return;
    }
    mpz_set_d(r, ldexp(m, 53));       /* an integer, exactly */
    mpz_mul_2exp(r, r, (mp_bitcnt_t)(e - 53 + S));
}

/* Loads p and the n triangles on one integer lattice. */
static void ref_load(const double *p, const double *tri, size_t n)
{
    size_t i, need = 3 * n + 1;
    int S = 0, k;
    ref_init();
    if (need > ref_cap) {
        ref_pts = realloc(ref_pts, need * sizeof *ref_pts);
        if (!ref_pts)
            abort();
        for (i = ref_cap; i < need; i++)
            for (k = 0; k < 3; k++)
                mpz_init(ref_pts[i][k]);
        ref_cap = need;
    }
    for (k = 0; k < 3; k++)
        S = ref_scale_of(p[k], S);
    for (i = 0; i < 9 * n; i++)
        S = ref_scale_of(tri[i], S);
    for (i = 0; i < 3 * n; i++)
        for (k = 0; k < 3; k++)
            ref_set(ref_pts[i][k], tri[3 * i + k], S);
    for (k = 0; k < 3; k++)
        ref_set(ref_pts[3 * n][k], p[k], S);
}

/* Non-zero when triangle i of the loaded ones is collinear; else its
 * normal in ref_n. */
static int ref_normal(size_t i)
{
    ref_sub(ref_x, ref_pts[3 * i + 1], ref_pts[3 * i]);
    ref_sub(ref_y, ref_pts[3 * i + 2], ref_pts[3 * i]);
    ref_cross(ref_n, ref_x, ref_y);
    return ref_is_zero(ref_n);
}

/* p (loaded last) on the closed triangle i, whose normal is ref_n. */
static int ref_on_tri(size_t i, ref_v3 p)
{
    int k;
    ref_sub(ref_pa, p, ref_pts[3 * i]);
    ref_dot(ref_g, ref_pa, ref_n);
    if (mpz_sgn(ref_g))
        return 0;
    for (k = 0; k < 3; k++) {
        ref_sub(ref_e, ref_pts[3 * i + (k + 1) % 3], ref_pts[3 * i + k]);
        ref_sub(ref_w, p, ref_pts[3 * i + k]);
        ref_cross(ref_c, ref_e, ref_w);
        ref_dot(ref_g, ref_c, ref_n);
        if (mpz_sgn(ref_g) < 0)
            return 0;
    }
    return 1;
}

/* Non-zero when the box of the doubles v[0..m-1] (xyz each) lies wholly
 * where the ray from p in direction d cannot go (t > 0): an exact test
 * on input coordinates. */
static int ref_behind(const double *p, const int d[3], const double *v,
                      int m)
{
    int k, j;
    for (k = 0; k < 3; k++) {
        int all = 1;
        for (j = 0; j < m && all; j++)
            all = d[k] > 0 ? v[3 * j + k] <= p[k] : v[3 * j + k] >= p[k];
        if (all)
            return 1;
    }
    return 0;
}

/* Non-zero when the ray p + t D (t > 0) meets the closed segment uv,
 * or runs along its line (rejected too: a cautious answer). */
static int ref_ray_meets_segment(ref_v3 p, ref_v3 D, ref_v3 u, ref_v3 v)
{
    ref_sub(ref_e, v, u);
    ref_sub(ref_w, u, p);
    ref_cross(ref_c, ref_e, ref_w);
    ref_dot(ref_det, D, ref_c);
    if (mpz_sgn(ref_det))
        return 0;                        /* not coplanar */
    ref_cross(ref_c, D, ref_e);
    if (ref_is_zero(ref_c)) {            /* parallel */
        ref_cross(ref_x, ref_w, D);
        return ref_is_zero(ref_x);       /* the same line */
    }
    /* t D - s e = w: t = (w x e).c / c.c, s = (w x D).c / c.c */
    ref_dot(ref_cc, ref_c, ref_c);
    ref_cross(ref_x, ref_w, ref_e);
    ref_dot(ref_tn, ref_x, ref_c);
    ref_cross(ref_x, ref_w, D);
    ref_dot(ref_sn, ref_x, ref_c);
    return mpz_sgn(ref_tn) > 0 && mpz_sgn(ref_sn) >= 0 &&
           mpz_cmp(ref_sn, ref_cc) <= 0;
}

static int ref_draw(void)      /* in -6..-1, 1..6 */
{
    uint64_t z = (ref_rng += 0x9e3779b97f4a7c15u);
    int v;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    v = 1 + (int)(z % 6);
    return (z >> 32) & 1 ? v : -v;
}

/* The kind of point p with respect to the solid of n triangles. */
static int ref_inside(const double *p, const double *tri, size_t n)
{
    size_t i;
    int tries, k, j, d[3];
    ref_v3 D;
    ref_load(p, tri, n);
    for (i = 0; i < n; i++) {
        const double *t = tri + 9 * i;
        int out = 0;
        for (k = 0; k < 3 && !out; k++) {
            double lo = fmin(fmin(t[k], t[3 + k]), t[6 + k]);
            double hi = fmax(fmax(t[k], t[3 + k]), t[6 + k]);
            out = !(p[k] >= lo && p[k] <= hi);
        }
        if (!out && !ref_normal(i) && ref_on_tri(i, ref_pts[3 * n]))
            return XG_KIND_BOUNDARY;
    }
    for (k = 0; k < 3; k++)
        mpz_init(D[k]);
    for (tries = 0;; tries++) {
        int bad = 0, parity = 0;
        if (tries == 1000)
            abort();     /* no clean direction: never seen */
        for (k = 0; k < 3; k++) {
            d[k] = ref_draw();
            mpz_set_si(D[k], d[k]);
        }
        for (i = 0; i < n && !bad; i++) {
            const double *t = tri + 9 * i;
            if (ref_behind(p, d, t, 3))
                continue;
            for (k = 0; k < 3 && !bad; k++) {
                double seg[6];
                j = (k + 1) % 3;
                memcpy(seg, t + 3 * k, 3 * sizeof *seg);
                memcpy(seg + 3, t + 3 * j, 3 * sizeof *seg);
                if (!ref_behind(p, d, seg, 2))
                    bad = ref_ray_meets_segment(ref_pts[3 * n], D,
                                                ref_pts[3 * i + k],
                                                ref_pts[3 * i + j]);
            }
        }
        if (bad) {
            ref_redraws++;
            continue;
        }
        for (i = 0; i < n; i++) {
            int sd, all = 1;
            if (ref_behind(p, d, tri + 9 * i, 3) || ref_normal(i))
                continue;
            ref_dot(ref_den, ref_n, D);
            if (!(sd = mpz_sgn(ref_den)))
                continue;    /* parallel: it could only be met at an edge */
            ref_sub(ref_pa, ref_pts[3 * i], ref_pts[3 * n]);
            ref_dot(ref_tn, ref_n, ref_pa);
            if (mpz_sgn(ref_tn) != sd)
                continue;    /* t = tn / den <= 0 */
            /* the crossing X = p + (tn / den) D, scaled by den:
             * den (X - V_k) = den (p - V_k) + tn D, then on the inner
             * side of each edge (the sign of den flips the test) */
            for (k = 0; k < 3; k++) {
                int m, g;
                for (m = 0; m < 3; m++) {
                    mpz_sub(ref_t1, ref_pts[3 * n][m], ref_pts[3 * i + k][m]);
                    mpz_mul(ref_y[m], ref_t1, ref_den);
                    mpz_addmul(ref_y[m], ref_tn, D[m]);
                }
                ref_sub(ref_e, ref_pts[3 * i + (k + 1) % 3],
                        ref_pts[3 * i + k]);
                ref_cross(ref_c, ref_e, ref_y);
                ref_dot(ref_g, ref_c, ref_n);
                g = mpz_sgn(ref_g);
                if (g == -sd)
                    all = 0;         /* outside: the crossing misses it */
                else if (g == 0 && all)
                    all = 2;         /* on an edge's line */
            }
            if (all == 2)
                abort();    /* on the closed border: the check failed */
            parity ^= all;
        }
        for (k = 0; k < 3; k++)
            mpz_clear(D[k]);
        return parity ? XG_KIND_INSIDE : XG_KIND_OUTSIDE;
    }
}

#endif
