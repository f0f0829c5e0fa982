/*
 * read_csv.c -- what to say of an input layer without geometry: read by
 * GDAL's CSV driver, it is a table whose coordinates or WKT the driver
 * was not told where to find; the message then gives the open options
 * that tell it, in the front end's spelling.
 */
#include <cpl_string.h>
#include "xgo_read.h"

/* The field of layer defn d named as one of names (any case), or NULL. */
static const char *field_like(OGRFeatureDefnH d, const char *const *names)
{
    int i, k, n = OGR_FD_GetFieldCount(d);
    for (k = 0; names[k]; k++)
        for (i = 0; i < n; i++) {
            const char *f = OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(d, i));
            if (EQUAL(f, names[k]))
                return f;
        }
    return NULL;
}

/* For a layer without geometry read by the CSV driver, the open options
 * that give it one, as "; for a CSV of coordinates, open it with -oo
 * X_POSSIBLE_NAMES=x ..." in the front end's spelling (the tool's -oo,
 * -aoo, -boo; a connection string's aoo=, boo=: told by layer_opt, "-al"
 * or "al"); "" for other drivers.  Points come from coordinate columns
 * (their own names where they look like coordinates, else x, y, z),
 * lines and surfaces from a column of WKT. */
void xgo__read_csv_hint(const struct xgo_reader *r, char *buf,
                        size_t len)
{
    static const char *const xs[] = {"x", "easting", "east", "lon",
                                     "long", "longitude", "lng", NULL};
    static const char *const ys[] = {"y", "northing", "north", "lat",
                                     "latitude", NULL};
    static const char *const zs[] = {"z", "elevation", "elev", "height",
                                     "rl", "altitude", "alt", NULL};
    static const char *const gs[] = {"wkt", "geom", "geometry", "the_geom",
                                     "shape", NULL};
    const struct xgo_input *in = r->input ? &r->job->b : &r->job->a;
    const char *opt = in->layer_opt ? in->layer_opt : "-al";
    int tool = opt[0] == '-', k, n;
    GDALDriverH drv = GDALGetDatasetDriver(r->s->ds);
    OGRFeatureDefnH d = OGR_L_GetLayerDefn(r->s->lyr);
    const char *col[3], *what[3], *key;
    char name[8];
    size_t at;
    buf[0] = '\0';
    if (!drv || !EQUAL(GDALGetDriverShortName(drv), "CSV"))
        return;
    if (r->job->op->in[r->input].elem == XG_ELEM_POINT) {
        col[0] = field_like(d, xs);
        col[1] = field_like(d, ys);
        col[2] = field_like(d, zs);
        if (!col[0] || !col[1])
            col[0] = "x", col[1] = "y", col[2] = "z";
        what[0] = "X_POSSIBLE_NAMES", what[1] = "Y_POSSIBLE_NAMES";
        what[2] = "Z_POSSIBLE_NAMES";
        n = col[2] ? 3 : 2;
    } else {
        col[0] = field_like(d, gs);
        if (!col[0])
            col[0] = "COLUMN";
        what[0] = "GEOM_POSSIBLE_NAMES";
        n = 1;
    }
    /* the tool's -oo is both inputs', enough when there is one */
    snprintf(name, sizeof name, "%s%coo", tool ? "-" : "",
             r->input ? 'b' : 'a');
    key = tool && r->job->op->ninputs == 1 ? "-oo" : name;
    at = (size_t)snprintf(buf, len, "; for a CSV of %s, open it with",
                          n > 1 ? "coordinates" : "WKT geometries");
    for (k = 0; k < n && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s=%s",
                               tool || k == 0 ? " " : ";", key,
                               tool ? " " : "=", what[k], col[k]);
}
