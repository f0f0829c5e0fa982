/*
 * part_spill.c -- the temporary file of a run in regions (xgp_internal.h):
 * what the plan's one pass read, each feature's elements filed under the
 * strips it meets, and the records each region owns, sorted, waiting for
 * the merge.  So a region is loaded from here at the speed of the disk's
 * cache, not read again through GDAL, and a run holds one region at a
 * time in memory, not the whole input, nor its records until the write.
 *
 * The file is unlinked as soon as it is made: nothing of it is left
 * behind by a run that fails, is interrupted or is killed.  Streams are
 * appended in chunks of whole entries, so that a chunk read back is a run
 * of entries.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, pread, pwrite */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include "xg_grow.h"
#include "xgp_internal.h"

int xgp__spill_open(struct xgp_spill *s, const char *dir, char *err,
                    size_t errlen)
{
    const char *d = dir && *dir ? dir : getenv("TMPDIR");
    char path[4096];
    if (!d || !*d)
        d = "/tmp";
    memset(s, 0, sizeof *s);
    s->fd = -1;
    snprintf(s->dir, sizeof s->dir, "%s", d);
    if (snprintf(path, sizeof path, "%s/.exactgeo-spill-XXXXXX", d) >=
        (int)sizeof path)
        return xgo__fail(err, errlen, XG_EINVAL, "%s: path too long for "
                         "the run's temporary file", d);
    if ((s->fd = mkstemp(path)) < 0)
        return xgo__fail(err, errlen, XG_EIO, "cannot make the run's "
                         "temporary file in %s: %s", d, strerror(errno));
    /* gone from the folder at once: the open descriptor keeps it */
    unlink(path);
    return XG_OK;
}

void xgp__spill_close(struct xgp_spill *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

/* n bytes at p written at the file's end; their offset in *off. */
static int append(struct xgp_spill *s, const void *p, size_t n,
                  uint64_t *off, char *err, size_t errlen)
{
    const char *b = p;
    size_t at = 0;
    *off = s->end;
    while (at < n) {
        ssize_t w = pwrite(s->fd, b + at, n - at, (off_t)(s->end + at));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return xgo__fail(err, errlen, XG_EIO, "writing the run's "
                             "temporary file in %s: %s", s->dir,
                             w < 0 ? strerror(errno) : "nothing written");
        at += (size_t)w;
    }
    s->end += n;
    return XG_OK;
}

int xgp__spill_write(struct xgp_spill *s, const void *p, size_t n,
                     uint64_t *off, char *err, size_t errlen)
{
    return append(s, p, n, off, err, errlen);
}

int xgp__spill_read(const struct xgp_spill *s, uint64_t off, void *to,
                    size_t n, char *err, size_t errlen)
{
    char *b = to;
    size_t at = 0;
    while (at < n) {
        ssize_t r = pread(s->fd, b + at, n - at, (off_t)(off + at));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return xgo__fail(err, errlen, XG_EIO, "reading the run's "
                             "temporary file in %s: %s", s->dir,
                             r < 0 ? strerror(errno) : "cut short");
        at += (size_t)r;
    }
    return XG_OK;
}

/* t's pending bytes written as a chunk of their own. */
int xgp__stream_flush(struct xgp_spill *s, struct xgp_stream *t, char *err,
                      size_t errlen)
{
    struct xgp_chunk c;
    int rc;
    if (t->used == 0)
        return XG_OK;
    if (xg__grow_array((void **)&t->c, &t->ncap, t->n + 1, sizeof *t->c))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    c.len = t->used;
    if ((rc = append(s, t->buf, t->used, &c.off, err, errlen)) != XG_OK)
        return rc;
    t->c[t->n++] = c;
    t->used = 0;
    return XG_OK;
}

int xgp__stream_put(struct xgp_spill *s, struct xgp_stream *t, size_t cap,
                    const void *p, size_t n, char *err, size_t errlen)
{
    int rc;
    if (t->used + n > t->cap && (rc = xgp__stream_flush(s, t, err, errlen)))
        return rc;
    if (n > cap) {            /* an entry larger than a chunk: its own */
        struct xgp_chunk c;
        if (xg__grow_array((void **)&t->c, &t->ncap, t->n + 1, sizeof *t->c))
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        c.len = n;
        if ((rc = append(s, p, n, &c.off, err, errlen)) != XG_OK)
            return rc;
        t->c[t->n++] = c;
        t->bytes += n;
        return XG_OK;
    }
    if (!t->buf) {
        if (!(t->buf = malloc(cap)))
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        t->cap = cap;
    }
    memcpy(t->buf + t->used, p, n);
    t->used += n;
    t->bytes += n;
    return XG_OK;
}

int xgp__stream_load(const struct xgp_spill *s, const struct xgp_stream *t,
                     unsigned char *to, char *err, size_t errlen)
{
    size_t k;
    int rc;
    for (k = 0; k < t->n; k++) {
        if ((rc = xgp__spill_read(s, t->c[k].off, to, (size_t)t->c[k].len,
                                  err, errlen)) != XG_OK)
            return rc;
        to += t->c[k].len;
    }
    if (t->used)
        memcpy(to, t->buf, t->used);
    return XG_OK;
}

void xgp__buf_trim(struct xgp_buf *b)
{
    if (b->cap > ((size_t)64 << 20)) {
        free(b->p);
        memset(b, 0, sizeof *b);
    }
}

void xgp__stream_free(struct xgp_stream *t)
{
    free(t->buf);
    free(t->c);
    memset(t, 0, sizeof *t);
}
