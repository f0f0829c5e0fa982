/*
 * dstcheck.c -- see dstcheck.h.  Files are compared by device and inode,
 * so that every path to a file is the same file; folders by walking up
 * from the input's real path (realpath: links and ".." resolved).
 */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "dstcheck.h"
#include "staging.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* What a DST will write. */
struct target {
    const char *dst;
    struct stat st;             /* DST itself, when it exists */
    int exists, isdir;
    struct stat dir_st;         /* its folder, when that exists */
    int dir_ok;
    char stem[PATH_MAX];        /* a Shapefile's layer name, else "" */
};

static int same(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Adds to files the file named in a "DRIVER:file[:more]" path (GDAL's
 * syntax for one part of a dataset, GPKG:x.gpkg:layer): whichever of
 * "file", "file:more", ... exists; GDAL lists no file for such paths. */
static char **prefixed_file(const char *path, char **files)
{
    const char *colon = strchr(path, ':'), *p;
    char drv[64], f[PATH_MAX];
    struct stat sb;
    if (!colon || colon - path >= (long)sizeof drv)
        return files;
    snprintf(drv, sizeof drv, "%.*s", (int)(colon - path), path);
    if (!GDALGetDriverByName(drv))
        return files;
    for (p = strchr(colon + 1, ':');; p = strchr(p + 1, ':')) {
        size_t n = p ? (size_t)(p - colon - 1) : strlen(colon + 1);
        snprintf(f, sizeof f, "%.*s", (int)n, colon + 1);
        if (stat(f, &sb) == 0 && S_ISREG(sb.st_mode))
            return CSLAddString(files, f);
        if (!p)
            return files;
    }
}

/* The files of an input: its path and its dataset's file list.  An
 * EXACTGEO job is not opened: opening it runs the job.  CSL; the caller
 * frees it. */
static char **input_files(const char *path)
{
    char **files = NULL, **list;
    struct stat sb;
    GDALDriverH drv;
    GDALDatasetH ds;
    int k;
    if (stat(path, &sb) == 0)
        files = CSLAddString(files, path);
    else
        files = prefixed_file(path, files);
    CPLPushErrorHandler(CPLQuietErrorHandler);
    drv = GDALIdentifyDriverEx(path, GDAL_OF_VECTOR, NULL, NULL);
    ds = drv && !EQUAL(GDALGetDriverShortName(drv), "EXACTGEO")
             ? GDALOpenEx(path, GDAL_OF_VECTOR | GDAL_OF_READONLY, NULL, NULL,
                          NULL)
             : NULL;
    CPLPopErrorHandler();
    if (!ds)
        return files;
    list = GDALGetFileList(ds);
    for (k = 0; list && list[k]; k++)
        if (CSLFindString(files, list[k]) < 0)
            files = CSLAddString(files, list[k]);
    CSLDestroy(list);
    GDALClose(ds);
    return files;
}

/* Non-zero when the folder `dir` (a real path) is the target folder or
 * lies inside it. */
static int inside(const char *dir, const struct target *t)
{
    char p[PATH_MAX];
    struct stat sb;
    snprintf(p, sizeof p, "%s", dir);
    for (;;) {
        char *slash;
        if (stat(p[0] ? p : "/", &sb) == 0 && same(&sb, &t->st))
            return 1;
        if (!p[0] || !(slash = strrchr(p, '/')))
            return 0;
        *slash = '\0';
    }
}

/* Non-zero when the entry `name` of folder `dir` is one the target may
 * write: in a folder DST anything at any depth, beside a Shapefile DST
 * the files of its layer and of its overlaps layer. */
static int at_risk(const char *dir, const char *name, const struct target *t)
{
    struct stat sb;
    if (t->isdir)
        return inside(dir, t);
    return t->stem[0] && t->dir_ok && staging_layer_file(name, t->stem) &&
           stat(dir, &sb) == 0 && same(&sb, &t->dir_st);
}

enum { NONE, SAME, AT_RISK };

/* Whether writing t would change the file f: SAME when f is DST, else
 * AT_RISK when t may write the entry that names f (f's folder, resolved,
 * and its name) or the file it is (its real path; f may be a link). */
static int conflicts(const char *f, const struct target *t)
{
    char dir[PATH_MAX], name[PATH_MAX], *real;
    struct stat sb;
    int hit = 0;
    if (stat(f, &sb) != 0)
        return NONE;
    if (t->exists && same(&sb, &t->st))
        return SAME;
    snprintf(name, sizeof name, "%s", CPLGetFilename(f));
    if ((real = realpath(*CPLGetPath(f) ? CPLGetPath(f) : ".", NULL))) {
        snprintf(dir, sizeof dir, "%s", real);
        free(real);
        hit = at_risk(dir, name, t);
    }
    if (!hit && (real = realpath(f, NULL))) {
        snprintf(dir, sizeof dir, "%s", CPLGetPath(real));
        snprintf(name, sizeof name, "%s", CPLGetFilename(real));
        free(real);
        hit = at_risk(dir, name, t);
    }
    return hit ? AT_RISK : NONE;
}

int dstcheck(const char *dst, const char *const paths[],
             const char *const names[], int n, char *err, size_t errlen)
{
    struct target t;
    char dir[PATH_MAX];
    int i, k, rc = 0;

    memset(&t, 0, sizeof t);
    t.dst = dst;
    t.exists = stat(dst, &t.st) == 0;
    t.isdir = t.exists && S_ISDIR(t.st.st_mode);
    snprintf(dir, sizeof dir, "%s",
             *CPLGetPath(dst) ? CPLGetPath(dst) : dst[0] == '/' ? "/" : ".");
    t.dir_ok = stat(dir, &t.dir_st) == 0;
    if (!t.isdir && staging_layer_file(CPLGetFilename(dst), CPLGetBasename(dst)))
        snprintf(t.stem, sizeof t.stem, "%s", CPLGetBasename(dst));
    for (i = 0; i < n && rc == 0; i++) {
        char **files = input_files(paths[i]);
        for (k = 0; files && files[k] && rc == 0; k++) {
            int c = conflicts(files[k], &t);
            if (c == NONE)
                continue;
            rc = -1;
            if (c == SAME && strcmp(files[k], paths[i]) == 0)
                snprintf(err, errlen, "%s: is input %s (%s); choose another "
                         "DST", dst, names[i], paths[i]);
            else
                snprintf(err, errlen, "%s: %s %s, a file of input %s (%s); "
                         "choose another DST", dst,
                         c == SAME     ? "is"
                         : t.isdir     ? "folder holds"
                                       : "would write over",
                         files[k], names[i], paths[i]);
        }
        CSLDestroy(files);
    }
    return rc;
}
