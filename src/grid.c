/*
 * grid.c -- a 3D uniform grid in compressed (CSR) form over two sets of
 * boxes.  Each element is referenced from every cell its box overlaps.
 *
 * The grid covers the intersection of the two sets' bounding boxes:
 * nothing outside it can meet the other set.  Cell coordinates are
 * clamped, so a box reaching past the region lands in the border cells;
 * xg__cell_of stays monotone, which the ownership rule relies on.  The
 * cell function, cell ranges and numbering are xg_boxes.h's, shared with
 * the device grid (cuda/grid_gpu.cu); the region and the number of
 * cells are grid_frame.c's; the count, scan and fill are xg_csr.h's,
 * by key ranges (a slab is a range of cells).
 *
 * Built in parallel and deterministically, with no step whose work
 * grows with the thread count: the threads first take the hulls of
 * their share of the boxes (merged in share order; the pair engines take
 * them as they make the boxes, and pass them in), then the cell
 * ranges of their share, then each takes a slab of whole layers (cut so
 * that the slabs hold about as many references and cells each), the
 * shares' lists of the elements that reach each slab are made (beyond
 * SCAN_THREADS threads; up to it each thread scans all elements), and
 * each thread counts, offsets and fills the cells of its slab alone,
 * reading the shares' lists in order.  The layers are z-layers, or
 * y-rows when the grid is one cell deep (the 2D maps': one z-layer would leave one slab, and the
 * build on one thread).  Cells are z-major, then y, so either way a slab
 * is a contiguous run of cells; no two threads write the same counter,
 * and every cell lists its elements in ascending index order whatever
 * the thread count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "xg_grid.h"
#include "xg_mem.h"
#include "xg_boxes.h"
#include "xg_csr.h"
#include "xg_thread.h"

/* Up to this many threads, each slab's thread scans every element for
 * those that reach its slab instead of reading the bucket pass's lists:
 * on 2 threads the scan costs less than the bucket pass (on 16, each
 * thread would read all elements). */
#define SCAN_THREADS 2

/* One thread's share of one set's elements that reach one slab, in
 * ascending order (the bucket pass): the slab's thread reads the shares'
 * lists in turn instead of scanning every element, which on 16 threads
 * cost each thread as much as its share of the real work. */
struct elems {
    uint32_t *v;
    size_t n, cap;
};

struct build {
    struct xg_grid *g;
    int nthreads;
    size_t n[2];
    const double *box[2];
    int32_t *cell[2];
    uint32_t *count[2];       /* per cell: counts, then fill cursors */
    uint32_t *start[2], *items[2];
    int ax;                   /* the layers' axis: 2, or 1 when n[2] = 1 */
    size_t layer;             /* cells per layer */
    uint64_t *zrefs;          /* [thread][layer]: references per layer */
    int *zcut;                /* slab t is layers zcut[t] .. zcut[t+1]-1 */
    int *zslab;               /* per layer: its slab */
    struct elems *elems;      /* [set][slab][share] */
    uint64_t *slab_refs;      /* [set][thread]: references in the slab */
    uint64_t *slab_pairs;     /* per slab: sum of |A_c| |B_c| */
    uint64_t *base;           /* [set][thread]: the slab's first reference */
    double *hulls;            /* [thread][set]: 6 doubles */
    int *any;                 /* [thread][set]: a box in the share */
    int *failed;              /* per thread: out of memory */
    int phase;
};

enum { HULL, RANGES, BUCKET, COUNT, FILL };

/* Bounding box of the valid boxes; returns 0 when there are none. */
static int hull(const double *box, size_t lo_i, size_t hi_i, double h[6])
{
    size_t i;
    int k, any = 0;
    for (k = 0; k < 3; k++) {
        h[k] = HUGE_VAL;
        h[3 + k] = -HUGE_VAL;
    }
    for (i = lo_i; i < hi_i; i++) {
        const double *b = box + 6 * i;
        if (xg__box_is_none(b))
            continue;
        any = 1;
        xg__hull_add(h, b);
    }
    return any;
}

/* HULL: the hulls of this thread's shares of both sets' boxes. */
static void hulls(struct build *bd, int tid)
{
    int s;
    for (s = 0; s < 2; s++) {
        size_t lo, hi, at = 2 * (size_t)tid + (size_t)s;
        xg__share(bd->n[s], bd->nthreads, tid, &lo, &hi);
        bd->any[at] = hull(bd->box[s], lo, hi, bd->hulls + 6 * at);
    }
}

