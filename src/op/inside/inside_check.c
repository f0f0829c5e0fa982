/*
 * inside_check.c -- inside's two checks of the solids: each one closed
 * (every edge of its mesh used by an even number of its triangles:
 * inside_edges.c, xg_mesh.h), on threads, a solid at a time; and none
 * crossing itself (selfx.c), each named by its fid and the first of its
 * faults.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xg_solids.h"
#include "xg_thread.h"
#include "xg_ctx.h"
#include "op/segtri/xg_segtri.h"
#include "xg_selfx.h"
#include "xg_mesh.h"

/* The solids shared among the threads by a cursor. */
struct closed_run {
    const struct xg_set *b;
    const uint32_t *order, *start;
    size_t nsolid;
    atomic_size_t next;
    uint64_t *open;           /* per solid */
    atomic_int nomem;
};

/* Takes the next solid until none is left, and counts its open
 * edges, each solid's mesh built in the storage of the one before (its
 * pages already faulted in); out of memory noted in nomem. */
static void closed_worker(void *arg, int tid)
{
    struct closed_run *c = arg;
    struct xg__mesh mesh;
    size_t s;
    (void)tid;
    memset(&mesh, 0, sizeof mesh);
    while ((s = atomic_fetch_add(&c->next, 1)) < c->nsolid) {
        size_t n = c->start[s + 1] - c->start[s];
        if (xg__mesh_reserve(&mesh, n) ||
            xg__open_edges(&mesh, c->b->xyz, c->order + c->start[s], n,
                           &c->open[s]))
            atomic_store(&c->nomem, 1);
    }
    xg__mesh_free(&mesh);
}

/* xg__solids_check_closed (xg_solids.h). */
int xg__solids_check_closed(struct xg_ctx *ctx, const struct xg_set *b,
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

/* xg__solids_closed (xg_inside.h): grouped, then checked. */
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
    rc = xg__solids_check_closed(ctx, b, order, start, nsolid, nthreads);
    free(order);
    free(start);
    return rc;
}

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

/* xg__solids_crossing (xg_inside.h): every solid's lowest crossing pair
 * (xg__selfx_find, with the solids' junctions), the first solid that
 * has one named with the pair's indices in its feature. */
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
