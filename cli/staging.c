/*
 * staging.c -- see staging.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include "staging.h"

/* Writes fmt (two %s: a, b) into err and returns -1. */
static int failf(char *err, size_t errlen, const char *fmt, const char *a,
                 const char *b)
{
    snprintf(err, errlen, fmt, a, b);
    return -1;
}

/* Splits path into its folder dir ("." when it names none, "/" at the
 * root) and its last name base, trailing slashes dropped ("outdir/");
 * dir and base hold PATH_MAX bytes each. */
static void split(const char *path, char *dir, char *base)
{
    const char *slash = strrchr(path, '/');
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')    /* "outdir/" */
        n--;
    {
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%.*s", (int)n, path);
        slash = strrchr(tmp, '/');
        if (!slash) {
            strcpy(dir, ".");
            snprintf(base, PATH_MAX, "%s", tmp);
        } else {
            snprintf(dir, PATH_MAX, "%.*s",
                     slash == tmp ? 1 : (int)(slash - tmp), tmp);
            snprintf(base, PATH_MAX, "%s", slash + 1);
        }
    }
}

/* Copies the file from into a new file to, which must not exist yet
 * (O_EXCL: a staging folder is ours alone).  0, or -1 with errno set by
 * the call that failed; a partial to is left for staging_abort. */
static int copy_file(const char *from, const char *to)
{
    char buf[65536];
    ssize_t n;
    int in = open(from, O_RDONLY), out, ok = 1;
    if (in < 0)
        return -1;
    out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (out < 0) {
        close(in);
        return -1;
    }
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) {
            ok = 0;
            break;
        }
    if (n < 0)
        ok = 0;
    close(in);
    if (close(out) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

/* The files of the dataset at path, as GDAL lists them. */
static char **dataset_files(const char *path)
{
    GDALDatasetH ds = GDALOpenEx(path, GDAL_OF_VECTOR | GDAL_OF_READONLY,
                                 NULL, NULL, NULL);
    char **files;
    if (!ds)
        return NULL;
    files = GDALGetFileList(ds);
    GDALClose(ds);
    return files;
}

/* The Shapefile components a layer of ours may have.  Indexes are
 * included: an index left beside a replaced .shp would describe the old
 * one. */
static const char *const shp_exts[] = {"shp", "shx", "dbf", "prj", "cpg",
                                       "qpj", "qix", "sbn", "sbx", "idm",
                                       "ind", NULL};

int staging_layer_file(const char *name, const char *layer)
{
    size_t n = strlen(layer);
    const char *ext = name + n;
    int k;
    if (n == 0 || strncmp(name, layer, n) != 0)
        return 0;
    if (strncmp(ext, "_lines.", 7) == 0)
        ext += 7;
    else if (*ext == '.')
        ext++;
    else
        return 0;
    for (k = 0; shp_exts[k]; k++)
        if (EQUAL(ext, shp_exts[k]))
            return 1;
    return 0;
}

/* The files of layer `layer` (and of its overlaps layer) in the folder
 * dir: all that the tool may write there, and nothing else. */
static char **layer_files(const char *dir, const char *layer)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **files = NULL;
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (!d)
        return NULL;
    while ((e = readdir(d)) != NULL) {
        char p[2 * PATH_MAX];
        struct stat sb;
        if (!staging_layer_file(e->d_name, layer))
            continue;
        snprintf(p, sizeof p, "%.*s/%s", (int)n, dir, e->d_name);
        if (lstat(p, &sb) == 0 && S_ISREG(sb.st_mode))
            files = CSLAddString(files, p);
    }
    closedir(d);
    return files;
}

