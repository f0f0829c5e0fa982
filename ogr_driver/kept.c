/*
 * kept.c -- a run's outcome kept as the core's records, each OGR
 * feature made when it is read (see xgo_internal.h, struct xgo_kept).
 *
 * The EXACTGEO driver used to write a run into a MEM dataset and keep
 * its features: an OGRFeature with its geometry is 0.5 to 1 KB where the
 * core's record is 64 bytes (a contact) or 12 (a triangle), so 1.5
 * million points gave 3 million triangles and 2.8 GB.  Kept here are the
 * records, the elements' ids (and delaunay's points, whose coordinates
 * the triangles' rings are), and the attributes to copy, which the
 * reader holds anyway; a feature is made by the writers' own functions
 * (write.c, write_tri.c), so that it is the one the tool writes.
 */
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_multiproc.h>
#include "xgo_internal.h"

struct xgo_kept {
    const struct xg_op *op;
    struct xgo_job job;       /* the job's options (tin), for the open */
    struct xgo_src a, b;      /* datasets closed; the copied attributes
                                 kept (xgo__src_feature_of)            */
    struct xg_set set[2];
    struct xg_contacts c;
    struct xg_triangles t;
    struct xgo_write w;       /* contacts: the writer's view           */
    struct xgo_out out;
    struct xgo_write_tri wt;  /* triangles                             */
    struct xgo_tri_out tout;
    OGRFeatureDefnH defn;     /* referenced                            */
    OGRSpatialReferenceH srs; /* the layer's (defn's); not owned       */
    size_t n;                 /* features                              */
    OGREnvelope env;
    int has_env;
    CPLMutex *lock;           /* one feature made at a time: the copied
                                 attributes are read from shared
                                 features                              */
};

/* Moves *from into *to and clears *from, so that its owner's free does
 * nothing. */
#define MOVE(to, from)                                                     \
    do {                                                                   \
        (to) = *(from);                                                    \
        memset((from), 0, sizeof *(from));                                 \
    } while (0)

static void grow(OGREnvelope *e, int *has, double x, double y)
{
    if (!*has) {
        e->MinX = e->MaxX = x;
        e->MinY = e->MaxY = y;
        *has = 1;
        return;
    }
    e->MinX = x < e->MinX ? x : e->MinX;
    e->MaxX = x > e->MaxX ? x : e->MaxX;
    e->MinY = y < e->MinY ? y : e->MinY;
    e->MaxY = y > e->MaxY ? y : e->MaxY;
}

/* The extent of the geometries the features will have (what OGR's
 * GetExtent of the written layer gives). */
static void extent(struct xgo_kept *k)
{
    size_t i;
    if (k->op->output == XG_OUTPUT_TRIANGLES) {
        for (i = 0; i < k->t.n; i++) {
            int j;
            for (j = 0; j < 3; j++) {
                const double *p = k->set[0].xyz + 3 * (size_t)k->t.v[i][j];
                grow(&k->env, &k->has_env, p[0], p[1]);
            }
        }
        return;
    }
    for (i = 0; i < k->c.n; i++) {
        const struct xg_contact *x = &k->c.v[i];
        grow(&k->env, &k->has_env, x->p[0], x->p[1]);
        if (x->kind == XG_KIND_OVERLAP)
            grow(&k->env, &k->has_env, x->q[0], x->q[1]);
    }
}

/* The layer's definition: the writer's layer made in an empty MEM
 * dataset, then the dataset closed (no dataset outlives the open: GDAL
 * may close them in any order at exit). */
static int make_defn(struct xgo_kept *k, const char *layer_name,
                     OGRSpatialReferenceH srs, char *err, size_t errlen)
{
    GDALDriverH drv = GDALGetDriverByName("Memory");
    GDALDatasetH mem;
    OGRLayerH lyr = NULL;
    int rc;
    if (!drv)
        return xgo__fail(err, errlen, XG_ENOTSUP,
                         "GDAL's Memory driver is not available");
    mem = GDALCreate(drv, layer_name, 0, 0, 0, GDT_Unknown, NULL);
    if (!mem)
        return xgo__fail(err, errlen, XG_EIO, "cannot create a Memory "
                         "dataset: %s", xgo__gdal_msg("driver error"));
    if (k->op->output == XG_OUTPUT_TRIANGLES) {
        k->wt.dst = mem;
        k->wt.srs = srs;
        rc = xgo__tri_open(&k->wt, &k->tout, err, errlen);
        lyr = k->tout.lyr;
    } else {
        k->w.dst = mem;
        k->w.srs = srs;
        rc = xgo__out_open(&k->w, &k->out, layer_name,
                           xgo__contact_type(&k->w, 0), err, errlen);
        lyr = k->out.lyr;
    }
    if (rc == XG_OK) {
        k->defn = OGR_L_GetLayerDefn(lyr);
        OGR_FD_Reference(k->defn);
        if (OGR_FD_GetGeomFieldCount(k->defn) > 0)
            k->srs = OGR_GFld_GetSpatialRef(OGR_FD_GetGeomFieldDefn(k->defn,
                                                                    0));
    }
    GDALClose(mem);
    /* nothing of the dataset, the job or the inputs' layers is used
     * from here on */
    k->wt.dst = k->w.dst = NULL;
    k->wt.srs = k->w.srs = NULL;
    k->wt.job = k->w.job = NULL;
    k->tout.lyr = k->out.lyr = NULL;
    return rc;
}

