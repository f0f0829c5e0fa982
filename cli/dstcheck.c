/*
 * dstcheck.c -- see dstcheck.h.  Every comparison is of places
 * (samefile.c): a file's folder resolved and its name, so that every path
 * to a file, and to a file not made yet, is the same place.
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_minixml.h>
#include <cpl_string.h>
#include "dstcheck.h"
#include "staging.h"

/* Nested VRTs followed at most this deep (a VRT may name itself). */
#define VRT_DEPTH 8

int dstcheck_name(const char *dst, char *err, size_t errlen)
{
    const char *colon = strchr(dst, ':'), *last;
    char prefix[64];
    GDALDriverH drv = NULL;
    if (!colon || colon == dst || (size_t)(colon - dst) >= sizeof prefix ||
        memchr(dst, '/', (size_t)(colon - dst)))
        return 0;
    snprintf(prefix, sizeof prefix, "%.*s", (int)(colon - dst), dst);
    if (!(drv = GDALGetDriverByName(prefix))) {
        int k;
        for (k = 0; k < GDALGetDriverCount() && !drv; k++) {
            const char *p = GDALGetMetadataItem(
                GDALGetDriver(k), GDAL_DMD_CONNECTION_PREFIX, NULL);
            if (p && strlen(p) == (size_t)(colon - dst) + 1 &&
                EQUALN(p, dst, strlen(p)))
                drv = GDALGetDriver(k);
        }
    }
    if (!drv)
        return 0;
    last = strrchr(colon + 1, ':');
    if (GDALGetDriverByName(prefix) && last)
        snprintf(err, errlen, "%s: DST is a file or a folder, not a GDAL "
                 "connection string: write '-f %s %.*s -nln %s' instead "
                 "(-overwrite replaces the whole file, -append adds the "
                 "layer to it); './%s' names a file of that name", dst,
                 GDALGetDriverShortName(drv), (int)(last - colon - 1),
                 colon + 1, last + 1, dst);
    else if (GDALGetDriverByName(prefix))
        snprintf(err, errlen, "%s: DST is a file or a folder, not a GDAL "
                 "connection string: write '-f %s %s' instead; './%s' "
                 "names a file of that name", dst,
                 GDALGetDriverShortName(drv), colon + 1, dst);
    else
        snprintf(err, errlen, "%s: DST is a file or a folder, not a GDAL "
                 "connection string (%s): write a file, then copy it there "
                 "with ogr2ogr; './%s' names a file of that name", dst,
                 GDALGetDriverShortName(drv), dst);
    return -1;
}

