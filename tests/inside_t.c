/*
 * inside_t.c -- xg_inside, xg_inside_point and xg_open_edges against the
 * all-rational reference of inside_ref.h (its own ray, in a random
 * direction checked to miss every edge and vertex; nothing shared with
 * src/inside*.c) and against kinds stated by hand:
 *
 *   - hand-built solids at UTM magnitudes and near 0: points on a vertex,
 *     an edge, a face, a face's centroid, 1 ulp inside and outside
 *     axis-aligned and tilted faces, vertical rays through vertices,
 *     along edges' shadows, through shared edges and along vertical
 *     walls; nested, touching and overlapping solids; an L-shaped solid
 *     with a collinear triangle closing a T-junction; solids whose
 *     triangles are interleaved in B; open surfaces refused;
 *   - random convex hulls and star-shaped spheres on a dyadic lattice,
 *     with points on their vertices, edges and faces, 1 ulp off them,
 *     below them, and anywhere in the box;
 *   - every engine (seq; cpu on 1, 2, 4 threads; several column grids;
 *     outside records on and off) equal to the reference, the threaded
 *     runs 20 times over;
 *   - the GPU engine's host part (xg__inside_finish) on the hits its
 *     kernel's functions make on the CPU, with more of them deferred,
 *     on 1 and 3 threads and in batches, equal to the reference;
 *   - the ray filter xg_ray_tri_fast never contradicting the exact stage;
 *   - bad input: wrong set kinds, non-finite coordinates, empty sets,
 *     cancellation.
 */
#include <string.h>
#include <time.h>
#include "exactgeo.h"
#include "inside_ref.h"

#define PI 3.14159265358979323846
#include "op/inside/xg_inside.h"
#include "xg_gpuhost.h"
#include "xg_test.h"
#include "op/segtri/xg_segtri.h"

static struct xg_ctx *ctx;

/* ---- the solids of B as the contract groups them ---- */

#define MAXSOLID 8

struct solids {
    size_t n;
    int64_t fid[MAXSOLID];
    uint32_t first[MAXSOLID];     /* the records' b */
    double *tri[MAXSOLID];        /* the solid's triangles, in B's order */
    size_t ntri[MAXSOLID];
};

static void solids_of(const struct xg_set *b, struct solids *S)
{
    size_t i, s;
    memset(S, 0, sizeof *S);
    for (i = 0; i < b->n; i++) {
        for (s = 0; s < S->n && S->fid[s] != b->fid[i]; s++)
            ;
        if (s == S->n) {
            if (S->n == MAXSOLID)
                abort();
            S->fid[s] = b->fid[i];
            S->first[s] = (uint32_t)i;
            S->tri[s] = malloc(9 * b->n * sizeof(double));
            S->n++;
        }
        memcpy(S->tri[s] + 9 * S->ntri[s], b->xyz + 9 * i, 9 * sizeof(double));
        S->ntri[s]++;
    }
}

static void solids_free(struct solids *S)
{
    size_t s;
    for (s = 0; s < S->n; s++)
        free(S->tri[s]);
}

/* The records the contract asks for, from kinds[i * S->n + s]. */
static void records_of(const struct xg_set *a, const struct solids *S,
                       const int *kinds, int outside, struct xg_contacts *w)
{
    size_t i, s;
    memset(w, 0, sizeof *w);
    for (i = 0; i < a->n; i++) {
        int any = 0;
        for (s = 0; s < S->n; s++) {
            int k = kinds[i * S->n + s];
            if (k != XG_KIND_OUTSIDE) {
                any = 1;
                xg__inside_record(w, (uint32_t)i, a->xyz + 3 * i,
                                  S->first[s], k);
            }
        }
        if (!any && outside)
            xg__inside_record(w, (uint32_t)i, a->xyz + 3 * i, UINT32_MAX,
                              XG_KIND_OUTSIDE);
    }
}

/* ---- the engines ---- */

struct config {
    int engine, threads, gx, gy;
};

static const struct config configs[] = {
    {XG_ENGINE_SEQ, 1, 0, 0},  {XG_ENGINE_CPU, 1, 0, 0},
    {XG_ENGINE_CPU, 2, 0, 0},  {XG_ENGINE_CPU, 4, 0, 0},
    {XG_ENGINE_CPU, 1, 1, 1},  {XG_ENGINE_CPU, 2, 3, 2},
    {XG_ENGINE_CPU, 4, 17, 13}, {XG_ENGINE_CPU, 2, 64, 1},
    {XG_ENGINE_CPU, 1, 1, 50},
};
#define NCONFIG (sizeof configs / sizeof configs[0])

static int run_config(const struct config *c, const struct xg_set *a,
                      const struct xg_set *b, int outside,
                      struct xg_contacts *out, struct xg_stats *st)
{
    struct xg_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.engine = c->engine;
    opt.grid[0] = c->gx;
    opt.grid[1] = c->gy;
    opt.outside = outside;
    xg_ctx_set_threads(ctx, c->threads);
    return xg_inside(ctx, a, b, &opt, out, st);
}

static void print_diff(const struct xg_contacts *w, const struct xg_contacts *g,
                       const struct xg_set *a, size_t at)
{
    if (at < w->n)
        printf("#   want a %u b %u %s", w->v[at].a, w->v[at].b,
               xg_kind_name(w->v[at].kind, 3));
    else
        printf("#   want nothing");
    if (at < g->n)
        printf(", got a %u b %u %s", g->v[at].a, g->v[at].b,
               xg_kind_name(g->v[at].kind, 3));
    else
        printf(", got nothing");
    if (at < w->n || at < g->n) {
        uint32_t i = at < w->n ? w->v[at].a : g->v[at].a;
        printf(" (point %.17g %.17g %.17g)", a->xyz[3 * i],
               a->xyz[3 * i + 1], a->xyz[3 * i + 2]);
    }
    printf("\n");
}

/* Non-zero when st's counts of each kind are those of the records. */
static int counts_match(const struct xg_stats *st, const struct xg_contacts *c)
{
    uint64_t k[XG_KIND_COUNT] = {0};
    size_t i;
    int j;
    for (i = 0; i < c->n; i++)
        k[c->v[i].kind]++;
    for (j = 0; j < XG_KIND_COUNT; j++)
        if (k[j] != st->contacts[j])
            return 0;
    return 1;
}

/* ---- the GPU engine's host part (xg__inside_finish), on the CPU ---- */

/* The hits the GPU kernel (k_inside, cuda/op/inside/inside_kernels.cu) makes for
 * points a0 .. a1-1, made here with the same functions: per run of the
 * point's column that the walk starts, a hit where the filter doubts
 * (deferred) or the point is in the solid.  With more, every started run
 * of an odd point gives a deferred hit, which the host must decide like
 * any other, outside included.  *ndeferred: the deferred hits, as the
 * device counts them. */
static uint64_t *device_hits(const struct xg__solids *S,
                             const struct xg_set *a, size_t a0, size_t a1,
                             int more, uint64_t *nhit, uint64_t *ndeferred)
{
    const struct xg_grid *g = &S->g;
    uint64_t *h = NULL;
    size_t n = 0, cap = 0, i;
    *ndeferred = 0;
    for (i = a0; i < a1; i++) {
        const double *p = a->xyz + 3 * i;
        int64_t c = S->ntri ? xg__inside_column(g->n, g->lo, g->hi, g->inv, p)
                            : -1;
        uint32_t k;
        if (c < 0)
            continue;
        for (k = S->run_start[c]; k < S->run_start[c + 1]; k++) {
            struct xg__run R = S->run[k];
            struct xg__walk w;
            unsigned boxed = 0;
            int doubt, kind;
            if (!xg__walk_start(p, &R, &w))
                continue;
            doubt = xg__walk_on(p, g->b_items, S->top, S->tri, g->b_box,
                                S->turn, &w, &boxed) == XG_RAY_DEFER;
            doubt |= more && (i & 1);
            kind = xg__walk_kind(&w);
            if (!doubt && kind == XG_KIND_OUTSIDE)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                h = realloc(h, cap * sizeof *h);
            }
            h[n++] = xg__inside_key((uint32_t)i, R.solid, kind, doubt);
            *ndeferred += (uint64_t)doubt;
        }
    }
    *nhit = n;
    return h;
}

/* The GPU hits' keys (xg__inside_key): each field back as it went in,
 * and keys ordered as their (point, solid) pairs, at the fields' edges
 * and at random. */
