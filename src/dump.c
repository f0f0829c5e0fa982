/*
 * dump.c -- a compact binary file of two sets, for machines without GDAL
 * (the GPU machine) and for benchmarks.
 *
 * Layout, native byte order (a marker catches a foreign one):
 *   marker      8 bytes: "XGDUMP01" (A segments, B triangles),
 *               "XGDUMP2S" (A and B segments, red/blue) or
 *               "XGDUMP3P" (A points, B triangles: points in solids)
 *   1.0         double, the byte-order marker
 *   na, nb      uint64 each
 *   A: na*6 (01, 2S) or na*3 (3P) doubles, na int64 fids, na int64 subs
 *   B: nb*9 (01, 3P) or nb*6 (2S) doubles, nb int64 fids, nb int64 subs
 * The doubles per element follow from the kinds (xg_elem_doubles).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_sets.h"

/* The formats: the marker and the kinds of the two sets. */
static const struct format {
    char marker[8];
    int a_elem, b_elem;
    const char *what;
} formats[] = {
    {{'X', 'G', 'D', 'U', 'M', 'P', '0', '1'}, XG_ELEM_SEGMENT,
     XG_ELEM_TRIANGLE, "segment-triangle"},
    {{'X', 'G', 'D', 'U', 'M', 'P', '2', 'S'}, XG_ELEM_SEGMENT,
     XG_ELEM_SEGMENT, "2D (red/blue)"},
    {{'X', 'G', 'D', 'U', 'M', 'P', '3', 'P'}, XG_ELEM_POINT,
     XG_ELEM_TRIANGLE, "point-in-solid"},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

/* Writes n items of sz bytes from p; non-zero when all went (n == 0
 * writes nothing, p may then be NULL: an empty set's arrays). */
static int put(FILE *f, const void *p, size_t sz, size_t n)
{
    return n == 0 || fwrite(p, sz, n, f) == n;
}

/* Writes a and b to path in format fm (marker, 1.0 for the byte order,
 * counts, then each set's coordinates, fids and subs).  XG_OK, or XG_EIO
 * with the first failure's reason in ctx; a half-written regular file
 * is removed. */
static int dump_write(struct xg_ctx *ctx, const char *path,
                      const struct format *fm, const struct xg_set *a,
                      const struct xg_set *b)
{
    FILE *f = fopen(path, "wb");
    double one = 1.0;
    uint64_t na = a->n, nb = b->n;
    size_t pa = (size_t)xg_elem_doubles(fm->a_elem),
           pb = (size_t)xg_elem_doubles(fm->b_elem);
    int ok, e;
    if (!f)
        return xg__error(ctx, XG_EIO, "%s: cannot create: %s", path,
                         strerror(errno));
    errno = 0;
    ok = put(f, fm->marker, 1, 8) && put(f, &one, sizeof one, 1) &&
         put(f, &na, sizeof na, 1) && put(f, &nb, sizeof nb, 1) &&
         put(f, a->xyz, sizeof(double), pa * a->n) &&
         put(f, a->fid, sizeof(int64_t), a->n) &&
         put(f, a->sub, sizeof(int64_t), a->n) &&
         put(f, b->xyz, sizeof(double), pb * b->n) &&
         put(f, b->fid, sizeof(int64_t), b->n) &&
         put(f, b->sub, sizeof(int64_t), b->n);
    /* the reason of the first failure: a short fwrite, else fclose's
     * flush of the buffered rest (ENOSPC shows there most often) */
    e = ok ? 0 : errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (!ok) {
        struct stat sb;
        /* a half-written file goes; a device or a link (/dev/full,
         * /dev/stdout) is not ours to remove */
        if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode))
            remove(path);
        return xg__error(ctx, XG_EIO, "%s: write failed: %s", path,
                         strerror(e ? e : EIO));
    }
    return XG_OK;
}

int xg_dump_write(struct xg_ctx *ctx, const char *path,
                  const struct xg_set *a, const struct xg_set *b)
{
    size_t i;
    for (i = 0; i < NFORMATS; i++)
        if (xg__set_fits(a, formats[i].a_elem) &&
            xg__set_fits(b, formats[i].b_elem))
            return dump_write(ctx, path, &formats[i], a, b);
    return xg__error(ctx, XG_EINVAL,
                     "%s: no dump format for %ss against %ss", path,
                     xg_elem_name(a->elem), xg_elem_name(b->elem));
}

