/*
 * stage.h -- all-or-nothing output for the exactgeo tool: the dataset is
 * written in a staging folder next to the destination (same file system)
 * and renamed into place only when the run succeeded, so that a failed
 * run leaves no half-written output and touches no existing file.
 */
#ifndef XG_STAGE_H
#define XG_STAGE_H

#include <limits.h>
#include <stddef.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct stage {
    char dst[PATH_MAX];       /* the destination as given */
    char dstdir[PATH_MAX];    /* its folder */
    char dir[PATH_MAX];       /* the staging folder, "" when none */
    char path[PATH_MAX];      /* where to create / open the dataset */
    char **old;               /* files of the dataset replaced (CSL) */
};

/* Makes the staging folder for dst.  When `copy` (append) and dst
 * exists, the files of the existing dataset are copied into it first;
 * when `replace` (overwrite), they are remembered so that the commit
 * removes those the new dataset does not replace.  Returns 0 or -1 with
 * a message in err. */
int stage_begin(struct stage *s, const char *dst, int copy, int replace,
                char *err, size_t errlen);

/* Moves the staged files into place and removes the staging folder. */
int stage_commit(struct stage *s, char *err, size_t errlen);

/* Removes the staging folder and everything in it (any time; idempotent). */
void stage_abort(struct stage *s);

#endif