static void key_cases(void)
{
    static const uint32_t edge_a[] = {0, 1, 0x7fffffffu, UINT32_MAX - 1,
                                      UINT32_MAX};
    static const uint32_t edge_s[] = {0, 1, 2, XG__IN_MAX_SOLIDS / 2,
                                      XG__IN_MAX_SOLIDS - 1};
    struct tally t = {"gpu hit keys", 0, 0};
    uint64_t prev = 0;
    uint32_t pa = 0, ps = 0;
    int i;
    for (i = 0; i < 200000; i++) {
        uint32_t a = i < 25 ? edge_a[i % 5] : (uint32_t)rng_u64();
        uint32_t s = i < 25 ? edge_s[i / 5]
                            : (uint32_t)rng_u64() & (XG__IN_MAX_SOLIDS - 1);
        int kind = XG_KIND_INSIDE + (int)(rng_u64() % 3), doubt = i % 7 == 0;
        uint64_t k = xg__inside_key(a, s, kind, doubt);
        CHECK(&t, xg__inside_key_point(k) == a && xg__inside_key_solid(k) == s &&
                      xg__inside_key_kind(k) == (doubt ? -1 : kind),
              "key of (%u, %u, %d, doubt %d): %u, %u, %d", a, s, kind, doubt,
              xg__inside_key_point(k), xg__inside_key_solid(k),
              xg__inside_key_kind(k));
        if (i > 0 && (a != pa || s != ps))
            CHECK(&t, (k < prev) == (a < pa || (a == pa && s < ps)),
                  "order of (%u, %u) and (%u, %u)", a, s, pa, ps);
        prev = k;
        pa = a;
        ps = s;
    }
    tally_ok(&t);
}

/* The GPU engine's host part on device_hits: 1 and 3 threads, the points
 * in one batch and in three, with and without the extra deferrals; the
 * records must be want's. */
static void check_gpu_host(struct tally *t, const char *name,
                           const struct xg_set *a, const struct xg_set *b,
                           int outside, const struct xg_contacts *want)
{
    struct xg__solids S;
    struct xg_opts opt;
    struct xg_stats st;
    int threads, batches, more;
    memset(&opt, 0, sizeof opt);
    memset(&st, 0, sizeof st);
    if (xg__solids_prepare(ctx, b, &opt, 1, 1, &S, &st) != XG_OK) {
        xg__solids_free(&S);
        return;     /* an open solid: the engines' checks say so */
    }
    for (threads = 1; threads <= 3; threads += 2)
        for (batches = 1; batches <= 3; batches += 2)
            for (more = 0; more < 2; more++) {
                struct xg__inside_finish f;
                struct xg_contacts got = {0, 0, NULL};
                size_t k, at;
                int rc = xg__inside_finish_init(&f, &S, a->xyz, a->n,
                                                XG__IN_GPU, outside, threads);
                for (k = 0; k < (size_t)batches && rc == XG_OK; k++) {
                    size_t a0 = a->n * k / (size_t)batches;
                    size_t a1 = a->n * (k + 1) / (size_t)batches;
                    uint64_t nhit, ndeferred;
                    uint64_t *h = device_hits(&S, a, a0, a1, more, &nhit,
                                              &ndeferred);
                    rc = xg__inside_finish(ctx, &f, h, nhit, ndeferred,
                                           (uint32_t)a0,
                                           (uint32_t)(a1 - a0), &got);
                    free(h);
                }
                memset(&st, 0, sizeof st);
                xg__inside_finish_stats(&f, &st);
                at = rc ? 0 : xg_contacts_diff(want, &got);
                CHECK(t, rc == XG_OK && at == SIZE_MAX &&
                             counts_match(&st, &got),
                      "%s: gpu host part, %d threads, %d batches, more "
                      "deferred %d, outside %d: rc %d, first difference at "
                      "%zu", name, threads, batches, more, outside, rc, at);
                xg__inside_finish_free(&f);
                xg_contacts_free(&got);
            }
    xg__solids_free(&S);
}

/* Every configuration (seq too when with_seq), outside on and off,
 * equal to the records of kinds; `reps` runs of each threaded one with
 * the default columns; and the GPU engine's host part. */
static void check_engines(struct tally *t, const char *name,
                          const struct xg_set *a, const struct xg_set *b,
                          const struct solids *S, const int *kinds, int reps,
                          int with_seq, uint64_t skipped)
{
    int outside, r;
    size_t c;
    for (outside = 0; outside < 2; outside++) {
        struct xg_contacts want;
        records_of(a, S, kinds, outside, &want);
        for (c = 0; c < NCONFIG; c++) {
            int n = configs[c].threads > 1 && !configs[c].gx ? reps : 1;
            if (configs[c].engine == XG_ENGINE_SEQ && !with_seq)
                continue;
            for (r = 0; r < n; r++) {
                struct xg_contacts got = {0, 0, NULL};
                struct xg_stats st;
                size_t at;
                int rc = run_config(&configs[c], a, b, outside, &got, &st);
                at = rc ? 0 : xg_contacts_diff(&want, &got);
                CHECK(t, rc == XG_OK && at == SIZE_MAX &&
                             st.b_skipped == skipped &&
                             counts_match(&st, &got),
                      "%s: %s %d threads grid %dx%d outside %d run %d: rc "
                      "%d (%s), skipped %llu, first difference at %zu",
                      name, xg_engine_name(configs[c].engine),
                      configs[c].threads, configs[c].gx, configs[c].gy,
                      outside, r, rc, xg_ctx_errmsg(ctx),
                      (unsigned long long)st.b_skipped, at);
                if (rc == XG_OK && at != SIZE_MAX && t->bad <= 5)
                    print_diff(&want, &got, a, at);
                xg_contacts_free(&got);
            }
        }
        check_gpu_host(t, name, a, b, outside, &want);
        xg_contacts_free(&want);
    }
}

/* The reference's kinds of every point against every solid (caller
 * frees), checked against expect (a->n strings of S->n letters i, b, o,
 * or NULL) and against xg_inside_point. */
static int *reference_kinds(struct tally *t, const char *name,
                            const struct xg_set *a, const struct solids *S,
                            const char *const *expect)
{
    int *kinds = malloc((a->n * S->n + 1) * sizeof *kinds);
    size_t i, s;
    for (i = 0; i < a->n; i++)
        for (s = 0; s < S->n; s++) {
            const double *p = a->xyz + 3 * i;
            int k = ref_inside(p, S->tri[s], S->ntri[s]);
            int q = xg_inside_point(NULL, p, S->tri[s], S->ntri[s]);
            kinds[i * S->n + s] = k;
            if (expect) {
                int e = expect[i][s] == 'i'   ? XG_KIND_INSIDE
                        : expect[i][s] == 'b' ? XG_KIND_BOUNDARY
                                              : XG_KIND_OUTSIDE;
                CHECK(t, k == e,
                      "%s: reference says %s for point %zu (%.17g %.17g "
                      "%.17g) and solid %zu, stated %s",
                      name, xg_kind_name(k, 3), i, p[0], p[1], p[2], s,
                      xg_kind_name(e, 3));
            }
            CHECK(t, q == k,
                  "%s: xg_inside_point says %s for point %zu (%.17g %.17g "
                  "%.17g) and solid %zu, reference %s",
                  name, xg_kind_name(q, 3), i, p[0], p[1], p[2], s,
                  xg_kind_name(k, 3));
        }
    return kinds;
}

/* A whole scene: reference, stated kinds, xg_inside_point, engines. */
static void check_scene(const char *name, const struct xg_set *a,
                        const struct xg_set *b, const char *const *expect,
                        uint64_t skipped)
{
    struct tally t = {name, 0, 0};
    struct solids S;
    int *kinds;
    solids_of(b, &S);
    kinds = reference_kinds(&t, name, a, &S, expect);
    check_engines(&t, name, a, b, &S, kinds, 2, 1, skipped);
    tally_ok(&t);
    free(kinds);
    solids_free(&S);
}

/* ---- building solids ---- */

static double O[3];         /* the offset of the hand-built scenes */

static void at(double *v, double x, double y, double z)
{
    v[0] = O[0] + x;
    v[1] = O[1] + y;
    v[2] = O[2] + z;
}

static void tri(struct xg_set *b, int64_t fid, const double *u,
                const double *v, const double *w)
{
    if (xg_set_push_triangle(b, u, v, w, fid, 0))
        abort();
}

/* The 8 corners of [lo, hi] (offset by O), corner k having bit 0 for x,
 * 1 for y, 2 for z. */
static void corners(const double *lo, const double *hi, double c[8][3])
{
    int k;
    for (k = 0; k < 8; k++)
        at(c[k], k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1],
           k & 4 ? hi[2] : lo[2]);
}

/* The two triangles of each face of box [lo, hi]: face f's quad. */
static const int box_quads[6][4] = {
    {0, 2, 3, 1}, {4, 5, 7, 6},   /* z lo, z hi */
    {0, 1, 5, 4}, {2, 6, 7, 3},   /* y lo, y hi */
    {0, 4, 6, 2}, {1, 3, 7, 5},   /* x lo, x hi */
};

static void box_face(struct xg_set *b, int64_t fid, double c[8][3], int f,
                     int half)
{
    const int *q = box_quads[f];
    if (half == 0)
        tri(b, fid, c[q[0]], c[q[1]], c[q[2]]);
    else
        tri(b, fid, c[q[0]], c[q[2]], c[q[3]]);
}

