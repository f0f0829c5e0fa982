/*
 * gpu_finish_t.c -- the host half of the GPU engines, without a GPU: the
 * hits the kernels make (xg__segtri_hit, xg__redblue_hit of xg_gpu_hit.h,
 * and the device's double-double stage), made here by the same code
 * compiled for the host, then turned into contacts by xg__gpu_finish
 * with each pair's ops, must equal the CPU engine's contacts, on every
 * kind of hit (certified, refined, left to the host, deferred), with one
 * thread or several, and with the paper's duplicate hits dropped.
 */
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "op/segtri/xg_segtri.h"
#include "xg_grid.h"
#include "xg_gpuhost.h"
#include "xg_pair.h"
#include "op/redblue/xg_redblue.h"
#include "xg_dd.h"
#include "xg_boxes.h"
#include "xg_gpu_hit.h"
#include "xg_interval.h"
#include "xg_filter_segtri.h"
#include "xg_test.h"

struct hits {
    struct xg_gpu_hit *v;
    size_t n, cap;
    size_t flags[4];            /* XG_GPU_HIT_* */
};

static void push(struct hits *h, const struct xg_gpu_hit *x)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->v = realloc(h->v, h->cap * sizeof *h->v);
        if (!h->v)
            abort();
    }
    h->v[h->n++] = *x;
    h->flags[x->flag]++;
}

