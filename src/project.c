/*
 * project.c -- projections of planar figures to two dimensions.
 *
 * Dropping one coordinate maps a plane that is not parallel to the
 * dropped axis onto the remaining two by an affine bijection: every
 * orientation, incidence and betweenness question about figures in that
 * plane has the same answer (up to one global sign for orientations) in
 * the projection, so the exact 2D predicates decide them.
 */
#include <math.h>
#include "exactgeo.h"
#include "xg_exact.h"
#include "xg_interval.h"

void xg__project(const double *p, int drop, double out[2])
{
    int i, j = 0;
    for (i = 0; i < 3; i++)
        if (i != drop)
            out[j++] = p[i];
}

/* The axis where the approximate normal is largest is tried first: it is
 * almost always nonzero, and the sign comes from the exact predicate
 * either way, so the floating-point normal only orders the attempts. */
int xg__projection_axis(struct xg_counters *cnt, const double *tri,
                        int *orient)
{
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    double n[3], a2[2], b2[2], c2[2];
    int order[3] = {0, 1, 2}, i, j;

    n[0] = (B[1] - A[1]) * (C[2] - A[2]) - (B[2] - A[2]) * (C[1] - A[1]);
    n[1] = (B[2] - A[2]) * (C[0] - A[0]) - (B[0] - A[0]) * (C[2] - A[2]);
    n[2] = (B[0] - A[0]) * (C[1] - A[1]) - (B[1] - A[1]) * (C[0] - A[0]);
    for (i = 0; i < 3; i++)
        for (j = i + 1; j < 3; j++)
            if (fabs(n[order[j]]) > fabs(n[order[i]])) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    for (i = 0; i < 3; i++) {
        xg__project(A, order[i], a2);
        xg__project(B, order[i], b2);
        xg__project(C, order[i], c2);
        *orient = xg_orient2d(cnt, a2, b2, c2);
        if (*orient != XG_ZERO)
            return order[i];
    }
    *orient = 0;
    return -1;
}
