/*
 * region_t.c -- the region API (exactgeo.h, "Regions"): the plans of n =
 * 1..7 regions over ordinary, zero-width, thin and huge (+-1e308) boxes
 * tile the plane with no gap and no overlap (a point exactly on a cut
 * belongs to exactly one region, the upper one); each region's reach
 * strictly contains it and holds every exact point within half an ulp of
 * a rounded point it owns (at UTM magnitudes and near 0); keep_owned
 * keeps the owned contacts in their order, and the regions of a plan
 * together keep each contact once; xg_regions_meeting and
 * xg_regions_owner find what testing each region finds (boxes on cuts
 * and reach bounds and one ulp each side, non-finite ones, no region,
 * one region).
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_test.h"

#define NMAX 7

/* The index of the one region of r[0..n-1] that owns p; -1 when none
 * does, -2 when several do. */
static int owner(const struct xg_region *r, int n, const double p[2])
{
    int k, found = -1;
    for (k = 0; k < n; k++)
        if (xg_region_owns(&r[k], p)) {
            if (found >= 0)
                return -2;
            found = k;
        }
    return found;
}

/* The regions' bounds, structurally: strips along one axis, contiguous
 * (each one's upper bound the next one's lower), from -inf to +inf, not
 * decreasing, and unbounded along the other axis.  *axis gets the axis
 * cut (0 when n is 1). */
static int is_strips(const struct xg_region *r, int n, int *axis)
{
    int k, ax = -1;
    for (k = 0; k < 2 && n > 1; k++)
        if (r[0].hi[k] != HUGE_VAL)
            ax = k;
    if (n == 1)
        ax = 0;
    if (ax < 0)
        return 0;
    *axis = ax;
    for (k = 0; k < n; k++) {
        int o = 1 - ax;
        if (r[k].lo[o] != -HUGE_VAL || r[k].hi[o] != HUGE_VAL)
            return 0;
        if (r[k].hi[ax] < r[k].lo[ax])
            return 0;
        if (k > 0 && r[k].lo[ax] != r[k - 1].hi[ax])
            return 0;
    }
    return r[0].lo[ax] == -HUGE_VAL && r[n - 1].hi[ax] == HUGE_VAL;
}

/* Points to probe a plan with: every cut and its neighbours, the box's
 * corners and middle, random points in and around the box, and the
 * extremes of the doubles. */
static size_t probes(const struct xg_region *r, int n, int axis,
                     const double lo[2], const double hi[2], double (*p)[2],
                     size_t cap)
{
    size_t m = 0;
    int k, i;
    const double fixed[] = {0.0, -0.0, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN,
                            DBL_TRUE_MIN, -DBL_TRUE_MIN, 1.0, -1.0};
#define PUT(x, y)                                                          \
    do {                                                                   \
        if (m < cap) {                                                     \
            p[m][0] = (x);                                                 \
            p[m][1] = (y);                                                 \
            m++;                                                           \
        }                                                                  \
    } while (0)
    for (k = 0; k + 1 < n; k++) {
        double c = r[k].hi[axis], v[3], o = rng_range(lo[1 - axis],
                                                      hi[1 - axis]);
        v[0] = c;
        v[1] = nextafter(c, -HUGE_VAL);
        v[2] = nextafter(c, HUGE_VAL);
        for (i = 0; i < 3; i++) {
            if (axis == 0)
                PUT(v[i], o);
            else
                PUT(o, v[i]);
        }
    }
    for (i = 0; i < (int)(sizeof fixed / sizeof fixed[0]); i++) {
        PUT(fixed[i], fixed[(i + 3) % 10]);
        PUT(fixed[(i + 5) % 10], fixed[i]);
    }
    PUT(lo[0], lo[1]);
    PUT(hi[0], hi[1]);
    PUT(lo[0], hi[1]);
    PUT(hi[0], lo[1]);
    PUT(lo[0] / 2 + hi[0] / 2, lo[1] / 2 + hi[1] / 2);
    for (i = 0; i < 200; i++) {
        double x = lo[0] / 2 + hi[0] / 2, y = lo[1] / 2 + hi[1] / 2;
        double wx = hi[0] / 2 - lo[0] / 2, wy = hi[1] / 2 - lo[1] / 2;
        PUT(x + wx * rng_range(-1.2, 1.2), y + wy * rng_range(-1.2, 1.2));
    }
#undef PUT
    return m;
}