static int cmp_hit(const void *x, const void *y)
{
    const struct xg_gpu_hit *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* The device's order: by (a, b), as xg__cuda_sort_hits leaves them. */
static void sort_hits(struct hits *h)
{
    qsort(h->v, h->n, sizeof *h->v, cmp_hit);
}

/* ---- segment-triangle ---- */

/* Lattice coordinates (multiples of 1/4 over a few units, at UTM
 * offsets) make coplanar segments, crossings through vertices and
 * edges, endpoints on triangles: deferred hits. */
static void make_segtri(struct xg_set *a, struct xg_set *b, size_t na,
                        size_t nb, int lattice, double spread)
{
    double o[3] = {500000.25, 7000000.5, 250.0};
    size_t i;
    int k, j;
    for (i = 0; i < na; i++) {
        double p[3], q[3];
        for (k = 0; k < 3; k++) {
            if (lattice) {
                p[k] = o[k] + rng_int(9) * 0.25;
                q[k] = o[k] + rng_int(9) * 0.25;
            } else {
                p[k] = o[k] + rng_unit() * spread;
                q[k] = p[k] + (rng_unit() - 0.5) * spread * 0.2;
            }
        }
        xg_set_push_segment(a, p, q, (int64_t)i, 0);
    }
    for (i = 0; i < nb; i++) {
        double v[3][3];
        for (k = 0; k < 3; k++) {
            double c = o[k] + rng_unit() * spread;
            for (j = 0; j < 3; j++)
                v[j][k] = lattice ? o[k] + rng_int(9) * 0.25
                                  : c + (rng_unit() - 0.5) * spread * 0.1;
        }
        xg_set_push_triangle(b, v[0], v[1], v[2], (int64_t)i, 0);
    }
}

/* What the segtri kernels write: every pair whose boxes meet, in the
 * cell that owns it, through the fast pass; then the device's
 * double-double stage (k_refine) on the CONSTRUCT hits, here on every
 * other one so that the host rounds the rest. */
static void segtri_hits(const struct xg_grid *g, const struct xg_set *a,
                        const struct xg_set *b, struct hits *h)
{
    size_t c, k, construct = 0;
    for (c = 0; c < g->ncell; c++) {
        uint32_t ia, ib;
        for (ia = g->a_start[c]; ia < g->a_start[c + 1]; ia++)
            for (ib = g->b_start[c]; ib < g->b_start[c + 1]; ib++) {
                uint32_t i = g->a_items[ia], j = g->b_items[ib];
                const double *s = a->xyz + 6 * (size_t)i;
                const double *t = b->xyz + 9 * (size_t)j;
                struct xg_iv tt = {0.0, 0.0};
                struct xg_gpu_hit x;
                int r;
                if (!xg__boxes_meet(g->a_box + 6 * (size_t)i,
                                    g->b_box + 6 * (size_t)j) ||
                    !xg__grid_owns(g, c, g->a_cell + 6 * (size_t)i,
                                   g->b_cell + 6 * (size_t)j))
                    continue;
                r = xg_segtri_fast(s, t, &tt);
                if (r == XG_SEGTRI_MISS)
                    continue;
                xg__segtri_hit(r, i, j, s, tt, &x);
                push(h, &x);
            }
    }
    for (k = 0; k < h->n; k++) {
        struct xg_gpu_hit *x = &h->v[k];
        const double *s = a->xyz + 6 * (size_t)x->a;
        if (x->flag != XG_GPU_HIT_CONSTRUCT || construct++ % 2)
            continue;
        if (xg_plane_point_dd(b->xyz + 9 * (size_t)x->b, s, s + 3, x->p)) {
            x->flag = XG_GPU_HIT_DONE_DD;
            h->flags[XG_GPU_HIT_CONSTRUCT]--;
            h->flags[XG_GPU_HIT_DONE_DD]++;
        } else {
            x->p[0] = x->p[1] = x->p[2] = 0.0;
        }
    }
}

static void check_segtri(struct xg_ctx *ctx, const char *what, size_t na,
                         size_t nb, int lattice, double spread)
{
    struct xg_set a = {0};
    struct xg_set b = {0};
    struct xg_contacts ref = {0}, out = {0}, out1 = {0};
    struct xg_stats st, sg;
    struct xg_opts opt;
    struct xg_grid g;
    struct hits h = {0};
    uint64_t constructed = 0, c1 = 0;
    int rc, rc1;

    make_segtri(&a, &b, na, nb, lattice, spread);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    rc = xg_segtri(ctx, &a, &b, &opt, &ref, &st);
    memset(&sg, 0, sizeof sg);
    if (rc == XG_OK)
        rc = xg__segtri_prepare(ctx, &a, &b, &opt, 2, &g, &sg);
    if (!ok(rc == XG_OK, "%s: cpu engine and preparation ran", what))
        return;
    segtri_hits(&g, &a, &b, &h);
    sort_hits(&h);
    rc = xg__gpu_finish(ctx, xg__segtri_ops, a.xyz, b.xyz, h.v, h.n, 0,
                        &out, &sg, &constructed);
    ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX,
       "%s: hits made as the kernels make them, finished on the host, "
       "equal the cpu engine (%zu contacts from %zu hits: %zu certified, "
       "%zu double-double, %zu rounded on the host, %zu deferred)",
       what, ref.n, h.n, h.flags[XG_GPU_HIT_DONE],
       h.flags[XG_GPU_HIT_DONE_DD], h.flags[XG_GPU_HIT_CONSTRUCT],
       h.flags[XG_GPU_HIT_DEFER]);
    ok(sg.deferred == h.flags[XG_GPU_HIT_DEFER] &&
           constructed == h.flags[XG_GPU_HIT_CONSTRUCT] &&
           sg.contacts[0] + sg.contacts[1] + sg.contacts[2] == out.n &&
           sg.contacts[0] == st.contacts[0] &&
           sg.contacts[1] == st.contacts[1] &&
           sg.contacts[2] == st.contacts[2],
       "%s: deferred (%llu), rounded on the host (%llu) and the kinds "
       "counted as they happened", what, (unsigned long long)sg.deferred,
       (unsigned long long)constructed);
    /* One thread: the same contacts in the same order. */
    xg_ctx_set_threads(ctx, 1);
    rc1 = xg__gpu_finish(ctx, xg__segtri_ops, a.xyz, b.xyz, h.v, h.n, 0,
                         &out1, &sg, &c1);
    xg_ctx_set_threads(ctx, 4);
    ok(rc1 == XG_OK && xg_contacts_diff(&out, &out1) == SIZE_MAX,
       "%s: one thread or four, the same contacts", what);
    xg__grid_free(&g);
    free(h.v);
    xg_contacts_free(&ref);
    xg_contacts_free(&out);
    xg_contacts_free(&out1);
    xg_set_free(&a);
    xg_set_free(&b);
}

