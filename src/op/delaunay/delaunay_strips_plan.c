/*
 * delaunay_strips_plan.c -- what the cpu engine of xg_delaunay makes
 * before its strips' tasks (delaunay_strips.h): the points' box, the cuts
 * at x quantiles, the first margins, each strip's list of points, and the
 * grid of all points that the slow proof searches.  The passes over all
 * points run on the threads and give the same lists on any threads.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "delaunay_strips.h"
#include "xg_csr.h"
#include "xg_thread.h"

/* The passes over all points, on the threads: their shared state, owned
 * by xg__strips_plan or xg__strips_grid for the pass's time. */
struct pass {
    struct xg__strips *S;
    const uint32_t *gid;
    size_t n;
    int nthreads;
    double (*box)[4];          /* per thread */
    uint32_t *strip;           /* per point: its strip */
    struct xg__csr csr;        /* the strips' lists: count, then cursors */
    _Atomic uint32_t *cell;    /* the grid: counts, then cursors */
};

/* Thread tid's share of the points' box into P->box[tid] (empty: +inf
 * minima, -inf maxima). */
static void box_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    double *b = P->box[tid];
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    b[0] = b[1] = INFINITY;
    b[2] = b[3] = -INFINITY;
    for (k = lo; k < hi; k++) {
        const double *p = P->S->pts->xyz + 3 * (size_t)P->gid[k];
        b[0] = p[0] < b[0] ? p[0] : b[0];
        b[1] = p[1] < b[1] ? p[1] : b[1];
        b[2] = p[0] > b[2] ? p[0] : b[2];
        b[3] = p[1] > b[3] ? p[1] : b[3];
    }
}

/* S->box: xmin, ymin, xmax, ymax of the points, from the threads' boxes.
 * XG_OK or XG_ENOMEM. */
static int find_box(struct xg__strips *S, struct pass *P)
{
    size_t k;
    P->box = malloc((size_t)P->nthreads * sizeof *P->box);
    if (!P->box || xg__parallel(P->nthreads, box_worker, P) != XG_OK)
        return XG_ENOMEM;
    S->box[0] = S->box[1] = INFINITY;
    S->box[2] = S->box[3] = -INFINITY;
    for (k = 0; k < (size_t)P->nthreads; k++) {
        S->box[0] = P->box[k][0] < S->box[0] ? P->box[k][0] : S->box[0];
        S->box[1] = P->box[k][1] < S->box[1] ? P->box[k][1] : S->box[1];
        S->box[2] = P->box[k][2] > S->box[2] ? P->box[k][2] : S->box[2];
        S->box[3] = P->box[k][3] > S->box[3] ? P->box[k][3] : S->box[3];
    }
    return XG_OK;
}

/* qsort's order of doubles (no NaN here: the points are finite). */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Cuts at x quantiles of a sample, up to want strips (fewer where
 * quantiles coincide); a strip holds the x in [edge[s], edge[s+1]), the
 * last one its right end too.  S->box set; S->edge and S->nstrip made
 * (S owns edge).  XG_OK or XG_ENOMEM. */
static int cut_strips(struct xg__strips *S, const uint32_t *gid, size_t want)
{
    size_t ns = want * 64, i, s, step;
    double *sample;
    step = (S->n / ns) ? S->n / ns : 1;
    ns = (S->n + step - 1) / step;
    sample = malloc(ns * sizeof *sample);
    S->edge = malloc((want + 1) * sizeof *S->edge);
    if (!sample || !S->edge) {
        free(sample);
        return XG_ENOMEM;
    }
    for (i = 0; i < ns; i++)
        sample[i] = xg__strips_x(S, gid[i * step]);
    qsort(sample, ns, sizeof *sample, cmp_double);
    S->edge[0] = S->box[0];
    S->nstrip = 1;
    for (s = 1; s < want; s++) {
        double x = sample[ns * s / want];
        if (x > S->edge[S->nstrip - 1])
            S->edge[S->nstrip++] = x;
    }
    S->edge[S->nstrip] = nextafter(S->box[2], INFINITY);
    free(sample);
    return XG_OK;
}

/* The strip that holds x: edge[s] <= x < edge[s + 1] (the last one for x
 * past its edge). */
