/*
 * dstprobe.c -- see dstprobe.h.  Each probe writes in its own folder
 * /vsimem/exactgeo-probe-PID-N/ and removes it.  The output layer is
 * made as the run makes it (xgo__layer_open: CSV gets its WKT column).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gdal.h>
#include <ogr_api.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include "dstprobe.h"
#include "exactgeo.h"
#include "xgo_internal.h"

struct probe {
    char dir[256];             /* its folder in /vsimem/ */
    char path[1024];           /* the dataset in it */
    char why[512];             /* GDAL's reason when it failed */
};

/* A new folder for a dataset named like dst (the standard output's
 * stream: "stdout.EXT", EXT the driver's extension).  0, or -1 when drv
 * cannot write in memory or the name does not fit. */
static int probe_open(struct probe *p, GDALDriverH drv, const char *dst)
{
    static int seq;
    const char *base = CPLGetFilename(dst);
    const char *ext = GDALGetMetadataItem(drv, GDAL_DMD_EXTENSION, NULL);
    char name[512];
    memset(p, 0, sizeof *p);
    if (!GDALGetMetadataItem(drv, GDAL_DCAP_VIRTUALIO, NULL))
        return -1;
    if (*base)
        snprintf(name, sizeof name, "%s", base);
    else
        snprintf(name, sizeof name, "stdout%s%s", ext && *ext ? "." : "",
                 ext ? ext : "");
    snprintf(p->dir, sizeof p->dir, "/vsimem/exactgeo-probe-%ld-%d",
             (long)getpid(), ++seq);
    if (snprintf(p->path, sizeof p->path, "%s/%s", p->dir, name) >=
        (int)sizeof p->path)
        return -1;
    VSIMkdir(p->dir, 0777);
    return 0;
}

/* Writes p->path: a dataset of drv (options dsco) with the layer `layer`
 * of type gt (options lco) holding one feature of geometry g.  0 once
 * written and closed; else -1 with GDAL's reason in p->why. */
static int probe_write(struct probe *p, GDALDriverH drv, const char *layer,
                       OGRwkbGeometryType gt, OGRGeometryH g, char **dsco,
                       char **lco)
{
    GDALDatasetH ds;
    OGRLayerH lyr = NULL;
    OGRFeatureH f;
    int created, rc = 0;
    CPLErrorReset();
    ds = GDALCreate(drv, p->path, 0, 0, 0, GDT_Unknown, dsco);
    if (!ds) {
        snprintf(p->why, sizeof p->why, "%s", xgo__gdal_msg("cannot create"));
        return -1;
    }
    if (xgo__layer_open(ds, layer, NULL, gt, lco, &lyr, &created, p->why,
                        sizeof p->why) != XG_OK) {
        GDALClose(ds);
        return -1;
    }
    CPLErrorReset();
    f = OGR_F_Create(OGR_L_GetLayerDefn(lyr));
    OGR_F_SetGeometry(f, g);
    /* a driver may only warn that it dropped the geometry */
    if (OGR_L_CreateFeature(lyr, f) != OGRERR_NONE ||
        CPLGetLastErrorType() >= CE_Failure) {
        snprintf(p->why, sizeof p->why, "%s",
                 xgo__gdal_msg("cannot write the feature"));
        rc = -1;
    }
    OGR_F_Destroy(f);
    CPLErrorReset();
    GDALClose(ds);
    if (rc == 0 && CPLGetLastErrorType() >= CE_Failure) {
        snprintf(p->why, sizeof p->why, "%s", xgo__gdal_msg("cannot close"));
        rc = -1;
    }
    return rc;
}

/* Removes the probe's /vsimem/ folder and all the probe wrote there;
 * safe to call again (the folder's name is cleared). */
static void probe_close(struct probe *p)
{
    if (p->dir[0])
        VSIRmdirRecursive(p->dir);
    p->dir[0] = '\0';
}

char **dstprobe_files(GDALDriverH drv, const char *dst, const char *layer,
                      char **dsco, char **lco)
{
    struct probe p;
    OGRGeometryH g = NULL;
    char wkt[] = "POINT Z (1 2 3)", *w = wkt;
    char **list, **names = NULL;
    int k;
    if (!drv || probe_open(&p, drv, dst) != 0)
        return NULL;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    OGR_G_CreateFromWkt(&w, NULL, &g);
    probe_write(&p, drv, layer, wkbPoint25D, g, dsco, lco);
    OGR_G_DestroyGeometry(g);
    /* whatever was made, even by a failed write */
    list = VSIReadDirRecursive(p.dir);
    for (k = 0; list && list[k]; k++) {
        char name[1024];
        size_t n;
        snprintf(name, sizeof name, "%s", list[k]);
        n = strlen(name);
        while (n > 0 && name[n - 1] == '/')
            name[--n] = '\0';
        if (n)
            names = CSLAddString(names, name);
    }
    CSLDestroy(list);
    probe_close(&p);
    CPLPopErrorHandler();
    return names;
}