static void box(struct xg_set *b, int64_t fid, double x0, double y0,
                double z0, double x1, double y1, double z1)
{
    double lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1}, c[8][3];
    int f;
    corners(lo, hi, c);
    for (f = 0; f < 6; f++) {
        box_face(b, fid, c, f, 0);
        box_face(b, fid, c, f, 1);
    }
}

/* The octahedron |x - cx| + |y - cy| + |z - cz| <= r. */
static void octahedron(struct xg_set *b, int64_t fid, double cx, double cy,
                       double cz, double r)
{
    double v[6][3];
    int sx, sy, sz;
    at(v[0], cx + r, cy, cz);
    at(v[1], cx - r, cy, cz);
    at(v[2], cx, cy + r, cz);
    at(v[3], cx, cy - r, cz);
    at(v[4], cx, cy, cz + r);
    at(v[5], cx, cy, cz - r);
    for (sx = 0; sx < 2; sx++)
        for (sy = 0; sy < 2; sy++)
            for (sz = 0; sz < 2; sz++)
                tri(b, fid, v[sx], v[2 + sy], v[4 + sz]);
}

/* The L: [0,6]x[0,3]x[0,3] and [0,3]x[0,3]x[3,6].  Its face y = 0 has a
 * vertex at (3, 0, 0) that the bottom face has not: the collinear
 * triangle (0,0,0) (3,0,0) (6,0,0) closes that T-junction. */
static void l_shape(struct xg_set *b, int64_t fid)
{
    static const double xz[7][2] = {{0, 0}, {3, 0}, {6, 0}, {6, 3},
                                    {3, 3}, {3, 6}, {0, 6}};
    static const int front[5][3] = {
        {0, 1, 4}, {1, 2, 3}, {1, 3, 4}, {0, 4, 5}, {0, 5, 6}};
    static const int back[4][3] = {{0, 2, 3}, {0, 3, 4}, {0, 4, 5}, {0, 5, 6}};
    double f[7][3], k[7][3], u[3], v[3], w[3];
    int i;
    for (i = 0; i < 7; i++) {
        at(f[i], xz[i][0], 0, xz[i][1]);
        at(k[i], xz[i][0], 3, xz[i][1]);
    }
    for (i = 0; i < 5; i++)
        tri(b, fid, f[front[i][0]], f[front[i][1]], f[front[i][2]]);
    for (i = 0; i < 4; i++)
        tri(b, fid, k[back[i][0]], k[back[i][1]], k[back[i][2]]);
    tri(b, fid, f[0], f[1], f[2]);                  /* collinear */
    /* the faces between y = 0 and y = 3: each edge of the back outline */
    {
        static const int ring[6] = {0, 2, 3, 4, 5, 6};
        for (i = 0; i < 6; i++) {
            int p = ring[i], q = ring[(i + 1) % 6];
            memcpy(u, f[p], sizeof u);
            memcpy(v, f[q], sizeof v);
            memcpy(w, k[q], sizeof w);
            tri(b, fid, u, v, w);
            tri(b, fid, u, w, k[p]);
        }
    }
}

/* ---- the hand-built scenes ---- */

struct hp {
    double x, y, z;     /* relative to O; z may be moved by an ulp */
    int zulp, xulp;
    const char *kinds;
};

static void push_points(struct xg_set *a, const struct hp *h, size_t n,
                        const char **expect)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double p[3];
        at(p, h[i].x, h[i].y, h[i].z);
        p[2] = ulps(p[2], h[i].zulp);
        p[0] = ulps(p[0], h[i].xulp);
        xg_set_push_point(a, p, (int64_t)i, 0);
        expect[i] = h[i].kinds;
    }
}

#define NH(h) (sizeof h / sizeof h[0])

static void scene(const char *name, struct xg_set *b, const struct hp *h,
                  size_t n, uint64_t skipped)
{
    struct xg_set a = {0};
    const char **expect = malloc(n * sizeof *expect);
    char full[160];
    snprintf(full, sizeof full, "%s at (%g, %g, %g)", name, O[0], O[1], O[2]);
    push_points(&a, h, n, expect);
    check_scene(full, &a, b, expect, skipped);
    free(expect);
    xg_set_free(&a);
    xg_set_free(b);
}

static void hand_cases(void)
{
    /* A cube [0,3]^3: its faces split along a diagonal. */
    static const struct hp cube_pts[] = {
        {0, 0, 0, 0, 0, "b"},       {3, 3, 3, 0, 0, "b"},  /* vertices */
        {1.5, 0, 0, 0, 0, "b"},     {0, 0, 1.5, 0, 0, "b"}, /* edges */
        {1.5, 1.5, 3, 0, 0, "b"},   /* on the top's diagonal */
        {2, 1, 3, 0, 0, "b"},       /* a top triangle's centroid */
        {0.5, 2.5, 3, 0, 0, "b"},   {3, 0.5, 1.25, 0, 0, "b"},
        {2, 1, 3, -1, 0, "i"},      {2, 1, 3, 1, 0, "o"},  /* 1 ulp */
        {0, 1, 1, 0, 1, "i"},       {0, 1, 1, 0, -1, "o"},
        {1.5, 1.5, 1.5, 0, 0, "i"}, {1, 2, 0.125, 0, 0, "i"},
        {1, 2, -1, 0, 0, "o"},      {1, 2, 4, 0, 0, "o"}, /* below, above */
        {0, 0, -1, 0, 0, "o"},      {3, 3, 5, 0, 0, "o"}, /* vertical edges */
        {1.5, 1.5, -2, 0, 0, "o"},  /* through both diagonals */
        {1.5, 1.5, 1, 0, 0, "i"},   /* through the top's diagonal */
        {0, 1, -1, 0, 0, "o"},      {0, 1, 1, 0, 0, "b"}, /* walls */
        {0, 1, 7, 0, 0, "o"},       {3, 1.5, 5, 0, 0, "o"},
        {3, 3, 1.5, 0, 1, "o"},     {3, 3, 1.5, 0, -1, "b"},
    };
    /* The octahedron |x| + |y| + |z| <= 3 around (4, 4, 4). */
    static const struct hp octa_pts[] = {
        {4, 4, 4, 0, 0, "i"},       /* ray through the apex */
        {4, 4, -2, 0, 0, "o"},      /* through both apices */
        {4, 4, 7, 0, 0, "b"},       {4, 4, 1, 0, 0, "b"},
        {5, 4, 3.5, 0, 0, "i"},     /* through an edge of two faces */
        {5, 4, -5, 0, 0, "o"},      /* through two such edges */
        {4, 5, 3, 0, 0, "i"},       {5.5, 4, 5.5, 0, 0, "b"},
        {5, 5, 5, 0, 0, "b"},       /* a face's centroid */
        {5, 5, 5, -1, 0, "i"},      {5, 5, 5, 1, 0, "o"},
        {5, 5, 3, -1, 0, "o"},      {5, 5, 3, 1, 0, "i"},
        {3, 3, 3, 0, 0, "b"},       {3, 3, 3, 1, 0, "i"},
        {3, 3, 3, -1, 0, "o"},      {3.5, 3, 3.5, 0, 0, "i"},
        {7, 4, 4, 0, 0, "b"},       {7, 4, 4, 0, 1, "o"},
        {7, 4, 4, 0, -1, "i"},      {7, 4, 3, 0, 0, "o"},
    };
    /* The L (see l_shape). */
    static const struct hp l_pts[] = {
        {3, 0, 0, 0, 0, "b"},       {3, 0, -1, 0, 0, "o"},
        {1.5, 0, 1, 0, 0, "b"},     {4.5, 1.5, 1.5, 0, 0, "i"},
        {4.5, 1.5, 4.5, 0, 0, "o"}, {3, 1.5, 4.5, 0, 0, "b"},
        {3, 1.5, 1, 0, 0, "i"},     /* the ray runs up the step's wall */
        {3, 1.5, 3, 0, 0, "b"},     {3, 1.5, 7, 0, 0, "o"},
        {1.5, 1.5, 4.5, 0, 0, "i"}, {6, 1.5, 4, 0, 0, "o"},
        {6, 1.5, -1, 0, 0, "o"},    {4.5, 3, 1, 0, 0, "b"},
        {4.5, 3, 3, 0, 0, "b"},     {3, 3, 3, 0, 0, "b"},
        {3, 3, -2, 0, 0, "o"},      {3, 0, 3, 0, 0, "b"},
        {3, 1.5, 3, 1, 0, "b"},     {3, 1.5, 3, -1, 0, "i"},
        {3, 1.5, 3, 0, 1, "b"},     {3, 1.5, 3, 0, -1, "i"},
        {4.5, 1.5, 3, 1, 0, "o"},   {1.5, 0.75, 6, -1, 0, "i"},
    };
    /* Nested: [0,9]^3 (fid 1) holds [3,6]^3 (fid 2). */
    static const struct hp nest_pts[] = {
        {4.5, 4.5, 4.5, 0, 0, "ii"}, {1, 1, 1, 0, 0, "io"},
        {3, 4, 4, 0, 0, "ib"},       {6, 6, 6, 0, 0, "ib"},
        {0, 4, 4, 0, 0, "bo"},       {4.5, 4.5, -1, 0, 0, "oo"},
        {4.5, 4.5, 1, 0, 0, "io"},   {4.5, 4.5, 9, 0, 0, "bo"},
    };
    /* Touching: [0,3]^3 (fid 5) and [3,6]x[0,3]x[0,3] (fid 4). */
    static const struct hp touch_pts[] = {
        {3, 1, 1, 0, 0, "bb"},       {3, 0, 0, 0, 0, "bb"},
        {1.5, 1.5, 1.5, 0, 0, "io"}, {4.5, 1.5, 1.5, 0, 0, "oi"},
        {3, 1, 1, 0, -1, "io"},      {3, 1, 1, 0, 1, "oi"},
        {3, 1.5, -1, 0, 0, "oo"},    {3, 1.5, 4, 0, 0, "oo"},
        {3, 1.5, 3, 0, 0, "bb"},
    };
    /* Overlapping: [0,3]^3 (fid 1) and [1.5,4.5]^3 (fid 2). */
    static const struct hp over_pts[] = {
        {2, 2, 2, 0, 0, "ii"},       {1.5, 2, 2, 0, 0, "ib"},
        {1, 1, 1, 0, 0, "io"},       {4, 4, 4, 0, 0, "oi"},
        {3, 3, 3, 0, 0, "bi"},       {1.5, 1.5, 3, 0, 0, "bb"},
        {2, 2, -1, 0, 0, "oo"},      {3, 3, 1, 0, 0, "bo"},
    };
    /* Interleaved: an octahedron (fid 9) and a box (fid 3) pushed
     * triangle by triangle alternately. */
    static const struct hp inter_pts[] = {
        {4, 4, 4, 0, 0, "ib"},       {4, 4, 7, 0, 0, "bo"},
        {2, 2, 2, 0, 0, "oi"},       {4, 4, 1.5, 0, 0, "ib"},       {3, 3, 1.5, 0, 0, "oi"},
        {0, 0, 0, 0, 0, "ob"},       {9, 9, 9, 0, 0, "oo"},
    };
    static const double offsets[2][3] = {{500000.25, 7000000.5, 350.75},
                                         {0, 0, 0}};
    int k;
    for (k = 0; k < 2; k++) {
        struct xg_set b = {0}, x = {0}, y = {0};
        size_t i;
        memcpy(O, offsets[k], sizeof O);
        box(&b, 7, 0, 0, 0, 3, 3, 3);
        scene("cube", &b, cube_pts, NH(cube_pts), 0);
        octahedron(&b, 7, 4, 4, 4, 3);
        scene("octahedron", &b, octa_pts, NH(octa_pts), 0);
        l_shape(&b, 7);
        scene("L-shape", &b, l_pts, NH(l_pts), 1);
        box(&b, 1, 0, 0, 0, 9, 9, 9);
        box(&b, 2, 3, 3, 3, 6, 6, 6);
        scene("nested cubes", &b, nest_pts, NH(nest_pts), 0);
        box(&b, 5, 0, 0, 0, 3, 3, 3);
        box(&b, 4, 3, 0, 0, 6, 3, 3);
        scene("touching cubes", &b, touch_pts, NH(touch_pts), 0);
        box(&b, 1, 0, 0, 0, 3, 3, 3);
        box(&b, 2, 1.5, 1.5, 1.5, 4.5, 4.5, 4.5);
        scene("overlapping cubes", &b, over_pts, NH(over_pts), 0);
        octahedron(&x, 9, 4, 4, 4, 3);
        box(&y, 3, 0, 0, 0, 4, 4, 4);
        for (i = 0; i < x.n || i < y.n; i++) {
            if (i < x.n)
                tri(&b, 9, x.xyz + 9 * i, x.xyz + 9 * i + 3, x.xyz + 9 * i + 6);
            if (i < y.n)
                tri(&b, 3, y.xyz + 9 * i, y.xyz + 9 * i + 3, y.xyz + 9 * i + 6);
        }
        xg_set_free(&x);
        xg_set_free(&y);
        scene("interleaved solids", &b, inter_pts, NH(inter_pts), 0);
    }
}

