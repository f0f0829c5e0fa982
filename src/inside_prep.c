/*
 * inside_prep.c -- the solids of xg_inside: grouped by fid, checked
 * closed, collinear triangles dropped, checked not to cross themselves
 * (selfx.c), and the columns the cpu and gpu engines look a point's ray
 * up in.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xg_inside.h"
#include "xg_thread.h"

/* ---- open edges: a hash table of edges, counting uses ---- */

/* An edge's ends, the lesser (by x, then y, then z) first, -0 as +0. */
static void edge_ends(const double *t, int k, double e[6])
{
    const double *u = t + 3 * k, *v = t + 3 * ((k + 1) % 3);
    int j, swap = 0;
    for (j = 0; j < 3; j++)
        if (u[j] != v[j]) {
            swap = v[j] < u[j];
            break;
        }
    for (j = 0; j < 3; j++) {
        e[j] = (swap ? v[j] : u[j]) + 0.0;
        e[3 + j] = (swap ? u[j] : v[j]) + 0.0;
    }
}

static uint64_t edge_hash(const double e[6])
{
    uint64_t h = 0x9e3779b97f4a7c15ull, w;
    int j;
    for (j = 0; j < 6; j++) {
        memcpy(&w, &e[j], 8);
        h ^= w;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

/* One edge seen: its number + 1 (0: an empty slot), and a tag: the
 * high 31 bits of its hash, then the parity of its uses in bit 0.  Eight
 * bytes, so that the table of a large solid stays small in cache; the
 * tag spares the coordinates' comparison for most probes. */
struct edge_slot {
    uint32_t edge, tag;
};

int xg__open_edges(const double *xyz, const uint32_t *idx, size_t n,
                   uint64_t *open)
{
    size_t cap = 16, m = 3 * n, e, i;
    struct edge_slot *tab;
    uint64_t odd = 0;

    *open = 0;
    if (n == 0)
        return XG_OK;
    if (m > UINT32_MAX - 1)
        return XG_ENOMEM;
    while (cap < 2 * m)
        cap *= 2;
    if (!(tab = xg__big_calloc(cap, sizeof *tab)))
        return XG_ENOMEM;
    for (e = 0; e < m; e++) {
        double k[6], o[6];
        const double *t = xyz + 9 * (size_t)(idx ? idx[e / 3] : e / 3);
        uint64_t h;
        uint32_t tag;
        edge_ends(t, (int)(e % 3), k);
        h = edge_hash(k);
        tag = (uint32_t)(h >> 32) & ~1u;
        for (i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1)) {
            struct edge_slot *q = &tab[i];
            const double *u;
            size_t f;
            if (!q->edge) {
                q->edge = (uint32_t)e + 1;
                q->tag = tag | 1u;
                break;
            }
            if ((q->tag & ~1u) != tag)
                continue;
            /* equal tags: the coordinates decide, exactly */
            f = q->edge - 1;
            u = xyz + 9 * (size_t)(idx ? idx[f / 3] : f / 3);
            edge_ends(u, (int)(f % 3), o);
            if (memcmp(o, k, sizeof k) == 0) {
                q->tag ^= 1u;
                break;
            }
        }
    }
    for (i = 0; i < cap; i++)
        odd += tab[i].edge && (tab[i].tag & 1u);
    free(tab);
    *open = odd;
    return XG_OK;
}

int xg_open_edges(const double *tri, size_t ntri, uint64_t *open)
{
    if (!open || (!tri && ntri))
        return XG_EINVAL;
    return xg__open_edges(tri, NULL, ntri, open);
}

/* ---- grouping by fid ---- */

/* Consecutive triangles of one fid. */
struct fid_run {
    int64_t key;          /* the fid, then the group's first triangle */
    uint32_t head, len;
};

static int run_before(const void *a, const void *b)
{
    const struct fid_run *x = a, *y = b;
    return x->key != y->key ? x->key < y->key : x->head < y->head;
}

/* Sorts the n elements of size bytes at v, stably, by before (non-zero
 * when its first argument goes first), with tmp of n elements: insertion
 * for a few, else a merge sort (qsort is not stable, and would need its
 * comparator's data in a global).  The one sort of this file. */
static void sort_by(void *v, void *tmp, size_t n, size_t size,
                    int (*before)(const void *, const void *))
{
    char *a = v, *t = tmp;
    size_t w, i;
    if (n <= 16) {
        for (i = 1; i < n; i++) {
            size_t k = i;
            memcpy(t, a + i * size, size);
            for (; k > 0 && before(t, a + (k - 1) * size); k--)
                memcpy(a + k * size, a + (k - 1) * size, size);
            memcpy(a + k * size, t, size);
        }
        return;
    }
    for (w = 1; w < n; w *= 2) {
        for (i = 0; i < n; i += 2 * w) {
            size_t m = i + w < n ? i + w : n, e = i + 2 * w < n ? i + 2 * w : n;
            size_t x = i, y = m, o = i;
            while (x < m && y < e) {
                int right = before(a + y * size, a + x * size);
                memcpy(t + o++ * size, a + (right ? y++ : x++) * size, size);
            }
            memcpy(t + o * size, a + x * size, (m - x) * size);
            o += m - x;
            memcpy(t + o * size, a + y * size, (e - y) * size);
        }
        memcpy(a, t, n * size);
    }
}

/* Readers give one run per fid, so the sorts are of runs, few. */
int xg__solids_group(const struct xg_set *b, uint32_t *order,
                     uint32_t **start, size_t *nsolid)
{
    size_t n = b->n, i, j, nr = 0, g = 0, w = 0;
    struct fid_run *r, *tmp;
    uint32_t *st;

    for (i = 0; i < n; i++)
        nr += i == 0 || b->fid[i] != b->fid[i - 1];
    r = malloc((nr + 1) * sizeof *r);
    tmp = malloc((nr + 1) * sizeof *tmp);
    st = malloc((nr + 1) * sizeof *st);
    if (!r || !tmp || !st) {
        free(r);
        free(tmp);
        free(st);
        return XG_ENOMEM;
    }
    for (i = 0, j = 0; i < n; i++)
        if (i == 0 || b->fid[i] != b->fid[i - 1]) {
            r[j].key = b->fid[i];
            r[j].head = (uint32_t)i;
            if (j)
                r[j - 1].len = r[j].head - r[j - 1].head;
            j++;
        }
    if (nr)
        r[nr - 1].len = (uint32_t)(n - r[nr - 1].head);
    sort_by(r, tmp, nr, sizeof *r, run_before);
    /* each run's key becomes its group's first triangle: the head of the
     * group's first run */
    for (j = 0; j < nr; j++) {
        int64_t fid = r[j].key;
        size_t k = j;
        while (k < nr && r[k].key == fid)
            k++;
        for (i = j; i < k; i++)
            r[i].key = (int64_t)r[j].head;
        j = k - 1;
    }
    sort_by(r, tmp, nr, sizeof *r, run_before);
    for (j = 0; j < nr; j++) {
        if (j == 0 || r[j].key != r[j - 1].key)
            st[g++] = (uint32_t)w;
        for (i = 0; i < r[j].len; i++)
            order[w++] = r[j].head + (uint32_t)i;
    }
    st[g] = (uint32_t)w;
    free(r);
    free(tmp);
    *start = st;
    *nsolid = g;
    return XG_OK;
}

/* ---- closedness, on threads (solids taken one at a time) ---- */

struct closed_run {
    const struct xg_set *b;
    const uint32_t *order, *start;
    size_t nsolid;
    atomic_size_t next;
    uint64_t *open;           /* per solid */
    atomic_int nomem;
};

static void closed_worker(void *arg, int tid)
{
    struct closed_run *c = arg;
    size_t s;
    (void)tid;
    while ((s = atomic_fetch_add(&c->next, 1)) < c->nsolid)
        if (xg__open_edges(c->b->xyz, c->order + c->start[s],
                           c->start[s + 1] - c->start[s], &c->open[s]))
            atomic_store(&c->nomem, 1);
}

/* Every solid (order, start: xg__solids_group's) closed, else XG_EFORMAT
 * naming the first open one, in the solids' order: the one message of
 * an open solid, whoever checks (xg__solids_prepare, xg__solids_closed). */
static int check_closed(struct xg_ctx *ctx, const struct xg_set *b,
                        const uint32_t *order, const uint32_t *start,
                        size_t nsolid, int nthreads)
{
    struct closed_run cr;
    size_t s;
    int rc = XG_OK;
    memset(&cr, 0, sizeof cr);
    cr.b = b;
    cr.order = order;
    cr.start = start;
    cr.nsolid = nsolid;
    atomic_init(&cr.next, 0);
    atomic_init(&cr.nomem, 0);
    cr.open = calloc(nsolid + 1, sizeof *cr.open);
    if (!cr.open)
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    xg__parallel(nthreads < (int)nsolid ? nthreads : (nsolid ? (int)nsolid : 1),
                 closed_worker, &cr);
    if (atomic_load(&cr.nomem))
        rc = xg__error(ctx, XG_ENOMEM, "out of memory");
    for (s = 0; s < nsolid && rc == XG_OK; s++)
        if (cr.open[s])
            rc = xg__error(ctx, XG_EFORMAT,
                           "solid with fid %lld is not closed: %llu open "
                           "edge%s (used by an odd number of its triangles)",
                           (long long)b->fid[order[start[s]]],
                           (unsigned long long)cr.open[s],
                           cr.open[s] == 1 ? "" : "s");
    free(cr.open);
    return rc;
}

int xg__solids_closed(struct xg_ctx *ctx, const struct xg_set *b,
                      int nthreads)
{
    uint32_t *order, *start = NULL;
    size_t nsolid = 0;
    int rc;
    if (b->n == 0)
        return XG_OK;
    if (!(order = malloc(b->n * sizeof *order)) ||
        xg__solids_group(b, order, &start, &nsolid) != XG_OK) {
        free(order);
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    }
    rc = check_closed(ctx, b, order, start, nsolid, nthreads);
    free(order);
    free(start);
    return rc;
}

/* ---- surfaces that cross themselves ---- */

/* The index in B of kept triangle k of solid s: the solid's triangles are
 * its fid's, ascending in B, less the collinear ones. */
static size_t b_index(const struct xg_set *b, const struct xg__solids *S,
                      size_t s, size_t k)
{
    struct xg_counters cnt = {0};
    int64_t fid = b->fid[S->first[s]];
    size_t i, m = k - S->tri_start[s];
    for (i = S->first[s];; i++)
        if (b->fid[i] == fid && !xg__tri_is_degenerate(&cnt, b->xyz + 9 * i) &&
            m-- == 0)
            return i;
}

int xg__solids_crossing(struct xg_ctx *ctx, const struct xg_set *b,
                        const struct xg__solids *S, const double *box,
                        int nthreads, struct xg_counters *cnt)
{
    uint64_t *first;
    size_t s;
    int rc;
    if (!(first = malloc((S->nsolid + 1) * sizeof *first)))
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    rc = xg__selfx_find(S->tri, box, S->ntri, S->solid, S->nsolid, 0,
                        S->junc, S->junc_start, nthreads, first, cnt);
    if (rc != XG_OK)
        rc = xg__error(ctx, rc, rc == XG_ENOMEM ? "out of memory"
                                                : "too many triangles");
    for (s = 0; s < S->nsolid && rc == XG_OK; s++)
        if (first[s] != XG_SELFX_NONE) {
            size_t i = b_index(b, S, s, (size_t)(first[s] >> 32));
            size_t j = b_index(b, S, s, (size_t)(first[s] & UINT32_MAX));
            rc = xg__error(ctx, XG_EFORMAT,
                           "solid with fid %lld crosses itself: its "
                           "triangles %lld and %lld meet other than at an "
                           "edge or a vertex they share (give parts that "
                           "overlap as separate features)",
                           (long long)b->fid[i], (long long)b->sub[i],
                           (long long)b->sub[j]);
        }
    free(first);
    return rc;
}

/* ---- the kept triangles, on threads ---- */

struct keep_job {
    const struct xg_set *b;
    const uint32_t *order, *start;
    size_t nsolid;
    int nthreads, pass;       /* 0: mark the collinear; 1: copy the rest */
    uint8_t *flat;            /* per position of order: collinear */
    size_t *kept;             /* per thread: kept; then the first number */
    struct xg_counters *cnt;  /* per thread */
    double *lohi;             /* per thread: 6 doubles */
    struct xg__solids *S;
    double *box;
};

static void keep_worker(void *arg, int tid)
{
    struct keep_job *J = arg;
    struct xg__solids *S = J->S;
    size_t lo, hi, i, at, s = 0, n = 0;
    double *lh = J->lohi + 6 * tid;
    int k;
    xg__share(J->b->n, J->nthreads, tid, &lo, &hi);
    if (J->pass == 0) {
        for (i = lo; i < hi; i++) {
            J->flat[i] = (uint8_t)xg__tri_is_degenerate(
                &J->cnt[tid], J->b->xyz + 9 * (size_t)J->order[i]);
            n += !J->flat[i];
        }
        J->kept[tid] = n;
        return;
    }
    for (k = 0; k < 3; k++) {
        lh[k] = INFINITY;
        lh[3 + k] = -INFINITY;
    }
    at = J->kept[tid];
    /* the solid of position lo: the last whose start is <= lo */
    {
        size_t a = 0, z = J->nsolid;
        while (z - a > 1) {
            size_t m = a + (z - a) / 2;
            if (J->start[m] <= lo)
                a = m;
            else
                z = m;
        }
        s = a;
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
        for (k = 0; k < 3; k++) {
            if (bx[k] < lh[k])
                lh[k] = bx[k];
            if (bx[3 + k] > lh[3 + k])
                lh[3 + k] = bx[3 + k];
        }
        at++;
    }
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

/* S's tri, solid, turn, tri_start (but its end) and first from B in the
 * order of order (solids start[0..nsolid]), collinear triangles counted
 * in st and left out; box: the kept triangles' boxes; lo, hi: their
 * hull; *kept: their number.  XG_OK or XG_ENOMEM. */
static int keep_triangles(const struct xg_set *b, const uint32_t *order,
                          const uint32_t *start, size_t nsolid, int nthreads,
                          struct xg__solids *S, double *box, double lo[3],
                          double hi[3], size_t *kept, struct xg_stats *st)
{
    struct keep_job J;
    size_t s, sum = 0;
    int t, k, rc = XG_OK;
    for (k = 0; k < 3; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
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
    J.kept = calloc((size_t)nthreads, sizeof *J.kept);
    J.cnt = calloc((size_t)nthreads, sizeof *J.cnt);
    J.lohi = malloc((size_t)nthreads * 6 * sizeof *J.lohi);
    if (!J.flat || !J.kept || !J.cnt || !J.lohi ||
        xg__parallel(nthreads, keep_worker, &J) != XG_OK) {
        rc = XG_ENOMEM;
        goto out;
    }
    for (t = 0; t < nthreads; t++) {
        size_t n = J.kept[t];
        J.kept[t] = sum;
        sum += n;
    }
    J.pass = 1;
    if (xg__parallel(nthreads, keep_worker, &J) != XG_OK) {
        rc = XG_ENOMEM;
        goto out;
    }
    for (t = 0; t < nthreads; t++) {
        xg_counters_add(&st->cnt, &J.cnt[t]);
        for (k = 0; k < 3; k++) {
            if (J.lohi[6 * t + k] < lo[k])
                lo[k] = J.lohi[6 * t + k];
            if (J.lohi[6 * t + 3 + k] > hi[k])
                hi[k] = J.lohi[6 * t + 3 + k];
        }
    }
    st->b_skipped += b->n - sum;
    *kept = sum;
    if (sum < b->n)
        rc = junctions(b, order, start, nsolid, J.flat, S);
out:
    free(J.flat);
    free(J.kept);
    free(J.cnt);
    free(J.lohi);
    return rc;
}

/* ---- the runs: each column's triangles solid by solid ---- */

/* A triangle of a run and its box top, the sort key. */
struct by_top {
    double top;
    uint32_t t;
};

/* Highest top first, then the triangle number. */
static int higher(const void *a, const void *b)
{
    const struct by_top *x = a, *y = b;
    return x->top != y->top ? x->top > y->top : x->t < y->t;
}

struct runs_job {
    struct xg__solids *S;
    int nthreads, pass;       /* 0: count each column's runs; 1: fill */
    size_t *cut;              /* nthreads + 1: the threads' columns */
    atomic_int nomem;
};

/* Sorts a run's n triangles by higher: insertion for the short runs of
 * the default columns (a few triangles each), the merge sort beyond.
 * higher is a total order, so both give the one order. */
static void sort_run(struct by_top *v, struct by_top *tmp, size_t n)
{
    size_t i;
    if (n > 32) {
        sort_by(v, tmp, n, sizeof *v, higher);
        return;
    }
    for (i = 1; i < n; i++) {
        struct by_top x = v[i];
        size_t k = i;
        for (; k > 0 && higher(&x, &v[k - 1]); k--)
            v[k] = v[k - 1];
        v[k] = x;
    }
}

static void runs_worker(void *arg, int tid)
{
    struct runs_job *J = arg;
    struct xg__solids *S = J->S;
    struct xg_grid *g = &S->g;
    struct by_top *v = NULL, *tmp = NULL;
    size_t lo, hi, c, cap = 0;

    lo = J->cut[tid];
    hi = J->cut[tid + 1];
    for (c = lo; c < hi; c++) {
        uint32_t j = g->b_start[c], j1 = g->b_start[c + 1], r = 0, k, s = 0;
        while (j < j1) {
            /* the column lists its triangles ascending, so a solid's
             * are together; its solid from tri_start, which is read in
             * order (S->solid would be read at random) */
            uint32_t e = j;
            while (S->tri_start[s + 1] <= g->b_items[j])
                s++;
            while (e < j1 && g->b_items[e] < S->tri_start[s + 1])
                e++;
            if (J->pass == 1) {
                struct xg__run *R = &S->run[S->run_start[c] + r];
                if (e - j > cap) {
                    free(v);
                    free(tmp);
                    cap = 2 * (e - j);
                    v = malloc(cap * sizeof *v);
                    tmp = malloc(cap * sizeof *tmp);
                    if (!v || !tmp) {
                        atomic_store(&J->nomem, 1);
                        free(v);
                        free(tmp);
                        return;
                    }
                }
                R->solid = s;
                R->start = j;
                R->end = e;
                R->pad = 0;
                R->zlo = INFINITY;
                for (k = j; k < e; k++) {
                    const double *b = g->b_box + 6 * (size_t)g->b_items[k];
                    v[k - j].t = g->b_items[k];
                    v[k - j].top = b[5];
                    if (b[2] < R->zlo)
                        R->zlo = b[2];
                }
                /* a merge sort: a coarse grid (-grid 1,1) makes runs of
                 * a whole solid */
                sort_run(v, tmp, e - j);
                for (k = j; k < e; k++) {
                    g->b_items[k] = v[k - j].t;
                    S->top[k] = v[k - j].top;
                }
                R->zhi = v[0].top;
            }
            r++;
            j = e;
        }
        if (J->pass == 0)
            S->run_start[c + 1] = r;
    }
    free(v);
    free(tmp);
}

/* cut[t]: the first column of thread t, so that the threads' columns
 * list about as many triangles (the columns through the solids list
 * many, those around them none). */
static void cut_columns(const struct xg_grid *g, int nthreads, size_t *cut)
{
    uint64_t refs = g->b_start[g->ncell];
    int t;
    cut[0] = 0;
    cut[nthreads] = g->ncell;
    for (t = 1; t < nthreads; t++) {
        uint64_t goal = refs * (uint64_t)t / (uint64_t)nthreads;
        size_t lo = cut[t - 1], hi = g->ncell;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (g->b_start[mid] < goal)
                lo = mid + 1;
            else
                hi = mid;
        }
        cut[t] = lo;
    }
}

/* S->run and S->run_start from the columns, on threads. */
static int runs_build(struct xg__solids *S, int nthreads)
{
    struct runs_job J;
    size_t c, n = S->g.ncell;
    int rc = XG_ENOMEM;
    /* huge pages where the system has them: a first touch of each 4 KiB
     * page of these arrays costs more than filling it */
    S->run_start = xg__big_alloc((n + 1) * sizeof *S->run_start);
    if (!S->run_start)
        return XG_ENOMEM;
    S->run_start[0] = 0;
    if (nthreads < 1)
        nthreads = 1;
    J.S = S;
    J.nthreads = nthreads;
    J.pass = 0;
    atomic_init(&J.nomem, 0);
    if (!(J.cut = malloc(((size_t)nthreads + 1) * sizeof *J.cut)))
        return XG_ENOMEM;
    cut_columns(&S->g, nthreads, J.cut);
    if (xg__parallel(nthreads, runs_worker, &J) != XG_OK)
        goto out;
    for (c = 0; c < n; c++)
        S->run_start[c + 1] += S->run_start[c];
    S->nrun = S->run_start[n];
    S->run = xg__big_alloc((S->nrun ? S->nrun : 1) * sizeof *S->run);
    S->top = xg__big_alloc(((size_t)S->g.b_start[n] + 1) * sizeof *S->top);
    if (!S->run || !S->top)
        goto out;
    J.pass = 1;
    if (xg__parallel(nthreads, runs_worker, &J) == XG_OK &&
        !atomic_load(&J.nomem))
        rc = XG_OK;
out:
    free(J.cut);
    return rc;
}

int xg__solids_prepare(struct xg_ctx *ctx, const struct xg_set *b,
                       const struct xg_opts *opt, int nthreads, int check,
                       struct xg__solids *S, struct xg_stats *st)
{
    uint32_t *order = NULL, *start = NULL;
    size_t nsolid = 0, kept = 0;
    double *box = NULL, lo[3], hi[3];
    int rc = XG_OK, cells[3], k;

    memset(S, 0, sizeof *S);
    if (b->n && !(order = malloc(b->n * sizeof *order)))
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    if (b->n && (rc = xg__solids_group(b, order, &start, &nsolid))) {
        free(order);
        return xg__error(ctx, rc, "out of memory");
    }
    if (check &&
        (rc = check_closed(ctx, b, order, start, nsolid, nthreads)) != XG_OK)
        goto out;
    /* the kept triangles, solid by solid */
    S->nsolid = nsolid;
    S->first = malloc((nsolid + 1) * sizeof *S->first);
    S->tri_start = malloc((nsolid + 1) * sizeof *S->tri_start);
    S->tri = xg__big_alloc((b->n ? b->n : 1) * 9 * sizeof(double));
    S->solid = xg__big_alloc((b->n + 1) * sizeof *S->solid);
    S->turn = xg__big_alloc(b->n + 1);
    box = xg__big_alloc((b->n ? b->n : 1) * 6 * sizeof(double));
    if (!S->first || !S->tri_start || !S->tri || !S->solid || !S->turn ||
        !box) {
        free(box);
        rc = xg__error(ctx, XG_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = keep_triangles(b, order, start, nsolid, nthreads, S, box, lo,
                             hi, &kept, st)) != XG_OK) {
        free(box);
        rc = xg__error(ctx, rc, "out of memory");
        goto out;
    }
    S->tri_start[nsolid] = (uint32_t)kept;
    S->ntri = kept;
    /* before the columns, on the boxes made for them: its grid and
     * theirs are not held at once */
    if (check && !opt->solids_checked &&
        (rc = xg__solids_crossing(ctx, b, S, box, nthreads, &st->cnt)) !=
            XG_OK) {
        free(box);
        goto out;
    }
    /* the columns */
    if (opt->grid[0] > 0 && opt->grid[1] > 0) {
        cells[0] = opt->grid[0];
        cells[1] = opt->grid[1];
        cells[2] = 1;
    } else {
        /* cells about as wide as the triangles' boxes in x and y, so
         * that a column lists a few triangles of each surface it
         * crosses */
        xg__grid_cells_boxes(box, kept, lo, hi, 2, 4.0, cells);
    }
    /* The A side of the grid is one box, the triangles' hull, so that
     * the region is that hull (the grid covers where A and B meet). */
    {
        double *hull = malloc(6 * sizeof *hull);
        if (!hull) {
            free(box);
            rc = xg__error(ctx, XG_ENOMEM, "out of memory");
            goto out;
        }
        memcpy(hull, lo, sizeof lo);
        memcpy(hull + 3, hi, sizeof hi);
        if (!kept)
            xg__box_none(hull);
        rc = xg__grid_build(&S->g, hull, kept ? 1 : 0, box, kept, cells,
                            nthreads, NULL, NULL);
    }
    if (rc != XG_OK) {
        rc = xg__error(ctx, rc, rc == XG_ENOMEM ? "out of memory"
                                                : "too many grid cells");
        goto out;
    }
    if ((rc = runs_build(S, nthreads)) != XG_OK) {
        rc = xg__error(ctx, rc, "out of memory");
        goto out;
    }
    for (k = 0; k < 3; k++)
        st->grid[k] = S->g.n[k];
    st->grid_refs_b = kept ? S->g.b_start[S->g.ncell] : 0;
out:
    free(order);
    free(start);
    return rc;
}

int xg__solids_valid(struct xg_ctx *ctx, const struct xg_set *b,
                     int nthreads)
{
    struct xg__solids S;
    struct xg_opts o;
    struct xg_stats st;
    int rc;
    memset(&o, 0, sizeof o);
    memset(&st, 0, sizeof st);
    rc = xg__solids_prepare(ctx, b, &o, nthreads, 1, &S, &st);
    xg__solids_free(&S);
    return rc;
}

void xg__solids_free(struct xg__solids *S)
{
    free(S->first);
    free(S->tri_start);
    free(S->tri);
    free(S->solid);
    free(S->turn);
    free(S->run_start);
    free(S->run);
    free(S->top);
    free(S->junc);
    free(S->junc_start);
    xg__grid_free(&S->g);
    memset(S, 0, sizeof *S);
}
