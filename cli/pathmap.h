/*
 * pathmap.h -- messages name the user's paths.  The tool works under
 * hidden names (the staging folder next to DST, temporary side files next
 * to --stats and --dump); whatever GDAL or the job says about those names
 * is rewritten to the names the user gave before it is printed.
 */
#ifndef XG_PATHMAP_H
#define XG_PATHMAP_H

#include <limits.h>
#include <stddef.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#define PATHMAP_MAX 8

struct pathmap {
    int n;
    struct {
        char from[PATH_MAX];
        char to[PATH_MAX];
    } p[PATHMAP_MAX];
};

/* Registers: every `from` in a message becomes `to`.  Pairs are tried in
 * the order added, so add a longer name before a prefix of it.  An empty
 * or too long (PATH_MAX) name, or a pair past PATHMAP_MAX, is ignored. */
void pathmap_add(struct pathmap *m, const char *from, const char *to);

/* Registers the staging folder stg_dir, where the dataset stg_path stands
 * for dst: stg_path becomes dst, and any other file in stg_dir the file
 * of that name next to dst (a Shapefile's NAME_lines.shp). */
void pathmap_add_staging(struct pathmap *m, const char *stg_dir,
                         const char *stg_path, const char *dst);

/* msg with every registered name replaced, into out (len > 0 bytes,
 * truncated to fit). */
void pathmap_apply(const struct pathmap *m, const char *msg, char *out,
                   size_t len);

#endif
