/*
 * ops_json.c -- the operation table as JSON (xgo_ops_write_json), what
 * `exactgeo --operations` prints and the QGIS provider reads.
 */
#include <stdio.h>
#include <string.h>
#include "xgo_internal.h"

/* The words of xgo_input_geometry ("line polygon") as a JSON array. */
static void words(FILE *f, const char *text)
{
    const char *p = text ? text : "";
    int first = 1;
    fputc('[', f);
    while (*p) {
        size_t n = strcspn(p, " ");
        if (n) {
            fprintf(f, "%s\"%.*s\"", first ? "" : ", ", (int)n, p);
            first = 0;
        }
        p += n;
        p += strspn(p, " ");
    }
    fputc(']', f);
}

/* Input i of op as a JSON object: role, element, texts, the geometries
 * its reader takes, its index field, whether it must be closed. */
static void input(FILE *f, const struct xg_op *op, int i)
{
    const struct xg_op_input *in = &op->in[i];
    fprintf(f, "{\"role\": \"%c\", \"element\": ", "AB"[i]);
    xgo__json_str(f, xg_elem_name(in->elem));
    fprintf(f, ", \"noun\": ");
    xgo__json_str(f, in->noun);
    fprintf(f, ", \"accepts\": ");
    xgo__json_str(f, in->accepts);
    fprintf(f, ", \"geometry\": ");
    words(f, xgo_input_geometry(op, i));
    fprintf(f, ", \"field\": ");
    if (in->sub_field)
        xgo__json_str(f, in->sub_field);
    else
        fprintf(f, "null");
    /* each feature must be a closed surface: -skip-invalid applies */
    fprintf(f, ", \"closed\": %s", in->closed ? "true" : "false");
    fputc('}', f);
}

/* Contract in xgo.h; the output's fields and geometries come from the
 * operation's shape (xgo_shape.h). */
int xgo_ops_write_json(FILE *f)
{
    size_t i, n = xg_op_count();
    int k, first;
    fprintf(f, "{\"operations\": [");
    for (i = 0; i < n; i++) {
        const struct xg_op *op = xg_op_at(i);
        fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
        xgo__json_str(f, op->name);
        fprintf(f, ", \"title\": ");
        xgo__json_str(f, op->title);
        fprintf(f, ",\n   \"summary\": ");
        xgo__json_str(f, op->summary);
        fprintf(f, ",\n   \"contract\": ");
        xgo__json_str(f, op->contract);
        fprintf(f, ", \"dim\": %d,\n   \"inputs\": [", op->dim);
        input(f, op, 0);
        if (op->ninputs > 1) {
            fprintf(f, ",\n              ");
            input(f, op, 1);
        }
        fprintf(f, "],\n   \"kinds\": [");
        for (k = 0, first = 1; k < XG_KIND_COUNT; k++)
            if ((op->kinds >> k) & 1u) {
                fprintf(f, first ? "" : ", ");
                xgo__json_str(f, xg_kind_name(k, op->dim));
                first = 0;
            }
        fputc(']', f);
        /* the output's fixed fields and geometries: its writer's */
        xgo_shape_of(op)->json_output(f, op);
        /* --verify (verify=yes) applies */
        fprintf(f, ", \"verify\": %s", op->check ? "true" : "false");
        fprintf(f, ",\n   \"layer\": ");
        xgo__json_str(f, op->layer);
        fprintf(f, ", \"records\": ");
        xgo__json_str(f, op->records);
        fprintf(f, ",\n   \"output_geometry\": ");
        xgo__json_str(f, op->output_geometry);
        fprintf(f, ",\n   \"parts\": ");
        xgo__json_str(f, op->parts);
        /* the run options it takes, as connection-string keys */
        fprintf(f, ",\n   \"options\": [");
        for (k = 0, first = 1; xgo_option_key((size_t)k); k++)
            if (xgo_option_applies(op, xgo_option_key((size_t)k))) {
                fprintf(f, first ? "" : ", ");
                xgo__json_str(f, xgo_option_key((size_t)k));
                first = 0;
            }
        fprintf(f, "]}");
    }
    fprintf(f, "\n]}\n");
    return fflush(f) != 0 || ferror(f) ? XG_EIO : XG_OK;
}
