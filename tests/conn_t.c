/* conn_t.c -- the EXACTGEO: connection string and .xgjob parser. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exactgeo.h"
#include "tap.h"
#include "xgo.h"
#include "xgo_conn.h"

static int streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* Parses text expecting failure; true when err mentions want. */
static int fails_with(const char *text, const char *want)
{
    struct xgo_conn c = {0};
    char err[512] = "";
    int rc = xgo_conn_parse(text, &c, err, sizeof err);
    if (rc == XG_OK)
        rc = xgo_conn_check(&c, err, sizeof err);
    xgo_conn_free(&c);
    if (rc == XG_OK || !strstr(err, want)) {
        printf("# '%s' -> rc %d, '%s'\n", text, rc, err);
        return 0;
    }
    return 1;
}

/* The grid option as the connection string's grid= sets it (the run
 * options' parser, xgo_option_set), into cells. */
static int grid(const char *text, int cells[3])
{
    struct xgo_job job;
    char err[256];
    int rc, k;
    memset(&job, 0, sizeof job);
    rc = xgo_option_set(&job, "grid", text, err, sizeof err);
    for (k = 0; k < 3; k++)
        cells[k] = job.opts.grid[k];
    return rc;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        printf("Bail out! cannot write %s\n", path);
        exit(1);
    }
}

