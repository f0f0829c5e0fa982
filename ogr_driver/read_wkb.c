/*
 * read_wkb.c -- a bounds-checked cursor over one WKB blob, for the
 * readers of WKB (the Arrow route, read_arrow.c).  It reads the encoding
 * GDAL writes, little-endian ISO WKB with or without Z (and the old Z
 * flag of OGR's 2.5D types); anything else (big-endian, M, a truncated
 * blob, a type it does not know) it answers -1, and the reader leaves the
 * feature to OGR, which reads, or refuses and names, it as today.
 */
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