/* ---- open surfaces ---- */

static void open_cases(void)
{
    struct xg_set a = {0}, b = {0}, c = {0};
    struct xg_contacts out = {0, 0, NULL};
    uint64_t open = 99;
    double p[3];
    int rc;
    memcpy(O, (double[3]){500000.25, 7000000.5, 350.75}, sizeof O);
    box(&b, 42, 0, 0, 0, 3, 3, 3);
    ok(xg_open_edges(b.xyz, b.n, &open) == XG_OK && open == 0,
       "xg_open_edges: a closed cube has 0 open edges (%llu)",
       (unsigned long long)open);
    ok(xg_open_edges(b.xyz, b.n - 1, &open) == XG_OK && open == 3,
       "xg_open_edges: a cube less one triangle has 3 (%llu)",
       (unsigned long long)open);
    xg_set_push(&c, XG_ELEM_TRIANGLE, b.xyz, 1, 0);
    ok(xg_open_edges(b.xyz, 0, &open) == XG_OK && open == 0 &&
           xg_open_edges(NULL, 1, &open) == XG_EINVAL &&
           xg_open_edges(b.xyz, 1, NULL) == XG_EINVAL,
       "xg_open_edges: no triangles, NULLs");
    {
        struct xg_set d = {0};
        size_t i;
        for (i = 0; i < b.n; i++)
            xg_set_push(&d, XG_ELEM_TRIANGLE, b.xyz + 9 * i, 1, 0);
        xg_set_push(&d, XG_ELEM_TRIANGLE, b.xyz, 1, 0);
        xg_set_push(&d, XG_ELEM_TRIANGLE, b.xyz + 9, 1, 0);
        ok(xg_open_edges(d.xyz, d.n, &open) == XG_OK && open == 4,
           "xg_open_edges: a cube with one face twice has 4 (%llu)",
           (unsigned long long)open);
        xg_set_push(&d, XG_ELEM_TRIANGLE, b.xyz + 9, 1, 0);
        ok(xg_open_edges(d.xyz, d.n, &open) == XG_OK && open == 3,
           "xg_open_edges: and one of its triangles thrice, 3 (%llu)",
           (unsigned long long)open);
        xg_set_free(&d);
    }
    /* a closed solid beside an open one: the open one is named */
    {
        struct xg_set d = {0};
        size_t i;
        struct xg_opts opt;
        memset(&opt, 0, sizeof opt);
        box(&d, 8, 4, 4, 4, 5, 5, 5);
        for (i = 0; i + 1 < b.n; i++)
            xg_set_push(&d, XG_ELEM_TRIANGLE, b.xyz + 9 * i, 42, 0);
        at(p, 1, 1, 1);
        xg_set_push_point(&a, p, 1, 0);
        for (opt.engine = XG_ENGINE_SEQ; opt.engine <= XG_ENGINE_CPU;
             opt.engine++) {
            rc = xg_inside(ctx, &a, &d, &opt, &out, NULL);
            ok(rc == XG_EFORMAT && out.n == 0 &&
                   strstr(xg_ctx_errmsg(ctx), "fid 42 ") &&
                   strstr(xg_ctx_errmsg(ctx), " 3 open edges"),
               "open surface refused (%s): %d, \"%s\"",
               xg_engine_name(opt.engine), rc, xg_ctx_errmsg(ctx));
        }
        xg_set_free(&d);
    }
    xg_set_free(&a);
    xg_set_free(&b);
    xg_set_free(&c);
    xg_contacts_free(&out);
}

/* One feature made of two overlapping cubes (the merged lenses):
 * refused by every engine, whole or in regions, naming the feature and
 * its lowest crossing pair by their index in the feature (a collinear
 * triangle first, which counts in that index and is left out of the
 * test); with opt.solids_checked, the parity answer the caller accepted:
 * a point in both cubes is outside. */
