/*
 * xg_filters.h -- the interval filters of every predicate, written once
 * and compiled for the host (C) and the GPU (CUDA).  Each answers a sign
 * or XG_UNSURE; the exact stage lives in exact.c.  Because host and device
 * evaluate the same formula with enclosing intervals, a sign either one
 * certifies is the exact sign: they can differ only in what they leave
 * unsure, never in an answer.
 *
 * One header per family, each including what it uses:
 *   xg_filter_orient.h   orient2d, orient3d, incircle (and the host's
 *                        static stage, Delaunay's tie-break)
 *   xg_filter_segtri.h   segment against triangle, the crossing point
 *   xg_filter_redblue.h  red segment against blue segment
 *   xg_filter_ray.h      point against triangle (point-in-solid)
 * This one includes them all, for the files that use several.
 */
#ifndef XG_FILTERS_H
#define XG_FILTERS_H

#include "xg_interval.h"
#include "xg_expansion.h"
#include "xg_filter_orient.h"
#include "xg_filter_segtri.h"
#include "xg_filter_redblue.h"
#include "xg_filter_ray.h"

#endif /* XG_FILTERS_H */
