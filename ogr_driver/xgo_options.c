/*
 * xgo_options.c -- the run options shared by the exactgeo tool and the
 * EXACTGEO: connection strings (keys and contract in xgo.h): one parser,
 * so that both validate alike and say the same; the inputs' open options
 * are open_options.c's.  Calls no GDAL function (the connection string's
 * tests link it without GDAL).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "xgo_internal.h"

/* A usage error, in the caller's err and errlen. */
#define BAD(...) xgo__fail(err, errlen, XG_EINVAL, __VA_ARGS__)

#define GRID_MAX (1 << 20)
#define THREADS_MAX 1024
#define REGIONS_MAX 65536

enum what { OP, ENGINE, GRID, THREADS, GPUS, LAYER, WHERE, COPY, SPAT,
             OUTSIDE, SKIP_INVALID, VERIFY, TIN, REGIONS, MEMORY,
             OPEN_OPTION, GROUP, SOLIDS_CHECKED };

static const struct {
    const char *key;
    enum what what;
    int input;                /* 0: A, 1: B (for the per-input keys);
                                 open options: 2 both */
    unsigned only;            /* the enum xg_op_option bit of the
                                 operations that take it; 0: all do (B's
                                 keys: those with a B) */
} keys[] = {
    {"op", OP, 0, 0},
    {"engine", ENGINE, 0, 0},
    {"grid", GRID, 0, XG_OPT_GRID},
    {"threads", THREADS, 0, 0},
    {"gpus", GPUS, 0, 0},
    {"al", LAYER, 0, 0},
    {"bl", LAYER, 1, 0},
    {"awhere", WHERE, 0, 0},
    {"bwhere", WHERE, 1, 0},
    {"acopy", COPY, 0, XG_OPT_COPY},
    {"bcopy", COPY, 1, XG_OPT_COPY},
    {"aspat", SPAT, 0, 0},
    {"bspat", SPAT, 1, 0},
    {"outside", OUTSIDE, 0, XG_OPT_OUTSIDE},
    {"skip_invalid", SKIP_INVALID, 0, XG_OPT_SKIP_INVALID},
    {"verify", VERIFY, 0, XG_OPT_VERIFY},
    {"tin", TIN, 0, XG_OPT_TIN},
    {"regions", REGIONS, 0, XG_OPT_REGIONS},
    {"max_memory", MEMORY, 0, 0},
    {"oo", OPEN_OPTION, 2, 0},
    {"aoo", OPEN_OPTION, 0, 0},
    {"boo", OPEN_OPTION, 1, 0},
    {"bgroup", GROUP, 1, XG_OPT_GROUP},
    {"solids_checked", SOLIDS_CHECKED, 0, XG_OPT_SOLIDS_CHECKED},
};

#define NKEYS (sizeof keys / sizeof keys[0])

int xgo_option_applies(const struct xg_op *op, const char *key)
{
    size_t k;
    for (k = 0; op && key && k < NKEYS; k++)
        if (strcmp(key, keys[k].key) == 0)
            return keys[k].what != OP &&
                   (keys[k].input != 1 || op->ninputs > 1) &&
                   (!keys[k].only || (op->options & keys[k].only));
    return 0;
}

const char *xgo_option_key(size_t i)
{
    /* op is the operation itself, not an option of it */
    return i + 1 < NKEYS ? keys[i + 1].key : NULL;
}

void xgo_op_list(char *buf, size_t len)
{
    size_t i, n = xg_op_count(), at = 0;
    if (!len)
        return;
    buf[0] = '\0';
    for (i = 0; i < n && at < len; i++) {
        int w = snprintf(buf + at, len - at, "%s%s",
                         i == 0 ? "" : i + 1 == n ? " or " : ", ",
                         xg_op_at(i)->name);
        at += w > 0 ? (size_t)w : 0;
    }
}