/* The plans of n = 1..7 over box lo .. hi: strips, each probe owned by
 * exactly one region, a probe on a cut by the region starting there. */
static void check_tiling(const char *name, const double lo[2],
                         const double hi[2])
{
    static double p[4096][2];
    struct xg_region r[NMAX];
    int n, bad_plan = 0, bad_strips = 0;
    uint64_t probed = 0, unowned = 0, twice = 0, not_upper = 0;
    for (n = 1; n <= NMAX; n++) {
        int axis = 0;
        size_t m, i;
        if (xg_regions_plan(lo, hi, n, r) != XG_OK) {
            bad_plan++;
            continue;
        }
        if (!is_strips(r, n, &axis)) {
            bad_strips++;
            continue;
        }
        m = probes(r, n, axis, lo, hi, p, sizeof p / sizeof p[0]);
        for (i = 0; i < m; i++) {
            int o, k;
            if (!isfinite(p[i][0]) || !isfinite(p[i][1]))
                continue;       /* no input has such a point */
            o = owner(r, n, p[i]);
            probed++;
            unowned += o == -1;
            twice += o == -2;
            if (o < 0)
                continue;
            /* on a cut: the upper region, the one whose bound it is */
            for (k = 0; k + 1 < n; k++)
                if (p[i][axis] == r[k].hi[axis] &&
                    r[o].lo[axis] != p[i][axis])
                    not_upper++;
        }
    }
    ok(bad_plan == 0 && bad_strips == 0,
       "%s: n = 1..7 plan into strips from -inf to +inf (%d failed, %d "
       "not strips)", name, bad_plan, bad_strips);
    ok(probed > 0 && unowned == 0 && twice == 0 && not_upper == 0,
       "%s: %llu probes owned once each (%llu by none, %llu twice, %llu "
       "on a cut not by the upper region)", name,
       (unsigned long long)probed, (unsigned long long)unowned,
       (unsigned long long)twice, (unsigned long long)not_upper);
}

/* Region r's reach holds the exact points that round to p (p owned by
 * r): every exact point within half an ulp of p lies strictly between
 * p's neighbours, so reach bounds at or past the neighbours hold them. */
static int reach_holds(const double box[4], const double p[2])
{
    int k;
    for (k = 0; k < 2; k++)
        if (!(box[k] <= nextafter(p[k], -HUGE_VAL) &&
              box[2 + k] >= nextafter(p[k], HUGE_VAL)))
            return 0;
    return 1;
}

/* The reach of regions whose bounds lie at magnitude v (and at v's
 * neighbours): strictly wider than the region where it is finite, the
 * outer bounds +-DBL_MAX, and holding the rounding of the extreme points
 * the region owns (its lower corner, the doubles just below its upper
 * bounds) and of random points in it. */
static void check_reach(const char *name, double v)
{
    uint64_t regions = 0, not_wider = 0, not_held = 0;
    int i, j;
    for (i = -2; i <= 2; i++) {
        double c = ulps(v, i);
        for (j = 0; j < 6; j++) {
            struct xg_region r;
            double box[4], p[2], w = j < 3 ? fabs(c) * 1e-6 + 1e-300
                                           : ldexp(fabs(c), -50) + 1e-320;
            int k, t;
            /* j % 3: bounded both ways, open above, open below */
            r.lo[0] = c;
            r.hi[0] = c + w;
            r.lo[1] = -c - w;
            r.hi[1] = -c;
            if (r.hi[0] <= r.lo[0] || r.hi[1] <= r.lo[1])
                continue;
            if (j % 3 == 1)
                r.hi[0] = r.hi[1] = HUGE_VAL;
            if (j % 3 == 2)
                r.lo[0] = r.lo[1] = -HUGE_VAL;
            xg_region_reach(&r, box);
            regions++;
            for (k = 0; k < 2; k++) {
                if (isfinite(r.lo[k]) ? !(box[k] < r.lo[k])
                                      : box[k] != -DBL_MAX)
                    not_wider++;
                if (isfinite(r.hi[k]) ? !(box[2 + k] > r.hi[k])
                                      : box[2 + k] != DBL_MAX)
                    not_wider++;
            }
            /* the extreme points r owns, and random ones */
            for (t = 0; t < 4 + 20; t++) {
                for (k = 0; k < 2; k++) {
                    double a = isfinite(r.lo[k]) ? r.lo[k] : r.hi[k] - 1e3 * w,
                           b = isfinite(r.hi[k]) ? r.hi[k] : r.lo[k] + 1e3 * w;
                    p[k] = t < 4 ? ((t >> k) & 1 ? nextafter(b, -HUGE_VAL) : a)
                                 : rng_range(a, b);
                }
                if (!xg_region_owns(&r, p))
                    continue;
                not_held += !reach_holds(box, p);
            }
        }
    }
    ok(regions > 0 && not_wider == 0 && not_held == 0,
       "reach at %s: %llu regions, %llu bounds not wider, %llu owned "
       "points whose rounding it does not hold", name,
       (unsigned long long)regions, (unsigned long long)not_wider,
       (unsigned long long)not_held);
}

