/*
 * delaunay_core.cuh -- the GPU Delaunay engine's steps (delaunay_gpu.cu),
 * written once for the device and for a host emulation (XG_DT_EMUL: each
 * "kernel" a loop over its threads, which tests the logic on a machine
 * without a GPU; tests/dt_emul.cpp).  The method is described here; the
 * steps are in four parts, included below in this order:
 *   delaunay_state.cuh   the state (struct dt_d), the atomics, the
 *                        filtered predicates and the questions' queue;
 *   delaunay_insert.cuh  1. location and 2. insertion, and the fix-up
 *                        of stale references;
 *   delaunay_flip.cuh    3. flipping, the pending list, the counters
 *                        between steps;
 *   delaunay_setup.cuh   the set-up (the points, the hull's candidates)
 *                        and the output.
 *
 * The method (the seed, gDel2D-like: parallel insertion, parallel
 * flipping), over local vertex numbers 0 .. m-1 (the distinct points,
 * lexicographically sorted) and the conventions of src/xg_delaunay.h
 * (ghost triangles with XG_DT_GHOST, counter-clockwise real triangles,
 * adj = 4 u + j):
 *
 *   0. The convex hull's corners (host, exactly) are triangulated as a fan
 *      and closed with a ghost per hull edge.  Every other point then lies
 *      in the closed hull: inside a real triangle, or on one of its edges
 *      (a hull edge included).  So no step ever inserts a point into a
 *      ghost, the hull never changes shape, and no edge with a ghost on
 *      either side is ever flipped (a hull edge split at a collinear point
 *      leaves two ghosts whose far vertices are collinear with the shared
 *      one: the ghost conflict rule says no flip).
 *   1. Location: each uninserted point walks (visibility walk) from the
 *      triangle it lay in to the one that holds it now, only when that
 *      triangle changed since its last walk.  Not brute force: the walk
 *      follows the neighbours.  The visibility walk terminates in a
 *      Delaunay triangulation (Edelsbrunner), which is what the
 *      triangulation is whenever the points walk (after the flips).
 *   2. Insertion: each triangle with points takes one (the smallest hash
 *      of the point number wins an atomicMin on the triangle: the same
 *      choice on every run); a point on an edge needs both triangles of
 *      the edge.  Splits 1 -> 3 and 2 -> 4, in parallel: each touches
 *      only the triangles it won.
 *   3. Flipping (Lawson), in rounds: every edge of a triangle changed in
 *      the last round is tested (the perturbed in-circle test of
 *      xg__dt_incircle: the far vertex conflicts with the near triangle);
 *      each conflicting edge claims its two triangles (atomicMin of the
 *      edge number), and the edges that won both flip.  The losers are
 *      tested again in the next round.  Terminates: with exact, consistent
 *      predicates of the lifted, perturbed points, each flip replaces two
 *      triangles by two strictly lower ones on the lifted surface, so no
 *      triangulation comes back and there are finitely many.  It ends when
 *      no edge conflicts: every edge locally Delaunay with the hull fixed,
 *      which (the Delaunay lemma, for the lifted perturbed points) is the
 *      one Delaunay triangulation.
 *   Every sign comes from the interval filters (xg_filters.h); a sign the
 *   interval does not certify is queued, decided exactly on the host
 *   (xg_orient2d, and the perturbed in-circle), and sent back before the
 *   step goes on.  Nothing is decided in floating point beyond what an
 *   interval certifies.
 *
 * Adjacency writes between concurrent changes go through two phases: a
 * step writes its triangles, with each edge it took over from an old
 * triangle marked stale (bit 31: the old (triangle, slot)), and records
 * where each old edge now lies (newloc); the fix-up then resolves the
 * stale references, and writes the back reference into an unchanged
 * neighbour (the one writer of that entry).
 */
#ifndef XG_DELAUNAY_CORE_CUH
#define XG_DELAUNAY_CORE_CUH

#include "delaunay_state.cuh"
#include "delaunay_insert.cuh"
#include "delaunay_flip.cuh"
#include "delaunay_setup.cuh"

#endif
