/*
 * redblue.c -- exact contact between two closed 2D segments P0P1 (red,
 * from set A) and Q0Q1 (blue, from set B), and xg_redblue over two sets.
 *
 * Semantics (README, "Exact semantics"):
 *   proper   the interiors cross at one point (all four sides nonzero);
 *   touch    exactly one shared point otherwise: an endpoint on the
 *            other segment, a shared vertex, a T-junction, or collinear
 *            segments meeting end to end;
 *   overlap  collinear, sharing a stretch of positive length.
 * The CPU's fast pass takes each side from the filters
 * (xg_orient2d_filter: the static stage, which also certifies the zero
 * of a shared vertex, then intervals); the GPU's (xg_redblue_fast in
 * xg_filters.h) from intervals alone, whose directed rounding certifies
 * the zeros of shared vertices and edges.  Whatever a fast pass defers is
 * decided here with exact signs.  Every stage classifies through the one
 * function xg_redblue_classify.
 * Only a proper crossing constructs a point; touches and overlaps are
 * made of input endpoints and are exact as they stand.
 */
#include <string.h>
#include "xg_ctx.h"
#include "xg_exact.h"
#include "xg_pair.h"
#include "xg_regions.h"
#include "xg_redblue.h"
#include "xg_dd.h"
#include "xg_boxes.h"
#include "xg_gpu_hit.h"
#include "xg_interval.h"
#include "xg_filter_orient.h"
#include "xg_filter_segtri.h"
#include "xg_filter_redblue.h"
#include "xg_ops.h"

/* The crossing of P0P1 with the line Q0Q1 when P0, P1 lie strictly on
 * opposite sides of it: P0 + t (P1 - P0), t = op0 / (op0 - op1), rounded
 * to the nearest double: double intervals, double-double (a value and an
 * error bound, then intervals), GMP when none can certify it. */
static void cross_point(struct xg_counters *cnt, const double *sa,
                        const double *sb, double out[3])
{
    const double *p0 = sa, *p1 = sa + 3, *q0 = sb, *q1 = sb + 3;
    struct xg_iv op0, op1;
    double v[8];
    mpz_t z[8], n0, n1, td;
    double t0;
    int i;

    cnt->constructions++;
    out[2] = 0.0;
    op0 = xg_orient2d_iv(q0, q1, p0);
    op1 = xg_orient2d_iv(q0, q1, p1);
    if (xg_iv_sign(op0) != XG_UNSURE && xg_iv_sign(op1) != XG_UNSURE &&
        xg_lerp_fast(p0, p1, xg_iv_div(op0, xg_iv_sub(op0, op1)), 2, out))
        return;
    if (xg__line_point_ddb(q0, q1, p0, p1, 2, out)) {
        cnt->construct_ld++;
        return;
    }
    if (xg_line_point_dd(q0, q1, p0, p1, 2, out)) {
        cnt->construct_dd++;
        return;
    }

    cnt->construct_exact++;
    t0 = xg__now();
    v[0] = q0[0]; v[1] = q0[1]; v[2] = q1[0]; v[3] = q1[1];
    v[4] = p0[0]; v[5] = p0[1]; v[6] = p1[0]; v[7] = p1[1];
    xg__mpz_init_scaled(z, v, 8);
    mpz_inits(n0, n1, td, NULL);
    xg__orient2d_mpz(n0, (mpz_t const *)z, (mpz_t const *)z + 2,
                     (mpz_t const *)z + 4);
    xg__orient2d_mpz(n1, (mpz_t const *)z, (mpz_t const *)z + 2,
                     (mpz_t const *)z + 6);
    mpz_sub(td, n0, n1);
    xg__lerp_exact(p0, p1, n0, td, 2, out);
    mpz_clears(n0, n1, td, NULL);
    for (i = 0; i < 8; i++)
        mpz_clear(z[i]);
    cnt->exact_seconds += xg__now() - t0;
}

/* The contact from the four signs (xg_redblue_classify, shared with the
 * fast pass) into c; the point of a proper crossing constructed here. */
static int contact_from(struct xg_counters *cnt, int r, const double *sa,
                        const double *sb, const double *p, const double *q,
                        struct xg_contact *c)
{
    memset(c->q, 0, sizeof c->q);
    c->p[2] = 0.0;
    switch (r) {
    case XG_REDBLUE_PROPER:
        c->kind = XG_KIND_PROPER;
        cross_point(cnt, sa, sb, c->p);
        return 1;
    case XG_REDBLUE_TOUCH:
        c->kind = XG_KIND_TOUCH;
        c->p[0] = p[0];
        c->p[1] = p[1];
        return 1;
    case XG_REDBLUE_OVERLAP:
        c->kind = XG_KIND_OVERLAP;
        c->p[0] = p[0];
        c->p[1] = p[1];
        c->q[0] = q[0];
        c->q[1] = q[1];
        return 1;
    default:
        return 0;
    }
}

typedef int (*side_fn)(struct xg_counters *cnt, const double *a,
                       const double *b, const double *c);

/* The filters' sign, or XG_UNSURE. */
static int filter_side(struct xg_counters *cnt, const double *a,
                       const double *b, const double *c)
{
    (void)cnt;
    return xg_orient2d_filter(a, b, c);
}

/* The pair's sides by side (exact: xg_orient2d; filtered: filter_side),
 * each only where xg_redblue_classify reads it, classified; a certain
 * miss is a miss whatever the other sides, else XG_REDBLUE_DEFER when a
 * side read is unsure. */
