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

/* xg_regions_plan (exactgeo.h): the axis chosen here, from the box, is
 * read back from the plan by cut_axis below. */
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

/* xg_region_owns (exactgeo.h): the one ownership rule, the half-open
 * box; a NaN is owned by no region. */
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

/* xg_region_reach (exactgeo.h): each bound grown outward. */
void xg_region_reach(const struct xg_region *r, double box[4])
{
    box[0] = grown(r->lo[0], -1.0);
    box[1] = grown(r->lo[1], -1.0);
    box[2] = grown(r->hi[0], 1.0);
    box[3] = grown(r->hi[1], 1.0);
}

/* The axis that xg_regions_plan cut the n regions of reg along (its
 * strips are bounded along it only): the one place that reads it back.
 * 1 for a single region, which is the whole plane either way. */
static int cut_axis(const struct xg_region *reg, int n)
{
    return n > 1 && reg[0].hi[0] < HUGE_VAL ? 0 : 1;
}

/* xg_regions_meeting (exactgeo.h): the strips' reaches ascend along the
 * cut axis (both bounds: grown() keeps the order of the cuts), so the
 * regions whose reach meets the box are those from the first whose
 * reach ends at or past the box's low side to the last whose reach
 * starts at or before its high side; along the other axis every strip
 * reads the same span.  Each test is the comparison a loop over the
 * regions' reaches would make, so a NaN fails all of them. */
int xg_regions_meeting(const struct xg_region *reg, int n,
                       const double box[4], int *first, int *last)
{
    int ax, o, lo, hi;
    *first = 0;
    *last = -1;
    if (n < 1)
        return 0;
    ax = cut_axis(reg, n);
    o = 1 - ax;
    if (!(box[o] <= grown(reg[0].hi[o], 1.0) &&
          box[2 + o] >= grown(reg[0].lo[o], -1.0)))
        return 0;
    /* conditional moves, not branches: the searches' tests are the
     * selection's hot path, and their outcomes are unpredictable */
    for (lo = 0, hi = n; lo < hi;) {  /* the first reaching box[ax] */
        int mid = lo + (hi - lo) / 2;
        int past = grown(reg[mid].hi[ax], 1.0) >= box[ax];
        hi = past ? mid : hi;
        lo = past ? lo : mid + 1;
    }
    *first = lo;
    /* from *first on, the regions whose reach starts at or before
     * box[2 + ax] are a prefix (none when *first is n: a NaN) */
    for (hi = n; lo < hi;) {  /* the first past box[2 + ax] */
        int mid = lo + (hi - lo) / 2;
        int in = grown(reg[mid].lo[ax], -1.0) <= box[2 + ax];
        lo = in ? mid + 1 : lo;
        hi = in ? hi : mid;
    }
    *last = lo - 1;
    if (*first > *last) {
        *first = 0;
        *last = -1;
        return 0;
    }
    return *last - *first + 1;
}

/* xg_regions_owner (exactgeo.h): the only strip that can own p is the
 * first whose upper bound along the cut axis lies past p (the strips
 * tile the axis in order, empty ones too); xg_region_owns then decides,
 * so that the rule is the one rule whatever the search finds. */
int xg_regions_owner(const struct xg_region *reg, int n, const double p[2])
{
    int ax, lo = 0, hi = n - 1;
    if (n < 1)
        return -1;
    ax = cut_axis(reg, n);
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p[ax] < reg[mid].hi[ax])
            hi = mid;
        else
            lo = mid + 1;
    }
    return xg_region_owns(&reg[lo], p) ? lo : -1;
}

/* xg_contacts_keep_owned (exactgeo.h): compacted in place, in order. */
void xg_contacts_keep_owned(struct xg_contacts *c, const struct xg_region *r)
{
    size_t i, n = 0;
    for (i = 0; i < c->n; i++)
        if (xg_region_owns(r, c->v[i].p))
            c->v[n++] = c->v[i];
    c->n = n;
}
