/*
 * selfx_t.c -- surfaces that cross themselves (src/selfx.c): the pair
 * test xg__tri_pair_cross and the edge test it stands on,
 * xg__segtri_meets, against an all-rational reference written here from
 * the definition; then the detector (xg__selfx_find, xg_self_crossing)
 * on solids.
 *
 * The reference clips triangle T by the closed half-spaces that make the
 * other triangle U (the two sides of U's plane, then the three slabs
 * through U's edges along its normal), Sutherland-Hodgman in mpq: the
 * polygon left is T n U exactly.  T and U cross when that is not within
 * what they share (nothing, a vertex, an edge; the same face twice
 * always crosses).  src/ decides with orientation signs edge by edge; the
 * two share no method.
 *
 * Cases: random pairs near each other; pairs sharing a vertex (the
 * other two vertices of U random near T, in T's plane, through T's
 * edges), sharing an edge (coplanar folds and non-folds, bent ones),
 * the same face twice (either turn); U's vertex on T's face, edge or
 * vertex, edges through edges, coplanar overlaps and containment; each
 * of these moved by one ulp, at the unit scale and at UTM coordinates
 * (500000.25, 7000000.5), both orders, every rotation and turn of the
 * vertices.  Segments against triangles: random, coplanar on a
 * quarter-step lattice, one ulp off.  Then the detector: two
 * overlapping cubes in one surface, cubes touching at a face, an edge,
 * a vertex without sharing mesh vertices, cubes sharing a vertex or
 * a face of the mesh, the benchmark's solids (bench/gen_inside.h: none),
 * a dented one, and the lowest pair on 1 to 7 threads against every
 * pair tested.
 */
#include <gmp.h>
#include "exactgeo.h"
#include "op/segtri/xg_segtri.h"
#include "xg_selfx.h"
#include "xg_boxes.h"
#include "xg_test.h"
#include "gen_inside.h"

/* ---- the reference ---- */

#define MAXV 16

/* A convex polygon of the reference: up to MAXV rational points. */
struct poly {
    int n;
    mpq_t v[MAXV][3];
};

static mpq_t tq, tq2;

static void poly_init(struct poly *p)
{
    int i, k;
    p->n = 0;
    for (i = 0; i < MAXV; i++)
        for (k = 0; k < 3; k++)
            mpq_init(p->v[i][k]);
}

static void poly_clear(struct poly *p)
{
    int i, k;
    for (i = 0; i < MAXV; i++)
        for (k = 0; k < 3; k++)
            mpq_clear(p->v[i][k]);
}

static void set_d3(mpq_t *r, const double *x)
{
    int k;
    for (k = 0; k < 3; k++)
        mpq_set_d(r[k], x[k]);
}

/* An affine function f(x) = w . x + c of the reference's half-spaces. */
struct half {
    mpq_t w[3], c;
};

static void half_init(struct half *h)
{
    mpq_inits(h->w[0], h->w[1], h->w[2], h->c, NULL);
}

static void half_clear(struct half *h)
{
    mpq_clears(h->w[0], h->w[1], h->w[2], h->c, NULL);
}

static void half_eval(mpq_t r, const struct half *h, mpq_t *x)
{
    int k;
    mpq_set(r, h->c);
    for (k = 0; k < 3; k++) {
        mpq_mul(tq, h->w[k], x[k]);
        mpq_add(r, r, tq);
    }
}

/* p clipped to f >= 0 (closed), into q. */
static void clip(const struct poly *p, const struct half *h, struct poly *q)
{
    mpq_t fa, fb, t;
    int i, k;
    mpq_inits(fa, fb, t, NULL);
    q->n = 0;
    for (i = 0; i < p->n; i++) {
        mpq_t *a = (mpq_t *)p->v[i], *b = (mpq_t *)p->v[(i + 1) % p->n];
        half_eval(fa, h, a);
        half_eval(fb, h, b);
        if (mpq_sgn(fa) >= 0 && q->n < MAXV) {
            for (k = 0; k < 3; k++)
                mpq_set(q->v[q->n][k], a[k]);
            q->n++;
        }
        if (mpq_sgn(fa) * mpq_sgn(fb) < 0 && q->n < MAXV) {
            /* a + fa / (fa - fb) (b - a) */
            mpq_sub(t, fa, fb);
            mpq_div(t, fa, t);
            for (k = 0; k < 3; k++) {
                mpq_sub(tq, b[k], a[k]);
                mpq_mul(tq, tq, t);
                mpq_add(q->v[q->n][k], a[k], tq);
            }
            q->n++;
        }
    }
    mpq_clears(fa, fb, t, NULL);
}