static int classify(struct xg_counters *cnt, side_fn side, const double *sa,
                    const double *sb, double p[2], double q[2])
{
    const double *p0 = sa, *p1 = sa + 3, *q0 = sb, *q1 = sb + 3;
    int oq0 = side(cnt, p0, p1, q0), oq1 = side(cnt, p0, p1, q1);
    int op0 = XG_UNSURE, op1 = XG_UNSURE;

    if (oq0 == oq1 && (oq0 == XG_POS || oq0 == XG_NEG))
        return XG_REDBLUE_MISS;
    if (!(oq0 == XG_ZERO && oq1 == XG_ZERO)) {
        op0 = side(cnt, q0, q1, p0);
        op1 = side(cnt, q0, q1, p1);
        if (op0 == op1 && (op0 == XG_POS || op0 == XG_NEG))
            return XG_REDBLUE_MISS;
        if (oq0 == XG_UNSURE || oq1 == XG_UNSURE || op0 == XG_UNSURE ||
            op1 == XG_UNSURE)
            return XG_REDBLUE_DEFER;
    }
    return xg_redblue_classify(oq0, oq1, op0, op1, p0, p1, q0, q1, p, q);
}

int xg__redblue_exact(struct xg_counters *cnt, const double *sa,
                      const double *sb, struct xg_contact *c)
{
    double p[2], q[2];
    return contact_from(cnt, classify(cnt, xg_orient2d, sa, sb, p, q), sa,
                        sb, p, q, c);
}

int xg__redblue_settled(struct xg_counters *cnt, const double *sa,
                        const double *sb, int r, const double *pt,
                        struct xg_contact *c)
{
    double p[2] = {pt[0], pt[1]}, q[2] = {0.0, 0.0};
    /* An overlap's stretch is made of input endpoints: the classification
     * again, from the two zero sides that certified it, gives it. */
    if (r == XG_REDBLUE_OVERLAP)
        r = xg_redblue_classify(XG_ZERO, XG_ZERO, XG_UNSURE, XG_UNSURE, sa,
                                sa + 3, sb, sb + 3, p, q);
    return contact_from(cnt, r, sa, sb, p, q, c);
}

int xg__redblue_fast_hit(struct xg_counters *cnt, const double *sa,
                         const double *sb, struct xg_contact *c)
{
    double p[2], q[2];
    int r;
    cnt->predicates++;          /* the pair's fused filter: one */
    r = classify(cnt, filter_side, sa, sb, p, q);
    return r == XG_REDBLUE_DEFER ? -1 : contact_from(cnt, r, sa, sb, p, q, c);
}

int xg_redblue_pair(struct xg_counters *cnt, const double sa[6],
                    const double sb[6], struct xg_contact *c)
{
    return xg__pair_decide(xg__redblue_ops, cnt, sa, sb, c);
}

/* The box in x, y with z = 0..0, so the 3D grid is one cell deep. */
static int seg2_box(struct xg_counters *cnt, const double *s, double *box)
{
    (void)cnt;
    if (xg__seg2_is_degenerate(s))
        return 1;
    xg__seg2_box(s, box);
    return 0;
}

/* A hit of the GPU engines (xg__redblue_hit) that is not deferred. */
static void settle(struct xg_counters *cnt, const double *sa,
                   const double *sb, const struct xg_gpu_hit *h,
                   struct xg_contact *c)
{
    if (h->flag == XG_GPU_HIT_CONSTRUCT) {
        xg__redblue_exact(cnt, sa, sb, c);
    } else if (h->kind == XG_KIND_PROPER) {
        c->kind = XG_KIND_PROPER;
        c->p[0] = h->p[0];
        c->p[1] = h->p[1];
        c->p[2] = 0.0;
        memset(c->q, 0, sizeof c->q);
        cnt->constructions++;
    } else {
        xg__redblue_settled(cnt, sa, sb,
                            h->kind == XG_KIND_TOUCH ? XG_REDBLUE_TOUCH
                                                     : XG_REDBLUE_OVERLAP,
                            h->p, c);
    }
}

static const struct xg__pair_ops redblue_ops = {
    XG_ELEM_SEGMENT, XG_ELEM_SEGMENT, 2, seg2_box, seg2_box,
    xg__redblue_fast_hit, xg__redblue_exact, settle, 0,
};
const struct xg__pair_ops *const xg__redblue_ops = &redblue_ops;

int xg__redblue_prepare(struct xg_ctx *ctx, const struct xg_set *a,
                        const struct xg_set *b, const struct xg_opts *opt,
                        int nthreads, struct xg_grid *g, struct xg_stats *st)
{
    return xg__pair_prepare(ctx, &redblue_ops, a->xyz, a->n, b->xyz,
                            b->n, opt, nthreads, g, st);
}

/* The whole run, one region (opt, st not NULL). */
static int redblue_one(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       struct xg_contacts *out, struct xg_stats *st)
{
    struct xg_opts o = *opt;
    o.grid[2] = 1;                  /* 2D: one layer of cells */
    return xg__pair_one(ctx, &redblue_ops, &xg__op_redblue, a, b, &o, out,
                        st);
}

static const struct xg__region_op redblue_region = {&redblue_ops, 0,
                                                    redblue_one, NULL,
                                                    &xg__op_redblue};
const struct xg__region_op *const xg__redblue_region = &redblue_region;

int xg_redblue(struct xg_ctx *ctx, const struct xg_set *a,
               const struct xg_set *b, const struct xg_opts *opt,
               struct xg_contacts *out, struct xg_stats *st)
{
    return xg__regions_entry(ctx, &redblue_region, a, b, opt, out, st);
}
