/*
 * staging.h -- all-or-nothing output for the exactgeo tool: the dataset is
 * written in a staging folder next to the destination (same file system)
 * and renamed into place only when the run succeeded, so that a failed
 * run leaves no half-written output and touches no existing file.
 */
#ifndef XG_STAGING_H
#define XG_STAGING_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct staging {
    char dst[PATH_MAX];       /* the destination as given */
    char dstdir[PATH_MAX];    /* its folder */
    char dir[PATH_MAX];       /* the staging folder, "" when none */
    char path[PATH_MAX];      /* where to create / open the dataset */
    char **old;               /* files of the dataset replaced (CSL) */
};

/* Makes the staging folder for dst, ".NAME.exactgeo-PID-XXXXXX" beside it
 * (NAME: dst's file name, PID: this process).  When `copy` (append) and
 * dst exists, the files of the existing dataset are copied into it
 * first; when `replace` (overwrite), they are remembered so that the
 * commit removes those the new dataset does not replace.  When dst is a
 * folder (a Shapefile folder), the dataset's files are only those of the
 * output layer `layer` (staging_layer_file): nothing else in the folder is
 * copied, replaced or removed.  Returns 0 or -1 with a message in err. */
int staging_begin(struct staging *s, const char *dst, const char *layer,
                  int copy, int replace, char *err, size_t errlen);

/* No staging: the dataset is written at path directly (standard output,
 * which cannot be staged); commit and abort then do nothing. */
void staging_direct(struct staging *s, const char *path);

/* After the dataset was created at s->path, before any input is read:
 * -1 with a message when DST exists and is a folder but the format made
 * a file there (or nothing yet: drivers that write a folder make it when
 * the dataset is created; a file may come later), or DST is a file and
 * the format made a folder: -overwrite replaces a file by a file, and
 * never replaces a folder nor a file by a folder.  format: the driver's
 * name, for the message.  0 otherwise. */
int staging_check_kind(const struct staging *s, const char *format,
                       char *err, size_t errlen);

/* Moves the staged files into place and removes the staging folder.
 * Fails when the driver wrote nothing at s->path (a driver that keeps
 * the dataset in memory or elsewhere): nothing would be in place. */
int staging_commit(struct staging *s, char *err, size_t errlen);

/* Removes the staging folders of dst left by earlier runs that died (a
 * hard kill, a crash): folders beside dst named exactly as staging_begin
 * names them, owned by this user, whose process no longer exists.  A
 * live run's folder and anything else are left alone.  Each removal is
 * reported on log as a warning line (log may be NULL). */
void staging_sweep(const char *dst, FILE *log);

/* Non-zero when the file name `name` belongs to the Shapefile layer
 * `layer` or to its overlaps layer: LAYER.EXT or LAYER_lines.EXT, EXT a
 * Shapefile component (shp, shx, dbf, prj, cpg, indexes; any case). */
int staging_layer_file(const char *name, const char *layer);

/* Removes the staging folder and everything in it (any time; idempotent). */
void staging_abort(struct staging *s);

#endif