static void vsub(mpq_t *r, mpq_t *a, mpq_t *b)
{
    int k;
    for (k = 0; k < 3; k++)
        mpq_sub(r[k], a[k], b[k]);
}

static void vcross(mpq_t *r, mpq_t *a, mpq_t *b)
{
    int k;
    for (k = 0; k < 3; k++) {
        mpq_mul(tq, a[(k + 1) % 3], b[(k + 2) % 3]);
        mpq_mul(tq2, a[(k + 2) % 3], b[(k + 1) % 3]);
        mpq_sub(r[k], tq, tq2);
    }
}

static void vdot(mpq_t r, mpq_t *a, mpq_t *b)
{
    int k;
    mpq_set_ui(r, 0, 1);
    for (k = 0; k < 3; k++) {
        mpq_mul(tq, a[k], b[k]);
        mpq_add(r, r, tq);
    }
}

/* h: f(x) = s (w . (x - o)). */
static void half_set(struct half *h, mpq_t *w, mpq_t *o, int s)
{
    int k;
    vdot(h->c, w, o);
    mpq_neg(h->c, h->c);
    for (k = 0; k < 3; k++)
        mpq_set(h->w[k], w[k]);
    if (s < 0) {
        mpq_neg(h->c, h->c);
        for (k = 0; k < 3; k++)
            mpq_neg(h->w[k], h->w[k]);
    }
}

/* p (n points of the figure) clipped to the closed triangle u
 * (non-collinear), into out. */
static void clip_tri(struct poly *p, const double *u, struct poly *out)
{
    mpq_t U[3][3], e[3], f[3], nrm[3], m[3];
    struct half h;
    struct poly tmp;
    int i, k;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            mpq_init(U[i][k]);
    for (k = 0; k < 3; k++)
        mpq_inits(e[k], f[k], nrm[k], m[k], NULL);
    half_init(&h);
    poly_init(&tmp);
    for (i = 0; i < 3; i++)
        set_d3(U[i], u + 3 * i);
    vsub(e, U[1], U[0]);
    vsub(f, U[2], U[0]);
    vcross(nrm, e, f);
    /* the plane: both sides, closed */
    half_set(&h, nrm, U[0], 1);
    clip(p, &h, &tmp);
    half_set(&h, nrm, U[0], -1);
    clip(&tmp, &h, out);
    /* the three slabs: n x edge points into the triangle */
    for (i = 0; i < 3; i++) {
        vsub(e, U[(i + 1) % 3], U[i]);
        vcross(m, nrm, e);
        half_set(&h, m, U[i], 1);
        clip(out, &h, &tmp);
        out->n = tmp.n;
        for (k = 0; k < tmp.n; k++) {
            mpq_set(out->v[k][0], tmp.v[k][0]);
            mpq_set(out->v[k][1], tmp.v[k][1]);
            mpq_set(out->v[k][2], tmp.v[k][2]);
        }
    }
    poly_clear(&tmp);
    half_clear(&h);
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            mpq_clear(U[i][k]);
    for (k = 0; k < 3; k++)
        mpq_clears(e[k], f[k], nrm[k], m[k], NULL);
}