static void crossing_cases(void)
{
    struct xg_set a = {0}, b = {0}, two = {0};
    struct xg_contacts out = {0};
    struct xg_opts opt;
    double p[3], q[3], r[3], flat[9];
    size_t i, pair[2] = {0, 0};
    int rc, found = 0, e;
    char want[96];

    memset(&opt, 0, sizeof opt);
    box(&b, 8, 6, 6, 6, 7, 7, 7);
    /* a collinear triangle twice (closed still), its middle (1, 0, 0)
     * inside an edge of the first cube: a junction, cut at */
    at(flat, 0, 0, 0);
    at(flat + 3, 1, 0, 0);
    at(flat + 6, 2, 0, 0);
    xg_set_push(&two, XG_ELEM_TRIANGLE, flat, 42, 0);
    xg_set_push(&two, XG_ELEM_TRIANGLE, flat, 42, 0);
    box(&two, 42, 0, 0, 0, 2, 2, 2);
    box(&two, 42, 1, 1, 1, 3, 3, 3);
    for (i = 0; i < two.n; i++)
        xg_set_push(&b, XG_ELEM_TRIANGLE, two.xyz + 9 * i, 42, (int64_t)i);
    rc = xg_self_crossing(NULL, two.xyz, two.n, pair, &found);
    ok(rc == XG_OK && found && pair[0] >= 2,
       "crossing: the two cubes' lowest pair (%zu, %zu)", pair[0], pair[1]);
    snprintf(want, sizeof want, "triangles %zu and %zu meet", pair[0],
             pair[1]);
    at(p, 1.5, 1.5, 1.5);       /* in both cubes */
    at(q, 0.5, 0.5, 0.5);       /* in the first alone */
    at(r, 6.5, 6.5, 6.5);       /* in the other solid */
    xg_set_push_point(&a, p, 1, 0);
    xg_set_push_point(&a, q, 2, 0);
    xg_set_push_point(&a, r, 3, 0);
    for (e = XG_ENGINE_SEQ; e <= XG_ENGINE_GPU + 1; e++) {
        const char *name = e <= XG_ENGINE_GPU ? xg_engine_name(e)
                                              : "cpu in 3 regions";
        if (e == XG_ENGINE_GPU && !xg_gpu_available())
            continue;
        opt.engine = e <= XG_ENGINE_GPU ? e : XG_ENGINE_CPU;
        opt.regions = e <= XG_ENGINE_GPU ? 0 : 3;
        opt.solids_checked = 0;
        rc = xg_inside(ctx, &a, &b, &opt, &out, NULL);
        ok(rc == XG_EFORMAT && out.n == 0 &&
               strstr(xg_ctx_errmsg(ctx), "fid 42 crosses itself") &&
               strstr(xg_ctx_errmsg(ctx), want),
           "crossing refused (%s): %d, \"%s\"", name, rc,
           xg_ctx_errmsg(ctx));
        opt.solids_checked = 1;
        rc = xg_inside(ctx, &a, &b, &opt, &out, NULL);
        ok(rc == XG_OK && out.n == 2 && out.v[0].a == 1 &&
               b.fid[out.v[0].b] == 42 &&
               out.v[0].kind == XG_KIND_INSIDE && out.v[1].a == 2 &&
               b.fid[out.v[1].b] == 8,
           "crossing vouched for (%s): parity, the point in both cubes "
           "outside (%d, %zu records)", name, rc, out.n);
    }
    /* an open solid after it: the open one is named, as before */
    opt.engine = XG_ENGINE_CPU;
    opt.regions = 0;
    opt.solids_checked = 0;
    for (i = 0; i + 1 < 12; i++)
        xg_set_push(&b, XG_ELEM_TRIANGLE, two.xyz + 9 * i, 50, 0);
    rc = xg_inside(ctx, &a, &b, &opt, &out, NULL);
    ok(rc == XG_EFORMAT && strstr(xg_ctx_errmsg(ctx), "fid 50 is not closed"),
       "an open solid is named before one that crosses itself: \"%s\"",
       xg_ctx_errmsg(ctx));
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_set_free(&two);
}

/* ---- random solids ---- */

/* Vertices on the lattice step / 2^k around centre c (offset O). */
struct mesh {
    size_t nv, nt;
    double v[512][3];
    int t[1024][3];
};

/* The convex hull of n lattice points near a sphere of radius r (lattice
 * units) in general position (no four coplanar): every triple with all
 * other points strictly on one side is a face.  Integer arithmetic. */
static long det3(const long *a, const long *b, const long *c, const long *d)
{
    long u[3], v[3], w[3];
    int k;
    for (k = 0; k < 3; k++) {
        u[k] = b[k] - a[k];
        v[k] = c[k] - a[k];
        w[k] = d[k] - a[k];
    }
    return u[0] * (v[1] * w[2] - v[2] * w[1]) -
           u[1] * (v[0] * w[2] - v[2] * w[0]) +
           u[2] * (v[0] * w[1] - v[1] * w[0]);
}

static void hull_mesh(struct mesh *m, int n, double r, double step,
                      const double *c)
{
    long P[64][3];
    int i, j, k, l, np = 0;
    while (np < n) {
        double d[3], len;
        int bad = 0;
        do {
            for (k = 0; k < 3; k++)
                d[k] = rng_range(-1, 1);
            len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        } while (len < 0.1 || len > 1);
        for (k = 0; k < 3; k++)
            P[np][k] = lround(d[k] / len * r * rng_range(0.9, 1.0));
        for (i = 0; i < np && !bad; i++)
            for (j = i + 1; j < np && !bad; j++)
                for (l = j + 1; l < np && !bad; l++)
                    bad = det3(P[i], P[j], P[l], P[np]) == 0;
        for (i = 0; i < np && !bad; i++)
            bad = P[i][0] == P[np][0] && P[i][1] == P[np][1] &&
                  P[i][2] == P[np][2];
        np += !bad;
    }
    m->nv = (size_t)np;
    m->nt = 0;
    for (i = 0; i < np; i++)
        for (k = 0; k < 3; k++)
            m->v[i][k] = c[k] + (double)P[i][k] * step;
    for (i = 0; i < np; i++)
        for (j = i + 1; j < np; j++)
            for (k = j + 1; k < np; k++) {
                int pos = 0, neg = 0;
                for (l = 0; l < np; l++) {
                    long d;
                    if (l == i || l == j || l == k)
                        continue;
                    d = det3(P[i], P[j], P[k], P[l]);
                    pos += d > 0;
                    neg += d < 0;
                }
                if (!pos || !neg) {
                    m->t[m->nt][0] = i;
                    m->t[m->nt][1] = j;
                    m->t[m->nt][2] = k;
                    m->nt++;
                }
            }
}

/* A UV sphere of nr rings and ns sectors whose every vertex has its own
 * radius in [r/2, r] (lattice units): star-shaped, not convex. */
static void star_mesh(struct mesh *m, int nr, int ns, double r, double step,
                      const double *c)
{
    int i, j, k;
    m->nv = 0;
    m->nt = 0;
    for (i = 0; i <= nr; i++)
        for (j = 0; j < (i == 0 || i == nr ? 1 : ns); j++) {
            double th = PI * i / nr, ph = 2 * PI * j / ns;
            double rr = r * rng_range(0.5, 1.0);
            double d[3] = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)};
            for (k = 0; k < 3; k++)
                m->v[m->nv][k] = c[k] + (double)lround(d[k] * rr) * step;
            m->nv++;
        }
#define RING(i, j) ((i) == 0 ? 0 : (i) == nr ? (int)m->nv - 1 \
                                             : 1 + ((i) - 1) * ns + (j) % ns)
    for (i = 0; i < nr; i++)
        for (j = 0; j < ns; j++) {
            int a = RING(i, j), b = RING(i, j + 1), cc = RING(i + 1, j),
                d = RING(i + 1, j + 1);
            if (i > 0) {
                m->t[m->nt][0] = a;
                m->t[m->nt][1] = cc;
                m->t[m->nt][2] = b;
                m->nt++;
            }
            if (i < nr - 1) {
                m->t[m->nt][0] = b;
                m->t[m->nt][1] = cc;
                m->t[m->nt][2] = d;
                m->nt++;
            }
        }
#undef RING
}

static void push_mesh(struct xg_set *b, const struct mesh *m, int64_t fid)
{
    size_t i;
    for (i = 0; i < m->nt; i++)
        tri(b, fid, m->v[m->t[i][0]], m->v[m->t[i][1]], m->v[m->t[i][2]]);
}

/* Points: on vertices, edges' midpoints, faces' (A + B + 2C) / 4 (exact
 * on the lattice), each also 1 ulp off in z and in x, below and above
 * them, lattice points and arbitrary doubles of the box. */
static void mesh_points(struct xg_set *a, const struct mesh *m,
                        const double *lo, const double *hi, double step,
                        int n)
{
    int i, k;
    for (i = 0; i < n; i++) {
        double p[3];
        const double *A, *B, *C;
        size_t t = (size_t)rng_int((int)m->nt);
        A = m->v[m->t[t][0]];
        B = m->v[m->t[t][1]];
        C = m->v[m->t[t][2]];
        switch (rng_int(7)) {
        case 0:
            memcpy(p, A, sizeof p);
            break;
        case 1:
            for (k = 0; k < 3; k++)
                p[k] = (A[k] - O[k] + B[k] - O[k]) / 2 + O[k];
            break;
        case 2:
        case 3:
            for (k = 0; k < 3; k++)
                p[k] = (A[k] - O[k] + B[k] - O[k] + 2 * (C[k] - O[k])) / 4 +
                       O[k];
            break;
        case 4:
            for (k = 0; k < 3; k++)
                p[k] = lo[k] + (double)rng_int((int)((hi[k] - lo[k]) / step) +
                                               1) * step;
            break;
        default:
            for (k = 0; k < 3; k++)
                p[k] = rng_range(lo[k], hi[k]);
            break;
        }
        switch (rng_int(6)) {
        case 0:
            p[2] = ulps(p[2], rng_int(2) ? 1 : -1);
            break;
        case 1:
            k = rng_int(2);
            p[k] = ulps(p[k], rng_int(2) ? 1 : -1);
            break;
        case 2:
            p[2] = rng_int(2) ? lo[2] - step : hi[2] + step;
            break;
        case 3:
            p[2] = lo[2] + (double)rng_int((int)((hi[2] - lo[2]) / step) + 1) *
                               step;
            break;
        default:
            break;
        }
        xg_set_push_point(a, p, i, 0);
    }
}

