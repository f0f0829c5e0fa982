/* xgo_conn.c -- the EXACTGEO: connection string and the .xgjob job file
 * (syntax in xgo_conn.h); their values go through the run options' one
 * parser (xgo_option_set), as the exactgeo tool's do. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "xgo.h"
#include "xgo_conn.h"

#define KEYS "op, a, al, awhere, acopy, b, bl, bwhere, bcopy, engine, " \
             "grid, threads, gpus, max_memory, nln, outside, skip_invalid, " \
             "verify, tin, oo, aoo, boo, bgroup, regions"

/* The slot of key in c, or NULL when the key is unknown. */
static char **slot(struct xgo_conn *c, const char *key)
{
    static const char *const names[] = {
        "op", "a", "b", "al", "bl", "awhere", "bwhere", "acopy", "bcopy",
        "engine", "grid", "threads", "gpus", "max_memory", "nln", "outside",
        "skip_invalid", "verify", "tin", "oo", "aoo", "boo", "bgroup",
        "regions"};
    char **slots[] = {
        &c->op, &c->src[0], &c->src[1], &c->layer[0], &c->layer[1],
        &c->where[0], &c->where[1], &c->copy[0], &c->copy[1],
        &c->engine, &c->grid, &c->threads, &c->gpus, &c->max_memory,
        &c->nln, &c->outside,
        &c->skip_invalid, &c->verify, &c->tin, &c->oo[0], &c->oo[1],
        &c->oo[2], &c->bgroup, &c->regions};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(key, names[i]) == 0)
            return slots[i];
    return NULL;
}

/* Frees every string c holds and zeroes c, which may then be parsed
 * into again; NULL is a no-op. */
void xgo_conn_free(struct xgo_conn *c)
{
    int i;
    if (!c)
        return;
    free(c->op);
    for (i = 0; i < 2; i++) {
        free(c->src[i]);
        free(c->layer[i]);
        free(c->where[i]);
        free(c->copy[i]);
    }
    free(c->engine);
    free(c->grid);
    free(c->threads);
    free(c->gpus);
    free(c->max_memory);
    free(c->regions);
    free(c->nln);
    free(c->outside);
    free(c->skip_invalid);
    free(c->verify);
    free(c->tin);
    for (i = 0; i < 3; i++)
        free(c->oo[i]);
    free(c->bgroup);
    memset(c, 0, sizeof *c);
}

int xgo_conn_set(struct xgo_conn *c, const char *key, const char *value,
                 char *err, size_t errlen)
{
    char **s = slot(c, key);
    char *v;
    if (!s) {
        snprintf(err, errlen, "unknown key '%s' (known: " KEYS ")", key);
        return XG_EINVAL;
    }
    v = strdup(value);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return XG_ENOMEM;
    }
    /* The values that name a choice are case-insensitive, like the keys:
     * op=SEGTRI, engine=CPU. */
    if (s == &c->op || s == &c->engine) {
        char *q;
        for (q = v; *q; q++)
            *q = (char)tolower((unsigned char)*q);
    }
    free(*s);
    *s = v;
    return XG_OK;
}

/* Whether slot s of c takes one value each time its key is given (the
 * open options: oo=X_POSSIBLE_NAMES=x;oo=Y_POSSIBLE_NAMES=y), kept one
 * a line. */
static int repeatable(const struct xgo_conn *c, char *const *s)
{
    return s >= c->oo && s < c->oo + 3;
}

/* Sets key once: a key given twice in one string or file is a mistake,
 * but for those that repeat, whose values are added. */
static int set_once(struct xgo_conn *c, const char *key, const char *value,
                    char *err, size_t errlen)
{
    char **s = slot(c, key);
    if (s && repeatable(c, s)) {
        size_t n = *s ? strlen(*s) + 1 : 0;
        char *v;
        if (strchr(value, '\n')) {
            snprintf(err, errlen, "a value of '%s' cannot hold a line break",
                     key);
            return XG_EINVAL;
        }
        if (!(v = realloc(*s, n + strlen(value) + 1))) {
            snprintf(err, errlen, "out of memory");
            return XG_ENOMEM;
        }
        if (n)
            v[n - 1] = '\n';
        strcpy(v + n, value);
        *s = v;
        return XG_OK;
    }
    if (s && *s) {
        snprintf(err, errlen, "key '%s' given twice", key);
        return XG_EINVAL;
    }
    return xgo_conn_set(c, key, value, err, errlen);
}

int xgo_conn_has_prefix(const char *text)
{
    return text && strncasecmp(text, XGO_CONN_PREFIX,
                               strlen(XGO_CONN_PREFIX)) == 0;
}

