/*
 * inside_keep.c -- the kept triangles of inside's solids: B's triangles
 * solid by solid, the collinear ones (which bound no volume) counted and
 * dropped, their middles kept as the solids' T-junctions; on threads, as
 * the CSR build of one key (xg_csr.h by shares): each thread counts what
 * its share keeps, then copies it after the shares before it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "xg_csr.h"
#include "xg_solids.h"
#include "xg_thread.h"
#include "op/segtri/xg_segtri.h"
#include "xg_grid.h"
#include "xg_selfx.h"

struct keep_job {
    const struct xg_set *b;
    const uint32_t *order, *start;
    size_t nsolid;
    int nthreads, pass;       /* 0: mark the collinear; 1: copy the rest */
    uint8_t *flat;            /* per position of order: collinear */
    struct xg__csr kept;      /* one key; slots: the threads' shares */
    struct xg_counters *cnt;  /* per thread */
    double *lohi;             /* per thread: 6 doubles */
    struct xg__solids *S;
    double *box;
};

/* Pass 0 for positions lo .. hi-1 of order: each collinear triangle
 * marked, the rest counted as this share's. */
static void mark(struct keep_job *J, int tid, size_t lo, size_t hi)
{
    size_t i, n = 0;
    for (i = lo; i < hi; i++) {
        J->flat[i] = (uint8_t)xg__tri_is_degenerate(
            &J->cnt[tid], J->b->xyz + 9 * (size_t)J->order[i]);
        n += !J->flat[i];
    }
    xg__csr_add(&J->kept, tid, 0, n);
}

/* The solid of position i of order: the last whose start is <= i. */
static size_t solid_at(const struct keep_job *J, size_t i)
{
    size_t a = 0, z = J->nsolid;
    while (z - a > 1) {
        size_t m = a + (z - a) / 2;
        if (J->start[m] <= i)
            a = m;
        else
            z = m;
    }
    return a;
}

/* Pass 1 for positions lo .. hi-1: the kept triangles copied from this
 * share's cursor on, with their solid, turn and box, the boxes' hull
 * into the thread's lohi; the starts of the solids that begin here. */
static void copy(struct keep_job *J, int tid, size_t lo, size_t hi)
{
    struct xg__solids *S = J->S;
    size_t i, at = xg__csr_cursor(&J->kept, tid, 0), s = solid_at(J, lo);
    double *lh = J->lohi + 6 * tid;
    int k;
    for (k = 0; k < 3; k++) {
        lh[k] = INFINITY;
        lh[3 + k] = -INFINITY;
    }
    for (i = lo; i < hi; i++) {
        const double *t = J->b->xyz + 9 * (size_t)J->order[i];
        double *bx = J->box + 6 * at;
        while (J->start[s + 1] <= i)
            s++;
        if (i == J->start[s])
            S->tri_start[s] = (uint32_t)at;
        if (J->flat[i])
            continue;
        memcpy(S->tri + 9 * at, t, 9 * sizeof(double));
        S->solid[at] = (uint32_t)s;
        S->turn[at] = (int8_t)xg_orient2d(&J->cnt[tid], t, t + 3, t + 6);
        xg__tri_box(t, bx);
        xg__hull_add(lh, bx);
        at++;
    }
}

/* The pass of J on this thread's share of B. */
static void keep_worker(void *arg, int tid)
{
    struct keep_job *J = arg;
    size_t lo, hi;
    xg__share(J->b->n, J->nthreads, tid, &lo, &hi);
    if (J->pass == 0)
        mark(J, tid, lo, hi);
    else
        copy(J, tid, lo, hi);
}

/* S->junc, S->junc_start: the middles of each solid's collinear
 * triangles (flat, per position of order), where there are any.  XG_OK
 * or XG_ENOMEM. */
static int junctions(const struct xg_set *b, const uint32_t *order,
                     const uint32_t *start, size_t nsolid,
                     const uint8_t *flat, struct xg__solids *S)
{
    size_t s, i, n = 0;
    const double *m;
    for (i = 0; i < b->n; i++)
        n += flat[i] && xg__tri_middle(b->xyz + 9 * (size_t)order[i]);
    if (n == 0)
        return XG_OK;
    S->junc = malloc(n * 3 * sizeof *S->junc);
    S->junc_start = malloc((nsolid + 1) * sizeof *S->junc_start);
    if (!S->junc || !S->junc_start)
        return XG_ENOMEM;
    for (s = 0, n = 0; s < nsolid; s++) {
        S->junc_start[s] = (uint32_t)n;
        for (i = start[s]; i < start[s + 1]; i++)
            if (flat[i] &&
                (m = xg__tri_middle(b->xyz + 9 * (size_t)order[i])) != NULL)
                memcpy(S->junc + 3 * n++, m, 3 * sizeof *m);
    }
    S->junc_start[nsolid] = (uint32_t)n;
    return XG_OK;
}

/* The two passes on nthreads threads, the count scanned between them
 * into each share's cursor; *sum the kept.  XG_OK or XG_ENOMEM. */
static int keep_passes(struct keep_job *J, size_t *sum)
{
    if (xg__parallel(J->nthreads, keep_worker, J) != XG_OK ||
        xg__csr_scan(&J->kept, NULL, sum) != XG_OK)
        return XG_ENOMEM;
    J->pass = 1;
    return xg__parallel(J->nthreads, keep_worker, J);
}

/* xg__solids_keep (xg_solids.h). */
int xg__solids_keep(const struct xg_set *b, const uint32_t *order,
                    const uint32_t *start, size_t nsolid, int nthreads,
                    struct xg__solids *S, double *box, double lo[3],
                    double hi[3], size_t *kept, struct xg_stats *st)
{
    struct keep_job J;
    double h[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY,
                   -INFINITY};
    size_t s, sum = 0;
    int t, rc = XG_ENOMEM;
    memcpy(lo, h, 3 * sizeof *h);
    memcpy(hi, h + 3, 3 * sizeof *h);
    for (s = 0; s < nsolid; s++)
        S->first[s] = order[start[s]];
    *kept = 0;
    if (b->n == 0)
        return XG_OK;
    if (nthreads < 1)
        nthreads = 1;
    if ((size_t)nthreads > b->n)
        nthreads = (int)b->n;
    memset(&J, 0, sizeof J);
    J.b = b;
    J.order = order;
    J.start = start;
    J.nsolid = nsolid;
    J.nthreads = nthreads;
    J.S = S;
    J.box = box;
    J.flat = malloc(b->n);
    J.cnt = calloc((size_t)nthreads, sizeof *J.cnt);
    J.lohi = malloc((size_t)nthreads * 6 * sizeof *J.lohi);
    if (xg__csr_init(&J.kept, 1, nthreads) != XG_OK || !J.flat || !J.cnt ||
        !J.lohi || keep_passes(&J, &sum) != XG_OK)
        goto out;
    for (t = 0; t < nthreads; t++) {
        xg_counters_add(&st->cnt, &J.cnt[t]);
        xg__hull_add(h, J.lohi + 6 * t);
    }
    memcpy(lo, h, 3 * sizeof *h);
    memcpy(hi, h + 3, 3 * sizeof *h);
    st->b_skipped += b->n - sum;
    *kept = sum;
    rc = sum < b->n ? junctions(b, order, start, nsolid, J.flat, S) : XG_OK;
out:
    xg__csr_free(&J.kept);
    free(J.flat);
    free(J.cnt);
    free(J.lohi);
    return rc;
}
