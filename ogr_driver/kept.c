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
    const struct xgo_shape *sh; /* the operation's shape's row          */
    struct xgo_job job;       /* the job's options (tin), for the open */
    struct xgo_src a, b;      /* datasets closed; the copied attributes
                                 kept (xgo__src_feature_of)            */
    struct xg_set set[2];
    struct xgo_run_made m;    /* the run, its records (m.res), pointing
                                 at the members above                  */
    OGRFeatureDefnH defn;     /* referenced                            */
    OGRSpatialReferenceH srs; /* the layer's (defn's); not owned       */
    size_t n;                 /* features                              */
    struct xgo_extent ext;
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

void xgo__extent_add(struct xgo_extent *e, double x, double y)
{
    if (!e->has) {
        e->env.MinX = e->env.MaxX = x;
        e->env.MinY = e->env.MaxY = y;
        e->has = 1;
        return;
    }
    e->env.MinX = x < e->env.MinX ? x : e->env.MinX;
    e->env.MaxX = x > e->env.MaxX ? x : e->env.MaxX;
    e->env.MinY = y < e->env.MinY ? y : e->env.MinY;
    e->env.MaxY = y > e->env.MaxY ? y : e->env.MaxY;
}

/* The layer's definition: the writer's layer made in an empty MEM
 * dataset (the shape's define), then the dataset closed (no dataset
 * outlives the open: GDAL may close them in any order at exit). */
static int make_defn(struct xgo_kept *k, const char *layer_name,
                     char *err, size_t errlen)
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
    rc = k->sh->define(&k->m, mem, layer_name, &lyr, &k->n, err, errlen);
    if (rc == XG_OK) {
        k->defn = OGR_L_GetLayerDefn(lyr);
        OGR_FD_Reference(k->defn);
        if (OGR_FD_GetGeomFieldCount(k->defn) > 0)
            k->srs = OGR_GFld_GetSpatialRef(OGR_FD_GetGeomFieldDefn(k->defn,
                                                                    0));
    }
    GDALClose(mem);
    /* nothing of the dataset or the inputs' layers is used from here
     * on */
    k->m.srs = NULL;
    return rc;
}

/* Takes over what m names into k (each left zeroed), m's pointers
 * turned to k's own copies; m->res is k's from here on. */
static void take(struct xgo_kept *k, const struct xgo_job *job,
                 struct xgo_run_made *m)
{
    int i;
    k->job = *job;
    MOVE(k->a, m->a);
    MOVE(k->b, m->b);
    for (i = 0; i < job->op->ninputs; i++)
        MOVE(k->set[i], &m->set[i]);
    k->m = *m;
    k->m.job = &k->job;
    k->m.a = &k->a;
    k->m.b = &k->b;
    k->m.set = k->set;
    m->res = NULL;
    m->records = NULL;
}

/* xgo_internal.h: m's records kept, rep's written and layer. */
int xgo__kept_new(struct xgo_kept **out, const struct xgo_job *job,
                  struct xgo_run_made *m, const char *layer_name,
                  struct xgo_report *rep, char *err, size_t errlen)
{
    struct xgo_kept *k = calloc(1, sizeof *k);
    int rc, i;
    *out = NULL;
    if (!k || !(k->lock = CPLCreateMutex())) {
        free(k);
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    }
    CPLReleaseMutex(k->lock);           /* created held */
    k->sh = xgo_shape_of(job->op);
    take(k, job, m);
    rc = make_defn(k, layer_name, err, errlen);
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
    k->sh->extent(&k->m, &k->ext);
    /* where the features need the elements' ids only, their
     * coordinates go */
    if (!k->sh->keeps_xyz)
        for (i = 0; i < 2; i++) {
            free(k->set[i].xyz);
            k->set[i].xyz = NULL;
        }
    rep->written = k->n;
    snprintf(rep->layer, sizeof rep->layer, "%s", layer_name);
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
    if (k->ext.has)
        *env = k->ext.env;
    return k->ext.has;
}

OGRFeatureH xgo__kept_feature(struct xgo_kept *k, size_t i)
{
    char err[256];
    OGRFeatureH f;
    OGRGeometryH g;
    if (i >= k->n)
        return NULL;
    CPLAcquireMutex(k->lock, 1e9);
    f = k->sh->feature(&k->m, k->defn, i, err, sizeof err);
    CPLReleaseMutex(k->lock);
    if (!f) {
        CPLError(CE_Failure, CPLE_AppDefined, "EXACTGEO: feature %zu: %s", i,
                 err);
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
    if (k->sh)
        k->sh->free_res(k->m.res);
    if (k->defn)
        OGR_FD_Release(k->defn);
    xg_set_free(&k->set[0]);
    xg_set_free(&k->set[1]);
    xgo__src_close(&k->a);
    xgo__src_close(&k->b);
    if (k->lock)
        CPLDestroyMutex(k->lock);
    free(k);
}
