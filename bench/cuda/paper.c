/*
 * paper.c -- the host side of the paper's GPU strategies (paper.h), for
 * the benchmark only, outside the library: the segtri engine's list of pairs built on the CPU,
 * and the paper's red/blue method (section 11.3.4): the uniform grid
 * built on the CPU (xg__redblue_prepare, the CPU engines' preparation),
 * every pair of an A and a B segment sharing a cell listed, the list sent
 * to the GPU, one thread per pair with the filter, and the duplicates
 * (pairs met in several cells) dropped at the end.  The output protocol,
 * the sort and the finishing are the product's.
 */
#include <stdlib.h>
#include <string.h>
#include "paper.h"
#include "op/redblue/redblue_gpu.h"

int xg__paper_segtri_pairs(const struct xg_grid *g, uint32_t **pairs,
                           uint64_t *npairs)
{
    size_t c, n = 0, cap = 1 << 16;
    uint32_t *v = malloc(2 * cap * sizeof *v);
    if (!v)
        return XG_ENOMEM;
    for (c = 0; c < g->ncell; c++) {
        uint32_t ia, ib;
        for (ia = g->a_start[c]; ia < g->a_start[c + 1]; ia++) {
            uint32_t i = g->a_items[ia];
            for (ib = g->b_start[c]; ib < g->b_start[c + 1]; ib++) {
                uint32_t j = g->b_items[ib];
                if (!xg__boxes_meet(g->a_box + 6 * (size_t)i,
                                    g->b_box + 6 * (size_t)j) ||
                    !xg__grid_owns(g, c, g->a_cell + 6 * (size_t)i,
                                   g->b_cell + 6 * (size_t)j))
                    continue;
                if (n == cap) {
                    uint32_t *p = realloc(v, 4 * cap * sizeof *v);
                    if (!p) {
                        free(v);
                        return XG_ENOMEM;
                    }
                    v = p;
                    cap *= 2;
                }
                v[2 * n] = i;
                v[2 * n + 1] = j;
                n++;
            }
        }
    }
    *pairs = v;
    *npairs = n;
    return XG_OK;
}

/* Every pair sharing a cell of g, as the paper lists them: 2 numbers per
 * pair (*pairs, caller frees). */
static int redblue_pairs(const struct xg_grid *g, uint32_t **pairs,
                         uint64_t *npairs)
{
    uint64_t n = 0, k = 0;
    uint32_t *v;
    size_t c;
    for (c = 0; c < g->ncell; c++)
        n += (uint64_t)(g->a_start[c + 1] - g->a_start[c]) *
             (g->b_start[c + 1] - g->b_start[c]);
    if (!(v = malloc((n ? n : 1) * 2 * sizeof *v)))
        return XG_ENOMEM;
    for (c = 0; c < g->ncell; c++) {
        uint32_t ia, ib;
        for (ia = g->a_start[c]; ia < g->a_start[c + 1]; ia++)
            for (ib = g->b_start[c]; ib < g->b_start[c + 1]; ib++) {
                v[2 * k] = g->a_items[ia];
                v[2 * k + 1] = g->b_items[ib];
                k++;
            }
    }
    *pairs = v;
    *npairs = n;
    return XG_OK;
}

static int paper_redblue(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                         struct xg_dmem *m, struct xg_grid *g,
                         const struct xg_set *a, const struct xg_set *b,
                         const struct xg_opts *opt, const double *d_a,
                         const double *d_b, struct xg_contacts *out,
                         struct xg_stats *st)
{
    struct xg_paper_redblue_pass l;
    struct xg_gpu_fill fill;
    uint32_t *pairs = NULL;
    const void *d_pairs = NULL;
    uint64_t npairs = 0;
    double t0 = xg__now(), t1;
    int rc;

    if ((rc = xg__redblue_prepare(ctx, a, b, opt, xg__threads(ctx), g, st)) !=
        XG_OK)
        return rc;
    if ((rc = redblue_pairs(g, &pairs, &npairs)) != XG_OK)
        return xg__error(ctx, rc, "out of memory for the list of pairs");
    st->candidates = npairs;
    t1 = xg__now();
    st->seconds[XG_STAGE_PREPARE] += t1 - t0;
    rc = xg__dmem_up(ctx, m, &d_pairs, pairs, npairs * 2 * sizeof *pairs,
                     gpu->s);
    if (rc == XG_OK)
        rc = XG_CUDA(ctx, cudaStreamSynchronize(gpu->s));
    free(pairs);
    if (rc != XG_OK)
        return rc;
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t1;

    l.d_a = d_a;
    l.d_b = d_b;
    l.d_pairs = d_pairs;
    l.npairs = npairs;
    xg__gpu_fill_init(&fill, xg__cuda_paper_redblue, &l,
                      xg__redblue_hits_guess(a, b));
    return xg__gpu_contacts(ctx, m, &fill, xg__redblue_ops, a->xyz, b->xyz,
                            1, out, st, gpu->s);
}

int xg__paper_redblue(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                      const struct xg_set *a, const struct xg_set *b,
                      const struct xg_opts *opt, const double *d_a,
                      const double *d_b, struct xg_contacts *out,
                      struct xg_stats *st)
{
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_grid g;
    int rc;
    memset(&g, 0, sizeof g);
    rc = paper_redblue(ctx, gpu, &m, &g, a, b, opt, d_a, d_b, out, st);
    xg__grid_free(&g);
    xg__dmem_free(&m);
    return rc;
}
