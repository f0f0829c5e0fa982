/*
 * xg_boxes.h -- what decides, on every engine, which pairs get evaluated:
 * the degenerate elements, the boxes, the grid's cell function and the
 * ownership rule.  Written once and compiled for the host (C) and the
 * GPU (CUDA), as xg_filters.h is for the predicates, so that the CPU and
 * GPU engines cannot disagree about a box, a cell or an owner.  Both
 * sides evaluate the same double operations bit for bit: the host is
 * built with -ffp-contract=off and the kernels with -fmad=false.
 *
 * A box is 6 doubles, min xyz then max xyz; min x > max x marks "no box"
 * (a degenerate element, left out of the grid).  A cell range is 6 ints,
 * the low cell's xyz then the high cell's; low x > high x marks an empty
 * range (a box outside the grid's region).
 */
#ifndef XG_BOXES_H
#define XG_BOXES_H

#include "xg_interval.h"        /* XG_HD, <stdint.h> */

/* Non-zero when the segment (6 doubles) has length zero. */
XG_HD int xg__seg_is_degenerate(const double *seg)
{
    return seg[0] == seg[3] && seg[1] == seg[4] && seg[2] == seg[5];
}

/* Non-zero when the segment has length zero in x, y (red/blue, 2D). */
XG_HD int xg__seg2_is_degenerate(const double *seg)
{
    return seg[0] == seg[3] && seg[1] == seg[4];
}

/* Marks box as "no box". */
XG_HD void xg__box_none(double *box)
{
    box[0] = 1.0;
    box[3] = 0.0;
    box[1] = box[2] = box[4] = box[5] = 0.0;
}

/* Non-zero for the "no box" mark of xg__box_none (x's low above high). */
XG_HD int xg__box_is_none(const double *box) { return box[0] > box[3]; }

/* The box of a segment: exact minima and maxima of its endpoints. */
XG_HD void xg__seg_box(const double *s, double *box)
{
    int k;
    for (k = 0; k < 3; k++) {
        box[k] = s[k] < s[3 + k] ? s[k] : s[3 + k];
        box[3 + k] = s[k] < s[3 + k] ? s[3 + k] : s[k];
    }
}

/* The box of a 2D segment, with z = 0..0 so that the 3D grid is one
 * cell deep. */
XG_HD void xg__seg2_box(const double *s, double *box)
{
    int k;
    for (k = 0; k < 2; k++) {
        box[k] = s[k] < s[3 + k] ? s[k] : s[3 + k];
        box[3 + k] = s[k] < s[3 + k] ? s[3 + k] : s[k];
    }
    box[2] = box[5] = 0.0;
}

/* The box of a triangle (9 doubles). */
XG_HD void xg__tri_box(const double *t, double *box)
{
    int k, i;
    for (k = 0; k < 3; k++) {
        box[k] = box[3 + k] = t[k];
        for (i = 1; i < 3; i++) {
            double v = t[3 * i + k];
            if (v < box[k])
                box[k] = v;
            if (v > box[3 + k])
                box[3 + k] = v;
        }
    }
}

/* Non-zero when the closed boxes p and q meet.  & and not &&: six
 * comparisons and no branch, which the engines' loops can count on. */
XG_HD int xg__boxes_meet(const double *p, const double *q)
{
    return (p[0] <= q[3]) & (q[0] <= p[3]) & (p[1] <= q[4]) &
           (q[1] <= p[4]) & (p[2] <= q[5]) & (q[2] <= p[5]);
}

/* ---- the grid's cells ----
 * A grid's frame: n cells per axis over the region lo..hi, inv = cells
 * per unit length (0 for a degenerate extent).  Grids have at most 2^31
 * cells (xg__grid_frame refuses more), so a cell's number fits 32 bits. */

/* The cell coordinate of x along axis k, clamped to the grid; monotone
 * in x, which is what makes the ownership rule sound. */
XG_HD int xg__cell_of(const int *n, const double *lo, const double *inv,
                      int k, double x)
{
    double f = (x - lo[k]) * inv[k];
    if (!(f > 0.0))
        return 0;
    if (f >= (double)n[k])
        return n[k] - 1;
    return (int)f;
}

/* The cell range c[6] of box; returns 0 (and an empty range) when the
 * box is none or misses the region, 1 otherwise. */
XG_HD int xg__box_cells(const int *n, const double *lo, const double *hi,
                        const double *inv, const double *box, int32_t *c)
{
    int k, in = !xg__box_is_none(box), r[6];
    for (k = 0; k < 3 && in; k++)
        if (box[3 + k] < lo[k] || box[k] > hi[k])
            in = 0;
    if (!in) {
        c[0] = 1;
        c[1] = c[2] = c[3] = c[4] = c[5] = 0;
        return 0;
    }
    /* into r first: a store to c (int32_t) may alias n (int), which the
     * compiler would then read again for each cell_of */
    for (k = 0; k < 3; k++) {
        r[k] = xg__cell_of(n, lo, inv, k, box[k]);
        r[3 + k] = xg__cell_of(n, lo, inv, k, box[3 + k]);
    }
    for (k = 0; k < 6; k++)
        c[k] = r[k];
    return 1;
}

/* The number of cell (x, y, z): z-major, then y, then x. */
XG_HD uint32_t xg__cell_index(const int *n, int x, int y, int z)
{
    return ((uint32_t)z * (uint32_t)n[1] + (uint32_t)y) * (uint32_t)n[0] +
           (uint32_t)x;
}

/* The ownership rule.  A pair whose boxes meet shares every cell of the
 * intersection of its two cell ranges; it is evaluated only in the cell
 * holding the lowest corner of the intersection of its boxes.  Since the
 * cell function is monotone, that cell's coordinates are the larger low
 * cell of the two ranges on each axis.  ca, cb: the pair's cell ranges
 * (at least their low cells); returns the owner's number. */
XG_HD uint32_t xg__owner(const int *n, const int32_t *ca, const int32_t *cb)
{
    return xg__cell_index(n, ca[0] > cb[0] ? ca[0] : cb[0],
                          ca[1] > cb[1] ? ca[1] : cb[1],
                          ca[2] > cb[2] ? ca[2] : cb[2]);
}


/* Non-zero when point p's upward ray may meet or start on a triangle
 * whose box is box: p in the box in x and y (closed) and not above it.
 * Exact comparisons; anything else is a certain miss (xg_inside). */
XG_HD int xg__ray_box_holds(const double *p, const double *box)
{
    return p[0] >= box[0] && p[0] <= box[3] && p[1] >= box[1] &&
           p[1] <= box[4] && p[2] <= box[5];
}

#endif /* XG_BOXES_H */
