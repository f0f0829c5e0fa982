/*
 * plan.c -- rank 0's plan of a run in regions: the inputs opened as a
 * single run opens them, their extents, and the regions over them.
 */
#include <math.h>
#include <string.h>
#include "xgp_internal.h"

/* The union of the layer's extent with box (lo, hi); 0 when the layer
 * has none (empty, or the driver cannot tell). */
static int add_extent(OGRLayerH lyr, double lo[2], double hi[2], int have)
{
    OGREnvelope e;
    if (OGR_L_GetExtent(lyr, &e, TRUE) != OGRERR_NONE ||
        !isfinite(e.MinX) || !isfinite(e.MinY) || !isfinite(e.MaxX) ||
        !isfinite(e.MaxY) || e.MinX > e.MaxX || e.MinY > e.MaxY)
        return have;
    if (!have || e.MinX < lo[0])
        lo[0] = e.MinX;
    if (!have || e.MinY < lo[1])
        lo[1] = e.MinY;
    if (!have || e.MaxX > hi[0])
        hi[0] = e.MaxX;
    if (!have || e.MaxY > hi[1])
        hi[1] = e.MaxY;
    return 1;
}

int xgp__plan(const struct xgo_job *job, int n, struct xgo_src src[2],
              OGRSpatialReferenceH *srs, struct xg_region *regions,
              double clip[4], char *err, size_t errlen)
{
    const struct xg_op *op = job->op;
    double lo[2] = {0, 0}, hi[2] = {0, 0};
    int rc, k, have = 0;

    rc = xgo__src_open(&src[0], &job->a, "A", err, errlen);
    if (!rc && op->ninputs > 1)
        rc = xgo__src_open(&src[1], &job->b, "B", err, errlen);
    if (!rc && op->ninputs > 1)
        rc = xgo__srs_check(&src[0], &src[1], srs, err, errlen);
    else if (!rc)
        *srs = xgo__layer_srs(src[0].lyr);
    if (rc)
        return rc;
    /* the extents the drivers know (GeoPackage, Shapefile: from their
     * headers): a plan needs no exact box, only one holding every
     * feature, since the outer regions reach infinity anyway */
    for (k = 0; k < op->ninputs; k++)
        have = add_extent(src[k].lyr, lo, hi, have);
    if (xg_regions_plan(lo, hi, n, regions) != XG_OK)
        return xgo__fail(err, errlen, XG_EINVAL, "%s: cannot plan %d "
                         "regions over the extent %.17g %.17g %.17g %.17g",
                         job->a.path, n, lo[0], lo[1], hi[0], hi[1]);
    /* every feature lies in lo .. hi; the reaches are cut to a box well
     * past it, so that OGR's filters never test against +-DBL_MAX */
    for (k = 0; k < 2; k++) {
        double m = fabs(lo[k]) + fabs(hi[k]) + 1.0;
        clip[k] = lo[k] - m;
        clip[k + 2] = hi[k] + m;
    }
    return XG_OK;
}
