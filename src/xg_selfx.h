/*
 * xg_selfx.h -- what the files of the self-crossing test share (selfx.c:
 * all pairs over a grid; selfx_pair.c: one pair; selfx_junction.c: a pair
 * again, cut at the surface's T-junctions), with the entry points the
 * library's others call (inside's solids, xg_self_crossing).
 */
#ifndef XG_SELFX_H
#define XG_SELFX_H

#include <stddef.h>
#include <stdint.h>
#include "exactgeo.h"

/* Non-zero when points p and q (3 doubles each) are one point. */
static inline int xg__same_point(const double *p, const double *q)
{
    return p[0] == q[0] && p[1] == q[1] && p[2] == q[2];
}

/* Whether t and u, which the pair test says cross, cross still once cut
 * at the junctions of their surface (jn, nj points of 3 doubles):
 * non-zero when two pieces cross, or when no junction lies on their
 * edges (the answer stands).  Out of memory: the answer stands, a
 * crossing. */
int xg__junction_cross(struct xg_counters *cnt, const double *t,
                       const double *u, const double *jn, size_t nj);

/* Non-zero when triangles t and u (9 doubles each, neither collinear) of
 * one surface cross: meet other than along what they share as a mesh,
 * vertices matched by their exact coordinates (docs/semantics.md,
 * "inside").  Sharing one vertex, they cross when they meet anywhere
 * else; sharing an edge, when they lie in one plane on the same side of
 * it (a fold); sharing all three vertices (one face twice, in either
 * turn), always; sharing none, when they meet at all (a touch, an
 * overlap, one in the other).  Exact. */
int xg__tri_pair_cross(struct xg_counters *cnt, const double *t,
                       const double *u);

/* A surface without a crossing pair (xg__selfx_find's first[]). */
#define XG_SELFX_NONE UINT64_MAX

/* The crossing pairs of ntri triangles (9 doubles each at tri; their
 * boxes at box, 6 doubles each, or NULL: made here) that make nsurf
 * surfaces: surf[i] the surface of triangle i, non-decreasing
 * (each surface's triangles together; surf NULL: one surface, nsurf 1);
 * pairs of two surfaces are not looked at.  first[s] (nsurf of them, the
 * caller's) = i << 32 | j for the lowest crossing pair i < j of surface
 * s (by i, then j), whatever the thread count, or XG_SELFX_NONE.
 * Surface s's T-junctions (the middles of its collinear triangles,
 * xg__tri_middle: vertices of the mesh inside another triangle's edge)
 * are junc[3 k ..] for k in junc_start[s] .. junc_start[s+1]-1 (NULL,
 * NULL: none).  flat_check (box NULL): the triangles may be collinear;
 * those are left out and their middles taken as junctions (junc,
 * junc_start NULL); else the caller has left them out.  On nthreads threads (one
 * below a few thousand triangles); predicates added to cnt.  XG_OK,
 * XG_ENOMEM or XG_ELIMIT (2^32 triangles). */
int xg__selfx_find(const double *tri, const double *box, size_t ntri,
                   const uint32_t *surf, size_t nsurf, int flat_check,
                   const double *junc, const uint32_t *junc_start,
                   int nthreads, uint64_t *first, struct xg_counters *cnt);
/* The vertex of collinear triangle t (9 doubles) that lies between the
 * other two, or NULL when two of its vertices are one point. */
const double *xg__tri_middle(const double *t);

#endif /* XG_SELFX_H */
