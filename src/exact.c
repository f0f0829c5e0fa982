/*
 * exact.c -- exact evaluation with GMP integers.
 *
 * Every finite double is an integer times a power of two, so a set of
 * doubles scaled by a common 2^k is a set of integers, and polynomial
 * predicates on them are evaluated exactly in mpz.  Orientation
 * determinants are homogeneous, so the scaling never changes a sign, and
 * the parameters of constructed points are ratios, which it leaves alone.
 * For the coordinates this project sees (UTM metres with fractions) the
 * integers have about 53 bits, so the exact path stays cheap.
 */
#include <math.h>
#include <float.h>
#include "exactgeo.h"
#include "xg_exact.h"

int xg__exact_shift(const double *v, int n)
{
    int i, k = INT32_MIN / 2, e;
    for (i = 0; i < n; i++) {
        if (v[i] == 0.0)
            continue;
        (void)frexp(v[i], &e);        /* v = m 2^e, 1/2 <= |m| < 1 */
        if (53 - e > k)
            k = 53 - e;               /* v * 2^(53-e) = m 2^53: integral */
    }
    return k == INT32_MIN / 2 ? 0 : k;
}

void xg__mpz_set_scaled(mpz_t z, double v, int k)
{
    int e;
    double m;
    if (v == 0.0) {
        mpz_set_ui(z, 0);
        return;
    }
    m = frexp(v, &e);
    mpz_set_d(z, ldexp(m, 53));       /* exact: |m 2^53| < 2^53 */
    /* v 2^k = (m 2^53) 2^(e - 53 + k), and e - 53 + k >= 0 by the choice
     * of k in xg__exact_shift. */
    mpz_mul_2exp(z, z, (mp_bitcnt_t)(e - 53 + k));
}

void xg__orient2d_mpz(mpz_t r, mpz_t const a[2], mpz_t const b[2],
                      mpz_t const c[2])
{
    mpz_t acx, acy, bcx, bcy;
    mpz_inits(acx, acy, bcx, bcy, NULL);
    mpz_sub(acx, a[0], c[0]);
    mpz_sub(acy, a[1], c[1]);
    mpz_sub(bcx, b[0], c[0]);
    mpz_sub(bcy, b[1], c[1]);
    mpz_mul(r, acx, bcy);
    mpz_submul(r, acy, bcx);
    mpz_clears(acx, acy, bcx, bcy, NULL);
}

void xg__orient3d_mpz(mpz_t r, mpz_t const a[3], mpz_t const b[3],
                      mpz_t const c[3], mpz_t const d[3])
{
    mpz_t ad[3], bd[3], cd[3], m;
    int i;
    mpz_init(m);
    for (i = 0; i < 3; i++) {
        mpz_init(ad[i]);
        mpz_init(bd[i]);
        mpz_init(cd[i]);
        mpz_sub(ad[i], a[i], d[i]);
        mpz_sub(bd[i], b[i], d[i]);
        mpz_sub(cd[i], c[i], d[i]);
    }
    /* ad . (bd x cd) */
    mpz_set_ui(r, 0);
    mpz_mul(m, bd[1], cd[2]);
    mpz_submul(m, bd[2], cd[1]);
    mpz_addmul(r, ad[0], m);
    mpz_mul(m, bd[2], cd[0]);
    mpz_submul(m, bd[0], cd[2]);
    mpz_addmul(r, ad[1], m);
    mpz_mul(m, bd[0], cd[1]);
    mpz_submul(m, bd[1], cd[0]);
    mpz_addmul(r, ad[2], m);
    for (i = 0; i < 3; i++) {
        mpz_clear(ad[i]);
        mpz_clear(bd[i]);
        mpz_clear(cd[i]);
    }
    mpz_clear(m);
}

/*
 * RN(num / (den 2^k)).  With L = floor(log2 |num/den|), the exact value
 * q has e = L - k = floor(log2 |q|); its double has quantum 2^qe with
 * qe = max(e - 52, -1074) (the second term is the subnormal range).  M =
 * floor(|q| / 2^qe) is an integer of at most 53 bits; the remainder picks
 * the rounding, ties to even.  M may reach 2^53 after rounding up, which
 * ldexp still represents exactly.
 */
double xg__round_quotient(const mpz_t num, const mpz_t den, long k)
{
    mpz_t n, d, m, r;
    long nb, db, L, e, qe, s;
    int neg, cmp;
    double out;

    if (mpz_sgn(num) == 0)
        return 0.0;
    neg = (mpz_sgn(num) < 0) != (mpz_sgn(den) < 0);
    mpz_inits(n, d, m, r, NULL);
    mpz_abs(n, num);
    mpz_abs(d, den);

    nb = (long)mpz_sizeinbase(n, 2);
    db = (long)mpz_sizeinbase(d, 2);
    /* n/d lies in [2^(nb-db-1), 2^(nb-db+1)): L is nb-db or nb-db-1. */
    L = nb - db;
    if (L >= 0) {
        mpz_mul_2exp(m, d, (mp_bitcnt_t)L);
        cmp = mpz_cmp(n, m);
    } else {
        mpz_mul_2exp(m, n, (mp_bitcnt_t)(-L));
        cmp = mpz_cmp(m, d);
    }
    if (cmp < 0)
        L--;
    e = L - k;
    if (e > DBL_MAX_EXP - 1) {
        out = HUGE_VAL;
        goto done;
    }
    qe = e - 52 > -1074 ? e - 52 : -1074;
    s = -k - qe;                      /* M = floor(n 2^s / d) */
    if (s >= 0)
        mpz_mul_2exp(n, n, (mp_bitcnt_t)s);
    else
        mpz_mul_2exp(d, d, (mp_bitcnt_t)(-s));
    mpz_tdiv_qr(m, r, n, d);
    mpz_mul_2exp(r, r, 1);
    cmp = mpz_cmp(r, d);
    if (cmp > 0 || (cmp == 0 && mpz_odd_p(m)))
        mpz_add_ui(m, m, 1);
    out = ldexp(mpz_get_d(m), (int)qe);
done:
    mpz_clears(n, d, m, r, NULL);
    return neg ? -out : out;
}