/* The UTF-8 byte order mark some editors put first in a text file. */
#define BOM "\xEF\xBB\xBF"

/* Past a leading byte order mark, if any; *n shrinks to match. */
static const char *skip_bom(const char *s, size_t *n)
{
    if (*n >= 3 && memcmp(s, BOM, 3) == 0) {
        *n -= 3;
        return s + 3;
    }
    return s;
}

int xgo_conn_is_job(const char *head, size_t n)
{
    size_t m = strlen(XGO_JOB_MAGIC);
    if (!head)
        return 0;
    head = skip_bom(head, &n);
    return n >= m && memcmp(head, XGO_JOB_MAGIC, m) == 0;
}

/* s without its leading and trailing white space: the end is cut in
 * place (s must be writable), the start is returned. */
static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

int xgo_conn_parse(const char *text, struct xgo_conn *c, char *err,
                   size_t errlen)
{
    /* Key and value of each pair are copied to buf, which is at most
     * as long as text. */
    size_t n;
    char *buf;
    const char *p;
    int rc = XG_OK;

    if (xgo_conn_has_prefix(text))
        text += strlen(XGO_CONN_PREFIX);
    n = strlen(text);
    buf = malloc(n + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return XG_ENOMEM;
    }
    p = text;
    while (rc == XG_OK && *p) {
        char *key, *val, *q = buf;
        const char *eq;
        while (*p == ';' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        eq = p;
        while (*eq && *eq != '=' && *eq != ';')
            eq++;
        if (*eq != '=') {
            snprintf(err, errlen, "expected key=value at '%.*s'",
                     (int)(eq - p), p);
            rc = XG_EINVAL;
            break;
        }
        memcpy(q, p, (size_t)(eq - p));
        q[eq - p] = '\0';
        key = trim(q);
        q += (eq - p) + 1;
        p = eq + 1;
        while (*p == ' ' || *p == '\t')
            p++;
        val = q;
        if (*p == '"') {
            /* Quoted: up to the lone closing quote; "" is one quote. */
            for (p++;; p++) {
                if (!*p) {
                    snprintf(err, errlen, "unterminated quote in value of '%s'",
                             key);
                    rc = XG_EINVAL;
                    break;
                }
                if (*p == '"') {
                    if (p[1] != '"')
                        break;
                    p++;
                }
                *q++ = *p;
            }
            if (rc != XG_OK)
                break;
            *q = '\0';
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p && *p != ';') {
                snprintf(err, errlen, "expected ';' after the quoted value "
                         "of '%s'", key);
                rc = XG_EINVAL;
                break;
            }
        } else {
            while (*p && *p != ';')
                *q++ = *p++;
            *q = '\0';
            val = trim(val);
        }
        if (!*key) {
            snprintf(err, errlen, "empty key before '='");
            rc = XG_EINVAL;
        } else {
            rc = set_once(c, key, val, err, errlen);
        }
    }
    free(buf);
    if (rc != XG_OK)
        xgo_conn_free(c);
    return rc;
}

/* dir/path when path is relative and dir is not empty; a copy otherwise. */
static char *join(const char *dir, size_t dlen, const char *path)
{
    char *r;
    if (path[0] == '/' || dlen == 0 || strncmp(path, "/vsi", 4) == 0)
        return strdup(path);
    r = malloc(dlen + strlen(path) + 2);
    if (r)
        sprintf(r, "%.*s/%s", (int)dlen, dir, path);
    return r;
}

int xgo_conn_read_job(const char *path, struct xgo_conn *c, char *err,
                      size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = XG_OK, i;
    const char *slash;

    if (!f) {
        snprintf(err, errlen, "%s: cannot read job file: %s", path,
                 strerror(errno));
        return XG_EIO;
    }
    while (rc == XG_OK && (len = getline(&line, &cap, f)) >= 0) {
        char *s, *eq, *key;
        lineno++;
        if (lineno == 1) {
            if (!xgo_conn_is_job(line, (size_t)len)) {
                size_t n = (size_t)len;
                char *first = (char *)skip_bom(line, &n);
                snprintf(err, errlen, "%s: not an exactgeo job file: the "
                         "first line must start with '" XGO_JOB_MAGIC "' "
                         "(as in '" XGO_JOB_MAGIC " 1'), not '%.60s'", path,
                         trim(first));
                rc = XG_EINVAL;
            }
            continue;
        }
        s = trim(line);
        if (!*s || *s == '#')
            continue;
        eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, errlen, "%s, line %ld: expected key = value", path,
                     lineno);
            rc = XG_EINVAL;
            break;
        }
        *eq = '\0';
        key = trim(s);
        rc = set_once(c, key, trim(eq + 1), err, errlen);
        if (rc != XG_OK) {
            /* Prefix the place to the reason set_once gave. */
            char *why = strdup(err);
            snprintf(err, errlen, "%s, line %ld: %s", path, lineno,
                     why ? why : "out of memory");
            free(why);
        }
    }
    if (rc == XG_OK && lineno == 0) {
        snprintf(err, errlen, "%s: empty job file", path);
        rc = XG_EINVAL;
    }
    free(line);
    fclose(f);
    slash = strrchr(path, '/');
    for (i = 0; rc == XG_OK && i < 2; i++) {
        char *abs;
        if (!c->src[i])
            continue;
        abs = join(path, slash ? (size_t)(slash - path) : 0, c->src[i]);
        if (!abs) {
            snprintf(err, errlen, "out of memory");
            rc = XG_ENOMEM;
            break;
        }
        free(c->src[i]);
        c->src[i] = abs;
    }
    if (rc != XG_OK)
        xgo_conn_free(c);
    return rc;
}