/* The geometry of the only feature of p's dataset read back (its layer
 * `layer`, else its only layer), or NULL; the caller destroys it. */
static OGRGeometryH read_back(const struct probe *p, GDALDriverH drv,
                              const char *layer)
{
    const char *const allowed[] = {GDALGetDriverShortName(drv), NULL};
    GDALDatasetH ds = GDALOpenEx(p->path, GDAL_OF_VECTOR | GDAL_OF_READONLY,
                                 allowed, NULL, NULL);
    OGRGeometryH g = NULL;
    OGRLayerH lyr;
    OGRFeatureH f;
    if (!ds)
        return NULL;
    lyr = GDALDatasetGetLayerByName(ds, layer);
    if (!lyr && GDALDatasetGetLayerCount(ds) == 1)
        lyr = GDALDatasetGetLayer(ds, 0);
    if (lyr && (f = OGR_L_GetNextFeature(lyr)) != NULL) {
        if (OGR_F_GetGeometryRef(f))
            g = OGR_G_Clone(OGR_F_GetGeometryRef(f));
        OGR_F_Destroy(f);
    }
    GDALClose(ds);
    return g;
}

/* Non-zero when a and b have the same ISO WKB. */
static int same_wkb(OGRGeometryH a, OGRGeometryH b)
{
    size_t n = (size_t)OGR_G_WkbSizeEx(a);
    unsigned char *x, *y;
    int same;
    if (n != (size_t)OGR_G_WkbSizeEx(b))
        return 0;
    x = malloc(n);
    y = malloc(n);
    same = x && y && OGR_G_ExportToIsoWkb(a, wkbNDR, x) == OGRERR_NONE &&
           OGR_G_ExportToIsoWkb(b, wkbNDR, y) == OGRERR_NONE &&
           memcmp(x, y, n) == 0;
    free(x);
    free(y);
    return same;
}

int dstprobe_tin(GDALDriverH drv, const char *dst, const char *layer,
                 char **dsco, char **lco, char *err, size_t errlen)
{
    /* two triangles apart: a format that stores a TIN as strips and fans
     * of one surface (Shapefile's MultiPatch) cannot keep them one TIN */
    static const char wkt[2][80] = {
        "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((2 2 1,3 2 1,2 3 1,2 2 1)))",
        "TIN (((0 0,1 0,0 1,0 0)),((2 2,3 2,2 3,2 2)))"};
    int k, rc = 0;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    for (k = 0; k < 2 && rc == 0; k++) {
        struct probe p;
        OGRGeometryH g = NULL, back = NULL;
        char text[80], *w = text;
        if (!drv || probe_open(&p, drv, dst) != 0)
            break;
        memcpy(text, wkt[k], sizeof text);
        OGR_G_CreateFromWkt(&w, NULL, &g);
        if (probe_write(&p, drv, layer, OGR_G_GetGeometryType(g), g, dsco,
                        lco) != 0) {
            snprintf(err, errlen, "--tin: the %s format cannot hold a TIN "
                     "(%s); write GPKG or FlatGeobuf, or leave out --tin",
                     GDALGetDriverShortName(drv), p.why);
            rc = -1;
        } else if (!(back = read_back(&p, drv, layer)) || !same_wkb(g, back)) {
            snprintf(err, errlen, "--tin: the %s format cannot hold a TIN "
                     "(a %s of two triangles came back %s%s); write GPKG or "
                     "FlatGeobuf, or leave out --tin",
                     GDALGetDriverShortName(drv), k == 0 ? "TIN Z" : "TIN",
                     back ? "as " : "without geometry",
                     back ? OGRGeometryTypeToName(OGR_G_GetGeometryType(back))
                          : "");
            rc = -1;
        }
        OGR_G_DestroyGeometry(g);
        OGR_G_DestroyGeometry(back);
        probe_close(&p);
    }
    CPLPopErrorHandler();
    return rc;
}