int dstcheck_format(GDALDriverH drv, char *err, size_t errlen)
{
    if (GDALGetMetadataItem(drv, GDAL_DCAP_VIRTUALIO, NULL) ||
        GDALGetMetadataItem(drv, GDAL_DMD_EXTENSION, NULL) ||
        GDALGetMetadataItem(drv, GDAL_DMD_EXTENSIONS, NULL))
        return 0;
    snprintf(err, errlen, "-f %s: this driver writes no file (a database or "
             "memory); write a file, then copy it there with ogr2ogr",
             GDALGetDriverShortName(drv));
    return -1;
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

/* files with f appended unless already listed; returns the list, which
 * CSLAddString may have moved. */
static char **add_new(char **files, const char *f)
{
    return CSLFindString(files, f) < 0 ? CSLAddString(files, f) : files;
}

static char **dataset_files(const char *path, char **files, int depth);

/* Adds the files of the sources an OGR VRT file names (SrcDataSource, at
 * any depth of its XML: union and warped layers hold layers). */
static char **vrt_sources(const char *vrt, CPLXMLNode *node, char **files,
                          int depth)
{
    for (; node; node = node->psNext) {
        if (node->eType != CXT_Element)
            continue;
        if (EQUAL(node->pszValue, "SrcDataSource")) {
            const char *src = CPLGetXMLValue(node, NULL, "");
            const char *rel = CPLGetXMLValue(node, "relativeToVRT", "0");
            char *p = CPLStrdup(atoi(rel) ? CPLProjectRelativeFilename(
                                                CPLGetPath(vrt), src)
                                          : src);
            if (*p)
                files = dataset_files(p, files, depth + 1);
            CPLFree(p);
        } else {
            files = vrt_sources(vrt, node->psChild, files, depth);
        }
    }
    return files;
}

/* Adds the files of the dataset at path: the path, its dataset's file
 * list, and for an OGR VRT its sources' files. */
static char **dataset_files(const char *path, char **files, int depth)
{
    char **list;
    struct stat sb;
    GDALDriverH drv;
    GDALDatasetH ds;
    int k;
    if (depth > VRT_DEPTH)
        return files;
    if (stat(path, &sb) == 0)
        files = add_new(files, path);
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
        files = add_new(files, list[k]);
    CSLDestroy(list);
    if (EQUAL(GDALGetDriverShortName(GDALGetDatasetDriver(ds)), "OGR_VRT") &&
        stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        CPLXMLNode *root;
        CPLPushErrorHandler(CPLQuietErrorHandler);
        root = CPLParseXMLFile(path);
        CPLPopErrorHandler();
        if (root) {
            files = vrt_sources(path, root, files, depth);
            CPLDestroyXMLNode(root);
        }
    }
    GDALClose(ds);
    return files;
}

void dstcheck_inputs_find(struct dstcheck_inputs *in,
                          const char *const paths[],
                          const char *const names[], int n)
{
    int i;
    memset(in, 0, sizeof *in);
    for (i = 0; i < n && i < 2; i++) {
        in->path[i] = paths[i];
        in->name[i] = names[i];
        in->files[i] = dataset_files(paths[i], NULL, 0);
    }
    in->n = i;
}

void dstcheck_inputs_free(struct dstcheck_inputs *in)
{
    int i;
    for (i = 0; i < in->n; i++)
        CSLDestroy(in->files[i]);
    memset(in, 0, sizeof *in);
}

/* SQLite's files beside a database: GeoPackage and SQLite datasets. */
static const char *const journals[] = {"-wal", "-shm", "-journal", NULL};

/* Non-zero when the place p is a file that goes with the file at place
 * of: in the same folder, of's SQLite journals, or when of is a
 * Shapefile component, a component of its layer or of its overlaps
 * layer (NAME.*, NAME_lines.*). */
static int companion(const char *p, const char *of)
{
    char pd[PATH_MAX], pn[PATH_MAX], od[PATH_MAX], on[PATH_MAX];
    char stem[PATH_MAX];
    int k;
    samefile_split(p, pd, pn);
    samefile_split(of, od, on);
    for (k = 0; journals[k]; k++) {
        size_t n = strlen(on);
        if (strncmp(pn, on, n) == 0 && strcmp(pn + n, journals[k]) == 0 &&
            samefile_same(pd, od))
            return 1;
    }
    snprintf(stem, sizeof stem, "%s", CPLGetBasename(on));
    return staging_layer_file(on, stem) && staging_layer_file(pn, stem) &&
           samefile_same(pd, od);
}

enum { NONE, SAME, OF_DST, UNDER, OF_INPUT };

/* What writing DST does to the place p: SAME when p is DST, UNDER when
 * it lies in DST (a folder), OF_DST when it is a file of DST's dataset
 * (a companion, a file its format writes beside it, a file of the
 * existing dataset), else NONE. */
static int writes(const struct dstcheck_dst *t, const char *p)
{
    char f[PATH_MAX];
    int k;
    if (samefile_same(p, t->place) || samefile_same(p, t->real))
        return SAME;
    if (samefile_under(p, t->place) || samefile_under(p, t->real))
        return UNDER;
    if (companion(p, t->place))
        return OF_DST;
    for (k = 0; t->beside && t->beside[k]; k++)
        if (samefile_same(p, t->beside[k]))
            return OF_DST;
    for (k = 0; t->files && t->files[k]; k++)
        if (samefile_place(t->files[k], f, sizeof f) == 0 &&
            samefile_same(p, f))
            return OF_DST;
    return NONE;
}

int dstcheck_dst_init(struct dstcheck_dst *t, const char *dst, char *err,
                      size_t errlen)
{
    struct stat sb;
    memset(t, 0, sizeof *t);
    t->dst = dst;
    if (samefile_place(dst, t->place, sizeof t->place) != 0 ||
        samefile_real(dst, t->real, sizeof t->real) != 0) {
        snprintf(err, errlen, "%s: path too long", dst);
        return -1;
    }
    t->exists = stat(dst, &sb) == 0;
    t->isdir = t->exists && S_ISDIR(sb.st_mode);
    if (t->exists && !t->isdir)
        t->files = dataset_files(dst, NULL, VRT_DEPTH);
    return 0;
}

void dstcheck_dst_beside(struct dstcheck_dst *t, char **names)
{
    char dir[PATH_MAX], name[PATH_MAX], p[2 * PATH_MAX];
    int k;
    samefile_split(t->place, dir, name);
    for (k = 0; names && names[k]; k++) {
        snprintf(p, sizeof p, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "",
                 names[k]);
        if (strlen(p) < PATH_MAX)
            t->beside = add_new(t->beside, p);
    }
    CSLDestroy(names);
}

/* Frees what dstcheck_dst_init and dstcheck_dst_beside listed in t;
 * the lists are left NULL, so t may be freed twice. */
void dstcheck_dst_free(struct dstcheck_dst *t)
{
    CSLDestroy(t->beside);
    CSLDestroy(t->files);
    t->beside = t->files = NULL;
}

/* What writing the place p does to the input file f: SAME when p is f
 * (its entry or the file it is), OF_INPUT when p goes with it
 * (companion), else NONE. */
static int hits_input(const char *p, const char *f)
{
    char pf[PATH_MAX], rf[PATH_MAX];
    if (samefile_place(f, pf, sizeof pf) != 0 ||
        samefile_real(f, rf, sizeof rf) != 0)
        return NONE;
    if (samefile_same(p, pf) || samefile_same(p, rf))
        return SAME;
    return companion(p, pf) || companion(p, rf) ? OF_INPUT : NONE;
}

int dstcheck(const struct dstcheck_dst *t, const struct dstcheck_inputs *in,
             char *err, size_t errlen)
{
    int i, k;
    for (i = 0; i < in->n; i++)
        for (k = 0; in->files[i] && in->files[i][k]; k++) {
            const char *f = in->files[i][k];
            char p[PATH_MAX];
            int c = NONE;
            struct stat sb;
            /* the entry that names f, and the file it is (f may be a
             * link) */
            if (stat(f, &sb) != 0)
                continue;
            if (samefile_place(f, p, sizeof p) == 0)
                c = writes(t, p);
            if (c == NONE && samefile_real(f, p, sizeof p) == 0)
                c = writes(t, p);
            if (c == NONE && hits_input(t->place, f) == OF_INPUT)
                c = OF_INPUT;
            if (c == NONE)
                continue;
            if (c == OF_INPUT)
                snprintf(err, errlen, "%s: is a file of input %s (%s); "
                         "choose another DST", t->dst, in->name[i],
                         in->path[i]);
            else if (c == SAME && strcmp(f, in->path[i]) == 0)
                snprintf(err, errlen, "%s: is input %s (%s); choose another "
                         "DST", t->dst, in->name[i], in->path[i]);
            else
                snprintf(err, errlen, "%s: %s %s, a file of input %s (%s); "
                         "choose another DST", t->dst,
                         c == SAME    ? "is"
                         : c == UNDER ? "folder holds"
                                      : "would write over",
                         f, in->name[i], in->path[i]);
            return -1;
        }
    return 0;
}

int dstcheck_side(const char *opt, const char *path,
                  const struct dstcheck_dst *t,
                  const struct dstcheck_inputs *in, char *err,
                  size_t errlen)
{
    char p[PATH_MAX];
    int i, k, c;
    if (!*path || path[strlen(path) - 1] == '/')
        return 0;
    if (samefile_place(path, p, sizeof p) != 0) {
        snprintf(err, errlen, "%s %s: path too long", opt, path);
        return -1;
    }
    if (t && (c = writes(t, p)) != NONE) {
        snprintf(err, errlen, "%s %s: is %s (%s); choose another name", opt,
                 path,
                 c == SAME    ? "DST"
                 : c == UNDER ? "in folder DST"
                              : "a file of DST",
                 t->dst);
        return -1;
    }
    for (i = 0; in && i < in->n; i++)
        for (k = 0; in->files[i] && in->files[i][k]; k++) {
            const char *f = in->files[i][k];
            if ((c = hits_input(p, f)) == NONE)
                continue;
            if (c == SAME && strcmp(f, in->path[i]) == 0)
                snprintf(err, errlen, "%s %s: is the same file as %s, input "
                         "%s; choose another name", opt, path, f,
                         in->name[i]);
            else
                snprintf(err, errlen, "%s %s: is a file of input %s (%s); "
                         "choose another name", opt, path, in->name[i],
                         in->path[i]);
            return -1;
        }
    return 0;
}
