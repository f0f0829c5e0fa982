/*
 * xg_selfx.h -- what the files of the self-crossing test share (selfx.c:
 * all pairs over a grid; selfx_pair.c: one pair; selfx_junction.c: a pair
 * again, cut at the surface's T-junctions).  The entry points are
 * xg_internal.h's.
 */
#ifndef XG_SELFX_H
#define XG_SELFX_H

#include "xg_internal.h"

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

#endif
