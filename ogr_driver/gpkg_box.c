/*
 * gpkg_box.c -- what the R-tree loader (gpkg_rtree.c) reads of a
 * GeoPackage geometry blob: its box.
 * Pure functions of their arguments: thread-safe.
 */
#include <stdint.h>
#include <string.h>
#include "gpkg_rtree.h"

/* The double at p, little-endian when le, else big-endian. */
static double get_f64(const unsigned char *p, int le)
{
    unsigned char b[8];
    double d;
    int i;
    for (i = 0; i < 8; i++)
        b[i] = le ? p[i] : p[7 - i];
    memcpy(&d, b, 8);
    return d;
}

/* The 32-bit unsigned integer at p, little-endian when le. */
static uint32_t get_u32(const unsigned char *p, int le)
{
    return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
              : (uint32_t)p[3] | (uint32_t)p[2] << 8 |
                    (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

/* gpkg_rtree.h */
int xgo__gpkg_blob_box(const unsigned char *b, size_t n, double bb[4])
{
    static const size_t env_bytes[8] = {0, 32, 48, 48, 64, 0, 0, 0};
    const unsigned char *w;
    size_t env;
    int le, wle;
    uint32_t type;
    if (!b)
        return 1;
    if (n < 8 || b[0] != 'G' || b[1] != 'P' || (b[3] & 0x20))
        return -1;            /* not GP, or an extended geometry */
    if (b[3] & 0x10)
        return 1;             /* the empty flag */
    le = b[3] & 1;
    env = (size_t)(b[3] >> 1) & 7;
    if (env > 4)
        return -1;
    if (env) {
        int k;
        if (n < 8 + env_bytes[env])
            return -1;
        for (k = 0; k < 4; k++)
            bb[k] = get_f64(b + 8 + 8 * k, le);
        return bb[0] == bb[0] && bb[1] == bb[1] && bb[2] == bb[2] &&
                       bb[3] == bb[3]
                   ? 0
                   : -1;
    }
    if (n < 8 + 21)
        return -1;
    w = b + 8;
    if (w[0] > 1)
        return -1;
    wle = w[0];
    type = get_u32(w + 1, wle);
    /* a Point in ISO (1, 1001, 2001, 3001) or old-style (Z, M flags)
     * WKB: the x and y come first either way */
    if ((type & 0x0fffffffu) % 1000 != 1)
        return -1;
    bb[0] = bb[1] = get_f64(w + 5, wle);
    bb[2] = bb[3] = get_f64(w + 13, wle);
    return bb[0] == bb[0] && bb[2] == bb[2] ? 0 : -1;
}
