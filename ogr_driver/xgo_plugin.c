/* xgo_plugin.c -- the EXACTGEO driver's logic (see xgo_plugin.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "xgo_internal.h"
#include "xgo_plugin.h"

void xgo_pjob_free(struct xgo_pjob *pj)
{
    if (!pj)
        return;
    xgo_conn_free(&pj->conn);
    CSLDestroy(pj->fields[0]);
    CSLDestroy(pj->fields[1]);
    memset(pj, 0, sizeof *pj);
}

const char *xgo_pjob_layer_name(const struct xgo_pjob *pj)
{
    return pj->conn.nln && *pj->conn.nln ? pj->conn.nln : XGO_PLUGIN_LAYER;
}

/* Fills in from the text's keys for input i (0: A, 1: B). */
static int set_input(struct xgo_pjob *pj, int i, struct xgo_input *in,
                     char *err, size_t errlen)
{
    const char *copy = pj->conn.copy[i];
    in->path = pj->conn.src[i];
    in->layer = pj->conn.layer[i] && *pj->conn.layer[i] ? pj->conn.layer[i]
                                                        : NULL;
    in->where = pj->conn.where[i] && *pj->conn.where[i] ? pj->conn.where[i]
                                                        : NULL;
    in->layer_opt = i == 0 ? "al" : "bl";
    in->copy = XGO_COPY_NONE;
    in->fields = NULL;
    if (!copy || !*copy)
        return XG_OK;
    if (strcmp(copy, "all") == 0) {
        in->copy = XGO_COPY_ALL;
        return XG_OK;
    }
    pj->fields[i] = CSLTokenizeString2(copy, ",", CSLT_STRIPLEADSPACES |
                                                      CSLT_STRIPENDSPACES);
    if (CSLCount(pj->fields[i]) == 0)
        return xgo__fail(err, errlen, XG_EINVAL, "empty %s field list",
                         i == 0 ? "acopy" : "bcopy");
    in->copy = XGO_COPY_LIST;
    in->fields = (const char *const *)pj->fields[i];
    return XG_OK;
}

int xgo_pjob_open(struct xgo_pjob *pj, const char *name, int is_job,
                  const char *engine, const char *grid, char *err,
                  size_t errlen)
{
    struct xgo_job *job = &pj->job;
    struct xgo_src src;
    int rc, i;

    rc = is_job ? xgo_conn_read_job(name, &pj->conn, err, errlen)
                : xgo_conn_parse(name, &pj->conn, err, errlen);
    if (rc != XG_OK)
        return rc;
    if (rc == XG_OK && engine && *engine)
        rc = xgo_conn_set(&pj->conn, "engine", engine, err, errlen);
    if (rc == XG_OK && grid && *grid)
        rc = xgo_conn_set(&pj->conn, "grid", grid, err, errlen);
    if (rc == XG_OK)
        rc = xgo_conn_check(&pj->conn, err, errlen);
    if (rc == XG_OK)
        rc = set_input(pj, 0, &job->a, err, errlen);
    if (rc == XG_OK)
        rc = set_input(pj, 1, &job->b, err, errlen);
    if (rc != XG_OK) {
        xgo_pjob_free(pj);
        return rc;
    }
    job->op = pj->conn.op;
    job->opts.engine = pj->conn.engine ? xg_engine_parse(pj->conn.engine)
                                       : XG_ENGINE_AUTO;
    xgo_conn_grid(pj->conn.grid, job->opts.grid);
    job->threads = pj->conn.threads ? atoi(pj->conn.threads) : 0;
    job->quiet = 0;

    /* Open both inputs now, as the tool does first, so that a missing
     * file, layer or field fails the open rather than the first read. */
    for (i = 0; i < 2 && rc == XG_OK; i++) {
        memset(&src, 0, sizeof src);
        rc = xgo__src_open(&src, i == 0 ? &job->a : &job->b, i == 0 ? "A" : "B",
                           err, errlen);
        xgo__src_close(&src);
    }
    if (rc != XG_OK)
        xgo_pjob_free(pj);
    return rc;
}

int xgo_pjob_run(const struct xgo_pjob *pj, GDALDatasetH *mem, char *err,
                 size_t errlen)
{
    GDALDriverH drv = GDALGetDriverByName("Memory");
    struct xg_stats st;
    int rc;

    *mem = NULL;
    if (!drv)
        return xgo__fail(err, errlen, XG_ENOTSUP,
                         "GDAL's Memory driver is not available");
    *mem = GDALCreate(drv, xgo_pjob_layer_name(pj), 0, 0, 0, GDT_Unknown,
                      NULL);
    if (!*mem)
        return xgo__fail(err, errlen, XG_EIO, "cannot create a Memory "
                         "dataset: %s", CPLGetLastErrorMsg());
    rc = xgo_job_run(&pj->job, *mem, xgo_pjob_layer_name(pj), NULL, &st, err,
                     errlen);
    if (rc != XG_OK) {
        GDALClose(*mem);
        *mem = NULL;
    }
    return rc;
}
