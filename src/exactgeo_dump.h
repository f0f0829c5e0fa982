/*
 * exactgeo_dump.h -- the compact dump of two sets, for machines without
 * GDAL.
 * Part of the public API: exactgeo.h includes it, and a program
 * includes exactgeo.h (names, visibility and C linkage come from there).
 */
#ifndef EXACTGEO_DUMP_H
#define EXACTGEO_DUMP_H

#ifndef EXACTGEO_H
#error "include exactgeo.h, which includes exactgeo_dump.h"
#endif

/* ------------------------------------------------------------------ */
/* Compact dump of two sets, for machines without GDAL. */

/* Writes a and b to path, in the format their kinds call for: A
 * segments with B triangles (segtri's, marker "XGDUMP01"), with B
 * segments (redblue's, "XGDUMP2S"), or A points with B triangles
 * (inside's, "XGDUMP3P"); an empty set that was never pushed into fits
 * any.  Returns XG_OK, XG_EINVAL for other kinds, or XG_EIO; detail in
 * ctx. */
int xg_dump_write(struct xg_ctx *ctx, const char *path,
                  const struct xg_set *a, const struct xg_set *b);
/* Reads a dump of any of these formats into a and b (which must be zeroed; their
 * kinds say which format it was); caller frees both. */
int xg_dump_read(struct xg_ctx *ctx, const char *path, struct xg_set *a,
                 struct xg_set *b);

#endif /* EXACTGEO_DUMP_H */