static void random_solids(void)
{
    static const double offsets[2][3] = {{500000.25, 7000000.5, 350.75},
                                         {0, 0, 0}};
    static struct mesh m1, m2;
    int round;
    for (round = 0; round < 4; round++) {
        struct xg_set a = {0}, b = {0}, big = {0};
        struct tally t = {"random solids", 0, 0};
        struct solids S;
        double step = round & 1 ? 0.125 : 0.25, lo[3], hi[3], c1[3], c2[3];
        int *kinds, *bigk, k, rep;
        size_t i, s;
        char name[96];
        memcpy(O, offsets[round / 2], sizeof O);
        for (k = 0; k < 3; k++) {
            c1[k] = O[k];
            c2[k] = O[k] + (k == 0 ? 8 : 2) * step;
            lo[k] = O[k] - 20 * step;
            hi[k] = O[k] + 30 * step;
        }
        hull_mesh(&m1, 24 + 8 * round, 16, step, c1);
        star_mesh(&m2, 6 + round, 10 + 2 * round, 18, step, c2);
        /* the star sphere's triangles first, then the hull's, then a
         * second run of the star's fid (grouping by fid) */
        for (i = 0; i < m2.nt / 2; i++)
            tri(&b, 20, m2.v[m2.t[i][0]], m2.v[m2.t[i][1]], m2.v[m2.t[i][2]]);
        push_mesh(&b, &m1, 10);
        for (; i < m2.nt; i++)
            tri(&b, 20, m2.v[m2.t[i][0]], m2.v[m2.t[i][1]], m2.v[m2.t[i][2]]);
        mesh_points(&a, &m1, lo, hi, step, 300);
        mesh_points(&a, &m2, lo, hi, step, 300);
        snprintf(name, sizeof name,
                 "random hull (%zu triangles) and star (%zu) at %g, step %g",
                 m1.nt, m2.nt, O[0], step);
        t.what = name;
        solids_of(&b, &S);
        kinds = reference_kinds(&t, name, &a, &S, NULL);
        check_engines(&t, name, &a, &b, &S, kinds, 1, 1, 0);
        /* many chunks for the threads: the points 24 times over, the
         * threaded runs 20 times each */
        bigk = malloc(24 * a.n * S.n * sizeof *bigk);
        for (rep = 0; rep < 24; rep++)
            for (i = 0; i < a.n; i++) {
                xg_set_push_point(&big, a.xyz + 3 * i, (int64_t)i, rep);
                for (s = 0; s < S.n; s++)
                    bigk[(rep * a.n + i) * S.n + s] = kinds[i * S.n + s];
            }
        if (round == 0) {
            struct tally u = {"threads, 20 runs", 0, 0};
            check_engines(&u, "threads, 20 runs", &big, &b, &S, bigk, 20, 0, 0);
            tally_ok(&u);
        }
        {
            long cnt[6] = {0};
            for (i = 0; i < a.n * S.n; i++)
                cnt[kinds[i]]++;
            printf("# %s: %ld inside, %ld boundary, %ld outside\n", name,
                   cnt[XG_KIND_INSIDE], cnt[XG_KIND_BOUNDARY],
                   cnt[XG_KIND_OUTSIDE]);
            CHECK(&t, cnt[XG_KIND_INSIDE] > 50 && cnt[XG_KIND_BOUNDARY] > 50 &&
                          cnt[XG_KIND_OUTSIDE] > 50,
                  "every kind well represented");
        }
        tally_ok(&t);
        free(kinds);
        free(bigk);
        solids_free(&S);
        xg_set_free(&a);
        xg_set_free(&b);
        xg_set_free(&big);
    }
}

/* ---- the ray filter against the exact stage ---- */

/* A triangle near base: lattice vertices (step 1/8), some vertical, some
 * with shared x or y, some moved by an ulp or arbitrary. */
static int filter_triangle(double *T, const double *base)
{
    int v, k, mode = rng_int(6);
    for (v = 0; v < 3; v++)
        for (k = 0; k < 3; k++)
            T[3 * v + k] = base[k] + (double)(rng_int(33) - 16) * 0.125;
    switch (mode) {
    case 0:     /* vertical: C's shadow on line AB */
        for (k = 0; k < 2; k++)
            T[6 + k] = 2 * (T[3 + k] - base[k]) - (T[k] - base[k]) + base[k];
        break;
    case 1:     /* vertical: C right above A */
        T[6] = T[0];
        T[7] = T[1];
        break;
    case 2:     /* shared x, shared y */
        T[3] = T[0];
        T[7] = T[4];
        break;
    case 3:     /* arbitrary doubles */
        for (k = 0; k < 9; k++)
            T[k] = base[k % 3] + rng_range(-2, 2);
        break;
    case 4:     /* an ulp off the lattice */
        k = rng_int(9);
        T[k] = ulps(T[k], rng_int(5) - 2);
        break;
    default:
        break;
    }
    return mode == 3;       /* arbitrary */
}

/* Non-zero when the point is arbitrary. */
static int filter_point(double *p, const double *T, const double *base)
{
    const double *A = T, *B = T + 3, *C = T + 6;
    int k, mode = rng_int(7), moved = rng_int(5);
    switch (mode) {
    case 0:
        memcpy(p, T + 3 * rng_int(3), 3 * sizeof *p);
        break;
    case 1:
        for (k = 0; k < 3; k++)
            p[k] = (A[k] - base[k] + B[k] - base[k]) / 2 + base[k];
        break;
    case 2:
    case 3:
        for (k = 0; k < 3; k++)
            p[k] = (A[k] - base[k] + B[k] - base[k] + 2 * (C[k] - base[k])) /
                       4 + base[k];
        break;
    case 4:
        for (k = 0; k < 3; k++)
            p[k] = base[k] + (double)(rng_int(33) - 16) * 0.125;
        break;
    default:
        for (k = 0; k < 3; k++)
            p[k] = base[k] + rng_range(-2, 2);
        break;
    }
    switch (moved) {
    case 0:
        p[2] -= (double)(1 + rng_int(8)) * 0.125;     /* below it */
        break;
    case 1:
        k = rng_int(3);
        p[k] = ulps(p[k], rng_int(2) ? 1 : -1);
        break;
    case 2:
        k = rng_int(3);
        p[k] = ulps(p[k], rng_int(7) - 3);
        break;
    default:
        break;
    }
    return mode >= 5;
}

/* Lattice data (points and vertices on one 1/16 grid) at UTM and near
 * 0: the sides and heights that are exactly zero -- a point in the
 * vertical plane of an edge, at a vertex's (x, y), on the face -- are
 * certified by the filter itself on the host too (its exact stage in
 * doubles), as the GPU's directed rounding certifies them: it answers,
 * and answers as the exact stage does, for every such point of a
 * sloping face. */
static void lattice_zero_cases(void)
{
    static const double bases[2][3] = {{500000.25, 7000000.5, 350.75},
                                       {0, 0, 0}};
    struct tally t = {"lattice points on edges' lines, vertices and faces: "
                      "the host filter answers, as the exact stage", 0, 0};
    long zeros = 0;
    int b, i, j, k;
    for (b = 0; b < 2; b++)
        for (k = 0; k < 4; k++) {
            const double *o = bases[b];
            /* a sloping face over (0,0), (4,0), (0,4) (k: its
             * orientation and tilt), z = o + 1 + x/4 + k y/8 */
            double T[9], bx[6], p[3];
            int s;
            for (j = 0; j < 3; j++) {
                double x = j == 1 ? 4.0 : 0.0, y = j == 2 ? 4.0 : 0.0;
                int at = (k & 1) ? 2 - j : j;
                T[3 * at] = o[0] + x;
                T[3 * at + 1] = o[1] + y;
                T[3 * at + 2] = o[2] + 1.0 + x / 4 + k * y / 8;
            }
            xg__tri_box(T, bx);
            s = xg_orient2d(NULL, T, T + 3, T + 6);
            for (i = 0; i <= 8; i++)
                for (j = 0; j <= 8 - i; j++) {
                    int f, e, dz;
                    for (dz = -1; dz <= 1; dz++) {
                        p[0] = o[0] + 0.5 * i;
                        p[1] = o[1] + 0.5 * j;
                        /* below, on and above the face */
                        p[2] = o[2] + 1.0 + (0.5 * i) / 4 +
                               k * (0.5 * j) / 8 + dz * 0.0625;
                        if (!xg__ray_box_holds(p, bx))
                            continue;
                        f = xg_ray_tri_fast(p, T, s, p[2] < bx[2]);
                        e = xg__ray_tri_exact(NULL, p, T);
                        zeros += i == 0 || j == 0 || i + j == 8 || dz == 0;
                        CHECK(&t, f == e,
                              "base %d face %d point (%d, %d, %d): filter "
                              "%d, exact %d", b, k, i, j, dz, f, e);
                    }
                }
        }
    CHECK(&t, zeros > 200, "only %ld points with a zero sign", zeros);
    tally_ok(&t);
}

