/*
 * inside.c -- xg_inside: points in closed solids.  The entry, the exact
 * stage of the ray test, and the seq engine: the seed's origin
 * tetrahedra over every triangle, made exact by a symbolic shift of the
 * point (docs/semantics.md, "inside").
 */
#include <stdlib.h>
#include <string.h>
#include "xg_engine.h"
#include "xg_inside.h"
#include "xg_ctx.h"
#include "xg_exact.h"
#include "op/segtri/xg_segtri.h"
#include "xg_sets.h"
#include "xg_pair.h"
#include "xg_regions.h"

int xg__inside_record(struct xg_contacts *out, uint32_t a, const double *p,
                      uint32_t b, int kind)
{
    struct xg_contact c = xg__inside_contact(a, p, b, kind);
    return xg__contacts_push(out, &c);
}

/* ---- exact tests ---- */

/* out = (v[i], v[j]): a point projected onto two of its axes. */
static void take2(const double *v, int i, int j, double out[2])
{
    out[0] = v[i];
    out[1] = v[j];
}

int xg__point_on_tri(struct xg_counters *cnt, const double *p,
                     const double *tri)
{
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    double a2[2], b2[2], c2[2], p2[2];
    int orient, axis, k;
    if (xg_orient3d(cnt, A, B, C, p) != XG_ZERO)
        return 0;
    if ((axis = xg__projection_axis(cnt, tri, &orient)) < 0)
        return 0;
    xg__project(A, axis, a2);
    xg__project(B, axis, b2);
    xg__project(C, axis, c2);
    xg__project(p, axis, p2);
    for (k = 0; k < 3; k++) {
        const double *u = k == 0 ? a2 : k == 1 ? b2 : c2;
        const double *v = k == 0 ? b2 : k == 1 ? c2 : a2;
        if (xg_orient2d(cnt, u, v, p2) == -orient)
            return 0;
    }
    return 1;
}

int xg__ray_tri_exact(struct xg_counters *cnt, const double *p,
                      const double *tri)
{
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    int s, o[3], in, r;
    s = xg_orient2d(cnt, A, B, C);
    o[0] = xg_orient2d(cnt, A, B, p);
    o[1] = xg_orient2d(cnt, B, C, p);
    o[2] = xg_orient2d(cnt, C, A, p);
    r = xg_ray_xy(s, o, tri, &in);
    if (r == XG_RAY_WALL)
        return xg__point_on_tri(cnt, p, tri) ? XG_RAY_ON : XG_RAY_MISS;
    if (r != XG_RAY_PLANE)
        return r;
    return xg_ray_plane(s, xg_orient3d(cnt, A, B, C, p), in);
}

/* The sign of orient3d(a, b, c, p + (e, e^2, e^3)), d0 that of
 * orient3d(a, b, c, p).  orient3d(a, b, c, x) = (a - x) . n with
 * n = (b - a) x (c - a), so the shift adds -(n_x e + n_y e^2 + n_z e^3);
 * n_x, n_y, n_z are orient2d of a, b, c seen in (y, z), (z, x), (x, y). */
static int orient3d_shift(struct xg_counters *cnt, const double *a,
                          const double *b, const double *c, int d0)
{
    static const int axes[3][2] = {{1, 2}, {2, 0}, {0, 1}};
    double a2[2], b2[2], c2[2];
    int k, o;
    if (d0 != XG_ZERO)
        return d0;
    for (k = 0; k < 3; k++) {
        take2(a, axes[k][0], axes[k][1], a2);
        take2(b, axes[k][0], axes[k][1], b2);
        take2(c, axes[k][0], axes[k][1], c2);
        if ((o = xg_orient2d(cnt, a2, b2, c2)) != XG_ZERO)
            return -o;
    }
    return XG_ZERO;
}

int xg__origin_tet_holds(struct xg_counters *cnt, const double *p,
                         const double *tri, int d)
{
    static const double O[3] = {0.0, 0.0, 0.0};
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    int v = xg_orient3d(cnt, A, B, C, O);
    /* The faces' orientations are V for (A, B, C | O) and -V for
     * (O, B, C | A), (O, C, A | B), (O, A, B | C): odd permutations. */
    if (v == XG_ZERO)
        return 0;           /* a flat tetrahedron holds nothing */
    if (orient3d_shift(cnt, A, B, C, d) != v)
        return 0;
    if (orient3d_shift(cnt, O, B, C, xg_orient3d(cnt, O, B, C, p)) != -v)
        return 0;
    if (orient3d_shift(cnt, O, C, A, xg_orient3d(cnt, O, C, A, p)) != -v)
        return 0;
    return orient3d_shift(cnt, O, A, B, xg_orient3d(cnt, O, A, B, p)) == -v;
}

int xg__inside_seq_point(struct xg_counters *cnt, const double *p,
                         const double *tri, size_t t0, size_t t1)
{
    size_t t;
    int parity = 0;
    for (t = t0; t < t1; t++) {
        const double *T = tri + 9 * t;
        int d = xg_orient3d(cnt, T, T + 3, T + 6, p);
        if (d == XG_ZERO && xg__point_on_tri(cnt, p, T))
            return XG_KIND_BOUNDARY;
        parity ^= xg__origin_tet_holds(cnt, p, T, d);
    }
    return parity ? XG_KIND_INSIDE : XG_KIND_OUTSIDE;
}

