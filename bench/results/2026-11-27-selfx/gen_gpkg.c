/*
 * gen_gpkg.c -- bench_inside's data as GeoPackages, for inside's run
 * through files (run.sh): case CASE's solids (bench/gen_inside.h, seed 7
 * as in bench_inside: (a) 8 solids of 102,400 triangles in all, (b) 16
 * of 991,232), one TIN Z feature per solid (field body_id), and N of its
 * block centroids (gi_point: the lattice over the solids' box, 2% on
 * their vertices, edges and faces), one PointZ feature each, in EPSG:32634.
 * The points' layer has no spatial index (the tool reads it whole).
 *
 *   gen_gpkg a|b N POINTS.gpkg SOLIDS.gpkg
 *   cc -O2 -Ibench gen_gpkg.c $(gdal-config --cflags) -lgdal -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include "gen_inside.h"

static void die(const char *what)
{
    fprintf(stderr, "gen_gpkg: %s: %s\n", what, CPLGetLastErrorMsg());
    exit(2);
}

static GDALDatasetH create(const char *path)
{
    GDALDriverH drv = GDALGetDriverByName("GPKG");
    GDALDatasetH ds;
    if (!drv)
        die("no GPKG driver");
    VSIUnlink(path);
    ds = GDALCreate(drv, path, 0, 0, 0, GDT_Unknown, NULL);
    if (!ds)
        die(path);
    return ds;
}

/* WKB of one TIN Z: the triangles of solid fid, in the model's order. */
static unsigned char *tin_wkb(const struct gi_model *m, int64_t fid,
                              size_t *len)
{
    size_t i, n = 0, at = 0;
    unsigned char *w;
    uint32_t u;
    for (i = 0; i < m->ntri; i++)
        n += m->fid[i] == fid;
    *len = 9 + n * (13 + 4 * 24);
    if (!(w = malloc(*len)))
        die("out of memory");
#define PUT(p, k) (memcpy(w + at, (p), (k)), at += (k))
    w[at++] = 1;
    u = 1016;                   /* ISO TIN Z */
    PUT(&u, 4);
    u = (uint32_t)n;
    PUT(&u, 4);
    for (i = 0; i < m->ntri; i++) {
        const double *t = m->tri + 9 * i;
        if (m->fid[i] != fid)
            continue;
        w[at++] = 1;
        u = 1017;               /* ISO Triangle Z */
        PUT(&u, 4);
        u = 1;
        PUT(&u, 4);
        u = 4;
        PUT(&u, 4);
        PUT(t, 72);
        PUT(t, 24);
    }
#undef PUT
    return w;
}

int main(int argc, char **argv)
{
    struct gi_model m;
    int K;
    size_t ntri;
    uint64_t n, i;
    GDALDatasetH ds;
    OGRLayerH lay;
    OGRFeatureH f;
    OGRGeometryH g;
    OGRSpatialReferenceH srs;
    OGRFieldDefnH fd;
    char **lco = NULL;
    int64_t s;
    if (argc != 5 || (strcmp(argv[1], "a") && strcmp(argv[1], "b")) ||
        (n = strtoull(argv[2], NULL, 10)) == 0) {
        fprintf(stderr, "usage: gen_gpkg a|b N POINTS.gpkg SOLIDS.gpkg\n");
        return 2;
    }
    K = argv[1][0] == 'a' ? 8 : 16;
    ntri = argv[1][0] == 'a' ? 100000 : 1000000;
    if (gi_model_make(&m, K, ntri, 7))
        die("out of memory");
    GDALAllRegister();
    srs = OSRNewSpatialReference(NULL);
    if (OSRImportFromEPSG(srs, 32634) != OGRERR_NONE)
        die("EPSG:32634");
    OSRSetAxisMappingStrategy(srs, OAMS_TRADITIONAL_GIS_ORDER);

    /* the solids */
    ds = create(argv[4]);
    if (!(lay = GDALDatasetCreateLayer(ds, "solids", srs, wkbTINZ, NULL)))
        die("solids layer");
    fd = OGR_Fld_Create("body_id", OFTInteger);
    OGR_L_CreateField(lay, fd, TRUE);
    OGR_Fld_Destroy(fd);
    f = OGR_F_Create(OGR_L_GetLayerDefn(lay));
    for (s = 1; s <= K; s++) {
        size_t len;
        unsigned char *w = tin_wkb(&m, s, &len);
        if (OGR_G_CreateFromWkbEx(w, NULL, &g, len) != OGRERR_NONE)
            die("TIN WKB");
        free(w);
        OGR_F_SetFID(f, OGRNullFID);
        OGR_F_SetFieldInteger(f, 0, (int)s);
        OGR_F_SetGeometryDirectly(f, g);
        if (OGR_L_CreateFeature(lay, f) != OGRERR_NONE)
            die("solid");
    }
    OGR_F_Destroy(f);
    GDALClose(ds);

    /* the points */
    ds = create(argv[3]);
    lco = CSLSetNameValue(lco, "SPATIAL_INDEX", "NO");
    if (!(lay = GDALDatasetCreateLayer(ds, "blocks", srs, wkbPoint25D, lco)))
        die("points layer");
    CSLDestroy(lco);
    if (GDALDatasetStartTransaction(ds, FALSE) != OGRERR_NONE)
        die("transaction");
    f = OGR_F_Create(OGR_L_GetLayerDefn(lay));
    g = OGR_G_CreateGeometry(wkbPoint25D);
    for (i = 0; i < n; i++) {
        double p[3];
        gi_point(&m, n, 20, i, p);
        OGR_G_SetPoint(g, 0, p[0], p[1], p[2]);
        OGR_F_SetFID(f, OGRNullFID);
        OGR_F_SetGeometry(f, g);
        if (OGR_L_CreateFeature(lay, f) != OGRERR_NONE)
            die("point");
    }
    OGR_G_DestroyGeometry(g);
    OGR_F_Destroy(f);
    if (GDALDatasetCommitTransaction(ds) != OGRERR_NONE)
        die("commit");
    GDALClose(ds);
    printf("gen_gpkg: case (%s): %d solids, %zu triangles -> %s; %llu "
           "points -> %s\n", argv[1], K, m.ntri, argv[4],
           (unsigned long long)n, argv[3]);
    OSRDestroySpatialReference(srs);
    gi_model_free(&m);
    return 0;
}
