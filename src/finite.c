/*
 * finite.c -- the check that every coordinate an engine reads is finite:
 * an infinite or NaN coordinate would make the exact predicates' answers
 * meaningless, so each operation refuses it before any work, naming the
 * first element that has one.  On threads, by blocks, with no branch per
 * coordinate.
 */
#include <string.h>
#include "xg_ctx.h"
#include "xg_pair.h"
#include "xg_thread.h"

/* The check's input, and per thread the first bad element it found. */
struct finite {
    const double *v;
    size_t n;
    int per, dim, nthreads;
    size_t *first;              /* per thread: first bad element, or n */
};

/* Non-zero when elements lo..hi-1 have an infinite or NaN coordinate
 * among those checked (x, y and, for dim 3, z of each point; an element
 * is points of 3 doubles): an exponent of all ones, which is what
 * carries (exponent bits) + 2^52 into bit 63, so that the test is three
 * integer operations a coordinate, with no branch (a million triangles
 * pass here).  xg__nonfinite_run is the same test over a flat run of m
 * doubles (the GPU's upload of inside's points checks them with it). */
int xg__nonfinite_run(const double *v, size_t m)
{
    uint64_t bad = 0, b;
    size_t i;
    for (i = 0; i < m; i++) {
        memcpy(&b, v + i, sizeof b);
        bad |= xg__nonfinite_carry(b);
    }
    return (int)(bad >> 63);
}

/* xg__nonfinite_run's test on elements lo .. hi-1 of f, each point's x
 * and y, and z when f->dim is 3: non-zero when one is not finite. */
static int any_nonfinite(const struct finite *f, size_t lo, size_t hi)
{
    const double *v = f->v + (size_t)f->per * lo;
    size_t i, m = (size_t)f->per * (hi - lo);
    uint64_t bad = 0, x, y;
    if (f->dim == 3)            /* every coordinate: one flat run */
        return xg__nonfinite_run(v, m);
    for (i = 0; i < m; i += 3) {    /* x and y of each point, not z */
        memcpy(&x, v + i, sizeof x);
        memcpy(&y, v + i + 1, sizeof y);
        bad |= xg__nonfinite_carry(x) | xg__nonfinite_carry(y);
    }
    return (int)(bad >> 63);
}

#define FINITE_BLOCK 4096

/* The first bad element of this thread's share (f->n when none): the
 * share's blocks tested whole, the one that fails element by element. */
static void finite_worker(void *arg, int tid)
{
    struct finite *f = arg;
    size_t lo, hi, i, e;
    xg__share(f->n, f->nthreads, tid, &lo, &hi);
    f->first[tid] = f->n;
    for (i = lo; i < hi; i = e) {
        e = hi - i > FINITE_BLOCK ? i + FINITE_BLOCK : hi;
        if (!any_nonfinite(f, i, e))
            continue;
        for (; i < e; i++)      /* the block's first bad element */
            if (any_nonfinite(f, i, i + 1)) {
                f->first[tid] = i;
                return;
            }
    }
}

/* xg__check_finite (xg_pair.h): the threads' first bad elements,
 * the least of them named (at most 64 threads, one per 65536 elements). */
int xg__check_finite(struct xg_ctx *ctx, const double *v, size_t n, int per,
                     int dim, const int64_t *fid, const char *what)
{
    struct finite f;
    size_t first[64], bad = n;
    int t;
    f.v = v;
    f.n = n;
    f.per = per;
    f.dim = dim;
    f.first = first;
    f.nthreads = xg__threads(ctx);
    if (f.nthreads > 64)
        f.nthreads = 64;
    if ((size_t)f.nthreads > n / 65536 + 1)
        f.nthreads = (int)(n / 65536 + 1);
    if (xg__parallel(f.nthreads, finite_worker, &f) != XG_OK)
        return xg__error(ctx, XG_ENOMEM, "out of memory while checking "
                         "coordinates");
    for (t = 0; t < f.nthreads; t++)
        if (first[t] < bad)
            bad = first[t];
    if (bad < n)
        return xg__error(ctx, XG_EINVAL,
                         "%s %zu (feature %lld) has a non-finite "
                         "coordinate",
                         what, bad, fid ? (long long)fid[bad] : -1LL);
    return XG_OK;
}
