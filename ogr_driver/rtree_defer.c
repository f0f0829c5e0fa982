/*
 * rtree_defer.c -- which GeoPackage layers of a run get exactgeo's
 * spatial index after the file is closed, and building them then
 * (gpkg_rtree.h says the sequence).
 *
 * The layers are remembered per dataset handle in a list under a lock:
 * the writers that create a layer (xgo__layer_open) know the dataset but
 * not the job, and the close (xgo__close_dst) knows the dataset only.
 * The list holds a handful of entries at most (one per open output).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_string.h>
#include <ogr_api.h>
#include "xgo_internal.h"
#include "gpkg_rtree.h"
#include "gpkg_direct.h"

/* A layer remembered: created by this run without GDAL's index. */
struct layer {
    char *name;
    int index;                /* 0: -lco SPATIAL_INDEX=NO, no index     */
    int direct;               /* written by gpkg_direct.c: what follows */
    int64_t n;                /* rows written                           */
    int has_ext;
    double ext[4];            /* minx, miny, maxx, maxy                 */
    struct xgo_gpkg_boxes boxes;
};

/* The layers remembered for one marked dataset. */
struct xgo_rtree_todo {
    GDALDatasetH dst;
    char *path;               /* dst's file, taken before its close     */
    struct layer *layers;
    int nlayers;
    struct xgo_rtree_todo *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct xgo_rtree_todo *marked;

/* The entry of dst in the list, or NULL; lock held. */
static struct xgo_rtree_todo *find(GDALDatasetH dst)
{
    struct xgo_rtree_todo *t;
    for (t = marked; t && t->dst != dst; t = t->next)
        ;
    return t;
}

/* gpkg_rtree.h */
void xgo__rtree_defer_on(GDALDatasetH dst)
{
    GDALDriverH drv = dst ? GDALGetDatasetDriver(dst) : NULL;
    struct xgo_rtree_todo *t;
    /* GeoPackage files only: SQLite opens the file itself after GDAL's
     * close, which a /vsi path (memory, archives, streams) is not;
     * every other format is left to GDAL */
    if (!drv || !EQUAL(GDALGetDriverShortName(drv), "GPKG") ||
        STARTS_WITH_CI(GDALGetDescription(dst), "/vsi"))
        return;
    pthread_mutex_lock(&lock);
    if (!find(dst) && (t = calloc(1, sizeof *t)) != NULL) {
        t->dst = dst;
        t->next = marked;
        marked = t;
    }
    pthread_mutex_unlock(&lock);
}

/* The entry of layer name in t, or NULL; lock held. */
static struct layer *find_layer(struct xgo_rtree_todo *t, const char *name)
{
    int i;
    for (i = 0; t && i < t->nlayers; i++)
        if (!strcmp(t->layers[i].name, name))
            return &t->layers[i];
    return NULL;
}

/* gpkg_rtree.h */
int xgo__rtree_deferred(GDALDatasetH dst)
{
    int on;
    pthread_mutex_lock(&lock);
    on = find(dst) != NULL;
    pthread_mutex_unlock(&lock);
    return on;
}

/* gpkg_rtree.h */
char **xgo__rtree_layer_lco(GDALDatasetH dst, const char *name, char **lco)
{
    char **out = CSLDuplicate(lco);
    const char *si = CSLFetchNameValue(lco, "SPATIAL_INDEX");
    struct xgo_rtree_todo *t;
    /* SPATIAL_INDEX=YES: the user's choice, GDAL's index (and GDAL's
     * writes: its index triggers need its SQL functions); NO: no index,
     * the layer remembered for the direct writer all the same */
    if (si && CPLTestBool(si))
        return out;
    pthread_mutex_lock(&lock);
    if ((t = find(dst)) != NULL && !find_layer(t, name)) {
        struct layer *l = realloc(t->layers,
                                  (size_t)(t->nlayers + 1) * sizeof *l);
        if (l) {
            t->layers = l;
            l += t->nlayers++;
            memset(l, 0, sizeof *l);
            l->name = CPLStrdup(name);
            l->index = si == NULL;
            if (!si)
                out = CSLSetNameValue(out, "SPATIAL_INDEX", "NO");
        }
    }
    pthread_mutex_unlock(&lock);
    return out;
}

/* gpkg_rtree.h */
int xgo__rtree_remembered(GDALDatasetH dst, const char *name)
{
    const struct layer *l;
    int yes;
    pthread_mutex_lock(&lock);
    l = find_layer(find(dst), name);
    yes = !l ? 0 : l->index ? 2 : 1;
    pthread_mutex_unlock(&lock);
    return yes;
}

/* gpkg_rtree.h */
void xgo__rtree_direct_done(GDALDatasetH dst, const char *name, int64_t n,
                            int has_ext, const double ext[4],
                            struct xgo_gpkg_boxes *boxes)
{
    struct layer *l;
    pthread_mutex_lock(&lock);
    if ((l = find_layer(find(dst), name)) != NULL) {
        l->direct = 1;
        l->n = n;
        l->has_ext = has_ext;
        memcpy(l->ext, ext, sizeof l->ext);
        xgo__gpkg_boxes_free(&l->boxes);
        l->boxes = *boxes;
        memset(boxes, 0, sizeof *boxes);
    }
    pthread_mutex_unlock(&lock);
}

/* gpkg_rtree.h */
struct xgo_rtree_todo *xgo__rtree_take(GDALDatasetH dst)
{
    struct xgo_rtree_todo **p, *t = NULL;
    pthread_mutex_lock(&lock);
    for (p = &marked; *p; p = &(*p)->next)
        if ((*p)->dst == dst) {
            t = *p;
            *p = t->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (t)
        t->path = CPLStrdup(GDALGetDescription(dst));
    return t;
}

/* GDAL's own index of layer name of the closed GeoPackage path (the
 * fallback: slower, always right), unless it has one already.  XG_OK, or
 * XG_EIO naming the file and layer. */
static int gdal_index(const char *path, const char *name, char *err,
                      size_t errlen)
{
    GDALDatasetH ds;
    OGRLayerH lyr, res;
    char *sql, *tq, *gq;
    int has = 0, failed;
    CPLErrorReset();
    ds = GDALOpenEx(path, GDAL_OF_VECTOR | GDAL_OF_UPDATE, NULL, NULL, NULL);
    lyr = ds ? GDALDatasetGetLayerByName(ds, name) : NULL;
    if (!lyr) {
        if (ds)
            GDALClose(ds);
        return xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot build "
                         "the spatial index: %s", path, name,
                         xgo__gdal_msg("cannot reopen the layer"));
    }
    /* the names as SQL string literals: a quote in a layer name (-nln)
     * doubled */
    tq = CPLEscapeString(OGR_L_GetName(lyr), -1, CPLES_SQL);
    gq = CPLEscapeString(OGR_L_GetGeometryColumn(lyr), -1, CPLES_SQL);
    sql = CPLStrdup(CPLSPrintf("SELECT HasSpatialIndex('%s', '%s')", tq, gq));
    res = GDALDatasetExecuteSQL(ds, sql, NULL, NULL);
    if (res) {
        OGRFeatureH f = OGR_L_GetNextFeature(res);
        has = f && OGR_F_GetFieldAsInteger(f, 0) == 1;
        OGR_F_Destroy(f);
        GDALDatasetReleaseResultSet(ds, res);
    }
    CPLFree(sql);
    CPLErrorReset();
    if (!has) {
        sql = CPLStrdup(CPLSPrintf("SELECT CreateSpatialIndex('%s', '%s')",
                                   tq, gq));
        res = GDALDatasetExecuteSQL(ds, sql, NULL, NULL);
        if (res)
            GDALDatasetReleaseResultSet(ds, res);
        CPLFree(sql);
    }
    CPLFree(tq);
    CPLFree(gq);
    failed = CPLGetLastErrorType() == CE_Failure;
    GDALClose(ds);
    failed = failed || CPLGetLastErrorType() == CE_Failure;
    if (failed)
        return xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot build "
                         "the spatial index: %s", path, name,
                         xgo__gdal_msg("GDAL failed"));
    return XG_OK;
}