int xgo_conn_apply(const struct xgo_conn *c, struct xgo_job *job, char *err,
                   size_t errlen)
{
    /* the keys that are run options, in the order they are checked:
     * first the NINPUT_KEYS of the inputs */
    enum { NINPUT_KEYS = 7 };
    static const char *const keys[] = {"al", "bl", "awhere", "bwhere",
                                       "acopy", "bcopy", "bgroup",
                                       "engine", "grid",
                                       "threads", "gpus", "max_memory",
                                       "outside", "skip_invalid", "verify",
                                       "tin", "regions"};
    const char *const vals[] = {c->layer[0], c->layer[1], c->where[0],
                                c->where[1], c->copy[0], c->copy[1],
                                c->bgroup, c->engine, c->grid, c->threads, c->gpus,
                                c->max_memory, c->outside, c->skip_invalid, c->verify,
                                c->tin, c->regions};
    char names[256];
    size_t k;
    int rc;
    if (!c->op) {
        xgo_op_list(names, sizeof names);
        snprintf(err, errlen, "missing key 'op' (%s)", names);
        return XG_EINVAL;
    }
    if ((rc = xgo_option_set(job, "op", c->op, err, errlen)) != XG_OK)
        return rc;
    if (!c->src[0] || !*c->src[0] ||
        (job->op->ninputs > 1 && (!c->src[1] || !*c->src[1]))) {
        snprintf(err, errlen, "missing key '%s' (the %s input dataset)",
                 !c->src[0] || !*c->src[0] ? "a" : "b",
                 !c->src[0] || !*c->src[0] ? "A" : "B");
        return XG_EINVAL;
    }
    if (job->op->ninputs < 2 && c->src[1] && *c->src[1]) {
        snprintf(err, errlen, "%s takes one input: key 'b' does not apply "
                 "(give the %s as 'a')", job->op->name,
                 job->op->in[0].elements);
        return XG_EINVAL;
    }
    job->a.path = c->src[0];
    job->b.path = job->op->ninputs > 1 ? c->src[1] : NULL;
    job->a.layer_opt = "al";
    job->b.layer_opt = "bl";
    /* An input's key= (al, awhere, acopy, ...) is the same as leaving
     * it out; engine=, grid=, threads=, gpus=, max_memory=, outside=,
     * skip_invalid=, verify=, tin= and regions= are errors, as in the
     * tool. */
    for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (vals[k] && (*vals[k] || k >= NINPUT_KEYS) &&
            (rc = xgo_option_set(job, keys[k], vals[k], err, errlen)) !=
                XG_OK)
            return rc;
    /* the open options, one a line (set_once) */
    for (k = 0; k < 3; k++) {
        static const char *const oo[] = {"oo", "aoo", "boo"};
        const char *p = c->oo[k];
        while (p && *p) {
            size_t n = strcspn(p, "\n");
            char one[1024];
            if (n >= sizeof one) {
                snprintf(err, errlen, "%s: open option too long", oo[k]);
                return XG_EINVAL;
            }
            memcpy(one, p, n);
            one[n] = '\0';
            if ((rc = xgo_option_set(job, oo[k], one, err, errlen)) != XG_OK)
                return rc;
            p += n + (p[n] == '\n');
        }
    }
    return XG_OK;
}

int xgo_conn_check(const struct xgo_conn *c, char *err, size_t errlen)
{
    struct xgo_job job;
    int rc;
    memset(&job, 0, sizeof job);
    rc = xgo_conn_apply(c, &job, err, errlen);
    xgo_options_free(&job);
    return rc;
}
