/*
 * srs.c -- both inputs must be in one CRS: exactgeo never reprojects
 * (a reprojected coordinate is rounded, and the answer would no longer be
 * exact for the data the user has).
 */
#include <stdio.h>
#include <cpl_string.h>
#include "xgo_internal.h"

/* The CRS srs for a message, into buf: "EPSG:2056 (CH1903+ / LV95)" when
 * it has an authority code, else its quoted name. */
static void describe(OGRSpatialReferenceH srs, char *buf, size_t len)
{
    const char *auth = OSRGetAuthorityName(srs, NULL);
    const char *code = OSRGetAuthorityCode(srs, NULL);
    const char *name = OSRGetName(srs);
    if (auth && code)
        snprintf(buf, len, "%s:%s (%s)", auth, code, name ? name : "?");
    else
        snprintf(buf, len, "'%s'", name ? name : "unnamed CRS");
}

/* The layer's CRS; NULL also for the GeoPackage's "undefined" ones
 * (srs_id 0 and -1), which say "no CRS". */
OGRSpatialReferenceH xgo__layer_srs(OGRLayerH lyr)
{
    OGRSpatialReferenceH srs = OGR_L_GetSpatialRef(lyr);
    const char *name = srs ? OSRGetName(srs) : NULL;
    if (name && (EQUAL(name, "Undefined geographic SRS") ||
                 EQUAL(name, "Undefined Cartesian SRS")))
        return NULL;
    return srs;
}

int xgo__srs_check(const struct xgo_src *a, const struct xgo_src *b,
                   OGRSpatialReferenceH *srs, char *err, size_t errlen)
{
    OGRSpatialReferenceH sa = xgo__layer_srs(a->lyr);
    OGRSpatialReferenceH sb = xgo__layer_srs(b->lyr);
    char da[256] = "no CRS", db[256] = "no CRS";

    *srs = sa;
    if (!sa && !sb)
        return XG_OK;
    if (sa && sb && OSRIsSame(sa, sb))
        return XG_OK;
    if (sa)
        describe(sa, da, sizeof da);
    if (sb)
        describe(sb, db, sizeof db);
    return xgo__fail(err, errlen, XG_EINVAL,
                     "CRS mismatch: %s, layer '%s' has %s but %s, layer '%s' "
                     "has %s; reproject or assign one first (ogr2ogr -t_srs "
                     "or -a_srs)", a->path, a->name, da, b->path, b->name, db);
}
