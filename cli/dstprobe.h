/*
 * dstprobe.h -- what DST's format does with what a run writes, asked of
 * its driver before any input is read: a small dataset of DST's driver,
 * file name and creation options is written in memory (/vsimem/) and
 * read back.  A driver that cannot write in memory (no
 * GDAL_DCAP_VIRTUALIO: the database drivers) is not asked.
 */
#ifndef XG_DSTPROBE_H
#define XG_DSTPROBE_H

#include <stddef.h>
#include <gdal.h>

/* The files that drv writes for a dataset named like dst (its file
 * name) holding a layer `layer` of one point (creation options dsco,
 * lco): their names relative to dst's folder ("x.gml", "x.xsd"; a
 * folder dataset gives its own name and its files, "x", "x/l.shp").
 * CSL, the caller frees it; NULL when they cannot be known. */
char **dstprobe_files(GDALDriverH drv, const char *dst, const char *layer,
                      char **dsco, char **lco);

/* 0 when drv holds a TIN: a TIN Z and a TIN of two triangles apart, each
 * written as the only feature of a layer `layer` of its type (options
 * dsco, lco), read back as the same geometry (type, triangles and
 * coordinates, byte for byte in WKB); also 0 when drv cannot be asked.
 * Else -1 with a one-line message in err: what came back, or GDAL's
 * reason for failing to write it. */
int dstprobe_tin(GDALDriverH drv, const char *dst, const char *layer,
                 char **dsco, char **lco, char *err, size_t errlen);

#endif
