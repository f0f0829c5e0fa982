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
