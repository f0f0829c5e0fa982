/*
 * selfx.c -- where a triangulated surface crosses itself: two of its
 * triangles that meet other than along what they share as a mesh
 * (docs/semantics.md, "inside": "A surface that crosses itself").
 *
 * One pair is decided exactly by segtri's classification of an edge
 * against a triangle (xg__segtri_meets) and the exact orientations;
 * which pairs are looked at is the engines' broad phase: a uniform grid
 * over the triangles' boxes (grid.c), each pair whose boxes meet looked
 * at once, in the cell that owns it (xg_boxes.h), the cells taken in
 * turn by the worker threads.  A surface's answer is its lowest crossing
 * pair, the same on every thread count and timing.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xg_internal.h"
#include "xg_thread.h"

/* ---- one pair ---- */

static int same_point(const double *p, const double *q)
{
    return p[0] == q[0] && p[1] == q[1] && p[2] == q[2];
}

/* Non-zero when the closed edge from vertex k to vertex k + 1 of t meets
 * the closed triangle u. */
static int edge_meets(struct xg_counters *cnt, const double *t, int k,
                      const double *u)
{
    double seg[6];
    memcpy(seg, t + 3 * k, 3 * sizeof *seg);
    memcpy(seg + 3, t + 3 * ((k + 1) % 3), 3 * sizeof *seg);
    return xg__segtri_meets(cnt, seg, u);
}

/* The side of t's plane p lies on where the stages in doubles settle it,
 * XG_UNSURE where they all doubt: the ray test's orient3d
 * (xg_ray_height), whose static stage and exact stage in doubles come
 * before the intervals, as suits a mesh's neighbours, often exactly
 * coplanar (a zero the intervals never prove). */
static int side_fast(const double *t, const double *p)
{
    return xg_ray_height(t, t + 3, t + 6, p);
}

/* The side of t's plane p lies on, exactly: side_fast, then orient3d's
 * stages where it doubts. */
static int side(struct xg_counters *cnt, const double *t, const double *p)
{
    int s = side_fast(t, p);
    return s != XG_UNSURE ? s : xg_orient3d(cnt, t, t + 3, t + 6, p);
}

/* Non-zero when p (in the plane of triangle t, not its vertex k) lies in
 * the closed angle of t at its vertex k: in the projection that keeps
 * t's area (drop, orient: xg__projection_axis's), p on the inner side of
 * neither edge at k, or on it. */
static int in_angle(struct xg_counters *cnt, const double *t, int k,
                    int drop, int orient, const double *p)
{
    double v2[2], b2[2], c2[2], p2[2];
    int s;
    xg__project(t + 3 * k, drop, v2);
    xg__project(t + 3 * ((k + 1) % 3), drop, b2);
    xg__project(t + 3 * ((k + 2) % 3), drop, c2);
    xg__project(p, drop, p2);
    s = xg_orient2d(cnt, v2, b2, p2);
    if (s == -orient)
        return 0;
    s = xg_orient2d(cnt, v2, p2, c2);
    return s != -orient;
}

/* Non-zero when p, in t's plane, lies in its angle at vertex k. */
static int in_angle_of(struct xg_counters *cnt, const double *t, int k,
                       const double *p)
{
    int orient, drop = xg__projection_axis(cnt, t, &orient);
    return in_angle(cnt, t, k, drop, orient, p);
}

/* Non-zero when the vertices of u but the one at skip (-1: none) lie
 * strictly on one side of t's plane, as the filters certify it: then u
 * meets t's plane at most in that vertex, and t at most there.  A doubt
 * says 0, and the edges decide. */
static int plane_apart(const double *t, const double *u, int skip)
{
    int s = XG_UNSURE, k;
    for (k = 0; k < 3; k++) {
        int sk;
        if (k == skip)
            continue;
        sk = side_fast(t, u + 3 * k);
        if ((sk != XG_POS && sk != XG_NEG) || (s != XG_UNSURE && sk != s))
            return 0;
        s = sk;
    }
    return 1;
}

