/*
 * help.c -- what `exactgeo --help` and `exactgeo OP --help` print, and
 * the ogr2ogr options the tool refuses, with what to do instead.  Every
 * text that depends on the operation comes from its entry in the table
 * (exactgeo.h, struct xg_op): its inputs, options (which run options it
 * takes: xgo_option_applies), kinds and texts, and from its shape's row
 * (xgo_shape.h: the output's fields); nothing here names an operation
 * or a shape.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "exactgeo.h"
#include "help.h"
#include "xgo.h"
#include "xgo_shape.h"

/* The tool's options, by section.  key: the run option's key in the one
 * parser (xgo_option_set), whose operations are those xgo_option_applies
 * names; NULL: a tool option every operation takes.  A line of text is
 * "  -opt ARG   what", continued at column 19. */
static const struct option {
    const char *section;
    const char *key;
    const char *text;
} options[] = {
    {"Output", NULL,
     "  -f FORMAT        GDAL vector driver (default: from DST's extension, GPKG)\n"},
    /* -nln: its default is the operation's (nln_line) */
    {"Output", "-nln", NULL},
    {"Output", NULL,
     "  -lco K=V         layer creation option (repeatable).  A new GeoPackage\n"
     "                   layer gets its spatial index from exactgeo at the close\n"
     "                   (fast); -lco SPATIAL_INDEX=NO: none, =YES: GDAL's (slow)\n"
     "  -dsco K=V        dataset creation option (repeatable)\n"
     "  -overwrite       replace an existing DST (the whole dataset; in a\n"
     "                   Shapefile folder, only NAME.* and NAME_lines.*)\n"
     "  -append          add the layer (or its features) to an existing DST\n"
     "  CSV output holds the geometry as WKT (-lco GEOMETRY=... to change it).\n"
     "  Output time by format, a TIN of 10^6 points (2*10^6 triangles), 2 cores,\n"
     "  whole run: GPKG 2.8 s, GPKG -lco SPATIAL_INDEX=NO 2.2 s, FlatGeobuf 15 s,\n"
     "  Shapefile 18 s, CSV 24 s (docs/cli.md, Output formats).\n"},
    {"Inputs", "al",
     "  -al LAYER        layer of A_SRC (needed when it has several)\n"},
    {"Inputs", "bl", "  -bl LAYER        layer of B_SRC\n"},
    {"Inputs", "awhere", "  -where SQL       attribute filter on A\n"},
    {"Inputs", "bwhere", "  -bwhere SQL      attribute filter on B\n"},
    {"Inputs", "aspat",
     "  -spat XMIN YMIN XMAX YMAX   spatial filter on A: only features that\n"
     "                   meet the box, in A's CRS (as ogr2ogr -spat)\n"},
    {"Inputs", "bspat",
     "  -bspat XMIN YMIN XMAX YMAX  spatial filter on B\n"},
    {"Inputs", "acopy",
     "  -acopy F1,F2|all copy these fields of A, as a_F1, a_F2, ...\n"},
    {"Inputs", "bcopy",
     "  -bcopy F1,F2|all copy these fields of B, as b_F1, ...\n"},
    {"Inputs", "outside",
     "  -outside         also one feature for each point in no solid (b_fid\n"
     "                   NULL, kind outside), so that every point appears\n"},
    {"Inputs", "oo",
     "  -oo NAME=VALUE   open option of the inputs' driver (repeatable), as\n"
     "                   ogr2ogr -oo.  A CSV of coordinates: -oo\n"
     "                   X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y\n"
     "                   -oo Z_POSSIBLE_NAMES=z\n"},
    {"Inputs", "aoo",
     "  -aoo NAME=VALUE  open option of A's driver only (wins over -oo)\n"},
    {"Inputs", "boo",
     "  -boo NAME=VALUE  open option of B's driver only (wins over -oo)\n"},
    {"Inputs", "bgroup",
     "  -bgroup FIELD    one mesh or solid per value of B's FIELD, of the\n"
     "                   triangles of all its features (a DXF wireframe:\n"
     "                   -bgroup Layer); b_fid is the group's lowest FID,\n"
     "                   -bcopy FIELD copies the value\n"},
    {"Inputs", "skip_invalid",
     "  -skip-invalid    skip a solid whose surface is not closed or crosses\n"
     "                   itself, with a warning (default: an error naming the\n"
     "                   feature)\n"},
    {"Inputs", "solids_checked",
     "  --solids-checked no solid of B crosses itself, you vouch: the check is\n"
     "                   left out (where parts overlap, parity: outside)\n"},
    {"Inputs", NULL,
     "  A filter that selects nothing, or an input with nothing usable, is an\n"
     "  error: an empty output would read as an answer.\n"},
    {"Run", "engine",
     "  --engine E       auto (default), seq, cpu or gpu\n"},
    {"Run", "grid",
     "  --grid N|NX,NY,NZ  grid cells per axis (default: chosen from the counts)\n"},
    {"Run", "threads",
     "  --threads N      cpu engine threads (default: all processors)\n"},
    {"Run", "gpus",
     "  --gpus all|N|D1,D2,...  the gpu engine's devices: every one, the first\n"
     "                   N, or a list; over several, the run is cut into regions,\n"
     "                   one thread per device, with the same output\n"},
    {"Run", "regions",
     "  --regions N      run in N regions of the plane, cut where the work is, one\n"
     "                   after another, each holding only its features (inputs\n"
     "                   read once, kept in a temporary file beside DST: inputs\n"
     "                   larger than memory); under mpirun/srun (an MPI build),\n"
     "                   the regions go to the ranks (default N: the ranks)\n"},
    {"Run", "max_memory",
     "  --max-memory auto|none|SIZE  the memory a run may take beyond its\n"
     "                   inputs (SIZE: bytes, or with K, M, G, T); a run whose\n"
     "                   estimate exceeds it is refused before it starts (default\n"
     "                   auto: what the machine has available; none: no check)\n"},
    {"Run", "verify",
     "  --verify         check the result again (exact predicates) before\n"
     "                   writing it; any finding fails the run, nothing written\n"},
    {"Run", "tin",
     "  --tin            write one feature, a TIN (TIN Z) of every triangle, no\n"
     "                   fields, for formats that hold one (GPKG, FlatGeobuf)\n"},
    {"Run", NULL,
     "  --stats FILE     write the run's figures as JSON\n"
     "  --dump FILE      write the inputs as a core dump (no GDAL needed to read\n"
     "                   it; the benchmarks and the GPU machine use it)\n"
     "  -progress        show progress (100 once DST is closed and complete)\n"
     "  -q               quiet: no summary, no warnings\n"
     "  --help, --version; OP --help: one operation's inputs, options, fields\n"
     "  --operations     list the operations as JSON (what the QGIS provider\n"
     "                   builds its algorithms from)\n"},
};

