/*
 * read_tris.c -- triangles (XG_ELEM_TRIANGLE).  segtri's and inside's B:
 * Triangle, Polygon, MultiPolygon, TIN, PolyhedralSurface with Z; a
 * triangle (or a polygon whose only ring has three vertices) is taken as
 * it is, larger planar polygons go through xg_triangulate; the triangles
 * of one feature are numbered over its parts in order.  inside then
 * checks each feature to be a closed surface (read_solid.c).
 */
#include <stdlib.h>
#include <string.h>
#include "xgo_read.h"

/* Triangle abc (copied) into r->set as the feature's next element. */
static int push_tri(struct xgo_reader *r, const double *a, const double *b,
                    const double *c)
{
    if (xg_set_push_triangle(r->set, a, b, c, r->fid, r->sub++))
        return FAIL(r, XG_ELIMIT, "%s: too many triangles (limit %u)",
                    r->s->path, (unsigned)UINT32_MAX);
    return XG_OK;
}

/* Polygon `part` of the feature: as it is when a triangle, else through
 * xg_triangulate.  A non-planar or degenerate polygon is skipped with a
 * warning. */
static int polygon(struct xgo_reader *r, OGRGeometryH g, int part)
{
    int nr = OGR_G_GetGeometryCount(g), i, rc;
    size_t total = 0, n, j, k, ntri = 0;
    uint32_t *tri = NULL;
    struct xg_counters cnt = {0};
    const char *why = NULL;

    if (nr <= 0)
        return XG_OK;
    if (xg__grow_array((void **)&r->ring, &r->ringcap, (size_t)nr + 1,
                       sizeof(size_t)))
        return FAIL(r, XG_ENOMEM, "out of memory");
    for (i = 0; i < nr; i++) {
        if ((rc = xgo__read_vertices(r, OGR_G_GetGeometryRef(g, i), &n)))
            return rc;
        /* the closing vertex is not repeated for xg_triangulate */
        if (n > 1 && memcmp(r->buf, r->buf + 3 * (n - 1),
                            3 * sizeof(double)) == 0)
            n--;
        if (nr == 1 && n == 3)    /* a triangle: taken as it is */
            return push_tri(r, r->buf, r->buf + 3, r->buf + 6);
        if (xg__grow_array((void **)&r->poly, &r->polycap, 3 * (total + n),
                           sizeof(double)))
            return FAIL(r, XG_ENOMEM, "out of memory");
        /* repeated consecutive vertices change nothing: drop them */
        r->ring[i] = total;
        for (j = 0; j < n; j++) {
            const double *p = r->buf + 3 * j;
            if (total > r->ring[i] &&
                memcmp(p, r->poly + 3 * (total - 1), 3 * sizeof(double)) == 0)
                continue;
            memcpy(r->poly + 3 * total++, p, 3 * sizeof(double));
        }
        while (total - r->ring[i] > 1 &&
               memcmp(r->poly + 3 * r->ring[i], r->poly + 3 * (total - 1),
                      3 * sizeof(double)) == 0)
            total--;
        if (total - r->ring[i] < 3)
            why = "has a ring of fewer than three distinct vertices";
    }
    r->ring[nr] = total;
    if (!why) {
        rc = xg_triangulate(&cnt, r->poly, r->ring, (size_t)nr, &tri, &ntri);
        if (rc == XG_ENOMEM)
            return FAIL(r, XG_ENOMEM, "out of memory");
        if (rc == XG_ENONPLANAR) {
            why = "is not planar";
            r->rep->nonplanar[r->input]++;
        } else if (rc != XG_OK) {
            why = "is degenerate or not a valid polygon (rings crossing, "
                  "overlapping, nested or cutting the interior)";
        }
    }
    if (why) {
        if (rc != XG_ENONPLANAR)
            r->rep->bad_polygons[r->input]++;
        xgo__warn(r->quiet,
                  "%s, layer '%s', feature %lld: polygon %d %s; skipped",
                  r->s->path, r->s->name, (long long)r->fid, part, why);
        return XG_OK;
    }
    r->rep->triangulated[r->input]++;
    rc = XG_OK;
    for (k = 0; k < ntri && !rc; k++)
        rc = push_tri(r, r->poly + 3 * (size_t)tri[3 * k],
                      r->poly + 3 * (size_t)tri[3 * k + 1],
                      r->poly + 3 * (size_t)tri[3 * k + 2]);
    free(tri);
    return rc;
}

