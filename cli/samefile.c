/*
 * samefile.c -- see samefile.h.
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "samefile.h"

void samefile_split(const char *place, char *dir, char *name)
{
    const char *slash = strrchr(place, '/');
    if (!slash) {
        snprintf(dir, PATH_MAX, ".");
        snprintf(name, PATH_MAX, "%s", place);
        return;
    }
    snprintf(dir, PATH_MAX, "%.*s", slash == place ? 1 : (int)(slash - place),
             place);
    snprintf(name, PATH_MAX, "%s", slash + 1);
}

/* out (len bytes) = dir "/" name, without a doubled slash at the root. */
static int join(char *out, size_t len, const char *dir, const char *name)
{
    int n = snprintf(out, len, "%s%s%s", dir,
                     strcmp(dir, "/") == 0 ? "" : "/", name);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The real path of the folder dir into out (PATH_MAX bytes): realpath
 * where it exists, else its parent's, resolved so, with the rest as
 * written ("." dropped, ".." taking off the last part). */
static int real_dir(const char *dir, char *out)
{
    char parent[PATH_MAX], name[PATH_MAX], *real;
    if (!*dir)
        dir = ".";
    if ((real = realpath(dir, NULL)) != NULL) {
        int n = snprintf(out, PATH_MAX, "%s", real);
        free(real);
        return n >= PATH_MAX ? -1 : 0;
    }
    if (strcmp(dir, "/") == 0)
        return -1;
    samefile_split(dir, parent, name);
    if (real_dir(parent, out) != 0)
        return -1;
    if (strcmp(name, ".") == 0 || !*name)
        return 0;
    if (strcmp(name, "..") == 0) {
        char *slash = strrchr(out, '/');
        if (slash && slash != out)
            *slash = '\0';
        else
            snprintf(out, PATH_MAX, "/");
        return 0;
    }
    snprintf(parent, sizeof parent, "%s", out);
    return join(out, PATH_MAX, parent, name);
}

int samefile_place(const char *path, char *out, size_t len)
{
    char buf[PATH_MAX], dir[PATH_MAX], name[PATH_MAX], rd[PATH_MAX];
    struct stat sb;
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, path, n);
    buf[n] = '\0';
    if (!*buf)
        snprintf(buf, sizeof buf, ".");
    samefile_split(buf, dir, name);
    /* a folder is the folder itself, wherever links lead; so are ".",
     * ".." and "/" */
    if ((stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode)) || !strcmp(name, ".") ||
        !strcmp(name, "..") || !strcmp(buf, "/")) {
        if (real_dir(buf, rd) != 0)
            return -1;
        return snprintf(out, len, "%s", rd) >= (int)len ? -1 : 0;
    }
    if (real_dir(dir, rd) != 0)
        return -1;
    return join(out, len, rd, name);
}

int samefile_real(const char *path, char *out, size_t len)
{
    char *real = realpath(path, NULL);
    int n;
    if (!real)
        return samefile_place(path, out, len);
    n = snprintf(out, len, "%s", real);
    free(real);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Non-zero when the folder dir finds a file under its name with the case
 * of every letter changed: a temporary file is made there and looked up
 * so.  A folder that takes no file is taken to ignore case (the
 * cautious answer: callers refuse what might be one file). */
static int folds_case(const char *dir)
{
    char tmpl[PATH_MAX + 32], flip[PATH_MAX + 32];
    struct stat a, b;
    size_t k, base;
    int fd, folds;
    if (join(tmpl, sizeof tmpl, dir, ".exactgeo-case-XXXXXX") != 0 ||
        (fd = mkstemp(tmpl)) < 0)
        return 1;
    close(fd);
    snprintf(flip, sizeof flip, "%s", tmpl);
    base = strlen(tmpl) - strlen(".exactgeo-case-XXXXXX");
    for (k = base; flip[k]; k++)
        flip[k] = islower((unsigned char)flip[k])
                      ? (char)toupper((unsigned char)flip[k])
                      : (char)tolower((unsigned char)flip[k]);
    folds = stat(tmpl, &a) == 0 && stat(flip, &b) == 0 &&
            a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    unlink(tmpl);
    return folds;
}

int samefile_same(const char *a, const char *b)
{
    char da[PATH_MAX], na[PATH_MAX], db[PATH_MAX], nb[PATH_MAX];
    struct stat sa, sb;
    int dirs;
    if (strcmp(a, b) == 0)
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    samefile_split(a, da, na);
    samefile_split(b, db, nb);
    dirs = strcmp(da, db) == 0 ||
           (stat(da, &sa) == 0 && stat(db, &sb) == 0 &&
            sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
    if (!dirs || strcasecmp(na, nb) != 0)
        return 0;
    return strcmp(na, nb) == 0 || folds_case(da);
}

int samefile_under(const char *p, const char *dir)
{
    char up[PATH_MAX], name[PATH_MAX];
    if (snprintf(up, sizeof up, "%s", p) >= (int)sizeof up)
        return 0;
    while (strcmp(up, "/") != 0 && strchr(up, '/')) {
        char d[PATH_MAX];
        samefile_split(up, d, name);
        snprintf(up, sizeof up, "%s", d);
        if (samefile_same(up, dir))
            return 1;
    }
    return 0;
}
