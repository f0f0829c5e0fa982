/*
 * xg_segtri.h -- segment against triangle: the stages of one pair
 * (segtri.c) and the preparation of a run (segtri_engine.c).
 */
#ifndef XG_SEGTRI_H
#define XG_SEGTRI_H

#include "exactgeo.h"

struct xg_grid;

/* ---- segment-triangle (segtri.c) ---- */

/* The exact stage for a pair the fast pass deferred: same contract as
 * xg_segtri_pair; c NULL: the answer alone, no point constructed. */
int xg__segtri_exact(struct xg_counters *cnt, const double *seg,
                     const double *tri, struct xg_contact *c);
/* Non-zero when the closed segment (not of zero length) meets the
 * closed triangle (not collinear), exactly: the question
 * xg_segtri_pair answers, with no point made (the fast pass, then the
 * exact stage with c NULL). */
int xg__segtri_meets(struct xg_counters *cnt, const double *seg,
                     const double *tri);
/* Fast pass, then construction (exact rounding where the interval cannot
 * certify it).  Returns 1 on contact, 0 on miss, -1 when deferred. */
int xg__segtri_fast_hit(struct xg_counters *cnt, const double *seg,
                        const double *tri, struct xg_contact *c);
/* The crossing point of a pair whose segment crosses the triangle's
 * plane with its endpoints strictly on opposite sides, rounded to the
 * nearest double (exactly when the intervals cannot certify it). */
void xg__segtri_construct(struct xg_counters *cnt, const double *seg,
                          const double *tri, double out[3]);
/* Its GMP stage alone: the exact crossing rounded to nearest (the
 * reference the GPU tests compare the device's stages with). */
void xg__plane_point_exact(const double *seg, const double *tri,
                           double out[3]);
/* Non-zero when the triangle's three vertices are collinear (exactly). */
int xg__tri_is_degenerate(struct xg_counters *cnt, const double *tri);

/* ---- preparation shared by every engine (segtri_engine.c) ---- */

/* Boxes of a and b (zero-length segments and collinear triangles left
 * out and counted in st), then the grid over them, on nthreads threads.
 * Fills st->grid, grid_refs_*, a_skipped, b_skipped.  On XG_OK the
 * caller frees g with xg__grid_free. */
int xg__segtri_prepare(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       int nthreads, struct xg_grid *g, struct xg_stats *st);

#endif /* XG_SEGTRI_H */