static int same_d3(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Non-zero when rational point x lies on the closed segment ab. */
static int on_segment(mpq_t *x, const double *a, const double *b)
{
    mpq_t A[3], B[3], d[3], w[3], c[3], t, l;
    int k, r;
    for (k = 0; k < 3; k++)
        mpq_inits(A[k], B[k], d[k], w[k], c[k], NULL);
    mpq_inits(t, l, NULL);
    set_d3(A, a);
    set_d3(B, b);
    vsub(d, B, A);
    vsub(w, x, A);
    vcross(c, d, w);
    r = !mpq_sgn(c[0]) && !mpq_sgn(c[1]) && !mpq_sgn(c[2]);
    vdot(t, w, d);
    vdot(l, d, d);
    r = r && mpq_sgn(t) >= 0 && mpq_cmp(t, l) <= 0;
    for (k = 0; k < 3; k++)
        mpq_clears(A[k], B[k], d[k], w[k], c[k], NULL);
    mpq_clears(t, l, NULL);
    return r;
}

/* The reference's answer for triangles t and u. */
static int ref_cross(const double *t, const double *u)
{
    struct poly p, q;
    int i, j, shared = 0, st[3] = {-1, -1, -1}, r = 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (same_d3(t + 3 * i, u + 3 * j))
                st[shared++] = i;
    if (shared == 3)
        return 1;
    poly_init(&p);
    poly_init(&q);
    p.n = 3;
    for (i = 0; i < 3; i++)
        set_d3(p.v[i], t + 3 * i);
    clip_tri(&p, u, &q);
    for (i = 0; i < q.n && !r; i++) {
        mpq_t *x = (mpq_t *)q.v[i];
        if (shared == 0) {
            r = 1;
        } else if (shared == 1) {
            mpq_t V[3];
            for (j = 0; j < 3; j++)
                mpq_init(V[j]);
            set_d3(V, t + 3 * st[0]);
            r = !mpq_equal(x[0], V[0]) || !mpq_equal(x[1], V[1]) ||
                !mpq_equal(x[2], V[2]);
            for (j = 0; j < 3; j++)
                mpq_clear(V[j]);
        } else {
            r = !on_segment(x, t + 3 * st[0], t + 3 * st[1]);
        }
    }
    poly_clear(&p);
    poly_clear(&q);
    return r;
}

/* The reference for a closed segment against a closed triangle. */
static int ref_seg_meets(const double *seg, const double *u)
{
    struct poly p, q;
    int r;
    poly_init(&p);
    poly_init(&q);
    p.n = 2;
    set_d3(p.v[0], seg);
    set_d3(p.v[1], seg + 3);
    clip_tri(&p, u, &q);
    r = q.n > 0;
    poly_clear(&p);
    poly_clear(&q);
    return r;
}

/* ---- the cases ---- */

static struct tally t_pair, t_seg;
static struct xg_counters C;    /* the predicates' counts: not checked */

/* t with its vertices rotated by r and turned when flip. */
static void perm(const double *t, int r, int flip, double *out)
{
    int i;
    for (i = 0; i < 3; i++) {
        int k = (i + r) % 3;
        if (flip)
            k = (3 - i + r) % 3;
        memcpy(out + 3 * i, t + 3 * k, 3 * sizeof *out);
    }
}

static int flat(const double *t)
{
    return xg__tri_is_degenerate(NULL, t);
}

/* One pair against the reference, both ways, every rotation and turn
 * (a few of them for random pairs, where a failure would show anyway). */
static void pair_case(const double *t, const double *u, const char *what)
{
    double a[9], b[9];
    int want, r;
    if (flat(t) || flat(u))
        return;
    want = ref_cross(t, u);
    for (r = 0; r < 12; r++) {
        perm(t, r % 3, r / 3 & 1, a);
        perm(u, r / 6, r % 2, b);
        CHECK(&t_pair, xg__tri_pair_cross(&C, a, b) == want,
              "%s: got %d, want %d (rotation %d)", what, !want, want, r);
        CHECK(&t_pair, xg__tri_pair_cross(&C, b, a) == want,
              "%s (swapped): got %d, want %d (rotation %d)", what, !want,
              want, r);
    }
}

static void seg_case(const double *seg, const double *u, const char *what)
{
    double s[6];
    int want;
    if (flat(u) || same_d3(seg, seg + 3))
        return;
    want = ref_seg_meets(seg, u);
    CHECK(&t_seg, xg__segtri_meets(&C, seg, u) == want,
          "%s: got %d, want %d", what, !want, want);
    memcpy(s, seg + 3, 3 * sizeof *s);
    memcpy(s + 3, seg, 3 * sizeof *s);
    CHECK(&t_seg, xg__segtri_meets(&C, s, u) == want,
          "%s reversed: got %d, want %d", what, !want, want);
}

/* A point near o: a few quanta q off on each axis. */
static void near_point(const double *o, double q, double *p)
{
    int k;
    for (k = 0; k < 3; k++)
        p[k] = o[k] + (double)(rng_int(17) - 8) * q;
}

/* p = a + (w1 (b - a) + w2 (c - a)) / 4, exact for the small weights
 * and the quarter quanta used here. */
static void combo(const double *a, const double *b, const double *c, int w1,
                  int w2, double *p)
{
    int k;
    for (k = 0; k < 3; k++)
        p[k] = a[k] + ((double)w1 * (b[k] - a[k]) +
                       (double)w2 * (c[k] - a[k])) / 4.0;
}

/* One ulp off, on a random coordinate. */
static void nudge(double *p)
{
    int k = rng_int(3);
    p[k] = ulps(p[k], rng_u64() & 1 ? 1 : -1);
}

static void pairs_at(const double *o, double q, const char *scale)
{
    double t[9], u[9], seg[6], v[3];
    char what[96];
    int i, k, n;
    for (n = 0; n < 300; n++) {
        /* random pairs near each other */
        for (i = 0; i < 3; i++) {
            near_point(o, q, t + 3 * i);
            near_point(o, q, u + 3 * i);
        }
        snprintf(what, sizeof what, "%s random", scale);
        pair_case(t, u, what);
        /* sharing a vertex: u's others anywhere near, in t's plane, on
         * t's edges or face */
        memcpy(u, t, 3 * sizeof *u);
        near_point(o, q, u + 3);
        near_point(o, q, u + 6);
        snprintf(what, sizeof what, "%s shared vertex", scale);
        pair_case(t, u, what);
        combo(t, t + 3, t + 6, rng_int(5), rng_int(5), u + 3);
        combo(t, t + 3, t + 6, rng_int(9) - 4, rng_int(9) - 4, u + 6);
        snprintf(what, sizeof what, "%s shared vertex, coplanar", scale);
        pair_case(t, u, what);
        nudge(u + 3 + 3 * rng_int(2));
        snprintf(what, sizeof what, "%s shared vertex, 1 ulp", scale);
        pair_case(t, u, what);
        combo(t, t + 3, t + 6, 2, 2, u + 3);  /* on edge BC */
        near_point(o, q, u + 6);
        snprintf(what, sizeof what, "%s shared vertex, other's edge", scale);
        pair_case(t, u, what);
        /* sharing an edge: third vertex in the plane on either side,
         * or off it, or one ulp off it */
        memcpy(u, t, 6 * sizeof *u);
        combo(t, t + 3, t + 6, rng_int(9) - 4, rng_int(9) - 4, u + 6);
        snprintf(what, sizeof what, "%s shared edge, coplanar", scale);
        pair_case(t, u, what);
        nudge(u + 6);
        snprintf(what, sizeof what, "%s shared edge, 1 ulp", scale);
        pair_case(t, u, what);
        near_point(o, q, u + 6);
        snprintf(what, sizeof what, "%s shared edge, bent", scale);
        pair_case(t, u, what);
        /* the same face twice, either turn */
        perm(t, rng_int(3), rng_int(2), u);
        snprintf(what, sizeof what, "%s same face", scale);
        pair_case(t, u, what);
        /* u's vertex on t's face, edge or vertex, the rest random */
        combo(t, t + 3, t + 6, 1 + rng_int(2), 1, u);
        near_point(o, q, u + 3);
        near_point(o, q, u + 6);
        snprintf(what, sizeof what, "%s vertex on face", scale);
        pair_case(t, u, what);
        nudge(u);
        snprintf(what, sizeof what, "%s vertex 1 ulp off face", scale);
        pair_case(t, u, what);
        combo(t, t + 3, t + 6, 2, 0, u);
        snprintf(what, sizeof what, "%s vertex on edge", scale);
        pair_case(t, u, what);
        /* an edge of u through an edge of t: u's edge from one side of
         * t's edge midpoint to the other, out of t's plane */
        combo(t, t + 3, t + 6, 2, 0, v);
        for (k = 0; k < 3; k++) {
            double d = (double)(rng_int(9) - 4) * q;
            u[k] = v[k] + d;
            u[3 + k] = v[k] - d;
        }
        near_point(o, q, u + 6);
        snprintf(what, sizeof what, "%s edge through edge", scale);
        pair_case(t, u, what);
        /* coplanar: u from the quarter lattice of t's plane (overlap,
         * containment, touch, apart) */
        for (i = 0; i < 3; i++)
            combo(t, t + 3, t + 6, rng_int(13) - 4, rng_int(13) - 4,
                  u + 3 * i);
        snprintf(what, sizeof what, "%s coplanar", scale);
        pair_case(t, u, what);
        nudge(u + 3 * rng_int(3));
        snprintf(what, sizeof what, "%s coplanar, 1 ulp", scale);
        pair_case(t, u, what);
        /* segments: random, coplanar on the lattice, one ulp off */
        near_point(o, q, seg);
        near_point(o, q, seg + 3);
        snprintf(what, sizeof what, "%s segment random", scale);
        seg_case(seg, t, what);
        combo(t, t + 3, t + 6, rng_int(13) - 4, rng_int(13) - 4, seg);
        combo(t, t + 3, t + 6, rng_int(13) - 4, rng_int(13) - 4,
              seg + 3);
        snprintf(what, sizeof what, "%s segment coplanar", scale);
        seg_case(seg, t, what);
        nudge(seg + 3 * rng_int(2));
        snprintf(what, sizeof what, "%s segment coplanar, 1 ulp", scale);
        seg_case(seg, t, what);
    }
}

/* ---- the detector ---- */

struct mesh {
    double *tri;
    size_t n, cap;
};

static void add_tri(struct mesh *m, const double *a, const double *b,
                    const double *c)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->tri = realloc(m->tri, m->cap * 9 * sizeof *m->tri);
        if (!m->tri)
            exit(2);
    }
    memcpy(m->tri + 9 * m->n, a, 3 * sizeof *a);
    memcpy(m->tri + 9 * m->n + 3, b, 3 * sizeof *b);
    memcpy(m->tri + 9 * m->n + 6, c, 3 * sizeof *c);
    m->n++;
}

