/*
 * stream.h -- GDAL's /vsi paths as the exactgeo tool's DST.  /vsistdout/
 * streams the output to standard output, for the formats that can write
 * it in one pass (GeoJSON, GeoJSONSeq, CSV); it cannot be staged, so a
 * failed or interrupted run leaves a truncated stream.  Every other /vsi
 * path is refused: the all-or-nothing staging (staging.c) needs a real
 * folder beside DST.
 */
#ifndef XG_STREAM_H
#define XG_STREAM_H

#include <stddef.h>

/* 1 when dst is standard output, 0 for an ordinary path; -1 with a
 * message in err for another /vsi path. */
int stream_dst(const char *dst, char *err, size_t errlen);

/* 0 when the driver named `driver` can stream to standard output; -1
 * with a message in err otherwise. */
int stream_driver_ok(const char *driver, char *err, size_t errlen);

/* From here on, what GDAL writes to /vsistdout/ goes to standard output
 * and what the tool itself prints there (summary, progress) goes to
 * standard error.  Returns 0, or -1 with a message in err. */
int stream_begin(char *err, size_t errlen);

/* Flushes the data to standard output.  Returns 0, or -1 with a message
 * in err (a closed pipe, a full disk). */
int stream_end(char *err, size_t errlen);

#endif
