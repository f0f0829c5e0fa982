/*
 * sidefile.h -- the tool's side outputs (--stats, --dump).  Each path is
 * checked before any work, so that a typo costs nothing; the file is
 * written under a temporary name next to its place and renamed into place
 * only once the run has succeeded, so that a failed run leaves an existing
 * file as it was.  A path that exists and is not a regular file (a device
 * such as /dev/stdout, a FIFO) is written directly: there is nothing to
 * replace.
 */
#ifndef XG_SIDEFILE_H
#define XG_SIDEFILE_H

#include <limits.h>
#include <stddef.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct sidefile {
    const char *opt;          /* "--stats", for messages */
    const char *path;         /* as given; NULL: no such output */
    char tmp[PATH_MAX];       /* where to write (after sidefile_begin) */
    int staged;               /* tmp is our temporary file */
};

/* Checks, creating nothing that stays: path names a file, is not a
 * folder, and its folder exists and takes a new file (one is made and
 * removed).  That it is neither DST nor an input is dstcheck_side's.
 * Returns 0 or -1 with a one-line message in err. */
int sidefile_check(struct sidefile *f, const char *opt, const char *path,
                   char *err, size_t errlen);

/* Chooses f->tmp: a new temporary file next to path, or path itself when
 * it is not a regular file.  Returns 0 or -1 with a message. */
int sidefile_begin(struct sidefile *f, char *err, size_t errlen);

/* Renames the temporary file onto path.  Returns 0 or -1. */
int sidefile_commit(struct sidefile *f, char *err, size_t errlen);

/* Removes the temporary file, if any (idempotent). */
void sidefile_abort(struct sidefile *f);

#endif
