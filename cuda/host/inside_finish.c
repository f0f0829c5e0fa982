/*
 * inside_finish.c -- the host's part of a GPU point-in-solid batch
 * (xg__inside_finish): the doubted (point, solid) pairs decided exactly,
 * then the batch's records written in (a, b) order.  Plain C, so that
 * the tests and the benchmark drive it on a machine without a GPU, with
 * hits the device's own functions made on the CPU.
 *
 * The threads take slices of the batch's points cut by the records they
 * will write (hits, plus points with -outside), not by points: the
 * points are a lattice, and a slice of empty space has no hits while one
 * through the solids has most of them.  Two passes: each thread decides
 * its doubted hits and counts its records; then each writes its records
 * at the sum of the counts before it, so that it first touches its own
 * part of the output.
 */
#include <stdlib.h>
#include <string.h>
#include "op/inside/xg_inside.h"
#include "xg_gpuhost.h"
#include "xg_thread.h"
#include "xg_ctx.h"
#include "xg_mem.h"

/* The first hit of point a or later. */
static uint64_t first_hit(const uint64_t *h, uint64_t n, uint32_t a)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (xg__inside_key_point(h[mid]) < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The slice bounds: cut[t] the first point (from 0 in the batch) of
 * thread t, so that each slice holds about as many hits, plus points
 * with -outside (a point writes at most max(1, hits) records). */
static void cut_slices(struct xg__inside_finish *f)
{
    uint64_t per = f->outside ? 1 : 0;
    uint64_t total = per * f->n + f->nhit;
    int t;
    f->cut[0] = 0;
    f->cut[f->nthreads] = f->n;
    for (t = 1; t < f->nthreads; t++) {
        uint64_t goal = total / (uint64_t)f->nthreads * (uint64_t)t;
        uint32_t lo = f->cut[t - 1], hi = f->n;
        /* the first point i with per * i + first_hit(i) >= goal */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (per * mid + first_hit(f->hit, f->nhit, f->a0 + mid) < goal)
                lo = mid + 1;
            else
                hi = mid;
        }
        f->cut[t] = lo;
    }
}

/* The solid-kind callback that keeps the kind in *user (an int). */
static int take_kind(void *user, uint32_t solid, int kind)
{
    (void)solid;
    *(int *)user = kind;
    return XG_OK;
}

/* Deferred hit *h decided exactly: its kind, XG_KIND_OUTSIDE included,
 * in place. */
static void decide(struct xg__inside_finish *f, int tid, uint64_t *h)
{
    const struct xg__solids *S = f->S;
    uint32_t a = xg__inside_key_point(*h), s = xg__inside_key_solid(*h);
    const double *p = f->xyz + 3 * (size_t)a;
    int kind = XG_KIND_OUTSIDE;
    if (f->method == XG__IN_SEED)
        kind = xg__inside_seq_point(&f->cnt[tid], p, S->tri,
                                    S->tri_start[s], S->tri_start[s + 1]);
    else if (xg__inside_column_point(&f->cnt[tid], S, p, s, s + 1,
                                     take_kind, &kind, &f->tally[tid]))
        f->failed = 1;
    *h = xg__inside_key(a, s, kind, 0);
}

/* Phase 0: decide this slice's deferred hits and count its records.
 * Phase 1: write them at dst + the records of the slices before. */
static void finish_worker(void *arg, int tid)
{
    struct xg__inside_finish *f = arg;
    const uint32_t *first = f->S->first;
    uint32_t lo = f->a0 + f->cut[tid], hi = f->a0 + f->cut[tid + 1], a;
    uint64_t k = first_hit(f->hit, f->nhit, lo);
    uint64_t k1 = first_hit(f->hit, f->nhit, hi), j;
    uint64_t kinds[XG_KIND_COUNT] = {0};    /* a local: the threads'
                                               tallies share cache lines */
    size_t records = 0;
    struct xg_contact *o;
    int t;

    if (f->phase == 0) {
        uint32_t last = lo;   /* any value: a point with a kept hit */
        size_t held = 0;      /* points with a kept hit */
        for (j = k; j < k1; j++) {
            uint64_t *h = &f->hit[j];
            if (xg__inside_key_kind(*h) < 0)
                decide(f, tid, h);
            if (xg__inside_key_kind(*h) == XG_KIND_OUTSIDE)
                continue;
            records++;
            held += held == 0 || xg__inside_key_point(*h) != last;
            last = xg__inside_key_point(*h);
        }
        if (f->outside)
            records += (hi - lo) - held;
        f->count[tid] = records;
        return;
    }
    o = f->dst;
    for (t = 0; t < tid; t++)
        o += f->count[t];
    if (!f->outside) {
        /* the records are the kept hits, in order */
        for (j = k; j < k1; j++) {
            uint64_t h = f->hit[j];
            int kind = xg__inside_key_kind(h);
            if (kind == XG_KIND_OUTSIDE)
                continue;
            a = xg__inside_key_point(h);
            *o++ = xg__inside_contact(a, f->xyz + 3 * (size_t)a,
                                      first[xg__inside_key_solid(h)], kind);
            kinds[kind]++;
        }
    }
    for (a = lo; f->outside && a < hi; a++) {
        const double *p = f->xyz + 3 * (size_t)a;
        int any = 0;
        for (; k < k1 && xg__inside_key_point(f->hit[k]) == a; k++) {
            int kind = xg__inside_key_kind(f->hit[k]);
            if (kind == XG_KIND_OUTSIDE)
                continue;
            any = 1;
            *o++ = xg__inside_contact(a, p,
                                      first[xg__inside_key_solid(f->hit[k])],
                                      kind);
            kinds[kind]++;
        }
        if (!any) {
            *o++ = xg__inside_contact(a, p, UINT32_MAX, XG_KIND_OUTSIDE);
            kinds[XG_KIND_OUTSIDE]++;
        }
    }
    for (t = 0; t < XG_KIND_COUNT; t++)
        f->kinds[tid][t] += kinds[t];
}