#define NOPTIONS (sizeof options / sizeof options[0])

/* What each kind means, by enum xg_kind; the overlap kind has a line per
 * dimension (its name differs: xg_kind_name). */
static const char *kind_text(int k, int dim)
{
    switch (k) {
    case XG_KIND_PROPER:
        return "they cross at one point, inside both";
    case XG_KIND_TOUCH:
        return "one shared point otherwise (an endpoint, through an\n"
               "                   edge or a vertex, a T-junction)";
    case XG_KIND_OVERLAP:
        return dim == 3 ? "the segment lies in the triangle's plane and\n"
                          "                   shares a stretch of it"
                        : "collinear segments sharing a stretch";
    case XG_KIND_INSIDE:
        return "the point is in the solid's interior";
    case XG_KIND_BOUNDARY:
        return "on its surface (a face, an edge, a vertex)";
    case XG_KIND_OUTSIDE:
        return "with -outside: in no solid (b_fid NULL)";
    default:
        return "";
    }
}

static void src_name(const struct xg_op *op, int i, char *buf, size_t len);

static const char exit_text[] =
    "Exit status: 0 done; 1 error, nothing written; 2 usage error;\n"
    "  130 (SIGINT) or 143 (SIGTERM) interrupted, nothing written.\n";

void help_args(const struct xg_op *op, char *buf, size_t len)
{
    char a[64];
    src_name(op, 0, a, sizeof a);
    if (op->ninputs > 1) {
        char b[64];
        src_name(op, 1, b, sizeof b);
        snprintf(buf, len, "DST %s %s", a, b);
    } else {
        snprintf(buf, len, "DST %s", a);
    }
}

/* The names of the operations that take run option key into buf
 * ("inside"); "" when every one does. */