/* keep_owned: in order, exactly the owned ones, and the regions of a
 * plan keep each contact once. */
static void check_keep(void)
{
    struct xg_contacts c, all;
    struct xg_region r[5];
    const double lo[2] = {0, 0}, hi[2] = {5, 1};
    size_t i, total = 0, *seen;
    int k, in_order = 1, exact = 1;
    memset(&all, 0, sizeof all);
    all.n = all.cap = 300;
    all.v = calloc(all.cap, sizeof *all.v);
    seen = calloc(all.n, sizeof *seen);
    if (!all.v || !seen)
        exit(99);
    for (i = 0; i < all.n; i++) {
        all.v[i].a = (uint32_t)i;
        all.v[i].b = (uint32_t)(7 * i % 13);
        all.v[i].kind = (int32_t)(i % 3);
        /* on the cuts (integers) for a third of them */
        all.v[i].p[0] = i % 3 ? rng_range(-1, 6) : (double)(i % 7) - 1;
        all.v[i].p[1] = rng_range(-1, 2);
        all.v[i].p[2] = (double)i;
    }
    ok(xg_regions_plan(lo, hi, 5, r) == XG_OK, "plan of 5 over [0,5]");
    for (k = 0; k < 5; k++) {
        size_t j = 0;
        c.n = c.cap = all.n;
        c.v = malloc(all.n * sizeof *c.v);
        if (!c.v)
            exit(99);
        memcpy(c.v, all.v, all.n * sizeof *c.v);
        xg_contacts_keep_owned(&c, &r[k]);
        for (i = 0; i < c.n; i++) {
            uint32_t a = c.v[i].a;
            if (i && c.v[i - 1].a >= a)
                in_order = 0;
            if (memcmp(&c.v[i], &all.v[a], sizeof c.v[i]) ||
                !xg_region_owns(&r[k], c.v[i].p))
                exact = 0;
            seen[a]++;
        }
        /* every owned contact kept */
        for (i = 0; i < all.n; i++)
            if (xg_region_owns(&r[k], all.v[i].p)) {
                while (j < c.n && c.v[j].a < i)
                    j++;
                if (j == c.n || c.v[j].a != i)
                    exact = 0;
            }
        total += c.n;
        free(c.v);
    }
    for (i = 0; i < all.n; i++)
        if (seen[i] != 1)
            exact = 0;
    ok(in_order && exact && total == all.n,
       "keep_owned keeps the owned contacts, in order; the 5 regions keep "
       "each of %zu once (%zu kept)", all.n, total);
    c = all;
    c.n = 0;
    xg_contacts_keep_owned(&c, &r[0]);
    ok(c.n == 0, "keep_owned on no contacts keeps none");
    free(all.v);
    free(seen);
}

/* The regions of r[0..n-1] whose reach meets box, by testing each one
 * (the rule xg_regions_meeting finds by search): *first .. *last, -1 and
 * -2 when none, -3 when they are not consecutive; returns their number. */
static int meeting_by_loop(const struct xg_region *r, int n,
                           const double box[4], int *first, int *last)
{
    int k, m = 0;
    *first = -1;
    *last = -2;
    for (k = 0; k < n; k++) {
        double q[4];
        xg_region_reach(&r[k], q);
        if (box[0] <= q[2] && box[2] >= q[0] && box[1] <= q[3] &&
            box[3] >= q[1]) {
            if (m && *last != k - 1)
                *last = -3;
            else
                *last = k;
            if (!m)
                *first = k;
            m++;
        }
    }
    return m;
}