/* t and u share the edge of t's vertices other than k and u's other
 * than l: they cross when they lie in one plane with their third
 * vertices on the same side of that edge (one folded over the other).
 * Off one plane, the planes meet in the edge's line, which each triangle
 * meets in the edge alone. */
static int folded(struct xg_counters *cnt, const double *t, int k,
                  const double *u, int l)
{
    const double *P = t + 3 * ((k + 1) % 3), *Q = t + 3 * ((k + 2) % 3);
    double p2[2], q2[2], c2[2], f2[2];
    int drop, orient;
    if (side(cnt, t, u + 3 * l) != XG_ZERO)
        return 0;
    /* every figure of the plane projects along this axis one to one */
    drop = xg__projection_axis(cnt, t, &orient);
    xg__project(P, drop, p2);
    xg__project(Q, drop, q2);
    xg__project(t + 3 * k, drop, c2);
    xg__project(u + 3 * l, drop, f2);
    return xg_orient2d(cnt, p2, q2, c2) == xg_orient2d(cnt, p2, q2, f2);
}

/* t and u share their vertices t[i] = u[j] = V, and no other.  Their
 * meeting is convex and holds V: anything more is a segment from V.
 * Where u's other two vertices lie strictly on one side of t's plane (or
 * the other way round), u meets that plane in V alone: no crossing.
 * Where one of them, W, lies in t's plane and the other off it, u meets
 * that plane in the segment VW, which goes into t exactly when W lies in
 * t's angle at V.  Where both do, the two lie in one plane, and meet
 * beyond V exactly when their angles at V share a ray: one of the four
 * sides lies in the other's angle (the angles are below 180 degrees).
 * Else each crosses the other's plane, and the far end of their meeting
 * lies on the edge opposite V of one of them, which then meets the other
 * (segtri's test); that edge misses V, so the converse holds too. */
static int vertex_pair(struct xg_counters *cnt, const double *t, int i,
                       const double *u, int j)
{
    const double *e = u + 3 * ((j + 1) % 3), *f = u + 3 * ((j + 2) % 3);
    const double *b = t + 3 * ((i + 1) % 3), *c = t + 3 * ((i + 2) % 3);
    int se = side(cnt, t, e), sf = side(cnt, t, f), sb, sc;
    if (se == sf && se != XG_ZERO)
        return 0;
    if (se == XG_ZERO && sf == XG_ZERO) {
        int orient, drop = xg__projection_axis(cnt, t, &orient), ou;
        double v2[2], e2[2], f2[2];
        xg__project(t + 3 * i, drop, v2);
        xg__project(e, drop, e2);
        xg__project(f, drop, f2);
        ou = xg_orient2d(cnt, v2, e2, f2);
        return in_angle(cnt, t, i, drop, orient, e) ||
               in_angle(cnt, t, i, drop, orient, f) ||
               in_angle(cnt, u, j, drop, ou, b) ||
               in_angle(cnt, u, j, drop, ou, c);
    }
    if (se == XG_ZERO || sf == XG_ZERO)
        return in_angle_of(cnt, t, i, se == XG_ZERO ? e : f);
    sb = side(cnt, u, b);
    sc = side(cnt, u, c);
    if (sb == sc && sb != XG_ZERO)
        return 0;
    if (sb == XG_ZERO || sc == XG_ZERO)
        return in_angle_of(cnt, u, j, sb == XG_ZERO ? b : c);
    return edge_meets(cnt, t, (i + 1) % 3, u) ||
           edge_meets(cnt, u, (j + 1) % 3, t);
}

int xg__tri_pair_cross(struct xg_counters *cnt, const double *t,
                       const double *u)
{
    int mt[3] = {-1, -1, -1}, mu[3] = {-1, -1, -1}, shared = 0, i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (mu[j] < 0 && same_point(t + 3 * i, u + 3 * j)) {
                mt[i] = j;
                mu[j] = i;
                shared++;
                break;
            }
    switch (shared) {
    case 3:                     /* the same face twice */
        return 1;
    case 2:
        for (i = 0; mt[i] >= 0; i++)
            ;
        for (j = 0; mu[j] >= 0; j++)
            ;
        return folded(cnt, t, i, u, j);
    case 1:
        for (i = 0; mt[i] < 0; i++)
            ;
        return vertex_pair(cnt, t, i, u, mt[i]);
    default:
        /* Two closed triangles meet exactly when an edge of one meets
         * the other: their meeting is convex, and its boundary points
         * lie on an edge of one of them. */
        if (plane_apart(t, u, -1) || plane_apart(u, t, -1))
            return 0;
        for (i = 0; i < 3; i++)
            if (edge_meets(cnt, t, i, u) || edge_meets(cnt, u, i, t))
                return 1;
        return 0;
    }
}