/* Vertical walls in the planes x = const and y = const: the filter's
 * sides of a point on the wall's line come out exactly zero (the
 * differences are zero), as they do on the GPU for any exact input, so
 * the filter itself must tell a point on the wall from one beside it:
 * its wall stage (xg_ray_wall) decides every one of these exactly (the
 * differences are exact doubles), and must agree with the exact
 * stage. */
static void wall_cases(void)
{
    static const double bases[2][3] = {{500000.25, 7000000.5, 350.75},
                                       {0, 0, 0}};
    struct tally t = {"vertical walls: the filter agrees with the exact "
                      "stage where its sides are exactly zero", 0, 0};
    int b, axis, k;
    for (b = 0; b < 2; b++)
        for (axis = 0; axis < 2; axis++)
            for (k = 0; k < 9; k++) {
                const double *o = bases[b];
                double T[9], p[3], bx[6];
                int u = axis, v = 1 - axis, f, e, s;
                memset(T, 0, sizeof T);
                /* the wall: constant coordinate u, spanning v and z */
                T[u] = T[3 + u] = T[6 + u] = o[u] + 1.0;
                T[v] = o[v];
                T[3 + v] = o[v] + 4.0;
                T[6 + v] = o[v] + 1.0;
                T[2] = o[2];
                T[5] = o[2];
                T[8] = o[2] + 4.0;
                /* on the wall (inside, on an edge, at a vertex), beside
                 * it in its line, and off it */
                p[u] = o[u] + 1.0;
                p[v] = o[v] + (k < 3 ? 1.5 : k < 6 ? 0.5 * k : 3.75);
                p[2] = o[2] + (k == 0 ? 0.5 : k == 1 ? 0.0 : k == 2 ? 3.0
                                : k < 6 ? 1.0 : 3.5);
                if (k == 8)
                    p[u] = o[u] + 1.0 + 0x1p-20;
                xg__tri_box(T, bx);
                if (!xg__ray_box_holds(p, bx))
                    continue;
                s = xg_orient2d(NULL, T, T + 3, T + 6);
                f = xg_ray_tri_fast(p, T, s, p[2] < bx[2]);
                e = xg__ray_tri_exact(NULL, p, T);
                CHECK(&t, s == XG_ZERO && f == e,
                      "wall %d/%d/%d: filter %d, exact %d", b, axis, k, f,
                      e);
            }
    CHECK(&t, t.n >= 20, "only %ld cases", t.n);
    tally_ok(&t);
}

/* Vertical walls whose shadows run diagonally, at UTM coordinates and
 * near the origin (a nudge of 0 itself would be subnormal, which the
 * exact stage in doubles leaves to GMP: see the tiny wall): edge vectors of 30 significant bits, so a point on a
 * wall's line is exactly on it while the sides' products are not exact
 * doubles (the intervals cannot certify their zeros; the exact stage in
 * doubles and the wall stage, xg_ray_wall, must).  Points on the wall
 * (inside, on its edges and vertices), beside it in its plane, and one
 * ulp off in x or y: the filter must decide each, as the exact stage
 * (GMP behind) does.  Then a wall far from its point's magnitude, where
 * a coordinate difference is inexact: the filter may only defer or
 * agree. */
static void diagonal_wall_cases(void)
{
    static const double bases[2][3] = {{500000.25, 7000000.5, 350.75},
                                       {-3.5, 12.25, -1.0}};
    const double d[2] = {1.0 + 0x1p-29, 2.0 + 0x1p-28};
    struct tally t = {"diagonal vertical walls: the filter decides every "
                      "point as the exact stage does", 0, 0};
    long on = 0, deferred = 0;
    int b, i, k, u;
    for (b = 0; b < 2; b++)
        for (i = -2; i <= 10; i++)
            for (k = -1; k <= 9; k++)
                for (u = 0; u < 5; u++) {
                    const double *o = bases[b];
                    double T[9], p[3], bx[6];
                    int f, e, s;
                    /* the wall: A, A + d at the foot, A + d/2 on top */
                    T[0] = o[0], T[1] = o[1], T[2] = o[2];
                    T[3] = o[0] + d[0], T[4] = o[1] + d[1], T[5] = o[2];
                    T[6] = o[0] + d[0] / 2, T[7] = o[1] + d[1] / 2;
                    T[8] = o[2] + 2.0;
                    p[0] = o[0] + i / 8.0 * d[0];
                    p[1] = o[1] + i / 8.0 * d[1];
                    p[2] = o[2] + 0.25 * k;
                    if (u == 1 || u == 2)
                        p[0] = nextafter(p[0], u == 1 ? HUGE_VAL : -HUGE_VAL);
                    if (u == 3 || u == 4)
                        p[1] = nextafter(p[1], u == 3 ? HUGE_VAL : -HUGE_VAL);
                    xg__tri_box(T, bx);
                    if (!xg__ray_box_holds(p, bx))
                        continue;
                    s = xg_orient2d(NULL, T, T + 3, T + 6);
                    f = xg_ray_tri_fast(p, T, s, p[2] < bx[2]);
                    e = xg__ray_tri_exact(NULL, p, T);
                    on += e == XG_RAY_ON;
                    CHECK(&t, s == XG_ZERO && f == e,
                          "base %d point (%d, %d, %d): filter %d, exact %d",
                          b, i, k, u, f, e);
                }
    CHECK(&t, on > 20 && t.n > 200, "only %ld points on the walls of %ld",
          on, t.n);
    /* a wall of tiny extent at the origin, points far off its scale:
     * p - A is then inexact in the exact stage in doubles */
    for (i = 0; i < 64; i++) {
        double T[9] = {0, 0, 0, 0x1p-600, 0x1p-599, 0, 0x1p-601, 0x1p-600,
                       1.0};
        double p[3] = {0x1p-600 * (i % 3) / 2, 0x1p-599 * (i % 3) / 2,
                       0.5 + i * 0x1p-60};
        int f, e;
        f = xg_ray_tri_fast(p, T, xg_orient2d(NULL, T, T + 3, T + 6), 0);
        e = xg__ray_tri_exact(NULL, p, T);
        deferred += f == XG_RAY_DEFER;
        CHECK(&t, f == XG_RAY_DEFER || f == e,
              "tiny wall point %d: filter %d, exact %d", i, f, e);
    }
    printf("# diagonal walls: %ld points, %ld on a wall; tiny wall: %ld of "
           "64 deferred\n", t.n, on, deferred);
    tally_ok(&t);
}

static void filter_cases(void)
{
    static const double bases[3][3] = {{500000.25, 7000000.5, 350.75},
                                       {499999.75, 6999999.5, -1250.125},
                                       {0, 0, 0}};
    struct tally t = {"xg_ray_tri_fast agrees with xg__ray_tri_exact "
                      "or defers", 0, 0};
    long n = 0, deferred = 0, kinds[4] = {0}, i, ng = 0, dg = 0;
    for (i = 0; i < 150000; i++) {
        const double *base = bases[rng_int(3)];
        double T[9], p[3], bx[6];
        int f, e, generic;
        generic = filter_triangle(T, base);
        generic &= filter_point(p, T, base);
        xg__tri_box(T, bx);
        if (xg__tri_is_degenerate(NULL, T) || !xg__ray_box_holds(p, bx))
            continue;
        /* with the shortcut below the lowest vertex where it holds, and
         * without it: both must agree with the exact stage */
        f = xg_ray_tri_fast(p, T, xg_orient2d(NULL, T, T + 3, T + 6),
                            i & 1 ? p[2] < bx[2] : 0);
        e = xg__ray_tri_exact(NULL, p, T);
        n++;
        deferred += f == XG_RAY_DEFER;
        ng += generic;
        dg += generic && f == XG_RAY_DEFER;
        if (e >= 0 && e < 3)
            kinds[e]++;
        CHECK(&t, (e == XG_RAY_MISS || e == XG_RAY_CROSS || e == XG_RAY_ON) &&
                      (f == XG_RAY_DEFER || f == e),
              "filter %d, exact %d: p %.17g %.17g %.17g, triangle %.17g "
              "%.17g %.17g  %.17g %.17g %.17g  %.17g %.17g %.17g",
              f, e, p[0], p[1], p[2], T[0], T[1], T[2], T[3], T[4], T[5],
              T[6], T[7], T[8]);
    }
    printf("# ray filter: %ld pairs (%ld miss, %ld cross, %ld on), %ld "
           "deferred (%.2f%%)\n",
           n, kinds[XG_RAY_MISS], kinds[XG_RAY_CROSS], kinds[XG_RAY_ON],
           deferred, n ? 100.0 * (double)deferred / (double)n : 0.0);
    printf("# ray filter, arbitrary triangles and points only: %ld pairs, "
           "%ld deferred (%.2f%%)\n",
           ng, dg, ng ? 100.0 * (double)dg / (double)ng : 0.0);
    CHECK(&t, kinds[XG_RAY_MISS] > 1000 && kinds[XG_RAY_CROSS] > 1000 &&
                  kinds[XG_RAY_ON] > 1000,
          "every answer well represented");
    tally_ok(&t);
}

