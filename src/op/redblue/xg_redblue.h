/*
 * xg_redblue.h -- red/blue segments in the plane: the stages of one pair
 * and the preparation of a run (redblue.c), and the GPU engine's methods.
 */
#ifndef XG_REDBLUE_H
#define XG_REDBLUE_H

#include "exactgeo.h"

struct xg_grid;

/* Same contracts as the segtri pair: the fast pass with construction
 * (1, 0, or -1 deferred) and the exact stage. */
int xg__redblue_fast_hit(struct xg_counters *cnt, const double *sa,
                         const double *sb, struct xg_contact *c);
int xg__redblue_exact(struct xg_counters *cnt, const double *sa,
                      const double *sb, struct xg_contact *c);
/* A pair the fast pass settled as r (XG_REDBLUE_TOUCH with its point pt,
 * or XG_REDBLUE_OVERLAP) into c; 1 when it is a contact. */
int xg__redblue_settled(struct xg_counters *cnt, const double *sa,
                        const double *sb, int r, const double *pt,
                        struct xg_contact *c);
/* Boxes of a and b (zero-length segments left out and counted in st),
 * then the grid over them, as xg__segtri_prepare. */
int xg__redblue_prepare(struct xg_ctx *ctx, const struct xg_set *a,
                        const struct xg_set *b, const struct xg_opts *opt,
                        int nthreads, struct xg_grid *g, struct xg_stats *st);

/* The GPU red/blue engine's methods (xg__engine_knobs.method; the run:
 * cuda/redblue_gpu.c, the paper's in cuda/paper.c): XG__RB_PAPER the
 * paper's pair list built on the CPU, XG__RB_GPU the list-free design. */
#define XG__RB_PAPER 1
#define XG__RB_GPU   2

#endif /* XG_REDBLUE_H */
