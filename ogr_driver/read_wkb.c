/*
 * read_wkb.c -- a bounds-checked cursor over one WKB blob, for the
 * readers of WKB (the Arrow route, read_arrow.c).  It reads the encoding
 * GDAL writes, little-endian ISO WKB with or without Z (and the old Z
 * flag of OGR's 2.5D types); anything else (big-endian, M, a truncated
 * blob, a type it does not know) it answers -1, and the reader leaves the
 * feature to OGR, which reads, or refuses and names, it as today.  Lines
 * and surfaces go through one parse of the whole blob first
 * (xgo__wkb_shape), which checks it to its last byte and records where
 * its curves lie: a reader that takes a blob so checked finds nothing
 * wrong half-way, and leaves no message behind that OGR would repeat.
 */
#include <math.h>
#include <string.h>
#include "xgo_read.h"

/* Whether this machine stores numbers little-endian, as the blobs the
 * cursor reads do: elsewhere every blob goes to OGR. */
static int host_le(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* The header of the next geometry (xgo_read.h). */
int xgo__wkb_head(struct xgo_wkb *c, uint32_t *type, int *z)
{
    uint32_t t;
    if (c->end - c->p < 5 || c->p[0] != 1 || !host_le())
        return -1;
    memcpy(&t, c->p + 1, 4);
    c->p += 5;
    *z = 0;
    if (t & 0x80000000u) {    /* OGR's 2.5D flag (wkb25DBit) */
        *z = 1;
        t &= ~0x80000000u;
    }
    if (t >= 1000 && t < 2000 && !*z) {
        *z = 1;
        t -= 1000;
    }
    if (t == 0 || t >= 1000)  /* M, ZM, or not ISO: OGR's */
        return -1;
    *type = t;
    return 0;
}

/* The next 32-bit count (xgo_read.h). */
int xgo__wkb_count(struct xgo_wkb *c, uint32_t *n)
{
    if (c->end - c->p < 4)
        return -1;
    memcpy(n, c->p, 4);
    c->p += 4;
    return 0;
}

/* The next n doubles (xgo_read.h). */
int xgo__wkb_doubles(struct xgo_wkb *c, double *v, size_t n)
{
    if ((size_t)(c->end - c->p) / sizeof(double) < n)
        return -1;
    memcpy(v, c->p, n * sizeof(double));
    c->p += n * sizeof(double);
    return 0;
}

/* The types of the parts the shape parser knows, and of the collections
 * of them. */
enum { LINE = 2, POLY = 3, MLINE = 5, MPOLY = 6, PSURF = 15, TIN = 16,
       TRI = 17 };

/* One curve at c (a 32-bit count, then its vertices of dims doubles),
 * recorded in sh; its first `axes` coordinates checked finite.  1, 0
 * where it is not plain (empty, truncated, not finite), -1 out of
 * memory. */
static int curve(struct xgo_wkb_shape *sh, struct xgo_wkb *c, int dims,
                 int axes)
{
    uint32_t n, i;
    size_t stride = (size_t)dims * sizeof(double);
    int k;
    if (xgo__wkb_count(c, &n) || n == 0 ||
        (size_t)(c->end - c->p) / stride < n)
        return 0;
    for (i = 0; i < n; i++)
        for (k = 0; k < axes; k++) {
            double v;
            memcpy(&v, c->p + (size_t)i * stride + (size_t)k * sizeof v,
                   sizeof v);
            if (!isfinite(v))
                return 0;
        }
    if (xg__grow_array((void **)&sh->curve, &sh->curvecap, sh->ncurve + 1,
                       sizeof *sh->curve))
        return -1;
    sh->curve[sh->ncurve].p = c->p;
    sh->curve[sh->ncurve++].n = n;
    c->p += (size_t)n * stride;
    return 1;
}

/* One part of type t at c (past its header): a LineString's curve, or a
 * Polygon's or Triangle's rings (at least one), recorded in sh.  As
 * curve(). */
static int part(struct xgo_wkb_shape *sh, struct xgo_wkb *c, uint32_t t,
                int axes)
{
    uint32_t nr = 1, i;
    int dims = sh->z ? 3 : 2, rc = 1;
    if (t != LINE && t != POLY && t != TRI)
        return 0;
    if (t != LINE && (xgo__wkb_count(c, &nr) || nr == 0))
        return 0;
    if (xg__grow_array((void **)&sh->part, &sh->partcap, sh->npart + 1,
                       sizeof *sh->part))
        return -1;
    sh->part[sh->npart].type = t;
    sh->part[sh->npart].first = sh->ncurve;
    sh->part[sh->npart++].n = nr;
    for (i = 0; i < nr && rc == 1; i++)
        rc = curve(sh, c, dims, axes);
    /* a Triangle OGR refuses to import (not one closed ring of four
     * vertices) is OGR's to name */
    if (rc == 1 && t == TRI) {
        const struct xgo_wkb_curve *cv = sh->curve + sh->ncurve - 1;
        size_t vb = (size_t)dims * sizeof(double);
        if (nr != 1 || cv->n != 4 || memcmp(cv->p, cv->p + 3 * vb, vb) != 0)
            rc = 0;
    }
    return rc;
}

/* The shape of blob w (xgo_read.h). */
int xgo__wkb_shape(struct xgo_wkb_shape *sh, const unsigned char *w,
                   size_t len, int axes)
{
    struct xgo_wkb c;
    uint32_t t, n, i, pt;
    int rc, pz;
    c.p = w;
    c.end = w + len;
    sh->npart = sh->ncurve = 0;
    if (xgo__wkb_head(&c, &sh->type, &sh->z))
        return 0;
    if (axes > 2 + sh->z)
        axes = 2 + sh->z;
    t = sh->type;
    if (t == LINE || t == POLY || t == TRI)
        rc = part(sh, &c, t, axes);
    else if (t == MLINE || t == MPOLY || t == PSURF || t == TIN) {
        if (xgo__wkb_count(&c, &n) || n == 0)
            return 0;
        for (i = 0, rc = 1; i < n && rc == 1; i++) {
            /* a part of another dimension than its collection: OGR's */
            if (xgo__wkb_head(&c, &pt, &pz) || pz != sh->z)
                return 0;
            rc = part(sh, &c, pt, axes);
        }
    } else
        return 0;
    return rc == 1 && c.p != c.end ? 0 : rc;
}

/* The vertices of curve cv of sh into r->buf (xgo_read.h). */
int xgo__wkb_vertices(struct xgo_reader *r, const struct xgo_wkb_shape *sh,
                      const struct xgo_wkb_curve *cv, size_t *n)
{
    size_t i, dims = sh->z ? 3 : 2;
    int keep = sh->z && (r->dim == 3 || r->keep_z);
    if (xg__grow_array((void **)&r->buf, &r->bufcap, 3 * (size_t)cv->n + 3,
                       sizeof(double)))
        return FAIL(r, XG_ENOMEM, "out of memory");
    for (i = 0; i < cv->n; i++) {
        double *p = r->buf + 3 * i;
        memcpy(p, cv->p + i * dims * sizeof(double), 2 * sizeof(double));
        if (keep)
            memcpy(p + 2, cv->p + (i * dims + 2) * sizeof(double),
                   sizeof(double));
        else
            p[2] = 0.0;
    }
    r->vtx += cv->n;
    *n = cv->n;
    return XG_OK;
}
