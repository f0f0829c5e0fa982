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

/* text, then s as a JSON string: one member of an object (text holds
 * the separator and the key). */
static void member(FILE *f, const char *text, const char *s)
{
    fputs(text, f);
    xgo__json_str(f, s);
}

/* s as the next item of a JSON array (*first: it is the first; cleared). */
static void item(FILE *f, const char *s, int *first)
{
    fputs(*first ? "" : ", ", f);
    xgo__json_str(f, s);
    *first = 0;
}

/* Input i of op as a JSON object: role, element, texts, the geometries
 * its reader takes, its index field, whether it must be closed. */
static void input(FILE *f, const struct xg_op *op, int i)
{
    const struct xg_op_input *in = &op->in[i];
    fprintf(f, "{\"role\": \"%c\", \"element\": ", "AB"[i]);
    xgo__json_str(f, xg_elem_name(in->elem));
    member(f, ", \"noun\": ", in->noun);
    member(f, ", \"accepts\": ", in->accepts);
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
        member(f, ", \"title\": ", op->title);
        member(f, ",\n   \"summary\": ", op->summary);
        member(f, ",\n   \"contract\": ", op->contract);
        fprintf(f, ", \"dim\": %d,\n   \"inputs\": [", op->dim);
        input(f, op, 0);
        if (op->ninputs > 1) {
            fprintf(f, ",\n              ");
            input(f, op, 1);
        }
        fprintf(f, "],\n   \"kinds\": [");
        for (k = 0, first = 1; k < XG_KIND_COUNT; k++)
            if ((op->kinds >> k) & 1u)
                item(f, xg_kind_name(k, op->dim), &first);
        fputc(']', f);
        /* the output's fixed fields and geometries: its writer's */
        xgo_shape_of(op)->json_output(f, op);
        /* --verify (verify=yes) applies */
        fprintf(f, ", \"verify\": %s", op->check ? "true" : "false");
        member(f, ",\n   \"layer\": ", op->layer);
        member(f, ", \"records\": ", op->records);
        member(f, ",\n   \"output_geometry\": ", op->output_geometry);
        member(f, ",\n   \"parts\": ", op->parts);
        /* the run options it takes, as connection-string keys */
        fprintf(f, ",\n   \"options\": [");
        for (k = 0, first = 1; xgo_option_key((size_t)k); k++)
            if (xgo_option_applies(op, xgo_option_key((size_t)k)))
                item(f, xgo_option_key((size_t)k), &first);
        fprintf(f, "]}");
    }
    fprintf(f, "\n]}\n");
    return fflush(f) != 0 || ferror(f) ? XG_EIO : XG_OK;
}
