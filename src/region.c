/*
 * region.c -- regions of the plane that own contacts (exactgeo.h,
 * "Regions").  The rule is the contact's own point, not a grid cell, so
 * that it holds whatever grid, engine or element subset a region's run
 * uses: the contact of a pair depends on the pair alone, and its point is
 * the same double wherever it is computed.
 */
#include <math.h>
#include <float.h>
#include "exactgeo.h"

int xg_regions_plan(const double lo[2], const double hi[2], int n,
                    struct xg_region *out)
{
    int axis, k;
    double prev;
    if (n < 1 || !out || !lo || !hi || !isfinite(lo[0]) ||
        !isfinite(lo[1]) || !isfinite(hi[0]) || !isfinite(hi[1]))
        return XG_EINVAL;
    /* cut across the longer side: strips as wide as the data allow */
    axis = (hi[1] - lo[1] > hi[0] - lo[0]) ? 1 : 0;
    prev = -HUGE_VAL;
    for (k = 0; k < n; k++) {
        double t = (double)(k + 1) / (double)n, cut;
        out[k].lo[0] = out[k].lo[1] = -HUGE_VAL;
        out[k].hi[0] = out[k].hi[1] = HUGE_VAL;
        out[k].lo[axis] = prev;
        if (k == n - 1) {
            cut = HUGE_VAL;
        } else {
            /* the form that cannot overflow for a finite box; cuts never
             * step back, so the strips tile the axis (some may be empty) */
            cut = lo[axis] * (1.0 - t) + hi[axis] * t;
            if (cut < prev)
                cut = prev;
        }
        out[k].hi[axis] = cut;
        prev = cut;
    }
    return XG_OK;
}

int xg_region_owns(const struct xg_region *r, const double p[2])
{
    return r->lo[0] <= p[0] && p[0] < r->hi[0] && r->lo[1] <= p[1] &&
           p[1] < r->hi[1];
}

/* v moved outward by a margin past the rounding of a constructed point:
 * a point rounded to nearest lies within half an ulp of the exact one,
 * and an ulp of a double is at most |v| 2^-52; the margin takes |v| 2^-40
 * (room for readers that test boxes in floating point) plus the smallest
 * normal double (for v near 0). */
static double grown(double v, double dir)
{
    double m;
    if (!isfinite(v))
        return dir < 0 ? -DBL_MAX : DBL_MAX;
    m = fabs(v) * 0x1p-40 + DBL_MIN;
    v += dir * m;
    if (!isfinite(v))
        return dir < 0 ? -DBL_MAX : DBL_MAX;
    return v;
}

void xg_region_reach(const struct xg_region *r, double box[4])
{
    box[0] = grown(r->lo[0], -1.0);
    box[1] = grown(r->lo[1], -1.0);
    box[2] = grown(r->hi[0], 1.0);
    box[3] = grown(r->hi[1], 1.0);
}

void xg_contacts_keep_owned(struct xg_contacts *c, const struct xg_region *r)
{
    size_t i, n = 0;
    for (i = 0; i < c->n; i++)
        if (xg_region_owns(r, c->v[i].p))
            c->v[n++] = c->v[i];
    c->n = n;
}