/* "yes" (1) or "no" (0), in any case. */
static int parse_yes_no(const char *text, int *out)
{
    if (strcasecmp(text, "yes") == 0)
        *out = 1;
    else if (strcasecmp(text, "no") == 0)
        *out = 0;
    else
        return -1;
    return 0;
}

/* The names of the operations that take the option bit, for messages. */
static void ops_where(unsigned bit, char *buf, size_t len)
{
    size_t i, at = 0, n = 0, k = 0;
    buf[0] = '\0';
    for (i = 0; i < xg_op_count(); i++)
        n += (xg_op_at(i)->options & bit) != 0;
    for (i = 0; i < xg_op_count() && at < len; i++)
        if (xg_op_at(i)->options & bit) {
            /* "a", "a and b", "a, b and c" */
            int w = snprintf(buf + at, len - at, "%s%s",
                             k == 0 ? "" : k + 1 == n ? " and " : ", ",
                             xg_op_at(i)->name);
            at += w > 0 ? (size_t)w : 0;
            k++;
        }
}

/* Non-zero when op's row accepts the option bit (XG_OPT_...). */
static int takes(const struct xg_op *op, unsigned bit)
{
    return (op->options & bit) != 0;
}

const char *xgo_default_layer(const struct xg_op *op)
{
    return op ? op->layer : "contacts";
}

/* Some option of input B is set (boo's open options among them; oo's
 * are both inputs'). */
static int b_set(const struct xgo_job *job)
{
    const struct xgo_input *b = &job->b;
    return b->layer || b->where || b->copy != XGO_COPY_NONE || b->spat_set ||
           job->open_given[2] || b->group;
}

int xgo_options_check(const struct xgo_job *job, char *err, size_t errlen)
{
    char names[256];
    if (!job->op)
        return XG_OK;
    if (job->opts.outside && !takes(job->op, XG_OPT_OUTSIDE)) {
        ops_where(XG_OPT_OUTSIDE, names, sizeof names);
        return BAD("%s gives no outside records (only %s does)",
                   job->op->name, names);
    }
    if (job->skip_invalid && !takes(job->op, XG_OPT_SKIP_INVALID)) {
        ops_where(XG_OPT_SKIP_INVALID, names, sizeof names);
        return BAD("%s reads no closed surfaces to skip (only %s does)",
                   job->op->name, names);
    }
    if (job->opts.solids_checked &&
        !takes(job->op, XG_OPT_SOLIDS_CHECKED)) {
        ops_where(XG_OPT_SOLIDS_CHECKED, names, sizeof names);
        return BAD("%s reads no solids to vouch for (only %s does)",
                   job->op->name, names);
    }
    if (job->verify && !takes(job->op, XG_OPT_VERIFY)) {
        ops_where(XG_OPT_VERIFY, names, sizeof names);
        return BAD("%s has no check to verify with (only %s has)",
                   job->op->name, names);
    }
    if (job->tin && !takes(job->op, XG_OPT_TIN)) {
        ops_where(XG_OPT_TIN, names, sizeof names);
        return BAD("%s gives no triangles to make a TIN of (only %s does)",
                   job->op->name, names);
    }
    if (job->opts.grid[0] && !takes(job->op, XG_OPT_GRID)) {
        ops_where(XG_OPT_GRID, names, sizeof names);
        return BAD("%s has no grid (only %s have one)", job->op->name,
                   names);
    }
    if (job->ngpus && (job->opts.engine == XG_ENGINE_SEQ ||
                       job->opts.engine == XG_ENGINE_CPU))
        return BAD("gpus are the gpu engine's, not the %s engine's",
                   xg_engine_name(job->opts.engine));
    /* regions own contacts by their points (exactgeo.h, "Regions"); a
     * triangulation's triangles have no such owner yet */
    if (job->regions && !takes(job->op, XG_OPT_REGIONS))
        return BAD("%s cannot run in regions or on several processes "
                   "(--regions, mpirun): a triangulation across processes "
                   "is not there yet; run it in one process",
                   job->op->name);
    if (job->b.group && job->op->ninputs > 1 &&
        !takes(job->op, XG_OPT_GROUP)) {
        ops_where(XG_OPT_GROUP, names, sizeof names);
        return BAD("%s reads no triangles to group into solids or meshes "
                   "(only %s do)", job->op->name, names);
    }
    /* a group's triangles may lie in several regions, which read and
     * own features one by one */
    if (job->regions && job->b.group)
        return BAD("grouping B's features (-bgroup) cannot run in regions "
                   "or on several processes (--regions, mpirun): a group's "
                   "triangles may lie in several regions; run it in one "
                   "process");
    if (job->op->ninputs < 2 && b_set(job))
        return BAD("%s takes one input, A: the options of B do not apply",
                   job->op->name);
    if (!takes(job->op, XG_OPT_COPY) &&
        (job->a.copy != XGO_COPY_NONE || job->b.copy != XGO_COPY_NONE))
        return BAD("%s copies no fields (a triangle has three points; its "
                   "fields v0, v1, v2 are their FIDs, to join on)",
                   job->op->name);
    return XG_OK;
}