/* Reads n items of sz bytes into p; non-zero when all came (n == 0
 * reads nothing). */
static int get(FILE *f, void *p, size_t sz, size_t n)
{
    return n == 0 || fread(p, sz, n, f) == n;
}

/* Reads into two zeroed sets; on failure the caller frees them (each
 * set's n and cap are set before its arrays are filled). */
static int dump_read(struct xg_ctx *ctx, const char *path, struct xg_set *a,
                     struct xg_set *b)
{
    FILE *f = fopen(path, "rb");
    const struct format *fm = NULL;
    char m[8];
    double one;
    uint64_t na, nb;
    size_t i, per[2];
    int rc = XG_OK, s;
    struct xg_set *set[2] = {a, b};
    if (!f)
        return xg__error(ctx, XG_EIO, "%s: cannot open: %s", path,
                         strerror(errno));
    if (get(f, m, 1, 8))
        for (i = 0; i < NFORMATS; i++)
            if (memcmp(m, formats[i].marker, 8) == 0)
                fm = &formats[i];
    if (!fm || !get(f, &one, sizeof one, 1) || one != 1.0 ||
        !get(f, &na, sizeof na, 1) || !get(f, &nb, sizeof nb, 1) ||
        na > UINT32_MAX || nb > UINT32_MAX) {
        fclose(f);
        return xg__error(ctx, XG_EFORMAT, "%s: not an exactgeo%s%s dump",
                         path, fm ? " " : "", fm ? fm->what : "");
    }
    per[0] = (size_t)xg_elem_doubles(fm->a_elem);
    per[1] = (size_t)xg_elem_doubles(fm->b_elem);
    /* The counts must match the file's size before they size any
     * allocation: a damaged header must not ask for hundreds of GB. */
    {
        const uint64_t header = 8 + sizeof one + 2 * sizeof(uint64_t);
        uint64_t want = header + na * (per[0] * sizeof(double) +
                                       2 * sizeof(int64_t)) +
                        nb * (per[1] * sizeof(double) + 2 * sizeof(int64_t));
        long size = -1;
        if (fseek(f, 0, SEEK_END) == 0)
            size = ftell(f);
        if (size < 0 || fseek(f, (long)header, SEEK_SET) != 0) {
            fclose(f);
            return xg__error(ctx, XG_EIO, "%s: cannot seek: %s", path,
                             strerror(errno));
        }
        if ((uint64_t)size != want) {
            fclose(f);
            return xg__error(ctx, XG_EFORMAT,
                             "%s: %s dump: %llu and %llu elements need %llu "
                             "bytes, the file has %ld",
                             path, (uint64_t)size < want ? "truncated"
                                                         : "oversized",
                             (unsigned long long)na, (unsigned long long)nb,
                             (unsigned long long)want, size);
        }
    }
    a->elem = fm->a_elem;
    b->elem = fm->b_elem;
    a->n = (size_t)na;
    b->n = (size_t)nb;
    for (s = 0; s < 2 && rc == XG_OK; s++) {
        size_t n = set[s]->n ? set[s]->n : 1;
        set[s]->cap = set[s]->n;
        set[s]->xyz = malloc(n * per[s] * sizeof(double));
        set[s]->fid = malloc(n * sizeof(int64_t));
        set[s]->sub = malloc(n * sizeof(int64_t));
        if (!set[s]->xyz || !set[s]->fid || !set[s]->sub)
            rc = xg__error(ctx, XG_ENOMEM, "%s: out of memory", path);
    }
    for (s = 0; s < 2 && rc == XG_OK; s++)
        if (!get(f, set[s]->xyz, sizeof(double), per[s] * set[s]->n) ||
            !get(f, set[s]->fid, sizeof(int64_t), set[s]->n) ||
            !get(f, set[s]->sub, sizeof(int64_t), set[s]->n))
            rc = xg__error(ctx, XG_EFORMAT, "%s: truncated dump", path);
    fclose(f);
    return rc;
}

int xg_dump_read(struct xg_ctx *ctx, const char *path, struct xg_set *a,
                 struct xg_set *b)
{
    int rc = dump_read(ctx, path, a, b);
    if (rc != XG_OK) {
        xg_set_free(a);
        xg_set_free(b);
    }
    return rc;
}
