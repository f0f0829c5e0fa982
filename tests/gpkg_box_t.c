/*
 * gpkg_box_t.c -- the box the R-tree loader reads of a GeoPackage
 * geometry blob (ogr_driver/gpkg_box.c): the envelope in either byte
 * order, a point's coordinates in ISO and old-style WKB of either byte
 * order, NULL and empty skipped, and everything else (no envelope and not
 * a point, a bad header, NaN, any truncation) refused, never read past
 * its end (every truncation is a fresh heap block of exactly its size,
 * for the sanitizer build); the Hilbert key's first cells and end.  TAP.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gpkg_rtree.h"
#include "tap.h"

/* The Hilbert key as the classic loop computes it, branches and all:
 * the oracle of src/xg_hilbert.h's branch-free one. */
static uint32_t classic16(uint32_t x, uint32_t y)
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
            {
                uint32_t t = x;
                x = y;
                y = t;
            }
        }
    }
    return d;
}

/* Appends the double d at p in byte order le; returns p + 8. */
static unsigned char *put_f64(unsigned char *p, double d, int le)
{
    unsigned char b[8];
    int i;
    memcpy(b, &d, 8);
    for (i = 0; i < 8; i++)
        p[i] = le ? b[i] : b[7 - i];
    return p + 8;
}

/* Appends the 32-bit u at p in byte order le; returns p + 4. */
static unsigned char *put_u32(unsigned char *p, uint32_t u, int le)
{
    int i;
    for (i = 0; i < 4; i++)
        p[le ? i : 3 - i] = (unsigned char)(u >> (8 * i));
    return p + 4;
}

/* A GeoPackage blob into b: header of byte order le with envelope code
 * env (its values e[0..3] then zeros), flags extra, then WKB of byte
 * order wle and type type with the np doubles c.  Returns its size. */
static size_t blob(unsigned char *b, int le, int env, int extra,
                   const double *e, int wle, uint32_t type, const double *c,
                   int np)
{
    static const int env_doubles[8] = {0, 4, 6, 6, 8, 0, 0, 0};
    unsigned char *p = b;
    int k;
    *p++ = 'G';
    *p++ = 'P';
    *p++ = 0;
    *p++ = (unsigned char)(le | env << 1 | extra);
    p = put_u32(p, 4326, le);
    for (k = 0; k < env_doubles[env]; k++)
        p = put_f64(p, k < 4 ? e[k] : 0.0, le);
    *p++ = (unsigned char)wle;
    p = put_u32(p, type, wle);
    for (k = 0; k < np; k++)
        p = put_f64(p, c[k], wle);
    return (size_t)(p - b);
}

/* The box of the first n bytes of b, read from a copy of exactly n bytes
 * (so that a read past its end is the sanitizer's error). */
static int box_of(const unsigned char *b, size_t n, double bb[4])
{
    unsigned char *c = malloc(n ? n : 1);
    int r;
    memcpy(c, b, n);
    r = xgo__gpkg_blob_box(c, n, bb);
    free(c);
    return r;
}

/* Every proper prefix of b (n bytes) is refused. */
static int prefixes_refused(const unsigned char *b, size_t n)
{
    double bb[4];
    size_t k;
    for (k = 0; k < n; k++)
        if (box_of(b, k, bb) != -1)
            return 0;
    return 1;
}