int xg_inside_point(struct xg_counters *cnt, const double p[3],
                    const double *tri, size_t ntri)
{
    size_t t;
    int parity = 0;
    for (t = 0; t < ntri; t++) {
        const double *T = tri + 9 * t;
        int r;
        if (xg__tri_is_degenerate(cnt, T))
            continue;
        r = xg__ray_tri_exact(cnt, p, T);
        if (r == XG_RAY_ON)
            return XG_KIND_BOUNDARY;
        parity ^= r == XG_RAY_CROSS;
    }
    return parity ? XG_KIND_INSIDE : XG_KIND_OUTSIDE;
}

/* ---- the seq engine ---- */

/* The seq engine (the paper's baseline): each point of a against every
 * triangle of every solid of S, no grid; its records appended to out in
 * point order, then solid order, and one outside record for a point in
 * no solid when opt->outside.  XG_OK, XG_ECANCEL or XG_ENOMEM, the
 * message in ctx. */
static int inside_seq(struct xg_ctx *ctx, const struct xg_set *a,
                      const struct xg__solids *S, const struct xg_opts *opt,
                      struct xg_contacts *out, struct xg_stats *st)
{
    size_t i, s;
    int rc = XG_OK;
    for (i = 0; i < a->n && rc == XG_OK; i++) {
        const double *p = a->xyz + 3 * i;
        int any = 0;
        if ((i & 1023) == 1023 &&
            xg__cancelled_at(ctx, (double)i / (double)a->n))
            return xg__error(ctx, XG_ECANCEL, "cancelled");
        for (s = 0; s < S->nsolid && rc == XG_OK; s++) {
            size_t t0 = S->tri_start[s], t1 = S->tri_start[s + 1];
            int kind = xg__inside_seq_point(&st->cnt, p, S->tri, t0, t1);
            st->candidates += t1 - t0;
            st->bbox_pairs += t1 - t0;
            if (kind != XG_KIND_OUTSIDE) {
                any = 1;
                rc = xg__inside_record(out, (uint32_t)i, p, S->first[s],
                                       kind);
            }
        }
        if (!any && opt->outside && rc == XG_OK)
            rc = xg__inside_record(out, (uint32_t)i, p, UINT32_MAX,
                                   XG_KIND_OUTSIDE);
    }
    return rc == XG_OK ? XG_OK : xg__error(ctx, rc, "out of memory");
}

/* ---- the entry ---- */

/* A point's box, the point: never skipped. */
static int point_box(struct xg_counters *cnt, const double *p, double *box)
{
    (void)cnt;
    memcpy(box, p, 3 * sizeof *box);
    memcpy(box + 3, p, 3 * sizeof *box);
    return 0;
}

/* What xg__pair_begin checks of the sets (kinds, sizes, coordinates),
 * and the boxes the partitioned run selects elements by. */
static const struct xg__pair_ops inside_ops = {
    XG_ELEM_POINT, XG_ELEM_TRIANGLE, 3, point_box, xg__tri_box_kept,
    NULL, NULL, NULL, 1};

int xg__inside_check_finite(struct xg_ctx *ctx, const struct xg_set *s,
                            int is_a)
{
    return xg__pair_check_finite(ctx, &inside_ops, s, is_a);
}

/* The whole run, one region (opt, st not NULL). */
static int inside_one(struct xg_ctx *ctx, const struct xg_set *a,
                      const struct xg_set *b, const struct xg_opts *opt,
                      struct xg_contacts *out, struct xg_stats *st)
{
    struct xg__solids S;
    int engine, rc;
    double t0;

    rc = xg__pair_begin(ctx, &inside_ops, a, b, opt, out, st, &engine);
    if (rc != XG_OK)
        return rc;
    if (engine == XG_ENGINE_GPU)
        return xg__pair_end(ctx, xg__engine_pair(ctx, &xg__op_inside,
                                                 XG_ENGINE_GPU, a, b, opt,
                                                 NULL, out, st),
                            out, st);
    t0 = xg__now();
    rc = xg__solids_prepare(ctx, b, opt, engine == XG_ENGINE_CPU
                                             ? xg__threads(ctx) : 1,
                            1, &S, st);
    st->seconds[XG_STAGE_PREPARE] = xg__now() - t0;
    if (rc == XG_OK) {
        t0 = xg__now();
        if (engine == XG_ENGINE_SEQ)
            rc = inside_seq(ctx, a, &S, opt, out, st);
        else
            rc = xg__inside_cpu(ctx, a, &S, opt, xg__threads(ctx), out, st);
        st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;
    }
    xg__solids_free(&S);
    return xg__pair_end(ctx, rc, out, st);
}

static const struct xg__region_op inside_region = {&inside_ops, 1,
                                                   inside_one,
                                                   xg__solids_valid,
                                                   &xg__op_inside};
const struct xg__region_op *const xg__inside_region = &inside_region;

int xg_inside(struct xg_ctx *ctx, const struct xg_set *a,
              const struct xg_set *b, const struct xg_opts *opt,
              struct xg_contacts *out, struct xg_stats *st)
{
    return xg__regions_entry(ctx, &inside_region, a, b, opt, out, st);
}