/* xg_regions_meeting on box agrees with the loop; 1 when it does. */
static int meeting_agrees(const struct xg_region *r, int n,
                          const double box[4])
{
    int f, l, f2, l2, m = xg_regions_meeting(r, n, box, &f, &l),
                      m2 = meeting_by_loop(r, n, box, &f2, &l2);
    if (m2 == 0)
        return m == 0 && f == 0 && l == -1;
    return m == m2 && f == f2 && l == l2;
}

/* The boxes to meet a plan with: along its cut axis, from each reach
 * bound and each cut and their neighbours to the same, to the box's
 * ends and to the infinities; random ones; and some with a NaN or an
 * infinity, in each place. */
static void check_meeting(const char *name, const double lo[2],
                          const double hi[2])
{
    struct xg_region r[NMAX];
    uint64_t boxes = 0, wrong = 0, owners = 0, owner_wrong = 0;
    int n, i, j, k;
    for (n = 1; n <= NMAX; n++) {
        double v[6 * NMAX + 8];
        int nv = 0, axis = 0, o;
        if (xg_regions_plan(lo, hi, n, r) != XG_OK || !is_strips(r, n, &axis))
            continue;
        o = 1 - axis;
        for (k = 0; k < n; k++) {
            double q[4];
            xg_region_reach(&r[k], q);
            v[nv++] = q[axis];
            v[nv++] = q[2 + axis];
            if (k + 1 < n)
                v[nv++] = r[k].hi[axis];
        }
        v[nv++] = lo[axis];
        v[nv++] = hi[axis];
        v[nv++] = -HUGE_VAL;
        v[nv++] = HUGE_VAL;
        v[nv++] = NAN;
        for (i = 0; i < nv; i++)
            for (j = 0; j < nv; j++) {
                int di, dj;
                for (di = -1; di <= 1; di++)
                    for (dj = -1; dj <= 1; dj++) {
                        double b[4], p[2];
                        b[axis] = ulps(v[i], di);
                        b[2 + axis] = ulps(v[j], dj);
                        b[o] = lo[o];
                        b[2 + o] = hi[o];
                        boxes++;
                        wrong += !meeting_agrees(r, n, b);
                        p[axis] = b[axis];
                        p[o] = lo[o];
                        owners++;
                        owner_wrong +=
                            xg_regions_owner(r, n, p) != owner(r, n, p);
                    }
            }
        for (i = 0; i < 300; i++) {
            double b[4], p[2], w = hi[axis] - lo[axis] + 1.0;
            b[axis] = lo[axis] + w * rng_range(-0.2, 1.1);
            b[2 + axis] = b[axis] + w * rng_range(-0.05, 0.5);
            b[o] = lo[o] + rng_range(-1, 1);
            b[2 + o] = b[o] + rng_range(0, 2);
            boxes++;
            wrong += !meeting_agrees(r, n, b);
            p[0] = b[0];
            p[1] = b[1];
            owners++;
            owner_wrong += xg_regions_owner(r, n, p) != owner(r, n, p);
        }
        /* a NaN or an infinity in each place: the other axis too */
        for (i = 0; i < 4; i++) {
            const double bad[3] = {NAN, HUGE_VAL, -HUGE_VAL};
            for (j = 0; j < 3; j++) {
                double b[4] = {lo[0], lo[1], hi[0], hi[1]};
                b[i] = bad[j];
                boxes++;
                wrong += !meeting_agrees(r, n, b);
                if (i < 2) {
                    owners++;
                    owner_wrong += xg_regions_owner(r, n, b) != owner(r, n, b);
                }
            }
        }
    }
    ok(boxes > 0 && wrong == 0 && owners > 0 && owner_wrong == 0,
       "%s: xg_regions_meeting and xg_regions_owner agree with testing each "
       "region, n = 1..7 (%llu boxes, %llu differ; %llu points, %llu "
       "differ)", name, (unsigned long long)boxes,
       (unsigned long long)wrong, (unsigned long long)owners,
       (unsigned long long)owner_wrong);
}

/* Two regions cut exactly at c (along axis): a box on the cut, one ulp
 * each side of it, and at the reaches' bounds, exactly and one ulp
 * past. */
