/*
 * cases_t.c -- runs every named robustness case of tests/cases/ (*.case,
 * in name order) through the core and compares the contacts, bit for
 * bit, with the ones the case expects.  The format and the rule ("every
 * robustness bug becomes a case") are in tests/cases/README.md.
 *
 * One TAP line per case and engine (seq; cpu with 4 threads).  The folder
 * is XG_CASES_DIR from the environment, else the one compiled in.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"

#ifndef XG_CASES_DIR
#define XG_CASES_DIR "tests/cases"
#endif

struct tcase {
    char op[16];                 /* "segtri" or "redblue" */
    struct xg_set a, bsegs;     /* bsegs: redblue's B */
    struct xg_set btris;        /* segtri's B */
    struct xg_contacts want;     /* in (a, b) order, as the core gives */
    int expect_lines;            /* "expect" lines read (incl. "none") */
};

static void case_free(struct tcase *c)
{
    xg_set_free(&c->a);
    xg_set_free(&c->bsegs);
    xg_set_free(&c->btris);
    xg_contacts_free(&c->want);
}

/* Reads n doubles from s (strtod: decimal or hexadecimal, exact when the
 * decimal is); returns the count read. */
static int doubles(const char *s, double *v, int n)
{
    int k;
    for (k = 0; k < n; k++) {
        char *end;
        errno = 0;
        v[k] = strtod(s, &end);
        if (end == s || errno)
            break;
        s = end;
    }
    return k;
}

static int kind_of(const char *w)
{
    if (!strcmp(w, "proper"))
        return XG_KIND_PROPER;
    if (!strcmp(w, "touch"))
        return XG_KIND_TOUCH;
    if (!strcmp(w, "overlap"))
        return XG_KIND_OVERLAP;
    return -1;
}

static int add_want(struct xg_contacts *w, const struct xg_contact *c)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 8;
        struct xg_contact *v = realloc(w->v, cap * sizeof *v);
        if (!v)
            return -1;
        w->v = v;
        w->cap = cap;
    }
    w->v[w->n++] = *c;
    return 0;
}

/* Parses path into c (zeroed by the caller).  Returns 0, or -1 with the
 * reason in why. */
static int case_read(const char *path, struct tcase *c, char *why,
                     size_t whylen)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int ln = 0, rc = 0;
    if (!f) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        return -1;
    }
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char word[16], kind[16], *hash = strchr(line, '#');
        double v[9];
        int used = 0;
        ln++;
        if (hash)
            *hash = '\0';
        if (sscanf(line, "%15s %n", word, &used) != 1)
            continue;
        if (!strcmp(word, "op")) {
            if (sscanf(line + used, "%15s", c->op) != 1 ||
                (strcmp(c->op, "segtri") && strcmp(c->op, "redblue")))
                rc = -1;
        } else if (!strcmp(word, "a") || !strcmp(word, "b")) {
            int tri = word[0] == 'b' && !strcmp(c->op, "segtri");
            int n = tri ? 9 : 6;
            if (!c->op[0] || doubles(line + used, v, n) != n)
                rc = -1;
            else if (word[0] == 'a')
                rc = xg_set_push_segment(&c->a, v, v + 3, (int64_t)c->a.n, 0);
            else if (tri)
                rc = xg_set_push_triangle(&c->btris, v, v + 3, v + 6,
                                  (int64_t)c->btris.n, 0);
            else
                rc = xg_set_push_segment(&c->bsegs, v, v + 3,
                                  (int64_t)c->bsegs.n, 0);
        } else if (!strcmp(word, "expect")) {
            struct xg_contact ct;
            unsigned ia, ib;
            int more = 0, k;
            c->expect_lines++;
            if (sscanf(line + used, "%15s", kind) == 1 &&
                !strcmp(kind, "none"))
                continue;
            memset(&ct, 0, sizeof ct);
            if (sscanf(line + used, "%u %u %15s %n", &ia, &ib, kind, &more) !=
                    3 || (k = kind_of(kind)) < 0) {
                rc = -1;
                continue;
            }
            ct.a = ia;
            ct.b = ib;
            ct.kind = k;
            if (doubles(line + used + more, v, k == XG_KIND_OVERLAP ? 6 : 3) !=
                (k == XG_KIND_OVERLAP ? 6 : 3)) {
                rc = -1;
                continue;
            }
            memcpy(ct.p, v, sizeof ct.p);
            if (k == XG_KIND_OVERLAP)
                memcpy(ct.q, v + 3, sizeof ct.q);
            rc = add_want(&c->want, &ct);
        } else {
            rc = -1;
        }
    }
    fclose(f);
    if (rc != 0)
        snprintf(why, whylen, "line %d: not 'op', 'a', 'b' or 'expect' as "
                 "tests/cases/README.md describes", ln);
    else if (!c->op[0] || !c->a.n || !c->expect_lines)
        snprintf(why, whylen, "needs an 'op' line, 'a' elements and 'expect' "
                 "lines ('expect none' for no contact)"), rc = -1;
    return rc;
}