/* A box lo .. hi as 12 triangles, each face's square cut along a
 * diagonal; with (X, Y) added. */
static void add_box(struct mesh *m, double X, double Y, const double *lo,
                    const double *hi)
{
    static const int quad[6][4][3] = {
        {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}},
        {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
        {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}},
        {{0, 1, 0}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},
        {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}},
        {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}}};
    int f, v, k;
    for (f = 0; f < 6; f++) {
        double p[4][3];
        for (v = 0; v < 4; v++)
            for (k = 0; k < 3; k++)
                p[v][k] = (quad[f][v][k] ? hi[k] : lo[k]) +
                          (k == 0 ? X : k == 1 ? Y : 0.0);
        add_tri(m, p[0], p[1], p[2]);
        add_tri(m, p[0], p[2], p[3]);
    }
}

/* The lowest crossing pair of m by testing every pair (the predicate
 * alone, no grid), as xg__selfx_find's key; XG_SELFX_NONE when none. */
static uint64_t brute(const struct mesh *m)
{
    size_t i, j;
    for (i = 0; i < m->n; i++)
        for (j = i + 1; j < m->n; j++)
            if (!flat(m->tri + 9 * i) && !flat(m->tri + 9 * j) &&
                xg__tri_pair_cross(&C, m->tri + 9 * i, m->tri + 9 * j))
                return (uint64_t)i << 32 | j;
    return XG_SELFX_NONE;
}