void xg__lerp_exact(const double *D, const double *E, const mpz_t tn,
                    const mpz_t td, int dim, double *out)
{
    mpz_t dk, ek, num;
    int i;

    if (mpz_sgn(tn) == 0) {
        for (i = 0; i < dim; i++)
            out[i] = D[i] + 0.0;   /* -0 becomes +0 */
        return;
    }
    if (mpz_cmp(tn, td) == 0) {
        for (i = 0; i < dim; i++)
            out[i] = E[i] + 0.0;
        return;
    }
    mpz_inits(dk, ek, num, NULL);
    for (i = 0; i < dim; i++) {
        double pair[2];
        int k;
        pair[0] = D[i];
        pair[1] = E[i];
        k = xg__exact_shift(pair, 2);
        xg__mpz_set_scaled(dk, D[i], k);
        xg__mpz_set_scaled(ek, E[i], k);
        /* (D td + tn (E - D)) / td, all scaled by 2^k */
        mpz_sub(ek, ek, dk);
        mpz_mul(num, dk, td);
        mpz_addmul(num, tn, ek);
        out[i] = xg__round_quotient(num, td, k) + 0.0;
    }
    mpz_clears(dk, ek, num, NULL);
}

/* ------------------------------------------------------------------ */
/* The exact stages of the public predicates. */

/* xg__mpz_init_scaled (xg_exact.h): the one scaling of a predicate's or
 * a construction's doubles into integers. */
void xg__mpz_init_scaled(mpz_t *z, const double *v, int n)
{
    int i, k = xg__exact_shift(v, n);
    for (i = 0; i < n; i++) {
        mpz_init(z[i]);
        xg__mpz_set_scaled(z[i], v[i], k);
    }
}

/* Clears the n integers z[0..n-1] that xg__mpz_init_scaled set. */
static void clear_all(mpz_t *z, int n)
{
    int i;
    for (i = 0; i < n; i++)
        mpz_clear(z[i]);
}

int xg_orient2d_exact(const double a[2], const double b[2], const double c[2])
{
    double v[6] = {a[0], a[1], b[0], b[1], c[0], c[1]};
    mpz_t z[6], r;
    int s;
    mpz_init(r);
    xg__mpz_init_scaled(z, v, 6);
    xg__orient2d_mpz(r, (mpz_t const *)z, (mpz_t const *)z + 2,
                     (mpz_t const *)z + 4);
    s = mpz_sgn(r);
    clear_all(z, 6);
    mpz_clear(r);
    return s;
}

int xg_orient3d_exact(const double a[3], const double b[3], const double c[3],
                      const double d[3])
{
    double v[12];
    mpz_t z[12], r;
    int i, s;
    for (i = 0; i < 3; i++) {
        v[i] = a[i];
        v[3 + i] = b[i];
        v[6 + i] = c[i];
        v[9 + i] = d[i];
    }
    mpz_init(r);
    xg__mpz_init_scaled(z, v, 12);
    xg__orient3d_mpz(r, (mpz_t const *)z, (mpz_t const *)z + 3,
                     (mpz_t const *)z + 6, (mpz_t const *)z + 9);
    s = mpz_sgn(r);
    clear_all(z, 12);
    mpz_clear(r);
    return s;
}

/* incircle's lifted determinant (xg_incircle_iv's formula) of the scaled
 * coordinates: homogeneous of degree 4, so its sign is the doubles'. */
int xg_incircle_exact(const double a[2], const double b[2], const double c[2],
                      const double d[2])
{
    double v[8] = {a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]};
    mpz_t z[8], u[6], lift, minor, r;
    int i, s;
    xg__mpz_init_scaled(z, v, 8);
    mpz_inits(lift, minor, r, NULL);
    for (i = 0; i < 6; i++) {              /* u = (a-d, b-d, c-d) */
        mpz_init(u[i]);
        mpz_sub(u[i], z[i], z[6 + (i & 1)]);
    }
    for (i = 0; i < 3; i++) {
        const mpz_t *p = u + 2 * i, *q = u + 2 * ((i + 1) % 3),
                    *w = u + 2 * ((i + 2) % 3);
        mpz_mul(lift, p[0], p[0]);
        mpz_addmul(lift, p[1], p[1]);
        mpz_mul(minor, q[0], w[1]);
        mpz_submul(minor, q[1], w[0]);
        mpz_addmul(r, lift, minor);
    }
    s = mpz_sgn(r);
    clear_all(z, 8);
    clear_all(u, 6);
    mpz_clears(lift, minor, r, NULL);
    return s;
}
