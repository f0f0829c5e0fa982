/*
 * xg_earclip.h -- the working state of xg_triangulate and the steps that
 * more than one of its files use; included by src/earclip*.c only.
 *   earclip.c         steps 1 and 2 (load), 4 (ring orientation), 8 (ear
 *                     clipping) and xg_triangulate, which runs the steps;
 *   earclip_rings.c   steps 3, 5 and 6: the rings form a valid polygon
 *                     (OGC), and where they touch;
 *   earclip_bridge.c  step 7: the holes merged into the outer ring, by
 *                     splices at touch points and by bridges.
 * The steps, and why the result is exact: the comment atop earclip.c.
 */
#ifndef XG_EARCLIP_H
#define XG_EARCLIP_H

#include <math.h>
#include "exactgeo.h"

/* Working state.  Vertices are the kept ones and the copies that step 3
 * inserts, numbered 0 .. nv-1, ring r holding start[r] .. start[r+1]-1. */
struct xg__poly {
    struct xg_counters *cnt;
    size_t nv, nring;
    double (*p)[2];     /* projected coordinates                        */
    uint32_t *idx;      /* index of each kept vertex in the input xyz   */
    size_t *start;      /* nring + 1                                    */
    size_t *next;       /* the following vertex in its ring             */
    size_t *rid;        /* the ring of each vertex                      */
    /* Touch points (step 5): vertices of several rings at one point.
     * Group g holds the vertices gv[gs[g] .. gs[g+1]-1]; grp[v] is v's
     * group, XG__NO_GROUP when v shares its point with no other vertex. */
    size_t ngrp;
    size_t *grp, *gv, *gs;
};

/* grp[v] of a vertex that shares its point with no other vertex */
#define XG__NO_GROUP SIZE_MAX

/* The exact turn a, b, c of P's projected vertices (xg_orient2d,
 * counted in P->cnt). */
static inline int orient(const struct xg__poly *P, size_t a, size_t b,
                         size_t c)
{
    return xg_orient2d(P->cnt, P->p[a], P->p[b], P->p[c]);
}

/* Vertices a and b are at one point (the projection is injective on the
 * plane, so equal 2D coordinates are equal 3D ones). */
static inline int same2(const struct xg__poly *P, size_t a, size_t b)
{
    return P->p[a][0] == P->p[b][0] && P->p[a][1] == P->p[b][1];
}

/* Non-zero when the (x, y) boxes of segments ab and cd are disjoint: a
 * cheap exact "no contact" before the orientation tests. */
static inline int boxes_apart(const double *a, const double *b,
                              const double *c, const double *d)
{
    int k;
    for (k = 0; k < 2; k++) {
        double lo1 = fmin(a[k], b[k]), hi1 = fmax(a[k], b[k]);
        double lo2 = fmin(c[k], d[k]), hi2 = fmax(c[k], d[k]);
        if (hi1 < lo2 || hi2 < lo1)
            return 1;
    }
    return 0;
}

/* Steps 3a, 3b, 5 and 6 (earclip_rings.c), in this order: XG_OK, or
 * XG_EDEGENERATE for a polygon that is not valid, or XG_ENOMEM. */
int xg__earclip_split_edges(struct xg__poly *P);
int xg__earclip_check_edges(const struct xg__poly *P);
int xg__earclip_check_touches(struct xg__poly *P);
int xg__earclip_check_nesting(const struct xg__poly *P);

/* A candidate end of a bridge, for step 7's search. */
struct xg__bridge_cand {
    double key;         /* search order only, never a decision */
    size_t pos;
};

/* Step 7 (earclip_bridge.c), after step 6 and the orientation of the
 * rings (step 4): the one ring that step 8 clips.  The caller owns the
 * scratch arrays, sized in xg_triangulate. */
int xg__earclip_join_holes(const struct xg__poly *P, size_t *ring,
                           size_t *len, struct xg__bridge_cand *cand,
                           size_t *hole, size_t *stack,
                           unsigned char *merged);

#endif /* XG_EARCLIP_H */