int xgo__kept_new(struct xgo_kept **out, const struct xgo_job *job,
                  struct xgo_run_made *m, const char *layer_name, char *err,
                  size_t errlen)
{
    struct xgo_kept *k = calloc(1, sizeof *k);
    int rc, i;
    *out = NULL;
    if (!k || !(k->lock = CPLCreateMutex())) {
        free(k);
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    }
    CPLReleaseMutex(k->lock);           /* created held */
    k->op = job->op;
    k->job = *job;
    MOVE(k->a, m->a);
    if (m->b)
        MOVE(k->b, m->b);
    for (i = 0; i < job->op->ninputs; i++)
        MOVE(k->set[i], &m->set[i]);
    if (job->op->output == XG_OUTPUT_TRIANGLES) {
        MOVE(k->t, m->t);
        k->wt = (struct xgo_write_tri){&k->job, NULL, layer_name, NULL,
                                       NULL, &k->set[0], &k->t, m->has_z};
        k->n = job->tin ? 1 : k->t.n;
    } else {
        MOVE(k->c, m->c);
        k->w = (struct xgo_write){&k->job, job->op->dim, NULL, layer_name,
                                  NULL, NULL, &k->a, &k->b, &k->set[0],
                                  k->set[1].fid, k->set[1].sub, &k->c, NULL,
                                  NULL};
        k->n = k->c.n;
    }
    rc = make_defn(k, layer_name, m->srs, err, errlen);
    /* the inputs' datasets go; their copied attributes stay */
    for (i = 0; i < 2; i++) {
        struct xgo_src *s = i ? &k->b : &k->a;
        if (s->ds)
            GDALClose(s->ds);
        s->ds = NULL;
        s->lyr = NULL;
    }
    if (rc != XG_OK) {
        xgo__kept_free(k);
        return rc;
    }
    extent(k);
    /* contacts need the elements' ids only: their coordinates go */
    if (job->op->output == XG_OUTPUT_CONTACTS)
        for (i = 0; i < 2; i++) {
            free(k->set[i].xyz);
            k->set[i].xyz = NULL;
        }
    *out = k;
    return XG_OK;
}

size_t xgo__kept_count(const struct xgo_kept *k)
{
    return k->n;
}

OGRFeatureDefnH xgo__kept_defn(const struct xgo_kept *k)
{
    return k->defn;
}

int xgo__kept_extent(const struct xgo_kept *k, OGREnvelope *env)
{
    if (k->has_env)
        *env = k->env;
    return k->has_env;
}

OGRFeatureH xgo__kept_feature(struct xgo_kept *k, size_t i)
{
    char err[256];
    OGRFeatureH f;
    OGRGeometryH g;
    if (i >= k->n)
        return NULL;
    CPLAcquireMutex(k->lock, 1e9);
    if (k->op->output == XG_OUTPUT_CONTACTS)
        f = xgo__contact_feature(&k->w, &k->out, k->defn, &k->c.v[i], err,
                                 sizeof err);
    else if (k->job.tin)
        f = xgo__tin_feature(&k->wt, k->defn);
    else
        f = xgo__triangle_feature(&k->wt, &k->tout, k->defn, i);
    CPLReleaseMutex(k->lock);
    if (!f) {
        CPLError(CE_Failure, CPLE_AppDefined, "EXACTGEO: feature %zu: %s", i,
                 k->op->output == XG_OUTPUT_CONTACTS ? err
                                                     : "cannot build the TIN");
        return NULL;
    }
    /* as a layer's CreateFeature does: the FID, the layer's CRS */
    OGR_F_SetFID(f, (GIntBig)i);
    g = OGR_F_GetGeometryRef(f);
    if (g && k->srs && !OGR_G_GetSpatialReference(g))
        OGR_G_AssignSpatialReference(g, k->srs);
    return f;
}

void xgo__kept_free(struct xgo_kept *k)
{
    if (!k)
        return;
    xgo__out_free(&k->out);
    if (k->defn)
        OGR_FD_Release(k->defn);
    xg_contacts_free(&k->c);
    xg_triangles_free(&k->t);
    xg_set_free(&k->set[0]);
    xg_set_free(&k->set[1]);
    xgo__src_close(&k->a);
    xgo__src_close(&k->b);
    if (k->lock)
        CPLDestroyMutex(k->lock);
    free(k);
}
