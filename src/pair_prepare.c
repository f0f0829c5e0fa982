/*
 * pair_prepare.c -- what the CPU and GPU engines of every pair operation
 * start with (xg__pair_prepare): each element's box (a degenerate one
 * marked none, skipped and counted), on threads, the shares' hulls taken
 * as the boxes are made, then the grid over them (grid.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_grid.h"
#include "xg_mem.h"
#include "xg_pair.h"
#include "xg_boxes.h"
#include "xg_thread.h"

/* The preparation's sets and its per-thread results. */
struct prep {
    const struct xg__pair_ops *ops;
    const double *elem[2];      /* A's, B's elements */
    size_t n[2];
    int nthreads;
    double *box[2];             /* 6 doubles per element */
    double *hulls;              /* per thread and set: xg__grid_build's */
    int *any;
    uint64_t *bad;              /* per thread and set: degenerate */
    struct xg_counters *cnt;    /* per thread */
};

/* The boxes of this thread's share of set s, and the share's hull for
 * the grid's frame, taken while each box is at hand (a pass less over
 * the boxes: 30 MB on the world map). */
static void share_boxes(struct prep *P, int tid, int s)
{
    int (*box_of)(struct xg_counters *, const double *, double *) =
        s ? P->ops->b_box : P->ops->a_box;
    const size_t per = (size_t)xg_elem_doubles(s ? P->ops->b_elem
                                                 : P->ops->a_elem);
    size_t lo, hi, i, at = 2 * (size_t)tid + (size_t)s;
    double *h = P->hulls + 6 * at, *box = P->box[s];
    int k;
    for (k = 0; k < 3; k++) {
        h[k] = HUGE_VAL;
        h[3 + k] = -HUGE_VAL;
    }
    xg__share(P->n[s], P->nthreads, tid, &lo, &hi);
    for (i = lo; i < hi; i++)
        if (box_of(&P->cnt[tid], P->elem[s] + per * i, box + 6 * i)) {
            xg__box_none(box + 6 * i);
            P->bad[at]++;
        } else {
            xg__hull_add(h, box + 6 * i);
        }
    P->any[at] = hi - lo > P->bad[at];
}

/* Both sets' shares of this thread. */
static void prepare_worker(void *arg, int tid)
{
    share_boxes(arg, tid, 0);
    share_boxes(arg, tid, 1);
}

/* xg__pair_prepare (xg_pair.h): the boxes on threads, their counts
 * into st, then the grid, which takes the boxes. */
int xg__pair_prepare(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                     const double *a, size_t na, const double *b, size_t nb,
                     const struct xg_opts *opt, int nthreads,
                     struct xg_grid *g, struct xg_stats *st)
{
    struct prep P;
    int rc, t;

    memset(&P, 0, sizeof P);
    memset(g, 0, sizeof *g);
    P.ops = ops;
    P.elem[0] = a;
    P.elem[1] = b;
    P.n[0] = na;
    P.n[1] = nb;
    P.nthreads = nthreads;
    P.box[0] = xg__big_alloc((na ? na : 1) * 6 * sizeof(double));
    P.box[1] = xg__big_alloc((nb ? nb : 1) * 6 * sizeof(double));
    P.bad = calloc((size_t)nthreads * 2, sizeof(uint64_t));
    P.cnt = calloc((size_t)nthreads, sizeof(struct xg_counters));
    P.hulls = malloc((size_t)nthreads * 12 * sizeof(double));
    P.any = malloc((size_t)nthreads * 2 * sizeof(int));
    if (!P.box[0] || !P.box[1] || !P.bad || !P.cnt || !P.hulls || !P.any ||
        xg__parallel(nthreads, prepare_worker, &P) != XG_OK) {
        free(P.box[0]);
        free(P.box[1]);
        rc = xg__error(ctx, XG_ENOMEM, "out of memory while preparing");
        goto out;
    }
    for (t = 0; t < nthreads; t++) {
        st->a_skipped += P.bad[2 * t];
        st->b_skipped += P.bad[2 * t + 1];
        xg_counters_add(&st->cnt, &P.cnt[t]);
    }
    /* The grid owns the boxes from here on, and frees them if it fails. */
    rc = xg__grid_build(g, P.box[0], na, P.box[1], nb, opt->grid, nthreads,
                        P.hulls, P.any);
    if (rc != XG_OK) {
        rc = xg__error(ctx, rc, "cannot build the grid: %s", xg_strerror(rc));
        goto out;
    }
    for (t = 0; t < 3; t++)
        st->grid[t] = g->n[t];
    st->grid_refs_a = g->a_start[g->ncell];
    st->grid_refs_b = g->b_start[g->ncell];
out:
    free(P.bad);
    free(P.cnt);
    free(P.hulls);
    free(P.any);
    return rc;
}