/* ---- red/blue ---- */

static void make_segs(struct xg_set *s, size_t n, int lattice, double span)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double p[3] = {500000.25, 7000000.5, 0}, q[3] = {0, 0, 0};
        if (lattice) {
            p[0] += rng_int((int)span);
            p[1] += rng_int((int)span);
            q[0] = p[0] + rng_int(7) - 3;
            q[1] = p[1] + rng_int(7) - 3;
            if (rng_int(5) == 0)
                q[1] = nextafter(q[1], INFINITY);
        } else {
            p[0] += span * rng_unit();
            p[1] += span * rng_unit();
            q[0] = p[0] + 6 * rng_unit() - 3;
            q[1] = p[1] + 6 * rng_unit() - 3;
        }
        xg_set_push_segment(s, p, q, (int64_t)i, 0);
    }
}

/* What the red/blue kernels write.  Ours: the pairs whose boxes meet, in
 * the cell that owns them.  The paper's: every pair sharing a cell, once
 * per cell, with no box test. */
static void redblue_hits(const struct xg_grid *g, const struct xg_set *a,
                         const struct xg_set *b, int paper, struct hits *h)
{
    size_t c;
    for (c = 0; c < g->ncell; c++) {
        uint32_t ia, ib;
        for (ia = g->a_start[c]; ia < g->a_start[c + 1]; ia++)
            for (ib = g->b_start[c]; ib < g->b_start[c + 1]; ib++) {
                uint32_t i = g->a_items[ia], j = g->b_items[ib];
                struct xg_gpu_hit x;
                if (!paper &&
                    (!xg__boxes_meet(g->a_box + 6 * (size_t)i,
                                     g->b_box + 6 * (size_t)j) ||
                     !xg__grid_owns(g, c, g->a_cell + 6 * (size_t)i,
                                    g->b_cell + 6 * (size_t)j)))
                    continue;
                if (xg__redblue_hit(a->xyz + 6 * (size_t)i,
                                    b->xyz + 6 * (size_t)j, i, j, &x))
                    push(h, &x);
            }
    }
}

/* The GPU's directed rounding certifies exact zero sides (shared
 * vertices, T-junctions, collinear overlaps) that the host's widened
 * intervals defer: such hits reach the host as a touch with its point or
 * an overlap.  Made here, from the exact answer, for every other
 * deferred hit that is a touch or an overlap. */
static size_t certify_zeros(const struct xg_set *a, const struct xg_set *b,
                            struct hits *h)
{
    size_t k, n = 0, defer = 0;
    for (k = 0; k < h->n; k++) {
        struct xg_gpu_hit *x = &h->v[k];
        struct xg_counters cnt = {0};
        struct xg_contact c;
        if (x->flag != XG_GPU_HIT_DEFER || defer++ % 2 ||
            !xg__redblue_exact(&cnt, a->xyz + 6 * (size_t)x->a,
                               b->xyz + 6 * (size_t)x->b, &c) ||
            c.kind == XG_KIND_PROPER)
            continue;
        x->kind = c.kind;
        x->flag = XG_GPU_HIT_DONE;
        x->p[0] = c.kind == XG_KIND_TOUCH ? c.p[0] : 0.0;
        x->p[1] = c.kind == XG_KIND_TOUCH ? c.p[1] : 0.0;
        h->flags[XG_GPU_HIT_DEFER]--;
        h->flags[XG_GPU_HIT_DONE]++;
        n++;
    }
    return n;
}