static void check_cut(double c, int axis)
{
    struct xg_region r[2];
    double lo[2], hi[2], q0[4], q1[4], b[4], p[2];
    int f, l, good = 1, o = 1 - axis;
    lo[axis] = c - 1.0;
    hi[axis] = c + 1.0;
    lo[o] = 0.0;
    hi[o] = 0.5;
#define BOX(x0, x1)                                                        \
    (b[axis] = (x0), b[2 + axis] = (x1), b[o] = 0.25, b[2 + o] = 0.25,    \
     xg_regions_meeting(r, 2, b, &f, &l))
#define AT(x) (p[axis] = (x), p[o] = 0.25, xg_regions_owner(r, 2, p))
    if (xg_regions_plan(lo, hi, 2, r) != XG_OK || r[0].hi[axis] != c) {
        ok(0, "the plan of 2 over %.17g +- 1 cuts at it", c);
        return;
    }
    xg_region_reach(&r[0], q0);
    xg_region_reach(&r[1], q1);
    good &= BOX(c, c) == 2 && f == 0 && l == 1;
    good &= BOX(ulps(c, -1), ulps(c, -1)) == 2 && f == 0 && l == 1;
    good &= BOX(ulps(c, 1), ulps(c, 1)) == 2 && f == 0 && l == 1;
    good &= AT(c) == 1 && AT(ulps(c, -1)) == 0 && AT(ulps(c, 1)) == 1;
    /* region 1's reach starts at q1[axis]: a box ending there meets it */
    good &= BOX(lo[axis], q1[axis]) == 2 && f == 0 && l == 1;
    good &= BOX(lo[axis], ulps(q1[axis], -1)) == 1 && f == 0 && l == 0;
    /* region 0's reach ends at q0[2 + axis] */
    good &= BOX(q0[2 + axis], hi[axis]) == 2 && f == 0 && l == 1;
    good &= BOX(ulps(q0[2 + axis], 1), hi[axis]) == 1 && f == 1 && l == 1;
    ok(good, "2 regions cut at %.17g along %c: boxes on the cut and one "
             "ulp each side meet both, a point on it is the upper one's, "
             "boxes at the reaches' bounds exactly meet, one ulp past do "
             "not", c, axis ? 'y' : 'x');
#undef BOX
#undef AT
}

/* No region, one region, non-finite boxes and points. */
static void check_meeting_edges(void)
{
    struct xg_region r[1] = {{{0, 0}, {0, 0}}};
    const double box[4] = {500001, 7000000.5, 500002, 7000000.6};
    const double nan_box[4] = {NAN, 0, 1, 1}, far_box[4] = {HUGE_VAL, 0,
                                                           HUGE_VAL, 1},
                 nan_p[2] = {0, NAN}, inf_p[2] = {HUGE_VAL, 0};
    int f = 7, l = 7;
    ok(xg_regions_meeting(r, 0, box, &f, &l) == 0 && f == 0 && l == -1 &&
           xg_regions_owner(r, 0, box) == -1,
       "no region: no box meets one, no point is owned");
    ok(xg_regions_plan(box, box + 2, 1, r) == XG_OK &&
           xg_regions_meeting(r, 1, box, &f, &l) == 1 && f == 0 && l == 0 &&
           xg_regions_owner(r, 1, box) == 0,
       "one region: a box meets it, a point is its own");
    ok(xg_regions_meeting(r, 1, nan_box, &f, &l) == 0 && f == 0 &&
           l == -1 && xg_regions_meeting(r, 1, far_box, &f, &l) == 0 &&
           xg_regions_owner(r, 1, nan_p) == -1 &&
           xg_regions_owner(r, 1, inf_p) == -1,
       "one region: a box with a NaN or beyond DBL_MAX meets none, a "
       "point with a NaN or +inf is owned by none");
}

