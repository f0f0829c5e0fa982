/*
 * xg_regions.h -- the partitioned run: what it needs of an operation,
 * its entry, its run and its selection (regions_run.c,
 * regions_select.c).
 */
#ifndef XG_REGIONS_H
#define XG_REGIONS_H

#include "exactgeo.h"

struct xg__pair_ops;

/* ---- the partitioned run (regions_run.c) ---- */

/* What the partitioned run needs to know of an operation. */
struct xg__region_op {
    /* the sets' kinds and dimension (checked as the whole run checks
     * them), and the degenerate test of the elements (their box
     * functions) */
    const struct xg__pair_ops *ops;
    /* non-zero for B made of solids (inside): A's points go to the one
     * region that owns them, B's triangles with their whole solid (every
     * triangle of its fid, collinear ones too) to each region whose reach
     * the solid's box meets */
    int solids;
    /* the single-region engine: the operation's whole run */
    xg_op_run_fn run;
    /* NULL, or the whole input's check of B, redone when a region fails
     * with XG_EFORMAT so that the message is the whole run's (inside: the
     * first open solid of B, not of the region) */
    int (*recheck)(struct xg_ctx *ctx, const struct xg_set *b, int nthreads);
    /* the operation's entry in the table (ops.c): its memory estimate */
    const struct xg_op *op;
};

/* The public entry of xg_segtri, xg_redblue and xg_inside: the
 * partitioned run when opt->regions > 1, or with the gpu engine over
 * several devices (XG_REGIONS_PER_GPU regions per device unless
 * opt->regions says), else rop->run.  opt and st may be NULL. */
int xg__regions_entry(struct xg_ctx *ctx, const struct xg__region_op *rop,
                      const struct xg_set *a, const struct xg_set *b,
                      const struct xg_opts *opt, struct xg_contacts *out,
                      struct xg_stats *st);

/* Wall-clock seconds of the partitioned run's three steps: the selection
 * (hull, plan, each region's elements), the regions' runs, and the merge
 * of their contacts. */
struct xg__regions_times {
    double select, compute, gather;
};

/* The partitioned run in nreg regions (1 .. XG_REGIONS_MAX; 1 runs the
 * whole sets through the same steps), contracts as xg_segtri's with the
 * stats of exactgeo.h ("The partitioned run"); times (may be NULL) gets
 * the steps' wall time (the benchmarks).  opt, st not NULL. */
int xg__regions_run(struct xg_ctx *ctx, const struct xg__region_op *rop,
                    const struct xg_set *a, const struct xg_set *b,
                    const struct xg_opts *opt, int nreg,
                    struct xg_contacts *out, struct xg_stats *st,
                    struct xg__regions_times *times);

/* The elements of one set per region (regions_select.c): region k's
 * are idx[start[k] .. start[k+1]-1], ascending (the whole set's order). */
struct xg__picks {
    size_t *start;        /* nreg + 1 */
    uint32_t *idx;
    uint64_t extra;       /* degenerate elements counted by more than one
                             region's run: the counts past each one's
                             first (the whole run's skipped count is the
                             regions' sum less this) */
};
void xg__picks_free(struct xg__picks *p);

/* The selection of a partitioned run in nreg regions on nthreads
 * threads: the hull of a and b, the plan into reg (nreg of them, the
 * caller's), and each set's elements per region into pa, pb (caller
 * frees with xg__picks_free; empty on error), every element in one
 * region at least (a degenerate one too: its runs skip and count it);
 * adds the predicates to cnt.  XG_OK or XG_ENOMEM. */
int xg__regions_select(const struct xg__region_op *rop,
                       const struct xg_set *a, const struct xg_set *b,
                       int nreg, int nthreads, struct xg_region *reg,
                       struct xg__picks *pa, struct xg__picks *pb,
                       struct xg_counters *cnt);

/* The operations' region ops (segtri_engine.c, redblue.c, inside.c). */
extern const struct xg__region_op *const xg__segtri_region;
extern const struct xg__region_op *const xg__redblue_region;
extern const struct xg__region_op *const xg__inside_region;

#endif /* XG_REGIONS_H */
