/*
 * delaunay_strips_proof.c -- where the fast proofs of a strip's triangle
 * (delaunay_bounds.h) doubt, the cpu engine of xg_delaunay
 * (delaunay_strips.h) looks for the points it did not see that conflict
 * with it: along the hull for a ghost, in the grid of all points for a
 * real triangle.  Those found go into the strip's triangulation and the
 * proofs run again, until none is found.
 */
#include <stdlib.h>
#include "delaunay_strips.h"
#include "xg_mem.h"

/* The slow proof stops after NEAR_CAP conflicts of one triangle and
 * takes in the NEAR_TAKE nearest: correctness needs only that a triangle
 * with a conflict is not kept, and the rounds repeat until none has. */
#define NEAR_CAP 64
#define NEAR_TAKE 8

/* Whether the strip took g in after its build (ad sorted). */
static int was_added(const struct xg__strips_added *ad, uint32_t g)
{
    size_t lo = 0, hi = ad->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ad->v[mid] < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ad->n && ad->v[lo] == g;
}

/* A point the strip has not seen: outside [lo, hi) and not taken in. */
static int unseen(const struct xg__strips *S,
                  const struct xg__strips_added *ad, uint32_t g, double lo,
                  double hi)
{
    double x = xg__strips_x(S, g);
    return (x < lo || x >= hi) && !was_added(ad, g);
}

/* Appends g to v, growing it (delaunay_strips.h). */
int xg__strips_push(struct xg__strips_added *v, uint32_t g)
{
    if (v->n == v->cap &&
        xg__grow((void **)&v->v, &v->cap, v->n + 1, sizeof *v->v))
        return XG_ENOMEM;
    v->v[v->n++] = g;
    return XG_OK;
}

/* A conflict the slow proof found: its squared distance to the
 * triangle's centroid, its set index. */
struct near {
    double d2;
    uint32_t g;
};

/* The nearest NEAR_TAKE of found[0 .. nfound-1] (ties by set index) into
 * more, each with every copy of its (x, y): they are the ones the whole
 * triangulation joins to this part; more would only widen the next
 * conflicts.  found is reordered.  XG_OK or XG_ENOMEM. */
static int take_nearest(const struct xg__strips *S, struct near *found,
                        int nfound, struct xg__strips_added *more)
{
    int i;
    for (i = 0; i < nfound && i < NEAR_TAKE; i++) {
        int m = i, q;
        struct near t;
        const double *p;
        size_t cell, k;
        for (q = i + 1; q < nfound; q++)
            if (found[q].d2 < found[m].d2 ||
                (found[q].d2 == found[m].d2 && found[q].g < found[m].g))
                m = q;
        t = found[i];
        found[i] = found[m];
        found[m] = t;
        /* with every copy of its (x, y), all in its cell: the merge rule
         * of insert_more then keeps the copy seq keeps */
        p = S->pts->xyz + 3 * (size_t)found[i].g;
        cell = xg__strips_cell_of(S, found[i].g);
        for (k = S->cstart[cell]; k < S->cstart[cell + 1]; k++) {
            const double *r = S->pts->xyz + 3 * (size_t)S->citem[k];
            if (r[0] == p[0] && r[1] == p[1] &&
                xg__strips_push(more, S->citem[k]))
                return XG_ENOMEM;
        }
    }
    return XG_OK;
}

/* The slow proof (delaunay_strips.h), where the fast one doubts (circles
 * along the hull, far larger than the strip): the unseen points that the
 * grid of all points finds near the disk, each tried exactly; the
 * nearest in conflict go to more.  A column's y range is narrowed by the
 * disk over that column, widened by a column each side against rounding
 * in the cell numbers (which are monotone in x and y, so the column and
 * row ranges are themselves safe). */
int xg__strips_grid_conflicts(const struct xg__strips *S,
                              struct xg_counters *cnt, const double *a,
                              const double *b, const double *c,
                              struct xg_iv ccx, struct xg_iv ccy,
                              double r_up, double lo, double hi,
                              const struct xg__strips_added *ad,
                              struct xg__strips_added *more,
                              size_t *doubted)
{
    size_t c0 = xg__strips_cell_x(S, ccx.lo - r_up);
    size_t c1 = xg__strips_cell_x(S, ccx.hi + r_up);
    size_t cm = xg__strips_cell_x(S, (a[0] + b[0] + c[0]) / 3), step;
    double cw = (S->box[2] - S->box[0]) / (double)S->nx;
    double mx = (a[0] + b[0] + c[0]) / 3, my = (a[1] + b[1] + c[1]) / 3;
    struct near found[NEAR_CAP];
    int nfound = 0;
    if (cm < c0)
        cm = c0;
    if (cm > c1)
        cm = c1;
    /* columns outward from the triangle's, so that a circle holding many
     * unseen points yields the nearest first and the scan stops early */
    for (step = 0; step <= (c1 - c0) && nfound < NEAR_CAP; step++) {
        int side;
        for (side = 0; side < 2 && nfound < NEAR_CAP; side++) {
            size_t col, r0, r1, k, end;
            double x0, x1, dx, half2, half;
            if (side == 0) {
                if (cm < c0 + step)
                    continue;
                col = cm - step;
            } else {
                if (step == 0 || cm + step > c1)
                    continue;
                col = cm + step;
            }
            x0 = S->box[0] + ((double)col - 1) * cw;
            x1 = S->box[0] + ((double)col + 2) * cw;
            if (x0 >= lo && x1 < hi)
                continue;               /* all seen */
            dx = ccx.lo > x1 ? ccx.lo - x1 : x0 > ccx.hi ? x0 - ccx.hi : 0;
            half2 = r_up * r_up * (1 + 0x1p-40) - dx * dx * (1 - 0x1p-40);
            if (half2 < 0)
                continue;
            half = sqrt(half2) * (1 + 0x1p-40);
            r0 = xg__strips_cell_y(S, ccy.lo - half);
            r1 = xg__strips_cell_y(S, ccy.hi + half);
            end = S->cstart[col * S->ny + r1 + 1];
            for (k = S->cstart[col * S->ny + r0];
                 k < end && nfound < NEAR_CAP; k++) {
                uint32_t g = S->citem[k];
                const double *p = S->pts->xyz + 3 * (size_t)g;
                if (!unseen(S, ad, g, lo, hi) ||
                    (p[0] == a[0] && p[1] == a[1]) ||
                    (p[0] == b[0] && p[1] == b[1]) ||
                    (p[0] == c[0] && p[1] == c[1]))
                    continue;
                uint64_t failures = cnt->filter_failures;
                int sign = xg__dt_incircle(cnt, a, b, c, p);
                *doubted += cnt->filter_failures != failures;
                if (sign > 0) {
                    found[nfound].d2 = (p[0] - mx) * (p[0] - mx) +
                                       (p[1] - my) * (p[1] - my);
                    found[nfound].g = g;
                    nfound++;
                }
            }
        }
    }
    return take_nearest(S, found, nfound, more);
}

