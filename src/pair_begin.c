/*
 * pair_begin.c -- the frame of every pair operation's run (xg_segtri,
 * xg_redblue, xg_inside, their regions): the checks and the engine's
 * choice before any work, the progress at 0 and 1, the kinds counted
 * after.  The cancel test every engine makes is here too.
 */
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_sets.h"
#include "xg_gpu.h"
#include "xg_pair.h"
#include "xg_engine.h"

/* xg__cancelled_at (xg_ctx.h). */
int xg__cancelled_at(struct xg_ctx *ctx, double fraction)
{
    return ctx && ctx->progress && ctx->progress(fraction, ctx->progress_user);
}

/* XG_EINVAL unless set s (A or B) holds elements of kind elem. */
static int check_kind(struct xg_ctx *ctx, const struct xg_set *s, int elem,
                      const char *which)
{
    if (xg__set_fits(s, elem))
        return XG_OK;
    return xg__error(ctx, XG_EINVAL, "set %s holds %ss, not %ss", which,
                     xg_elem_name(s->elem), xg_elem_name(elem));
}

/* xg__pair_check_finite (xg_pair.h): the set's elements as points
 * of ops' dimension. */
int xg__pair_check_finite(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                          const struct xg_set *s, int is_a)
{
    int elem = is_a ? ops->a_elem : ops->b_elem;
    return xg__check_finite(ctx, s->xyz, s->n, xg_elem_doubles(elem),
                            ops->dim, s->fid, xg_elem_name(elem));
}

/* xg__pair_begin (xg_pair.h): kinds, sizes, coordinates (where
 * the gpu engine does not check them itself), then the engine. */
int xg__pair_begin(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                   const struct xg_set *a, const struct xg_set *b,
                   const struct xg_opts *opt, struct xg_contacts *out,
                   struct xg_stats *st, int *engine)
{
    int rc;
    memset(st, 0, sizeof *st);
    out->n = 0;
    if ((rc = check_kind(ctx, a, ops->a_elem, "A")) ||
        (rc = check_kind(ctx, b, ops->b_elem, "B")))
        return rc;
    if (a->n > UINT32_MAX || b->n > UINT32_MAX)
        return xg__error(ctx, XG_ELIMIT, "more than 2^32 elements in a set");
    if (!(ops->gpu_checks_finite &&
          (opt->engine == XG_ENGINE_GPU || opt->engine == XG_ENGINE_AUTO) &&
          xg__gpu_usable(ctx)) &&
        ((rc = xg__pair_check_finite(ctx, ops, a, 1)) ||
         (rc = xg__pair_check_finite(ctx, ops, b, 0))))
        return rc;
    st->a_count = a->n;
    st->b_count = b->n;
    *engine = opt->engine;
    if (*engine == XG_ENGINE_AUTO)
        *engine = xg__gpu_usable(ctx) ? XG_ENGINE_GPU : XG_ENGINE_CPU;
    if (*engine < XG_ENGINE_SEQ || *engine > XG_ENGINE_GPU)
        return xg__error(ctx, XG_EINVAL, "unknown engine %d", *engine);
    if (*engine == XG_ENGINE_GPU && (rc = xg__gpu_require(ctx)) != XG_OK)
        return rc;
    st->engine = *engine;
    st->threads = *engine == XG_ENGINE_CPU ? xg__threads(ctx) : 1;
    st->gpus = *engine == XG_ENGINE_GPU;
    st->regions = 1;
    free(out->v);
    memset(out, 0, sizeof *out);
    if (xg__cancelled_at(ctx, 0.0))
        return xg__error(ctx, XG_ECANCEL, "cancelled");
    return XG_OK;
}

/* xg__pair_end (xg_pair.h): the kinds counted again where the
 * engine's counts do not add up to the contacts it gave. */
int xg__pair_end(struct xg_ctx *ctx, int rc, struct xg_contacts *out,
                 struct xg_stats *st)
{
    size_t i;
    int k;
    /* The last progress call: a cancel asked now is a cancel, however
     * fast the engine was. */
    if (rc == XG_OK && xg__cancelled_at(ctx, 1.0))
        rc = xg__error(ctx, XG_ECANCEL, "cancelled");
    if (rc != XG_OK) {
        xg_contacts_free(out);
        return rc;
    }
    /* Counted where the contacts were made (the GPU engines), else here. */
    for (k = 0, i = 0; k < XG_KIND_COUNT; k++)
        i += st->contacts[k];
    if (i == out->n)
        return XG_OK;
    for (k = 0; k < XG_KIND_COUNT; k++)
        st->contacts[k] = 0;
    for (i = 0; i < out->n; i++)
        st->contacts[out->v[i].kind]++;
    return XG_OK;
}

/* xg__pair_one (xg_pair.h): one body for every pair operation whose run
 * is its engine's alone (segtri, red/blue), so their dispatch cannot
 * drift apart. */
int xg__pair_one(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                 const struct xg_op *op, const struct xg_set *a,
                 const struct xg_set *b, const struct xg_opts *opt,
                 struct xg_contacts *out, struct xg_stats *st)
{
    int engine, rc;
    rc = xg__pair_begin(ctx, ops, a, b, opt, out, st, &engine);
    if (rc != XG_OK)
        return rc;
    if (engine == XG_ENGINE_GPU)
        rc = xg__engine_pair(ctx, op, XG_ENGINE_GPU, a, b, opt, NULL, out,
                             st);
    else
        rc = xg__pair_run(ctx, ops, a->xyz, a->n, b->xyz, b->n, opt,
                          st->threads, NULL, out, st);
    return xg__pair_end(ctx, rc, out, st);
}

/* xg__pair_decide (xg_pair.h): the public one-pair classifications
 * (xg_segtri_pair, xg_redblue_pair) through their pair's own stages. */
int xg__pair_decide(const struct xg__pair_ops *ops, struct xg_counters *cnt,
                    const double *ea, const double *eb, struct xg_contact *c)
{
    struct xg_counters local = {0};
    int r;
    if (!cnt)
        cnt = &local;
    r = ops->fast(cnt, ea, eb, c);
    if (r >= 0)
        return r;
    return ops->exact(cnt, ea, eb, c);
}
