/*
 * delaunay_t.c -- xg_delaunay and xg_delaunay_check.
 *
 * The reference shares no code with src/: the lifted determinant in GMP
 * rationals with explicit heights (pred_ref.h's ref_lifted),
 * the tie-break evaluated from its definition (raise the heights in
 * descending (x, y) order by an infinitesimal: the first non-zero exact
 * finite difference decides).  Every small result is checked by brute
 * force against it (no distinct point in any triangle's perturbed
 * circle) and by xg_delaunay_check (the tiling); every engine and
 * thread and strip count must give the same list.
 */
#include <gmp.h>
#include "exactgeo.h"
#include "xg_filters.h"
#include "xg_test.h"
#include "pred_ref.h"

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

static int report_clean(const struct xg_delaunay_report *r)
{
    return r->bad_index == 0 && r->not_ccw == 0 && r->bad_edges == 0 &&
           r->missing == 0 && r->count_off == 0 && r->not_delaunay == 0 &&
           r->not_canonical == 0;
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
    ok(report_clean(&rep), "%s: the audit finds nothing (ccw %llu, edges "
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

static void push(struct xg_set *s, double x, double y, double z, int64_t fid)
{
    double p[3] = {x, y, z};
    xg_set_push_point(s, p, fid, 0);
}

int main(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    static const double off[3][2] = {{0, 0}, {500000.25, 7000000.5},
                                     {-3.0e-3, 1.0e-4}};
    int o, i, j;
    rng_seed_from_env(14);

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
                for (j = 0; j < sizes[i]; j++)
                    push(&s, ox + rng_unit() * 100, oy + rng_unit() * 100, j,
                         j);
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
            for (i = 0; i < m; i++)
                for (j = 0; j < m; j++)
                    push(&s, ox + i * 0.5, oy + j * 0.5, 0, i * m + j);
            snprintf(name, sizeof name, "%dx%d square lattice at %s", m, m, at);
            check_set(ctx, &s, name, 1, (size_t)2 * (m - 1) * (m - 1));
            xg_set_free(&s);
        }
        /* a rotated lattice (3-4-5), as in delaunator #61 */
        {
            struct xg_set s = {0};
            int m = 14;
            for (i = 0; i < m; i++)
                for (j = 0; j < m; j++)
                    push(&s, ox + (3 * i - 4 * j) * 0.25,
                         oy + (4 * i + 3 * j) * 0.25, 0, i * m + j);
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
            long r2 = 25L * 169 * 289;
            long x;
            int nc = 0;
            for (x = -1105; x <= 1105; x++) {
                long y2 = r2 - x * x, y = (long)sqrt((double)y2);
                while (y * y > y2)
                    y--;
                while ((y + 1) * (y + 1) <= y2)
                    y++;
                if (y * y != y2)
                    continue;
                push(&s, ox + x / 64.0, oy + y / 64.0, 0, nc++);
                if (y)
                    push(&s, ox + x / 64.0, oy - y / 64.0, 0, nc++);
            }
            snprintf(name, sizeof name, "%d cocircular points at %s", nc, at);
            check_set(ctx, &s, name, 1, (size_t)nc - 2);
            push(&s, ox, oy, 0, nc);
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
                push(&s, ox + i, oy, 0, k++);
                push(&s, ox + i, oy + 20, 0, k++);
                push(&s, ox + i, oy + 10, 0, k++);
                if (i > 0 && i < 20) {
                    push(&s, ox, oy + i, 0, k++);
                    push(&s, ox + 20, oy + i, 0, k++);
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
                push(&s, x, y, i % 3 == 0 ? 1.0 : 0.0, 1000 - i);
                if (i % 5 == 0)
                    push(&s, nextafter(x, 1e300), y, 0, 5000 + i);
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
                push(&s, ox + i * 0.5, o == 2 ? oy : oy + i * 0.25, 0, i);
            triangulate(ctx, &s, XG_ENGINE_SEQ, 1, 0, &r);
            ok(r.rc == XG_EDEGENERATE && r.t.n == 0, "collinear at %s: "
               "seq refuses (%s)", at, xg_ctx_errmsg(ctx));
            triangulate(ctx, &s, XG_ENGINE_CPU, 2, 3, &r);
            ok(r.rc == XG_EDEGENERATE && r.t.n == 0, "collinear at %s: cpu "
               "refuses", at);
            xg_set_free(&s);
            push(&s, ox, oy, 0, 0);
            push(&s, ox, oy, 1, 1);
            push(&s, ox + 1, oy, 0, 2);
            push(&s, ox + 1, oy, 0, 3);
            triangulate(ctx, &s, XG_ENGINE_SEQ, 1, 0, &r);
            ok(r.rc == XG_EDEGENERATE, "two distinct points at %s: refused",
               at);
            xg_set_free(&s);
        }
    }
    /* a point a hair off a hull edge */
    {
        struct xg_set s = {0};
        push(&s, 0, 0, 0, 0);
        push(&s, 1, 0, 0, 1);
        push(&s, 0.5, 1e-16, 0, 2);
        push(&s, 0.5, 0.5, 0, 3);
        check_set(ctx, &s, "four points, one 1e-16 off a hull edge", 1, 3);
        xg_set_free(&s);
    }
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