int main(void)
{
    struct xgo_conn c = {0};
    char err[512] = "", dir[] = "/tmp/conn_tXXXXXX", path[600];
    int cells[3], rc;

    (void)tap_plan;     /* tap.h's helpers this test does not call */
    (void)tap_skip_all;

    rc = xgo_conn_parse("ExactGeo:op=segtri; a=holes.gpkg ;AL=holes;"
                        "b=ore.gpkg;acopy=hole_id, name;engine=cpu;grid=100",
                        &c, err, sizeof err);
    ok(rc == XG_OK && xgo_conn_check(&c, err, sizeof err) == XG_OK,
       "plain string parses (%s)", err);
    ok(streq(c.op, "segtri") && streq(c.src[0], "holes.gpkg") &&
           streq(c.layer[0], "holes") && streq(c.src[1], "ore.gpkg") &&
           streq(c.copy[0], "hole_id, name") && streq(c.engine, "cpu") &&
           streq(c.grid, "100") && !c.layer[1] && !c.where[0],
       "keys case-insensitive, values trimmed, absent keys NULL");
    ok(xgo_conn_set(&c, "ENGINE", "seq", err, sizeof err) == XG_OK &&
           streq(c.engine, "seq"),
       "an open option overrides the string's value");
    xgo_conn_free(&c);

    rc = xgo_conn_parse("EXACTGEO:op=redblue;a=\"my;file.shp\";b=b.shp;"
                        "awhere=\"name = 'A;B' and x = \"\"q\"\"\" ;",
                        &c, err, sizeof err);
    ok(rc == XG_OK && streq(c.src[0], "my;file.shp") &&
           streq(c.where[0], "name = 'A;B' and x = \"q\""),
       "quoted values keep ';' and turn \"\" into one quote (%s)",
       c.where[0] ? c.where[0] : err);
    xgo_conn_free(&c);

    /* Issue 11, item 12: the values that name a choice are
     * case-insensitive like the keys. */
    rc = xgo_conn_parse("EXACTGEO:op=SEGTRI;a=x;b=y;engine=Seq", &c, err,
                        sizeof err);
    if (rc == XG_OK)
        rc = xgo_conn_check(&c, err, sizeof err);
    ok(rc == XG_OK && streq(c.op, "segtri") && streq(c.engine, "seq"),
       "op=SEGTRI and engine=Seq accepted, stored in lower case (%s)", err);
    xgo_conn_free(&c);
    rc = xgo_conn_parse("EXACTGEO:op=RedBlue;a=x;b=y", &c, err, sizeof err);
    ok(rc == XG_OK && xgo_conn_set(&c, "engine", "CPU", err, sizeof err) ==
           XG_OK && xgo_conn_check(&c, err, sizeof err) == XG_OK &&
           streq(c.op, "redblue") && streq(c.engine, "cpu"),
       "op=RedBlue, and ENGINE=CPU as an open option (%s)", err);
    xgo_conn_free(&c);
    ok(fails_with("EXACTGEO:op=UNION;a=x;b=y", "unknown operation 'union'"),
       "an unknown operation in capitals is still refused");

    ok(xgo_conn_has_prefix("exactgeo:op=x") &&
           !xgo_conn_has_prefix("EXACTGE:op") && !xgo_conn_has_prefix(NULL),
       "prefix test is case-insensitive and exact");

    ok(fails_with("EXACTGEO:op=segtri;a=x;b=y;engine=", "unknown engine ''") &&
           fails_with("EXACTGEO:op=segtri;a=x;b=y;threads=", "bad threads ''") &&
           fails_with("EXACTGEO:op=segtri;a=x;b=y;grid=", "bad grid ''"),
       "engine=, threads= and grid= with no value are refused");
    ok(fails_with("EXACTGEO:a=x;b=y", "missing key 'op'"), "op required");
    ok(fails_with("EXACTGEO:op=segtri;b=y", "missing key 'a'"), "a required");
    ok(fails_with("EXACTGEO:op=segtri;a=x", "missing key 'b'"), "b required");
    ok(fails_with("EXACTGEO:op=delaunay;a=x;b=y",
                  "delaunay takes one input: key 'b' does not apply") &&
           fails_with("EXACTGEO:op=delaunay;a=x;bl=L",
                      "delaunay takes one input, A: the options of B do "
                      "not apply") &&
           fails_with("EXACTGEO:op=delaunay;a=x;acopy=all",
                      "delaunay copies no fields") &&
           fails_with("EXACTGEO:op=segtri;a=x;b=y;verify=yes",
                      "segtri has no check to verify with (only delaunay "
                      "has)") &&
           fails_with("EXACTGEO:op=delaunay;a=x;verify=maybe",
                      "bad verify 'maybe' (expected yes or no)") &&
           fails_with("EXACTGEO:op=inside;a=x;b=y;tin=yes",
                      "inside gives no triangles to make a TIN of"),
       "one input: b=, B's keys and copies refused for delaunay; verify= "
       "only where there is a check, tin= only where there are triangles");
    ok(fails_with("EXACTGEO:op=union;a=x;b=y", "unknown operation 'union'"),
       "unknown operation named");
    ok(fails_with("EXACTGEO:op=segtri;a=x;b=y;colour=red",
                  "unknown key 'colour'"), "unknown key named");
    ok(fails_with("EXACTGEO:op=segtri;a=x;a=y;b=z", "key 'a' given twice"),
       "duplicate key refused");
    {
        /* oo, aoo, boo repeat; an input's own win over oo's, the last
         * of one name counts */
        struct xgo_conn k = {0};
        struct xgo_job job;
        const char *const *a, *const *b;
        memset(&job, 0, sizeof job);
        rc = xgo_conn_parse("EXACTGEO:op=inside;a=p.csv;b=s.csv;"
                            "oo=X_POSSIBLE_NAMES=lon;aoo=X_POSSIBLE_NAMES=x;"
                            "oo=Y_POSSIBLE_NAMES=y;boo=GEOM_POSSIBLE_NAMES=g;"
                            "aoo=x_possible_names=east",
                            &k, err, sizeof err);
        if (rc == XG_OK)
            rc = xgo_conn_apply(&k, &job, err, sizeof err);
        a = job.a.open_options;
        b = job.b.open_options;
        ok(rc == XG_OK && a && streq(a[0], "x_possible_names=east") &&
               streq(a[1], "Y_POSSIBLE_NAMES=y") && !a[2] && b &&
               streq(b[0], "GEOM_POSSIBLE_NAMES=g") &&
               streq(b[1], "X_POSSIBLE_NAMES=lon") &&
               streq(b[2], "Y_POSSIBLE_NAMES=y") && !b[3],
           "oo=, aoo=, boo= repeat; aoo's win over oo's, the last of a "
           "name counts (%s)", err);
        xgo_options_free(&job);
        xgo_conn_free(&k);
        ok(fails_with("EXACTGEO:op=delaunay;a=x;boo=A=1",
                      "delaunay takes one input") &&
               fails_with("EXACTGEO:op=delaunay;a=x;oo=NOVALUE",
                          "bad open option 'NOVALUE' (expected NAME=VALUE)"),
           "boo= refused for one input; an open option without '=' "
           "refused");
    }
    ok(fails_with("EXACTGEO:op=segtri;a=x;b=y;engine=fast",
                  "unknown engine 'fast'"), "bad engine named");
    ok(fails_with("EXACTGEO:op=segtri;a=x;b=y;grid=0", "bad grid '0'"),
       "grid 0 refused");
    ok(fails_with("EXACTGEO:op=segtri;a=x;b=y;grid=10,20", "bad grid"),
       "grid of two numbers refused");
    ok(fails_with("EXACTGEO:op=segtri;a=x;b=y;threads=-1", "bad threads"),
       "negative threads refused");
    ok(fails_with("EXACTGEO:op=segtri;a=\"x;b=y", "unterminated quote"),
       "unterminated quote refused");
    ok(fails_with("EXACTGEO:op=segtri;junk;b=y", "expected key=value at 'junk'"),
       "pair without '=' refused");
    ok(fails_with("EXACTGEO:op=segtri;a=\"x\"z;b=y", "expected ';' after"),
       "text after a closing quote refused");

    {
        /* op= takes every operation of the table, and only those */
        size_t i, good = 0;
        for (i = 0; i < xg_op_count(); i++) {
            char text[256];
            /* b= only where the operation has a B */
            snprintf(text, sizeof text, "EXACTGEO:op=%s;a=x%s",
                     xg_op_at(i)->name,
                     xg_op_at(i)->ninputs > 1 ? ";b=y" : "");
            rc = xgo_conn_parse(text, &c, err, sizeof err);
            good += rc == XG_OK &&
                    xgo_conn_check(&c, err, sizeof err) == XG_OK;
            xgo_conn_free(&c);
        }
        ok(good == xg_op_count() && good > 0,
           "op= takes each of the %zu operations of the table", good);
    }

    ok(grid("7", cells) == XG_OK && cells[0] == 7 && cells[1] == 7 &&
           cells[2] == 7, "grid N gives N,N,N");
    ok(grid(" 4, 5 ,6", cells) == XG_OK && cells[0] == 4 &&
           cells[1] == 5 && cells[2] == 6, "grid NX,NY,NZ");
    ok(grid("1048577", cells) != XG_OK && grid("3x", cells) !=
           XG_OK, "grid out of range or malformed refused");

    /* Job files. */
    if (!mkdtemp(dir)) {
        printf("Bail out! mkdtemp\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/run.xgjob", dir);
    write_file(path, "#exactgeo-job 1\n# a comment\n\nop = segtri\n"
                     "a = holes.gpkg\nb=/abs/ore.gpkg\n"
                     "bwhere = name = 'x;y'\n");
    rc = xgo_conn_read_job(path, &c, err, sizeof err);
    snprintf(path, sizeof path, "%s/holes.gpkg", dir);
    ok(rc == XG_OK && streq(c.src[0], path) && streq(c.src[1], "/abs/ore.gpkg")
           && streq(c.where[1], "name = 'x;y'"),
       "job file: relative a from the file's folder, absolute b kept, "
       "';' literal (%s)", rc ? err : c.src[0]);
    xgo_conn_free(&c);
    ok(xgo_conn_is_job("#exactgeo-job 1\n", 16) &&
           !xgo_conn_is_job("#exactgeo", 9) && !xgo_conn_is_job("op=x", 4),
       "job magic recognised, short or other heads not");

    /* Issue 11, item 12: a byte order mark before the magic (Windows
     * editors) is skipped; a missing magic line is named. */
    snprintf(path, sizeof path, "%s/bom.xgjob", dir);
    write_file(path, "\xEF\xBB\xBF#exactgeo-job 1\r\nop = segtri\r\n"
                     "a = /abs/holes.gpkg\r\nb = /abs/ore.gpkg\r\n");
    rc = xgo_conn_read_job(path, &c, err, sizeof err);
    ok(rc == XG_OK && streq(c.op, "segtri") &&
           streq(c.src[0], "/abs/holes.gpkg") &&
           streq(c.src[1], "/abs/ore.gpkg"),
       "job file with a UTF-8 BOM and CRLF line ends read (%s)",
       rc ? err : "ok");
    xgo_conn_free(&c);
    unlink(path);
    ok(xgo_conn_is_job("\xEF\xBB\xBF#exactgeo-job 1\n", 19) &&
           !xgo_conn_is_job("\xEF\xBB\xBF#exactgeo", 12) &&
           !xgo_conn_is_job("\xEF\xBB", 2),
       "job magic recognised after a BOM");

    /* inside's flags: yes or no, any case; refused where the operation
     * has no use for them, whichever comes first of op and the flag */
    {
        struct xgo_conn k = {0};
        struct xgo_job job;
        memset(&job, 0, sizeof job);
        rc = xgo_conn_parse("op=inside;a=p.gpkg;b=s.gpkg;outside=YES;"
                            "skip_invalid=yes", &k, err, sizeof err);
        if (rc == XG_OK)
            rc = xgo_conn_apply(&k, &job, err, sizeof err);
        ok(rc == XG_OK && job.opts.outside == 1 && job.skip_invalid == 1,
           "op=inside;outside=YES;skip_invalid=yes sets both (%s)", err);
        xgo_options_free(&job);
        xgo_conn_free(&k);
        memset(&job, 0, sizeof job);
        rc = xgo_conn_parse("op=inside;a=p.gpkg;b=s.gpkg;outside=no", &k,
                            err, sizeof err);
        if (rc == XG_OK)
            rc = xgo_conn_apply(&k, &job, err, sizeof err);
        ok(rc == XG_OK && job.opts.outside == 0 && job.skip_invalid == 0,
           "outside=no leaves it off");
        xgo_options_free(&job);
        xgo_conn_free(&k);
        memset(&job, 0, sizeof job);
        rc = xgo_option_set(&job, "outside", "yes", err, sizeof err);
        ok(rc == XG_OK && job.opts.outside == 1,
           "outside before any op: taken, checked when op comes");
        rc = xgo_option_set(&job, "op", "redblue", err, sizeof err);
        ok(rc == XG_EINVAL && strstr(err, "redblue gives no outside records"),
           "then op=redblue: refused (%s)", err);
    }
    ok(fails_with("op=inside;a=p;b=s;outside=maybe",
                  "bad outside 'maybe' (expected yes or no)") &&
           fails_with("op=inside;a=p;b=s;skip_invalid=",
                      "bad skip_invalid '' (expected yes or no)") &&
           fails_with("op=segtri;a=p;b=s;skip_invalid=yes",
                      "segtri reads no closed surfaces to skip (only inside "
                      "does)") &&
           fails_with("op=inside;a=p;b=s;outside=yes;outside=no",
                      "key 'outside' given twice"),
       "bad outside / skip_invalid values and misplaced flags refused");

    snprintf(path, sizeof path, "%s/bad.xgjob", dir);
    write_file(path, "op = segtri\na = x\n");
    rc = xgo_conn_read_job(path, &c, err, sizeof err);
    ok(rc == XG_EINVAL && strstr(err, "not an exactgeo job file") &&
           strstr(err, "bad.xgjob"), "job without magic refused, file named");
    ok(rc == XG_EINVAL && strstr(err, "first line must start with "
                                      "'#exactgeo-job'") &&
           strstr(err, "not 'op = segtri'"),
       "the message names the expected and the actual first line (%s)", err);
    unlink(path);
    write_file(path, "#exactgeo-job\nop = segtri\nthis line is wrong\n");
    rc = xgo_conn_read_job(path, &c, err, sizeof err);
    ok(rc == XG_EINVAL && strstr(err, "line 3") &&
           strstr(err, "expected key = value"), "bad line named (%s)", err);
    unlink(path);
    rc = xgo_conn_read_job(path, &c, err, sizeof err);
    ok(rc == XG_EIO && strstr(err, "cannot read job file"),
       "missing job file reported");
    snprintf(path, sizeof path, "%s/run.xgjob", dir);
    unlink(path);
    rmdir(dir);

    tap_done();
    return tap_exit();
}
