/*
 * stream.c -- see stream.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include "stream.h"

/* Formats that write their file front to back, never seeking back. */
static const char *const streamable[] = {"GeoJSON", "GeoJSONSeq", "CSV",
                                         NULL};

static FILE *data;              /* the real standard output */

int stream_dst(const char *dst, char *err, size_t errlen)
{
    if (strcmp(dst, "/vsistdout/") == 0 || strcmp(dst, "/vsistdout") == 0)
        return 1;
    if (strncmp(dst, "/vsi", 4) != 0)
        return 0;
    snprintf(err, errlen, "%s: cannot write to a /vsi path (the output is "
             "staged beside DST and renamed into place); write a file and "
             "copy it, or use /vsistdout/ with -f GeoJSON", dst);
    return -1;
}

int stream_driver_ok(const char *driver, char *err, size_t errlen)
{
    int k;
    for (k = 0; streamable[k]; k++)
        if (EQUAL(driver, streamable[k]))
            return 0;
    snprintf(err, errlen, "/vsistdout/: the %s format cannot be streamed; "
             "use -f GeoJSON, -f GeoJSONSeq or -f CSV", driver);
    return -1;
}

int stream_begin(char *err, size_t errlen)
{
    int fd;
    fflush(stdout);
    fd = dup(STDOUT_FILENO);
    if (fd < 0 || !(data = fdopen(fd, "wb")) ||
        dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        snprintf(err, errlen, "/vsistdout/: %s", strerror(errno));
        return -1;
    }
    VSIStdoutSetRedirection(fwrite, data);
    return 0;
}

int stream_end(char *err, size_t errlen)
{
    if (!data)
        return 0;
    if (fflush(data) != 0 || ferror(data)) {
        snprintf(err, errlen, "/vsistdout/: write failed: %s",
                 strerror(errno));
        return -1;
    }
    return 0;
}