/* ---- T-junctions ----
 * A mesh may place a vertex M inside another triangle's edge AB (a
 * T-junction) and close that edge with the collinear triangle A M B,
 * which every engine drops (it bounds no volume).  M is then a vertex of
 * the mesh on AB: the triangles that meet there share a stretch of the
 * mesh, not a crossing.  So a pair of a surface with such junctions that
 * the pair test says cross is looked at again with each triangle cut at
 * the junctions on its edges, as if the mesh had them as vertices: it
 * crosses when two of the pieces do. */

/* Non-zero when p comes before q in (x, y, z) order. */
static int lex_less(const double *p, const double *q)
{
    int k;
    for (k = 0; k < 3; k++)
        if (p[k] != q[k])
            return p[k] < q[k];
    return 0;
}

/* The middle of collinear triangle t (its vertex between the other two),
 * or NULL when two of its vertices are one point (no junction).  Along a
 * line, (x, y, z) order is the line's order, one way or the other. */
const double *xg__tri_middle(const double *t)
{
    const double *a = t, *b = t + 3, *c = t + 6;
    if (same_point(a, b) || same_point(b, c) || same_point(a, c))
        return NULL;
    if (lex_less(a, b) == lex_less(b, c))
        return b;
    if (lex_less(b, a) == lex_less(a, c))
        return a;
    return c;
}

/* Non-zero when m lies strictly inside the segment ab (exact: collinear
 * in the three coordinate planes, and between a and b). */
