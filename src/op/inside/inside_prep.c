/*
 * inside_prep.c -- the solids of xg_inside: grouped by fid
 * (inside_group.c), checked closed (inside_check.c), collinear triangles
 * dropped (inside_keep.c), checked not to cross themselves (selfx.c),
 * and the columns the cpu and gpu engines look a point's ray up in (a
 * grid, grid.c, and its runs, inside_runs.c).
 */
#include <stdlib.h>
#include <string.h>
#include "xg_solids.h"
#include "xg_ctx.h"
#include "xg_grid.h"
#include "xg_mem.h"

/* S's columns over its kept triangles' boxes (box, S->ntri of them,
 * which the grid takes, also on failure; hull lo .. hi): the grid, at
 * opt->grid's cells or about as wide as the boxes, and its runs; st's
 * grid and grid_refs_b.  XG_OK, or the error with its message. */
static int columns(struct xg_ctx *ctx, struct xg__solids *S,
                   const struct xg_opts *opt, double *box,
                   const double lo[3], const double hi[3], int nthreads,
                   struct xg_stats *st)
{
    size_t kept = S->ntri;
    double *hull;
    int rc, cells[3], k;
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
    if (!(hull = malloc(6 * sizeof *hull))) {
        free(box);
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    }
    memcpy(hull, lo, 3 * sizeof *lo);
    memcpy(hull + 3, hi, 3 * sizeof *hi);
    if (!kept)
        xg__box_none(hull);
    rc = xg__grid_build(&S->g, hull, kept ? 1 : 0, box, kept, cells,
                        nthreads, NULL, NULL);
    if (rc != XG_OK)
        return xg__error(ctx, rc, rc == XG_ENOMEM ? "out of memory"
                                                  : "too many grid cells");
    if ((rc = xg__solids_runs(S, nthreads)) != XG_OK)
        return xg__error(ctx, rc, "out of memory");
    for (k = 0; k < 3; k++)
        st->grid[k] = S->g.n[k];
    st->grid_refs_b = kept ? S->g.b_start[S->g.ncell] : 0;
    return XG_OK;
}

/* xg__solids_prepare (xg_inside.h): group, check closed, keep, check
 * the crossings, then the columns. */
int xg__solids_prepare(struct xg_ctx *ctx, const struct xg_set *b,
                       const struct xg_opts *opt, int nthreads, int check,
                       struct xg__solids *S, struct xg_stats *st)
{
    uint32_t *order = NULL, *start = NULL;
    size_t nsolid = 0, kept = 0;
    double *box = NULL, lo[3], hi[3];
    int rc = XG_OK;

    memset(S, 0, sizeof *S);
    if (b->n && !(order = malloc(b->n * sizeof *order)))
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    if (b->n && (rc = xg__solids_group(b, order, &start, &nsolid))) {
        free(order);
        return xg__error(ctx, rc, "out of memory");
    }
    if (check && (rc = xg__solids_check_closed(ctx, b, order, start, nsolid,
                                               nthreads)) != XG_OK)
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
    if ((rc = xg__solids_keep(b, order, start, nsolid, nthreads, S, box, lo,
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
    rc = columns(ctx, S, opt, box, lo, hi, nthreads, st);
out:
    free(order);
    free(start);
    return rc;
}

/* xg__solids_valid (xg_inside.h): a preparation with both checks,
 * thrown away. */
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

/* xg__solids_free (xg_inside.h): every array of S, S zeroed. */
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
