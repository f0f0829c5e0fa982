/*
 * xg_grid.h -- the uniform grid in CSR form (grid.c, grid_frame.c) and
 * the walk of a segment through its cells (pair_walk.c).
 */
#ifndef XG_GRID_H
#define XG_GRID_H

#include "exactgeo.h"
#include "xg_boxes.h"

/* ---- uniform grid (grid.c) ---- */

/* A 3D uniform grid in CSR form: the elements of cell c are
 * items[start[c]] .. items[start[c+1]-1], in ascending order. */
struct xg_grid {
    int n[3];
    double lo[3], hi[3]; /* the region covered */
    double inv[3];      /* cells per unit length, per axis */
    size_t ncell;
    uint32_t *a_start, *a_items;  /* ncell + 1, refs */
    uint32_t *b_start, *b_items;
    /* per element: the cell range of its box, lo and hi per axis */
    int32_t *a_cell, *b_cell;     /* 6 per element */
    double *a_box, *b_box;        /* 6 per element: min xyz, max xyz */
    uint64_t candidates;          /* sum over cells of |A_c| |B_c|
                                     (xg__grid_build's; 0 on the device) */
    int borrowed;                 /* a_box, b_box are the caller's
                                     (xg__grid_build_on)               */
};

/* The grid's frame: region (where the hulls [min xyz, max xyz] of the
 * two sets meet; a_any / b_any 0 when a set has no box), dimensions
 * (cells, or xg_grid_default) and cell function; the arrays are left
 * alone.  Shared by xg__grid_build and the device grid (cuda/). */
int xg__grid_frame(struct xg_grid *g, const double ahull[6], int a_any,
                   const double bhull[6], int b_any, size_t na, size_t nb,
                   const int cells[3]);

/* Widens hull h (min xyz, max xyz; empty: +inf, -inf) by box b (not
 * none).  Strict comparisons: of equal bounds (0.0, -0.0) the first
 * stays, so that a hull taken in shares and merged in share order is
 * the hull of one pass. */
static inline void xg__hull_add(double h[6], const double *b)
{
    int k;
    for (k = 0; k < 3; k++) {
        if (b[k] < h[k])
            h[k] = b[k];
        if (b[3 + k] > h[3 + k])
            h[3 + k] = b[3 + k];
    }
}

/* Builds the grid over na boxes of A and nb boxes of B (6 doubles each,
 * min then max; an element with a NULL-marked box, box[0] > box[3], is
 * left out).  cells[k] <= 0 means choose.  Uses up to nthreads threads.
 * hulls: NULL, or the hulls of the threads' shares (xg__share) of the
 * boxes, taken as they were made: 6 doubles at 2 * tid + set (0 for A,
 * 1 for B) and any[2 * tid + set] 0 when that share has no box.
 * The grid takes ownership of a_box and b_box (freed by xg__grid_free),
 * also when it fails: then they are freed before it returns and g is
 * left empty.  Returns XG_OK or XG_ENOMEM / XG_ELIMIT. */
int xg__grid_build(struct xg_grid *g, double *a_box, size_t na, double *b_box,
                   size_t nb, const int cells[3], int nthreads,
                   const double *hulls, const int *any);
/* The same over boxes the caller keeps (and frees, after xg__grid_free):
 * a grid over boxes already made for another, without a copy. */
int xg__grid_build_on(struct xg_grid *g, const double *a_box, size_t na,
                      const double *b_box, size_t nb, const int cells[3],
                      int nthreads);
void xg__grid_free(struct xg_grid *g);
/* Cells for one set of n boxes over its hull lo .. hi: about as wide as
 * the boxes are, on average, along the first dims axes (2: columns, the
 * others 1 cell; 3: cells), so that an element lies in a few cells and a
 * cell lists the few elements near it; at most per n + 16 cells (halved
 * on every axis until they fit) and 65536 per axis. */
void xg__grid_cells_boxes(const double *box, size_t n, const double lo[3],
                          const double hi[3], int dims, double per,
                          int cells[3]);

/* Non-zero when pair (i, j) with cell ranges ca, cb, both in cell c, is
 * owned by c (the ownership rule, xg__owner): each pair whose boxes meet
 * is owned by exactly one cell. */
static inline int xg__grid_owns(const struct xg_grid *g, size_t c,
                                const int32_t *ca, const int32_t *cb)
{
    return xg__owner(g->n, ca, cb) == c;
}

/* ---- the cells a segment passes through (pair_walk.c) ---- */

/* A segment's walk: its box's cell range bc, cut into layers along axis
 * m (the longest in cells), each layer narrowed on the other axes < dim
 * to the cells of the segment's part in it (narrow; without it, every
 * layer is the box's whole cross-section). */
struct xg__segwalk {
    const struct xg_grid *g;
    int m, dim, narrow;
    int32_t bc[6];
    double D[3], q[3];          /* start; d(x_k) / d(x_m) along it */
    double smin[3], smax[3];    /* the segment's extent */
    double mu[3];               /* the margin, per axis */
};

/* Starts the walk of segment seg (6 doubles; axes 0 .. dim-1 count, the
 * others keep bc's range) whose box has cell range bc in g.  The layers
 * run from bc[m] to bc[3 + m]; an empty bc (bc[0] > bc[3]) has none. */
void xg__segwalk_init(struct xg__segwalk *w, const struct xg_grid *g,
                   const double *seg, const int32_t *bc, int dim);
/* The cell range c of layer s (bc[m] <= s <= bc[3 + m]): every cell
 * that may hold a point of the segment whose m-cell is s, within bc.
 * Ranges move monotonically with s on every axis. */
void xg__segwalk_layer(const struct xg__segwalk *w, int s, int32_t c[6]);

/* Zero only when the segment of walk w certainly misses box (6
 * doubles): its part within the box's extent on axis m, widened by the
 * walk's margin, misses the box on another axis.  Sound for the same
 * reasons as the walk's layers (pair_walk.c): a cheap cull before the
 * filters for the box pairs whose boxes meet far from the segment. */
int xg__segwalk_may_meet(const struct xg__segwalk *w, const double *box);

/* Non-zero when the walk gives a pair to cell xyz of the layer whose
 * range is c (on axis m), the pair's B element having cell range cb and
 * being listed in that cell; prev is the previous layer's range (NULL for
 * the first).  A pair met in several cells of the walk goes to one: the
 * first layer whose range meets cb (the layers that do are consecutive,
 * the ranges moving monotonically), and in it the lowest corner of the
 * meeting -- the walk's own ownership rule, with nothing remembered. */
static inline int xg__segwalk_owns(int m, const int32_t *c, const int32_t *prev,
                                const int32_t *cb, const int32_t *xyz)
{
    int k;
    for (k = 0; k < 3; k++)
        if (k != m && xyz[k] != (c[k] > cb[k] ? c[k] : cb[k]))
            return 0;
    if (!prev || cb[m] > prev[m])
        return 1;
    for (k = 0; k < 3; k++)
        if (k != m && (prev[k] > cb[3 + k] || cb[k] > prev[3 + k]))
            return 1;
    return 0;
}

#endif /* XG_GRID_H */
