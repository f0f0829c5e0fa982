/*
 * part_plan.c -- rank 0's plan of a run in regions: the inputs opened as a
 * single run opens them, the regions over their extents, and one pass
 * over every feature, read as a single run reads it (ogr_driver's
 * reader: its checks, messages and counts), that lists each feature by
 * FID for the regions its elements meet.  The regions then read by FID:
 * what OGR's spatial filters cannot see (non-finite or huge coordinates,
 * features outside a layer's stated extent, features without geometry)
 * is read, refused or counted here exactly as in a single run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include "xg_grow.h"
#include "xgp_internal.h"

/* The union of the layer's extent with box (lo, hi); 0 when the layer
 * has none (empty, or the driver cannot tell). */
static int add_extent(OGRLayerH lyr, double lo[2], double hi[2], int have)
{
    OGREnvelope e;
    if (OGR_L_GetExtent(lyr, &e, TRUE) != OGRERR_NONE ||
        !isfinite(e.MinX) || !isfinite(e.MinY) || !isfinite(e.MaxX) ||
        !isfinite(e.MaxY) || e.MinX > e.MaxX || e.MinY > e.MaxY)
        return have;
    if (!have || e.MinX < lo[0])
        lo[0] = e.MinX;
    if (!have || e.MinY < lo[1])
        lo[1] = e.MinY;
    if (!have || e.MaxX > hi[0])
        hi[0] = e.MaxX;
    if (!have || e.MaxY > hi[1])
        hi[1] = e.MaxY;
    return 1;
}

/* A growable list of FIDs. */
struct fidv {
    int64_t *v;
    size_t n, cap;
};

/* fid appended to l, which grows by the house's rule (xg_grow.h).
 * XG_OK or XG_ENOMEM (l unchanged). */