int staging_begin(struct staging *s, const char *dst, const char *layer,
                  int copy, int replace, char *err, size_t errlen)
{
    char base[PATH_MAX], tmpl[PATH_MAX + 32];
    struct stat sb;
    int exists = stat(dst, &sb) == 0, isdir = exists && S_ISDIR(sb.st_mode);

    memset(s, 0, sizeof *s);
    snprintf(s->dst, sizeof s->dst, "%s", dst);
    split(dst, s->dstdir, base);
    /* the pid tells a later run whether this folder's owner is alive
     * (staging_sweep) */
    if (snprintf(tmpl, sizeof tmpl, "%s/.%s.exactgeo-%ld-XXXXXX", s->dstdir,
                 base, (long)getpid()) >= (int)sizeof s->dir)
        return failf(err, errlen, "%s: path too long%s", dst, "");
    if (!mkdtemp(tmpl))
        return failf(err, errlen, "%s: cannot create a staging folder: %s",
                     s->dstdir, strerror(errno));
    memcpy(s->dir, tmpl, strlen(tmpl) + 1);   /* fits: checked above */
    if (snprintf(s->path, sizeof s->path, "%s/%s", s->dir, base) >=
        (int)sizeof s->path) {
        staging_abort(s);
        return failf(err, errlen, "%s: path too long%s", dst, "");
    }
    if (exists && (copy || replace)) {
        /* a folder may hold anything besides our layer: never take all
         * the files of the folder's dataset */
        char **files = isdir ? layer_files(dst, layer) : dataset_files(dst);
        /* a Shapefile's overlaps live in "<base>_lines.shp" beside it
         * (ogr_driver/write.c): part of the same output */
        if (!isdir && EQUAL(CPLGetExtension(dst), "shp")) {
            char lines[PATH_MAX + 16];
            struct stat lb;
            snprintf(lines, sizeof lines, "%s/%s_lines.shp", s->dstdir,
                     CPLGetBasename(dst));
            if (stat(lines, &lb) == 0) {
                char **more = dataset_files(lines);
                int k;
                for (k = 0; more && more[k]; k++)
                    files = CSLAddString(files, more[k]);
                CSLDestroy(more);
            }
        }
        int i;
        if (isdir && copy && mkdir(s->path, 0777) != 0) {
            staging_abort(s);
            return failf(err, errlen, "%s: cannot create: %s", s->path,
                         strerror(errno));
        }
        for (i = 0; files && files[i]; i++) {
            char fdir[PATH_MAX], fbase[PATH_MAX], to[2 * PATH_MAX + 2];
            split(files[i], fdir, fbase);
            /* only the dataset's own files: those next to it */
            if (!isdir && strcmp(fdir, s->dstdir) != 0)
                continue;
            if (stat(files[i], &sb) != 0 || !S_ISREG(sb.st_mode))
                continue;
            if (replace)
                s->old = CSLAddString(s->old, files[i]);
            if (!copy)
                continue;
            snprintf(to, sizeof to, "%s/%s", isdir ? s->path : s->dir, fbase);
            if (copy_file(files[i], to) != 0) {
                CSLDestroy(files);
                staging_abort(s);
                return failf(err, errlen, "%s: cannot copy to the staging "
                                          "folder: %s", files[i],
                             strerror(errno));
            }
        }
        CSLDestroy(files);
    }
    return 0;
}

/* Moves every file under `from` to the same place under `to`. */
static int move_tree(const char *from, const char *to, char *err,
                     size_t errlen)
{
    DIR *d = opendir(from);
    struct dirent *e;
    int rc = 0;
    if (!d)
        return failf(err, errlen, "%s: cannot read: %s", from,
                     strerror(errno));
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char src[2 * PATH_MAX], dst[2 * PATH_MAX];
        struct stat sb;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
        if (lstat(src, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            if (mkdir(dst, 0777) != 0 && errno != EEXIST)
                rc = failf(err, errlen, "%s: cannot create: %s", dst,
                           strerror(errno));
            else
                rc = move_tree(src, dst, err, errlen);
        } else if (rename(src, dst) != 0) {
            rc = failf(err, errlen, "%s: cannot move into place: %s", dst,
                       strerror(errno));
        }
    }
    closedir(d);
    return rc;
}

/* Non-zero unless old (a file of the replaced dataset) surely has no
 * counterpart in the new one; only files surely stale are removed. */
static int was_replaced(const char *old, const char *dir, const char *stg)
{
    char rel[3 * PATH_MAX];
    struct stat sb;
    size_t n = strlen(dir);
    if (strncmp(old, dir, n) == 0 && old[n] == '/')
        snprintf(rel, sizeof rel, "%s%s", stg, old + n);
    else if (strcmp(dir, ".") == 0 && old[0] != '/')
        snprintf(rel, sizeof rel, "%s/%s", stg, old);
    else
        return 1;
    return stat(rel, &sb) == 0;
}

void staging_direct(struct staging *s, const char *path)
{
    memset(s, 0, sizeof *s);
    snprintf(s->dst, sizeof s->dst, "%s", path);
    snprintf(s->path, sizeof s->path, "%s", path);
}