/* The shares' hulls, merged in share order with the same strict tests
 * as one pass over all boxes: the first of equal bounds (0.0, -0.0) is
 * kept, so the frame is the same whatever the thread count. */
static int merge_hulls(const struct build *bd, int s, double h[6])
{
    int t, k, any = 0;
    for (k = 0; k < 3; k++) {
        h[k] = HUGE_VAL;
        h[3 + k] = -HUGE_VAL;
    }
    for (t = 0; t < bd->nthreads; t++) {
        if (!bd->any[2 * t + s])
            continue;
        any = 1;
        xg__hull_add(h, bd->hulls + 6 * (2 * (size_t)t + (size_t)s));
    }
    return any;
}

/* RANGES: the cell ranges of this thread's shares of the boxes, and
 * (on several threads) the references each layer gets from them, which
 * cut_slabs balances. */
static void ranges(struct build *bd, int tid)
{
    const struct xg_grid *g = bd->g;
    uint64_t *zr = bd->zrefs + (size_t)tid * (size_t)g->n[bd->ax];
    int ax = bd->ax, o = 3 - ax;      /* o: the other axis than x, ax */
    int s;
    for (s = 0; s < 2; s++) {
        size_t lo, hi, i;
        xg__share(bd->n[s], bd->nthreads, tid, &lo, &hi);
        for (i = lo; i < hi; i++) {
            int32_t *c = bd->cell[s] + 6 * i;
            uint64_t layer;
            int z;
            /* A box that misses the region gets an empty range. */
            if (!xg__box_cells(g->n, g->lo, g->hi, g->inv,
                               bd->box[s] + 6 * i, c))
                continue;
            if (bd->nthreads == 1)
                continue;       /* one slab: nothing to balance */
            layer = (uint64_t)(c[3] - c[0] + 1) * (uint64_t)(c[3 + o] - c[o] + 1);
            for (z = c[ax]; z <= c[3 + ax]; z++)
                zr[z] += layer;
        }
    }
}

/* The bucket list of set s's elements in slab slab from share share. */
static struct elems *elems_of(struct build *bd, int s, int slab, int share)
{
    size_t T = (size_t)bd->nthreads;
    return bd->elems + ((size_t)s * T + (size_t)slab) * T + (size_t)share;
}

/* This thread's share of the elements into the lists of the slabs their
 * ranges reach, in ascending order. */
static void bucket(struct build *bd, int tid)
{
    int s;
    for (s = 0; s < 2; s++) {
        size_t lo, hi, i;
        xg__share(bd->n[s], bd->nthreads, tid, &lo, &hi);
        for (i = lo; i < hi; i++) {
            const int32_t *c = bd->cell[s] + 6 * i;
            int u;
            if (c[0] > c[3])
                continue;
            for (u = bd->zslab[c[bd->ax]]; u <= bd->zslab[c[3 + bd->ax]];
                 u++) {
                struct elems *e = elems_of(bd, s, u, tid);
                if (xg__grow((void **)&e->v, &e->cap, e->n, sizeof *e->v)) {
                    bd->failed[tid] = 1;
                    return;
                }
                e->v[e->n++] = (uint32_t)i;
            }
        }
    }
}

/* Counts (fill 0) or places (fill 1) the references of element i of
 * set s in slab z0 .. z1-1.  Inline, so that each pass has its own loop
 * with no test of the pass inside. */
static inline void place(struct build *bd, int s, uint32_t i, int z0,
                         int z1, int fill)
{
    const int32_t *c = bd->cell[s] + 6 * (size_t)i;
    uint32_t *cnt = bd->count[s], *items = bd->items[s];
    const uint32_t nx = (uint32_t)bd->g->n[0];
    int x, y, z, ylo = c[1], yhi = c[4], zlo = c[2], zhi = c[5];
    int *lo = bd->ax == 2 ? &zlo : &ylo, *hi = bd->ax == 2 ? &zhi : &yhi;
    if (c[0] > c[3] || *hi < z0 || *lo >= z1)
        return;
    if (*lo < z0)               /* within the slab */
        *lo = z0;
    if (*hi > z1 - 1)
        *hi = z1 - 1;
    /* In locals and not through g or bd: the stores below may alias
     * them, which would have the compiler read them again every cell. */
    for (z = zlo; z <= zhi; z++) {
        uint32_t row = xg__cell_index(bd->g->n, 0, ylo, z);
        for (y = ylo; y <= yhi; y++, row += nx) {
            for (x = c[0]; x <= c[3]; x++) {
                if (!fill)
                    cnt[row + (uint32_t)x]++;
                else
                    items[cnt[row + (uint32_t)x]++] = i;
            }
        }
    }
}

