/*
 * xg_exact.h -- exact arithmetic on doubles as integers (exact.c), the
 * projection of a plane figure to two axes (project.c), and the host's
 * double-double stage of constructions (refine.c).
 */
#ifndef XG_EXACT_H
#define XG_EXACT_H

#include <gmp.h>
#include "exactgeo.h"

/* ---- exact arithmetic (exact.c) ---- */

/* The least k such that v[i] * 2^k is an integer for every i. */
int xg__exact_shift(const double *v, int n);
/* z = v * 2^k, exactly; k from xg__exact_shift. */
void xg__mpz_set_scaled(mpz_t z, double v, int k);
/* z[i] = v[i] 2^k, i < n, with the common k of xg__exact_shift: integers
 * whose ratios are those of the v's, so that a homogeneous determinant
 * of them has the sign of the doubles' (of degree g, it is the doubles'
 * times 2^(g k)).  Initialises z[0..n-1]; the caller clears them. */
void xg__mpz_init_scaled(mpz_t *z, const double *v, int n);
/* r = det[a-c; b-c] for points given as two integers each. */
void xg__orient2d_mpz(mpz_t r, mpz_t const a[2], mpz_t const b[2],
                      mpz_t const c[2]);
/* r = det[a-d; b-d; c-d] for points given as three integers each. */
void xg__orient3d_mpz(mpz_t r, mpz_t const a[3], mpz_t const b[3],
                      mpz_t const c[3], mpz_t const d[3]);
/* The double nearest num / (den * 2^k), ties to even; den != 0. */
double xg__round_quotient(const mpz_t num, const mpz_t den, long k);
/* out = D + (tn / td) (E - D), each coordinate rounded to the nearest
 * double; td != 0.  t = 0 and t = 1 give D and E themselves. */
void xg__lerp_exact(const double *D, const double *E, const mpz_t tn,
                    const mpz_t td, int dim, double *out);

/* ---- projection to a plane (project.c) ---- */

/* Drops coordinate `drop` of a 3D point. */
void xg__project(const double *p, int drop, double out[2]);
/* The axis to drop so that the triangle's (9 doubles) projection keeps
 * its area, with that projection's orientation (exact); -1 (and
 * *orient = 0) when the triangle is collinear.  Every figure in the
 * triangle's plane projects along that axis by an affine bijection. */
int xg__projection_axis(struct xg_counters *cnt, const double *tri,
                        int *orient);

/* ---- the host's double-double stage of constructions (refine.c) ---- */

/* The crossing of DE with the plane of tri (D, E strictly on opposite
 * sides), rounded to nearest, when a double-double value and its error
 * bound certify it: returns 1 and fills out[3]; 0 when the next stage
 * (xg_plane_point_dd, then GMP) must decide. */
int xg__plane_point_ddb(const double *tri, const double *D, const double *E,
                        double out[3]);
/* The crossing of DE with the line pq (x, y; D, E strictly on opposite
 * sides), dim coordinates of D + t (E - D) rounded; 1 or 0 as above. */
int xg__line_point_ddb(const double *p, const double *q, const double *D,
                       const double *E, int dim, double *out);

#endif /* XG_EXACT_H */