/* A decimal int in [lo, hi] filling the whole of text (blanks around
 * allowed). */
static int parse_int(const char *text, long lo, long hi, int *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (errno || end == text || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* "auto" (0), "none" (XG_MEMORY_UNCHECKED), or a size in bytes, with an
 * optional K, M, G or T (powers of 1024), above 0. */
static int parse_memory(const char *text, uint64_t *out)
{
    static const char units[] = "KMGT";
    const char *u;
    char *end;
    double v;
    if (strcasecmp(text, "auto") == 0) {
        *out = 0;
        return 0;
    }
    if (strcasecmp(text, "none") == 0) {
        *out = XG_MEMORY_UNCHECKED;
        return 0;
    }
    if (!isdigit((unsigned char)*text))
        return -1;
    errno = 0;
    v = strtod(text, &end);
    if (errno || end == text)
        return -1;
    if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
        v = ldexp(v, 10 * (int)(u - units + 1));
        end++;
    }
    if (*end || !(v >= 1.0) || v >= 1.8e19)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* "N" or "NX,NY,NZ" into cells. */
static int parse_grid(const char *text, int cells[3])
{
    const char *p = text;
    int k, n = 0, v[3];
    for (k = 0; k < 3; k++) {
        char part[32];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len >= sizeof part)
            return -1;
        memcpy(part, p, len);
        part[len] = '\0';
        if (parse_int(part, 1, GRID_MAX, &v[n++]))
            return -1;
        if (!comma)
            break;
        p = comma + 1;
    }
    if ((n != 1 && n != 3) || (n == 3 && strchr(p, ',')))
        return -1;
    for (k = 0; k < 3; k++)
        cells[k] = v[n == 1 ? 0 : k];
    return 0;
}

/* "all" (*n = -1), "N" (devices 0 .. N-1) or "D1,D2,..." (two or more
 * device numbers, a device possibly repeated) into dev, *n. */
static int parse_gpus(const char *text, int *dev, int *n)
{
    const char *p = text;
    int k = 0, v;
    if (strcmp(text, "all") == 0) {
        *n = -1;
        return 0;
    }
    if (!strchr(text, ',')) {
        if (parse_int(text, 1, XG_GPUS_MAX, n))
            return -1;
        for (k = 0; k < *n; k++)
            dev[k] = k;
        return 0;
    }
    for (;;) {
        char part[32];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len >= sizeof part || k == XG_GPUS_MAX)
            return -1;
        memcpy(part, p, len);
        part[len] = '\0';
        if (parse_int(part, 0, 1 << 20, &v))
            return -1;
        dev[k++] = v;
        if (!comma)
            break;
        p = comma + 1;
    }
    *n = k;
    return 0;
}