/* Every element of set s that reaches this thread's slab, in ascending
 * order: all of them up to SCAN_THREADS threads, else the shares' lists
 * in turn. */
static inline void slab_elements(struct build *bd, int s, int tid,
                                 int fill)
{
    int z0 = bd->zcut[tid], z1 = bd->zcut[tid + 1], t;
    size_t i;
    if (bd->nthreads <= SCAN_THREADS) {
        for (i = 0; i < bd->n[s]; i++)
            place(bd, s, (uint32_t)i, z0, z1, fill);
        return;
    }
    for (t = 0; t < bd->nthreads; t++) {
        const struct elems *e = elems_of(bd, s, tid, t);
        for (i = 0; i < e->n; i++)
            place(bd, s, e->v[i], z0, z1, fill);
    }
}

/* COUNT: the slab's counts, its candidate pairs, and its cells' offsets
 * within the slab (xg_csr.h by key ranges: the slab's base is added in
 * FILL, once the slabs' totals are known). */
static void slab_count(struct build *bd, int tid)
{
    size_t c0 = (size_t)bd->zcut[tid] * bd->layer;
    size_t c1 = (size_t)bd->zcut[tid + 1] * bd->layer, c;
    uint64_t pairs = 0;
    int s;
    for (s = 0; s < 2; s++)
        slab_elements(bd, s, tid, 0);
    for (c = c0; c < c1; c++)
        pairs += (uint64_t)bd->count[0][c] * bd->count[1][c];
    bd->slab_pairs[tid] = pairs;
    for (s = 0; s < 2; s++)
        bd->slab_refs[(size_t)s * (size_t)bd->nthreads + (size_t)tid] =
            xg__csr_offsets(bd->count[s], c0, c1);
}

/* FILL: the slab's offsets moved to its base, its starts, its items. */
static void slab_fill(struct build *bd, int tid)
{
    size_t c0 = (size_t)bd->zcut[tid] * bd->layer;
    size_t c1 = (size_t)bd->zcut[tid + 1] * bd->layer;
    int s;
    for (s = 0; s < 2; s++) {
        size_t at = (size_t)s * (size_t)bd->nthreads + (size_t)tid;
        xg__csr_starts(bd->count[s], bd->start[s], c0, c1,
                       (uint32_t)bd->base[at]);
        slab_elements(bd, s, tid, 1);
    }
}

/* One phase's work for thread tid: a pass of the build (bd->phase). */
static void build_worker(void *arg, int tid)
{
    struct build *bd = arg;
    switch (bd->phase) {
    case HULL:
        hulls(bd, tid);
        break;
    case RANGES:
        ranges(bd, tid);
        break;
    case BUCKET:
        bucket(bd, tid);
        break;
    case COUNT:
        slab_count(bd, tid);
        break;
    default:
        slab_fill(bd, tid);
        break;
    }
}

/* The work of layer z: its references, and its cells (each slab's
 * thread passes over its cells four times: the empty rows of a map's
 * poles are cells without references). */
static uint64_t layer_work(const struct build *bd, int z)
{
    size_t nz = (size_t)bd->g->n[bd->ax];
    uint64_t w = bd->layer;
    int t;
    for (t = 0; t < bd->nthreads; t++)
        w += bd->zrefs[(size_t)t * nz + (size_t)z];
    return w;
}

/* Cuts the z-layers into nthreads slabs of about equal work, and notes
 * each layer's slab. */
static void cut_slabs(struct build *bd)
{
    int nz = bd->g->n[bd->ax], t, z = 0;
    uint64_t total = 0, run = 0;
    for (z = 0; z < nz; z++)
        total += layer_work(bd, z);
    bd->zcut[0] = 0;
    z = 0;
    for (t = 1; t < bd->nthreads; t++) {
        uint64_t goal = total / (uint64_t)bd->nthreads * (uint64_t)t;
        while (z < nz && run < goal)
            run += layer_work(bd, z++);
        bd->zcut[t] = z;
    }
    bd->zcut[bd->nthreads] = nz;
    for (t = 0; t < bd->nthreads; t++)
        for (z = bd->zcut[t]; z < bd->zcut[t + 1]; z++)
            bd->zslab[z] = t;
}

/* Runs phase on bd's threads: XG_OK, or XG_ENOMEM when the threads
 * could not start or one of them ran out of memory. */
