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
#include "xg_ctx.h"
#include "xg_mem.h"

int xg__inside_column_point(struct xg_counters *cnt,
                            const struct xg__solids *S, const double *p,
                            size_t lo, size_t hi,
                            int (*emit)(void *user, uint32_t solid,
                                        int kind),
                            void *user, struct xg__inside_tally *tally)
{
    int64_t c = xg__inside_point_column(S, p);
    return c < 0 ? XG_OK
                 : xg__inside_runs(cnt, S, p, (size_t)c, lo, hi, emit, user,
                                   tally);
}

int xg__inside_runs(struct xg_counters *cnt, const struct xg__solids *S,
                    const double *p, size_t c, size_t lo, size_t hi,
                    int (*emit)(void *user, uint32_t solid, int kind),
                    void *user, struct xg__inside_tally *tally)
{
    const struct xg_grid *g = &S->g;
    uint32_t k, k1;
    int rc;

    k1 = S->run_start[c + 1];
    for (k = S->run_start[c]; k < k1; k++) {
        const struct xg__run *R = &S->run[k];
        struct xg__walk w;
        unsigned tested = 0;
        int kind;
        if (R->solid < lo)
            continue;
        if (R->solid >= hi)
            break;
        if (!xg__walk_start(p, R, &w))
            continue;
        while (xg__walk_on(p, g->b_items, S->top, S->tri, g->b_box, S->turn,
                           &w, &tested) == XG_RAY_DEFER) {
            tally->deferred++;
            xg__walk_step(&w, xg__ray_tri_exact(
                                  cnt, p, S->tri + 9 * (size_t)g->b_items[w.j]));
            w.j++;
        }
        tally->pairs += w.j - R->start;
        tally->boxed += tested;
        kind = xg__walk_kind(&w);
        if (kind != XG_KIND_OUTSIDE && (rc = emit(user, R->solid, kind)))
            return rc;
    }
    return XG_OK;
}

#define CHUNK 8192      /* points per task */

/* A record as the walk leaves it: 12 bytes where the contact is 64, so
 * that the threads' buffers stay small; the join writes the contacts. */
struct found {
    uint32_t a, solid;
    int32_t kind;
};

struct found_buf {
    size_t n, cap;
    struct found *v;
};

/* Where a chunk's records are: n of them from off in its thread's
 * buffer.  Each thread keeps one growing buffer for all its chunks, so
 * that memory is faulted in once, not once per chunk. */
struct chunk_span {
    size_t off, n;
    int tid;
};

struct cpu_run {
    struct xg_ctx *ctx;
    const struct xg_set *a;
    const struct xg__solids *S;
    int outside, nthreads;
    size_t nchunk;
    atomic_size_t next;
    atomic_int stop;          /* a cancel, or a failure */
    struct chunk_span *span;  /* per chunk */
    struct found_buf *buf;    /* per thread */
    struct xg_counters *cnt;  /* per thread */
    struct xg__inside_tally *tally;
    struct xg_contacts *out;  /* the join's destination */
    uint64_t (*kinds)[XG_KIND_COUNT];   /* per thread: records joined */
};

/* One record: solid UINT32_MAX for an outside one. */
static int put(struct found_buf *b, uint32_t a, uint32_t solid, int kind)
{
    if (xg__grow((void **)&b->v, &b->cap, b->n, sizeof *b->v))
        return XG_ENOMEM;
    b->v[b->n].a = a;
    b->v[b->n].solid = solid;
    b->v[b->n].kind = kind;
    b->n++;
    return XG_OK;
}

struct emit_to {
    struct found_buf *out;
    uint32_t a;
    int any;
};

/* The solid-kind callback of one point (user: struct emit_to): its
 * record into the thread's buffer, and the point marked as found in a
 * solid.  XG_OK, or put's XG_ENOMEM. */
static int emit_record(void *user, uint32_t solid, int kind)
{
    struct emit_to *e = user;
    e->any = 1;
    return put(e->out, e->a, solid, kind);
}

/* The thread's buffer, counters and tally live in locals while it
 * works, and go back to r at the end: side by side in r's arrays, the
 * threads' would share cache lines, and each point updates them. */