static uint64_t find(const struct mesh *m, int nthreads)
{
    struct xg_counters cnt = {0};
    uint64_t first = 0;
    if (xg__selfx_find(m->tri, NULL, m->n, NULL, 1, 1, NULL, NULL, nthreads, &first,
                       &cnt) !=
        XG_OK)
        return 0;
    return first;
}

/* The second solid of box_cases: a box beside the cube [0,2]^3, or
 * (pyramid) a pyramid whose apex touches its top inside one triangle. */
static const struct {
    double lo[3], hi[3];
    int pyramid, cross;
    const char *what;
} second[] = {
    {{1, 1, 1}, {3, 3, 3}, 0, 1, "two overlapping cubes cross"},
    {{2, 0.5, 0.5}, {3, 1.5, 1.5}, 0, 1,
     "cubes touching at a face (no mesh vertex shared) cross"},
    {{2, 2, 0.5}, {3, 3, 1.5}, 0, 1, "cubes touching along an edge cross"},
    {{0, 0, 0}, {0, 0, 0}, 1, 1,
     "a pyramid's apex on a cube's face (no vertex shared) crosses"},
    {{2, 2, 2}, {4, 4, 4}, 0, 0, "cubes sharing a mesh vertex do not cross"},
    {{2, 0, 0}, {4, 2, 2}, 0, 1,
     "cubes sharing a face of the mesh cross (the same face twice)"},
    {{5, 0, 0}, {6, 1, 1}, 0, 0, "cubes apart do not cross"},
};

