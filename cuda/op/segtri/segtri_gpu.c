/*
 * segtri_gpu.c -- the GPU engine of xg_segtri, host side: where a run is
 * prepared, and its end.  (The paper's section 11.3.5.)
 *
 *   on the device  when the whole input, its boxes and a grid fit half the
 *                  memory budget (segtri_prep.c): only the coordinates
 *                  travel;
 *   on the host    otherwise, or when the output turns out not to fit, or
 *                  for the paper's list-of-pairs strategy (the
 *                  benchmark's, gpu_bench.h): the grid is
 *                  built on the CPU, and its cells are cut into ranges
 *                  that fit (xg__gpu_plan_batches), each range's elements
 *                  gathered with local numbers; a range whose output does
 *                  not fit is halved.
 * Either way the same passes run over each batch (segtri_passes.c); the
 * host's batches go through the GPU engines' pipeline (segtri_batches.c),
 * each batch's hits appended to the run's beside the next batch's device
 * stages.  The hits, sorted by (a, b), become contacts on the CPU threads
 * (xg__gpu_finish): the entries the device could not settle (a deferred
 * classification or an uncertified point) go to GMP there.
 */
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"

/* qsort's order of hits: ascending (a, b), the engines' contact order. */
static int cmp_hit(const void *x, const void *y)
{
    const struct xg_gpu_hit *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* The job's hits into contacts.  Batches are each sorted on the device;
 * gathered batches interleave, and are merged here. */
static int finish(struct xg_segtri_job *J, struct xg_contacts *out)
{
    if (J->gathered)
        qsort(J->out.v, J->out.n, sizeof *J->out.v, cmp_hit);
    return xg__gpu_finish(J->ctx, xg__segtri_ops, J->a->xyz, J->b->xyz,
                          J->out.v, J->out.n, 0, out, J->st,
                          &J->go->construct_fail);
}

/* Preparation on the device when the whole input, its boxes and a grid
 * of about one cell and a few references per element take at most half
 * the budget (the list strategy is built on the CPU by definition). */
static int fits_device(const struct xg_segtri_job *J,
                       const struct xg_opts *opt)
{
    const int *c = opt->grid;
    uint64_t cells = c[0] > 0 && c[1] > 0 && c[2] > 0
                         ? (uint64_t)c[0] * (uint64_t)c[1] * (uint64_t)c[2]
                         : J->a->n + J->b->n;
    uint64_t full = (uint64_t)J->a->n * (6 * 8 * 2 + 24 + 32 + 64) +
                    (uint64_t)J->b->n * (9 * 8 + 48 + 24 + 32 + 4 + 64) +
                    cells * 60;
    return J->go->strategy != XG_GPU_LIST && full <= J->gpu.budget / 2 &&
           J->a->n < UINT32_MAX && J->b->n < UINT32_MAX;
}

int xg__segtri_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       struct xg_gpu_opts *gopt, struct xg_contacts *out,
                       struct xg_stats *st)
{
    struct xg_segtri_job J;
    struct xg_grid g;
    double t0 = xg__now();
    size_t c;
    int rc, have_grid = 0;

    memset(&J, 0, sizeof J);
    memset(&g, 0, sizeof g);
    out->n = 0;
    J.ctx = ctx;
    J.a = a;
    J.b = b;
    J.go = gopt;
    J.st = st;
    J.g = &g;
    gopt->count_bound = gopt->hits = gopt->relaunches = gopt->batches = 0;
    gopt->not_owned = gopt->construct_fail = gopt->refined = 0;
    gopt->plane_crossings = 0;
    gopt->count_seconds = gopt->interval_seconds = 0.0;
    gopt->count_kernel_seconds = gopt->interval_kernel_seconds = 0.0;
    gopt->device_prep = 0;
    if (gopt->strategy < 0 || gopt->strategy >= XG_GPU_NSTRAT)
        return xg__error(ctx, XG_EINVAL, "unknown GPU strategy %d",
                         gopt->strategy);
    /* the paper's strategies but the multi-block one are the
     * benchmark's: refused before any work where it has not linked them */
    if (gopt->strategy != XG_GPU_MULTI && gopt->strategy != XG_GPU_PACKED) {
        const struct xg__gpu_bench *bench;
        if ((rc = xg__gpu_bench_get(ctx, "the paper's GPU strategy",
                                    &bench)) != XG_OK)
            return rc;
    }
    if ((rc = xg__gpu_open(ctx, opt, &J.gpu)) != XG_OK)
        return rc;

    if (fits_device(&J, opt)) {
        struct xg_stats st0 = *st;
        struct xg_gpu_opts go0 = *gopt;
        rc = xg__segtri_device_run(&J, opt);
        if (rc != XG_GPU_SPLIT) {
            gopt->device_prep = 1;
            if (rc == XG_OK && st->candidates)
                rc = finish(&J, out);
            goto done;
        }
        /* The output does not fit: start over, prepared on the host. */
        *st = st0;
        *gopt = go0;
        free(J.out.v);
        memset(&J.out, 0, sizeof J.out);
        t0 = xg__now();
    }

    rc = xg__segtri_prepare(ctx, a, b, opt, xg__threads(ctx), &g, st);
    if (rc != XG_OK)
        goto done;
    have_grid = 1;
    for (c = 0; c < g.ncell; c++)
        st->candidates += (uint64_t)(g.a_start[c + 1] - g.a_start[c]) *
                          (g.b_start[c + 1] - g.b_start[c]);
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    if (st->candidates == 0)
        goto done;
    rc = xg__segtri_host_run(&J);
    if (rc == XG_OK)
        rc = finish(&J, out);
done:
    xg__gpu_close(&J.gpu);
    free(J.out.v);
    if (have_grid)
        xg__grid_free(&g);
    return rc;
}
