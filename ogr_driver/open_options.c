/*
 * open_options.c -- the inputs' open options (oo, aoo, boo: GDALOpenEx's,
 * as ogr2ogr -oo), for the one parser of run options (xgo_options.c):
 * each key's list of copies, and each input's own list merged from them.
 * Calls no GDAL function (the connection string's tests link it without
 * GDAL).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "xgo_internal.h"

/* A usage error, in the caller's err and errlen. */
#define BAD(...) xgo__fail(err, errlen, XG_EINVAL, __VA_ARGS__)

/* The length of the NAME of "NAME=VALUE", 0 when it has none. */
static size_t option_name(const char *opt)
{
    const char *eq = strchr(opt, '=');
    return eq ? (size_t)(eq - opt) : 0;
}

/* Whether list (NULL-terminated, may be NULL) holds an option named as
 * opt is (GDAL's names are case-insensitive); its index in *at. */
static int option_in(char *const *list, const char *opt, size_t *at)
{
    size_t k, n = option_name(opt);
    for (k = 0; list && list[k]; k++)
        if (option_name(list[k]) == n && strncasecmp(list[k], opt, n) == 0) {
            *at = k;
            return 1;
        }
    return 0;
}

/* Input i's open options into job->open_lists[i] (its own, then oo's of
 * other names) and job->{a,b}.open_options. */
static int merge_open(struct xgo_job *job, int i)
{
    char **own = job->open_given[1 + i], **both = job->open_given[0];
    size_t n = 0, k, at;
    const char **v;
    for (k = 0; own && own[k]; k++)
        n++;
    for (k = 0; both && both[k]; k++)
        n++;
    if (!(v = malloc((n + 1) * sizeof *v)))
        return XG_ENOMEM;
    n = 0;
    for (k = 0; own && own[k]; k++)
        v[n++] = own[k];
    for (k = 0; both && both[k]; k++)
        if (!option_in(own, both[k], &at))
            v[n++] = both[k];
    v[n] = NULL;
    free(job->open_lists[i]);
    job->open_lists[i] = v;
    (i == 0 ? &job->a : &job->b)->open_options = v;
    return XG_OK;
}

int xgo__open_option_set(struct xgo_job *job, int k, const char *value,
                         char *err, size_t errlen)
{
    char **list = job->open_given[k], *copy;
    size_t at;
    if (option_name(value) == 0)
        return BAD("bad open option '%s' (expected NAME=VALUE)", value);
    if (!(copy = strdup(value)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    if (option_in(list, value, &at)) {
        free(list[at]);
        list[at] = copy;
    } else {
        size_t n = 0;
        char **grown;
        while (list && list[n])
            n++;
        if (!(grown = realloc(list, (n + 2) * sizeof *grown))) {
            free(copy);
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        }
        grown[n] = copy;
        grown[n + 1] = NULL;
        job->open_given[k] = grown;
    }
    if (merge_open(job, 0) || merge_open(job, 1))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    return XG_OK;
}

void xgo__open_options_free(struct xgo_job *job)
{
    int i;
    for (i = 0; i < 2; i++) {
        struct xgo_input *in = i == 0 ? &job->a : &job->b;
        if (in->open_options ==
            (const char *const *)job->open_lists[i])
            in->open_options = NULL;
        free(job->open_lists[i]);
        job->open_lists[i] = NULL;
    }
    for (i = 0; i < 3; i++) {
        size_t k;
        for (k = 0; job->open_given[i] && job->open_given[i][k]; k++)
            free(job->open_given[i][k]);
        free(job->open_given[i]);
        job->open_given[i] = NULL;
    }
}
