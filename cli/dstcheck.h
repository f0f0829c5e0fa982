/*
 * dstcheck.h -- the exactgeo tool refuses, before any work, a DST whose
 * writing would change an input: DST is an input's file (through any
 * path: links, "..", another name of the same file), DST is a folder
 * that holds an input's file at any depth, or DST is a Shapefile whose
 * files (NAME.shp, NAME.dbf, ..., NAME_lines.*) would replace an input's.
 */
#ifndef XG_DSTCHECK_H
#define XG_DSTCHECK_H

#include <stddef.h>

/* Checks dst against the n inputs paths[k], called names[k] in messages
 * ("A").  An input's files are its path and, where GDAL opens it, its
 * dataset's file list (GDALGetFileList: a Shapefile's .dbf, .shx, ...).
 * Returns 0, or -1 with a one-line message in err. */
int dstcheck(const char *dst, const char *const paths[],
             const char *const names[], int n, char *err, size_t errlen);

#endif
