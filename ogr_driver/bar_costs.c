/*
 * bar_costs.c -- what each stage of a run costs per unit of work, the
 * one table the progress bar cuts itself by (bar.c), and the estimates
 * made from it (xgo_internal.h).
 *
 * Only the ratios between rows matter: a bar cut by them moves at an
 * even pace.  The figures are the 2-core VM's (bench/bench_e2e.sh,
 * default options, medians; bench/results/2026-11-28-e2e), per feature
 * read, per element computed, per record written, closed, indexed.  When
 * a stage gets faster (a writer, an index), update its row from
 * bench_e2e's stage split: seconds / units * 1e9; bench/progress_gaps.py
 * shows how long the bar then stands still.
 */
#include <string.h>
#include <cpl_string.h>
#include "xgo_internal.h"
#include "gpkg_rtree.h"

/* A row: stage; format, for the stages of the output (write, close,
 * index: a GDAL driver's short name, NULL the row of any other, last);
 * a and b, the elements of A and of B (enum xg_elem; read: the input's
 * in a; core: XG_ELEM_NONE in b for an operation of one input; 0: any);
 * index: the close builds a spatial index (close rows; -1: either); ns
 * per unit; per: read rows, elements per feature (the estimate before
 * the read); core rows, records per element of A and B (before the
 * core); weight: core rows, what one of the operation's records weighs
 * in the write, close and index (a triangle's four vertices and three
 * fields against a contact's point). */
struct cost {
    int stage;
    const char *format;
    int a, b, index;
    double ns, per, weight;
};

/* The 2-core VM, 28 November (load 5 from other builds, the figures in
 * between those of a quiet machine, bench/results/2026-11-28-e2e, and
 * of this one): delaunay of 10^6 survey points, inside -outside of
 * 2*10^6 block centroids in 8 solids, redblue of the world map,
 * countries x states_provinces, GeoPackage in and out. */
static const struct cost costs[] = {
    /* the reads, per feature: points through the Arrow stream (0.3-0.9
     * us); polygons, the world map's (4796 features, 615,710 segments,
     * 0.22-0.45 s) */
    {XGO_BAR_READ_A, NULL, XG_ELEM_POINT, 0, -1, 500, 1, 0},
    {XGO_BAR_READ_A, NULL, XG_ELEM_SEGMENT, 0, -1, 70000, 130, 0},
    {XGO_BAR_READ_A, NULL, XG_ELEM_TRIANGLE, 0, -1, 400000, 1000, 0},
    {XGO_BAR_READ_A, NULL, 0, 0, -1, 1000, 1, 0},
    /* the core, per element of A and B: delaunay (1.1-3.4 s for 10^6
     * points); inside (0.2-0.8 s for 2*10^6 points); redblue (0.13-0.76
     * s for the world map); segtri, a guess of the same order */
    {XGO_BAR_CORE, NULL, XG_ELEM_POINT, XG_ELEM_NONE, -1, 2000, 2, 1.5},
    {XGO_BAR_CORE, NULL, XG_ELEM_POINT, XG_ELEM_TRIANGLE, -1, 250, 1, 1},
    {XGO_BAR_CORE, NULL, XG_ELEM_SEGMENT, XG_ELEM_SEGMENT, -1, 600, 1.3, 1},
    {XGO_BAR_CORE, NULL, XG_ELEM_SEGMENT, XG_ELEM_TRIANGLE, -1, 600, 0.05,
     1},
    {XGO_BAR_CORE, NULL, 0, 0, -1, 600, 1, 1},
    /* the write, per record of weight 1 (GeoPackage, the direct writer's
     * pages, 29 November, part 3: 2*10^6 triangles 0.9-1.0 s, was 3.2-3.5
     * s through SQLite's INSERT at 1150 ns; OGR's route, with copied
     * attributes, about 10x that) */
    {XGO_BAR_WRITE, "GPKG", 0, 0, -1, 330, 0, 0},
    {XGO_BAR_WRITE, "FlatGeobuf", 0, 0, -1, 3300, 0, 0},
    {XGO_BAR_WRITE, "ESRI Shapefile", 0, 0, -1, 10000, 0, 0},
    {XGO_BAR_WRITE, "CSV", 0, 0, -1, 16400, 0, 0},
    {XGO_BAR_WRITE, NULL, 0, 0, -1, 10000, 0, 0},
    /* GDALClose, per record: a GeoPackage's index built by GDAL at its
     * close (-lco SPATIAL_INDEX=YES: 38 s for 2*10^6 triangles);
     * FlatGeobuf's (sorted and the file written again: 11.4 s); a
     * GeoPackage without (a few milliseconds) */
    {XGO_BAR_CLOSE, "GPKG", 0, 0, 1, 19000, 0, 0},
    {XGO_BAR_CLOSE, "FlatGeobuf", 0, 0, 1, 5700, 0, 0},
    {XGO_BAR_CLOSE, NULL, 0, 0, -1, 5, 0, 0},
    /* exactgeo's GeoPackage index after the close (gpkg_rtree.c), per
     * record of weight 1 (from the boxes the direct writer kept, written
     * as pages, 29 November, part 3: 2*10^6 triangles 0.45-0.5 s, was
     * 1.4-1.6 s at 500 ns) */
    {XGO_BAR_INDEX, NULL, 0, 0, -1, 150, 0, 0},
};