static int inside_edge(struct xg_counters *cnt, const double *a,
                       const double *b, const double *m)
{
    static const int axes[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    int k;
    if (!(lex_less(a, m) ? lex_less(m, b) : lex_less(m, a) && lex_less(b, m)))
        return 0;
    for (k = 0; k < 3; k++) {
        double a2[2] = {a[axes[k][0]], a[axes[k][1]]};
        double b2[2] = {b[axes[k][0]], b[axes[k][1]]};
        double m2[2] = {m[axes[k][0]], m[axes[k][1]]};
        if (xg_orient2d(cnt, a2, b2, m2) != XG_ZERO)
            return 0;
    }
    return 1;
}

/* Triangles, 9 doubles each, grown as they come. */
struct pieces {
    double *v;
    size_t n, cap;
    int nomem;
};

static void piece(struct pieces *P, const double *a, const double *b,
                  const double *c)
{
    if (P->n == P->cap &&
        xg__grow((void **)&P->v, &P->cap, P->n, 9 * sizeof *P->v)) {
        P->nomem = 1;
        return;
    }
    memcpy(P->v + 9 * P->n, a, 3 * sizeof *a);
    memcpy(P->v + 9 * P->n + 3, b, 3 * sizeof *b);
    memcpy(P->v + 9 * P->n + 6, c, 3 * sizeof *c);
    P->n++;
}

/* Triangle v[0] v[1] v[2] cut at the points on its edges: on[k] (non[k]
 * of them) lie inside edge v[k] -> v[k+1], in that order.  A fan from
 * the corner opposite one edge with points; its first and last triangles
 * keep the other two edges, cut in turn.  Every piece has three points of
 * the mesh for corners, none collinear, and turns as the triangle does. */
static void cut(struct pieces *P, const double *const v[3],
                const double **const on[3], const size_t non[3])
{
    const double *w[3], **won[3] = {NULL, NULL, NULL}, *apex;
    size_t wn[3] = {0, 0, 0}, i;
    int k;
    for (k = 0; k < 3 && !non[k]; k++)
        ;
    if (k == 3) {
        piece(P, v[0], v[1], v[2]);
        return;
    }
    apex = v[(k + 2) % 3];
    /* (apex, v[k], the first point): keeps the edge apex -> v[k] */
    w[0] = apex, w[1] = v[k], w[2] = on[k][0];
    won[0] = on[(k + 2) % 3], wn[0] = non[(k + 2) % 3];
    cut(P, w, won, wn);
    for (i = 0; i + 1 < non[k]; i++)
        piece(P, apex, on[k][i], on[k][i + 1]);
    /* (apex, the last point, v[k+1]): keeps the edge v[k+1] -> apex */
    w[0] = apex, w[1] = on[k][non[k] - 1], w[2] = v[(k + 1) % 3];
    won[0] = NULL, wn[0] = 0;
    won[2] = on[(k + 1) % 3], wn[2] = non[(k + 1) % 3];
    cut(P, w, won, wn);
}

/* Sorts the n points at p along a -> b: (x, y, z) order, or its reverse
 * when b comes before a.  Few: insertion. */
static void along(const double **p, size_t n, const double *a,
                  const double *b)
{
    int down = lex_less(b, a);
    size_t i, k;
    for (i = 1; i < n; i++) {
        const double *x = p[i];
        for (k = i; k > 0 && lex_less(x, p[k - 1]) != down; k--)
            p[k] = p[k - 1];
        p[k] = x;
    }
}

/* t cut at the junctions jn (nj points, 3 doubles each) inside its
 * edges, appended to P; returns the number of junctions on its edges. */
static size_t cut_at(struct xg_counters *cnt, struct pieces *P,
                     const double *t, const double *jn, size_t nj)
{
    const double *v[3] = {t, t + 3, t + 6}, **on[3] = {NULL, NULL, NULL};
    size_t non[3] = {0, 0, 0}, cap[3] = {0, 0, 0}, j, used = 0;
    double box[6];
    int k;
    xg__tri_box(t, box);
    for (k = 0; k < 3 && !P->nomem; k++)
        for (j = 0; j < nj; j++) {
            const double *m = jn + 3 * j;
            if (m[0] < box[0] || m[0] > box[3] || m[1] < box[1] ||
                m[1] > box[4] || m[2] < box[2] || m[2] > box[5] ||
                !inside_edge(cnt, v[k], v[(k + 1) % 3], m))
                continue;
            if (non[k] == cap[k] &&
                xg__grow((void **)&on[k], &cap[k], non[k], sizeof *on[k])) {
                P->nomem = 1;
                break;
            }
            on[k][non[k]++] = m;
        }
    for (k = 0; k < 3; k++) {
        size_t i, n = 0;
        along(on[k], non[k], v[k], v[(k + 1) % 3]);
        for (i = 0; i < non[k]; i++)        /* a junction given twice */
            if (n == 0 || !same_point(on[k][n - 1], on[k][i]))
                on[k][n++] = on[k][i];
        non[k] = n;
        used += n;
    }
    if (!P->nomem)
        cut(P, v, on, non);
    for (k = 0; k < 3; k++)
        free((void *)on[k]);
    return used;
}

/* Whether t and u, which the pair test says cross, cross still once cut
 * at the junctions of their surface (jn, nj): non-zero when two pieces
 * cross, or when no junction lies on their edges (the answer stands).
 * Out of memory: the answer stands, a crossing. */
static int junction_cross(struct xg_counters *cnt, const double *t,
                          const double *u, const double *jn, size_t nj)
{
    struct pieces pt = {0}, pu = {0};
    int r = 1;
    if (cut_at(cnt, &pt, t, jn, nj) + cut_at(cnt, &pu, u, jn, nj) > 0 &&
        !pt.nomem && !pu.nomem) {
        size_t i, j;
        r = 0;
        for (i = 0; i < pt.n && !r; i++)
            for (j = 0; j < pu.n && !r; j++)
                r = xg__tri_pair_cross(cnt, pt.v + 9 * i, pu.v + 9 * j);
    }
    free(pt.v);
    free(pu.v);
    return r;
}

/* ---- all pairs, over a grid ---- */

/* Cells a thread takes at once from the shared cursor. */
#define CHUNK 64
/* Fewer triangles than this: one thread (starting others costs more). */
#define ONE_THREAD 4096

/* A junction a thread found (flat_check): its surface and point. */
struct junction {
    uint32_t surf;
    double p[3];
};

struct selfx_job {
    const double *tri;
    const uint32_t *surf;
    size_t ntri, nsurf;
    int flat_check, nthreads, phase;    /* 0: boxes; 1: pairs */
    int given;                  /* box is the caller's: phase 0 takes the
                                   hulls alone */
    double *box;                /* the triangles' boxes */
    double *hull;               /* per thread: 6 doubles */
    struct junction **found;    /* per thread (flat_check): junctions */
    size_t *nfound, *capfound;
    const double *junc;         /* the surfaces' junctions, 3 doubles */
    const uint32_t *junc_start; /* nsurf + 1; NULL: none */
    struct xg_grid g;
    atomic_size_t next;         /* the next chunk of cells */
    _Atomic uint64_t *best;     /* per surface: its lowest crossing key */
    struct xg_counters *cnt;    /* per thread */
    int *nomem;                 /* per thread */
};

static void boxes(struct selfx_job *J, int tid)
{
    size_t lo, hi, i;
    double *h = J->hull + 6 * tid;
    int k;
    for (k = 0; k < 3; k++) {
        h[k] = HUGE_VAL;
        h[3 + k] = -HUGE_VAL;
    }
    xg__share(J->ntri, J->nthreads, tid, &lo, &hi);
    for (i = lo; i < hi; i++) {
        double *b = J->box + 6 * i;
        const double *t = J->tri + 9 * i;
        if (J->given) {
            if (!xg__box_is_none(b))
                xg__hull_add(h, b);
            continue;
        }
        if (J->flat_check && xg__tri_is_degenerate(&J->cnt[tid], t)) {
            const double *m = xg__tri_middle(t);
            xg__box_none(b);
            if (m) {
                size_t *n = &J->nfound[tid];
                if (*n == J->capfound[tid] &&
                    xg__grow((void **)&J->found[tid], &J->capfound[tid], *n,
                             sizeof **J->found)) {
                    J->nomem[tid] = 1;
                    return;
                }
                J->found[tid][*n].surf = J->surf ? J->surf[i] : 0;
                memcpy(J->found[tid][*n].p, m, sizeof J->found[tid]->p);
                (*n)++;
            }
            continue;
        }
        xg__tri_box(t, b);
        xg__hull_add(h, b);
    }
}

/* key < *best, atomically, for the least key offered. */
static void lower(_Atomic uint64_t *best, uint64_t key)
{
    uint64_t cur = atomic_load_explicit(best, memory_order_relaxed);
    while (key < cur && !atomic_compare_exchange_weak_explicit(
                            best, &cur, key, memory_order_relaxed,
                            memory_order_relaxed))
        ;
}

/* Whether triangles i and j of surface s cross: the pair test, then,
 * where the surface has junctions, the pieces'. */
static int cross(const struct selfx_job *J, uint32_t s, uint32_t i,
                 uint32_t j, struct xg_counters *cnt)
{
    const double *t = J->tri + 9 * (size_t)i, *u = J->tri + 9 * (size_t)j;
    if (!xg__tri_pair_cross(cnt, t, u))
        return 0;
    if (!J->junc_start || J->junc_start[s] == J->junc_start[s + 1])
        return 1;
    return junction_cross(cnt, t, u, J->junc + 3 * (size_t)J->junc_start[s],
                          J->junc_start[s + 1] - J->junc_start[s]);
}

/* The pairs cell c owns.  The cell lists its triangles ascending and
 * the surfaces are numbered in runs, so a triangle's partners of its own
 * surface follow it at once, and its keys (i << 32 | j) grow with j: a
 * key at or past the surface's best ends the triangle's partners. */
static void cell_pairs(struct selfx_job *J, size_t c,
                       struct xg_counters *cnt)
{
    const struct xg_grid *g = &J->g;
    uint32_t p, q, j0 = g->b_start[c], j1 = g->b_start[c + 1];
    for (p = j0; p < j1; p++) {
        uint32_t i = g->b_items[p], s = J->surf ? J->surf[i] : 0;
        const double *bi = g->b_box + 6 * (size_t)i;
        const int32_t *ci = g->b_cell + 6 * (size_t)i;
        for (q = p + 1; q < j1; q++) {
            uint32_t j = g->b_items[q];
            uint64_t key = (uint64_t)i << 32 | j;
            if (J->surf && J->surf[j] != s)
                break;
            if (!xg__boxes_meet(bi, g->b_box + 6 * (size_t)j) ||
                !xg__grid_owns(g, c, ci, g->b_cell + 6 * (size_t)j))
                continue;
            if (key >= atomic_load_explicit(&J->best[s],
                                            memory_order_relaxed))
                break;
            if (cross(J, s, i, j, cnt)) {
                lower(&J->best[s], key);
                break;
            }
        }
    }
}

static void selfx_worker(void *arg, int tid)
{
    struct selfx_job *J = arg;
    size_t c0, c;
    if (J->phase == 0) {
        boxes(J, tid);
        return;
    }
    while ((c0 = atomic_fetch_add(&J->next, CHUNK)) < J->g.ncell)
        for (c = c0; c < c0 + CHUNK && c < J->g.ncell; c++)
            cell_pairs(J, c, &J->cnt[tid]);
}

/* The junctions the threads found, by surface, into *junc (3 doubles
 * each) and *start (nsurf + 1); both NULL when there are none.  XG_OK or
 * XG_ENOMEM. */
static int junctions_by_surface(const struct selfx_job *J, double **junc,
                                uint32_t **start)
{
    size_t total = 0, i, s;
    int t;
    *junc = NULL;
    *start = NULL;
    for (t = 0; t < J->nthreads; t++)
        total += J->nfound[t];
    if (total == 0)
        return XG_OK;
    *junc = malloc(total * 3 * sizeof **junc);
    *start = calloc(J->nsurf + 1, sizeof **start);
    if (!*junc || !*start)
        return XG_ENOMEM;
    for (t = 0; t < J->nthreads; t++)
        for (i = 0; i < J->nfound[t]; i++)
            (*start)[J->found[t][i].surf + 1]++;
    for (s = 0; s < J->nsurf; s++)
        (*start)[s + 1] += (*start)[s];
    for (t = 0; t < J->nthreads; t++)
        for (i = 0; i < J->nfound[t]; i++) {
            const struct junction *x = &J->found[t][i];
            uint32_t at = (*start)[x->surf]++;
            memcpy(*junc + 3 * (size_t)at, x->p, sizeof x->p);
        }
    for (s = J->nsurf; s > 0; s--)      /* the cursors back to starts */
        (*start)[s] = (*start)[s - 1];
    (*start)[0] = 0;
    return XG_OK;
}

int xg__selfx_find(const double *tri, const double *box, size_t ntri,
                   const uint32_t *surf, size_t nsurf, int flat_check,
                   const double *junc, const uint32_t *junc_start,
                   int nthreads, uint64_t *first, struct xg_counters *cnt)
{
    struct selfx_job J;
    double all[6], *own_junc = NULL, lo[3], hi[3];
    uint32_t *own_start = NULL;
    size_t s;
    int t, k, cells[3], rc = XG_ENOMEM;

    for (s = 0; s < nsurf; s++)
        first[s] = XG_SELFX_NONE;
    if (ntri < 2 || nsurf == 0)
        return XG_OK;
    if (ntri > UINT32_MAX)
        return XG_ELIMIT;
    if (nthreads < 1 || ntri < ONE_THREAD)
        nthreads = 1;
    memset(&J, 0, sizeof J);
    J.tri = tri;
    J.surf = surf;
    J.ntri = ntri;
    J.nsurf = nsurf;
    J.flat_check = flat_check && !box;
    J.junc = junc;
    J.junc_start = junc_start;
    J.nthreads = nthreads;
    atomic_init(&J.next, 0);
    J.given = box != NULL;
    J.box = box ? (double *)box : xg__big_alloc(ntri * 6 * sizeof *J.box);
    J.hull = malloc((size_t)nthreads * 6 * sizeof *J.hull);
    J.cnt = calloc((size_t)nthreads, sizeof *J.cnt);
    J.nomem = calloc((size_t)nthreads, sizeof *J.nomem);
    J.found = calloc((size_t)nthreads, sizeof *J.found);
    J.nfound = calloc((size_t)nthreads, sizeof *J.nfound);
    J.capfound = calloc((size_t)nthreads, sizeof *J.capfound);
    J.best = malloc(nsurf * sizeof *J.best);
    if (!J.box || !J.hull || !J.cnt || !J.nomem || !J.found || !J.nfound ||
        !J.capfound || !J.best ||
        xg__parallel(nthreads, selfx_worker, &J) != XG_OK)
        goto out;
    for (t = 0; t < nthreads; t++)
        if (J.nomem[t])
            goto out;
    if (J.flat_check) {
        if (junctions_by_surface(&J, &own_junc, &own_start) != XG_OK)
            goto out;
        J.junc = own_junc;
        J.junc_start = own_start;
    }
    for (k = 0; k < 3; k++) {
        lo[k] = HUGE_VAL;
        hi[k] = -HUGE_VAL;
    }
    for (t = 0; t < nthreads; t++)
        for (k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], J.hull[6 * t + k]);
            hi[k] = fmax(hi[k], J.hull[6 * t + 3 + k]);
        }
    /* The A side is one box holding everything, so that the region is
     * the triangles' hull; B the triangles.  A cell a triangle at most:
     * 12 bytes a cell, and on the benchmark's solids no slower than four
     * (an eighth of the cells, as fast). */
    for (k = 0; k < 3; k++) {
        all[k] = -HUGE_VAL;
        all[3 + k] = HUGE_VAL;
    }
    xg__grid_cells_boxes(J.box, ntri, lo, hi, 3, 1.0, cells);
    if ((rc = xg__grid_build_on(&J.g, all, 1, J.box, ntri, cells,
                                nthreads)) != XG_OK)
        goto out;
    for (s = 0; s < nsurf; s++)
        atomic_init(&J.best[s], XG_SELFX_NONE);
    J.phase = 1;
    rc = xg__parallel(nthreads, selfx_worker, &J) == XG_OK ? XG_OK
                                                           : XG_ENOMEM;
    for (s = 0; s < nsurf && rc == XG_OK; s++)
        first[s] = atomic_load(&J.best[s]);
