/*
 * read_lines.c -- segments (XG_ELEM_SEGMENT).  segtri's A: LineString /
 * MultiLineString with Z; each consecutive vertex pair is a segment,
 * numbered over the parts in order (zero-length ones included: the core
 * skips and counts them).  redblue: lines and polygon rings in the plane
 * (z set to 0), each ring closed.
 */
#include <string.h>
#include "xgo_read.h"

/* Segments of the n vertices of a curve in r->buf; close it when `ring`
 * and not closed already.  Both routes' one way in. */
static int buf_segs(struct xgo_reader *r, size_t n, int ring)
{
    size_t i;
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

/* Segments of a curve; close it when `ring` and not closed already. */
static int line_segs(struct xgo_reader *r, OGRGeometryH g, int ring)
{
    size_t n;
    int rc = xgo__read_vertices(r, g, &n);
    return rc ? rc : buf_segs(r, n, ring);
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

/* The segments of blob w (len bytes) where it is a plain case of `ok`
 * (a LineString, or a collection of the parts its type holds), every
 * curve of two vertices or more: as xgo__read_segs3d and
 * xgo__read_segs2d read them (rings closed); else *taken = 0 and r->set
 * as it was.  need_z: 3D, Z required. */
static int segs_wkb(struct xgo_reader *r, const unsigned char *w,
                    size_t len, int need_z, int *taken)
{
    struct xgo_wkb_shape *sh = &r->wkb;
    size_t i, j, n;
    uint32_t want;
    int rc;
    *taken = 0;
    if ((rc = xgo__wkb_shape(sh, w, len, need_z ? 3 : 2)) <= 0)
        return rc < 0 ? FAIL(r, XG_ENOMEM, "out of memory") : XG_OK;
    if (need_z && !sh->z)
        return XG_OK;
    switch (sh->type) {
    case 2: case 3: case 17: want = sh->type; break;   /* one part */
    case 5: want = 2; break;           /* MultiLineString: LineStrings */
    case 6: case 15: want = 3; break;  /* MultiPolygon, PolyhedralSurface */
    case 16: want = 17; break;         /* TIN: Triangles */
    default: return XG_OK;
    }
    if (need_z && want != 2)
        return XG_OK;                  /* segs3d: lines only */
    for (i = 0; i < sh->npart; i++)
        if (sh->part[i].type != want)
            return XG_OK;
    for (i = 0; i < sh->ncurve; i++)
        if (sh->curve[i].n < 2)        /* OGR's to read: perhaps no segment */
            return XG_OK;
    for (i = 0; i < sh->npart; i++)
        for (j = 0; j < sh->part[i].n; j++) {
            const struct xgo_wkb_curve *cv = sh->curve + sh->part[i].first + j;
            if ((rc = xgo__wkb_vertices(r, sh, cv, &n)) ||
                (rc = buf_segs(r, n, want != 2)))
                return rc;
        }
    *taken = 1;
    return XG_OK;
}

/* Segments of a LineString or MultiLineString with Z, on WKB
 * (xgo_wkb_fn): as xgo__read_segs3d, the plain cases only. */
int xgo__read_segs3d_wkb(struct xgo_reader *r, const unsigned char *w,
                         size_t len, int *taken)
{
    return segs_wkb(r, w, len, 1, taken);
}

/* Segments of lines and polygon rings in the plane, on WKB (xgo_wkb_fn):
 * as xgo__read_segs2d, the plain cases only. */
int xgo__read_segs2d_wkb(struct xgo_reader *r, const unsigned char *w,
                         size_t len, int *taken)
{
    return segs_wkb(r, w, len, 0, taken);
}
