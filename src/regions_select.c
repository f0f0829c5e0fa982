/*
 * regions_select.c -- the partitioned run's selection (regions_run.c):
 * the inputs' hull, the plan of the regions (region.c), and each set's
 * elements per region: those whose box meets the region's reach, or, for
 * inside, the points the region owns and the solids whole.  On threads,
 * the CSR build of xg_csr.h by shares (regions are the keys), so that
 * each region's elements come in the whole set's order: a region's
 * (a, b) order is then the whole run's.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_csr.h"
#include "op/inside/xg_inside.h"
#include "xg_thread.h"
#include "xg_mem.h"
#include "xg_pair.h"
#include "xg_regions.h"

struct select_job {
    const struct xg__region_op *rop;
    const struct xg_set *s;
    int side;                   /* 0: A, 1: B */
    const struct xg_region *reg;
    int nreg, nthreads, pass;   /* 0: hull; 1: count; 2: fill */
    /* B of an operation on solids: each triangle's solid and the
     * solids' boxes (6 doubles each) */
    const uint32_t *solid_of;
    const double *solid_box;
    struct xg__csr csr;         /* keys: the regions; slots: the threads'
                                   shares of the set */
    uint64_t *extra;            /* per thread: the regions' extra
                                   counts of degenerate elements */
    struct xg_counters *cnt;    /* per thread */
    double *hull;               /* per thread: xmin, ymin, xmax, ymax */
    uint32_t *idx;
};

/* Element i of J's set. */
static const double *elem_at(const struct select_job *J, size_t i)
{
    return J->s->xyz + (size_t)xg_elem_doubles(J->s->elem) * i;
}

/* Element i's box (6 doubles; x and y are what the selection reads): the
 * hull of its coordinates, or its solid's box for a triangle of a solid
 * (a solid is taken whole, collinear triangles too: a region's run must
 * see the whole surface).  No degenerate test: that is select_box's. */
static void raw_box(const struct select_job *J, size_t i, double box[6])
{
    const double *e = elem_at(J, i);
    if (J->solid_box)
        memcpy(box, J->solid_box + 6 * (size_t)J->solid_of[i],
               6 * sizeof *box);
    else if (J->s->elem == XG_ELEM_POINT) {
        memcpy(box, e, 3 * sizeof *box);
        memcpy(box + 3, e, 3 * sizeof *box);
    } else if (J->s->elem == XG_ELEM_SEGMENT)
        xg__seg_box(e, box);
    else
        xg__tri_box(e, box);
}

/* Non-zero when the engines skip element i (degenerate; counted in
 * a_skipped / b_skipped).  The test costs more than the rest of the
 * selection (an exact orient2d per triangle), so it runs only for the
 * elements that go to several regions, whose runs would count it again. */
static int degenerate(const struct select_job *J, struct xg_counters *cnt,
                      size_t i)
{
    const struct xg__pair_ops *ops = J->rop->ops;
    double box[6];
    return J->side ? ops->b_box(cnt, elem_at(J, i), box)
                   : ops->a_box(cnt, elem_at(J, i), box);
}

/* The regions element (box) goes to, *k0 .. *k1 (none when *k0 > *k1):
 * those whose reach its box meets, or, for A of an operation on solids,
 * the one that owns its point (region.c's rules, exactgeo.h). */
static void goes_to(const struct select_job *J, const double box[6],
                    int *k0, int *k1)
{
    if (J->rop->solids && J->side == 0) {
        *k0 = *k1 = xg_regions_owner(J->reg, J->nreg, box);
        if (*k0 < 0)
            *k1 = -2;
    } else {
        const double xy[4] = {box[0], box[1], box[3], box[4]};
        xg_regions_meeting(J->reg, J->nreg, xy, k0, k1);
    }
}

/* Pass 0: the set's hull (any hull gives the same answer, so degenerate
 * elements may widen it); 1: the count of each region's elements, and of
 * the regions' extra counts of a degenerate element; 2: their indices.
 * A degenerate element goes where its box goes (its region's run skips
 * and counts it): every element goes to one region at least, since the
 * reaches cover the plane. */
