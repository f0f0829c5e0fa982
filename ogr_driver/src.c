/*
 * src.c -- opening an input layer, its filter and the attribute store.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "xgo_internal.h"

const char *xgo__gdal_msg(const char *fallback)
{
    const char *m = CPLGetLastErrorMsg();
    return m && *m ? m : fallback;
}

/* Writes "'a', 'b', ..." (the layers of ds, as many as fit; len >= 1)
 * into buf for a message; returns the number of layers. */
static int list_layers(GDALDatasetH ds, char *buf, size_t len)
{
    int i, n = GDALDatasetGetLayerCount(ds);
    size_t used = 0;
    buf[0] = '\0';
    for (i = 0; i < n && used + 4 < len; i++) {
        const char *name = OGR_L_GetName(GDALDatasetGetLayer(ds, i));
        int w = snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "",
                         name);
        if (w < 0)
            break;
        used += (size_t)w < len - used ? (size_t)w : len - used - 1;
    }
    return n;
}

/* Fills s->copy_idx and s->ncopy with the indexes in s's layer of the
 * fields in->copy names (all of them for XGO_COPY_ALL); s->copy_idx is
 * owned by s (xgo__src_close).  XG_OK, XG_ENOMEM, or XG_EINVAL naming
 * the file and layer when a field is not in it or is named twice. */
static int resolve_fields(struct xgo_src *s, const struct xgo_input *in,
                          const char *which, char *err, size_t errlen)
{
    OGRFeatureDefnH defn = OGR_L_GetLayerDefn(s->lyr);
    int i, n = OGR_FD_GetFieldCount(defn);

    if (in->copy == XGO_COPY_NONE)
        return XG_OK;
    if (in->copy == XGO_COPY_ALL) {
        s->copy_idx = malloc((n ? n : 1) * sizeof *s->copy_idx);
        if (!s->copy_idx)
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        for (i = 0; i < n; i++)
            s->copy_idx[i] = i;
        s->ncopy = n;
        return XG_OK;
    }
    for (n = 0; in->fields && in->fields[n]; n++)
        ;
    s->copy_idx = malloc((n ? n : 1) * sizeof *s->copy_idx);
    if (!s->copy_idx)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (i = 0; i < n; i++) {
        int k = OGR_FD_GetFieldIndex(defn, in->fields[i]), j;
        if (k < 0)
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s, layer '%s': no field '%s' to copy (%s)",
                             s->path, s->name, in->fields[i], which);
        for (j = 0; j < i; j++)
            if (s->copy_idx[j] == k)
                return xgo__fail(err, errlen, XG_EINVAL,
                                 "%s, layer '%s': field '%s' named twice",
                                 s->path, s->name, in->fields[i]);
        s->copy_idx[i] = k;
    }
    s->ncopy = n;
    return XG_OK;
}

/* xgo_internal.h */
GIntBig xgo__src_count(struct xgo_src *s)
{
    if (!s->counted) {
        s->count = OGR_L_GetFeatureCount(s->lyr, FALSE);
        s->counted = 1;
    }
    return s->count;
}

