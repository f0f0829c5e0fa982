/*
 * part_read.c -- a region's features, named by FID in rank 0's plan,
 * handed to the single run's reader one by one (xgo_src.next).
 *
 * OGR's spatial filter misses features (huge or non-finite coordinates,
 * stale extents), and fetching each feature by FID (OGR_L_GetFeature) is
 * a query in GeoPackage, about 14 times a sequential read's cost per
 * feature on the 2-core test machine.  So a region reads sequentially,
 * with an attribute filter on the FID that keeps the scan to the ranges
 * its FIDs span (a rowid range in GeoPackage; drivers without such an
 * index test it per feature), and takes the features listed; where they
 * are few in those ranges and the layer reads at random, it fetches each
 * by FID instead.  The filter is only a hint: a listed feature it did not
 * give is then fetched by FID (where the layer reads at random) or picked
 * out of one more pass without it, so that what a region reads never
 * depends on a driver's filters.
 */
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "xgp_internal.h"

/* Most FID ranges in the filter, and the least gap between two listed
 * FIDs worth a range of its own (a query's cost, in features read). */
#define RANGES_MAX 32
#define GAP_MIN 64
/* What fetching one feature by FID costs, in features of a sequential
 * read: about 1 where the layer sets its next feature fast (Shapefile,
 * GeoJSON), 14 in a GeoPackage (a query each, measured on the 2-core
 * test machine), taken for every other driver that reads at random. */
#define GET_COST_FAST 1
#define GET_COST 16

