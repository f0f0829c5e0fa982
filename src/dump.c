/*
 * dump.c -- a compact binary file of two sets, for machines without GDAL
 * (the GPU machine) and for benchmarks.
 *
 * Layout, native byte order (a marker catches a foreign one):
 *   "XGDUMP01"  8 bytes
 *   1.0         double, the byte-order marker
 *   na, nb      uint64 each
 *   A: na*6 doubles, na int64 fids, na int64 subs
 *   B: nb*9 doubles, nb int64 fids, nb int64 subs
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xg_internal.h"

static const char magic[8] = {'X', 'G', 'D', 'U', 'M', 'P', '0', '1'};

static int put(FILE *f, const void *p, size_t sz, size_t n)
{
    return n == 0 || fwrite(p, sz, n, f) == n;
}

int xg_dump_write(struct xg_ctx *ctx, const char *path,
                  const struct xg_segs *a, const struct xg_tris *b)
{
    FILE *f = fopen(path, "wb");
    double one = 1.0;
    uint64_t na = a->n, nb = b->n;
    int ok;
    if (!f)
        return xg__error(ctx, XG_EIO, "%s: cannot create: %s", path,
                         strerror(errno));
    ok = put(f, magic, 1, 8) && put(f, &one, sizeof one, 1) &&
         put(f, &na, sizeof na, 1) && put(f, &nb, sizeof nb, 1) &&
         put(f, a->xyz, sizeof(double), 6 * a->n) &&
         put(f, a->fid, sizeof(int64_t), a->n) &&
         put(f, a->sub, sizeof(int64_t), a->n) &&
         put(f, b->xyz, sizeof(double), 9 * b->n) &&
         put(f, b->fid, sizeof(int64_t), b->n) &&
         put(f, b->sub, sizeof(int64_t), b->n);
    if (fclose(f) != 0)
        ok = 0;
    if (!ok) {
        remove(path);
        return xg__error(ctx, XG_EIO, "%s: write failed", path);
    }
    return XG_OK;
}

static int get(FILE *f, void *p, size_t sz, size_t n)
{
    return n == 0 || fread(p, sz, n, f) == n;
}

int xg_dump_read(struct xg_ctx *ctx, const char *path, struct xg_segs *a,
                 struct xg_tris *b)
{
    FILE *f = fopen(path, "rb");
    char m[8];
    double one;
    uint64_t na, nb;
    int rc = XG_OK;
    if (!f)
        return xg__error(ctx, XG_EIO, "%s: cannot open: %s", path,
                         strerror(errno));
    if (!get(f, m, 1, 8) || memcmp(m, magic, 8) != 0 ||
        !get(f, &one, sizeof one, 1) || one != 1.0 ||
        !get(f, &na, sizeof na, 1) || !get(f, &nb, sizeof nb, 1) ||
        na > UINT32_MAX || nb > UINT32_MAX) {
        fclose(f);
        return xg__error(ctx, XG_EFORMAT, "%s: not an exactgeo dump", path);
    }
    /* The counts must match the file's size before they size any
     * allocation: a damaged header must not ask for hundreds of GB. */
    {
        const uint64_t header = 8 + sizeof one + 2 * sizeof(uint64_t);
        uint64_t want = header + na * (6 * sizeof(double) + 2 * sizeof(int64_t)) +
                        nb * (9 * sizeof(double) + 2 * sizeof(int64_t));
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
                             "%s: %s dump: %llu segments and %llu triangles "
                             "need %llu bytes, the file has %ld",
                             path, (uint64_t)size < want ? "truncated"
                                                         : "oversized",
                             (unsigned long long)na, (unsigned long long)nb,
                             (unsigned long long)want, size);
        }
    }
    a->xyz = malloc((na ? na : 1) * 6 * sizeof(double));
    a->fid = malloc((na ? na : 1) * sizeof(int64_t));
    a->sub = malloc((na ? na : 1) * sizeof(int64_t));
    b->xyz = malloc((nb ? nb : 1) * 9 * sizeof(double));
    b->fid = malloc((nb ? nb : 1) * sizeof(int64_t));
    b->sub = malloc((nb ? nb : 1) * sizeof(int64_t));
    a->n = a->cap = (size_t)na;
    b->n = b->cap = (size_t)nb;
    if (!a->xyz || !a->fid || !a->sub || !b->xyz || !b->fid || !b->sub)
        rc = xg__error(ctx, XG_ENOMEM, "%s: out of memory", path);
    else if (!get(f, a->xyz, sizeof(double), 6 * a->n) ||
             !get(f, a->fid, sizeof(int64_t), a->n) ||
             !get(f, a->sub, sizeof(int64_t), a->n) ||
             !get(f, b->xyz, sizeof(double), 9 * b->n) ||
             !get(f, b->fid, sizeof(int64_t), b->n) ||
             !get(f, b->sub, sizeof(int64_t), b->n))
        rc = xg__error(ctx, XG_EFORMAT, "%s: truncated dump", path);
    fclose(f);
    if (rc != XG_OK) {
        xg_segs_free(a);
        xg_tris_free(b);
    }
    return rc;
}
