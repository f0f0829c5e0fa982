/*
 * xg_gpuhost.h -- the GPU engines' host half: what they do on the CPU
 * around the device's work, in plain C, built in every build (CUDA or
 * not) so that `make check` tests it on machines without a GPU:
 *   gpu_plan.c       the paper's multi-block tables, and the cutting of a
 *                    grid into batches that fit a device-memory budget;
 *   gpu_finish.c     the hits of the pair engines (struct xg_gpu_hit,
 *                    sorted by (a, b)) into contacts on the CPU threads;
 *   inside_finish.c  the host's part of a point-in-solid batch.
 * The engines (cuda/) include it through xg_cuda.h; src/ does not: the
 * core reaches the GPU engines only through their door, xg_engine.h.
 * What decides a hit on both sides (xg_gpu_hit.h) stays with the
 * predicates in src/, as the filters do.
 */
#ifndef XG_GPUHOST_H
#define XG_GPUHOST_H

#include <stddef.h>
#include <stdint.h>
#include "exactgeo.h"
#include "xg_interval.h"    /* XG_HD */

struct xg_grid;
struct xg_gpu_hit;
struct xg__pair_ops;
struct xg__solids;
struct xg__inside_tally;

/* ---- scheduling and batching (gpu_plan.c) ---- */

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

/* ---- hits into contacts (gpu_finish.c) ---- */

/* The n hits at h, sorted by (a, b), into out (replaced; caller frees),
 * on the CPU threads: a deferred hit goes to ops->exact, any other to
 * ops->settle, and the (a, b) order survives.  a, b: the two sets'
 * coordinates (ops' strides).  dedup: a hit whose (a, b) equals the
 * previous one's is skipped (the paper's pair list, where a pair sharing
 * several cells comes back once from each).  Adds to st's contacts,
 * deferred, counters and seconds (exact: the slowest thread's GMP time;
 * unique: the rest), and to *constructed the points rounded on the host. */
int xg__gpu_finish(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                   const double *a, const double *b,
                   const struct xg_gpu_hit *h, size_t n, int dedup,
                   struct xg_contacts *out, struct xg_stats *st,
                   uint64_t *constructed);

/* ---- a point-in-solid batch's host part (inside_finish.c) ---- */

/* The host's part of a GPU batch: the hits of points
 * a0 .. a0+n-1 (keys of xg__inside_key, sorted), decided exactly where
 * deferred (in place), then their records, and with outside the outside
 * records, appended to out in (a, b) order.  deferred: how many of the
 * hits are deferred (the device's count); with none, and without
 * outside, every hit is one record and the pass that counts them is
 * left out.  Per thread counters, added to st by
 * xg__inside_finish_stats. */
struct xg__inside_finish {
    const struct xg__solids *S;
    const double *xyz;          /* all points */
    size_t npoints;             /* their number (the room to reserve) */
    int method, outside, nthreads, phase;
    uint64_t *hit;
    uint64_t nhit;
    uint32_t a0, n;
    uint32_t *cut;              /* nthreads + 1: the slices' points */
    size_t *count;              /* per thread: its records */
    struct xg_contact *dst;     /* the batch's records */
    struct xg_counters *cnt;
    struct xg__inside_tally *tally;
    uint64_t (*kinds)[XG_KIND_COUNT];   /* per thread: records written */
    int failed;
};
int xg__inside_finish_init(struct xg__inside_finish *f,
                           const struct xg__solids *S, const double *xyz,
                           size_t npoints, int method, int outside,
                           int nthreads);
int xg__inside_finish(struct xg_ctx *ctx, struct xg__inside_finish *f,
                      uint64_t *hit, uint64_t nhit, uint64_t deferred,
                      uint32_t a0, uint32_t n, struct xg_contacts *out);
void xg__inside_finish_stats(const struct xg__inside_finish *f,
                             struct xg_stats *st);
void xg__inside_finish_free(struct xg__inside_finish *f);

#endif /* XG_GPUHOST_H */
