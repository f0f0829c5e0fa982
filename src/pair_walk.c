/*
 * pair_walk.c -- the cells a segment passes through, for the cpu
 * engine's broad phase (pair_engine.c).
 *
 * A long inclined segment's box holds thousands of cells it never comes
 * near (a drill hole through stacked horizons: 89M candidate pairs for
 * 17M box pairs, most of them far from the hole).  A contact is a point
 * P of the segment, and the cell that holds P lists every B element
 * that holds P; so it is enough to visit, for each layer of cells along
 * the segment's longest axis m, the cells of the part of the segment in
 * that layer.  The walk must never leave out such a cell, whatever the
 * rounding: each layer's part is widened by a margin far larger than
 * every rounding error made here, and the cells are then found with the
 * grid's own cell function, which is monotone.
 *
 * Why it is enough.  Let P be a common point of the segment and a B
 * element, and P' its coordinates rounded to nearest (doubles).  B's box
 * has double corners and holds P, so it holds P' (rounding is monotone),
 * and B is listed in cell C = xg__cell_of(P') on each axis.  Let s = C's
 * coordinate on axis m.  The doubles x with xg__cell_of(x) = s lie
 * within lo + [s, s + 1] / inv give or take a few ulps of the
 * coordinates' magnitude M; widened by mu (below), the layer's interval
 * holds P_m, and clipped to the segment's range it still does.  Along
 * the segment each other coordinate is an affine function of P_m; its
 * values at the interval's ends, computed with an error of a few ulps of
 * M and widened by mu, hold P_k and therefore P'_k, and the cell
 * function (monotone) puts C within the cells of the widened range.
 * mu = a 64th of a cell plus 2^-40 M: the errors are below 2^-46 M.
 *
 * The layers' ranges move monotonically with s on every axis (every
 * operation here is monotone in s), which is what lets the engine give
 * each pair to one cell of the walk without remembering what it saw
 * (xg__walk_first).
 */
#include <math.h>
#include "xg_grid.h"
#include "xg_boxes.h"

/* max and min of finite doubles, inline (fmax and fmin are library calls
 * here, for their NaN rules, which finite coordinates never need) */
static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dmin(double a, double b) { return a < b ? a : b; }

void xg__segwalk_init(struct xg__segwalk *w, const struct xg_grid *g,
                   const double *seg, const int32_t *bc, int dim)
{
    double M = 0.0;
    int k, span = -1;

    w->g = g;
    w->dim = dim;
    w->m = 2;
    w->narrow = 0;
    for (k = 0; k < 6; k++)
        w->bc[k] = bc[k];
    if (bc[0] > bc[3])
        return;                 /* an empty range: nothing to walk */
    for (k = 0; k < dim; k++) {
        M = dmax(M, dmax(fabs(seg[k]), fabs(seg[3 + k])));
        M = dmax(M, dmax(fabs(g->lo[k]), fabs(g->hi[k])));
        if (bc[3 + k] - bc[k] > span && g->inv[k] > 0.0) {
            span = bc[3 + k] - bc[k];
            w->m = k;
        }
    }
    if (span < 1) {
        w->m = 2;               /* one layer per z: the box's cells */
        return;
    }
    /* A segment parallel to axis m is its own box: each layer's cells are
     * the box's cross-section, and the boxes' test is already the exact
     * cull (a vertical drill hole, one along a mesh row). */
    for (k = 0; k < dim; k++)
        if (k != w->m && seg[k] != seg[3 + k])
            break;
    if (k == dim)
        return;
    w->narrow = 1;
    for (k = 0; k < dim; k++) {
        w->D[k] = seg[k];
        w->smin[k] = dmin(seg[k], seg[3 + k]);
        w->smax[k] = dmax(seg[k], seg[3 + k]);
        w->mu[k] = (g->inv[k] > 0.0 ? 1.0 / (64.0 * g->inv[k]) : 0.0) +
                   0x1p-40 * M;
    }
    for (k = 0; k < dim; k++)
        w->q[k] = (seg[3 + k] - seg[k]) / (seg[3 + w->m] - seg[w->m]);
}

void xg__segwalk_layer(const struct xg__segwalk *w, int s, int32_t c[6])
{
    const struct xg_grid *g = w->g;
    int m = w->m, k;
    double plo, phi;

    for (k = 0; k < 6; k++)
        c[k] = w->bc[k];
    c[m] = c[3 + m] = s;
    if (!w->narrow)
        return;
    /* The layer's interval on axis m, widened, within the segment. */
    plo = s == 0 ? w->smin[m]
                 : dmax(w->smin[m], g->lo[m] + s / g->inv[m] - w->mu[m]);
    phi = s == g->n[m] - 1
              ? w->smax[m]
              : dmin(w->smax[m], g->lo[m] + (s + 1) / g->inv[m] + w->mu[m]);
    for (k = 0; k < w->dim; k++) {
        double x0, x1, xl, xh;
        int32_t cl, ch;
        if (k == m || !(g->inv[k] > 0.0))
            continue;
        x0 = w->D[k] + (plo - w->D[m]) * w->q[k];
        x1 = w->D[k] + (phi - w->D[m]) * w->q[k];
        xl = dmin(x0, x1) - w->mu[k];
        xh = dmax(x0, x1) + w->mu[k];
        cl = xg__cell_of(g->n, g->lo, g->inv, k, xl);
        ch = xg__cell_of(g->n, g->lo, g->inv, k, xh);
        if (cl > c[k])
            c[k] = cl;
        if (ch < c[3 + k])
            c[3 + k] = ch;
    }
}

int xg__segwalk_may_meet(const struct xg__segwalk *w, const double *box)
{
    int m = w->m, k;
    double a, b;
    if (!w->narrow)
        return 1;               /* the boxes' test is all there is */
    /* The part of the segment within the box's extent on axis m: exact
     * doubles, no rounding. */
    a = dmax(box[m], w->smin[m]);
    b = dmin(box[3 + m], w->smax[m]);
    if (a > b)
        return 0;
    for (k = 0; k < w->dim; k++) {
        double x0, x1;
        if (k == m)
            continue;
        x0 = w->D[k] + (a - w->D[m]) * w->q[k];
        x1 = w->D[k] + (b - w->D[m]) * w->q[k];
        if (dmax(x0, x1) + w->mu[k] < box[k] ||
            dmin(x0, x1) - w->mu[k] > box[3 + k])
            return 0;
    }
    return 1;
}
