/*
 * dstcheck.h -- what the exactgeo tool writes never changes what it must
 * not; checked before any input is read:
 *  - DST is a file or a folder, not a GDAL connection string
 *    ("GPKG:x.gpkg:layer", "PG:dbname=...");
 *  - writing DST changes no input: DST is not an input's file (through
 *    any path: links, "..", another name of the same file), not a folder
 *    that holds an input's file at any depth, not a Shapefile whose files
 *    (NAME.shp, NAME.dbf, ..., NAME_lines.*) would replace an input's;
 *  - a side file (--stats, --dump) is neither DST nor a file of DST's
 *    dataset (its Shapefile components, its SQLite journals, a file its
 *    format writes beside it, anything in a folder DST), whether or not
 *    DST exists yet, nor a file of an input.
 * Paths are compared as places (samefile.h).
 */
#ifndef XG_DSTCHECK_H
#define XG_DSTCHECK_H

#include <stddef.h>
#include <gdal.h>
#include "samefile.h"

/* The inputs of a run and the files each is made of. */
struct dstcheck_inputs {
    int n;
    const char *path[2];      /* as given */
    const char *name[2];      /* "A", "B": for messages */
    char **files[2];          /* CSL: the path and its dataset's files */
};

/* What DST will write. */
struct dstcheck_dst {
    const char *dst;          /* as given */
    char place[PATH_MAX];     /* samefile_place(dst) */
    char real[PATH_MAX];      /* samefile_real(dst) */
    int exists, isdir;
    char **beside;            /* CSL: places of further files its format
                                 writes beside it (dstcheck_dst_beside) */
    char **files;             /* CSL: the files of the existing dataset */
};

/* 0 when dst is not a GDAL connection string: "DRIVER:..." or a
 * driver's connection prefix ("PG:").  Else -1 with a one-line message
 * in err saying what to write instead ("-f GPKG x.gpkg -nln layer"). */
int dstcheck_name(const char *dst, char *err, size_t errlen);

/* 0 when the driver drv writes its datasets as files (it writes through
 * GDAL's file layer, GDAL_DCAP_VIRTUALIO, or has a file extension); else
 * -1 with a message in err: a database's or memory's driver (Memory,
 * PostgreSQL) would leave nothing in place of DST. */
int dstcheck_format(GDALDriverH drv, char *err, size_t errlen);

/* Finds the files of the n inputs paths[k], called names[k] in
 * messages: the path, the file of a "DRIVER:file:..." path, its
 * dataset's file list where GDAL opens it (GDALGetFileList: a
 * Shapefile's .dbf, .shx, ...), and for an OGR VRT the files of the
 * sources it names (at any depth).  An EXACTGEO job is not opened:
 * opening it runs the job.  Free with dstcheck_inputs_free. */
void dstcheck_inputs_find(struct dstcheck_inputs *in,
                          const char *const paths[],
                          const char *const names[], int n);
void dstcheck_inputs_free(struct dstcheck_inputs *in);

/* Describes DST (and, when it exists and is not a folder, lists its
 * dataset's files).  Returns 0, or -1 with a message (a path too long).
 * Free with dstcheck_dst_free. */
int dstcheck_dst_init(struct dstcheck_dst *t, const char *dst, char *err,
                      size_t errlen);

/* Adds the files names (CSL of names relative to DST's folder, taken
 * over: dstprobe_files) that DST's format writes beside it. */
void dstcheck_dst_beside(struct dstcheck_dst *t, char **names);

void dstcheck_dst_free(struct dstcheck_dst *t);

/* Checks DST against the inputs.  Returns 0, or -1 with a one-line
 * message in err. */
int dstcheck(const struct dstcheck_dst *t, const struct dstcheck_inputs *in,
             char *err, size_t errlen);

/* Checks the side file path of option opt ("--stats") against DST (t;
 * NULL when DST is standard output) and the inputs.  A path that names
 * no file ("", "x/") is left to sidefile_check.  Returns 0, or -1 with a
 * one-line message in err. */
int dstcheck_side(const char *opt, const char *path,
                  const struct dstcheck_dst *t,
                  const struct dstcheck_inputs *in, char *err,
                  size_t errlen);

#endif
