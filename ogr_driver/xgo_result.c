/* xgo_result.c -- results shared by the datasets open on one job (see
 * xgo_result.h). */
#define _POSIX_C_SOURCE 200809L  /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_multiproc.h>
#include "xgo_internal.h"
#include "xgo_result.h"

enum { RUNNING, DONE, FAILED };

struct xgo_result {
    char *key;                /* NULL: not shared */
    int refs;                 /* under g_lock */
    int linked;               /* on g_list (under g_lock) */
    struct xgo_result *next;  /* g_list */
    CPLMutex *ready;          /* held by the running thread until the
                                 state is DONE or FAILED */
    int state, rc;
    char err[1024];
    struct xgo_kept *kept;    /* owned: the records, features made
                                 when read */
};

/* The results that datasets hold now.  Global because GDAL's datasets
 * are: two opens of one job in one process, from any thread, must find
 * each other.  g_lock guards g_list, every refs and every linked. */
static CPLMutex *g_lock;
static struct xgo_result *g_list;

/* Takes r out of g_list if it is there; the caller holds g_lock. */
static void unlink_locked(struct xgo_result *r)
{
    struct xgo_result **p;
    if (!r->linked)
        return;
    for (p = &g_list; *p; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            break;
        }
    r->linked = 0;
}

/* Frees r and its records; r must be unlinked and its last reference
 * gone (no lock is taken). */
static void destroy(struct xgo_result *r)
{
    xgo__kept_free(r->kept);
    if (r->ready)
        CPLDestroyMutex(r->ready);
    free(r->key);
    free(r);
}

void xgo_result_release(struct xgo_result *r)
{
    int last;
    if (!r)
        return;
    CPLCreateOrAcquireMutex(&g_lock, 1000.0);
    last = --r->refs == 0;
    if (last)
        unlink_locked(r);
    CPLReleaseMutex(g_lock);
    if (last)
        destroy(r);
}

/* Runs pj, its records kept in r. */
static int run(struct xgo_result *r, const struct xgo_pjob *pj,
               GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    return xgo_pjob_run(pj, pf, pa, &r->kept, err, errlen);
}

/* Waits for the run of r (another thread's) to end; returns its code. */
static int wait_for(struct xgo_result *r, char *err, size_t errlen)
{
    int state;
    CPLAcquireMutex(r->ready, 1e9);
    state = r->state;
    CPLReleaseMutex(r->ready);
    if (state == RUNNING)   /* the mutex is recursive: this thread runs it */
        return xgo__fail(err, errlen, XG_EINVAL, "the job reads its own "
                         "result (an input opens the same job)");
    if (state == FAILED) {
        xgo__fail(err, errlen, r->rc, "%s", r->err);
        return r->rc;
    }
    CPLDebug("EXACTGEO", "sharing the result of a run of the same job");
    return XG_OK;
}

/* The result in g_list for the job key, or NULL (also when key is NULL:
 * a job without a key is never shared); the caller holds g_lock. */
static struct xgo_result *find_locked(const char *key)
{
    struct xgo_result *r;
    for (r = g_list; key && r; r = r->next)
        if (strcmp(r->key, key) == 0)
            return r;
    return NULL;
}

int xgo_result_get(const struct xgo_pjob *pj, GDALProgressFunc pf, void *pa,
                   struct xgo_result **out, char *err, size_t errlen)
{
    struct xgo_result *r;
    int rc;

    *out = NULL;
    if (!CPLCreateOrAcquireMutex(&g_lock, 1000.0))
        return xgo__fail(err, errlen, XG_ENOMEM, "cannot create a mutex");
    r = find_locked(pj->key);
    if (r) {
        r->refs++;
        CPLReleaseMutex(g_lock);
        rc = wait_for(r, err, errlen);
        if (rc != XG_OK) {
            xgo_result_release(r);
            return rc;
        }
        *out = r;
        return XG_OK;
    }

    /* First open of this job: publish it as running, then run it with
     * r->ready held, outside g_lock (other jobs go on meanwhile). */
    r = calloc(1, sizeof *r);
    if (r && pj->key && !(r->key = strdup(pj->key))) {
        free(r);
        r = NULL;
    }
    if (r && !(r->ready = CPLCreateMutex())) {  /* returned acquired */
        free(r->key);
        free(r);
        r = NULL;
    }
    if (!r) {
        CPLReleaseMutex(g_lock);
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    }
    r->refs = 1;
    r->state = RUNNING;
    if (r->key) {
        r->next = g_list;
        g_list = r;
        r->linked = 1;
    }
    CPLReleaseMutex(g_lock);

    rc = run(r, pj, pf, pa, err, errlen);
    if (rc != XG_OK) {
        /* Not to be found by later opens: they run it again. */
        CPLCreateOrAcquireMutex(&g_lock, 1000.0);
        unlink_locked(r);
        CPLReleaseMutex(g_lock);
        r->rc = rc;
        snprintf(r->err, sizeof r->err, "%s", err && errlen ? err : "");
    }
    r->state = rc == XG_OK ? DONE : FAILED;
    CPLReleaseMutex(r->ready);
    if (rc != XG_OK) {
        xgo_result_release(r);
        return rc;
    }
    *out = r;
    return XG_OK;
}

OGRFeatureDefnH xgo_result_defn(const struct xgo_result *r)
{
    return xgo__kept_defn(r->kept);
}

size_t xgo_result_count(const struct xgo_result *r)
{
    return xgo__kept_count(r->kept);
}

OGRFeatureH xgo_result_feature(const struct xgo_result *r, size_t i)
{
    return xgo__kept_feature(r->kept, i);
}

int xgo_result_extent(const struct xgo_result *r, OGREnvelope *env)
{
    return xgo__kept_extent(r->kept, env);
}
