/*
 * gpu_plan.c -- the host side of the GPU engine's scheduling: the
 * multi-block tables of the paper (section 11.3.5) and the cutting of a
 * grid into batches that fit a device-memory budget.  Plain C with no
 * CUDA, so that `make check` tests it on machines without a GPU.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_mem.h"
#include "xg_grid.h"
#include "xg_gpuhost.h"

void xg__blocks_free(struct xg_blocks *bt)
{
    if (!bt)
        return;
    free(bt->cell);
    free(bt->first);
    free(bt->last);
    memset(bt, 0, sizeof *bt);
}

int xg__blocks_build(const uint32_t *a_start, const uint32_t *b_start,
                     size_t c0, size_t c1, unsigned th, struct xg_blocks *bt)
{
    size_t c, n = 0, k = 0;

    memset(bt, 0, sizeof *bt);
    if (th == 0)
        return XG_EINVAL;
    /* Two passes: count the blocks, then fill the three tables. */
    for (c = c0; c < c1; c++) {
        uint64_t s = a_start[c + 1] - a_start[c];
        uint64_t t = b_start[c + 1] - b_start[c];
        n += (size_t)((s * t + th - 1) / th);
        bt->pairs += s * t;
    }
    bt->cell = malloc((n ? n : 1) * sizeof *bt->cell);
    bt->first = malloc((n ? n : 1) * sizeof *bt->first);
    bt->last = malloc((n ? n : 1) * sizeof *bt->last);
    if (!bt->cell || !bt->first || !bt->last) {
        xg__blocks_free(bt);
        return XG_ENOMEM;
    }
    for (c = c0; c < c1; c++) {
        uint64_t pairs = (uint64_t)(a_start[c + 1] - a_start[c]) *
                         (uint64_t)(b_start[c + 1] - b_start[c]);
        uint64_t p;
        for (p = 0; p < pairs; p += th) {
            bt->cell[k] = (uint32_t)c;
            bt->first[k] = p;
            bt->last[k] = p + th - 1 < pairs ? p + th - 1 : pairs - 1;
            k++;
        }
    }
    bt->n = n;
    return XG_OK;
}

/* The device memory cell c of g takes in a batch with th threads a
 * block: its elements, its blocks and the pair records it may write. */
static uint64_t cell_bytes(const struct xg_grid *g, size_t c, unsigned th)
{
    uint64_t s = g->a_start[c + 1] - g->a_start[c];
    uint64_t t = g->b_start[c + 1] - g->b_start[c];
    uint64_t bytes = XG_GPU_CELL_BYTES;
    if (s && t)
        bytes += s * XG_GPU_A_BYTES + t * XG_GPU_B_BYTES +
                 (s * t + th - 1) / th * XG_GPU_BLOCK_BYTES +
                 s * t * XG_GPU_PAIR_BYTES;
    return bytes;
}

uint64_t xg__gpu_batch_bytes(const struct xg_grid *g, size_t c0, size_t c1,
                             unsigned th)
{
    uint64_t bytes = XG_GPU_CELL_BYTES;   /* the closing CSR start */
    size_t c;
    for (c = c0; c < c1; c++)
        bytes += cell_bytes(g, c, th);
    return bytes;
}

/* xg__gpu_plan_batches (xg_gpuhost.h): cells taken in order until the
 * next would pass the budget (a batch has one cell at least). */
int xg__gpu_plan_batches(const struct xg_grid *g, unsigned th,
                         uint64_t budget, size_t **bounds, size_t *nb)
{
    size_t c, n = 0, cap = 0;
    size_t *v = NULL;
    uint64_t used = XG_GPU_CELL_BYTES;

    /* n + 1 bounds: room for the first now, for the closing one below */
    if (xg__reserve((void **)&v, &cap, 2, sizeof *v))
        return XG_ENOMEM;
    v[n++] = 0;
    for (c = 0; c < g->ncell; c++) {
        uint64_t b = cell_bytes(g, c, th);
        if (used + b > budget && c > v[n - 1]) {
            if (xg__reserve((void **)&v, &cap, n + 2, sizeof *v)) {
                free(v);
                return XG_ENOMEM;
            }
            v[n++] = c;
            used = XG_GPU_CELL_BYTES;
        }
        used += b;
    }
    v[n] = g->ncell;
    *bounds = v;
    *nb = n;
    return XG_OK;
}