static size_t strip_of(const struct xg__strips *S, double x)
{
    size_t lo = 0, hi = S->nstrip;   /* edge[lo] <= x < edge[hi] */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (S->edge[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The first margins, in strips: about three mean point spacings, between
 * a twentieth and a quarter of a strip (the proof takes in what they
 * miss).  Six cost more in building the margins than the slow proofs
 * three leave: callgrind, 2.5e5 points in 16 strips, uniform 3.01G ->
 * 2.81G instructions, lattice and clustered alike. */
static double first_margin(const struct xg__strips *S)
{
    double w = (S->box[2] - S->box[0]) / (double)S->nstrip;
    double area = (S->box[2] - S->box[0]) * (S->box[3] - S->box[1]);
    double gap = sqrt(area / (double)S->n);
    double m = w > 0 ? 3 * gap / w : 0.25;
    m = m < 0.05 ? 0.05 : m > 0.25 ? 0.25 : m;
    if (!(m == m))
        m = 0.25;
    return m;
}

/* The per-strip arrays of S (zeroed), for strips_free.  XG_OK or
 * XG_ENOMEM. */
static int alloc_strips(struct xg__strips *S)
{
    S->start = calloc(S->nstrip + 1, sizeof *S->start);
    S->item = malloc(S->n * sizeof *S->item);
    S->tri = calloc(S->nstrip, sizeof *S->tri);
    S->ntri = calloc(S->nstrip, sizeof *S->ntri);
    S->merged = calloc(S->nstrip, sizeof *S->merged);
    S->z_differ = calloc(S->nstrip, sizeof *S->z_differ);
    S->built = calloc(S->nstrip, sizeof *S->built);
    S->retried = calloc(S->nstrip, sizeof *S->retried);
    S->job = calloc(S->nstrip, sizeof *S->job);
    S->gid = calloc(S->nstrip, sizeof *S->gid);
    S->f = calloc(S->nstrip, sizeof *S->f);
    S->slow = calloc(S->nstrip, sizeof *S->slow);
    S->added = calloc(S->nstrip, sizeof *S->added);
    S->rc = calloc(S->nstrip, sizeof *S->rc);
    S->cnt = calloc((size_t)S->nthreads, sizeof *S->cnt);
    if (!S->start || !S->item || !S->tri || !S->ntri ||
        !S->merged || !S->z_differ || !S->built || !S->retried || !S->rc ||
        !S->cnt || !S->job || !S->gid || !S->f || !S->slow || !S->added)
        return XG_ENOMEM;
    return XG_OK;
}

/* Count step of the strips' lists: thread tid's share of the points
 * (xg__share's, in gid order), each given its strip in P->strip and
 * counted in share tid's row of P->csr. */
static void strip_count_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        uint32_t s = (uint32_t)strip_of(P->S, xg__strips_x(P->S, P->gid[k]));
        P->strip[k] = s;
        xg__csr_count(&P->csr, tid, s);
    }
}

/* Fill step: thread tid's share of the points into S->item at share
 * tid's cursors, which follow the shares before it in each strip. */
static void strip_fill_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++)
        P->S->item[xg__csr_next(&P->csr, tid, P->strip[k])] = P->gid[k];
}

/* The strips' lists, the one CSR build by shares (xg_csr.h): S->start
 * (nstrip + 1) and S->item (n), each strip's points in the order of gid,
 * whatever the thread count.  S->start and item allocated; P->strip and
 * P->csr made here, freed by the caller.  XG_OK or XG_ENOMEM. */
static int strip_lists_csr(struct xg__strips *S, struct pass *P)
{
    size_t s, sum;
    int rc;
    P->strip = malloc(S->n * sizeof *P->strip);
    if (!P->strip || xg__csr_init(&P->csr, S->nstrip, P->nthreads) != XG_OK ||
        xg__parallel(P->nthreads, strip_count_worker, P) != XG_OK)
        return XG_ENOMEM;
    /* n < 2^28 points (XG_DT_MAX_POINTS): the total fits, and so do the
     * 32-bit starts, share 0's cursors after the scan */
    if ((rc = xg__csr_scan(&P->csr, NULL, &sum)) != XG_OK)
        return rc;
    assert(sum == S->n);
    for (s = 0; s < S->nstrip; s++)
        S->start[s] = (uint32_t)xg__csr_cursor(&P->csr, 0, s);
    S->start[S->nstrip] = (uint32_t)sum;
    if (xg__parallel(P->nthreads, strip_fill_worker, P) != XG_OK)
        return XG_ENOMEM;
    return XG_OK;
}

/* The box, the cuts, the margins, the arrays, the lists
 * (delaunay_strips.h). */