/* The unseen hull points in conflict with ghost (a, b, G)
 * (delaunay_strips.h): were any point beyond the edge or on it, a point
 * on the hull's boundary would be too (a linear function peaks at a hull
 * vertex; a point on the edge's line is on the boundary).  Only the
 * nearest in x on each side go in (those of the largest x left of the
 * strip, of the smallest right of it): any conflict taken in is
 * progress, the rounds repeat until none is left, and the nearest are
 * the ones the whole triangulation joins to the strip.  Taking all of
 * them took a whole side of the hull into every strip below a slanted
 * hull edge (a lattice's partly filled last row: 1406 points into each
 * of half the strips at 10^7 points), each making slivers for the slow
 * proof. */
int xg__strips_ghost_conflicts(const struct xg__strips *S,
                               struct xg_counters *cnt, const double *a,
                               const double *b, double lo, double hi,
                               const struct xg__strips_added *ad,
                               struct xg__strips_added *more)
{
    double best[2] = {-INFINITY, INFINITY};
    int pass;
    for (pass = 0; pass < 2; pass++) {
        size_t i;
        for (i = 0; i < S->nhull; i++) {
            uint32_t g = S->hull[i];
            double x = xg__strips_x(S, g);
            if (x >= lo) {
                /* sorted by x: jump to the first at or past hi */
                size_t lo_i = i, hi_i = S->nhull;
                while (lo_i < hi_i) {
                    size_t mid = (lo_i + hi_i) / 2;
                    if (xg__strips_x(S, S->hull[mid]) < hi)
                        lo_i = mid + 1;
                    else
                        hi_i = mid;
                }
                if (lo_i >= S->nhull)
                    break;
                i = lo_i;
                g = S->hull[i];
                x = xg__strips_x(S, g);
            }
            if (pass == 1 && x != best[0] && x != best[1])
                continue;
            if (!unseen(S, ad, g, lo, hi) ||
                !xg__dt_ghost_conflict(cnt, a, b,
                                       S->pts->xyz + 3 * (size_t)g))
                continue;
            if (pass == 0) {
                if (x < lo && x > best[0])
                    best[0] = x;
                if (x >= hi && x < best[1])
                    best[1] = x;
            } else if (xg__strips_push(more, g))
                return XG_ENOMEM;
        }
        if (best[0] == -INFINITY && best[1] == INFINITY)
            break;                      /* no conflict */
    }
    return XG_OK;
}

/* The fast proof of a ghost (a, b, G), seen from strip [lo, hi)
 * (delaunay_strips.h): no unseen point is beyond the edge a -> b or
 * strictly between a and b on it.  The unseen points lie in the boxes
 * [xmin, lo] x [ymin, ymax] and [hi, xmax] x [ymin, ymax]; orient2d(a, b,
 * .) is affine, so it is at most 0 over a box when it is at most 0 at the
 * box's four corners (exact predicates on the corners, which need not be
 * points of the set).  A point on the edge's line strictly between a and
 * b has its x between theirs, inside [lo, hi) when a and b are, so it is
 * seen.  Along the hull of a lattice, whose edges lie on the box's sides,
 * this proves every ghost; ghost_conflicts then scans the hull points
 * only for the others (a strip at an end of the set has a whole side of
 * the hull in it: scanning every hull point for each of its ghosts took
 * time linear in the set on one thread). */
int xg__strips_ghost_clear(const struct xg__strips *S,
                           struct xg_counters *cnt, const double *a,
                           const double *b, double lo, double hi,
                           int need_left, int need_right)
{
    const double *box = S->box;
    int side;
    if (!(a[0] >= lo && a[0] < hi && b[0] >= lo && b[0] < hi))
        return 0;
    for (side = 0; side < 2; side++) {
        double x0 = side ? hi : box[0], x1 = side ? box[2] : lo;
        double c[4][2];
        int k;
        if (!(side ? need_right : need_left))
            continue;
        c[0][0] = x0; c[0][1] = box[1];
        c[1][0] = x1; c[1][1] = box[1];
        c[2][0] = x0; c[2][1] = box[3];
        c[3][0] = x1; c[3][1] = box[3];
        for (k = 0; k < 4; k++)
            if (xg_orient2d(cnt, a, b, c[k]) > 0)
                return 0;
    }
    return 1;
}