int xg__inside_finish_init(struct xg__inside_finish *f,
                           const struct xg__solids *S, const double *xyz,
                           size_t npoints, int method, int outside,
                           int nthreads)
{
    memset(f, 0, sizeof *f);
    f->S = S;
    f->xyz = xyz;
    f->npoints = npoints;
    f->method = method;
    f->outside = outside;
    f->nthreads = nthreads < 1 ? 1 : nthreads;
    f->cut = calloc((size_t)f->nthreads + 1, sizeof *f->cut);
    f->count = calloc((size_t)f->nthreads, sizeof *f->count);
    f->cnt = calloc((size_t)f->nthreads, sizeof *f->cnt);
    f->tally = calloc((size_t)f->nthreads, sizeof *f->tally);
    f->kinds = calloc((size_t)f->nthreads, sizeof *f->kinds);
    return f->cut && f->count && f->cnt && f->tally && f->kinds ? XG_OK
                                                               : XG_ENOMEM;
}

void xg__inside_finish_free(struct xg__inside_finish *f)
{
    free(f->cut);
    free(f->count);
    free(f->cnt);
    free(f->tally);
    free(f->kinds);
    memset(f, 0, sizeof *f);
}

void xg__inside_finish_stats(const struct xg__inside_finish *f,
                             struct xg_stats *st)
{
    int t, k;
    for (t = 0; t < f->nthreads; t++) {
        xg_counters_add(&st->cnt, &f->cnt[t]);
        for (k = 0; k < XG_KIND_COUNT; k++)
            st->contacts[k] += f->kinds[t][k];
    }
}

int xg__inside_finish(struct xg_ctx *ctx, struct xg__inside_finish *f,
                      uint64_t *hit, uint64_t nhit, uint64_t deferred,
                      uint32_t a0, uint32_t n, struct xg_contacts *out)
{
    size_t total = 0;
    int t, rc;
    f->hit = hit;
    f->nhit = nhit;
    f->a0 = a0;
    f->n = n;
    cut_slices(f);
    if (deferred || f->outside) {
        f->phase = 0;
        if ((rc = xg__parallel(f->nthreads, finish_worker, f)) != XG_OK)
            return xg__error(ctx, rc, "cannot start threads");
        if (f->failed)
            return xg__error(ctx, XG_ENOMEM, "out of memory");
    } else {
        /* every hit a record: a slice's are its hits */
        for (t = 0; t < f->nthreads; t++)
            f->count[t] = first_hit(hit, nhit, a0 + f->cut[t + 1]) -
                          first_hit(hit, nhit, a0 + f->cut[t]);
    }
    for (t = 0; t < f->nthreads; t++)
        total += f->count[t];
    if (out->n + total > out->cap) {
        /* grown by half at least, on huge pages where the system has
         * them (xg__big_alloc): the records of 10^8 points are
         * gigabytes, and their first touch costs as much as writing.
         * Before the last batch, room for all the points at twice the
         * rate of records so far, and one record per point at least
         * (the rate varies from batch to batch: a lattice's first slabs
         * may miss the solids that later ones cross): untouched room
         * costs no memory, and a copy of the records would cost as much
         * as writing them again (where the room cannot be had, the
         * records grow as they come). */
        size_t need = out->n + total, cap = need;
        struct xg_contact *v;
        if (cap < out->cap + out->cap / 2)
            cap = out->cap + out->cap / 2;
        if (f->npoints > (size_t)a0 + n) {
            double all = (double)need * (double)f->npoints /
                         (double)((size_t)a0 + n) * 2.0;
            if (all < (double)f->npoints)
                all = (double)f->npoints;
            if (all > (double)cap && all < (double)(SIZE_MAX / sizeof *v))
                cap = (size_t)all;
        }
        if (!(v = xg__big_alloc(cap * sizeof *v)) &&
            !(v = xg__big_alloc((cap = need) * sizeof *v)))
            return xg__error(ctx, XG_ENOMEM, "out of memory for %zu "
                             "records", need);
        if (out->n)
            memcpy(v, out->v, out->n * sizeof *v);
        free(out->v);
        out->v = v;
        out->cap = cap;
    }
    f->dst = out->v + out->n;
    f->phase = 1;
    if ((rc = xg__parallel(f->nthreads, finish_worker, f)) != XG_OK)
        return xg__error(ctx, rc, "cannot start threads");
    out->n += total;
    return XG_OK;
}
