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
 * The 2D variant (two segment sets) has the marker "XGDUMP2S" and B as
 * nb*6 doubles.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "xg_internal.h"

static const char magic[8] = {'X', 'G', 'D', 'U', 'M', 'P', '0', '1'};
static const char magic2[8] = {'X', 'G', 'D', 'U', 'M', 'P', '2', 'S'};

/* One set as the file sees it: n elements of per doubles. */
struct set {
    size_t n, per;
    double **xyz;
    int64_t **fid, **sub;
};

static int put(FILE *f, const void *p, size_t sz, size_t n)
{
    return n == 0 || fwrite(p, sz, n, f) == n;
}

static int dump_write(struct xg_ctx *ctx, const char *path, const char *m,
                      const struct set *a, const struct set *b)
{
    FILE *f = fopen(path, "wb");
    double one = 1.0;
    uint64_t na = a->n, nb = b->n;
    int ok, e;
    if (!f)
        return xg__error(ctx, XG_EIO, "%s: cannot create: %s", path,
                         strerror(errno));
    errno = 0;
    ok = put(f, m, 1, 8) && put(f, &one, sizeof one, 1) &&
         put(f, &na, sizeof na, 1) && put(f, &nb, sizeof nb, 1) &&
         put(f, *a->xyz, sizeof(double), a->per * a->n) &&
         put(f, *a->fid, sizeof(int64_t), a->n) &&
         put(f, *a->sub, sizeof(int64_t), a->n) &&
         put(f, *b->xyz, sizeof(double), b->per * b->n) &&
         put(f, *b->fid, sizeof(int64_t), b->n) &&
         put(f, *b->sub, sizeof(int64_t), b->n);
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
                  const struct xg_segs *a, const struct xg_tris *b)
{
    struct set sa = {a->n, 6, (double **)&a->xyz, (int64_t **)&a->fid,
                     (int64_t **)&a->sub};
    struct set sb = {b->n, 9, (double **)&b->xyz, (int64_t **)&b->fid,
                     (int64_t **)&b->sub};
    return dump_write(ctx, path, magic, &sa, &sb);
}

int xg_dump_write_segs(struct xg_ctx *ctx, const char *path,
                       const struct xg_segs *a, const struct xg_segs *b)
{
    struct set sa = {a->n, 6, (double **)&a->xyz, (int64_t **)&a->fid,
                     (int64_t **)&a->sub};
    struct set sb = {b->n, 6, (double **)&b->xyz, (int64_t **)&b->fid,
                     (int64_t **)&b->sub};
    return dump_write(ctx, path, magic2, &sa, &sb);
}

static int get(FILE *f, void *p, size_t sz, size_t n)
{
    return n == 0 || fread(p, sz, n, f) == n;
}

/* Reads into two sets whose arrays are NULL; on failure the arrays are
 * freed by the caller's *_free (each set's n and cap are set first). */
static int dump_read(struct xg_ctx *ctx, const char *path, const char *mk,
                     struct set *a, size_t *acap, struct set *b, size_t *bcap)
{
    FILE *f = fopen(path, "rb");
    char m[8];
    double one;
    uint64_t na, nb;
    int rc = XG_OK, s;
    struct set *set[2] = {a, b};
    size_t *cap[2] = {acap, bcap};
    if (!f)
        return xg__error(ctx, XG_EIO, "%s: cannot open: %s", path,
                         strerror(errno));
    if (!get(f, m, 1, 8) || memcmp(m, mk, 8) != 0 ||
        !get(f, &one, sizeof one, 1) || one != 1.0 ||
        !get(f, &na, sizeof na, 1) || !get(f, &nb, sizeof nb, 1) ||
        na > UINT32_MAX || nb > UINT32_MAX) {
        fclose(f);
        return xg__error(ctx, XG_EFORMAT, "%s: not an exactgeo %s dump", path,
                         mk == magic2 ? "2D (red/blue)" : "segment-triangle");
    }
    /* The counts must match the file's size before they size any
     * allocation: a damaged header must not ask for hundreds of GB. */
    {
        const uint64_t header = 8 + sizeof one + 2 * sizeof(uint64_t);
        uint64_t want = header + na * (a->per * sizeof(double) +
                                       2 * sizeof(int64_t)) +
                        nb * (b->per * sizeof(double) + 2 * sizeof(int64_t));
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
    a->n = (size_t)na;
    b->n = (size_t)nb;
    for (s = 0; s < 2 && rc == XG_OK; s++) {
        size_t n = set[s]->n ? set[s]->n : 1;
        *cap[s] = set[s]->n;
        *set[s]->xyz = malloc(n * set[s]->per * sizeof(double));
        *set[s]->fid = malloc(n * sizeof(int64_t));
        *set[s]->sub = malloc(n * sizeof(int64_t));
        if (!*set[s]->xyz || !*set[s]->fid || !*set[s]->sub)
            rc = xg__error(ctx, XG_ENOMEM, "%s: out of memory", path);
    }
    for (s = 0; s < 2 && rc == XG_OK; s++)
        if (!get(f, *set[s]->xyz, sizeof(double), set[s]->per * set[s]->n) ||
            !get(f, *set[s]->fid, sizeof(int64_t), set[s]->n) ||
            !get(f, *set[s]->sub, sizeof(int64_t), set[s]->n))
            rc = xg__error(ctx, XG_EFORMAT, "%s: truncated dump", path);
    fclose(f);
    return rc;
}

int xg_dump_read(struct xg_ctx *ctx, const char *path, struct xg_segs *a,
                 struct xg_tris *b)
{
    struct set sa = {0, 6, &a->xyz, &a->fid, &a->sub};
    struct set sb = {0, 9, &b->xyz, &b->fid, &b->sub};
    int rc = dump_read(ctx, path, magic, &sa, &a->cap, &sb, &b->cap);
    a->n = sa.n;
    b->n = sb.n;
    if (rc != XG_OK) {
        xg_segs_free(a);
        xg_tris_free(b);
    }
    return rc;
}

int xg_dump_read_segs(struct xg_ctx *ctx, const char *path, struct xg_segs *a,
                      struct xg_segs *b)
{
    struct set sa = {0, 6, &a->xyz, &a->fid, &a->sub};
    struct set sb = {0, 6, &b->xyz, &b->fid, &b->sub};
    int rc = dump_read(ctx, path, magic2, &sa, &a->cap, &sb, &b->cap);
    a->n = sa.n;
    b->n = sb.n;
    if (rc != XG_OK) {
        xg_segs_free(a);
        xg_segs_free(b);
    }
    return rc;
}