/* "XMIN YMIN XMAX YMAX", separated by blanks or commas. */
static int parse_box(const char *text, double box[4], char *err,
                     size_t errlen)
{
    const char *p = text;
    int k;
    for (k = 0; k < 4; k++) {
        char num[64], *end;
        size_t len;
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        len = strcspn(p, " \t\n,");
        if (len == 0)
            return BAD("'%s' is not XMIN YMIN XMAX YMAX: "
                        "want four numbers", text);
        if (len >= sizeof num)
            len = sizeof num - 1;
        memcpy(num, p, len);
        num[len] = '\0';
        box[k] = strtod(num, &end);
        if (*end || !isfinite(box[k]))
            return BAD("'%s' is not a number", num);
        p += strcspn(p, " \t\n,");
    }
    while (isspace((unsigned char)*p) || *p == ',')
        p++;
    if (*p)
        return BAD("'%s' is not XMIN YMIN XMAX YMAX: want "
                    "four numbers", text);
    if (!(box[0] <= box[2] && box[1] <= box[3]))
        return BAD("want XMIN YMIN XMAX YMAX, with XMIN <= "
                    "XMAX and YMIN <= YMAX");
    return XG_OK;
}

/* Splits "F1, F2" into one block: the NULL-terminated pointers, then the
 * names (blanks around each stripped; empty names dropped).  NULL when
 * out of memory; *n receives the count. */
static char **split_fields(const char *text, size_t *n)
{
    size_t len = strlen(text), parts = 1, i;
    const char *p;
    char **v, *s;
    for (p = text; *p; p++)
        parts += *p == ',';
    v = malloc((parts + 1) * sizeof *v + len + 1);
    if (!v)
        return NULL;
    s = (char *)(v + parts + 1);
    memcpy(s, text, len + 1);
    *n = 0;
    for (i = 0; i < parts; i++) {
        char *comma = strchr(s, ','), *e;
        if (comma)
            *comma = '\0';
        while (isspace((unsigned char)*s))
            s++;
        e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (*s)
            v[(*n)++] = s;
        s = comma ? comma + 1 : s + strlen(s);
    }
    v[*n] = NULL;
    return v;
}

/* Sets which fields input i (0: A, 1: B) copies from value ("all" or
 * "F1,F2,..."); the list is job's (xgo_options_free), replacing any
 * earlier one.  XG_OK, XG_ENOMEM, or XG_EINVAL for an empty list. */
static int set_copy(struct xgo_job *job, int i, const char *value,
                    char *err, size_t errlen)
{
    struct xgo_input *in = i == 0 ? &job->a : &job->b;
    char **list = NULL;
    size_t n = 0;
    if (strcmp(value, "all") != 0) {
        if (!(list = split_fields(value, &n)))
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        if (n == 0) {
            free(list);
            return BAD("empty field list '%s' (expected "
                        "F1,F2,... or all)", value);
        }
    }
    free(job->copy_lists[i]);
    job->copy_lists[i] = list;
    in->copy = list ? XGO_COPY_LIST : XGO_COPY_ALL;
    in->fields = (const char *const *)list;
    return XG_OK;
}