static void select_worker(void *arg, int tid)
{
    struct select_job *J = arg;
    size_t lo, hi, i;
    double *h = J->hull + 4 * tid;
    int k, k0, k1;
    xg__share(J->s->n, J->nthreads, tid, &lo, &hi);
    for (i = lo; i < hi; i++) {
        double box[6];
        raw_box(J, i, box);
        if (J->pass == 0) {
            for (k = 0; k < 2; k++) {
                if (box[k] < h[k])
                    h[k] = box[k];
                if (box[3 + k] > h[2 + k])
                    h[2 + k] = box[3 + k];
            }
            continue;
        }
        goes_to(J, box, &k0, &k1);
        for (k = k0; k <= k1; k++) {
            if (J->pass == 1)
                xg__csr_count(&J->csr, tid, (size_t)k);
            else
                J->idx[xg__csr_next(&J->csr, tid, (size_t)k)] = (uint32_t)i;
        }
        if (J->pass == 1 && k1 > k0 && degenerate(J, &J->cnt[tid], i))
            J->extra[tid] += (uint64_t)(k1 - k0);
    }
}

/* Each triangle's solid (xg__solids_group) and each solid's box, the
 * hull of its triangles' (collinear ones too). */
static int solid_boxes(const struct xg_set *b, uint32_t **solid_of,
                       double **solid_box)
{
    uint32_t *order = NULL, *start = NULL;
    size_t nsolid = 0, s, j;
    int k;
    *solid_of = malloc((b->n ? b->n : 1) * sizeof **solid_of);
    order = malloc((b->n ? b->n : 1) * sizeof *order);
    if (!*solid_of || !order ||
        (b->n && xg__solids_group(b, order, &start, &nsolid) != XG_OK)) {
        free(order);
        return XG_ENOMEM;
    }
    if (!(*solid_box = malloc((nsolid ? nsolid : 1) * 6 * sizeof(double)))) {
        free(order);
        free(start);
        return XG_ENOMEM;
    }
    for (s = 0; s < nsolid; s++) {
        double *sb = *solid_box + 6 * s;
        for (j = start[s]; j < start[s + 1]; j++) {
            double tb[6];
            xg__tri_box(b->xyz + 9 * (size_t)order[j], tb);
            for (k = 0; k < 3; k++) {
                if (j == start[s] || tb[k] < sb[k])
                    sb[k] = tb[k];
                if (j == start[s] || tb[3 + k] > sb[3 + k])
                    sb[3 + k] = tb[3 + k];
            }
            (*solid_of)[order[j]] = (uint32_t)s;
        }
    }
    free(order);
    free(start);
    return XG_OK;
}

/* Runs one pass of J over its set on its threads. */
static int select_pass(struct select_job *J, int pass)
{
    J->pass = pass;
    return xg__parallel(J->nthreads, select_worker, J);
}

/* The passes that follow read set s (side 0: A, 1: B; solid_of and
 * solid_box: B's solids, or NULL). */
static void use_set(struct select_job *J, const struct xg_set *s, int side,
                    const uint32_t *solid_of, const double *solid_box)
{
    J->s = s;
    J->side = side;
    J->solid_of = solid_of;
    J->solid_box = solid_box;
}

/* The picks of set s (use_set's arguments) once the regions are known:
 * count, scan (region by region, thread by thread, so that each region's
 * list ascends), fill; p->extra the regions' extra counts of degenerate
 * elements, the predicates added to cnt.  XG_OK or XG_ENOMEM. */
static int select_set(struct select_job *J, const struct xg_set *s,
                      int side, const uint32_t *solid_of,
                      const double *solid_box, struct xg__picks *p,
                      struct xg_counters *cnt)
{
    size_t nreg = (size_t)J->nreg, sum;
    int t, rc = XG_ENOMEM;
    use_set(J, s, side, solid_of, solid_box);
    memset(J->extra, 0, (size_t)J->nthreads * sizeof *J->extra);
    memset(J->cnt, 0, (size_t)J->nthreads * sizeof *J->cnt);
    p->start = malloc((nreg + 1) * sizeof *p->start);
    /* past SIZE_MAX picks no index array could be allocated either */
    if (xg__csr_init(&J->csr, nreg, J->nthreads) != XG_OK || !p->start ||
        select_pass(J, 1) != XG_OK ||
        xg__csr_scan(&J->csr, p->start, &sum) != XG_OK)
        goto out;
    for (t = 0; t < J->nthreads; t++) {
        p->extra += J->extra[t];
        xg_counters_add(cnt, &J->cnt[t]);
    }
    if ((p->idx = xg__big_alloc((sum ? sum : 1) * sizeof *p->idx))) {
        J->idx = p->idx;
        rc = select_pass(J, 2);
    }
out:
    xg__csr_free(&J->csr);
    return rc;
}