int xgo__src_open(struct xgo_src *s, const struct xgo_input *in,
                  const char *which, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->path = in->path;
    if (!in->path || !*in->path)
        return xgo__fail(err, errlen, XG_EINVAL, "no input %s given", which);
    CPLErrorReset();
    s->ds = GDALOpenEx(in->path, GDAL_OF_VECTOR | GDAL_OF_READONLY, NULL,
                       in->open_options, NULL);
    if (!s->ds) {
        struct stat sb;
        if (strncmp(in->path, "/vsi", 4) != 0 && stat(in->path, &sb) != 0)
            return xgo__fail(err, errlen, XG_EIO, "%s: no such file",
                             in->path);
        return xgo__fail(err, errlen, XG_EIO,
                         "%s: cannot open as a vector dataset: %s", in->path,
                         xgo__gdal_msg("format not recognised"));
    }
    if (in->layer) {
        s->lyr = GDALDatasetGetLayerByName(s->ds, in->layer);
        if (!s->lyr) {
            char names[512];
            list_layers(s->ds, names, sizeof names);
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s: no layer '%s' (layers: %s)", in->path,
                             in->layer, names);
        }
    } else {
        char names[512];
        int n = list_layers(s->ds, names, sizeof names);
        if (n == 0)
            return xgo__fail(err, errlen, XG_EINVAL, "%s: has no layer",
                             in->path);
        if (n > 1)
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s: has %d layers (%s); name the %s layer%s%s",
                             in->path, n, names, which,
                             in->layer_opt ? " with " : "",
                             in->layer_opt ? in->layer_opt : "");
        s->lyr = GDALDatasetGetLayer(s->ds, 0);
    }
    snprintf(s->name, sizeof s->name, "%s", OGR_L_GetName(s->lyr));
    /* A layer that reads another dataset (a VRT's CSV) opens it only
     * now, when its definition is asked for: a missing or unreadable
     * source is GDAL's message, which the layer would otherwise hide as
     * a layer without fields or geometry. */
    CPLErrorReset();
    OGR_L_GetLayerDefn(s->lyr);
    if (CPLGetLastErrorType() == CE_Failure || CPLGetLastErrorType() ==
                                                   CE_Fatal)
        return xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot read "
                         "the layer: %s", in->path, s->name,
                         xgo__gdal_msg("driver error"));
    if (in->where && *in->where) {
        s->where = in->where;
        CPLErrorReset();
        if (OGR_L_SetAttributeFilter(s->lyr, in->where) != OGRERR_NONE)
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s, layer '%s': bad filter '%s': %s", in->path,
                             s->name, in->where,
                             xgo__gdal_msg("syntax error"));
        /* some drivers (SQLite-based) check the filter on first read */
        CPLErrorReset();
        OGR_L_ResetReading(s->lyr);
        OGR_F_Destroy(OGR_L_GetNextFeature(s->lyr));
        if (CPLGetLastErrorType() == CE_Failure)
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s, layer '%s': bad filter '%s': %s", in->path,
                             s->name, in->where,
                             xgo__gdal_msg("syntax error"));
        OGR_L_ResetReading(s->lyr);
    }
    if (in->spat_set) {
        const double *r = in->spat;
        if (!(r[0] <= r[2] && r[1] <= r[3]))
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s, layer '%s': bad box %.15g %.15g %.15g "
                             "%.15g (want xmin ymin xmax ymax)", in->path,
                             s->name, r[0], r[1], r[2], r[3]);
        s->spat = in->spat;
        OGR_L_SetSpatialFilterRect(s->lyr, r[0], r[1], r[2], r[3]);
    }
    s->group_idx = -1;
    if (in->group &&
        (s->group_idx = OGR_FD_GetFieldIndex(OGR_L_GetLayerDefn(s->lyr),
                                             in->group)) < 0)
        return xgo__fail(err, errlen, XG_EINVAL, "%s, layer '%s': no field "
                         "'%s' to group the features of %s by", in->path,
                         s->name, in->group, which);
    return resolve_fields(s, in, which, err, errlen);
}

void xgo__src_filters(const struct xgo_src *s, char *buf, size_t len)
{
    int n = 0;
    buf[0] = '\0';
    if (s->where)
        n = snprintf(buf, len, "the filter '%s'", s->where);
    if (n < 0 || (size_t)n >= len)
        return;
    if (s->spat)
        snprintf(buf + n, len - (size_t)n, "%sthe box %.15g %.15g %.15g %.15g",
                 n ? " and " : "", s->spat[0], s->spat[1], s->spat[2],
                 s->spat[3]);
}

void xgo__src_close(struct xgo_src *s)
{
    size_t i;
    if (!s)
        return;
    for (i = 0; i < s->nfeat; i++)
        OGR_F_Destroy(s->feat[i]);
    free(s->feat);
    free(s->first);
    free(s->copy_idx);
    if (s->ds)
        GDALClose(s->ds);
    memset(s, 0, sizeof *s);
}

OGRFeatureH xgo__src_feature_of(const struct xgo_src *s, size_t i)
{
    size_t lo = 0, hi = s->nfeat;
    if (!s->nfeat)
        return NULL;
    /* the last feature whose first element is <= i */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->first[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return s->feat[lo];
}
