/*
 * sidefile.c -- see sidefile.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sidefile.h"

/* Writes "OPT PATH: what[: why]" for side file f into err (why may be
 * NULL) and returns -1, so that a failing step ends in one line. */
static int failf(char *err, size_t errlen, const struct sidefile *f,
                 const char *what, const char *why)
{
    snprintf(err, errlen, "%s %s: %s%s%s", f->opt, f->path, what,
             why ? ": " : "", why ? why : "");
    return -1;
}

/* The template "DIR/.BASE.exactgeo-XXXXXX" next to path, for mkstemp. */
static int tmp_name(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    int n = slash ? snprintf(buf, len, "%.*s/.%s.exactgeo-XXXXXX",
                             (int)(slash - path), path, slash + 1)
                  : snprintf(buf, len, ".%s.exactgeo-XXXXXX", path);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* A new empty file of template tmpl, with the mode a plain fopen would
 * give it (mkstemp's is 0600).  Returns 0 or -1 with errno set. */
static int make_tmp(char *tmpl)
{
    mode_t mask = umask(0);
    int fd;
    umask(mask);
    if ((fd = mkstemp(tmpl)) < 0)
        return -1;
    fchmod(fd, 0666 & ~mask);
    if (close(fd) != 0) {
        int e = errno;
        unlink(tmpl);
        errno = e;
        return -1;
    }
    return 0;
}

int sidefile_check(struct sidefile *f, const char *opt, const char *path,
                   char *err, size_t errlen)
{
    struct stat sb;
    char probe[PATH_MAX];

    memset(f, 0, sizeof *f);
    f->opt = opt;
    f->path = path;
    if (!*path || path[strlen(path) - 1] == '/')
        return failf(err, errlen, f, "is not a file name", NULL);
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return failf(err, errlen, f, "cannot write", strerror(EISDIR));
        if (!S_ISREG(sb.st_mode))
            return 0;     /* a device or a pipe: written directly */
    }
    if (tmp_name(path, probe, sizeof probe) != 0)
        return failf(err, errlen, f, "path too long", NULL);
    if (make_tmp(probe) != 0)
        return failf(err, errlen, f, "cannot write", strerror(errno));
    unlink(probe);
    return 0;
}

int sidefile_begin(struct sidefile *f, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(f->path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        snprintf(f->tmp, sizeof f->tmp, "%s", f->path);
        return 0;
    }
    if (tmp_name(f->path, f->tmp, sizeof f->tmp) != 0)
        return failf(err, errlen, f, "path too long", NULL);
    if (make_tmp(f->tmp) != 0)
        return failf(err, errlen, f, "cannot write", strerror(errno));
    f->staged = 1;
    return 0;
}

int sidefile_commit(struct sidefile *f, char *err, size_t errlen)
{
    if (!f->staged)
        return 0;
    if (rename(f->tmp, f->path) != 0) {
        int e = errno;
        sidefile_abort(f);
        return failf(err, errlen, f, "cannot move into place", strerror(e));
    }
    f->staged = 0;
    return 0;
}

void sidefile_abort(struct sidefile *f)
{
    if (f->staged)
        unlink(f->tmp);
    f->staged = 0;
}
