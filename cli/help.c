/*
 * help.c -- what `exactgeo --help` prints: the operations from the table
 * (exactgeo.h), then the options; and the ogr2ogr options the tool
 * refuses, with what to do instead.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "exactgeo.h"
#include "help.h"

static const char options_text[] =
    "Output:\n"
    "  -f FORMAT        GDAL vector driver (default: from DST's extension, GPKG)\n"
    "  -nln NAME        output layer name (default: contacts; a single-file\n"
    "                   Shapefile is named after its file, as with ogr2ogr)\n"
    "  -lco K=V         layer creation option (repeatable).  GeoPackage builds\n"
    "                   its spatial index when the file is closed: on large\n"
    "                   outputs -lco SPATIAL_INDEX=NO is much faster (no index)\n"
    "  -dsco K=V        dataset creation option (repeatable)\n"
    "  -overwrite       replace an existing DST (the whole dataset; in a\n"
    "                   Shapefile folder, only NAME.* and NAME_lines.*)\n"
    "  -append          add the layer (or its features) to an existing DST\n"
    "  CSV output holds the geometry as WKT (-lco GEOMETRY=... to change it).\n"
    "Inputs:\n"
    "  -al LAYER        layer of A_SRC (needed when it has several)\n"
    "  -bl LAYER        layer of B_SRC\n"
    "  -where SQL       attribute filter on A\n"
    "  -bwhere SQL      attribute filter on B\n"
    "  -spat XMIN YMIN XMAX YMAX   spatial filter on A: only features that\n"
    "                   meet the box, in A's CRS (as ogr2ogr -spat)\n"
    "  -bspat XMIN YMIN XMAX YMAX  spatial filter on B\n"
    "  -acopy F1,F2|all copy these fields of A, as a_F1, a_F2, ...\n"
    "  -bcopy F1,F2|all copy these fields of B, as b_F1, ...\n"
    "  -oo NAME=VALUE   open option of the inputs' driver (repeatable), as\n"
    "                   ogr2ogr -oo; -aoo, -boo: of A's, of B's only.  A CSV\n"
    "                   of coordinates: -oo X_POSSIBLE_NAMES=x\n"
    "                   -oo Y_POSSIBLE_NAMES=y -oo Z_POSSIBLE_NAMES=z\n"
    "  -bgroup FIELD    B of triangles: one mesh or solid per value of B's\n"
    "                   FIELD, of the triangles of all its features (a DXF\n"
    "                   wireframe: -bgroup Layer); b_fid is the group's\n"
    "                   lowest FID, -bcopy FIELD copies the value\n"
    "  A filter that selects nothing, or an input with no usable segment,\n"
    "  triangle or point, is an error: an empty output would read as \"no\n"
    "  contacts\".\n"
    "inside:\n"
    "  -outside         also one feature for each point in no solid (b_fid\n"
    "                   NULL, kind outside), so that every point appears\n"
    "  -skip-invalid    skip a solid whose surface is not closed or crosses\n"
    "                   itself, with a warning (default: an error naming the\n"
    "                   feature)\n"
    "  --solids-checked no solid of B crosses itself, you vouch: the check is\n"
    "                   left out (where parts overlap, parity: outside)\n"
    "delaunay (one input: the B options and -acopy do not apply):\n"
    "  --verify         check the triangles again (exact predicates) before\n"
    "                   writing them; any finding fails the run, nothing written\n"
    "  --tin            write one feature, a TIN (TIN Z) of every triangle, no\n"
    "                   fields, for formats that hold one (GPKG, FlatGeobuf)\n"
    "Run:\n"
    "  --engine E       auto (default), seq, cpu or gpu\n"
    "  --grid N|NX,NY,NZ  grid cells per axis (default: chosen from the counts;\n"
    "                   delaunay has no grid)\n"
    "  --threads N      cpu engine threads (default: all processors)\n"
    "  --gpus all|N|D1,D2,...  the gpu engine's devices: every one, the first\n"
    "                   N, or a list; over several, the run is cut into regions,\n"
    "                   one thread per device, with the same output\n"
    "  --regions N      run in N regions of the plane, one after another, each\n"
    "                   reading only its features (inputs larger than memory;\n"
    "                   not delaunay); under mpirun/srun (an MPI build), the\n"
    "                   regions go to the ranks (default N: the ranks)\n"
    "  --max-memory auto|none|SIZE  the memory a run may take beyond its\n"
    "                   inputs (SIZE: bytes, or with K, M, G, T); a run whose\n"
    "                   estimate exceeds it is refused before it starts (default\n"
    "                   auto: what the machine has available; none: no check)\n"
    "  --stats FILE     write the run's figures as JSON\n"
    "  --dump FILE      write both inputs as a core dump (no GDAL needed to read\n"
    "                   it; the benchmarks and the GPU machine use it)\n"
    "  -progress        show progress (100 once DST is closed and complete)\n"
    "  -q               quiet: no summary, no warnings\n"
    "  --help, --version\n"
    "  --operations     list the operations as JSON (what the QGIS provider\n"
    "                   builds its algorithms from)\n"
    "\n"
    "Output fields, one feature per contact, in (A, B) order:\n"
    "  a_fid, a_seg     A's feature id; the segment's index in it, from 0\n"
    "                   (inside: a_part, the point's index in a MultiPoint)\n"
    "  b_fid, b_tri     B's feature id; the triangle's index in it (redblue:\n"
    "                   b_seg, the segment's; inside: b_fid only, the solid)\n"
    "  kind             how they meet (below)\n"
    "  a_*, b_*         the fields copied with -acopy, -bcopy\n"
    "  geometry         a point (proper, touch) or a two-point line (coplanar,\n"
    "                   overlap); inside: the point of A; 3D for segtri and\n"
    "                   inside, in the inputs' CRS\n"
    "Output fields of delaunay, one feature per triangle (layer 'triangles'),\n"
    "  in ascending order of its points; a Polygon (PolygonZ when the points\n"
    "  have Z), ring v0, v1, v2, v0 counter-clockwise, the points' own\n"
    "  coordinates:\n"
    "  v0, v1, v2       the FIDs of its three points (of (x, y) repeated,\n"
    "                   the lowest FID's point is the one used)\n"
    "  v0_part, ...     the point's index in its MultiPoint; only when some\n"
    "                   feature holds several points\n"
    "Kinds:\n"
    "  proper           they cross at one point, inside both\n"
    "  touch            one shared point otherwise (an endpoint, through an\n"
    "                   edge or a vertex, a T-junction)\n"
    "  coplanar         segtri: the segment lies in the triangle's plane and\n"
    "                   shares a stretch of it\n"
    "  overlap          redblue: collinear segments sharing a stretch\n"
    "  inside           inside: the point is in the solid's interior\n"
    "  boundary         inside: on its surface (a face, an edge, a vertex)\n"
    "  outside          inside, with -outside: in no solid\n"
    "Exit status: 0 done; 1 error, nothing written; 2 usage error;\n"
    "  130 (SIGINT) or 143 (SIGTERM) interrupted, nothing written.\n"
    "Not ogr2ogr: -sql, -t_srs, -clipsrc, -select, ... are refused with the\n"
    "alternative.  The same job as a read-only GDAL dataset (EXACTGEO driver):\n"
    "  ogrinfo -al -so \"EXACTGEO:op=segtri;a=A_SRC;b=B_SRC\"\n"
    "(see docs/gdal-qgis.md).\n";

void help_args(const struct xg_op *op, char *buf, size_t len)
{
    size_t k, at;
    if (op->ninputs > 1) {
        snprintf(buf, len, "DST A_SRC B_SRC");
        return;
    }
    /* one input: named after its elements, "DST POINTS_SRC" */
    at = (size_t)snprintf(buf, len, "DST ");
    for (k = 0; op->in[0].elements[k] && at + 1 < len; k++)
        buf[at++] = (char)toupper((unsigned char)op->in[0].elements[k]);
    buf[at < len ? at : len - 1] = '\0';
    snprintf(buf + strlen(buf), len - strlen(buf), "_SRC");
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
    fputc('\n', f);
    fputs(options_text, f);
}

