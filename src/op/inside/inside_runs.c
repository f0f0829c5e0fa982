/*
 * inside_runs.c -- the runs of inside's columns: each column's triangles
 * (the grid's CSR, ascending) cut into one run per solid, each run's
 * triangles highest box top first, and the runs' own CSR by column
 * (xg_csr.h by key ranges: the threads count and fill their columns,
 * the scan between is one pass).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "xg_csr.h"
#include "xg_solids.h"
#include "xg_thread.h"
#include "xg_mem.h"
#include "xg_grid.h"

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

/* The columns cut among the threads, and the pass they run. */
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
        xg__sort_stable(v, tmp, n, sizeof *v, higher);
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

/* This thread's columns: pass 0 counts each column's runs into
 * run_start[c], pass 1 fills them (the runs and S->top) from
 * run_start[c] on, each sorted by higher. */
static void runs_worker(void *arg, int tid)
{
    struct runs_job *J = arg;
    struct xg__solids *S = J->S;
    struct xg_grid *g = &S->g;
    struct by_top *v = NULL, *tmp = NULL;
    size_t lo, hi, c, vcap = 0, tcap = 0;

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
                if ((e - j > vcap || e - j > tcap) &&
                    (xg__reserve((void **)&v, &vcap, e - j, sizeof *v) ||
                     xg__reserve((void **)&tmp, &tcap, e - j,
                                 sizeof *tmp))) {
                    atomic_store(&J->nomem, 1);
                    goto done;
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
            S->run_start[c] = r;
    }
done:
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

/* xg__solids_runs (xg_solids.h): count, scan, fill. */
int xg__solids_runs(struct xg__solids *S, int nthreads)
{
    struct runs_job J;
    size_t n = S->g.ncell;
    int rc = XG_ENOMEM;
    /* huge pages where the system has them: a first touch of each 4 KiB
     * page of these arrays costs more than filling it */
    S->run_start = xg__big_alloc((n + 1) * sizeof *S->run_start);
    if (!S->run_start)
        return XG_ENOMEM;
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
    /* no more runs than the columns' items: the scan cannot fail */
    if (xg__csr_scan32(S->run_start, S->run_start, n) != XG_OK)
        goto out;
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