int main(void)
{
    unsigned char b[256];
    const double e[4] = {1.5, 2.5, -3.25, 4.0};
    const double pt[3] = {500123.25, 7000001.5, 12.0};
    const double line[4] = {0, 0, 1, 1};
    const double nan2[2] = {NAN, NAN};
    double bb[4];
    size_t n;
    int le;

    ok(xgo__gpkg_blob_box(NULL, 0, bb) == 1, "NULL: no box");
    for (le = 0; le < 2; le++) {
        n = blob(b, le, 1, 0, e, le, 3, line, 0);
        ok(box_of(b, n, bb) == 0 && bb[0] == 1.5 && bb[1] == 2.5 &&
               bb[2] == -3.25 && bb[3] == 4.0,
           "envelope xy, %s-endian header: its values", le ? "little" : "big");
        n = blob(b, le, 2, 0, e, 1, 3, line, 0);
        ok(box_of(b, n, bb) == 0 && bb[0] == 1.5 && bb[3] == 4.0,
           "envelope xyz, %s-endian: minx..maxy", le ? "little" : "big");
        ok(prefixes_refused(b, 8 + 48), "every truncated envelope refused");
        n = blob(b, 1, 0, 0, e, le, 1001, pt, 3);
        ok(box_of(b, n, bb) == 0 && bb[0] == pt[0] && bb[1] == pt[0] &&
               bb[2] == pt[1] && bb[3] == pt[1],
           "ISO PointZ, %s-endian WKB: its x and y", le ? "little" : "big");
        ok(prefixes_refused(b, 8 + 21), "every truncated point refused");
    }
    n = blob(b, 1, 0, 0, e, 1, 0x80000001u, pt, 3);
    ok(box_of(b, n, bb) == 0 && bb[0] == pt[0] && bb[2] == pt[1],
       "old-style Point25D: its x and y");
    n = blob(b, 1, 0, 0, e, 1, 1, pt, 2);
    ok(box_of(b, n, bb) == 0 && bb[1] == pt[0] && bb[3] == pt[1], "Point");
    n = blob(b, 1, 0, 0x10, e, 1, 1, nan2, 2);
    ok(box_of(b, n, bb) == 1, "the empty flag: no box");
    n = blob(b, 1, 0, 0, e, 1, 1, nan2, 2);
    ok(box_of(b, n, bb) == -1, "a NaN point without the empty flag: refused");
    n = blob(b, 1, 0, 0, e, 1, 2, line, 4);
    ok(box_of(b, n, bb) == -1, "a line without envelope: refused (GDAL's)");
    n = blob(b, 1, 1, 0x20, e, 1, 3, line, 0);
    ok(box_of(b, n, bb) == -1, "an extended geometry: refused");
    n = blob(b, 1, 5, 0, e, 1, 3, line, 0);
    ok(box_of(b, n, bb) == -1, "an envelope code over 4: refused");
    n = blob(b, 1, 1, 0, e, 1, 3, line, 0);
    b[1] = 'X';
    ok(box_of(b, n, bb) == -1, "not GP: refused");
    n = blob(b, 1, 0, 0, e, 7, 1, pt, 2);
    ok(box_of(b, n, bb) == -1, "a WKB byte order other than 0 or 1: refused");

    {   /* the 4 x 4 corner is the curve's first 16 cells, one step apart */
        int at[16][2], x, y, good = 1;
        memset(at, -1, sizeof at);
        for (x = 0; x < 4; x++)
            for (y = 0; y < 4; y++) {
                uint32_t d = xg__hilbert16((uint32_t)x, (uint32_t)y);
                if (d >= 16 || at[d][0] >= 0)
                    good = 0;
                else {
                    at[d][0] = x;
                    at[d][1] = y;
                }
            }
        for (x = 1; x < 16 && good; x++)
            good = abs(at[x][0] - at[x - 1][0]) + abs(at[x][1] - at[x - 1][1]) == 1;
        ok(good && xg__hilbert16(0, 0) == 0,
           "Hilbert key: the first 16 cells are the 4 x 4 corner, in steps");
        ok((xg__hilbert16(65535, 0) == 0xffffffffu) !=
               (xg__hilbert16(0, 65535) == 0xffffffffu),
           "Hilbert key: the curve ends at one of the two far corners");
    }
    {   /* the branch-free key is the classic loop's: every cell of the
         * 1024 x 1024 corner, the far edges, and 10^6 cells at random */
        uint64_t r = 88172645463325252ULL;
        long bad = 0, n = 0, i;
        uint32_t x, y;
        for (x = 0; x < 1024; x++)
            for (y = 0; y < 1024; y++, n++)
                bad += xg__hilbert16(x, y) != classic16(x, y);
        for (x = 0; x < 65536; x += 3, n += 2)
            bad += xg__hilbert16(x, 65535) != classic16(x, 65535) ||
                   xg__hilbert16(65535, x) != classic16(65535, x);
        for (i = 0; i < 1000000; i++, n++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            x = (uint32_t)r & 0xffff;
            y = (uint32_t)(r >> 16) & 0xffff;
            bad += xg__hilbert16(x, y) != classic16(x, y);
        }
        ok(bad == 0, "Hilbert key: the classic loop's on %ld cells (%ld differ)",
           n, bad);
    }
    tap_done();
    return tap_exit();
}
