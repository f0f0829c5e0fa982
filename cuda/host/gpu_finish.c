/*
 * gpu_finish.c -- the hits of every GPU engine (struct xg_gpu_hit, sorted
 * by (a, b)) into contacts, on the CPU threads.  Plain C with no CUDA, so
 * that `make check` tests it on machines without a GPU.
 *
 * Two passes over contiguous ranges, one range per thread, so the (a, b)
 * order survives with no compaction: the first decides the deferred hits
 * (GMP) into a per-thread list and counts what each range keeps; the
 * second writes every contact once, at its final place, settling the
 * other hits through the pair's ops (the points the device left are
 * rounded there: double-double, then GMP).
 */
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_mem.h"
#include "xg_pair.h"
#include "xg_gpuhost.h"
#include "xg_gpu_hit.h"
#include "xg_thread.h"

/* Hits per thread, at the least, worth a thread of its own. */
#define FINISH_GRAIN 1024

struct fin_thread {
    struct xg_counters cnt;
    uint64_t deferred, construct, kept, kinds[XG_KIND_COUNT];
    double exact_s;             /* time in the exact stages */
    struct xg_contact *side;    /* the deferred hits' answers, in order */
    uint8_t *side_keep;
    size_t nside, side_cap, keep_cap, off;
    int rc;
    char pad[64];               /* no false sharing between threads */
};

struct fin {
    const struct xg__pair_ops *ops;
    const double *a, *b;
    size_t sa, sb;              /* doubles per A and B element */
    const struct xg_gpu_hit *h;
    size_t n;
    int dedup;
    struct xg_contact *ct;
    struct fin_thread *t;
    int nthreads;
};

/* Whether hit k repeats hit k - 1's pair (the hits are sorted), when the
 * finish removes repeats (f->dedup: a pair met in several cells). */
static int is_dup(const struct fin *f, size_t k)
{
    return f->dedup && k > 0 && f->h[k].a == f->h[k - 1].a &&
           f->h[k].b == f->h[k - 1].b;
}

/* A's element i and B's element j: their coordinates in the sets. */
static const double *elem_a(const struct fin *f, uint32_t i)
{
    return f->a + f->sa * i;
}

static const double *elem_b(const struct fin *f, uint32_t j)
{
    return f->b + f->sb * j;
}

/* Room in t's side lists for one more deferred hit: XG_OK or
 * XG_ENOMEM. */
static int side_grow(struct fin_thread *t)
{
    if (xg__grow((void **)&t->side, &t->side_cap, t->nside, sizeof *t->side) ||
        xg__grow((void **)&t->side_keep, &t->keep_cap, t->nside,
                 sizeof *t->side_keep))
        return XG_ENOMEM;
    return XG_OK;
}

/* Pass 1 of the finish, thread tid's share of the hits (xg__share): the
 * hits the device deferred decided exactly into t's side lists, every
 * hit kept counted (t->kept), so that pass 2 knows where each thread
 * writes.  Out of memory: t->rc, and the thread stops. */
static void decide_worker(void *arg, int tid)
{
    struct fin *f = arg;
    struct fin_thread *t = &f->t[tid];
    size_t lo, hi, k;
    xg__share(f->n, f->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        const struct xg_gpu_hit *h = &f->h[k];
        struct xg_contact c;
        double t0;
        int hit;
        if (is_dup(f, k))
            continue;
        if (h->flag != XG_GPU_HIT_DEFER) {
            t->kept++;
            continue;
        }
        if ((t->rc = side_grow(t)) != XG_OK)
            return;
        memset(&c, 0, sizeof c);
        t0 = xg__now();
        t->deferred++;
        hit = f->ops->exact(&t->cnt, elem_a(f, h->a), elem_b(f, h->b), &c);
        t->exact_s += xg__now() - t0;
        t->side[t->nside] = c;
        t->side_keep[t->nside++] = (uint8_t)hit;
        t->kept += (uint64_t)hit;
    }
}

/* Pass 2 of the finish, the same share: each kept hit's contact written
 * at the thread's offset t->off (the deferred ones from the side lists,
 * the others settled from the device's record), and its kind counted.
 * Cannot fail: pass 1 allocated everything. */
