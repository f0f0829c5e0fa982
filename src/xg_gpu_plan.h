/*
 * xg_gpu_plan.h -- the GPU engines' host side in plain C, built with or
 * without CUDA so that `make check` tests it: scheduling and batching
 * (gpu_plan.c), and the device's hits made contacts (gpu_finish.c).
 */
#ifndef XG_GPU_PLAN_H
#define XG_GPU_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "exactgeo.h"
#include "xg_interval.h"   /* XG_HD */

struct xg_grid;
struct xg_gpu_hit;
struct xg__pair_ops;

/* ---- GPU scheduling and batching, host side (gpu_plan.c) ----
 * Plain C, built with or without CUDA, so that `make check` tests it. */

/* The paper's multi-block schedule over cells c0..c1-1: a cell holding
 * S_c segments and T_c triangles (both non-zero) gets ceil(S_c T_c / th)
 * blocks; block k processes the pairs first[k]..last[k] (inclusive) of
 * cell cell[k], pair P being segment P % S_c and triangle P / S_c of the
 * cell.  The counts come from the CSR starts (S_c = a_start[c+1] -
 * a_start[c]).  pairs = the sum of S_c T_c.  Free with xg__blocks_free. */
struct xg_blocks {
    size_t n;
    uint32_t *cell;
    uint64_t *first, *last;
    uint64_t pairs;
};
int xg__blocks_build(const uint32_t *a_start, const uint32_t *b_start,
                     size_t c0, size_t c1, unsigned th, struct xg_blocks *bt);
void xg__blocks_free(struct xg_blocks *bt);

/* Pair P < 2^32 of a cell with S segments, split without a division:
 * m = xg__pair_magic(S) is computed once per cell, and the high word of
 * P m is P / S or one less (m >= 2^32 / S - 1 and P < 2^32 make the
 * product exceed 2^32 (P / S - 1)), which one comparison corrects.
 * Returns the triangle P / S; *seg gets P % S. */
XG_HD uint32_t xg__pair_magic(uint32_t S) { return UINT32_MAX / S; }

XG_HD uint32_t xg__pair_split(uint32_t P, uint32_t S, uint32_t m,
                              uint32_t *seg)
{
    uint32_t q = (uint32_t)(((uint64_t)P * m) >> 32), r = P - q * S;
    if (r >= S) {
        q++;
        r -= S;
    }
    *seg = r;
    return q;
}

/* Device bytes per element and per cell of one batch (inputs only). */
#define XG_GPU_A_BYTES (6 * 8 + 6 * 4 + 32 + 4) /* xyz, cell range,
                                                  packed record, a ref */
#define XG_GPU_B_BYTES (9 * 8 + 6 * 4 + 32 + 4)
#define XG_GPU_CELL_BYTES 36   /* two CSR starts; packed: pairs, blocks,
                                  cell list, run of pairs */
#define XG_GPU_BLOCK_BYTES 20              /* cell, first, last      */
#define XG_GPU_PAIR_BYTES 8     /* packed: the count pass's list      */
#define XG_GPU_HIT_BYTES 96                /* a hit, sorted copy, keys */

/* An upper bound on the device bytes the inputs of cells c0..c1-1 take
 * (an element counted once per cell it appears in). */
uint64_t xg__gpu_batch_bytes(const struct xg_grid *g, size_t c0, size_t c1,
                             unsigned th);

/* Cuts the cells into consecutive ranges whose xg__gpu_batch_bytes stays
 * within budget (a cell alone over budget is a range of its own).
 * *bounds gets nb + 1 cell numbers, range i being bounds[i] ..
 * bounds[i+1]-1; caller frees it with free(). */
int xg__gpu_plan_batches(const struct xg_grid *g, unsigned th,
                         uint64_t budget, size_t **bounds, size_t *nb);

/* The inputs of cells c0..c1-1 with local element numbers: the elements
 * the cells reference, in first-seen order, their coordinates and cell
 * ranges, the cells' CSR with local numbers (start[c - c0]), and the map
 * back to global numbers.  Free with xg__gpu_batch_free. */
struct xg_gpu_batch {
    size_t c0, c1;
    uint32_t na, nb;
    double *seg, *tri;
    int32_t *a_cell, *b_cell;
    uint32_t *a_start, *a_items, *b_start, *b_items;
    uint32_t *a_map, *b_map;
};
int xg__gpu_batch_gather(const struct xg_grid *g, const double *seg_xyz,
                         const double *tri_xyz, size_t c0, size_t c1,
                         struct xg_gpu_batch *bt);
void xg__gpu_batch_free(struct xg_gpu_batch *bt);

/* ---- GPU hits to contacts (gpu_finish.c) ---- */

/* The n hits at h, sorted by (a, b), into out (replaced; caller frees),
 * on the CPU threads: a deferred hit goes to ops->exact, any other to
 * ops->settle, and the (a, b) order survives.  a, b: the two sets'
 * coordinates (ops' strides).  dedup: a hit whose (a, b) equals the
 * previous one's is skipped (the paper's pair list, where a pair sharing
 * several cells comes back once from each).  Adds to st's contacts,
 * deferred, counters and seconds (exact: the slowest thread's GMP time;
 * unique: the rest), and to *constructed the points rounded on the host.
 * Plain C, built with or without CUDA. */
int xg__gpu_finish(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                   const double *a, const double *b,
                   const struct xg_gpu_hit *h, size_t n, int dedup,
                   struct xg_contacts *out, struct xg_stats *st,
                   uint64_t *constructed);

#endif /* XG_GPU_PLAN_H */
