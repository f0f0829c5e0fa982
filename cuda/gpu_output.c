/*
 * gpu_output.c -- output of unknown size, for every GPU engine.
 *
 * An engine bounds its output first (segtri: a float count pass; red/blue:
 * a guess from the input sizes), then its filling pass appends each hit
 * with an atomic counter and drops what falls past the room it was given.
 * A count past the room means the bound fell short: the room grows to the
 * count and the pass runs again, which then fits (the pass is
 * deterministic).  The hits are then sorted by (a, b) on the device and
 * downloaded, a sparse list, for xg__gpu_finish.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_cuda.h"

int xg__gpu_fill(struct xg_ctx *ctx, struct xg_dmem *m, struct xg_gpu_fill *f,
                 void **d_out, cudaStream_t s)
{
    unsigned long long h_n[2], *d_n;
    cudaEvent_t ev[2];
    uint64_t cap = f->cap ? f->cap : 1;
    void *p;
    int rc;

    *d_out = NULL;
    f->n = f->tally = f->relaunches = 0;
    f->kernel_seconds = 0.0;
    if ((rc = xg__dmem_alloc(ctx, m, &p, sizeof h_n)) != XG_OK)
        return rc;
    d_n = p;
    if ((rc = xg__gpu_events(ctx, ev)) != XG_OK)
        return rc;
    for (;;) {
        if (cap > f->max_cap) {
            rc = XG_GPU_SPLIT;
            break;
        }
        if (cap > UINT32_MAX) {
            rc = xg__error(ctx, XG_ELIMIT, "more than 2^32 GPU hits in one "
                           "batch");
            break;
        }
        if ((rc = xg__dmem_alloc(ctx, m, &p, cap * f->item_bytes)) != XG_OK)
            break;
        if ((rc = XG_CUDA(ctx, cudaMemsetAsync(d_n, 0, sizeof h_n, s))) !=
                XG_OK ||
            (rc = XG_CUDA(ctx, cudaEventRecord(ev[0], s))) != XG_OK ||
            (rc = f->launch(ctx, f->user, p, cap, d_n, s)) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaEventRecord(ev[1], s))) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaMemcpyAsync(h_n, d_n, sizeof h_n,
                                               cudaMemcpyDeviceToHost, s))) !=
                XG_OK ||
            /* asleep through the pass (ev[1] blocks), then the count */
            (rc = XG_CUDA(ctx, cudaEventSynchronize(ev[1]))) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
            break;
        if (h_n[0] <= cap) {
            *d_out = p;
            f->n = h_n[0];
            f->tally = h_n[1];
            f->kernel_seconds = xg__gpu_elapsed(ev);
            break;
        }
        /* The bound fell short: room for all of them, and again. */
        xg__dmem_pop(m);
        cap = h_n[0];
        f->relaunches++;
    }
    xg__gpu_events_free(ev);
    return rc;
}

/* Sorts n items of f's kind from d_in into d_sorted; d_tmp NULL: the
 * scratch size into *tmp_bytes. */
static int sort_items(struct xg_ctx *ctx, const struct xg_gpu_fill *f,
                      const void *d_in, void *d_sorted, void *d_tmp,
                      size_t *tmp_bytes, cudaStream_t s)
{
    uint32_t n = (uint32_t)f->n;
    if (f->item_bytes == sizeof(uint64_t))
        return xg__cuda_sort_keys(ctx, d_in, d_sorted, n, d_tmp, tmp_bytes,
                                  s);
    return xg__cuda_sort_hits(ctx, d_in, d_sorted, n, d_tmp, tmp_bytes, s);
}

int xg__gpu_download_sorted(struct xg_ctx *ctx, struct xg_dmem *m,
                            const struct xg_gpu_fill *f, const void *d_out,
                            void **h_out, struct xg_stats *st,
                            cudaStream_t s)
{
    size_t tmp_bytes = 0, bytes = f->n * f->item_bytes;
    void *d_sorted, *d_tmp, *h;
    double t0 = xg__now(), t1;
    int rc;

    *h_out = NULL;
    /* Scratch size first, then the sort into a copy. */
    if ((rc = sort_items(ctx, f, d_out, NULL, NULL, &tmp_bytes, s)) !=
            XG_OK ||
        (rc = xg__dmem_alloc(ctx, m, &d_sorted, bytes)) != XG_OK ||
        (rc = xg__dmem_alloc(ctx, m, &d_tmp, tmp_bytes)) != XG_OK ||
        (rc = sort_items(ctx, f, d_out, d_sorted, d_tmp, &tmp_bytes, s)) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    t1 = xg__now();
    st->seconds[XG_STAGE_UNIQUE] += t1 - t0;

    if (!(h = xg__big_alloc(bytes ? bytes : 1)))
        return xg__error(ctx, XG_ENOMEM, "out of memory for %llu GPU hits",
                         (unsigned long long)f->n);
    if ((rc = xg__gpu_download(ctx, h, d_sorted, bytes)) != XG_OK) {
        free(h);
        return rc;
    }
    st->seconds[XG_STAGE_DOWNLOAD] += xg__now() - t1;
    *h_out = h;
    return XG_OK;
}

int xg__gpu_contacts(struct xg_ctx *ctx, struct xg_dmem *m,
                     struct xg_gpu_fill *f, const struct xg__pair_ops *ops,
                     const double *a, const double *b, int dedup,
                     struct xg_contacts *out, struct xg_stats *st,
                     cudaStream_t s)
{
    void *d_hit, *h_hit = NULL;
    uint64_t constructed = 0;
    double t0 = xg__now();
    int rc;
    if ((rc = xg__gpu_fill(ctx, m, f, &d_hit, s)) != XG_OK)
        return rc;
    st->seconds[XG_STAGE_INTERSECT] += xg__now() - t0;
    if ((rc = xg__gpu_download_sorted(ctx, m, f, d_hit, &h_hit, st, s)) !=
        XG_OK)
        return rc;
    rc = xg__gpu_finish(ctx, ops, a, b, h_hit, f->n, dedup, out, st,
                        &constructed);
    free(h_hit);
    return rc;
}

/* Contract in xg_cuda.h: one place for what every GPU pair run sets
 * before its stages, so the runs cannot drift apart. */
void xg__gpu_run_begin(const struct xg_set *a, const struct xg_set *b,
                       struct xg_contacts *out, struct xg_stats *st)
{
    st->engine = XG_ENGINE_GPU;
    st->threads = 1;
    st->a_count = a->n;
    st->b_count = b->n;
    free(out->v);
    memset(out, 0, sizeof *out);
}