static void takers(const char *key, char *buf, size_t len)
{
    size_t i, n = xg_op_count(), at = 0, all = 1;
    buf[0] = '\0';
    for (i = 0; i < n; i++)
        all = all && xgo_option_applies(xg_op_at(i), key);
    for (i = 0; !all && i < n && at < len; i++)
        if (xgo_option_applies(xg_op_at(i), key)) {
            int w = snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
                             xg_op_at(i)->name);
            at += w > 0 ? (size_t)w : 0;
        }
}

/* Prints lead, then text wrapped at 79 columns, its next lines indented
 * to column indent. */
static void wrap(FILE *f, const char *lead, int indent, const char *text)
{
    int col = (int)strlen(lead);
    const char *p = text;
    fputs(lead, f);
    while (*p) {
        int n = (int)strcspn(p, " ");
        if (col + 1 + n > 79 && col > indent) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (p != text) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", n, p);
        col += n;
        p += n;
        p += strspn(p, " ");
    }
    fputc('\n', f);
}

#define COL 19                /* where an option's text starts */

/* -nln's line: op's default layer, or with op NULL every operation's,
 * the operations that share one named together. */
static void nln_line(FILE *f, const struct xg_op *op)
{
    char text[512];
    size_t i, j, at = 0, n = xg_op_count();
    if (op) {
        snprintf(text, sizeof text, "output layer name (default: %s). A "
                 "single-file Shapefile is named after its file, as with "
                 "ogr2ogr", op->layer);
        wrap(f, "  -nln NAME        ", COL, text);
        return;
    }
    at = (size_t)snprintf(text, sizeof text, "output layer name (default:");
    for (i = 0; i < n && at < sizeof text; i++) {
        const char *layer = xg_op_at(i)->layer;
        int first = 1;
        for (j = 0; j < i; j++)
            first = first && strcmp(xg_op_at(j)->layer, layer) != 0;
        if (!first)
            continue;
        at += (size_t)snprintf(text + at, sizeof text - at, "%s %s for",
                               i ? ";" : "", layer);
        for (j = i; j < n && at < sizeof text; j++)
            if (strcmp(xg_op_at(j)->layer, layer) == 0)
                at += (size_t)snprintf(text + at, sizeof text - at, "%s %s",
                                       j > i ? "," : "", xg_op_at(j)->name);
    }
    if (at < sizeof text)
        snprintf(text + at, sizeof text - at, "). A single-file Shapefile "
                 "is named after its file, as with ogr2ogr");
    wrap(f, "  -nln NAME        ", COL, text);
}

/* An input's positional argument: "A_SRC", "B_SRC", or for an operation
 * of one input its elements in capitals, "POINTS_SRC". */
static void src_name(const struct xg_op *op, int i, char *buf, size_t len)
{
    size_t k, at = 0;
    if (op->ninputs > 1) {
        snprintf(buf, len, "%c_SRC", "AB"[i]);
        return;
    }
    for (k = 0; op->in[0].elements[k] && at + 1 < len; k++)
        buf[at++] = (char)toupper((unsigned char)op->in[0].elements[k]);
    buf[at < len ? at : len - 1] = '\0';
    snprintf(buf + strlen(buf), len - strlen(buf), "_SRC");
}

/* The options op takes (op NULL: all, each with the operations that
 * take it when not all do), by section. */
static void print_options(FILE *f, const struct xg_op *op)
{
    const char *section = NULL;
    size_t i;
    for (i = 0; i < NOPTIONS; i++) {
        const struct option *o = &options[i];
        int is_nln = !o->text;
        char who[128] = "";
        if (op && o->key && !is_nln && !xgo_option_applies(op, o->key))
            continue;
        if (!section || strcmp(section, o->section) != 0)
            fprintf(f, "%s:\n", section = o->section);
        if (is_nln) {
            nln_line(f, op);
            continue;
        }
        fputs(o->text, f);
        if (!op && o->key)
            takers(o->key, who, sizeof who);
        if (*who)
            fprintf(f, "                   (%s only)\n", who);
    }
}