out:
    if (J.cnt)
        for (t = 0; t < nthreads; t++)
            xg_counters_add(cnt, &J.cnt[t]);
    if (J.found)
        for (t = 0; t < nthreads; t++)
            free(J.found[t]);
    xg__grid_free(&J.g);
    if (!J.given)
        free(J.box);
    free(J.hull);
    free(J.cnt);
    free(J.nomem);
    free(J.found);
    free(J.nfound);
    free(J.capfound);
    free(J.best);
    free(own_junc);
    free(own_start);
    return rc;
}

int xg_self_crossing(struct xg_ctx *ctx, const double *tri, size_t ntri,
                     size_t pair[2], int *found)
{
    struct xg_counters cnt = {0};
    uint64_t first;
    int rc;
    if (!tri && ntri)
        return xg__error(ctx, XG_EINVAL, "no triangles");
    if (!pair || !found)
        return xg__error(ctx, XG_EINVAL, "no room for the answer");
    *found = 0;
    rc = xg__selfx_find(tri, NULL, ntri, NULL, 1, 1, NULL, NULL,
                        xg__threads(ctx), &first, &cnt);
    if (rc != XG_OK)
        return xg__error(ctx, rc, rc == XG_ENOMEM ? "out of memory"
                                                  : "too many triangles");
    if (first != XG_SELFX_NONE) {
        *found = 1;
        pair[0] = (size_t)(first >> 32);
        pair[1] = (size_t)(first & UINT32_MAX);
    }
    return XG_OK;
}