int staging_check_kind(const struct staging *s, const char *format,
                       char *err, size_t errlen)
{
    struct stat d, n;
    int dst_dir, new_dir;
    if (!s->dir[0] || stat(s->dst, &d) != 0)
        return 0;
    dst_dir = S_ISDIR(d.st_mode);
    new_dir = stat(s->path, &n) == 0 && S_ISDIR(n.st_mode);
    if (dst_dir && !new_dir)
        return failf(err, errlen, "%s: is a folder, and the %s format "
                     "writes a file; -overwrite never replaces a folder: "
                     "remove it first or choose another DST", s->dst, format);
    if (!dst_dir && new_dir)
        return failf(err, errlen, "%s: is a file, and the %s format writes "
                     "a folder there; remove it first or choose another DST",
                     s->dst, format);
    return 0;
}

int staging_commit(struct staging *s, char *err, size_t errlen)
{
    int i, rc;
    char **keep = NULL;
    struct stat sb;
    if (!s->dir[0])
        return 0;               /* staging_direct: written in place */
    if (lstat(s->path, &sb) != 0)
        return failf(err, errlen, "%s: nothing was written: the format's "
                     "driver made no file there%s", s->dst, "");
    /* which old files the new dataset does not replace: decided before
     * the move empties the staging folder */
    for (i = 0; s->old && s->old[i]; i++)
        if (!was_replaced(s->old[i], s->dstdir, s->dir))
            keep = CSLAddString(keep, s->old[i]);
    rc = move_tree(s->dir, s->dstdir, err, errlen);
    if (rc == 0)
        for (i = 0; keep && keep[i]; i++)
            unlink(keep[i]);
    CSLDestroy(keep);
    staging_abort(s);
    return rc;
}

/* Removes path and, when it is a folder, everything under it, without
 * following links (lstat); best effort: what cannot go stays. */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    if (d) {
        while ((e = readdir(d)) != NULL) {
            char p[2 * PATH_MAX];
            struct stat sb;
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", path, e->d_name);
            if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
                remove_tree(p);
            else
                unlink(p);
        }
        closedir(d);
    }
    rmdir(path);
}

void staging_abort(struct staging *s)
{
    if (s->dir[0])
        remove_tree(s->dir);
    s->dir[0] = '\0';
    CSLDestroy(s->old);
    s->old = NULL;
}

/* Non-zero when name is prefix + PID + "-" + six letters or digits
 * (mkdtemp's), exactly as staging_begin names its folders; the pid in *pid. */
static int staging_name(const char *name, const char *prefix, long *pid)
{
    size_t n = strlen(prefix), k;
    const char *p = name + n;
    long v = 0;
    if (strncmp(name, prefix, n) != 0 || p[0] < '1' || p[0] > '9')
        return 0;
    for (k = 0; p[k] >= '0' && p[k] <= '9'; k++) {
        if (k == 9)             /* longer than any pid */
            return 0;
        v = 10 * v + (p[k] - '0');
    }
    if (p[k++] != '-' || v > INT_MAX)
        return 0;
    for (n = 0; n < 6; n++, k++)
        if (!(p[k] >= 'a' && p[k] <= 'z') && !(p[k] >= 'A' && p[k] <= 'Z') &&
            !(p[k] >= '0' && p[k] <= '9'))
            return 0;
    *pid = v;
    return p[k] == '\0';
}

void staging_sweep(const char *dst, FILE *log)
{
    char dir[PATH_MAX], base[PATH_MAX], prefix[PATH_MAX + 16];
    char **names = NULL;
    DIR *d;
    struct dirent *e;
    int i;
    split(dst, dir, base);
    snprintf(prefix, sizeof prefix, ".%s.exactgeo-", base);
    if (!(d = opendir(dir)))
        return;
    while ((e = readdir(d)) != NULL) {
        long pid;
        if (staging_name(e->d_name, prefix, &pid))
            names = CSLAddString(names, e->d_name);
    }
    closedir(d);
    for (i = 0; names && names[i]; i++) {
        char p[2 * PATH_MAX];
        struct stat sb;
        long pid = 0;
        staging_name(names[i], prefix, &pid);
        snprintf(p, sizeof p, "%s%s%s", strcmp(dir, ".") ? dir : "",
                 strcmp(dir, ".") ? "/" : "", names[i]);
        if (lstat(p, &sb) != 0 || !S_ISDIR(sb.st_mode) ||
            sb.st_uid != geteuid() || pid == (long)getpid())
            continue;
        /* only a pid surely gone: EPERM means alive (another user's) */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        remove_tree(p);
        if (!log)
            continue;
        if (lstat(p, &sb) == 0)
            fprintf(log, "exactgeo: warning: cannot remove %s, left by an "
                         "earlier run (pid %ld) that did not finish\n", p, pid);
        else
            fprintf(log, "exactgeo: warning: removed %s, left by an earlier "
                         "run (pid %ld) that did not finish\n", p, pid);
    }
    CSLDestroy(names);
}