static int run_phase(struct build *bd, int phase)
{
    int t;
    bd->phase = phase;
    if (xg__parallel(bd->nthreads, build_worker, bd) != XG_OK)
        return XG_ENOMEM;
    for (t = 0; t < bd->nthreads; t++)
        if (bd->failed[t])
            return XG_ENOMEM;
    return XG_OK;
}

/* bd set for a build over the boxes of g on nthreads threads, with its
 * per-thread scratch of the hulls' phase; XG_OK or XG_ENOMEM (what was
 * allocated is build_close's to free either way). */
static int build_open(struct build *bd, struct xg_grid *g, size_t na,
                      size_t nb, int nthreads)
{
    size_t T = (size_t)nthreads;
    memset(bd, 0, sizeof *bd);
    bd->g = g;
    bd->nthreads = nthreads;
    bd->n[0] = na;
    bd->n[1] = nb;
    bd->box[0] = g->a_box;
    bd->box[1] = g->b_box;
    bd->hulls = malloc(2 * T * 6 * sizeof *bd->hulls);
    bd->any = calloc(2 * T, sizeof *bd->any);
    bd->failed = calloc(T, sizeof *bd->failed);
    return bd->hulls && bd->any && bd->failed ? XG_OK : XG_ENOMEM;
}

/* The grid's frame from the sets' hulls: the caller's (hulls, any:
 * xg__grid_build's) or the HULL phase's, merged in share order. */
static int build_frame(struct build *bd, const double *hulls,
                       const int *any, const int cells[3])
{
    size_t T = (size_t)bd->nthreads;
    double ah[6], bh[6];
    int a_any, b_any, rc;
    if (hulls) {                /* taken as the boxes were made */
        memcpy(bd->hulls, hulls, 2 * T * 6 * sizeof *bd->hulls);
        memcpy(bd->any, any, 2 * T * sizeof *bd->any);
    } else if ((rc = run_phase(bd, HULL)) != XG_OK) {
        return rc;
    }
    a_any = merge_hulls(bd, 0, ah);
    b_any = merge_hulls(bd, 1, bh);
    return xg__grid_frame(bd->g, ah, a_any, bh, b_any, bd->n[0], bd->n[1],
                          cells);
}

/* The grid's cell ranges and starts (its items come once their sizes
 * are known), and the slabs' scratch; XG_OK or XG_ENOMEM. */
static int build_alloc(struct build *bd)
{
    struct xg_grid *g = bd->g;
    size_t T = (size_t)bd->nthreads, na = bd->n[0], nb = bd->n[1];
    g->a_cell = xg__big_alloc((na ? na : 1) * 6 * sizeof(int32_t));
    g->b_cell = xg__big_alloc((nb ? nb : 1) * 6 * sizeof(int32_t));
    g->a_start = xg__big_alloc((g->ncell + 1) * sizeof(uint32_t));
    g->b_start = xg__big_alloc((g->ncell + 1) * sizeof(uint32_t));
    bd->cell[0] = g->a_cell;
    bd->cell[1] = g->b_cell;
    bd->start[0] = g->a_start;
    bd->start[1] = g->b_start;
    bd->count[0] = xg__big_calloc(g->ncell, sizeof(uint32_t));
    bd->count[1] = xg__big_calloc(g->ncell, sizeof(uint32_t));
    bd->ax = g->n[2] > 1 ? 2 : 1;
    bd->layer = (size_t)g->n[0] * (bd->ax == 2 ? (size_t)g->n[1] : 1);
    bd->zrefs = calloc(T * (size_t)g->n[bd->ax], sizeof(uint64_t));
    bd->zcut = calloc(T + 1, sizeof(int));
    bd->zslab = calloc((size_t)g->n[bd->ax], sizeof(int));
    bd->elems = calloc(2 * T * T, sizeof *bd->elems);
    bd->slab_refs = calloc(2 * T, sizeof(uint64_t));
    bd->slab_pairs = calloc(T, sizeof(uint64_t));
    bd->base = calloc(2 * T, sizeof(uint64_t));
    if (!g->a_cell || !g->b_cell || !g->a_start || !g->b_start ||
        !bd->count[0] || !bd->count[1] || !bd->zrefs || !bd->zcut ||
        !bd->zslab || !bd->elems || !bd->slab_refs || !bd->slab_pairs ||
        !bd->base)
        return XG_ENOMEM;
    return XG_OK;
}