static void write_worker(void *arg, int tid)
{
    struct fin *f = arg;
    struct fin_thread *t = &f->t[tid];
    size_t lo, hi, k, m = t->off, s = 0;
    xg__share(f->n, f->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        const struct xg_gpu_hit *h = &f->h[k];
        struct xg_contact *ct = &f->ct[m];
        if (is_dup(f, k))
            continue;
        if (h->flag == XG_GPU_HIT_DEFER) {
            if (!t->side_keep[s]) {
                s++;
                continue;
            }
            *ct = t->side[s++];
        } else if (h->flag == XG_GPU_HIT_CONSTRUCT) {
            double t0 = xg__now();
            t->construct++;
            f->ops->settle(&t->cnt, elem_a(f, h->a), elem_b(f, h->b), h, ct);
            t->exact_s += xg__now() - t0;
        } else {
            f->ops->settle(&t->cnt, elem_a(f, h->a), elem_b(f, h->b), h, ct);
        }
        ct->a = h->a;
        ct->b = h->b;
        ct->pad = 0;
        if (ct->kind != XG_KIND_OVERLAP)
            ct->q[0] = ct->q[1] = ct->q[2] = 0.0;
        t->kinds[ct->kind]++;
        m++;
    }
}

int xg__gpu_finish(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                   const double *a, const double *b,
                   const struct xg_gpu_hit *h, size_t n, int dedup,
                   struct xg_contacts *out, struct xg_stats *st,
                   uint64_t *constructed)
{
    struct fin f;
    size_t total = 0;
    double t0 = xg__now(), t_exact = 0.0;
    int t, k, rc = XG_OK;

    memset(&f, 0, sizeof f);
    f.ops = ops;
    f.a = a;
    f.b = b;
    f.sa = (size_t)xg_elem_doubles(ops->a_elem);
    f.sb = (size_t)xg_elem_doubles(ops->b_elem);
    f.h = h;
    f.n = n;
    f.dedup = dedup;
    f.nthreads = xg__threads(ctx);
    if ((size_t)f.nthreads > n / FINISH_GRAIN + 1)
        f.nthreads = (int)(n / FINISH_GRAIN + 1);
    f.t = calloc((size_t)f.nthreads, sizeof *f.t);
    if (!f.t)
        return xg__error(ctx, XG_ENOMEM, "out of memory for contacts");
    if ((rc = xg__parallel(f.nthreads, decide_worker, &f)) != XG_OK) {
        rc = xg__error(ctx, rc, "cannot start threads");
        goto out;
    }
    for (t = 0; t < f.nthreads; t++) {
        if (f.t[t].rc != XG_OK) {
            rc = xg__error(ctx, f.t[t].rc, "out of memory for contacts");
            goto out;
        }
        f.t[t].off = total;
        total += f.t[t].kept;
    }
    f.ct = xg__big_alloc((total ? total : 1) * sizeof *f.ct);
    if (!f.ct) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory for %zu contacts",
                       total);
        goto out;
    }
    if ((rc = xg__parallel(f.nthreads, write_worker, &f)) != XG_OK) {
        free(f.ct);
        rc = xg__error(ctx, rc, "cannot start threads");
        goto out;
    }
    for (t = 0; t < f.nthreads; t++) {
        xg_counters_add(&st->cnt, &f.t[t].cnt);
        st->deferred += f.t[t].deferred;
        *constructed += f.t[t].construct;
        for (k = 0; k < XG_KIND_COUNT; k++)
            st->contacts[k] += f.t[t].kinds[k];
        if (f.t[t].exact_s > t_exact)
            t_exact = f.t[t].exact_s;  /* the slowest thread's GMP time */
    }
    free(out->v);
    out->v = f.ct;
    out->n = total;
    out->cap = total ? total : 1;
    st->seconds[XG_STAGE_EXACT] += t_exact;
    st->seconds[XG_STAGE_UNIQUE] += xg__now() - t0 - t_exact;
out:
    for (t = 0; t < f.nthreads; t++) {
        free(f.t[t].side);
        free(f.t[t].side_keep);
    }
    free(f.t);
    return rc;
}
