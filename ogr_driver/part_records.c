/*
 * part_records.c -- the records of a run in regions: kept, put in the
 * single-process order, and written on rank 0 through ogr_driver's
 * writer, with the copied attributes fetched by FID.
 */
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "xgp_internal.h"

int xgp__recs_push(struct xgp_recs *out, const struct xgp_rec *x)
{
    if (out->n == out->cap) {
        size_t c = out->cap ? 2 * out->cap : 1024;
        struct xgp_rec *v = realloc(out->v, c * sizeof *v);
        if (!v)
            return XG_ENOMEM;
        out->v = v;
        out->cap = c;
    }
    out->v[out->n++] = *x;
    return XG_OK;
}

#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y) ? 1 : 0)

/* A single run orders its contacts by (A element, B element), indices in
 * read order; the record of no B element (b = UINT32_MAX) comes last.
 * Read order is ascending (FID, element) where the driver reads in FID
 * order (GeoPackage, Shapefile), so these keys give the same order.  No
 * two records share all four keys: a pair has one contact. */
static int rec_cmp(const void *x, const void *y)
{
    const struct xgp_rec *a = x, *b = y;
    int c;
    if ((c = CMP(a->afid, b->afid)) || (c = CMP(a->asub, b->asub)))
        return c;
    if ((c = CMP(b->has_b, a->has_b)))
        return c;
    if (!a->has_b)
        return 0;
    if ((c = CMP(a->bfid, b->bfid)))
        return c;
    return CMP(a->bsub, b->bsub);
}

void xgp__recs_sort(struct xgp_rec *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, rec_cmp);
}

/* The attributes of the features the records name, one feature per
 * input fetched at a time (OGR_L_GetFeature), kept while the next
 * record names the same: the records run in A's order, so A's features
 * come once each. */
struct fetch {
    struct xgo_src *src[2];
    const int64_t *fid[2];
    OGRFeatureH have[2];
};

static OGRFeatureH fetch_attrs(void *arg, int which, size_t i, char *err,
                               size_t errlen)
{
    struct fetch *f = arg;
    struct xgo_src *s = f->src[which];
    GIntBig fid = f->fid[which][i];
    if (f->have[which] && OGR_F_GetFID(f->have[which]) == fid)
        return f->have[which];
    OGR_F_Destroy(f->have[which]);
    CPLErrorReset();
    f->have[which] = OGR_L_GetFeature(s->lyr, fid);
    if (!f->have[which])
        xgo__fail(err, errlen, XG_EIO, "%s, layer '%s', feature %lld: "
                  "cannot fetch it to copy its fields: %s", s->path,
                  s->name, (long long)fid,
                  *CPLGetLastErrorMsg() ? CPLGetLastErrorMsg()
                                        : "no such feature");
    return f->have[which];
}

int xgp__write(const struct xgo_job *job, GDALDatasetH dst,
               const char *layer_name, char **lco,
               OGRSpatialReferenceH srs, struct xgo_src src[2],
               const struct xgp_rec *v, size_t n, struct xgo_report *rep,
               GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    struct xg_set aset = {0};
    struct xg_contacts c = {0};
    int64_t *bfid = NULL, *bsub = NULL;
    struct fetch f;
    size_t i;
    int rc = XG_OK, k;
    static const char *const no_geometry[] = {"OGR_GEOMETRY", NULL};

    if (n > UINT32_MAX - 1)
        return xgo__fail(err, errlen, XG_ELIMIT, "%zu contacts: more than "
                         "one output can hold (%u)", n, UINT32_MAX - 1);
    /* the writer takes contacts and element ids: contact i names A
     * element i and B element i, whose ids are record i's */
    aset.fid = malloc((n ? n : 1) * sizeof *aset.fid);
    aset.sub = malloc((n ? n : 1) * sizeof *aset.sub);
    bfid = malloc((n ? n : 1) * sizeof *bfid);
    bsub = malloc((n ? n : 1) * sizeof *bsub);
    c.v = malloc((n ? n : 1) * sizeof *c.v);
    if (!aset.fid || !aset.sub || !bfid || !bsub || !c.v) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < n; i++) {
        struct xg_contact *x = &c.v[i];
        memset(x, 0, sizeof *x);
        aset.fid[i] = v[i].afid;
        aset.sub[i] = v[i].asub;
        bfid[i] = v[i].bfid;
        bsub[i] = v[i].bsub;
        x->a = (uint32_t)i;
        x->b = v[i].has_b ? (uint32_t)i : UINT32_MAX;
        x->kind = v[i].kind;
        memcpy(x->p, v[i].p, sizeof x->p);
        memcpy(x->q, v[i].q, sizeof x->q);
    }
    aset.n = c.n = n;
    memset(&f, 0, sizeof f);
    f.src[0] = &src[0];
    f.src[1] = &src[1];
    f.fid[0] = aset.fid;
    f.fid[1] = bfid;
    /* only attributes are fetched: the drivers need not decode the
     * geometries */
    for (k = 0; k < job->op->ninputs; k++)
        if (src[k].ncopy)
            OGR_L_SetIgnoredFields(src[k].lyr, (const char **)no_geometry);
    {
        struct xgo_write w = {job,  job->op->dim, dst,  layer_name,
                              lco,  srs,          &src[0], &src[1],
                              &aset, bfid,        bsub, &c,
                              fetch_attrs, &f};
        rc = xgo_shape_of(job->op)->write_pairs(&w, rep, pf, pa, err,
                                                errlen);
    }
    OGR_F_Destroy(f.have[0]);
    OGR_F_Destroy(f.have[1]);
done:
    free(aset.fid);
    free(aset.sub);
    free(bfid);
    free(bsub);
    free(c.v);
    return rc;
}
