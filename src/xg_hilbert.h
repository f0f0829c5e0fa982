/*
 * xg_hilbert.h -- the distance along the Hilbert curve of order 16: the
 * one spatial sort key of the house (delaunay's insertion order, the
 * GeoPackage R-tree's bulk load in ogr_driver/gpkg_rtree.c).  Header-only
 * so that the plugin, which links only the public API, uses the same code.
 */
#ifndef XG_HILBERT_H
#define XG_HILBERT_H

#include <stdint.h>

/* The distance along the Hilbert curve of order 16 of the cell (x, y),
 * both below 2^16: 0 .. 2^32 - 1. */
static inline uint32_t xg__hilbert16(uint32_t x, uint32_t y)
{
    uint32_t d = 0, s;
    for (s = 1u << 15; s > 0; s >>= 1) {
        uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
        d += s * s * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

#endif