/* The row of stage for format (NULL: unknown), elements a and b, index
 * (0 or 1): the first that fits; every stage has a last row of NULL
 * format that fits all. */
static const struct cost *row(int stage, const char *format, int a, int b,
                              int index)
{
    size_t i;
    for (i = 0; i < sizeof costs / sizeof *costs; i++) {
        const struct cost *c = &costs[i];
        if (c->stage != stage || (c->index >= 0 && c->index != index))
            continue;
        if (c->format && (!format || !EQUAL(c->format, format)))
            continue;
        if ((stage == XGO_BAR_READ_A || stage == XGO_BAR_CORE) && c->a &&
            (c->a != a || (stage == XGO_BAR_CORE && c->b != b)))
            continue;
        return c;
    }
    return NULL;
}

/* The read of input i of op, features of it (< 0: unknown), the
 * elements it gives into *elements. */
static double cost_read(const struct xg_op *op, int i, double features,
                        double *elements)
{
    const struct cost *c = row(XGO_BAR_READ_A, NULL, op->in[i].elem, 0, 0);
    if (features < 0)     /* no fast count: a guess of a few thousand */
        features = 4096;
    *elements = features * c->per;
    return features * c->ns;
}

/* xgo_internal.h */
void xgo__bar_output(struct xgo_bar *b, GDALDatasetH dst, char **lco,
                     int close_dst)
{
    b->dst = dst;
    b->lco = lco;
    b->close_dst = close_dst;
}

/* xgo_internal.h */
void xgo__bar_estimate_output(struct xgo_bar *b, double records)
{
    GDALDriverH drv = b->dst ? GDALGetDatasetDriver(b->dst) : NULL;
    const char *fmt = drv ? GDALGetDriverShortName(drv) : NULL;
    const char *si = CSLFetchNameValue(b->lco, "SPATIAL_INDEX");
    /* the index exactgeo builds after the close (a GeoPackage's), else
     * the one the format builds at its close, unless lco says none */
    int ours = b->dst && b->close_dst && !si && xgo__rtree_deferred(b->dst);
    int index = !ours && (!si || CPLTestBool(si));
    if (!b->dst) {            /* kept: made when the driver reads them */
        xgo__bar_plan(b, XGO_BAR_WRITE, 0);
        xgo__bar_plan(b, XGO_BAR_CLOSE, -1);
        xgo__bar_plan(b, XGO_BAR_INDEX, -1);
        return;
    }
    records *= b->weight;
    xgo__bar_plan(b, XGO_BAR_WRITE,
                  records * row(XGO_BAR_WRITE, fmt, 0, 0, index)->ns);
    xgo__bar_plan(b, XGO_BAR_CLOSE,
                  b->close_dst
                      ? records * row(XGO_BAR_CLOSE, fmt, 0, 0, index)->ns
                      : -1);
    xgo__bar_plan(b, XGO_BAR_INDEX,
                  ours ? records * row(XGO_BAR_INDEX, fmt, 0, 0, 1)->ns
                       : -1);
}

/* xgo_internal.h */
void xgo__bar_estimate(struct xgo_bar *b, const struct xg_op *op,
                       const double feat[2], const double elem[2],
                       double records)
{
    double el[2] = {0, 0}, rec;
    const struct cost *c;
    int i;
    for (i = 0; i < 2; i++) {
        if (i >= op->ninputs) {
            xgo__bar_plan(b, XGO_BAR_READ_A + i, -1);
            continue;
        }
        xgo__bar_plan(b, XGO_BAR_READ_A + i,
                      cost_read(op, i, feat[i], &el[i]));
        if (elem[i] >= 0)
            el[i] = elem[i];
    }
    c = row(XGO_BAR_CORE, NULL, op->in[0].elem,
            op->ninputs > 1 ? op->in[1].elem : XG_ELEM_NONE, 0);
    xgo__bar_plan(b, XGO_BAR_CORE, (el[0] + el[1]) * c->ns);
    b->weight = c->weight;
    rec = records >= 0 ? records : (el[0] + el[1]) * c->per;
    xgo__bar_estimate_output(b, rec);
}