/* op's output: its layer, fields, geometry and kinds. */
static void print_output(FILE *f, const struct xg_op *op)
{
    char one[64], line[512];
    int k;
    fprintf(f, "Output layer '%s' (unless -nln): one feature per %.*s",
            op->layer, (int)strlen(op->records) - 1, op->records);
    xgo_shape_of(op)->help_fields(f, op);
    snprintf(one, sizeof one, "%s", op->ninputs > 1 ? "s'" : "'s");
    snprintf(line, sizeof line, "%s; in the input%s CRS",
             op->output_geometry, one);
    wrap(f, "  geometry         ", COL, line);
    snprintf(line, sizeof line, "multi-part input features: %s.", op->parts);
    wrap(f, "  ", 2, line);
    if (!op->kinds)
        return;
    fputs("Kinds:\n", f);
    for (k = 0; k < XG_KIND_COUNT; k++)
        if ((op->kinds >> k) & 1u)
            fprintf(f, "  %-16s %s\n", xg_kind_name(k, op->dim),
                    kind_text(k, op->dim));
}

/* Every operation's fields on one line each, then every kind once. */
static void print_outputs(FILE *f, size_t width)
{
    size_t i, j;
    int k;
    fputs("Output fields, in (A, B) order (triangles: in ascending order of "
          "their\npoints):\n", f);
    for (i = 0; i < xg_op_count(); i++) {
        const struct xg_op *op = xg_op_at(i);
        fprintf(f, "  %s:%*s", op->name, (int)(width + 1 - strlen(op->name)),
                "");
        xgo_shape_of(op)->help_line(f, op);
    }
    fputs("Kinds:\n", f);
    for (k = 0; k < XG_KIND_COUNT; k++) {
        /* each name once, with the text of the first operation that has
         * it in that dimension (the overlap kind: coplanar, overlap) */
        const char *shown[4] = {NULL, NULL, NULL, NULL};
        size_t nshown = 0;
        for (i = 0; i < xg_op_count(); i++) {
            const struct xg_op *op = xg_op_at(i);
            const char *name = xg_kind_name(k, op->dim);
            int seen = 0;
            if (!((op->kinds >> k) & 1u))
                continue;
            for (j = 0; j < nshown; j++)
                seen = seen || strcmp(shown[j], name) == 0;
            if (seen || nshown == 4)
                continue;
            shown[nshown++] = name;
            fprintf(f, "  %-16s %s\n", name, kind_text(k, op->dim));
        }
    }
}

void help_print(FILE *f)
{
    size_t i, n = xg_op_count(), width = 0;
    char args[64];
    for (i = 0; i < n; i++)
        if (strlen(xg_op_at(i)->name) > width)
            width = strlen(xg_op_at(i)->name);
    for (i = 0; i < n; i++) {
        help_args(xg_op_at(i), args, sizeof args);
        fprintf(f, "%s exactgeo %-*s [options] %s\n",
                i ? "      " : "Usage:", (int)width, xg_op_at(i)->name, args);
    }
    fputc('\n', f);
    for (i = 0; i < n; i++)
        fprintf(f, "%s:%*s%s\n", xg_op_at(i)->name,
                (int)(width + 1 - strlen(xg_op_at(i)->name)), "",
                xg_op_at(i)->summary);
    fputs("\n`exactgeo OP --help` says what one operation takes, its options "
          "and output.\n", f);
    print_options(f, NULL);
    fputc('\n', f);
    print_outputs(f, width);
    fputs(exit_text, f);
    fputs("Not ogr2ogr: -sql, -t_srs, -clipsrc, -select, ... are refused with "
          "the\nalternative.  The same job as a read-only GDAL dataset "
          "(EXACTGEO driver):\n"
          "  ogrinfo -al -so \"EXACTGEO:op=segtri;a=A_SRC;b=B_SRC\"\n"
          "(see docs/gdal-qgis.md).\n", f);
}

void help_print_op(FILE *f, const struct xg_op *op)
{
    char args[64], line[512], src[64];
    int i;
    help_args(op, args, sizeof args);
    fprintf(f, "Usage: exactgeo %s [options] %s\n\n", op->name, args);
    snprintf(line, sizeof line, "%s.", op->title);
    wrap(f, "", 2, line);
    snprintf(line, sizeof line, "%s.", op->contract);
    wrap(f, "  ", 2, line);
    for (i = 0; i < op->ninputs; i++) {
        src_name(op, i, src, sizeof src);
        snprintf(line, sizeof line, "%s takes %s", src, op->in[i].accepts);
        wrap(f, "  ", 4, line);
    }
    fputc('\n', f);
    print_options(f, op);
    fputc('\n', f);
    print_output(f, op);
    fputs(exit_text, f);
    fprintf(f, "The same job as a read-only GDAL dataset (EXACTGEO driver):\n"
               "  ogrinfo -al -so \"EXACTGEO:op=%s;a=%s%s\"\n", op->name,
            op->ninputs > 1 ? "A_SRC" : src,
            op->ninputs > 1 ? ";b=B_SRC" : "");
}