/* ogr2ogr options people type, and what to do instead. */
static const struct {
    const char *opt, *instead;
} refused[] = {
    {"-sql", "use -where/-bwhere for attribute filters, or ogr2ogr -sql "
             "first"},
    {"-dialect", "use -where/-bwhere for attribute filters, or ogr2ogr "
                 "-sql first"},
    {"-t_srs", "reproject the input with ogr2ogr -t_srs first (exactgeo "
               "never reprojects)"},
    {"-s_srs", "assign or reproject with ogr2ogr first (exactgeo never "
               "reprojects)"},
    {"-a_srs", "assign a CRS with ogr2ogr -a_srs first (the output has the "
               "inputs' CRS)"},
    {"-ct", "reproject with ogr2ogr first (exactgeo never reprojects)"},
    {"-spat_srs", "give -spat/-bspat in the inputs' CRS"},
    {"-clipsrc", "use -spat/-bspat for a box, or clip with ogr2ogr first"},
    {"-clipdst", "use -spat/-bspat for a box, or clip with ogr2ogr first"},
    {"-select", "use -acopy/-bcopy to choose the fields copied"},
    {"-nlt", "the output holds points, and lines for shared stretches"},
    {"-update", "use -append"},
    {"-skipfailures", "fix the feature named in the error, or leave it out "
                      "with -where"},
    {"-explodecollections", "multi-part inputs are read part by part "
                            "already (a_seg counts over the parts)"},
    {"-preserve_fid", "a_fid and b_fid hold the inputs' feature ids"},
    {"-geomfield", "the first geometry field of each input is used"},
};

const char *help_refused(const char *opt)
{
    size_t k;
    for (k = 0; k < sizeof refused / sizeof *refused; k++)
        if (strcmp(opt, refused[k].opt) == 0)
            return refused[k].instead;
    return NULL;
}