int xgp__fid_cmp(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Index of fid in f's list, or f->n. */
static size_t find(const struct xgp_fetch *f, int64_t fid)
{
    const int64_t *p = bsearch(&fid, f->fid, f->n, sizeof fid, xgp__fid_cmp);
    return p ? (size_t)(p - f->fid) : f->n;
}

/* qsort's ascending order of size_t. */
static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

/* The filter "(col >= a AND col <= b) OR ..." over f's list, cut at
 * its widest gaps (up to RANGES_MAX ranges); allocated (the caller frees
 * it with free()), NULL when out of memory.  *span receives the FIDs the
 * ranges hold, listed or not. */
static char *ranges(const struct xgp_fetch *f, const char *col,
                    uint64_t *span)
{
    size_t cut[RANGES_MAX] = {0}, ncut = 0, i, k, len, at = 0;
    char *where;
#define GAP(c) ((uint64_t)f->fid[c] - (uint64_t)f->fid[(c) - 1])
    /* the widest gaps: positions i (the gap between fid[i - 1] and
     * fid[i]), each replacing the narrowest kept once there are enough */
    for (i = 1; i < f->n; i++) {
        if (GAP(i) < GAP_MIN)
            continue;
        if (ncut == RANGES_MAX - 1) {
            size_t w = 0;
            for (k = 1; k < ncut; k++)
                if (GAP(cut[k]) < GAP(cut[w]))
                    w = k;
            if (GAP(cut[w]) < GAP(i))
                cut[w] = i;
        } else {
            cut[ncut++] = i;
        }
    }
#undef GAP
    qsort(cut, ncut, sizeof *cut, cmp_size);
    /* per range: "(" col " >= " 20 digits " AND " col " <= " 20 " OR " */
    len = (ncut + 1) * (2 * strlen(col) + 80) + 1;
    if (!(where = malloc(len)))
        return NULL;
    *span = 0;
    for (k = 0; k <= ncut; k++) {
        size_t lo = k ? cut[k - 1] : 0, hi = k < ncut ? cut[k] : f->n;
        int w;
        *span += (uint64_t)f->fid[hi - 1] - (uint64_t)f->fid[lo] + 1;
        w = snprintf(where + at, len - at,
                         "%s(\"%s\" >= %lld AND \"%s\" <= %lld)",
                         k ? " OR " : "", col, (long long)f->fid[lo], col,
                         (long long)f->fid[hi - 1]);
        at += w > 0 ? (size_t)w : 0;
    }
    return where;
}

int xgp__fetch_begin(struct xgp_fetch *f, struct xgo_src *s,
                     const int64_t *fid, size_t n)
{
    const char *col = OGR_L_GetFIDColumn(s->lyr);
    char *where, *esc;
    uint64_t span = 0, cost;
    int miss = getenv("EXACTGEO_TEST_FETCH_MISS") != NULL;
    memset(f, 0, sizeof *f);
    f->s = s;
    f->fid = fid;
    f->n = n;
    if (!(f->have = calloc(n ? n : 1, 1)))
        return XG_ENOMEM;
    f->random = OGR_L_TestCapability(s->lyr, OLCRandomRead);
    /* OGR SQL's FID, or the column that holds it in a database */
    esc = CPLEscapeString(col && *col ? col : "FID", -1, CPLES_SQLI);
    where = n ? ranges(f, esc, &span) : NULL;
    /* few features over long ranges: each fetched by FID */
    cost = OGR_L_TestCapability(s->lyr, OLCFastSetNextByIndex)
               ? GET_COST_FAST
               : GET_COST;
    if (where && f->random && !miss && (uint64_t)n * cost < span) {
        free(where);
        where = NULL;
        f->pass = 1;
    }
    /* testing only: a filter that gives none of them, so that every one
     * comes from the second pass */
    if (where && miss)
        snprintf(where, strlen(where) + 1, "\"%s\" < %lld", esc,
                 (long long)fid[0]);
    CPLFree(esc);
    /* a filter the driver refuses, or fails on at the first read, is
     * dropped: the scan is then the whole layer */
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
    if (where && OGR_L_SetAttributeFilter(s->lyr, where) == OGRERR_NONE) {
        OGR_L_ResetReading(s->lyr);
        OGR_F_Destroy(OGR_L_GetNextFeature(s->lyr));
        if (CPLGetLastErrorType() == CE_Failure)
            OGR_L_SetAttributeFilter(s->lyr, NULL);
    } else {
        OGR_L_SetAttributeFilter(s->lyr, NULL);
    }
    CPLErrorReset();
    CPLPopErrorHandler();
    OGR_L_ResetReading(s->lyr);
    free(where);
    return XG_OK;
}

/* The next listed feature of f's layer not taken yet, from the current
 * pass; NULL at its end. */
static OGRFeatureH scan(struct xgp_fetch *f)
{
    OGRFeatureH g;
    while (f->got < f->n && (g = OGR_L_GetNextFeature(f->s->lyr)) != NULL) {
        size_t k = find(f, OGR_F_GetFID(g));
        if (k < f->n && !f->have[k]) {
            f->have[k] = 1;
            f->got++;
            return g;
        }
        OGR_F_Destroy(g);
    }
    return NULL;
}

OGRFeatureH xgp__fetch_next(void *arg, int *rc, char *err, size_t errlen)
{
    struct xgp_fetch *f = arg;
    OGRFeatureH g;
    if (f->pass == 0) {
        if ((g = scan(f)) != NULL)
            return g;
        /* the rest, which the filter did not give */
        f->pass = 1;
        if (f->got < f->n) {
            CPLDebug("EXACTGEO", "%s, layer '%s': %zu of %zu features not "
                     "given by the FID filter: %s", f->s->path, f->s->name,
                     f->n - f->got, f->n,
                     f->random ? "fetched by FID" : "one more pass");
            OGR_L_SetAttributeFilter(f->s->lyr, NULL);
            OGR_L_ResetReading(f->s->lyr);
        }
    }
    if (f->got == f->n)
        return NULL;
    if (f->random) {
        while (f->have[f->at])
            f->at++;
        if ((g = OGR_L_GetFeature(f->s->lyr, f->fid[f->at])) != NULL) {
            f->have[f->at] = 1;
            f->got++;
            return g;
        }
    } else if ((g = scan(f)) != NULL) {
        return g;
    }
    *rc = xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': %zu of the %zu "
                    "features planned for a region not found (did the "
                    "input change during the run?)", f->s->path,
                    f->s->name, f->n - f->got, f->n);
    return NULL;
}

void xgp__fetch_end(struct xgp_fetch *f)
{
    if (f->s)
        OGR_L_SetAttributeFilter(f->s->lyr, NULL);
    free(f->have);
    memset(f, 0, sizeof *f);
}
