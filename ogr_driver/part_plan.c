/*
 * part_plan.c -- rank 0's plan of a run in regions: the inputs opened as a
 * single run opens them, fine strips ("bins") over their extents, and one
 * pass over every feature, read as a single run reads it (ogr_driver's
 * reader: its checks, messages and counts), that files each feature's
 * elements in the run's temporary file under the bins they meet.  The
 * regions are then cut from runs of bins holding equal shares of what
 * was filed, so that a dense corner is cut finer than an empty plain;
 * and a region's features come back from the file (xgp__plan_region),
 * never read twice through GDAL.  What OGR's spatial filters cannot see
 * (non-finite or huge coordinates, features outside a layer's stated
 * extent, features without geometry) is read, refused or counted here
 * exactly as in a single run.
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

/* The bins of n regions: 16 per region up to 1024 in all (the
 * regions' balance is a bin's share), one per region past that.
 * Testing only (EXACTGEO_TEST_REGIONS_EVEN): one per region, so that the
 * regions are strips of equal widths whose cuts a fixture can place its
 * results on. */
static int bins_for(int n)
{
    int b = n <= 64 ? 16 * n : 1024;
    if (getenv("EXACTGEO_TEST_REGIONS_EVEN"))
        return n;
    return b > n ? b : n;
}

/* A feature meeting more bins than this is filed once (wide), not once
 * per bin. */
#define WIDE_BINS 4

/* The pass over one input: the bins, the file, and what it filed. */
struct scan {
    struct xgp_plan *pl;
    int input;
    size_t cap;               /* a bin's chunk, bytes                   */
    double *weight;           /* per bin: bytes filed there (narrow)    */
    double *wdiff;            /* per bin + 1: wide bytes, differences   */
    unsigned char *ent;       /* one entry being made                   */
    size_t entcap;
    int64_t last;
    int unordered, any;
    uint64_t elements;        /* elements of the input's features       */
};

