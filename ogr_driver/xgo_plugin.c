/* xgo_plugin.c -- the EXACTGEO driver's logic (see xgo_plugin.h). */
/* realpath() is XSI; VSIStatBufL is struct stat64. */
#define _XOPEN_SOURCE 700
#define _LARGEFILE64_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include "xgo_internal.h"
#include "xgo_plugin.h"

/* Frees what pj holds (the job's options, the parsed text, the key)
 * and zeroes it; NULL is a no-op. */
void xgo_pjob_free(struct xgo_pjob *pj)
{
    if (!pj)
        return;
    xgo_options_free(&pj->job);
    xgo_conn_free(&pj->conn);
    free(pj->key);
    memset(pj, 0, sizeof *pj);
}

const char *xgo_pjob_layer_name(const struct xgo_pjob *pj)
{
    return pj->conn.nln && *pj->conn.nln ? pj->conn.nln
                                         : xgo_default_layer(pj->job.op);
}

/* Appends to f one line per file of the opened input ds: its canonical
 * path, size, modification time and inode, then the same for its SQLite
 * "-wal" journal when there is one (where a GeoPackage's recent edits
 * live).  Returns 0, or -1 when the input has no files (a database
 * connection): its state cannot be told, so its runs are not shared. */
static int stamp_files(FILE *f, GDALDatasetH ds)
{
    char **files = GDALGetFileList(ds);
    int i, n = CSLCount(files);
    for (i = 0; i < n; i++) {
        char real[PATH_MAX], wal[PATH_MAX + 8];
        struct stat sb;
        VSIStatBufL vb;
        if (realpath(files[i], real) && stat(real, &sb) == 0) {
            fprintf(f, "file %s %lld %lld.%09ld %llu\n", real,
                    (long long)sb.st_size, (long long)sb.st_mtim.tv_sec,
                    sb.st_mtim.tv_nsec, (unsigned long long)sb.st_ino);
            snprintf(wal, sizeof wal, "%s-wal", real);
            if (stat(wal, &sb) == 0)
                fprintf(f, "wal %lld %lld.%09ld %llu\n",
                        (long long)sb.st_size, (long long)sb.st_mtim.tv_sec,
                        sb.st_mtim.tv_nsec, (unsigned long long)sb.st_ino);
        } else if (VSIStatL(files[i], &vb) == 0) {  /* /vsizip/ and co. */
            fprintf(f, "vsi %s %lld %lld\n", files[i], (long long)vb.st_size,
                    (long long)vb.st_mtime);
        } else {
            fprintf(f, "name %s\n", files[i]);
        }
    }
    CSLDestroy(files);
    return n > 0 ? 0 : -1;
}

/* Starts pj->key with the job's keys (after the open options), each
 * value length-prefixed so that no two jobs give the same text.  The
 * input files are added by stamp_files.  NULL when out of memory. */
static FILE *key_start(struct xgo_pjob *pj, size_t *len)
{
    const struct xgo_conn *c = &pj->conn;
    const char *const names[] = {"op", "a", "al", "awhere", "acopy", "b",
                                 "bl", "bwhere", "bcopy", "engine", "grid",
                                 "threads", "gpus", "nln", "outside",
                                 "skip_invalid", "verify", "tin", "oo",
                                 "aoo", "boo", "bgroup", "regions"};
    const char *const vals[] = {c->op, c->src[0], c->layer[0], c->where[0],
                                c->copy[0], c->src[1], c->layer[1],
                                c->where[1], c->copy[1], c->engine, c->grid,
                                c->threads, c->gpus, c->nln, c->outside,
                                c->skip_invalid, c->verify, c->tin,
                                c->oo[0], c->oo[1], c->oo[2], c->bgroup,
                                c->regions};
    size_t i;
    FILE *f = open_memstream(&pj->key, len);
    if (!f)
        return NULL;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (vals[i])
            fprintf(f, "%s=%zu:%s\n", names[i], strlen(vals[i]), vals[i]);
    return f;
}

int xgo_pjob_open(struct xgo_pjob *pj, const char *name, int is_job,
                  const char *engine, const char *grid, char *err,
                  size_t errlen)
{
    struct xgo_job *job = &pj->job;
    struct xgo_src src;
    FILE *key;
    size_t keylen = 0;
    int rc, i, shared = 1;

    rc = is_job ? xgo_conn_read_job(name, &pj->conn, err, errlen)
                : xgo_conn_parse(name, &pj->conn, err, errlen);
    if (rc != XG_OK)
        return rc;
    if (rc == XG_OK && engine && *engine)
        rc = xgo_conn_set(&pj->conn, "engine", engine, err, errlen);
    if (rc == XG_OK && grid && *grid)
        rc = xgo_conn_set(&pj->conn, "grid", grid, err, errlen);
    if (rc == XG_OK)
        rc = xgo_conn_apply(&pj->conn, job, err, errlen);
    if (rc != XG_OK) {
        xgo_pjob_free(pj);
        return rc;
    }
    job->quiet = 0;

    /* Open both inputs now, as the tool does first, so that a missing
     * file, layer or field fails the open rather than the first read;
     * and note the state of their files in the key. */
    key = key_start(pj, &keylen);
    for (i = 0; i < job->op->ninputs && rc == XG_OK; i++) {
        memset(&src, 0, sizeof src);
        rc = xgo__src_open(&src, i == 0 ? &job->a : &job->b, i == 0 ? "A" : "B",
                           err, errlen);
        if (rc == XG_OK && key && stamp_files(key, src.ds) != 0)
            shared = 0;
        xgo__src_close(&src);
    }
    if (key && fclose(key) != 0)
        shared = 0;
    if (!key || !shared) {
        free(pj->key);
        pj->key = NULL;
    }
    if (rc != XG_OK)
        xgo_pjob_free(pj);
    return rc;
}

int xgo_pjob_run(const struct xgo_pjob *pj, GDALProgressFunc pf, void *pa,
                 struct xgo_kept **out, char *err, size_t errlen)
{
    struct xgo_job job = pj->job;
    struct xg_stats st;

    job.progress = pf;
    job.progress_arg = pa;
    CPLDebug("EXACTGEO", "running job: %s of %s%s%s", pj->conn.op,
             pj->conn.src[0], pj->conn.src[1] ? " and " : "",
             pj->conn.src[1] ? pj->conn.src[1] : "");
    return xgo__job_keep(&job, xgo_pjob_layer_name(pj), out, &st, err,
                         errlen);
}

/* Prints GDALTermProgress's bar, 0...10...20 ... 100 - done., one tick
 * per 2.5 %, to stderr: stdout is ogrinfo's report, or ogr2ogr's own bar. */
int xgo_progress_stderr(double fraction, const char *msg, void *arg)
{
    int *last = arg, now = (int)(fraction * 40.0 + 1e-9);
    (void)msg;
    if (now > 40)
        now = 40;
    if (*last < 0)
        fputs("EXACTGEO: running the job: ", stderr);
    while (*last < now) {
        ++*last;
        if (*last % 4 == 0)
            fprintf(stderr, "%d", *last / 4 * 10);
        else
            fputc('.', stderr);
        if (*last == 40)
            fputs(" - done.\n", stderr);
    }
    fflush(stderr);
    return TRUE;
}