/* Between COUNT and FILL: each set's slabs placed one after the other
 * (xg__csr_bases; XG_ELIMIT past 2^32 references), its items allocated,
 * and the candidate pairs summed. */
static int slab_bases(struct build *bd)
{
    struct xg_grid *g = bd->g;
    size_t T = (size_t)bd->nthreads;
    int s, t;
    for (s = 0; s < 2; s++) {
        uint32_t refs;
        int rc;
        if ((rc = xg__csr_bases(bd->slab_refs + (size_t)s * T, T,
                                bd->base + (size_t)s * T,
                                &bd->start[s][g->ncell])) != XG_OK)
            return rc;
        refs = bd->start[s][g->ncell];
        bd->items[s] = xg__big_alloc((refs ? refs : 1) * sizeof(uint32_t));
        *(s ? &g->b_items : &g->a_items) = bd->items[s];
        if (!bd->items[s])
            return XG_ENOMEM;
    }
    for (t = 0; t < bd->nthreads; t++)
        g->candidates += bd->slab_pairs[t];
    return XG_OK;
}

/* Frees bd's scratch (not the grid's arrays). */
static void build_close(struct build *bd)
{
    size_t T = (size_t)bd->nthreads;
    if (bd->elems) {
        size_t k;
        for (k = 0; k < 2 * T * T; k++)
            free(bd->elems[k].v);
    }
    free(bd->elems);
    free(bd->count[0]);
    free(bd->count[1]);
    free(bd->zrefs);
    free(bd->zcut);
    free(bd->zslab);
    free(bd->slab_refs);
    free(bd->slab_pairs);
    free(bd->base);
    free(bd->hulls);
    free(bd->any);
    free(bd->failed);
}

/* xg__grid_build, the boxes the grid's (borrowed 0) or the caller's:
 * the frame, the cell ranges, the slabs, then each set's CSR counted,
 * scanned and filled slab by slab.  Every failure frees the grid, and
 * with it the boxes it owns. */
static int grid_build(struct xg_grid *g, double *a_box, size_t na,
                      double *b_box, size_t nb, const int cells[3],
                      int nthreads, const double *hulls, const int *any,
                      int borrowed)
{
    struct build bd;
    int rc;

    memset(g, 0, sizeof *g);
    g->a_box = a_box;
    g->b_box = b_box;
    g->borrowed = borrowed;
    if (nthreads < 1)
        nthreads = 1;
    if ((rc = build_open(&bd, g, na, nb, nthreads)) == XG_OK &&
        (rc = build_frame(&bd, hulls, any, cells)) == XG_OK &&
        (rc = build_alloc(&bd)) == XG_OK &&
        (rc = run_phase(&bd, RANGES)) == XG_OK) {
        cut_slabs(&bd);
        if ((nthreads <= SCAN_THREADS ||
             (rc = run_phase(&bd, BUCKET)) == XG_OK) &&
            (rc = run_phase(&bd, COUNT)) == XG_OK &&
            (rc = slab_bases(&bd)) == XG_OK)
            rc = run_phase(&bd, FILL);
    }
    build_close(&bd);
    if (rc != XG_OK)
        xg__grid_free(g);
    return rc;
}

/* xg__grid_build (xg_grid.h): the grid owns the boxes. */
int xg__grid_build(struct xg_grid *g, double *a_box, size_t na, double *b_box,
                   size_t nb, const int cells[3], int nthreads,
                   const double *hulls, const int *any)
{
    return grid_build(g, a_box, na, b_box, nb, cells, nthreads, hulls, any,
                      0);
}

/* xg__grid_build_on (xg_grid.h): the caller keeps the boxes. */
int xg__grid_build_on(struct xg_grid *g, const double *a_box, size_t na,
                      const double *b_box, size_t nb, const int cells[3],
                      int nthreads)
{
    /* the grid never writes a box: the casts only let it hold them */
    return grid_build(g, (double *)a_box, na, (double *)b_box, nb, cells,
                      nthreads, NULL, NULL, 1);
}

/* xg__grid_free (xg_grid.h): its arrays, its boxes unless
 * borrowed; g zeroed. */
void xg__grid_free(struct xg_grid *g)
{
    if (!g)
        return;
    free(g->a_start);
    free(g->a_items);
    free(g->b_start);
    free(g->b_items);
    free(g->a_cell);
    free(g->b_cell);
    if (!g->borrowed) {
        free(g->a_box);
        free(g->b_box);
    }
    memset(g, 0, sizeof *g);
}
