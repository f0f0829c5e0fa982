/*
 * segtri_engine.c -- xg_segtri: the segment-triangle pair for the shared
 * CPU engines (pair_engine.c) and the dispatch to the GPU one
 * (gpu_engine.c).
 */
#include <string.h>
#include "xg_segtri.h"
#include "xg_pair.h"
#include "xg_regions.h"
#include "xg_boxes.h"
#include "xg_gpu_hit.h"
#include "xg_ops.h"

/* The box of segment s (6 doubles) into box, 0; or 1 when its ends are
 * one point (skipped by every engine): the A side of segtri's pair op. */
static int seg_box(struct xg_counters *cnt, const double *s, double *box)
{
    (void)cnt;
    if (xg__seg_is_degenerate(s))
        return 1;
    xg__seg_box(s, box);
    return 0;
}

int xg__tri_box_kept(struct xg_counters *cnt, const double *t, double *box)
{
    if (xg__tri_is_degenerate(cnt, t))
        return 1;
    xg__tri_box(t, box);
    return 0;
}

/* A hit of the GPU engine (xg__segtri_hit, refined on the device) that
 * is not deferred: its point as the device certified it, else rounded
 * here. */
static void settle(struct xg_counters *cnt, const double *s, const double *t,
                   const struct xg_gpu_hit *h, struct xg_contact *c)
{
    c->kind = h->kind;
    memset(c->q, 0, sizeof c->q);
    if (h->flag == XG_GPU_HIT_CONSTRUCT) {
        xg__segtri_construct(cnt, s, t, c->p);
        return;
    }
    cnt->constructions++;
    cnt->construct_dd += h->flag == XG_GPU_HIT_DONE_DD;
    memcpy(c->p, h->p, sizeof c->p);
}

static const struct xg__pair_ops segtri_ops = {
    XG_ELEM_SEGMENT, XG_ELEM_TRIANGLE, 3, seg_box, xg__tri_box_kept,
    xg__segtri_fast_hit, xg__segtri_exact, settle, 0,
};
const struct xg__pair_ops *const xg__segtri_ops = &segtri_ops;

int xg__segtri_prepare(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       int nthreads, struct xg_grid *g, struct xg_stats *st)
{
    return xg__pair_prepare(ctx, &segtri_ops, a->xyz, a->n, b->xyz, b->n, opt,
                            nthreads, g, st);
}

/* The whole run, one region (opt, st not NULL). */
static int segtri_one(struct xg_ctx *ctx, const struct xg_set *a,
                      const struct xg_set *b, const struct xg_opts *opt,
                      struct xg_contacts *out, struct xg_stats *st)
{
    return xg__pair_one(ctx, &segtri_ops, &xg__op_segtri, a, b, opt, out, st);
}

static const struct xg__region_op segtri_region = {&segtri_ops, 0,
                                                   segtri_one, NULL,
                                                   &xg__op_segtri};
const struct xg__region_op *const xg__segtri_region = &segtri_region;

int xg_segtri(struct xg_ctx *ctx, const struct xg_set *a,
              const struct xg_set *b, const struct xg_opts *opt,
              struct xg_contacts *out, struct xg_stats *st)
{
    return xg__regions_entry(ctx, &segtri_region, a, b, opt, out, st);
}
