/*
 * inside_cpu.c -- the cpu engine of xg_inside: each point looks up its
 * column and tests the column's triangles, solid by solid, with the
 * interval filter (xg_ray_tri_fast) and, where it doubts, the exact
 * stage.  Points are taken in chunks by the threads; each chunk keeps
 * its records, and the chunks are joined in order, so the output is in
 * (a, b) order whatever the threads did.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xg_inside.h"
#include "xg_thread.h"

int xg__inside_column_point(struct xg_counters *cnt,
                            const struct xg__solids *S, const double *p,
                            size_t lo, size_t hi,
                            int (*emit)(void *user, uint32_t solid,
                                        int kind),
                            void *user, struct xg__inside_tally *tally)
{
    const struct xg_grid *g = &S->g;
    int64_t c = S->ntri ? xg__inside_column(g->n, g->lo, g->hi, g->inv, p)
                        : -1;
    uint32_t j, j1, cur = UINT32_MAX;
    int parity = 0, on = 0, rc;

    if (c < 0)
        return XG_OK;
    j = g->b_start[c];
    j1 = g->b_start[c + 1];
    tally->pairs += j1 - j;
    for (; j < j1; j++) {
        uint32_t t = g->b_items[j], s = S->solid[t];
        int r, tested;
        if (s < lo)
            continue;
        if (s >= hi)
            break;
        if (s != cur) {
            if (cur != UINT32_MAX && (on || parity) &&
                (rc = emit(user, cur,
                           on ? XG_KIND_BOUNDARY : XG_KIND_INSIDE)))
                return rc;
            cur = s;
            parity = on = 0;
        }
        if (on)
            continue;
        r = xg__inside_test(p, S->tri + 9 * (size_t)t,
                            g->b_box + 6 * (size_t)t, S->turn[t], &tested);
        tally->boxed += (uint64_t)tested;
        if (r == XG_RAY_DEFER) {
            tally->deferred++;
            r = xg__ray_tri_exact(cnt, p, S->tri + 9 * (size_t)t);
        }
        on = r == XG_RAY_ON;
        parity ^= r == XG_RAY_CROSS;
    }
    if (cur != UINT32_MAX && (on || parity))
        return emit(user, cur, on ? XG_KIND_BOUNDARY : XG_KIND_INSIDE);
    return XG_OK;
}

#define CHUNK 8192      /* points per task */

struct chunk_out {
    struct xg_contacts c;
};

struct cpu_run {
    struct xg_ctx *ctx;
    const struct xg_set *a;
    const struct xg__solids *S;
    int outside, nthreads;
    size_t nchunk;
    atomic_size_t next;
    atomic_int stop;          /* a cancel, or a failure */
    struct xg_contacts *chunks;
    struct xg_counters *cnt;  /* per thread */
    struct xg__inside_tally *tally;
    int rc;
};

struct emit_to {
    struct xg_contacts *out;
    const struct xg__solids *S;
    uint32_t a;
    const double *p;
    int any;
};

static int emit_record(void *user, uint32_t solid, int kind)
{
    struct emit_to *e = user;
    e->any = 1;
    return xg__inside_record(e->out, e->a, e->p, e->S->first[solid], kind);
}

static void cpu_worker(void *arg, int tid)
{
    struct cpu_run *r = arg;
    size_t k;
    while (!atomic_load(&r->stop) &&
           (k = atomic_fetch_add(&r->next, 1)) < r->nchunk) {
        size_t i0 = k * CHUNK, i1 = i0 + CHUNK, i;
        if (i1 > r->a->n)
            i1 = r->a->n;
        if (tid == 0 &&
            xg__cancelled_at(r->ctx, (double)k / (double)r->nchunk)) {
            atomic_store(&r->stop, 1);
            break;
        }
        for (i = i0; i < i1; i++) {
            struct emit_to e;
            e.out = &r->chunks[k];
            e.S = r->S;
            e.a = (uint32_t)i;
            e.p = r->a->xyz + 3 * i;
            e.any = 0;
            if (xg__inside_column_point(&r->cnt[tid], r->S, e.p, 0, SIZE_MAX,
                                        emit_record, &e, &r->tally[tid]) ||
                (!e.any && r->outside &&
                 xg__inside_record(e.out, e.a, e.p, UINT32_MAX,
                                   XG_KIND_OUTSIDE))) {
                atomic_store(&r->stop, 2);
                break;
            }
        }
    }
}

int xg__inside_cpu(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg__solids *S, const struct xg_opts *opt,
                   int nthreads, struct xg_contacts *out,
                   struct xg_stats *st)
{
    struct cpu_run r;
    size_t k, total = 0;
    int t, rc = XG_OK, stop;

    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.a = a;
    r.S = S;
    r.outside = opt->outside;
    r.nchunk = (a->n + CHUNK - 1) / CHUNK;
    if (nthreads < 1)
        nthreads = 1;
    if ((size_t)nthreads > r.nchunk)
        nthreads = r.nchunk ? (int)r.nchunk : 1;
    r.nthreads = nthreads;
    atomic_init(&r.next, 0);
    atomic_init(&r.stop, 0);
    r.chunks = calloc(r.nchunk + 1, sizeof *r.chunks);
    r.cnt = calloc((size_t)nthreads, sizeof *r.cnt);
    r.tally = calloc((size_t)nthreads, sizeof *r.tally);
    if (!r.chunks || !r.cnt || !r.tally) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = xg__parallel(nthreads, cpu_worker, &r)) != XG_OK) {
        rc = xg__error(ctx, rc, "cannot start threads");
        goto out;
    }
    stop = atomic_load(&r.stop);
    if (stop) {
        rc = stop == 1 ? xg__error(ctx, XG_ECANCEL, "cancelled")
                       : xg__error(ctx, XG_ENOMEM, "out of memory");
        goto out;
    }
    for (t = 0; t < nthreads; t++) {
        xg_counters_add(&st->cnt, &r.cnt[t]);
        st->candidates += r.tally[t].pairs;
        st->bbox_pairs += r.tally[t].boxed;
        st->deferred += r.tally[t].deferred;
    }
    for (k = 0; k < r.nchunk; k++)
        total += r.chunks[k].n;
    out->n = 0;
    if (total) {
        /* huge pages where the system has them: records of 10^8 points
         * are gigabytes, and their first touch costs as much as the
         * copy */
        out->v = xg__big_alloc(total * sizeof *out->v);
        if (!out->v) {
            rc = xg__error(ctx, XG_ENOMEM, "out of memory");
            goto out;
        }
        out->cap = total;
        for (k = 0; k < r.nchunk; k++) {
            if (!r.chunks[k].n)     /* v is NULL: memcpy must not see it */
                continue;
            memcpy(out->v + out->n, r.chunks[k].v,
                   r.chunks[k].n * sizeof *out->v);
            out->n += r.chunks[k].n;
        }
    }
out:
    if (r.chunks)
        for (k = 0; k < r.nchunk; k++)
            xg_contacts_free(&r.chunks[k]);
    free(r.chunks);
    free(r.cnt);
    free(r.tally);
    return rc;
}
