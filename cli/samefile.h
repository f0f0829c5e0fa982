/*
 * samefile.h -- whether two paths name one file, or one place in a
 * folder, whether or not a file is there yet: what the checks of DST and
 * of the side files (dstcheck.c) compare.  A "place" is the real path of
 * a path's folder (links and ".." resolved as far as the folder exists,
 * the rest as written) joined to its file name; writing a file by
 * renaming onto a path changes exactly the file at its place.
 */
#ifndef XG_SAMEFILE_H
#define XG_SAMEFILE_H

#include <limits.h>
#include <stddef.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The place of path into out (len bytes): "/real/folder/name"; a path
 * whose last part is ".", ".." or "/" gives that folder's real path.
 * Trailing slashes are ignored.  Returns 0, or -1 when it does not fit. */
int samefile_place(const char *path, char *out, size_t len);

/* The real path of path (realpath) when it exists, else its place.
 * Returns 0 or -1 as samefile_place. */
int samefile_real(const char *path, char *out, size_t len);

/* Non-zero when the places a and b (samefile_place's) are one: equal;
 * or both exist and are one file (device and inode: a hard link, another
 * name of a folder); or one folder holds both under names equal but for
 * the case of their letters, and that folder ignores case (asked of the
 * folder itself, by a temporary file). */
int samefile_same(const char *a, const char *b);

/* Non-zero when the place p lies in the folder at place dir, at any
 * depth (samefile_same on each of p's folders). */
int samefile_under(const char *p, const char *dir);

/* The folder and the file name of a place, split at its last slash
 * (dir gets "/" for a place at the root).  dir and name have PATH_MAX
 * bytes. */
void samefile_split(const char *place, char *dir, char *name);

#endif