static int fidv_push(struct fidv *l, int64_t fid)
{
    if (xg__grow_array((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return XG_ENOMEM;
    l->v[l->n++] = fid;
    return XG_OK;
}

/* The pass over one input: the regions (xg_regions_plan's) and the
 * lists. */
struct scan {
    const struct xg_region *reg;
    int n, input;
    struct fidv *list;        /* LIST(S, k, input, other)               */
    uint64_t elements;        /* elements of the input's features       */
};

/* Region k's list of input i: the features it owns (other 0) or the
 * others it reads (other 1). */
#define LIST(S, k, i, other) ((S)->list[4 * (size_t)(k) + 2 * (i) + (other)])

/* The reader's visit (xgo_src.visit): the feature's elements (none for
 * a feature that gave none, which no region needs: the reader counted
 * it) listed for each region whose reach meets their (x, y) box, owned
 * by the region holding their first vertex (one region, so that the
 * regions' sums of its elements are the single run's), then dropped:
 * the plan holds FIDs, not geometries. */
static int visit(void *arg, int64_t fid, struct xg_set *set, size_t first,
                 char *err, size_t errlen)
{
    struct scan *S = arg;
    size_t d = (size_t)xg_elem_doubles(set->elem), m = set->n - first, j;
    const double *v = set->xyz + d * first;
    double box[4];
    int k, k0, k1, ko;
    if (m == 0)
        return XG_OK;
    box[0] = box[2] = v[0];
    box[1] = box[3] = v[1];
    for (j = 3; j < d * m; j += 3) {  /* every vertex, x y z (finite:
                                         the reader refuses the others) */
        box[0] = v[j] < box[0] ? v[j] : box[0];
        box[2] = v[j] > box[2] ? v[j] : box[2];
        box[1] = v[j + 1] < box[1] ? v[j + 1] : box[1];
        box[3] = v[j + 1] > box[3] ? v[j + 1] : box[3];
    }
    xg_regions_meeting(S->reg, S->n, box, &k0, &k1);
    ko = xg_regions_owner(S->reg, S->n, v);
    /* the owner's strip holds a vertex of the box, and its reach the
     * strip (xg_region_reach) */
    if (ko < 0 || !(k0 <= ko && ko <= k1))
        return xgo__fail(err, errlen, XG_EINVAL, "feature %lld: no region "
                         "owns it (a bug: the regions do not tile the "
                         "plane)", (long long)fid);
    for (k = k0; k <= k1; k++)
        if (fidv_push(&LIST(S, k, S->input, k != ko), fid) != XG_OK)
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    S->elements += m;
    set->n = first;
    return XG_OK;
}

/* The lists of input i in ascending FIDs; two features of one FID (the
 * regions would read one of them twice) are an error. */
static int sort_lists(struct scan *S, int i, const struct xgo_src *s,
                      char *err, size_t errlen)
{
    size_t total = 0, at = 0, j;
    int64_t *all;
    int k, other;
    for (k = 0; k < S->n; k++)
        for (other = 0; other < 2; other++) {
            struct fidv *l = &LIST(S, k, i, other);
            if (l->n > 1)     /* l->v is NULL while the list is empty */
                qsort(l->v, l->n, sizeof *l->v, xgp__fid_cmp);
        }
    /* the owned lists hold each feature once: a FID twice there is two
     * features */
    for (k = 0; k < S->n; k++)
        total += LIST(S, k, i, 0).n;
    if (!(all = malloc((total ? total : 1) * sizeof *all)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (k = 0; k < S->n; k++) {
        const struct fidv *l = &LIST(S, k, i, 0);
        if (l->n)
            memcpy(all + at, l->v, l->n * sizeof *all);
        at += l->n;
    }
    qsort(all, total, sizeof *all, xgp__fid_cmp);
    for (j = 1; j < total && all[j] != all[j - 1]; j++)
        ;
    if (j < total) {
        int64_t dup = all[j];
        free(all);
        return xgo__fail(err, errlen, XG_EFORMAT, "%s, layer '%s': two "
                         "features have the id (FID) %lld: a run in "
                         "regions names features by their ids; convert the "
                         "layer (ogr2ogr -f GPKG) first", s->path, s->name,
                         (long long)dup);
    }
    free(all);
    return XG_OK;
}

/* The pass over input i (src[i] opened already): the job's input opened
 * again, its features read with the single run's reader into S's lists;
 * the counts into src[i] and rep. */
static int scan_input(const struct xgo_job *job, int i, struct scan *S,
                      struct xgo_src *src, struct xgo_report *rep,
                      struct xgo_bar *bar, char *err, size_t errlen)
{
    struct xgo_input in = i ? job->b : job->a;
    struct xgo_src s;
    struct xg_set set = {0};
    int rc;
    in.copy = XGO_COPY_NONE;  /* rank 0 fetches by FID those it writes */
    in.fields = NULL;
    /* what GDAL says while opening, src[i]'s opening said */
    CPLPushErrorHandler(CPLQuietErrorHandler);
    rc = xgo__src_open(&s, &in, i ? "B" : "A", err, errlen);
    CPLPopErrorHandler();
    if (rc == XG_OK) {
        s.count = src->count;  /* the same layer, filters: counted once */
        s.counted = src->counted;
        S->input = i;
        S->elements = 0;
        s.visit = visit;
        s.visit_arg = S;
        set.elem = job->op->in[i].elem;
        xgo__bar_begin(bar, XGO_BAR_READ_A + i);
        rc = xgo__read(&s, job, i, &set, rep, bar->pf ? xgo__bar_fn : NULL,
                       bar, err, errlen);
        src->nread = s.nread;
        src->nogeom = s.nogeom;
        src->barren = s.barren;
        src->invalid = s.invalid;
    }
    if (rc == XG_OK && S->elements == 0)
        rc = xgo__no_usable(job->op, i, src, 0, err, errlen);
    if (rc == XG_OK)
        rc = sort_lists(S, i, src, err, errlen);
    xg_set_free(&set);
    xgo__src_close(&s);
    return rc;
}

/* Rank r's part of the plan (regions r, r + size, ...): for each, its
 * head then its lists, which are freed. */
static int pack(struct scan *S, int r, int size, void **buf, size_t *len)
{
    size_t bytes = 0;
    char *p;
    int k, i, o;
    for (k = r; k < S->n; k += size) {
        bytes += sizeof(struct xgp_head);
        for (i = 0; i < 4; i++)
            bytes += S->list[4 * (size_t)k + i].n * sizeof(int64_t);
    }
    if (!(*buf = p = malloc(bytes ? bytes : 1)))
        return XG_ENOMEM;
    *len = bytes;
    for (k = r; k < S->n; k += size) {
        struct xgp_head h;
        memset(&h, 0, sizeof h);
        h.region = k;
        for (i = 0; i < 2; i++)
            for (o = 0; o < 2; o++)
                h.n[i][o] = LIST(S, k, i, o).n;
        memcpy(p, &h, sizeof h);
        p += sizeof h;
        for (i = 0; i < 4; i++) {
            struct fidv *l = &S->list[4 * (size_t)k + i];
            if (l->n)
                memcpy(p, l->v, l->n * sizeof *l->v);
            p += l->n * sizeof(int64_t);
            free(l->v);
            memset(l, 0, sizeof *l);
        }
    }
    return XG_OK;
}

int xgp__plan(const struct xgo_job *job, int n, int size,
              struct xgo_src src[2], OGRSpatialReferenceH *srs,
              struct xg_region *regions, struct xgo_report *rep,
              struct xgo_bar *bar, void **parts, size_t *len, char *err,
              size_t errlen)
{
    const struct xg_op *op = job->op;
    double lo[2] = {0, 0}, hi[2] = {0, 0};
    double feat[2] = {-1, -1}, none[2] = {-1, -1};
    struct scan S;
    int rc, k, have = 0;

    memset(&S, 0, sizeof S);
    rc = xgo__open_inputs(job, &src[0], &src[1], srs, err, errlen);
    if (rc)
        return rc;
    /* the extents the drivers know (GeoPackage, Shapefile: from their
     * headers) only balance the regions: the outer ones reach infinity,
     * and each feature goes where its elements are, so that a stale or
     * missing extent loses nothing */
    for (k = 0; k < op->ninputs; k++) {
        have = add_extent(src[k].lyr, lo, hi, have);
        feat[k] = (double)xgo__src_count(&src[k]);
    }
    xgo__bar_estimate(bar, op, feat, none, -1);
    if (xg_regions_plan(lo, hi, n, regions) != XG_OK)
        return xgo__fail(err, errlen, XG_EINVAL, "%s: cannot plan %d "
                         "regions over the extent %.17g %.17g %.17g %.17g",
                         job->a.path, n, lo[0], lo[1], hi[0], hi[1]);
    S.reg = regions;
    S.n = n;
    S.list = calloc(4 * (size_t)n, sizeof *S.list);
    if (!S.list) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    for (k = 0; k < op->ninputs && rc == XG_OK; k++)
        rc = scan_input(job, k, &S, &src[k], rep, bar, err, errlen);
    rep->a_features = src[0].nread;
    rep->b_features = src[1].nread;
    for (k = 0; k < size && rc == XG_OK; k++)
        if (pack(&S, k, size, &parts[k], &len[k]) != XG_OK)
            rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
done:
    if (S.list)
        for (k = 0; k < 4 * n; k++)
            free(S.list[k].v);
    free(S.list);
    return rc;
}