void xg__gpu_batch_free(struct xg_gpu_batch *bt)
{
    if (!bt)
        return;
    free(bt->seg);
    free(bt->tri);
    free(bt->a_cell);
    free(bt->b_cell);
    free(bt->a_start);
    free(bt->a_items);
    free(bt->b_start);
    free(bt->b_items);
    free(bt->a_map);
    free(bt->b_map);
    memset(bt, 0, sizeof *bt);
}

/* One set of a batch: local CSR, local numbers, the map back. */
static int gather_set(const uint32_t *start, const uint32_t *items,
                      const double *xyz, const int32_t *cells, int per,
                      size_t c0, size_t c1, uint32_t **l_start,
                      uint32_t **l_items, uint32_t **map, uint32_t *nloc,
                      double **l_xyz, int32_t **l_cell)
{
    size_t nref = start[c1] - start[c0], c, r, n = 0;
    uint32_t *st = malloc((c1 - c0 + 1) * sizeof *st);
    uint32_t *it = malloc((nref ? nref : 1) * sizeof *it);
    uint32_t *mp = malloc((nref ? nref : 1) * sizeof *mp);
    double *x;
    int32_t *ce;

    *l_start = st;
    *l_items = it;
    *map = mp;
    if (!st || !it || !mp)
        return XG_ENOMEM;
    /* Local numbers in first-seen order; a linear search of the map
     * would be quadratic, so sort-free: mark each global element with
     * its local number + 1 in a scratch array sized by the largest
     * global number met. */
    {
        uint32_t maxg = 0;
        uint32_t *loc;
        for (r = start[c0]; r < start[c1]; r++)
            if (items[r] > maxg)
                maxg = items[r];
        loc = calloc((size_t)maxg + 1, sizeof *loc);
        if (!loc)
            return XG_ENOMEM;
        for (c = c0; c < c1; c++) {
            st[c - c0] = start[c] - start[c0];
            for (r = start[c]; r < start[c + 1]; r++) {
                uint32_t gi = items[r];
                if (!loc[gi]) {
                    mp[n] = gi;
                    loc[gi] = (uint32_t)++n;
                }
                it[r - start[c0]] = loc[gi] - 1;
            }
        }
        st[c1 - c0] = (uint32_t)nref;
        free(loc);
    }
    *nloc = (uint32_t)n;
    x = malloc((n ? n : 1) * (size_t)per * sizeof *x);
    ce = malloc((n ? n : 1) * 6 * sizeof *ce);
    *l_xyz = x;
    *l_cell = ce;
    if (!x || !ce)
        return XG_ENOMEM;
    for (r = 0; r < n; r++) {
        memcpy(x + (size_t)per * r, xyz + (size_t)per * mp[r],
               (size_t)per * sizeof *x);
        memcpy(ce + 6 * r, cells + 6 * (size_t)mp[r], 6 * sizeof *ce);
    }
    return XG_OK;
}

int xg__gpu_batch_gather(const struct xg_grid *g, const double *seg_xyz,
                         const double *tri_xyz, size_t c0, size_t c1,
                         struct xg_gpu_batch *bt)
{
    int rc;
    memset(bt, 0, sizeof *bt);
    bt->c0 = c0;
    bt->c1 = c1;
    rc = gather_set(g->a_start, g->a_items, seg_xyz, g->a_cell, 6, c0, c1,
                    &bt->a_start, &bt->a_items, &bt->a_map, &bt->na,
                    &bt->seg, &bt->a_cell);
    if (rc == XG_OK)
        rc = gather_set(g->b_start, g->b_items, tri_xyz, g->b_cell, 9, c0,
                        c1, &bt->b_start, &bt->b_items, &bt->b_map, &bt->nb,
                        &bt->tri, &bt->b_cell);
    if (rc != XG_OK)
        xg__gpu_batch_free(bt);
    return rc;
}