static void describe(const struct xg_contact *c, char *buf, size_t len)
{
    if (c->kind == XG_KIND_OVERLAP)
        snprintf(buf, len, "%u %u overlap %.17g %.17g %.17g %.17g %.17g %.17g",
                 c->a, c->b, c->p[0], c->p[1], c->p[2], c->q[0], c->q[1],
                 c->q[2]);
    else
        snprintf(buf, len, "%u %u %s %.17g %.17g %.17g", c->a, c->b,
                 c->kind == XG_KIND_PROPER ? "proper" : "touch", c->p[0],
                 c->p[1], c->p[2]);
}

/* Runs case c with engine e (threads threads) and reports one TAP line. */
static void run_case(const char *name, const struct tcase *c, int e,
                     int threads, const char *ename)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_opts opt = {.engine = 0};
    struct xg_contacts got = {0};
    size_t i, d;
    int rc;
    opt.engine = e;
    if (!ctx || xg_ctx_set_threads(ctx, threads) != XG_OK) {
        ok(0, "%s, %s: context", name, ename);
        xg_ctx_free(ctx);
        return;
    }
    rc = strcmp(c->op, "segtri") == 0
             ? xg_segtri(ctx, &c->a, &c->btris, &opt, &got, NULL)
             : xg_redblue(ctx, &c->a, &c->bsegs, &opt, &got, NULL);
    d = rc == XG_OK ? xg_contacts_diff(&got, &c->want) : 0;
    if (!ok(rc == XG_OK && d == SIZE_MAX, "%s, %s engine: %zu contact%s as "
            "expected", name, ename, c->want.n, c->want.n == 1 ? "" : "s")) {
        char buf[512];
        if (rc != XG_OK)
            printf("#   %s\n", xg_ctx_errmsg(ctx));
        for (i = 0; rc == XG_OK && i < got.n; i++) {
            describe(&got.v[i], buf, sizeof buf);
            printf("#   got    %s\n", buf);
        }
        for (i = 0; i < c->want.n; i++) {
            describe(&c->want.v[i], buf, sizeof buf);
            printf("#   expect %s\n", buf);
        }
    }
    xg_contacts_free(&got);
    xg_ctx_free(ctx);
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

int main(void)
{
    const char *dir = getenv("XG_CASES_DIR");
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    struct dirent *de;
    DIR *d;

    (void)tap_plan;
    (void)tap_skip_all;
    if (!dir || !*dir)
        dir = XG_CASES_DIR;
    if (!(d = opendir(dir))) {
        ok(0, "open the cases folder %s: %s", dir, strerror(errno));
        tap_done();
        return tap_exit();
    }
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".case"))
            continue;
        if (n == cap) {
            char **v = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *v);
            if (!v)
                return 99;
            names = v;
        }
        if (!(names[n++] = strdup(de->d_name)))
            return 99;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    ok(n >= 5, "%zu cases in %s", n, dir);
    for (i = 0; i < n; i++) {
        struct tcase c;
        char path[4096], why[256];
        memset(&c, 0, sizeof c);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (!ok(case_read(path, &c, why, sizeof why) == 0, "%s reads",
                names[i]))
            printf("#   %s\n", why);
        else {
            run_case(names[i], &c, XG_ENGINE_SEQ, 1, "seq");
            run_case(names[i], &c, XG_ENGINE_CPU, 4, "cpu");
        }
        case_free(&c);
        free(names[i]);
    }
    free(names);
    tap_done();
    return tap_exit();
}
