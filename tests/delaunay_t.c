/*
 * delaunay_t.c -- xg_delaunay and xg_delaunay_check.
 *
 * The reference shares no code with src/: the lifted determinant in GMP
 * rationals with explicit heights (pred_ref.h's ref_lifted),
 * the tie-break evaluated from its definition (raise the heights in
 * descending (x, y) order by an infinitesimal: the first non-zero exact
 * finite difference decides).  Every small result is checked by brute
 * force against it (no distinct point in any triangle's perturbed
 * circle) and by xg_delaunay_check (the tiling), GEOS #1286's four
 * points among them; every engine and thread and strip count must give
 * the same list.  The cpu engine's
 * proofs that a circle misses the points a strip did not see
 * (delaunay_bounds.h) are checked one by one against the exact circle.
 */
#include <gmp.h>
#include "exactgeo.h"
#include "op/delaunay/delaunay_bounds.h"
#include "xg_test.h"
#include "pred_ref.h"
#include "dt_sets.h"
#include "gen_delaunay.h"

/* The sign of the lifted determinant with heights z (pred_ref.h). */
static int lifted_sign(const double *const p[4], mpq_t z[4])
{
    mpq_t det;
    int s;
    mpq_init(det);
    s = ref_lifted(det, p, z);
    mpq_clear(det);
    return s;
}

static int lex_gt(const double *p, const double *q)
{
    return p[0] > q[0] || (p[0] == q[0] && p[1] > q[1]);
}

/* The perturbed incircle from the definition: positive when d conflicts
 * with the counter-clockwise a, b, c. */