/* gpkg_rtree.h */
int xgo__rtree_finish(struct xgo_rtree_todo *t, int rc, GDALProgressFunc pf,
                      void *pa, char *err, size_t errlen)
{
    int i, n;
    if (!t)
        return rc;
    n = t->nlayers;
    for (i = 0; i < n && rc == XG_OK; i++) {
        struct layer *l = &t->layers[i];
        void *sp;
        /* GDAL's close wrote the count and extent it knew (no rows of
         * the direct writer's): the truth first */
        if (l->direct)
            rc = xgo__gpkg_direct_fixup(t->path, l->name, l->n, l->has_ext,
                                        l->ext, err, errlen);
        if (rc != XG_OK || !l->index)
            continue;
        sp = pf ? GDALCreateScaledProgress((double)i / n, (double)(i + 1) / n,
                                           pf, pa)
                : NULL;
        rc = xgo__gpkg_rtree_build(t->path, l->name,
                                   l->direct ? &l->boxes : NULL,
                                   sp ? GDALScaledProgress : NULL, sp, err,
                                   errlen);
        if (rc == XG_ENOTSUP) {
            CPLDebug("EXACTGEO", "%s, layer '%s': not bulk-loadable, "
                     "indexed by GDAL", t->path, l->name);
            rc = gdal_index(t->path, l->name, err, errlen);
        }
        if (sp)
            GDALDestroyScaledProgress(sp);
    }
    for (i = 0; i < n; i++) {
        CPLFree(t->layers[i].name);
        xgo__gpkg_boxes_free(&t->layers[i].boxes);
    }
    CPLFree(t->path);
    free(t->layers);
    free(t);
    return rc;
}