static void add_pyramid(struct mesh *m, double X, double Y)
{
    double apex[3] = {X + 1.5, Y + 0.5, 2}, b[4][3];
    int k;
    for (k = 0; k < 4; k++) {
        b[k][0] = X + 1.5 + (k == 0 || k == 3 ? -0.25 : 0.25);
        b[k][1] = Y + 0.5 + (k < 2 ? -0.25 : 0.25);
        b[k][2] = 3;
    }
    for (k = 0; k < 4; k++)
        add_tri(m, apex, b[(k + 1) % 4], b[k]);
    add_tri(m, b[0], b[1], b[2]);
    add_tri(m, b[0], b[2], b[3]);
}

/* The cube [0,2]^3 (moved by X, Y), alone and with each second solid in
 * one surface: the detector on 2 threads against every pair tested, and
 * xg_self_crossing's pair against it. */
static void box_cases(double X, double Y, const char *scale)
{
    static const double c0[3] = {0, 0, 0}, c1[3] = {2, 2, 2};
    struct mesh m = {0};
    size_t k, pair[2];
    uint64_t f;
    int found;

    add_box(&m, X, Y, c0, c1);
    ok(find(&m, 2) == XG_SELFX_NONE && brute(&m) == XG_SELFX_NONE,
       "%s: a cube does not cross itself", scale);
    for (k = 0; k < sizeof second / sizeof second[0]; k++) {
        int rc;
        m.n = 12;
        if (second[k].pyramid)
            add_pyramid(&m, X, Y);
        else
            add_box(&m, X, Y, second[k].lo, second[k].hi);
        f = find(&m, 2);
        pair[0] = pair[1] = 0;
        found = -1;
        rc = xg_self_crossing(NULL, m.tri, m.n, pair, &found);
        ok(rc == XG_OK && (f != XG_SELFX_NONE) == second[k].cross &&
               f == brute(&m) && found == second[k].cross &&
               (!found ||
                (pair[0] == (f >> 32) && pair[1] == (f & UINT32_MAX))),
           "%s: %s (%s pair %zu, %zu, the lowest)", scale, second[k].what,
           found ? "its" : "no", pair[0], pair[1]);
    }
    free(m.tri);
}

/* A box [0,2] x [0,1] x [0,1] whose face y = 0 has k = 1 or 2 vertices
 * inside its bottom edge that the bottom face has not (T-junctions),
 * closed by collinear triangles, as a mesher leaves them: the surface is
 * closed and does not cross itself.  Without the collinear triangles
 * the junction is a vertex on another triangle's edge: a crossing.  With
 * a cube overlapping it, a crossing still. */
static void junction_box(struct mesh *m, int k, int closing)
{
    double A[3] = {0, 0, 0}, B[3] = {2, 0, 0}, C[3] = {2, 0, 1},
           D[3] = {0, 0, 1}, M1[3] = {1, 0, 0}, M2[3] = {1.5, 0, 0};
    double a[3] = {0, 1, 0}, b[3] = {2, 1, 0}, c[3] = {2, 1, 1},
           d[3] = {0, 1, 1};
    if (k == 2)
        M1[0] = 0.5;
    /* the face y = 0, outwards (-y), through the junctions */
    add_tri(m, A, M1, D);
    if (k == 2) {
        add_tri(m, M1, M2, D);
        add_tri(m, M2, C, D);
        add_tri(m, M2, B, C);
    } else {
        add_tri(m, M1, C, D);
        add_tri(m, M1, B, C);
    }
    /* the others, without the junctions */
    add_tri(m, a, d, c), add_tri(m, a, c, b);       /* y = 1 */
    add_tri(m, A, a, b), add_tri(m, A, b, B);       /* z = 0 */
    add_tri(m, D, C, c), add_tri(m, D, c, d);       /* z = 1 */
    add_tri(m, A, D, d), add_tri(m, A, d, a);       /* x = 0 */
    add_tri(m, B, b, c), add_tri(m, B, c, C);       /* x = 2 */
    if (closing && k == 1)
        add_tri(m, A, M1, B);
    if (closing && k == 2) {
        add_tri(m, A, M1, B);
        add_tri(m, M1, M2, B);
    }
}