static void cpu_worker(void *arg, int tid)
{
    struct cpu_run *r = arg;
    struct found_buf buf = r->buf[tid];
    struct xg_counters cnt = r->cnt[tid];
    struct xg__inside_tally tally = r->tally[tid];
    size_t k;
    while (!atomic_load(&r->stop) &&
           (k = atomic_fetch_add(&r->next, 1)) < r->nchunk) {
        size_t i0 = k * CHUNK, i1 = i0 + CHUNK, i;
        struct emit_to e;
        if (i1 > r->a->n)
            i1 = r->a->n;
        if (tid == 0 &&
            xg__cancelled_at(r->ctx, (double)k / (double)r->nchunk)) {
            atomic_store(&r->stop, 1);
            break;
        }
        e.out = &buf;
        r->span[k].tid = tid;
        r->span[k].off = e.out->n;
        for (i = i0; i < i1; i++) {
            const double *p = r->a->xyz + 3 * i;
            int64_t c = xg__inside_point_column(r->S, p);
            e.a = (uint32_t)i;
            e.any = 0;
            /* most points are in no column or in one without runs: no
             * call for them */
            if ((c >= 0 && r->S->run_start[c] != r->S->run_start[c + 1] &&
                 xg__inside_runs(&cnt, r->S, p, (size_t)c, 0, SIZE_MAX,
                                 emit_record, &e, &tally)) ||
                (!e.any && r->outside &&
                 put(e.out, e.a, UINT32_MAX, XG_KIND_OUTSIDE))) {
                atomic_store(&r->stop, 2);
                break;
            }
        }
        r->span[k].n = e.out->n - r->span[k].off;
    }
    r->buf[tid] = buf;
    r->cnt[tid] = cnt;
    r->tally[tid] = tally;
}

/* The chunks' records into r->out, in chunk order: the chunks are
 * shared out by their first record, so that each thread copies (and
 * first touches) about as many bytes.  The kinds are counted in locals:
 * the threads' tallies share cache lines. */
static void join_worker(void *arg, int tid)
{
    struct cpu_run *r = arg;
    size_t total = r->out->cap, lo, hi, at = 0, k;
    uint64_t kinds[XG_KIND_COUNT] = {0};
    int j;
    xg__share(total, r->nthreads, tid, &lo, &hi);
    for (k = 0; k < r->nchunk; k++) {
        const struct chunk_span *c = &r->span[k];
        /* the chunk whose first record falls in [lo, hi) is ours */
        if (c->n && at >= lo && at < hi) {
            const struct found *f = r->buf[c->tid].v + c->off;
            struct xg_contact *o = r->out->v + at;
            size_t i;
            for (i = 0; i < c->n; i++) {
                o[i] = xg__inside_contact(
                    f[i].a, r->a->xyz + 3 * (size_t)f[i].a,
                    f[i].solid == UINT32_MAX ? UINT32_MAX
                                             : r->S->first[f[i].solid],
                    f[i].kind);
                kinds[f[i].kind]++;
            }
        }
        at += c->n;
    }
    for (j = 0; j < XG_KIND_COUNT; j++)
        r->kinds[tid][j] += kinds[j];
}

int xg__inside_cpu(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg__solids *S, const struct xg_opts *opt,
                   int nthreads, struct xg_contacts *out,
                   struct xg_stats *st)
{
    struct cpu_run r;
    size_t total = 0;
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
    r.span = calloc(r.nchunk + 1, sizeof *r.span);
    r.buf = calloc((size_t)nthreads, sizeof *r.buf);
    r.cnt = calloc((size_t)nthreads, sizeof *r.cnt);
    r.tally = calloc((size_t)nthreads, sizeof *r.tally);
    r.kinds = calloc((size_t)nthreads, sizeof *r.kinds);
    if (!r.span || !r.buf || !r.cnt || !r.tally || !r.kinds) {
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
    for (t = 0; t < nthreads; t++)
        total += r.buf[t].n;
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
        r.out = out;
        if ((rc = xg__parallel(nthreads, join_worker, &r)) != XG_OK) {
            rc = xg__error(ctx, rc, "cannot start threads");
            goto out;
        }
        out->n = total;
        /* counted here, so that xg__pair_end need not read them all */
        for (t = 0; t < nthreads; t++) {
            int k;
            for (k = 0; k < XG_KIND_COUNT; k++)
                st->contacts[k] += r.kinds[t][k];
        }
    }
out:
    if (r.buf)
        for (t = 0; t < nthreads; t++)
            free(r.buf[t].v);
    free(r.buf);
    free(r.span);
    free(r.kinds);
    free(r.cnt);
    free(r.tally);
    return rc;
}