/* A Triangle, its first ring's first three vertices; one of fewer is
 * refused. */
static int triangle(struct xgo_reader *r, OGRGeometryH g)
{
    size_t n;
    int rc;
    if (OGR_G_GetGeometryCount(g) < 1)
        return XG_OK;
    if ((rc = xgo__read_vertices(r, OGR_G_GetGeometryRef(g, 0), &n)))
        return rc;
    if (n < 3)
        return xgo__read_bad(r, "triangle with fewer than three vertices");
    return push_tri(r, r->buf, r->buf + 3, r->buf + 6);
}

/* Part `part` of the feature, a Triangle or a Polygon; another type is
 * refused. */
static int tris_part(struct xgo_reader *r, OGRGeometryH g, int part)
{
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbTriangle:
        return triangle(r, g);
    case wkbPolygon:
        return polygon(r, g, part);
    default:
        return xgo__read_wrong_type(r, g, "Polygon or Triangle parts");
    }
}

/* Triangles of a Triangle, Polygon, MultiPolygon, TIN or
 * PolyhedralSurface with Z, numbered over the parts (xgo_geom_fn). */
int xgo__read_tris(struct xgo_reader *r, OGRGeometryH g)
{
    int rc = xgo__read_need_z(r, g), i, n;
    if (rc)
        return rc;
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbTriangle:
    case wkbPolygon:
        return tris_part(r, g, 0);
    case wkbMultiPolygon:
    case wkbTIN:
    case wkbPolyhedralSurface:
        n = OGR_G_GetGeometryCount(g);
        for (i = 0; i < n && !rc; i++)
            rc = tris_part(r, OGR_G_GetGeometryRef(g, i), i);
        return rc;
    default:
        return xgo__read_wrong_type(r, g, "Polygon, MultiPolygon, Triangle, "
                                          "TIN or PolyhedralSurface with Z");
    }
}

/* Triangles of blob w (len bytes) where every part is a triangle: a
 * Triangle, or a Polygon of one ring of three vertices (the closing one
 * not counted), in a Triangle, Polygon, MultiPolygon, TIN or
 * PolyhedralSurface with Z; taken as xgo__read_tris takes them.  A
 * polygon to triangulate, whose warnings OGR's route gives, and anything
 * else leave r->set as it was, *taken = 0 (xgo_wkb_fn). */
int xgo__read_tris_wkb(struct xgo_reader *r, const unsigned char *w,
                       size_t len, int *taken)
{
    struct xgo_wkb_shape *sh = &r->wkb;
    size_t i, n;
    int rc;
    *taken = 0;
    if ((rc = xgo__wkb_shape(sh, w, len, 3)) <= 0)
        return rc < 0 ? FAIL(r, XG_ENOMEM, "out of memory") : XG_OK;
    if (!sh->z)
        return XG_OK;
    for (i = 0; i < sh->npart; i++) {
        const struct xgo_wkb_part *pt = sh->part + i;
        const unsigned char *v = sh->curve[pt->first].p;
        uint32_t nv = sh->curve[pt->first].n;
        int ok = sh->type == 16 ? pt->type == 17
               : sh->type == 6 || sh->type == 15 ? pt->type == 3
               : sh->type == pt->type && (pt->type == 3 || pt->type == 17);
        /* one ring of three vertices, closed or not (as polygon() drops
         * the closing vertex) */
        if (ok && pt->type == 3) {
            int closed = memcmp(v, v + 24 * (size_t)(nv - 1), 24) == 0;
            ok = pt->n == 1 && (nv == 4 ? closed : nv == 3 && !closed);
        }
        if (!ok)
            return XG_OK;
    }
    rc = XG_OK;
    for (i = 0; i < sh->npart && rc == XG_OK; i++)
        if ((rc = xgo__wkb_vertices(r, sh, sh->curve + sh->part[i].first,
                                    &n)) == XG_OK)
            rc = push_tri(r, r->buf, r->buf + 3, r->buf + 6);
    *taken = rc == XG_OK;
    return rc;
}