static void junction_cases(void)
{
    static const double c0[3] = {0.5, 0.5, 0.5}, c1[3] = {1.5, 1.5, 1.5};
    struct mesh m = {0};
    uint64_t open = 1;
    int k;
    for (k = 1; k <= 2; k++) {
        m.n = 0;
        junction_box(&m, k, 1);
        ok(xg_open_edges(m.tri, m.n, &open) == XG_OK && open == 0 &&
               find(&m, 1) == XG_SELFX_NONE && find(&m, 2) == XG_SELFX_NONE,
           "T-junctions (%d on an edge) closed by collinear triangles: "
           "closed, no crossing", k);
        m.n = 0;
        junction_box(&m, k, 0);
        ok(find(&m, 2) != XG_SELFX_NONE && find(&m, 2) == brute(&m),
           "T-junctions (%d) without them: a vertex inside another's edge "
           "crosses", k);
        m.n = 0;
        junction_box(&m, k, 1);
        add_box(&m, 0, 0, c0, c1);
        ok(find(&m, 2) != XG_SELFX_NONE,
           "T-junctions (%d) and an overlapping cube: crosses", k);
    }
    /* a junction given twice (two collinear triangles alike) */
    m.n = 0;
    junction_box(&m, 1, 1);
    {
        double last[9];
        memcpy(last, m.tri + 9 * (m.n - 1), sizeof last);
        add_tri(&m, last, last + 3, last + 6);
    }
    ok(find(&m, 1) == XG_SELFX_NONE,
       "a junction given twice: no crossing");
    free(m.tri);
}

/* Surfaces numbered in runs: pairs of two surfaces are not looked at. */
static void surfaces_case(void)
{
    static const double c0[3] = {0, 0, 0}, c1[3] = {2, 2, 2};
    static const double d0[3] = {1, 1, 1}, d1[3] = {3, 3, 3};
    struct mesh m = {0};
    struct xg_counters cnt = {0};
    uint32_t surf[48];
    uint64_t first[3];
    int i;
    add_box(&m, 0, 0, c0, c1);
    add_box(&m, 0, 0, d0, d1);
    add_box(&m, 10, 0, c0, c1);
    add_box(&m, 10, 0, d0, d1);
    for (i = 0; i < 48; i++)
        surf[i] = i < 12 ? 0 : i < 24 ? 1 : 2;
    ok(xg__selfx_find(m.tri, NULL, m.n, surf, 3, 1, NULL, NULL, 2, first,
                      &cnt) == XG_OK &&
           first[0] == XG_SELFX_NONE && first[1] == XG_SELFX_NONE &&
           first[2] != XG_SELFX_NONE && (first[2] >> 32) >= 24 &&
           (first[2] & UINT32_MAX) >= 24,
       "surfaces: two overlapping cubes as two surfaces do not cross; as "
       "one they do, and their pair is theirs");
    free(m.tri);
}

/* The benchmark's solids (bench/gen_inside.h): none crosses itself,
 * each as a surface of its own (several touch or overlap others); one
 * with a vertex pushed through the far side does. */
