/*
 * delaunay_builder.h -- the parts of one incremental build (xg__dt_build,
 * delaunay_build.c) that have files of their own: the order the points go
 * in (delaunay_order.c) and one point's insertion with its flips
 * (delaunay_insert.c).  Private to those three files.
 */
#ifndef XG_DELAUNAY_BUILDER_H
#define XG_DELAUNAY_BUILDER_H

#include "xg_delaunay.h"

/* One build's working state, owned by the caller (zeroed, then dt, xy,
 * cnt and last set; the caller frees stack). */
struct xg__dt_builder {
    struct xg__dt *dt;
    const double *xy;        /* local points, 2 doubles, insertion order */
    struct xg_counters *cnt;
    uint32_t *stack;         /* triangles whose vertex 0 is the new point */
    size_t nstack, capstack;
    uint32_t last;           /* a real triangle to start walks from */
};

/* Whether triangle t of dt is a ghost (has the vertex at infinity). */
static inline int xg__dt_is_ghost(const struct xg__dt *dt, uint32_t t)
{
    return dt->v[t][0] == XG_DT_GHOST || dt->v[t][1] == XG_DT_GHOST ||
           dt->v[t][2] == XG_DT_GHOST;
}

/* order[k]: the index into job->gid of the point inserted k-th (order
 * holds job->n); biased randomized rounds, each along a Hilbert curve.
 * Needs job->n >= 1.  XG_OK or XG_ENOMEM. */
int xg__dt_insertion_order(const struct xg__dt_job *job, uint32_t *order);

/* Starts B->dt with the counter-clockwise triangle (0, p1, p2) of local
 * points and its three ghosts (triangles 0 .. 3); the next walk starts
 * from triangle 0.  B->dt->cap >= 4. */
void xg__dt_first(struct xg__dt_builder *B, uint32_t p1, uint32_t p2);

/* Where p lies in B->dt: *t the triangle, *where 3 inside it (or beyond a
 * ghost's edge), 0 .. 2 on the edge opposite that vertex, 4 + i on its
 * vertex i.  Walks from B->last. */
void xg__dt_locate(struct xg__dt_builder *B, const double *p, uint32_t *t,
                   int *where);

/* Inserts local point k where xg__dt_locate found it (where < 4: not on a
 * vertex): the split, the flips that make the triangulation Delaunay
 * again, the next walk's start.  B->dt->cap holds two more triangles.
 * XG_OK or XG_ENOMEM (the flip stack). */
int xg__dt_insert(struct xg__dt_builder *B, uint32_t t, int where,
                  uint32_t k);

#endif
