/*
 * selfx_junction.c -- the T-junctions of the self-crossing test
 * (selfx.c).
 * A mesh may place a vertex M inside another triangle's edge AB (a
 * T-junction) and close that edge with the collinear triangle A M B,
 * which every engine drops (it bounds no volume).  M is then a vertex of
 * the mesh on AB: the triangles that meet there share a stretch of the
 * mesh, not a crossing.  So a pair of a surface with such junctions that
 * the pair test says cross is looked at again with each triangle cut at
 * the junctions on its edges, as if the mesh had them as vertices: it
 * crosses when two of the pieces do.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_selfx.h"
#include "xg_mem.h"
#include "xg_boxes.h"
#include "xg_interval.h"

/* Non-zero when p comes before q in (x, y, z) order. */
static int lex_less(const double *p, const double *q)
{
    int k;
    for (k = 0; k < 3; k++)
        if (p[k] != q[k])
            return p[k] < q[k];
    return 0;
}

/* xg__tri_middle (xg_selfx.h): the middle of collinear triangle t (its vertex between the other two),
 * or NULL when two of its vertices are one point (no junction).  Along a
 * line, (x, y, z) order is the line's order, one way or the other. */
const double *xg__tri_middle(const double *t)
{
    const double *a = t, *b = t + 3, *c = t + 6;
    if (xg__same_point(a, b) || xg__same_point(b, c) || xg__same_point(a, c))
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

/* Appends triangle a b c to P (P->nomem set when it cannot). */
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
            if (n == 0 || !xg__same_point(on[k][n - 1], on[k][i]))
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

/* xg__junction_cross (xg_selfx.h): both triangles cut, every pair of
 * pieces tested. */
int xg__junction_cross(struct xg_counters *cnt, const double *t,
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