static void bench_solids(void)
{
    struct gi_model gm;
    struct xg_counters cnt = {0};
    uint32_t *surf;
    uint64_t *first;
    size_t i, bad = 0;
    struct mesh m = {0};
    if (gi_model_make(&gm, 8, 20000, 7) != 0)
        exit(2);
    surf = malloc(gm.ntri * sizeof *surf);
    first = malloc(gm.nsolid * sizeof *first);
    for (i = 0; i < gm.ntri; i++)
        surf[i] = (uint32_t)(gm.fid[i] - 1);
    ok(xg__selfx_find(gm.tri, NULL, gm.ntri, surf, gm.nsolid, 1, NULL, NULL,
                      2, first, &cnt) == XG_OK,
       "benchmark solids: checked (%zu triangles, %zu solids)", gm.ntri,
       gm.nsolid);
    for (i = 0; i < gm.nsolid; i++)
        bad += first[i] != XG_SELFX_NONE;
    ok(bad == 0, "benchmark solids: none crosses itself (%zu do)", bad);
    /* the first solid, one vertex (that of its first triangle) moved
     * through to the far side: every triangle using it moves too */
    {
        size_t n = 0, k;
        double v[3], w[3];
        for (i = 0; i < gm.ntri && gm.fid[i] == 1; i++)
            n++;
        memcpy(v, gm.tri, sizeof v);
        for (k = 0; k < 3; k++)
            w[k] = v[k] + 1.6 * (gm.tri[9 * (n / 2) + k] - v[k]);
        for (i = 0; i < n; i++) {
            for (k = 0; k < 3; k++)
                if (same_d3(gm.tri + 9 * i + 3 * k, v))
                    memcpy(gm.tri + 9 * i + 3 * k, w, sizeof w);
            add_tri(&m, gm.tri + 9 * i, gm.tri + 9 * i + 3,
                    gm.tri + 9 * i + 6);
        }
        ok(find(&m, 2) != XG_SELFX_NONE && find(&m, 2) == find(&m, 1),
           "benchmark solid with a vertex pushed through: crosses");
    }
    free(m.tri);
    free(surf);
    free(first);
    gi_model_free(&gm);
}

/* Many crossings (two spheres of the benchmark's kind overlapping, as one
 * surface): the lowest pair, on 1 to 7 threads and again, is every
 * pair's lowest. */
static void threads_case(void)
{
    struct gi_model gm;
    struct mesh m = {0};
    size_t i;
    uint64_t want, got[8];
    int t, same = 1;
    if (gi_model_make(&gm, 4, 6000, 3) != 0)
        exit(2);
    /* solids 1 (outer) and 4 (beside it, overlapping or not), and 2
     * (nested in 1: apart from it) as one surface, pushed together */
    for (i = 0; i < gm.ntri; i++) {
        double t9[9];
        int k;
        memcpy(t9, gm.tri + 9 * i, sizeof t9);
        if (gm.fid[i] == 3)
            continue;
        if (gm.fid[i] == 4)
            for (k = 0; k < 3; k++)
                t9[3 * k + 1] -= 150.0;
        add_tri(&m, t9, t9 + 3, t9 + 6);
    }
    want = brute(&m);
    for (t = 1; t <= 7; t++) {
        got[t] = find(&m, t);
        same &= got[t] == want;
    }
    same &= find(&m, 7) == want && find(&m, 3) == want;
    {
        /* on boxes the caller made (inside's: its columns' boxes) */
        double *box = malloc(m.n * 6 * sizeof *box);
        struct xg_counters cnt = {0};
        uint64_t f = 0;
        for (i = 0; i < m.n; i++)
            xg__tri_box(m.tri + 9 * i, box + 6 * i);
        same &= xg__selfx_find(m.tri, box, m.n, NULL, 1, 0, NULL, NULL, 2,
                               &f, &cnt) == XG_OK &&
                f == want;
        free(box);
    }
    ok(want != XG_SELFX_NONE && same,
       "overlapping solids as one surface (%zu triangles): the lowest pair "
       "(%llu, %llu) on 1..7 threads and on given boxes, as every pair's",
       m.n,
       (unsigned long long)(want >> 32),
       (unsigned long long)(want & UINT32_MAX));
    free(m.tri);
    gi_model_free(&gm);
}

int main(void)
{
    static const double unit[3] = {0.0, 0.0, 0.0};
    static const double utm[3] = {500000.25, 7000000.5, 350.75};
    rng_seed_from_env(31);
    (void)gi_point;             /* gen_inside.h's points: not needed here */
    mpq_inits(tq, tq2, NULL);
    t_pair.what = "triangle pairs against the reference";
    t_seg.what = "segments against triangles, against the reference";
    pairs_at(unit, 0.125, "unit");
    pairs_at(utm, 0.25, "UTM");
    tally_ok(&t_pair);
    tally_ok(&t_seg);
    box_cases(0.0, 0.0, "unit");
    box_cases(500000.25, 7000000.5, "UTM");
    surfaces_case();
    junction_cases();
    bench_solids();
    threads_case();
    mpq_clears(tq, tq2, NULL);
    tap_done();
    return tap_failed ? 1 : 0;
}
