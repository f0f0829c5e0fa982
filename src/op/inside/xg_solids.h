/*
 * xg_solids.h -- the steps of xg__solids_prepare (inside_prep.c), each
 * in a file of its own: the solids checked closed (inside_check.c), the
 * kept triangles (inside_keep.c), the columns' runs (inside_runs.c),
 * and the one stable sort of the grouping (inside_group.c) and the
 * runs.  Private to those files; the engines read xg_inside.h.
 */
#ifndef XG_SOLIDS_H
#define XG_SOLIDS_H

#include <string.h>
#include "xg_inside.h"

/* Sorts the n elements of size bytes at v, stably, by before (non-zero
 * when its first argument goes first), with tmp of n elements: insertion
 * for a few, else a merge sort (qsort is not stable, and would need its
 * comparator's data in a global).  The one such sort of the solids;
 * inline, so that each caller's comparator is inlined into it. */
static inline void xg__sort_stable(void *v, void *tmp, size_t n,
                                   size_t size,
                                   int (*before)(const void *,
                                                 const void *))
{
    char *a = v, *t = tmp;
    size_t w, i;
    if (n <= 16) {
        for (i = 1; i < n; i++) {
            size_t k = i;
            memcpy(t, a + i * size, size);
            for (; k > 0 && before(t, a + (k - 1) * size); k--)
                memcpy(a + k * size, a + (k - 1) * size, size);
            memcpy(a + k * size, t, size);
        }
        return;
    }
    for (w = 1; w < n; w *= 2) {
        for (i = 0; i < n; i += 2 * w) {
            size_t m = i + w < n ? i + w : n, e = i + 2 * w < n ? i + 2 * w : n;
            size_t x = i, y = m, o = i;
            while (x < m && y < e) {
                int right = before(a + y * size, a + x * size);
                memcpy(t + o++ * size, a + (right ? y++ : x++) * size, size);
            }
            memcpy(t + o * size, a + x * size, (m - x) * size);
            o += m - x;
            memcpy(t + o * size, a + y * size, (e - y) * size);
        }
        memcpy(a, t, n * size);
    }
}

/* Every solid (order, start: xg__solids_group's) closed, else XG_EFORMAT
 * naming the first open one, in the solids' order: the one message of
 * an open solid, whoever checks (xg__solids_prepare, xg__solids_closed).
 * XG_ENOMEM with its message too. */
int xg__solids_check_closed(struct xg_ctx *ctx, const struct xg_set *b,
                            const uint32_t *order, const uint32_t *start,
                            size_t nsolid, int nthreads);

/* S's tri, solid, turn, tri_start (but its end) and first from B in the
 * order of order (solids start[0..nsolid]), collinear triangles counted
 * in st and left out, and their middles as S's junctions; box: the kept
 * triangles' boxes (b->n entries, the caller's); lo, hi: their hull;
 * *kept: their number.  S's arrays are the caller's, sized for b->n.
 * XG_OK or XG_ENOMEM. */
int xg__solids_keep(const struct xg_set *b, const uint32_t *order,
                    const uint32_t *start, size_t nsolid, int nthreads,
                    struct xg__solids *S, double *box, double lo[3],
                    double hi[3], size_t *kept, struct xg_stats *st);

/* S->run, S->run_start, S->nrun and S->top from S's columns (S->g), on
 * nthreads threads: each column's triangles in runs by solid, highest
 * box top first.  XG_OK or XG_ENOMEM (xg__solids_free frees what was
 * made either way). */
int xg__solids_runs(struct xg__solids *S, int nthreads);

#endif
