/*
 * grid_frame.c -- the uniform grid's frame (grid.c builds its lists):
 * the region it covers, where the hulls of the two sets meet, and how
 * many cells it cuts that region into, for both sets' elements
 * (xg_grid_default) or for one set's boxes (xg__grid_cells_boxes).
 * The device grid (cuda/grid_gpu.cu) takes the same frame.
 */
#include <math.h>
#include "exactgeo.h"
#include "xg_grid.h"

#define MAX_CELLS_PER_AXIS 2048
#define MAX_CELLS ((size_t)1 << 28)

/* xg_grid_default (exactgeo.h): cubic cells, about one per element, at
 * most MAX_CELLS_PER_AXIS a side and MAX_CELLS in all. */
void xg_grid_default(size_t na, size_t nb, const double lo[3],
                     const double hi[3], int cells[3])
{
    double ext[3], vol = 1.0, target = (double)(na + nb), h;
    int k, dims = 0;

    if (target < 1.0)
        target = 1.0;
    for (k = 0; k < 3; k++) {
        ext[k] = hi[k] - lo[k];
        if (ext[k] > 0.0) {
            vol *= ext[k];
            dims++;
        }
    }
    /* Cubic cells, about one per element: the paper's 100^3 for 1M
     * triangles in a cube. */
    h = dims ? pow(vol / target, 1.0 / dims) : 1.0;
    for (k = 0; k < 3; k++) {
        double n = ext[k] > 0.0 && h > 0.0 ? ceil(ext[k] / h) : 1.0;
        if (!(n >= 1.0))
            n = 1.0;
        if (n > MAX_CELLS_PER_AXIS)
            n = MAX_CELLS_PER_AXIS;
        cells[k] = (int)n;
    }
    while ((size_t)cells[0] * (size_t)cells[1] * (size_t)cells[2] > MAX_CELLS)
        for (k = 0; k < 3; k++)
            cells[k] = cells[k] > 1 ? cells[k] / 2 : 1;
}

/* xg__grid_cells_boxes (xg_grid.h): cells about as wide as the
 * boxes on average, at most per n + 16 of them. */
void xg__grid_cells_boxes(const double *box, size_t n, const double lo[3],
                          const double hi[3], int dims, double per,
                          int cells[3])
{
    double w[3] = {0, 0, 0};
    size_t i;
    int k;
    for (i = 0; i < n; i++)
        for (k = 0; k < dims; k++)
            w[k] += box[6 * i + 3 + k] - box[6 * i + k];
    for (k = 0; k < 3; k++) {
        double ext = hi[k] - lo[k], h = n ? w[k] / (double)n : 0, c;
        c = k < dims && ext > 0 && h > 0 ? ceil(ext / h) : 1;
        if (!(c >= 1))
            c = 1;
        cells[k] = c > 65536 ? 65536 : (int)c;
    }
    for (;;) {
        double total = (double)cells[0] * cells[1] * cells[2];
        if (total <= per * (double)n + 16 && total <= 2147483647.0)
            break;
        for (k = 0; k < dims; k++)
            cells[k] = cells[k] > 1 ? (cells[k] + 1) / 2 : 1;
    }
}

/* xg__grid_frame (xg_grid.h): the region where the hulls meet (an
 * empty one, which every box misses, where they do not), the cells
 * asked for or xg_grid_default's, and the cell function's inverse
 * widths; XG_ELIMIT past MAX_CELLS * 8 cells. */
int xg__grid_frame(struct xg_grid *g, const double ahull[6], int a_any,
                   const double bhull[6], int b_any, size_t na, size_t nb,
                   const int cells[3])
{
    double lo[3], hi[3];
    int k, empty = !a_any || !b_any;

    for (k = 0; k < 3 && !empty; k++) {
        lo[k] = ahull[k] > bhull[k] ? ahull[k] : bhull[k];
        hi[k] = ahull[3 + k] < bhull[3 + k] ? ahull[3 + k] : bhull[3 + k];
        if (lo[k] > hi[k])
            empty = 1;
    }
    if (empty) {
        for (k = 0; k < 3; k++) {
            lo[k] = 0.0;
            hi[k] = -1.0;     /* every box misses this region */
        }
    }
    if (cells && cells[0] > 0 && cells[1] > 0 && cells[2] > 0) {
        for (k = 0; k < 3; k++)
            g->n[k] = cells[k];
    } else if (empty) {
        g->n[0] = g->n[1] = g->n[2] = 1;
    } else {
        xg_grid_default(na, nb, lo, hi, g->n);
    }
    g->ncell = (size_t)g->n[0] * (size_t)g->n[1] * (size_t)g->n[2];
    /* At most 2^31 cells: every cell number fits the 32 bits of
     * xg__cell_index, on the host and on the device. */
    if (g->ncell > MAX_CELLS * 8)
        return XG_ELIMIT;
    for (k = 0; k < 3; k++) {
        double ext = hi[k] - lo[k];
        g->lo[k] = lo[k];
        g->inv[k] = ext > 0.0 ? (double)g->n[k] / ext : 0.0;
        if (!isfinite(g->inv[k]))
            g->inv[k] = 0.0;  /* a degenerate extent: everything in cell 0 */
        g->hi[k] = hi[k];
    }
    return XG_OK;
}
