/*
 * warn.c -- warnings: xgo__warn, and the cap on repeated ones
 * (xgo__cap_begin, xgo__cap_end): the one place where a warning of the
 * reader, of the run or of GDAL itself is shown or counted.  A DXF
 * wireframe of 5,558 triangles read with -skip-invalid gave 5,558 lines
 * "surface is not closed", and as many of GDAL's own "Non closed ring
 * detected"; now ten of each, then "... and 5548 more like it".
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include "xg_grow.h"
#include "xgo_internal.h"

void xgo__warn(int quiet, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    if (quiet)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    CPLError(CE_Warning, CPLE_AppDefined, "%s", buf);
}

/* msg with every run of digits made one '#': the kind of a message, the
 * same for the same warning about another feature, vertex or count.
 * NULL when out of memory. */
static char *kind_key(const char *msg)
{
    char *key = malloc(strlen(msg) + 1), *o = key;
    const char *p;
    if (!key)
        return NULL;
    for (p = msg; *p; p++) {
        if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)p[1]))
                p++;
            *o++ = '#';
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return key;
}

/* The kind of msg in c (added when new and there is room), or -1 for the
 * kinds past the table, which share c->other. */
static int kind_of(struct xgo_cap *c, const char *msg)
{
    char *key = kind_key(msg);
    size_t k;
    if (!key)
        return -1;
    for (k = 0; k < c->nkinds; k++)
        if (strcmp(c->kind[k].key, key) == 0) {
            free(key);
            return (int)k;
        }
    if (c->nkinds == XGO_CAP_KINDS) {
        free(key);
        return -1;
    }
    c->kind[c->nkinds].key = key;
    c->kind[c->nkinds].n = 0;
    return (int)c->nkinds++;
}

/* The pushed handler: each message counted by its kind, the first
 * XGO_CAP_SHOWN of a kind kept, in order, to be passed on at the end. */
static void CPL_STDCALL cap_handler(CPLErr cls, CPLErrorNum no,
                                    const char *msg)
{
    struct xgo_cap *c = CPLGetErrorHandlerUserData();
    struct xgo_cap_msg *m;
    int k = kind_of(c, msg);
    uint64_t *n = k < 0 ? &c->other : &c->kind[k].n;
    if (++*n > XGO_CAP_SHOWN)
        return;
    if (xg__grow_array((void **)&c->q, &c->qcap, c->nq + 1, sizeof *c->q))
        return;
    m = &c->q[c->nq];
    if (!(m->text = strdup(msg)))
        return;
    m->cls = cls;
    m->no = no;
    m->kind = k;
    m->last = *n == XGO_CAP_SHOWN;
    c->nq++;
}

void xgo__cap_begin(struct xgo_cap *c)
{
    memset(c, 0, sizeof *c);
    CPLPushErrorHandlerEx(cap_handler, c);
    /* debug messages (CPL_DEBUG) go on to the handler below, at once */
    CPLSetCurrentErrorHandlerCatchDebug(FALSE);
    c->on = 1;
}

void xgo__cap_end(struct xgo_cap *c)
{
    CPLErr cls = CPLGetLastErrorType();
    CPLErrorNum no = CPLGetLastErrorNo();
    char *last;
    size_t i;
    if (!c->on)
        return;
    last = strdup(CPLGetLastErrorMsg());
    CPLPopErrorHandler();
    c->on = 0;
    for (i = 0; i < c->nq; i++) {
        const struct xgo_cap_msg *m = &c->q[i];
        uint64_t n = m->kind < 0 ? c->other : c->kind[m->kind].n;
        CPLError((CPLErr)m->cls, m->no, "%s", m->text);
        if (m->last && n > XGO_CAP_SHOWN)
            CPLError((CPLErr)m->cls, CPLE_AppDefined,
                     "... and %llu more %s", (unsigned long long)(n -
                     XGO_CAP_SHOWN), m->kind < 0 ? "of other kinds"
                                                 : "like it");
        free(m->text);
    }
    /* as the work left it, for callers that look at the last error */
    CPLErrorSetState(cls, no, last ? last : "");
    free(last);
    free(c->q);
    for (i = 0; i < c->nkinds; i++)
        free(c->kind[i].key);
    memset(c, 0, sizeof *c);
}