/* ogr2ogr options people type; what to do instead, in words that depend
 * on the operation (advice). */
enum advice { PLAIN, FILTERS, CRS_OUT, SPAT_SRS, CLIP, SELECT,
              NLT, SKIPFAILURES, EXPLODE, FIDS, GEOMFIELD };

static const struct {
    const char *opt;
    enum advice how;
    const char *text;         /* PLAIN: all of it; else its first words */
} refused[] = {
    {"-sql", FILTERS, "ogr2ogr -sql"},
    {"-dialect", FILTERS, "ogr2ogr -sql"},
    {"-t_srs", PLAIN, "reproject the input with ogr2ogr -t_srs first "
                      "(exactgeo never reprojects)"},
    {"-s_srs", PLAIN, "assign or reproject with ogr2ogr first (exactgeo "
                      "never reprojects)"},
    {"-a_srs", CRS_OUT, "assign a CRS with ogr2ogr -a_srs first"},
    {"-ct", PLAIN, "reproject with ogr2ogr first (exactgeo never "
                   "reprojects)"},
    {"-spat_srs", SPAT_SRS, NULL},
    {"-clipsrc", CLIP, NULL},
    {"-clipdst", CLIP, NULL},
    {"-select", SELECT, NULL},
    {"-nlt", NLT, NULL},
    {"-update", PLAIN, "use -append"},
    {"-skipfailures", SKIPFAILURES, NULL},
    {"-explodecollections", EXPLODE, NULL},
    {"-preserve_fid", FIDS, NULL},
    {"-geomfield", GEOMFIELD, NULL},
};

int help_refused(const struct xg_op *op, const char *opt, char *buf,
                 size_t len)
{
    size_t k;
    int two = op->ninputs > 1;
    const char *poss = two ? "s'" : "'s";
    for (k = 0; k < sizeof refused / sizeof *refused; k++)
        if (strcmp(opt, refused[k].opt) == 0)
            break;
    if (k == sizeof refused / sizeof *refused)
        return 0;
    switch (refused[k].how) {
    case PLAIN:
        snprintf(buf, len, "%s", refused[k].text);
        break;
    case FILTERS:
        snprintf(buf, len, "use %s for attribute filters, or %s first",
                 two ? "-where/-bwhere" : "-where", refused[k].text);
        break;
    case CRS_OUT:
        snprintf(buf, len, "%s (the output has the input%s CRS)",
                 refused[k].text, poss);
        break;
    case SPAT_SRS:
        snprintf(buf, len, "give %s in the input%s CRS",
                 two ? "-spat/-bspat" : "-spat", poss);
        break;
    case CLIP:
        snprintf(buf, len, "use %s for a box, or clip with ogr2ogr first",
                 two ? "-spat/-bspat" : "-spat");
        break;
    case SELECT:
        if (xgo_option_applies(op, "acopy")) {
            snprintf(buf, len, "use %s to choose the fields copied",
                     two ? "-acopy/-bcopy" : "-acopy");
        } else {
            char what[256];
            xgo_shape_of(op)->join_on(what, sizeof what, op);
            snprintf(buf, len, "%s copies no fields: join on %s", op->name,
                     what);
        }
        break;
    case NLT:
        snprintf(buf, len, "%s writes %s", op->name, op->output_geometry);
        break;
    case SKIPFAILURES:
        snprintf(buf, len, "fix the feature named in the error, or leave it "
                 "out with %s%s", two ? "-where/-bwhere" : "-where",
                 xgo_option_applies(op, "skip_invalid")
                     ? " (-skip-invalid skips solids that are not closed or cross "
                       "themselves)"
                     : "");
        break;
    case EXPLODE:
        snprintf(buf, len, "multi-part inputs are read part by part already "
                 "(%s)", op->parts);
        break;
    case FIDS:
        xgo_shape_of(op)->fids(buf, len, op);
        break;
    case GEOMFIELD:
        snprintf(buf, len, "the first geometry field of %s is used",
                 two ? "each input" : "the input");
        break;
    }
    return 1;
}