int main(void)
{
    struct xg_region r[3];
    const double unit_lo[2] = {0, 0}, unit_hi[2] = {6, 2};
    const double inf_lo[2] = {-HUGE_VAL, 0}, nan_hi[2] = {NAN, 1};
    rng_seed_from_env(15);

    /* arguments */
    ok(xg_regions_plan(unit_lo, unit_hi, 0, r) == XG_EINVAL &&
           xg_regions_plan(unit_lo, unit_hi, -1, r) == XG_EINVAL,
       "n < 1 is XG_EINVAL");
    ok(xg_regions_plan(inf_lo, unit_hi, 2, r) == XG_EINVAL &&
           xg_regions_plan(unit_lo, nan_hi, 2, r) == XG_EINVAL,
       "a box that is not finite is XG_EINVAL");

    /* cuts: across the longer side, at equal widths */
    ok(xg_regions_plan(unit_lo, unit_hi, 3, r) == XG_OK &&
           r[0].hi[0] == 2 && r[1].lo[0] == 2 && r[1].hi[0] == 4 &&
           r[2].lo[0] == 4 && r[0].lo[1] == -HUGE_VAL &&
           r[2].hi[0] == HUGE_VAL,
       "3 regions over [0,6] x [0,2]: strips in x cut at 2 and 4");
    {
        const double lo[2] = {0, -3}, hi[2] = {1, 3};
        ok(xg_regions_plan(lo, hi, 2, r) == XG_OK && r[0].hi[1] == 0 &&
               r[1].lo[1] == 0 && r[0].hi[0] == HUGE_VAL,
           "2 regions over [0,1] x [-3,3]: strips in y cut at 0");
    }

    {
        const double lo[2] = {0, 0}, hi[2] = {6, 6};
        check_tiling("[0,6]^2", lo, hi);
    }
    {
        const double lo[2] = {500000.25, 7000000.5},
                     hi[2] = {512345.75, 7000100.125};
        check_tiling("UTM box", lo, hi);
    }
    {
        const double lo[2] = {3.5, -2}, hi[2] = {3.5, -2};
        check_tiling("zero-width box (a point)", lo, hi);
    }
    {
        const double lo[2] = {0.1, 0}, hi[2] = {0.1, 10};
        check_tiling("zero-width box in x", lo, hi);
    }
    {
        const double lo[2] = {1, 1}, hi[2] = {nextafter(1, 2), 1};
        check_tiling("a box one ulp wide", lo, hi);
    }
    {
        const double lo[2] = {-1e308, -1e308}, hi[2] = {1e308, 1e308};
        check_tiling("huge box +-1e308", lo, hi);
    }
    {
        const double lo[2] = {-DBL_MAX, 0}, hi[2] = {DBL_MAX, 1};
        check_tiling("box +-DBL_MAX", lo, hi);
    }
    {
        const double lo[2] = {-DBL_TRUE_MIN, -1e-310},
                     hi[2] = {4 * DBL_TRUE_MIN, 1e-310};
        check_tiling("subnormal box near 0", lo, hi);
    }

    check_reach("500000.25", 500000.25);
    check_reach("7000000.5", 7000000.5);
    check_reach("1", 1.0);
    check_reach("0", 0.0);
    check_reach("DBL_MIN", DBL_MIN);
    check_reach("DBL_TRUE_MIN", DBL_TRUE_MIN);
    check_reach("1e300", 1e300);

    /* a plan's regions, reached: each holds its region */
    {
        const double lo[2] = {-1e308, 0}, hi[2] = {1e308, 1};
        struct xg_region q[NMAX];
        int n, k, bad = 0;
        for (n = 1; n <= NMAX; n++) {
            if (xg_regions_plan(lo, hi, n, q) != XG_OK) {
                bad++;
                continue;
            }
            for (k = 0; k < n; k++) {
                double box[4];
                int j;
                xg_region_reach(&q[k], box);
                for (j = 0; j < 2; j++) {
                    bad += isfinite(q[k].lo[j]) ? !(box[j] < q[k].lo[j])
                                                : box[j] != -DBL_MAX;
                    bad += isfinite(q[k].hi[j]) ? !(box[2 + j] > q[k].hi[j])
                                                : box[2 + j] != DBL_MAX;
                }
            }
        }
        ok(bad == 0, "the reaches of plans over +-1e308 are finite and "
                     "strictly wider than their regions");
    }

    check_keep();

    {
        static const double m[4][4] = {
            {500000.25, 7000000.5, 512345.75, 7000100.125},
            {0, -3, 1, 3}, {3.5, -2, 3.5, -2}, {-1e308, -1e308, 1e308, 1e308}};
        static const char *const name[4] = {
            "UTM box", "[0,1] x [-3,3] (cut in y)", "zero-width box (a point)",
            "huge box +-1e308"};
        int i;
        for (i = 0; i < 4; i++)
            check_meeting(name[i], m[i], m[i] + 2);
    }
    check_cut(500000.25, 0);
    check_cut(7000000.5, 1);
    check_meeting_edges();
    tap_done();
    return tap_exit();
}