/* The (x, y) hull of both sets (their elements' boxes, degenerate ones
 * too); the point 0 when there is none. */
static int hull_of(struct select_job *J, const struct xg_set *a,
                   const uint32_t *solid_of, const double *solid_box,
                   const struct xg_set *b, double lo[2], double hi[2])
{
    int side, t, k;
    for (k = 0; k < 2; k++) {
        lo[k] = HUGE_VAL;
        hi[k] = -HUGE_VAL;
    }
    for (side = 0; side < 2; side++) {
        use_set(J, side ? b : a, side, side ? solid_of : NULL,
                side ? solid_box : NULL);
        for (t = 0; t < J->nthreads; t++)
            for (k = 0; k < 2; k++) {
                J->hull[4 * t + k] = HUGE_VAL;
                J->hull[4 * t + 2 + k] = -HUGE_VAL;
            }
        if (select_pass(J, 0) != XG_OK)
            return XG_ENOMEM;
        for (t = 0; t < J->nthreads; t++)
            for (k = 0; k < 2; k++) {
                if (J->hull[4 * t + k] < lo[k])
                    lo[k] = J->hull[4 * t + k];
                if (J->hull[4 * t + 2 + k] > hi[k])
                    hi[k] = J->hull[4 * t + 2 + k];
            }
    }
    if (!(lo[0] <= hi[0] && lo[1] <= hi[1]))
        lo[0] = lo[1] = hi[0] = hi[1] = 0.0;
    return XG_OK;
}

/* xg__picks_free (xg_regions.h): p's arrays, p zeroed. */
void xg__picks_free(struct xg__picks *p)
{
    free(p->start);
    free(p->idx);
    memset(p, 0, sizeof *p);
}

/* xg__regions_select (xg_regions.h): the solids' boxes (inside), the
 * hull, the plan, then A's picks and B's. */
int xg__regions_select(const struct xg__region_op *rop,
                       const struct xg_set *a, const struct xg_set *b,
                       int nreg, int nthreads, struct xg_region *reg,
                       struct xg__picks *pa, struct xg__picks *pb,
                       struct xg_counters *cnt)
{
    struct select_job J;
    double lo[2], hi[2];
    uint32_t *solid_of = NULL;
    double *solid_box = NULL;
    int rc = XG_ENOMEM;

    memset(&J, 0, sizeof J);
    memset(pa, 0, sizeof *pa);
    memset(pb, 0, sizeof *pb);
    J.rop = rop;
    J.nthreads = nthreads;
    J.nreg = nreg;
    J.extra = calloc((size_t)nthreads, sizeof *J.extra);
    J.cnt = calloc((size_t)nthreads, sizeof *J.cnt);
    J.hull = malloc((size_t)nthreads * 4 * sizeof *J.hull);
    if (!J.extra || !J.cnt || !J.hull ||
        (rop->solids && solid_boxes(b, &solid_of, &solid_box) != XG_OK) ||
        hull_of(&J, a, solid_of, solid_box, b, lo, hi) != XG_OK)
        goto out;
    xg_regions_plan(lo, hi, nreg, reg);
    J.reg = reg;
    if (select_set(&J, a, 0, NULL, NULL, pa, cnt) == XG_OK &&
        select_set(&J, b, 1, solid_of, solid_box, pb, cnt) == XG_OK)
        rc = XG_OK;
out:
    if (rc != XG_OK) {
        xg__picks_free(pa);
        xg__picks_free(pb);
    }
    free(J.extra);
    free(J.cnt);
    free(J.hull);
    free(solid_of);
    free(solid_box);
    return rc;
}
