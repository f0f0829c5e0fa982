/*
 * shapes_t.c -- the table of result shapes (ogr_driver/xgo_shape.h):
 * every operation's shape has a complete row, operations of one shape
 * share it and no two shapes do, and what a row prints for the front
 * ends (the table's JSON, --help) names its writer's fields.  Every
 * shape has a row, also one no operation of this build gives (lines:
 * the test operations' shape, configure --enable-test-ops).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"
#include "xgo_shape.h"

/* Every member of row set. */
static int complete(const struct xgo_shape *sh)
{
    return sh && sh->run && sh->free_res && sh->write && sh->define &&
           sh->extent && sh->feature && sh->summary_input &&
           sh->summary_records && sh->stats_records && sh->json_output &&
           sh->help_fields && sh->help_line && sh->join_on && sh->fids;
}

/* What print(f, op) writes, in buf (len bytes, NUL-terminated). */
static void printed(void (*print)(FILE *, const struct xg_op *),
                    const struct xg_op *op, char *buf, size_t len)
{
    FILE *f = tmpfile();
    size_t n = 0;
    buf[0] = '\0';
    if (!f)
        return;
    print(f, op);
    rewind(f);
    n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

int main(void)
{
    size_t i, j, n = xg_op_count();
    char buf[1024], adv[256];

    (void)tap_plan;
    (void)tap_skip_all;
    ok(xgo_shape_of(NULL) == NULL, "no operation: no row");
    for (i = 0; i < n; i++) {
        const struct xg_op *op = xg_op_at(i);
        const struct xgo_shape *sh = xgo_shape_of(op);
        int same = 1;
        ok(complete(sh), "%s: its shape (%d) has a complete row", op->name,
           op->shape);
        for (j = 0; j < n; j++)
            same = same && (xg_op_at(j)->shape == op->shape) ==
                               (xgo_shape_of(xg_op_at(j)) == sh);
        ok(same, "%s: the operations of its shape, and only they, share "
           "its row", op->name);
        if (!complete(sh))
            continue;
        /* the fields its writer makes, in the JSON and the help */
        printed(sh->json_output, op, buf, sizeof buf);
        ok(strncmp(buf, ", \"fields\": [", 13) == 0 &&
               strstr(buf, "\"output\": [") != NULL,
           "%s: the JSON names the output's fields and geometries (%s)",
           op->name, buf);
        printed(sh->help_line, op, buf, sizeof buf);
        sh->join_on(adv, sizeof adv, op);
        ok(*adv && strncmp(buf, adv, 2) == 0 &&
               buf[strlen(buf) - 1] == '\n',
           "%s: --help's line starts with the fields to join on (%.2s)",
           op->name, adv);
        sh->fids(adv, sizeof adv, op);
        ok(strstr(adv, "feature ids") != NULL, "%s: where the ids are: %s",
           op->name, adv);
    }
    for (i = 0; i < XG_SHAPE_COUNT; i++) {
        struct xg_op op = {0};
        op.shape = (int)i;
        ok(complete(xgo_shape_of(&op)), "shape %d has a complete row",
           (int)i);
    }
    {
        /* a lines operation of two meshes, without kinds or copies: its
         * fields have neither, its output is lines */
        struct xg_op op = {0};
        const struct xgo_shape *sh;
        op.name = "lines";
        op.ninputs = 2;
        op.dim = 3;
        op.shape = XG_SHAPE_LINES;
        op.in[0].sub_field = "a_tri";
        op.in[1].sub_field = "b_tri";
        op.in[0].elements = op.in[1].elements = "triangles";
        sh = xgo_shape_of(&op);
        printed(sh->json_output, &op, buf, sizeof buf);
        ok(strcmp(buf, ", \"fields\": [\"a_fid\", \"a_tri\", \"b_fid\", "
                       "\"b_tri\"], \"output\": [\"line\"]") == 0,
           "lines: the JSON's fields and output (%s)", buf);
        printed(sh->help_line, &op, buf, sizeof buf);
        ok(strcmp(buf, "a_fid, a_tri, b_fid, b_tri\n") == 0,
           "lines: --help's fields, no kind, no copies (%s)", buf);
        printed(sh->help_fields, &op, buf, sizeof buf);
        ok(strstr(buf, "a_tri") && !strstr(buf, "kind") &&
               !strstr(buf, "acopy"),
           "lines: the help's fields, no kind, no copies");
    }
    tap_done();
    return tap_exit();
}
