/*
 * fail.c -- xgo__fail, the one way ogr_driver/ reports an error: a line
 * into the caller's buffer, the code back.  No GDAL call, so that the
 * option parser's test (tests/conn_t) links it without GDAL.
 */
#include <stdarg.h>
#include <stdio.h>
#include "xgo_internal.h"

int xgo__fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}
