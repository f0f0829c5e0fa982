/*
 * read_lines.c -- segments (XG_ELEM_SEGMENT).  segtri's A: LineString /
 * MultiLineString with Z; each consecutive vertex pair is a segment,
 * numbered over the parts in order (zero-length ones included: the core
 * skips and counts them).  redblue: lines and polygon rings in the plane
 * (z set to 0), each ring closed.
 */
#include <string.h>
#include "xgo_read.h"

/* Segments of a curve; close it when `ring` and not closed already. */
static int line_segs(struct xgo_reader *r, OGRGeometryH g, int ring)
{
    size_t n, i;
    int rc = xgo__read_vertices(r, g, &n);
    if (rc)
        return rc;
    if (ring && n > 1 && memcmp(r->buf, r->buf + 3 * (n - 1),
                                3 * sizeof(double)) != 0) {
        memcpy(r->buf + 3 * n, r->buf, 3 * sizeof(double));
        n++;
    }
    for (i = 0; i + 1 < n; i++)
        if (xg_set_push_segment(r->set, r->buf + 3 * i, r->buf + 3 * i + 3,
                                r->fid, r->sub++))
            return FAIL(r, XG_ELIMIT, "%s: too many segments (limit %u)",
                        r->s->path, (unsigned)UINT32_MAX);
    return XG_OK;
}

/* Segments of a LineString or MultiLineString with Z (xgo_geom_fn). */
int xgo__read_segs3d(struct xgo_reader *r, OGRGeometryH g)
{
    static const char expected[] = "LineString or MultiLineString with Z";
    int rc = xgo__read_need_z(r, g), i, n;
    if (rc)
        return rc;
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbLineString:
        return line_segs(r, g, 0);
    case wkbMultiLineString:
        n = OGR_G_GetGeometryCount(g);
        for (i = 0; i < n && !rc; i++)
            rc = line_segs(r, OGR_G_GetGeometryRef(g, i), 0);
        return rc;
    default:
        return xgo__read_wrong_type(r, g, expected);
    }
}

/* Segments of lines and polygon rings in the plane, each ring closed,
 * through the parts of collections (xgo_geom_fn). */
int xgo__read_segs2d(struct xgo_reader *r, OGRGeometryH g)
{
    int rc = XG_OK, i, n = OGR_G_GetGeometryCount(g);
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbLineString:
        return line_segs(r, g, 0);
    case wkbPolygon:
    case wkbTriangle:
        for (i = 0; i < n && !rc; i++)
            rc = line_segs(r, OGR_G_GetGeometryRef(g, i), 1);
        return rc;
    case wkbMultiLineString:
    case wkbMultiPolygon:
    case wkbTIN:
    case wkbPolyhedralSurface:
        for (i = 0; i < n && !rc; i++)
            rc = xgo__read_segs2d(r, OGR_G_GetGeometryRef(g, i));
        return rc;
    default:
        return xgo__read_wrong_type(r, g, "a line or polygon geometry");
    }
}
