/*
 * ogrdump.c -- prints a vector dataset so that two can be compared
 * exactly: per layer its name, geometry type and fields, then one line
 * per feature with every field as text and every coordinate in C's %a
 * (hexadecimal, so no rounding hides a difference).  FIDs are left out:
 * formats number features differently.
 *
 *   ogrdump DATASET [LAYER ...]     (all layers when none named)
 */
#include <stdio.h>
#include <gdal.h>
#include <ogr_api.h>

static void dump_geom(OGRGeometryH g)
{
    int i, n;
    if (!g) {
        printf(" NULL");
        return;
    }
    printf(" %s(", OGRGeometryTypeToName(OGR_G_GetGeometryType(g)));
    n = OGR_G_GetGeometryCount(g);
    if (n > 0) {
        for (i = 0; i < n; i++)
            dump_geom(OGR_G_GetGeometryRef(g, i));
    } else {
        n = OGR_G_GetPointCount(g);
        for (i = 0; i < n; i++) {
            double x, y, z;
            OGR_G_GetPoint(g, i, &x, &y, &z);
            if (OGR_G_Is3D(g))
                printf(" %a %a %a", x, y, z);
            else
                printf(" %a %a", x, y);
        }
    }
    printf(" )");
}

static void dump_layer(OGRLayerH lyr)
{
    OGRFeatureDefnH fd = OGR_L_GetLayerDefn(lyr);
    OGRFeatureH f;
    int i, n = OGR_FD_GetFieldCount(fd);
    printf("layer %s %s\n", OGR_L_GetName(lyr),
           OGRGeometryTypeToName(OGR_L_GetGeomType(lyr)));
    for (i = 0; i < n; i++) {
        OGRFieldDefnH d = OGR_FD_GetFieldDefn(fd, i);
        printf("field %s %s\n", OGR_Fld_GetNameRef(d),
               OGR_GetFieldTypeName(OGR_Fld_GetType(d)));
    }
    OGR_L_ResetReading(lyr);
    while ((f = OGR_L_GetNextFeature(lyr)) != NULL) {
        printf("feature");
        for (i = 0; i < n; i++)
            printf(" %s=%s", OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(fd, i)),
                   OGR_F_IsFieldSetAndNotNull(f, i)
                       ? OGR_F_GetFieldAsString(f, i) : "NULL");
        printf(" |");
        dump_geom(OGR_F_GetGeometryRef(f));
        printf("\n");
        OGR_F_Destroy(f);
    }
}

int main(int argc, char **argv)
{
    GDALDatasetH ds;
    int i, rc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: ogrdump DATASET [LAYER ...]\n");
        return 2;
    }
    GDALAllRegister();
    ds = GDALOpenEx(argv[1], GDAL_OF_VECTOR | GDAL_OF_VERBOSE_ERROR, NULL,
                    NULL, NULL);
    if (!ds)
        return 1;
    if (argc == 2) {
        for (i = 0; i < GDALDatasetGetLayerCount(ds); i++)
            dump_layer(GDALDatasetGetLayer(ds, i));
    }
    for (i = 2; i < argc; i++) {
        OGRLayerH lyr = GDALDatasetGetLayerByName(ds, argv[i]);
        if (!lyr) {
            fprintf(stderr, "ogrdump: %s: no layer '%s'\n", argv[1], argv[i]);
            rc = 1;
            continue;
        }
        dump_layer(lyr);
    }
    GDALClose(ds);
    return rc;
}