/* ---- bad input ---- */

struct cancel_at {
    int calls, at;
    double last;
    int backwards;
};

static int progress(double fraction, void *user)
{
    struct cancel_at *c = user;
    c->calls++;
    c->backwards |= fraction < c->last || fraction > 1;
    c->last = fraction;
    return c->calls == c->at;
}

static void bad_input(void)
{
    struct xg_set pts = {0}, segs = {0}, tris = {0}, none = {0}, bad = {0};
    struct xg_contacts out = {0, 0, NULL}, ref = {0, 0, NULL};
    struct xg_opts opt;
    struct xg_stats st;
    double p[3], q[3];
    int rc, e, i;

    memcpy(O, (double[3]){500000.25, 7000000.5, 350.75}, sizeof O);
    box(&tris, 1, 0, 0, 0, 3, 3, 3);
    at(p, 1, 1, 1);
    at(q, 2, 2, 2);
    xg_set_push_point(&pts, p, 1, 0);
    xg_set_push_segment(&segs, p, q, 1, 0);
    memset(&opt, 0, sizeof opt);

    rc = xg_inside(ctx, &segs, &tris, NULL, &out, NULL);
    ok(rc == XG_EINVAL && strstr(xg_ctx_errmsg(ctx), "segments, not points"),
       "segments as A: %d \"%s\"", rc, xg_ctx_errmsg(ctx));
    rc = xg_inside(ctx, &tris, &tris, NULL, &out, NULL);
    ok(rc == XG_EINVAL, "triangles as A: %d", rc);
    rc = xg_inside(ctx, &pts, &pts, NULL, &out, NULL);
    ok(rc == XG_EINVAL && strstr(xg_ctx_errmsg(ctx), "points, not triangles"),
       "points as B: %d \"%s\"", rc, xg_ctx_errmsg(ctx));
    rc = xg_inside(ctx, &pts, &segs, NULL, &out, NULL);
    ok(rc == XG_EINVAL, "segments as B: %d", rc);

    /* non-finite coordinates, in A and in B */
    for (i = 0; i < 3; i++) {
        double v[9];
        memcpy(v, p, sizeof p);
        v[i] = i == 1 ? INFINITY : NAN;
        xg_set_free(&bad);
        xg_set_push_point(&bad, p, 1, 0);
        xg_set_push_point(&bad, v, 77, 0);
        rc = xg_inside(ctx, &bad, &tris, NULL, &out, NULL);
        ok(rc == XG_EINVAL && out.n == 0 &&
               strstr(xg_ctx_errmsg(ctx), "feature 77"),
           "non-finite point coordinate %d: %d \"%s\"", i, rc,
           xg_ctx_errmsg(ctx));
        xg_set_free(&bad);
        memcpy(v, tris.xyz + 9 * 5, sizeof v);
        v[3 * i + i] = i == 2 ? -INFINITY : NAN;
        xg_set_push(&bad, XG_ELEM_TRIANGLE, tris.xyz, 1, 0);
        xg_set_push(&bad, XG_ELEM_TRIANGLE, v, 78, 0);
        rc = xg_inside(ctx, &pts, &bad, NULL, &out, NULL);
        ok(rc == XG_EINVAL && out.n == 0 &&
               strstr(xg_ctx_errmsg(ctx), "feature 78"),
           "non-finite triangle coordinate %d: %d \"%s\"", i, rc,
           xg_ctx_errmsg(ctx));
    }

    /* empty sets, on both engines */
    for (e = XG_ENGINE_SEQ; e <= XG_ENGINE_CPU; e++) {
        opt.engine = e;
        for (opt.outside = 0; opt.outside < 2; opt.outside++) {
            rc = xg_inside(ctx, &none, &tris, &opt, &out, &st);
            ok(rc == XG_OK && out.n == 0, "%s, outside %d: no points, no "
               "records (%d, %zu)", xg_engine_name(e), opt.outside, rc,
               out.n);
            rc = xg_inside(ctx, &pts, &none, &opt, &out, &st);
            ok(rc == XG_OK &&
                   out.n == (size_t)opt.outside &&
                   (!out.n || (out.v[0].kind == XG_KIND_OUTSIDE &&
                               out.v[0].b == UINT32_MAX && out.v[0].a == 0)),
               "%s, outside %d: no triangles, %d record(s) (%d, %zu)",
               xg_engine_name(e), opt.outside, opt.outside, rc, out.n);
            rc = xg_inside(ctx, &none, &none, &opt, &out, &st);
            ok(rc == XG_OK && out.n == 0, "%s, outside %d: nothing at all",
               xg_engine_name(e), opt.outside);
        }
    }
    opt.outside = 0;

    /* NULL context, options and stats */
    rc = xg_inside(ctx, &pts, &tris, NULL, &ref, NULL);
    ok(rc == XG_OK && ref.n == 1 && ref.v[0].kind == XG_KIND_INSIDE,
       "NULL options and stats: the point is inside (%d, %zu)", rc, ref.n);
    rc = xg_inside(NULL, &pts, &tris, NULL, &out, NULL);
    ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX,
       "NULL context: the same (%d)", rc);

    /* cancellation: 20000 points (several chunks and progress calls),
     * cancelled at the first call, later ones, the last; out empty */
    xg_set_free(&pts);
    for (i = 0; i < 20000; i++) {
        at(p, rng_range(-1, 4), rng_range(-1, 4), rng_range(-1, 4));
        xg_set_push_point(&pts, p, i, 0);
    }
    for (e = XG_ENGINE_SEQ; e <= XG_ENGINE_CPU; e++) {
        struct cancel_at c = {0, 0, 0, 0};
        int calls, at_call;
        opt.engine = e;
        xg_ctx_set_threads(ctx, 1);   /* a fixed number of calls */
        xg_ctx_set_progress(ctx, progress, &c);
        rc = xg_inside(ctx, &pts, &tris, &opt, &ref, NULL);
        calls = c.calls;
        ok(rc == XG_OK && ref.n > 1000 && calls >= 3 && !c.backwards &&
               c.last == 1.0,
           "%s: %d progress calls, never backwards, last 1 (%d)",
           xg_engine_name(e), calls, rc);
        for (at_call = 1; at_call <= calls;
             at_call = at_call == calls ? calls + 1
                       : at_call < 3        ? at_call + 1
                                            : calls) {
            c.calls = 0;
            c.at = at_call;
            c.last = 0;
            rc = xg_inside(ctx, &pts, &tris, &opt, &out, NULL);
            ok(rc == XG_ECANCEL && out.n == 0 && c.calls == at_call,
               "%s: cancelled at progress call %d of %d: %d, %zu records, "
               "%d calls", xg_engine_name(e), at_call, calls, rc, out.n,
               c.calls);
        }
        rc = xg_inside(ctx, &pts, &tris, &opt, &out, NULL);
        ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX,
           "%s: the next run is whole", xg_engine_name(e));
        xg_ctx_set_progress(ctx, NULL, NULL);
    }
    xg_contacts_free(&out);
    xg_contacts_free(&ref);
    xg_set_free(&pts);
    xg_set_free(&segs);
    xg_set_free(&tris);
    xg_set_free(&bad);
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    double t0 = seconds();
    rng_seed_from_env(0x1d5e13);
    ctx = xg_ctx_new();
    key_cases();
    hand_cases();
    open_cases();
    crossing_cases();
    printf("# hand-built cases: %.2f s\n", seconds() - t0);
    random_solids();
    printf("# random solids: %.2f s\n", seconds() - t0);
    filter_cases();
    wall_cases();
    diagonal_wall_cases();
    lattice_zero_cases();
    printf("# filter: %.2f s\n", seconds() - t0);
    bad_input();
    printf("# bad input: %.2f s\n", seconds() - t0);
    printf("# reference: %ld ray directions redrawn\n", ref_redraws);
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