int xg__strips_plan(struct xg__strips *S, const uint32_t *gid, int nstrips)
{
    struct pass P;
    size_t want;
    int rc;
    memset(&P, 0, sizeof P);
    P.S = S;
    P.gid = gid;
    P.n = S->n;
    P.nthreads = S->nthreads;
    if ((rc = find_box(S, &P)) != XG_OK)
        goto out;
    /* about 4 strips per thread, none smaller than 4096 points */
    want = (size_t)S->nthreads * 4;
    if (want > S->n / 4096)
        want = S->n / 4096;
    if (nstrips > 0)
        want = (size_t)nstrips;
    if (want < 1)
        want = 1;
    if ((rc = cut_strips(S, gid, want)) != XG_OK)
        goto out;
    S->margin = first_margin(S);
    if ((rc = alloc_strips(S)) != XG_OK)
        goto out;
    rc = strip_lists_csr(S, &P);
out:
    free(P.box);
    free(P.strip);
    xg__csr_free(&P.csr);
    return rc;
}

/* Counts each cell's points (atomically: any order). */
static void cell_count_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++)
        atomic_fetch_add_explicit(
            &P->cell[xg__strips_cell_of(P->S, P->gid[k])], 1,
            memory_order_relaxed);
}

/* A cell's points in whatever order the threads wrote them; then
 * cell_sort_worker puts each cell in ascending order. */
static void cell_fill_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        uint32_t at = atomic_fetch_add_explicit(
            &P->cell[xg__strips_cell_of(P->S, P->gid[k])], 1,
            memory_order_relaxed);
        P->S->citem[at] = P->gid[k];
    }
}

/* Each cell's points in ascending order (insertion: about two a cell).
 * The slow proof stops a cell's scan after NEAR_CAP conflicts
 * (delaunay_strips_proof.c), so the order decides which points it takes
 * in: in the threads' order the work, and --stats' predicate count,
 * changed from run to run (the triangulation never did). */
static void cell_sort_worker(void *arg, int tid)
{
    struct pass *P = arg;
    const struct xg__strips *S = P->S;
    size_t lo, hi, c;
    xg__share(S->nx * S->ny, P->nthreads, tid, &lo, &hi);
    for (c = lo; c < hi; c++) {
        uint32_t *v = S->citem + S->cstart[c];
        size_t n = S->cstart[c + 1] - S->cstart[c], i, j;
        for (i = 1; i < n; i++) {
            uint32_t g = v[i];
            for (j = i; j > 0 && v[j - 1] > g; j--)
                v[j] = v[j - 1];
            v[j] = g;
        }
    }
}

/* The grid of all points for the slow proof as CSR, count -> scan ->
 * fill -> sort, about two points per cell: S->nx, ny, inv_cw, inv_ch,
 * cstart (nx ny + 1) and citem (n) made; P->cell allocated here, freed
 * by the caller.  XG_OK or XG_ENOMEM. */
static int point_grid_csr(struct xg__strips *S, struct pass *P)
{
    size_t side = (size_t)sqrt((double)P->n / 2) + 1, c, sum = 0;
    S->nx = S->ny = side;
    S->inv_cw = S->box[2] > S->box[0] ? (double)side / (S->box[2] - S->box[0])
                                      : 0;
    S->inv_ch = S->box[3] > S->box[1] ? (double)side / (S->box[3] - S->box[1])
                                      : 0;
    S->cstart = malloc((side * side + 1) * sizeof *S->cstart);
    S->citem = malloc(P->n * sizeof *S->citem);
    P->cell = calloc(side * side, sizeof *P->cell);
    if (!S->cstart || !S->citem || !P->cell)
        return XG_ENOMEM;
    if (xg__parallel(P->nthreads, cell_count_worker, P) != XG_OK)
        return XG_ENOMEM;
    for (c = 0; c < side * side; c++) {
        uint32_t k = atomic_load_explicit(&P->cell[c], memory_order_relaxed);
        S->cstart[c] = (uint32_t)sum;
        atomic_store_explicit(&P->cell[c], (uint32_t)sum,
                              memory_order_relaxed);
        sum += k;
    }
    S->cstart[side * side] = (uint32_t)sum;
    if (xg__parallel(P->nthreads, cell_fill_worker, P) != XG_OK)
        return XG_ENOMEM;
    return xg__parallel(P->nthreads, cell_sort_worker, P);
}

/* The grid for the slow proof (delaunay_strips.h). */
int xg__strips_grid(struct xg__strips *S, const uint32_t *gid)
{
    struct pass P;
    int rc;
    memset(&P, 0, sizeof P);
    P.S = S;
    P.gid = gid;
    P.n = S->n;
    P.nthreads = S->nthreads;
    rc = point_grid_csr(S, &P);
    free((void *)P.cell);
    return rc;
}