static void check_redblue(struct xg_ctx *ctx, const char *what, size_t n,
                          int lattice, double span)
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts ref = {0}, out = {0}, pap = {0}, dup = {0};
    struct xg_stats st, sg;
    struct xg_opts opt;
    struct xg_grid g;
    struct hits h = {0}, hp = {0};
    uint64_t constructed = 0;
    size_t zeros;
    int rc, rc2 = XG_OK, rc3 = XG_OK;

    make_segs(&a, n, lattice, span);
    make_segs(&b, n + 17, lattice, span);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    opt.grid[2] = 1;
    rc = xg_redblue(ctx, &a, &b, &opt, &ref, &st);
    memset(&sg, 0, sizeof sg);
    if (rc == XG_OK)
        rc = xg__redblue_prepare(ctx, &a, &b, &opt, 2, &g, &sg);
    if (!ok(rc == XG_OK, "%s: cpu engine and preparation ran", what))
        return;
    redblue_hits(&g, &a, &b, 0, &h);
    zeros = certify_zeros(&a, &b, &h);
    sort_hits(&h);
    rc = xg__gpu_finish(ctx, xg__redblue_ops, a.xyz, b.xyz, h.v, h.n, 0,
                        &out, &sg, &constructed);
    ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX &&
           sg.deferred == h.flags[XG_GPU_HIT_DEFER],
       "%s: hits made as the kernels make them, finished on the host, "
       "equal the cpu engine (%zu contacts: %llu proper, %llu touch, %llu "
       "overlap; %zu hits: %zu certified, %zu of them touches and "
       "overlaps, %zu left to the host, %zu deferred)",
       what, ref.n, (unsigned long long)st.contacts[0],
       (unsigned long long)st.contacts[1],
       (unsigned long long)st.contacts[2], h.n, h.flags[XG_GPU_HIT_DONE],
       zeros, h.flags[XG_GPU_HIT_CONSTRUCT], h.flags[XG_GPU_HIT_DEFER]);
    redblue_hits(&g, &a, &b, 1, &hp);
    sort_hits(&hp);
    memset(&sg, 0, sizeof sg);
    rc2 = xg__gpu_finish(ctx, xg__redblue_ops, a.xyz, b.xyz, hp.v, hp.n, 1,
                         &pap, &sg, &constructed);
    rc3 = xg__gpu_finish(ctx, xg__redblue_ops, a.xyz, b.xyz, hp.v, hp.n, 0,
                         &dup, &sg, &constructed);
    ok(rc2 == XG_OK && xg_contacts_diff(&ref, &pap) == SIZE_MAX &&
           rc3 == XG_OK && dup.n > pap.n,
       "%s: the paper's pair list (%zu hits, pairs repeated across cells) "
       "with duplicates dropped equals the cpu engine (%zu without the "
       "dropping)", what, hp.n, dup.n);
    xg__grid_free(&g);
    free(h.v);
    free(hp.v);
    xg_contacts_free(&ref);
    xg_contacts_free(&out);
    xg_contacts_free(&pap);
    xg_contacts_free(&dup);
    xg_set_free(&a);
    xg_set_free(&b);
}

int main(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_contacts out = {0};
    struct xg_stats st;
    uint64_t constructed = 0;
    int rc;

    rng_seed_from_env(0x6770755f66696e);
    xg_ctx_set_threads(ctx, 4);
    memset(&st, 0, sizeof st);
    rc = xg__gpu_finish(ctx, xg__segtri_ops, NULL, NULL, NULL, 0, 0, &out,
                        &st, &constructed);
    ok(rc == XG_OK && out.n == 0, "no hits: no contacts");
    xg_contacts_free(&out);
    check_segtri(ctx, "segtri random", 3000, 20000, 0, 40.0);
    check_segtri(ctx, "segtri degenerate lattice", 600, 600, 1, 2.0);
    check_redblue(ctx, "red/blue lattice", 6000, 1, 40.0);
    check_redblue(ctx, "red/blue random UTM", 20000, 0, 600.0);
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