/* qsort's order of FIDs (int64_t). */
static int fid_cmp(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* One wide feature's place, appended to pl's list of input i. */
static int wide_push(struct xgp_plan *pl, int i, const struct xgp_wide *w)
{
    if (xg__grow_array((void **)&pl->wide[i], &pl->wcap[i], pl->nwide[i] + 1,
                       sizeof *pl->wide[i]))
        return XG_ENOMEM;
    pl->wide[i][pl->nwide[i]++] = *w;
    return XG_OK;
}

/* The bin that holds x along the bins' axis (xg_regions_owner's bin for
 * a point there): the one its equal widths put it in, moved to where
 * the bins' own bounds say, so that the bounds decide as
 * xg_regions_owner does, in a step or two rather than a search (the
 * plan's hot path: once a feature, 10^8 of them).  x is finite (the
 * reader refuses the others); huge values go to an outer bin. */
static int bin_of(const struct xgp_plan *pl, double x)
{
    const struct xg_region *b = pl->bins;
    int ax = pl->axis, n = pl->nbins, k = 0;
    double t = (x - pl->lo) * pl->scale;
    if (t >= (double)n)
        k = n - 1;
    else if (t > 0)
        k = (int)t;
    while (k > 0 && x < b[k].lo[ax])
        k--;
    while (k < n - 1 && x >= b[k].hi[ax])
        k++;
    return k;
}

/* The bins whose reach meets the box (xmin, ymin, xmax, ymax), *c0 ..
 * *c1: xg_regions_meeting's, from bin_of's bins of the box's ends and
 * the few neighbours whose reach (the bin grown past the rounding of a
 * constructed point) comes to them. */
static void meeting(const struct xgp_plan *pl, const double box[4], int *c0,
                    int *c1)
{
    const struct xg_region *b = pl->bins;
    int ax = pl->axis, lo = bin_of(pl, box[ax]), hi = bin_of(pl, box[2 + ax]);
    double reach[4];
    while (lo > 0) {
        xg_region_reach(&b[lo - 1], reach);
        if (!(reach[2 + ax] >= box[ax]))
            break;
        lo--;
    }
    while (hi < pl->nbins - 1) {
        xg_region_reach(&b[hi + 1], reach);
        if (!(reach[ax] <= box[2 + ax]))
            break;
        hi++;
    }
    *c0 = lo;
    *c1 = hi;
}

/* The reader's visit (xgo_src.visit): the feature's elements (none for
 * a feature that gave none, which no region needs: the reader counted
 * it) filed under each bin whose reach meets their (x, y) box, with the
 * bin that holds their first vertex as owner (one region will own it,
 * so that the regions' sums of its elements are the single run's), then
 * dropped: the plan holds them in the file, not in memory. */
static int visit(void *arg, int64_t fid, struct xg_set *set, size_t first,
                 char *err, size_t errlen)
{
    struct scan *S = arg;
    struct xgp_plan *pl = S->pl;
    size_t d = (size_t)xg_elem_doubles(set->elem), m = set->n - first, j,
           bytes;
    const double *v = set->xyz + d * first;
    struct xgp_ent h;
    unsigned char *p;
    double box[4], share;
    int b, c0, c1, ko, rc;
    if (S->any && fid <= S->last)
        S->unordered = 1;
    S->any = 1;
    S->last = fid;
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
    meeting(pl, box, &c0, &c1);
    ko = bin_of(pl, v[pl->axis]);
    /* the owner's strip holds a vertex of the box, and its reach the
     * strip (xg_region_reach) */
    if (ko < 0 || !(c0 <= ko && ko <= c1))
        return xgo__fail(err, errlen, XG_EINVAL, "feature %lld: no region "
                         "owns it (a bug: the regions do not tile the "
                         "plane)", (long long)fid);
    if (m > XGP_ENT_COUNT)
        return xgo__fail(err, errlen, XG_ELIMIT, "feature %lld: %zu "
                         "elements", (long long)fid, m);
    /* their indices stored only where they are not 0, 1, 2... */
    for (j = 0; j < m && set->sub[first + j] == (int64_t)j; j++)
        ;
    memset(&h, 0, sizeof h);
    h.fid = fid;
    h.m = (uint32_t)m | (j < m ? XGP_ENT_SUBS : 0);
    h.c0 = (uint16_t)c0;
    h.cown = (uint16_t)ko;
    bytes = sizeof h + xgp__ent_body(&h, d);
    if (xg__grow_array((void **)&S->ent, &S->entcap, bytes, 1))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    memcpy(S->ent, &h, sizeof h);
    for (j = 0, p = S->ent + sizeof h; j < m; j++) {
        if (h.m & XGP_ENT_SUBS) {
            memcpy(p, &set->sub[first + j], sizeof(int64_t));
            p += sizeof(int64_t);
        }
        memcpy(p, v + d * j, d * sizeof(double));
        p += d * sizeof(double);
    }
    /* a region loads a feature once, however many of its bins it meets:
     * its bytes are spread over them, so that a large solid does not
     * weigh on every bin it covers as if each held it all */
    share = (double)bytes / (double)(c1 - c0 + 1);
    if (c1 - c0 < WIDE_BINS) {
        for (b = c0; b <= c1; b++) {
            if ((rc = xgp__stream_put(&pl->sp, &pl->narrow[S->input][b],
                                      S->cap, S->ent, bytes, err,
                                      errlen)) != XG_OK)
                return rc;
            S->weight[b] += share;
        }
    } else {
        struct xgp_wide w = {0, bytes, c0, c1};
        if ((rc = xgp__spill_write(&pl->sp, S->ent, bytes, &w.off, err,
                                   errlen)) != XG_OK)
            return rc;
        if (wide_push(pl, S->input, &w) != XG_OK)
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        S->wdiff[c0] += share;
        S->wdiff[c1 + 1] -= share;
    }
    S->elements += m;
    set->n = first;
    return XG_OK;
}

/* Appends to *all (room *cap, *n held) the FIDs of the entries of the
 * len bytes at p that bin b owns (each feature's once).  XG_ENOMEM. */
static int owned_fids(const unsigned char *p, size_t len, int b, size_t d,
                      int64_t **all, size_t *cap, size_t *n)
{
    size_t at = 0;
    while (at + sizeof(struct xgp_ent) <= len) {
        struct xgp_ent h;
        memcpy(&h, p + at, sizeof h);
        if (h.cown == b) {
            if (xg__grow_array((void **)all, cap, *n + 1, sizeof **all))
                return XG_ENOMEM;
            (*all)[(*n)++] = h.fid;
        }
        at += sizeof h + xgp__ent_body(&h, d);
    }
    return XG_OK;
}

/* Two features of one FID (the regions' records name features by their
 * ids) are an error: found as they come where the read ascends
 * (GeoPackage, Shapefile); else from the FIDs filed (input i's, each
 * feature's once: in the bin that owns it), sorted.  A feature without
 * elements is filed nowhere, and names no record. */
static int unique_fids(struct scan *S, const struct xgo_src *s, char *err,
                       size_t errlen)
{
    const struct xgp_plan *pl = S->pl;
    size_t d = (size_t)pl->doubles[S->input], n = 0, cap = 0, tcap = 0, j;
    int64_t *all = NULL;
    unsigned char *tmp = NULL;
    int b, rc = XG_OK;
    if (!S->unordered)
        return XG_OK;
    for (b = 0; b < pl->nbins && rc == XG_OK; b++) {
        const struct xgp_stream *t = &pl->narrow[S->input][b];
        if (!t->bytes)
            continue;
        if (xg__grow_array((void **)&tmp, &tcap, (size_t)t->bytes, 1))
            rc = XG_ENOMEM;
        else if ((rc = xgp__stream_load(&pl->sp, t, tmp, err, errlen)) ==
                 XG_OK)
            rc = owned_fids(tmp, (size_t)t->bytes, b, d, &all, &cap, &n);
    }
    for (j = 0; j < pl->nwide[S->input] && rc == XG_OK; j++) {
        struct xgp_ent h;
        if ((rc = xgp__spill_read(&pl->sp, pl->wide[S->input][j].off, &h,
                                  sizeof h, err, errlen)) == XG_OK &&
            xg__grow_array((void **)&all, &cap, n + 1, sizeof *all))
            rc = XG_ENOMEM;
        if (rc == XG_OK)
            all[n++] = h.fid;
    }
    free(tmp);
    if (rc == XG_ENOMEM)
        xgo__fail(err, errlen, rc, "out of memory");
    if (rc) {
        free(all);
        return rc;
    }
    if (n > 1)
        qsort(all, n, sizeof *all, fid_cmp);
    for (j = 1; j < n && all[j] != all[j - 1]; j++)
        ;
    if (j < n) {
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
 * again, its features read with the single run's reader and filed; the
 * counts into src[i] and rep. */
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
    S->input = i;
    S->elements = 0;
    S->unordered = S->any = 0;
    if (rc == XG_OK) {
        s.count = src->count;  /* the same layer, filters: counted once */
        s.counted = src->counted;
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
        rc = unique_fids(S, src, err, errlen);
    xg_set_free(&set);
    xgo__src_close(&s);
    return rc;
}

/* The n regions cut from runs of pl's bins holding equal shares of the
 * bytes filed (weight per bin, each feature's bytes spread over the bins
 * it meets; the wide features' by differences):
 * pl->first and regions. */
static void cut(struct xgp_plan *pl, int n, const double *weight,
                const double *wdiff, struct xg_region *regions)
{
    double total = 0, run = 0, wide = 0;
    int b, k = 0;
    for (b = 0; b < pl->nbins; b++) {
        wide += wdiff[b];
        total += weight[b] + wide;
    }
    pl->first[0] = 0;
    wide = 0;
    for (b = 0; b < pl->nbins && k < n - 1; b++) {
        wide += wdiff[b];
        run += weight[b] + wide;
        /* region k ends here when it has its share, or when the regions
         * left need every bin left */
        if (run >= total * (double)(k + 1) / (double)n ||
            pl->nbins - 1 - b == n - 1 - k)
            pl->first[++k] = b + 1;
    }
    pl->first[n] = pl->nbins;
    for (k = 0; k < n; k++) {
        const struct xg_region *lo = &pl->bins[pl->first[k]],
                               *hi = &pl->bins[pl->first[k + 1] - 1];
        regions[k].lo[0] = lo->lo[0];
        regions[k].lo[1] = lo->lo[1];
        regions[k].hi[0] = hi->hi[0];
        regions[k].hi[1] = hi->hi[1];
    }
}

void xgp__plan_drop(struct xgp_plan *pl)
{
    int i, b;
    for (i = 0; i < 2; i++) {
        if (pl->narrow[i])
            for (b = 0; b < pl->nbins; b++)
                xgp__stream_free(&pl->narrow[i][b]);
        free(pl->narrow[i]);
        free(pl->wide[i]);
        pl->narrow[i] = NULL;
        pl->wide[i] = NULL;
        pl->nwide[i] = pl->wcap[i] = 0;
    }
}

void xgp__plan_free(struct xgp_plan *pl)
{
    xgp__plan_drop(pl);
    free(pl->bins);
    free(pl->first);
    xgp__spill_close(&pl->sp);
    memset(pl, 0, sizeof *pl);
    pl->sp.fd = -1;
}

int xgp__plan(const struct xgo_job *job, int n, struct xgo_src src[2],
              OGRSpatialReferenceH *srs, struct xg_region *regions,
              struct xgo_report *rep, struct xgo_bar *bar,
              struct xgp_plan *pl, char *err, size_t errlen)
{
    const struct xg_op *op = job->op;
    double lo[2] = {0, 0}, hi[2] = {0, 0};
    double feat[2] = {-1, -1}, none[2] = {-1, -1};
    struct scan S;
    int rc, k, have = 0, nb = bins_for(n);
    size_t cap;

    memset(&S, 0, sizeof S);
    memset(pl, 0, sizeof *pl);
    pl->sp.fd = -1;
    rc = xgo__open_inputs(job, &src[0], &src[1], srs, err, errlen);
    if (rc)
        return rc;
    /* the extents the drivers know (GeoPackage, Shapefile: from their
     * headers) only place the bins: the outer ones reach infinity, and
     * each feature goes where its elements are, so that a stale or
     * missing extent loses nothing */
    for (k = 0; k < op->ninputs; k++) {
        have = add_extent(src[k].lyr, lo, hi, have);
        feat[k] = (double)xgo__src_count(&src[k]);
    }
    xgo__bar_estimate(bar, op, feat, none, -1);
    pl->nbins = nb;
    for (k = 0; k < op->ninputs; k++)
        pl->doubles[k] = xg_elem_doubles(op->in[k].elem);
    if (!(pl->bins = calloc((size_t)nb, sizeof *pl->bins)) ||
        !(pl->first = calloc((size_t)n + 1, sizeof *pl->first)) ||
        !(pl->narrow[0] = calloc((size_t)nb, sizeof *pl->narrow[0])) ||
        !(pl->narrow[1] = calloc((size_t)nb, sizeof *pl->narrow[1])) ||
        !(S.weight = calloc((size_t)nb, sizeof *S.weight)) ||
        !(S.wdiff = calloc((size_t)nb + 1, sizeof *S.wdiff))) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    if (xg_regions_plan(lo, hi, nb, pl->bins) != XG_OK) {
        rc = xgo__fail(err, errlen, XG_EINVAL, "%s: cannot plan %d "
                       "regions over the extent %.17g %.17g %.17g %.17g",
                       job->a.path, n, lo[0], lo[1], hi[0], hi[1]);
        goto done;
    }
    /* the axis xg_regions_plan cut along, and its equal widths: bin_of's
     * first guess */
    pl->axis = hi[1] - lo[1] > hi[0] - lo[0] ? 1 : 0;
    pl->lo = lo[pl->axis];
    pl->scale = hi[pl->axis] > lo[pl->axis]
                    ? (double)nb / (hi[pl->axis] - lo[pl->axis])
                    : 0;
    if (!isfinite(pl->scale))
        pl->scale = 0;
    if ((rc = xgp__spill_open(&pl->sp, job->spill_dir, err, errlen)))
        goto done;
    /* a bin's chunk: 32 MiB of pending bytes in all, 4 KiB to 1 MiB */
    cap = ((size_t)32 << 20) / (2 * (size_t)nb);
    S.cap = cap < 4096 ? 4096 : cap > ((size_t)1 << 20) ? (size_t)1 << 20
                                                         : cap;
    S.pl = pl;
    for (k = 0; k < op->ninputs && rc == XG_OK; k++)
        rc = scan_input(job, k, &S, &src[k], rep, bar, err, errlen);
    rep->a_features = src[0].nread;
    rep->b_features = src[1].nread;
    if (rc == XG_OK) {
        cut(pl, n, S.weight, S.wdiff, regions);
        for (k = 0; k < n; k++)
            CPLDebug("EXACTGEO", "region %d of %d: x %.17g .. %.17g, "
                     "y %.17g .. %.17g (bins %d .. %d of %d)", k, n,
                     regions[k].lo[0], regions[k].hi[0], regions[k].lo[1],
                     regions[k].hi[1], pl->first[k], pl->first[k + 1] - 1,
                     nb);
    }
done:
    free(S.weight);
    free(S.wdiff);
    free(S.ent);
    return rc;
}

/* Appends to out the entries of the n bytes at p that region [b0, b1]
 * takes from bin b: those whose first bin met in the region is b (so
 * each feature once), c0 set to whether the region owns it. */
static int take(const unsigned char *p, size_t n, int b, int b0, int b1,
                size_t d, struct xgp_buf *out)
{
    size_t at = 0;
    while (at + sizeof(struct xgp_ent) <= n) {
        struct xgp_ent h;
        size_t bytes;
        memcpy(&h, p + at, sizeof h);
        bytes = sizeof h + xgp__ent_body(&h, d);
        if ((h.c0 > b0 ? h.c0 : b0) == b) {
            if (xg__grow_array((void **)&out->p, &out->cap, out->len + bytes,
                               1))
                return XG_ENOMEM;
            memcpy(out->p + out->len, p + at, bytes);
            h.c0 = (uint16_t)(b0 <= h.cown && h.cown <= b1);
            memcpy(out->p + out->len, &h, sizeof h);
            out->len += bytes;
        }
        at += bytes;
    }
    return XG_OK;
}

/* n bytes of room in b (its bytes kept); XG_ENOMEM. */
static int room(struct xgp_buf *b, size_t n)
{
    return xg__grow_array((void **)&b->p, &b->cap, n, 1) ? XG_ENOMEM : XG_OK;
}

int xgp__plan_region(const struct xgp_plan *pl, int k, struct xgp_buf *out,
                     struct xgp_buf *tmp, char *err, size_t errlen)
{
    int b0 = pl->first[k], b1 = pl->first[k + 1] - 1, i, b, rc = XG_OK;
    size_t j, most = sizeof(uint64_t);
    uint64_t na = 0;
    /* at most every byte filed in its bins and every wide feature: room
     * for them at once, so that out does not grow entry by entry */
    for (i = 0; i < 2; i++) {
        for (b = b0; b <= b1; b++)
            most += (size_t)pl->narrow[i][b].bytes;
        for (j = 0; j < pl->nwide[i]; j++)
            if (!(pl->wide[i][j].c1 < b0 || pl->wide[i][j].c0 > b1))
                most += (size_t)pl->wide[i][j].len;
    }
    out->len = sizeof na;
    if (room(out, most) != XG_OK)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (i = 0; i < 2 && rc == XG_OK; i++) {
        /* the element kind's doubles: the entries' sizes */
        size_t d = (size_t)pl->doubles[i];
        for (b = b0; b <= b1 && rc == XG_OK; b++) {
            const struct xgp_stream *t = &pl->narrow[i][b];
            if (!t->bytes)
                continue;
            if ((rc = room(tmp, (size_t)t->bytes)) != XG_OK ||
                (rc = xgp__stream_load(&pl->sp, t, tmp->p, err, errlen)))
                break;
            rc = take(tmp->p, (size_t)t->bytes, b, b0, b1, d, out);
        }
        for (j = 0; j < pl->nwide[i] && rc == XG_OK; j++) {
            const struct xgp_wide *w = &pl->wide[i][j];
            if (w->c1 < b0 || w->c0 > b1)
                continue;
            if ((rc = room(tmp, (size_t)w->len)) != XG_OK ||
                (rc = xgp__spill_read(&pl->sp, w->off, tmp->p, (size_t)w->len,
                                      err, errlen)))
                break;
            rc = take(tmp->p, (size_t)w->len, w->c0 > b0 ? w->c0 : b0, b0, b1,
                      d, out);
        }
        if (i == 0)
            na = out->len - sizeof na;
    }
    if (rc == XG_ENOMEM)
        xgo__fail(err, errlen, rc, "out of memory");
    if (rc) {
        out->len = 0;
        return rc;
    }
    memcpy(out->p, &na, sizeof na);
    return XG_OK;
}