int xgo_option_set(struct xgo_job *job, const char *key, const char *value,
                   char *err, size_t errlen)
{
    size_t k;
    char names[256];
    for (k = 0; k < NKEYS; k++)
        if (key && strcmp(key, keys[k].key) == 0)
            break;
    if (k == NKEYS)
        return BAD("unknown option '%s'", key ? key : "");
    if (!value)
        value = "";
    {
        struct xgo_input *in = keys[k].input == 0 ? &job->a : &job->b;
        int v;
        switch (keys[k].what) {
        case OP:
            if (!(job->op = xg_op_find(value))) {
                xgo_op_list(names, sizeof names);
                return BAD("unknown operation '%s' (expected "
                            "%s)", value, names);
            }
            return xgo_options_check(job, err, errlen);
        case ENGINE:
            if ((v = xg_engine_parse(value)) < 0)
                return BAD("unknown engine '%s' (expected "
                            "auto, seq, cpu or gpu)", value);
            job->opts.engine = v;
            return xgo_options_check(job, err, errlen);
        case GRID:
            if (parse_grid(value, job->opts.grid))
                return BAD("bad grid '%s' (expected N or "
                            "NX,NY,NZ, each 1..%d)", value, GRID_MAX);
            return xgo_options_check(job, err, errlen);
        case THREADS:
            if (parse_int(value, 0, THREADS_MAX, &job->threads))
                return BAD("bad threads '%s' (expected "
                            "0..%d)", value, THREADS_MAX);
            return XG_OK;
        case MEMORY:
            if (parse_memory(value, &job->memory))
                return BAD("bad max_memory '%s' (expected auto, none, or a "
                           "size: bytes or a number with K, M, G or T)",
                           value);
            return XG_OK;
        case GPUS:
            if (parse_gpus(value, job->gpus, &job->ngpus)) {
                job->ngpus = 0;
                return BAD("bad gpus '%s' (expected all, N in 1..%d, or "
                           "device numbers D1,D2,...)", value, XG_GPUS_MAX);
            }
            return xgo_options_check(job, err, errlen);
        case LAYER:
            in->layer = *value ? value : NULL;
            return xgo_options_check(job, err, errlen);
        case WHERE:
            in->where = *value ? value : NULL;
            return xgo_options_check(job, err, errlen);
        case COPY:
            if ((v = set_copy(job, keys[k].input, value, err, errlen)))
                return v;
            return xgo_options_check(job, err, errlen);
        case SPAT:
            if (parse_box(value, in->spat, err, errlen))
                return XG_EINVAL;
            in->spat_set = 1;
            return xgo_options_check(job, err, errlen);
        case OPEN_OPTION:
            /* oo's input 2 is list 0; aoo's 0 is 1; boo's 1 is 2 */
            if ((v = xgo__open_option_set(job, (keys[k].input + 1) % 3,
                                          value, err, errlen)))
                return v;
            return xgo_options_check(job, err, errlen);
        case GROUP:
            in->group = *value ? value : NULL;
            return xgo_options_check(job, err, errlen);
        case REGIONS:
            if (parse_int(value, 1, REGIONS_MAX, &job->regions))
                return BAD("bad regions '%s' (expected 1..%d)", value,
                           REGIONS_MAX);
            return xgo_options_check(job, err, errlen);
        case OUTSIDE:
        case SKIP_INVALID:
        case VERIFY:
        case TIN:
        case SOLIDS_CHECKED:
            if (parse_yes_no(value, &v))
                return BAD("bad %s '%s' (expected yes or no)", keys[k].key,
                           value);
            if (keys[k].what == OUTSIDE)
                job->opts.outside = v;
            else if (keys[k].what == SOLIDS_CHECKED)
                job->opts.solids_checked = v;
            else if (keys[k].what == SKIP_INVALID)
                job->skip_invalid = v;
            else if (keys[k].what == VERIFY)
                job->verify = v;
            else
                job->tin = v;
            return xgo_options_check(job, err, errlen);
        }
    }
    return XG_EINVAL;
}

void xgo_options_free(struct xgo_job *job)
{
    int i;
    if (!job)
        return;
    for (i = 0; i < 2; i++) {
        struct xgo_input *in = i == 0 ? &job->a : &job->b;
        if (job->copy_lists[i] &&
            in->fields == (const char *const *)job->copy_lists[i]) {
            in->fields = NULL;
            in->copy = XGO_COPY_NONE;
        }
        free(job->copy_lists[i]);
        job->copy_lists[i] = NULL;
    }
    xgo__open_options_free(job);
}
