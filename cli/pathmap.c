/*
 * pathmap.c -- see pathmap.h.
 */
#include <stdio.h>
#include <string.h>
#include "pathmap.h"

void pathmap_add(struct pathmap *m, const char *from, const char *to)
{
    size_t fl = from ? strlen(from) : 0, tl = to ? strlen(to) : 0;
    /* a name cut short would match what it does not stand for */
    if (!fl || fl >= PATH_MAX || tl >= PATH_MAX || m->n >= PATHMAP_MAX)
        return;
    memcpy(m->p[m->n].from, from, fl + 1);
    memcpy(m->p[m->n].to, to ? to : "", tl + 1);
    m->n++;
}

void pathmap_add_staging(struct pathmap *m, const char *stg_dir,
                         const char *stg_path, const char *dst)
{
    char from[PATH_MAX + 2], to[PATH_MAX];
    const char *slash = NULL;
    size_t n = strlen(dst);

    pathmap_add(m, stg_path, dst);
    /* dst's folder as it was written ("" when dst has none), with its
     * slash; a trailing slash of dst itself ("shpdir/") is not one */
    while (n > 1 && dst[n - 1] == '/')
        n--;
    for (; n > 0; n--)
        if (dst[n - 1] == '/') {
            slash = dst + n - 1;
            break;
        }
    snprintf(to, sizeof to, "%.*s", slash ? (int)(slash - dst + 1) : 0, dst);
    snprintf(from, sizeof from, "%s/", stg_dir);
    pathmap_add(m, from, to);
    /* GDAL may drop a leading "./" of the name it was given */
    if (strncmp(stg_dir, "./", 2) == 0) {
        snprintf(from, sizeof from, "%s/", stg_dir + 2);
        pathmap_add(m, from, to);
    }
}

void pathmap_apply(const struct pathmap *m, const char *msg, char *out,
                   size_t len)
{
    size_t o = 0;
    if (!len)
        return;
    while (*msg && o + 1 < len) {
        int k, hit = 0;
        for (k = 0; k < m->n && !hit; k++) {
            size_t fl = strlen(m->p[k].from), tl;
            if (strncmp(msg, m->p[k].from, fl) != 0)
                continue;
            tl = strlen(m->p[k].to);
            if (tl > len - 1 - o)
                tl = len - 1 - o;
            memcpy(out + o, m->p[k].to, tl);
            o += tl;
            msg += fl;
            hit = 1;
        }
        if (!hit)
            out[o++] = *msg++;
    }
    out[o] = '\0';
}