static int ref_perturbed(const double *a, const double *b, const double *c,
                         const double *d)
{
    const double *p[4] = {a, b, c, d};
    mpq_t z[4], t;
    int i, s, order[4] = {0, 1, 2, 3}, j;
    mpq_init(t);
    for (i = 0; i < 4; i++) {
        mpq_init(z[i]);
        mpq_set_d(z[i], p[i][0]);
        mpq_mul(z[i], z[i], z[i]);
        mpq_set_d(t, p[i][1]);
        mpq_mul(t, t, t);
        mpq_add(z[i], z[i], t);
    }
    s = lifted_sign(p, z);
    for (i = 1; i < 4; i++)
        for (j = i; j > 0 && lex_gt(p[order[j]], p[order[j - 1]]); j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (i = 0; s == 0 && i < 4; i++) {
        /* the determinant is linear in each height: det(z + e_k) - det(z)
         * has the derivative's sign; det(z) = 0 here */
        mpq_set_ui(t, 1, 1);
        mpq_add(z[order[i]], z[order[i]], t);
        s = lifted_sign(p, z);
        mpq_sub(z[order[i]], z[order[i]], t);
    }
    for (i = 0; i < 4; i++)
        mpq_clear(z[i]);
    mpq_clear(t);
    /* det4 with rows (x, y, x^2+y^2, 1) is Shewchuk's incircle */
    return s;
}

/* ---- the strips' circle proofs (delaunay_bounds.h) against GMP ---- */

/* The exact circle through a, b, c: centre (cx, cy), squared radius r2. */
static void exact_circle(const double *a, const double *b, const double *c,
                         mpq_t cx, mpq_t cy, mpq_t r2)
{
    mpq_t bx, by, qx, qy, b2, c2, d, t, u;
    mpq_inits(bx, by, qx, qy, b2, c2, d, t, u, NULL);
    mpq_set_d(t, a[0]);
    mpq_set_d(bx, b[0]), mpq_sub(bx, bx, t);
    mpq_set_d(qx, c[0]), mpq_sub(qx, qx, t);
    mpq_set_d(t, a[1]);
    mpq_set_d(by, b[1]), mpq_sub(by, by, t);
    mpq_set_d(qy, c[1]), mpq_sub(qy, qy, t);
    mpq_mul(b2, bx, bx), mpq_mul(t, by, by), mpq_add(b2, b2, t);
    mpq_mul(c2, qx, qx), mpq_mul(t, qy, qy), mpq_add(c2, c2, t);
    mpq_mul(d, bx, qy), mpq_mul(t, by, qx), mpq_sub(d, d, t);
    mpq_add(d, d, d);
    mpq_mul(u, qy, b2), mpq_mul(t, by, c2), mpq_sub(u, u, t);
    mpq_div(u, u, d);                                   /* ux */
    mpq_mul(t, bx, c2), mpq_mul(qx, qx, b2), mpq_sub(t, t, qx);
    mpq_div(t, t, d);                                   /* uy */
    mpq_mul(r2, u, u), mpq_mul(d, t, t), mpq_add(r2, r2, d);
    mpq_set_d(cx, a[0]), mpq_add(cx, cx, u);
    mpq_set_d(cy, a[1]), mpq_add(cy, cy, t);
    mpq_clears(bx, by, qx, qy, b2, c2, d, t, u, NULL);
}

/* Does the exact closed disk, within the band box[1] <= y <= box[3]
 * (box NULL: the whole disk), miss x <= at (left) or x >= at (right)? */
static int exact_misses(mpq_t cx, mpq_t cy, mpq_t r2, double at, int left,
                        const double *box)
{
    mpq_t h2, g, t;
    int miss;
    mpq_inits(h2, g, t, NULL);
    mpq_set(h2, r2);
    if (box) {
        mpq_set_d(t, box[1]);
        if (mpq_cmp(cy, t) < 0)
            mpq_sub(g, t, cy);
        else {
            mpq_set_d(t, box[3]);
            if (mpq_cmp(cy, t) > 0)
                mpq_sub(g, cy, t);
            else
                mpq_set_ui(g, 0, 1);
        }
        mpq_mul(g, g, g);
        mpq_sub(h2, h2, g);
    }
    mpq_set_d(t, at);
    if (left)
        mpq_sub(g, cx, t);
    else
        mpq_sub(g, t, cx);
    miss = mpq_sgn(h2) < 0;
    if (!miss && mpq_sgn(g) > 0) {
        mpq_mul(g, g, g);
        miss = mpq_cmp(g, h2) > 0;
    }
    mpq_clears(h2, g, t, NULL);
    return miss;
}

/* x - y > 2R exactly (the cheap proof's lemma) */
static int beyond_diameter(mpq_t r2, double x, double y)
{
    mpq_t g, t;
    int beyond;
    mpq_inits(g, t, NULL);
    mpq_set_d(g, x);
    mpq_set_d(t, y);
    mpq_sub(g, g, t);
    beyond = mpq_sgn(g) > 0;
    mpq_mul(g, g, g);
    mpq_mul_2exp(t, r2, 2);
    beyond = beyond && mpq_cmp(g, t) > 0;
    mpq_clears(g, t, NULL);
    return beyond;
}

static int iv_holds(struct xg_iv v, mpq_t x)
{
    mpq_t t;
    int in;
    mpq_init(t);
    mpq_set_d(t, v.lo);
    in = mpq_cmp(t, x) <= 0;
    mpq_set_d(t, v.hi);
    in = in && mpq_cmp(x, t) <= 0;
    mpq_clear(t);
    return in;
}

/* Triangles of every shape (wide, slivers a few ulps off a line, tiny,
 * at UTM magnitudes and near 0), with the strip edges lo and hi and the
 * band's edges placed at the exact circle's extremes and a few ulps
 * either side of them: each proof that says "misses" must be right, and
 * each must say it often enough that the test means something. */
static void check_bounds(void)
{
    static const double off[3][2] = {{0, 0}, {500000.25, 7000000.5},
                                     {-3.0e-3, 1.0e-4}};
    size_t n = 0, wrong_iv = 0, wrong_disk = 0, wrong_quick = 0;
    size_t said_disk = 0, said_quick = 0, close_disk = 0, close_quick = 0;
    mpq_t cx, cy, r2;
    int i;
    mpq_inits(cx, cy, r2, NULL);
    for (i = 0; i < 30000; i++) {
        const double *o = off[i % 3];
        double a[2], b[2], c[2], size = ldexp(1.0, rng_int(30) - 20);
        double lo, hi, box[4], mx, my, r, q[3], t, xmax, xmin;
        struct xg_iv ccx, ccy, iv_r2;
        double r_up;
        int k, shape = rng_int(3);
        a[0] = o[0] + rng_range(-50, 50), a[1] = o[1] + rng_range(-50, 50);
        b[0] = a[0] + size * rng_range(-1, 1);
        b[1] = a[1] + size * rng_range(-1, 1);
        if (shape == 0) {
            c[0] = a[0] + size * rng_range(-1, 1);
            c[1] = a[1] + size * rng_range(-1, 1);
        } else {
            /* on the line ab, then a few ulps off it */
            double f = rng_range(-0.5, 1.5);
            c[0] = ulps(a[0] + f * (b[0] - a[0]), rng_int(9) - 4);
            c[1] = ulps(a[1] + f * (b[1] - a[1]), rng_int(9) - 4);
        }
        t = xg_orient2d(NULL, a, b, c);
        if (t == 0)
            continue;
        if (t < 0)
            for (k = 0; k < 2; k++) {
                double s = b[k];
                b[k] = c[k], c[k] = s;
            }
        exact_circle(a, b, c, cx, cy, r2);
        mx = mpq_get_d(cx), my = mpq_get_d(cy), r = sqrt(mpq_get_d(r2));
        if (!(r < 1e100))
            continue;
        n++;
        /* the strip edges and the band's at the extremes, +- ulps */
        q[0] = 0, q[1] = -1, q[2] = 1;
        t = q[rng_int(3)] * ldexp(r, -rng_int(60));
        lo = ulps(mx - r + t, rng_int(9) - 4);
        hi = ulps(mx + r - t, rng_int(9) - 4);
        box[0] = box[2] = 0;
        box[1] = ulps(my + (rng_int(3) - 1) * r * rng_unit(), rng_int(5) - 2);
        box[3] = box[1] + r * rng_unit() * 2;
        if (xg__dt_circle_iv(a, b, c, &ccx, &ccy, &iv_r2, &r_up)) {
            mpq_t ru;
            mpq_init(ru);
            mpq_set_d(ru, r_up);
            mpq_mul(ru, ru, ru);
            if (!iv_holds(ccx, cx) || !iv_holds(ccy, cy) ||
                !iv_holds(iv_r2, r2) || mpq_cmp(ru, r2) < 0)
                wrong_iv++;
            mpq_clear(ru);
            for (k = 0; k < 2; k++) {
                double at = k ? hi : lo;
                if (xg__dt_disk_clear(ccx, ccy, iv_r2, at, !k, box)) {
                    said_disk++;
                    close_disk += fabs(k ? mx + r - at : at - (mx - r)) <
                                  1e-9 * r;
                    wrong_disk += !exact_misses(cx, cy, r2, at, !k, box);
                }
            }
        }
        /* the cheap proof's own edge: 2R from the vertex of largest x
         * (of least x, for hi), +- ulps; when it fires, that lemma must
         * hold exactly too (a wrong error bound shows there first) */
        xmax = a[0] > b[0] ? a[0] : b[0], xmax = xmax > c[0] ? xmax : c[0];
        xmin = a[0] < b[0] ? a[0] : b[0], xmin = xmin < c[0] ? xmin : c[0];
        lo = ulps(xmax - 2 * r + t, rng_int(9) - 4);
        hi = ulps(xmin + 2 * r - t, rng_int(9) - 4);
        for (k = 1; k <= 3; k++) {
            int left = k & 1, right = k >> 1;
            if (xg__dt_quick_clear(a, b, c, lo, hi, left, right)) {
                said_quick++;
                close_quick += (left && fabs(xmax - 2 * r - lo) < 1e-6 * r) ||
                               (right && fabs(hi - xmin - 2 * r) < 1e-6 * r);
                wrong_quick +=
                    (left && (!exact_misses(cx, cy, r2, lo, 1, NULL) ||
                              !beyond_diameter(r2, xmax, lo))) ||
                    (right && (!exact_misses(cx, cy, r2, hi, 0, NULL) ||
                               !beyond_diameter(r2, hi, xmin)));
            }
        }
    }
    ok(n > 20000 && wrong_iv == 0, "circle bounds: the interval centre, "
       "squared radius and radius bound hold the exact circle's (%zu "
       "triangles, %zu wrong)", n, wrong_iv);
    ok(said_disk > 5000 && close_disk > 100 && wrong_disk == 0,
       "circle bounds: the interval disk-band proof is right each time it "
       "says the disk misses (%zu times, %zu within 1e-9 R of the edge; "
       "%zu wrong)", said_disk, close_disk, wrong_disk);
    ok(said_quick > 1000 && close_quick > 0 && wrong_quick == 0,
       "circle bounds: the plain-double proof is right each time it says "
       "the disk misses, and its lemma holds (%zu times, %zu within "
       "1e-6 R of its edge; %zu wrong)", said_quick, close_quick, wrong_quick);
    mpq_clears(cx, cy, r2, NULL);
}

struct run {
    struct xg_triangles t;
    struct xg_stats st;
    int rc;
};

static int triangulate(struct xg_ctx *ctx, const struct xg_set *s, int engine,
                       int threads, int strips, struct run *r)
{
    struct xg_opts o;
    memset(&o, 0, sizeof o);
    o.engine = engine;
    o.grid[0] = strips;
    xg_ctx_set_threads(ctx, threads);
    memset(&r->t, 0, sizeof r->t);
    r->rc = xg_delaunay(ctx, s, &o, &r->t, &r->st);
    return r->rc;
}

static int same(const struct xg_triangles *x, const struct xg_triangles *y)
{
    return x->n == y->n &&
           (x->n == 0 || memcmp(x->v, y->v, x->n * sizeof x->v[0]) == 0);
}

/* Brute force: no distinct point conflicts with any triangle. */
static size_t brute_bad(const struct xg_set *s, const struct xg_triangles *t)
{
    size_t i, k, bad = 0;
    for (i = 0; i < t->n; i++) {
        const double *a = s->xyz + 3 * (size_t)t->v[i][0];
        const double *b = s->xyz + 3 * (size_t)t->v[i][1];
        const double *c = s->xyz + 3 * (size_t)t->v[i][2];
        for (k = 0; k < s->n; k++) {
            const double *d = s->xyz + 3 * k;
            if ((d[0] == a[0] && d[1] == a[1]) ||
                (d[0] == b[0] && d[1] == b[1]) ||
                (d[0] == c[0] && d[1] == c[1]))
                continue;
            bad += ref_perturbed(a, b, c, d) > 0;
        }
    }
    return bad;
}

/* Everything about one point set: seq against the reference, cpu with
 * 1..4 threads and 1..7 strips identical to seq, the audit clean. */
static void check_set(struct xg_ctx *ctx, const struct xg_set *s,
                      const char *name, int brute, size_t want_tri)
{
    struct run seq, cpu;
    struct xg_delaunay_report rep;
    int th, strips, all_same = 1;
    triangulate(ctx, s, XG_ENGINE_SEQ, 1, 0, &seq);
    if (!ok(seq.rc == XG_OK, "%s: seq triangulates (%zu points, %zu "
            "triangles)", name, s->n, seq.t.n)) {
        printf("# %s\n", xg_ctx_errmsg(ctx));
        return;
    }
    if (want_tri)
        ok(seq.t.n == want_tri, "%s: %zu triangles, as a tiling of its "
           "hull has", name, want_tri);
    xg_delaunay_check(ctx, s, (const uint32_t(*)[3])seq.t.v, seq.t.n, &rep);
    ok(dt_report_clean(&rep), "%s: the audit finds nothing (ccw %llu, edges "
       "%llu, missing %llu, count %llu, not Delaunay %llu, ties %llu)", name,
       (unsigned long long)rep.not_ccw, (unsigned long long)rep.bad_edges,
       (unsigned long long)rep.missing, (unsigned long long)rep.count_off,
       (unsigned long long)rep.not_delaunay,
       (unsigned long long)rep.not_canonical);
    if (brute)
        ok(brute_bad(s, &seq.t) == 0, "%s: no point in any triangle's "
           "perturbed circle (GMP reference, brute force)", name);
    for (th = 1; th <= 4; th++)
        for (strips = 1; strips <= 7; strips += 2 + (th & 1)) {
            triangulate(ctx, s, XG_ENGINE_CPU, th, strips, &cpu);
            if (cpu.rc != XG_OK || !same(&seq.t, &cpu.t)) {
                if (all_same)
                    printf("# %s: cpu %d threads %d strips: rc %d, %zu "
                           "triangles\n", name, th, strips, cpu.rc, cpu.t.n);
                all_same = 0;
            }
            xg_triangles_free(&cpu.t);
        }
    ok(all_same, "%s: the cpu engine on 1-4 threads and 1-7 strips writes "
       "seq's list", name);
    xg_triangles_free(&seq.t);
}

/* The cpu engine's work, not only its list, is the same from run to run
 * on many threads: 10^5 uniform points (bench/gen_delaunay.h's set, whose
 * hull strips reach the slow proof's cap), 16 threads, nine runs, every
 * counter of --stats equal.  The slow proof read the grid's cells in the
 * order the threads had filled them, and its cap made that order choose
 * the points taken in: the predicate count moved by a few between runs. */
static void work_repeats(struct xg_ctx *ctx)
{
    struct xg_set s = {0};
    struct run first, r;
    const uint64_t n = 100000;
    uint64_t i;
    int k, same_list = 1, same_work = 1;
    for (i = 0; i < n; i++) {
        double p[3];
        gd_point(GD_UNIFORM, n, i, p);
        xg_set_push_point(&s, p, (int64_t)i, 0);
    }
    triangulate(ctx, &s, XG_ENGINE_CPU, 16, 0, &first);
    for (k = 0; k < 8 && first.rc == XG_OK; k++) {
        triangulate(ctx, &s, XG_ENGINE_CPU, 16, 0, &r);
        same_list &= r.rc == XG_OK && same(&first.t, &r.t);
        if (memcmp(&first.st.cnt, &r.st.cnt, sizeof r.st.cnt) && same_work) {
            printf("# run %d: %llu predicates against %llu\n", k + 2,
                   (unsigned long long)r.st.cnt.predicates,
                   (unsigned long long)first.st.cnt.predicates);
            same_work = 0;
        }
        xg_triangles_free(&r.t);
    }
    ok(first.rc == XG_OK && same_list && same_work,
       "10^5 uniform points, cpu engine on 16 threads, 9 runs: the same "
       "list and the same counters (%llu predicates, %llu filter failures)",
       (unsigned long long)first.st.cnt.predicates,
       (unsigned long long)first.st.cnt.filter_failures);
    xg_triangles_free(&first.t);
    xg_set_free(&s);
}

int main(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    static const double off[3][2] = {{0, 0}, {500000.25, 7000000.5},
                                     {-3.0e-3, 1.0e-4}};
    int o, i;
    rng_seed_from_env(14);
    check_bounds();

    /* the tie rule's derivatives against exact finite differences */
    {
        size_t bad = 0, n = 0;
        for (i = 0; i < 20000; i++) {
            double P[4][2];
            const double *p[4], *q[3];
            mpq_t z[4], t;
            int k, s0;
            for (k = 0; k < 4; k++) {
                P[k][0] = rng_int(7) - 3;
                P[k][1] = rng_int(7) - 3;
                p[k] = P[k];
            }
            mpq_init(t);
            for (k = 0; k < 4; k++) {
                mpq_init(z[k]);
                mpq_set_si(z[k], (long)(P[k][0] * P[k][0] + P[k][1] * P[k][1]),
                           1);
            }
            s0 = lifted_sign(p, z);
            for (k = 0; k < 4; k++) {
                int sg = xg__tie_term(p, k, q), d;
                mpq_set_ui(t, 1, 1);
                mpq_add(z[k], z[k], t);
                d = lifted_sign(p, z);   /* det + derivative */
                mpq_sub(z[k], z[k], t);
                if (s0 == 0) {
                    n++;
                    bad += d != sg * xg_orient2d(NULL, q[0], q[1], q[2]);
                }
            }
            for (k = 0; k < 4; k++)
                mpq_clear(z[k]);
            mpq_clear(t);
        }
        ok(n > 1000 && bad == 0, "tie rule: each height's derivative is the "
           "signed orient2d of the other three (%zu zero cases, %zu wrong)",
           n, bad);
    }

    for (o = 0; o < 3; o++) {
        char name[96];
        double ox = off[o][0], oy = off[o][1];
        const char *at = o == 0 ? "unit" : o == 1 ? "UTM" : "near 0";
        /* random sets */
        {
            static const int sizes[] = {3, 4, 5, 17, 100, 200, 5000};
            for (i = 0; i < 7; i++) {
                struct xg_set s = {0};
                dt_random(&s, sizes[i], ox, oy);
                snprintf(name, sizeof name, "%d random points at %s",
                         sizes[i], at);
                check_set(ctx, &s, name, sizes[i] <= 200, 0);
                xg_set_free(&s);
            }
        }
        /* a square lattice: every cell's four corners cocircular */
        {
            struct xg_set s = {0};
            int m = 16;
            dt_lattice(&s, m, ox, oy);
            snprintf(name, sizeof name, "%dx%d square lattice at %s", m, m, at);
            check_set(ctx, &s, name, 1, (size_t)2 * (m - 1) * (m - 1));
            xg_set_free(&s);
        }
        /* a rotated lattice (3-4-5), as in delaunator #61 */
        {
            struct xg_set s = {0};
            int m = 14;
            dt_rotated(&s, m, ox, oy);
            snprintf(name, sizeof name, "rotated %dx%d lattice at %s", m, m,
                     at);
            /* near 0 the offsets round the lattice off its lines */
            check_set(ctx, &s, name, 1,
                      o == 2 ? 0 : (size_t)2 * (m - 1) * (m - 1));
            xg_set_free(&s);
        }
        /* the integer points of one circle, x^2 + y^2 = 5^2 13^2 17^2,
         * and its centre */
        {
            struct xg_set s = {0};
            int nc = dt_circle_ints(&s, ox, oy);
            snprintf(name, sizeof name, "%d cocircular points at %s", nc, at);
            check_set(ctx, &s, name, 1, (size_t)nc - 2);
            dt_push(&s, ox, oy, 0, nc);
            snprintf(name, sizeof name, "%d cocircular points and the centre "
                     "at %s", nc, at);
            check_set(ctx, &s, name, 1, (size_t)nc);
            xg_set_free(&s);
        }
        /* collinear points along the hull and through the middle */
        {
            struct xg_set s = {0};
            int k = 0;
            for (i = 0; i <= 20; i++) {
                dt_push(&s, ox + i, oy, 0, k++);
                dt_push(&s, ox + i, oy + 20, 0, k++);
                dt_push(&s, ox + i, oy + 10, 0, k++);
                if (i > 0 && i < 20) {
                    dt_push(&s, ox, oy + i, 0, k++);
                    dt_push(&s, ox + 20, oy + i, 0, k++);
                }
            }
            snprintf(name, sizeof name, "collinear hull points at %s", at);
            check_set(ctx, &s, name, 1, 0);
            xg_set_free(&s);
        }
        /* duplicates (lowest fid kept, z compared) and 1-ulp neighbours */
        {
            struct xg_set s = {0};
            struct run r;
            size_t k;
            int kept_low = 1;
            for (i = 0; i < 200; i++) {
                double x = ox + rng_int(12), y = oy + rng_int(12);
                dt_push(&s, x, y, i % 3 == 0 ? 1.0 : 0.0, 1000 - i);
                if (i % 5 == 0)
                    dt_push(&s, nextafter(x, 1e300), y, 0, 5000 + i);
            }
            snprintf(name, sizeof name, "duplicates and 1-ulp neighbours "
                     "at %s", at);
            check_set(ctx, &s, name, 1, 0);
            triangulate(ctx, &s, XG_ENGINE_SEQ, 1, 0, &r);
            /* every vertex is its (x, y)'s lowest fid */
            for (k = 0; k < r.t.n * 3 && r.rc == XG_OK; k++) {
                uint32_t v = r.t.v[k / 3][k % 3];
                size_t q;
                for (q = 0; q < s.n; q++)
                    if (s.xyz[3 * q] == s.xyz[3 * v] &&
                        s.xyz[3 * q + 1] == s.xyz[3 * v + 1] &&
                        s.fid[q] < s.fid[v])
                        kept_low = 0;
            }
            ok(r.rc == XG_OK && kept_low && r.st.a_skipped > 0 &&
               r.st.z_differ > 0 && r.st.z_differ < r.st.a_skipped,
               "%s: each vertex is the lowest fid of its (x, y); %llu "
               "merged, %llu with another z", name,
               (unsigned long long)r.st.a_skipped,
               (unsigned long long)r.st.z_differ);
            xg_triangles_free(&r.t);
            xg_set_free(&s);
        }
        /* refused: all collinear, too few distinct points */
        {
            struct xg_set s = {0};
            struct run r;
            /* on a slope where the offset keeps the sums exact, else flat */
            for (i = 0; i < 50; i++)
                dt_push(&s, ox + i * 0.5, o == 2 ? oy : oy + i * 0.25, 0, i);
            triangulate(ctx, &s, XG_ENGINE_SEQ, 1, 0, &r);
            ok(r.rc == XG_EDEGENERATE && r.t.n == 0, "collinear at %s: "
               "seq refuses (%s)", at, xg_ctx_errmsg(ctx));
            triangulate(ctx, &s, XG_ENGINE_CPU, 2, 3, &r);
            ok(r.rc == XG_EDEGENERATE && r.t.n == 0, "collinear at %s: cpu "
               "refuses", at);
            xg_set_free(&s);
            dt_push(&s, ox, oy, 0, 0);
            dt_push(&s, ox, oy, 1, 1);
            dt_push(&s, ox + 1, oy, 0, 2);
            dt_push(&s, ox + 1, oy, 0, 3);
            triangulate(ctx, &s, XG_ENGINE_SEQ, 1, 0, &r);
            ok(r.rc == XG_EDEGENERATE, "two distinct points at %s: refused",
               at);
            xg_set_free(&s);
        }
    }
    /* near convex position: points rounded onto a circle (all on the
     * hull), and a ring of them round a denser inner ring (few on the
     * hull, but every sliver's circle as wide as the set): the cpu engine
     * gives them to one build of the whole set instead of strips that
     * would widen round by round (quadratic); a uniform set of the same
     * size keeps its strips */
    {
        static const char *const what[3] = {"3000 points rounded onto a "
                                             "circle",
                                             "100 points on a circle round "
                                             "3000 on another",
                                             "3100 uniform points"};
        int w;
        for (w = 0; w < 3; w++) {
            struct xg_set s = {0};
            struct run seq, cpu;
            int k, th;
            for (k = 0; k < 3100; k++) {
                /* w 0: the first 3000 on one circle; w 1: the first 100
                 * on a circle of twice the radius of the rest's */
                int outer = w == 1 && k < 100, m = outer ? 100 : 3000;
                double a = 2 * 3.14159265358979323846 * (k % m) / m;
                double r = outer ? 1000 : 500;
                if (w == 2)
                    dt_push(&s, 500000.25 + rng_unit() * 1000,
                            7000000.5 + rng_unit() * 1000, 0, k);
                else if (w == 1 || k < 3000)
                    dt_push(&s, 500000.25 + r * cos(a),
                            7000000.5 + r * sin(a), 0, k);
            }
            check_set(ctx, &s, what[w], 0, 0);
            triangulate(ctx, &s, XG_ENGINE_SEQ, 1, 0, &seq);
            for (th = 1; th <= 3; th += 2) {
                triangulate(ctx, &s, XG_ENGINE_CPU, th, 7, &cpu);
                ok(cpu.rc == XG_OK && same(&seq.t, &cpu.t) &&
                       cpu.st.candidates == (w == 2 ? 7u : 1u),
                   "%s, %d thread(s), 7 strips: %s (%llu builds)", what[w],
                   th, w == 2 ? "seven strips, no more" :
                                "one build of the whole set",
                   (unsigned long long)cpu.st.candidates);
                xg_triangles_free(&cpu.t);
            }
            xg_triangles_free(&seq.t);
            xg_set_free(&s);
        }
    }
    /* GEOS #1286: three points a hair off one vertical line and a fourth
     * beside them, where GEOS returns a sliver that is not Delaunay */
    {
        struct xg_set s = {0};
        dt_push(&s, -1.3890020986020145e-10, 4.860466764224401, 0, 0);
        dt_push(&s, -1.3889120965221466e-10, -5.531838081766228, 0, 1);
        dt_push(&s, -1.388852095135568e-10, -12.460041312426647, 0, 2);
        dt_push(&s, 0.9999999999166641, -3.799787274101123, 0, 3);
        check_set(ctx, &s, "the four points of GEOS #1286", 1, 0);
        xg_set_free(&s);
    }
    /* a point a hair off a hull edge */
    {
        struct xg_set s = {0};
        dt_push(&s, 0, 0, 0, 0);
        dt_push(&s, 1, 0, 0, 1);
        dt_push(&s, 0.5, 1e-16, 0, 2);
        dt_push(&s, 0.5, 0.5, 0, 3);
        check_set(ctx, &s, "four points, one 1e-16 off a hull edge", 1, 3);
        xg_set_free(&s);
    }
    work_repeats(ctx);
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
