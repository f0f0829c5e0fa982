/*
 * xgp_internal.h -- shared inside mpi/ (xgp__ names): the record a rank
 * sends for each contact, what it sends before them, and the steps of
 * the run (plan, one region, the records written).
 */
#ifndef XGP_INTERNAL_H
#define XGP_INTERNAL_H

#include "xgo_internal.h"
#include "xgp.h"

/* A contact named by its sources' ids, which mean the same on every
 * rank (a region's element indices do not). */
struct xgp_rec {
    int64_t afid, asub;       /* A's feature, the element within it     */
    int64_t bfid, bsub;       /* B's; meaningless when !has_b           */
    int32_t kind, has_b;      /* enum xg_kind; 0: a record of no B
                                 element (inside's outside points)       */
    double p[3], q[3];        /* as struct xg_contact                   */
};

struct xgp_recs {
    size_t n, cap;
    struct xgp_rec *v;
};

/* What a rank's regions add up to: sent to rank 0 before its records.
 * The counts are those of the features its regions own, so that the
 * ranks' sums are a single run's; the work figures (candidates,
 * predicates, seconds) are summed over its runs. */
struct xgp_part {
    int32_t rc;               /* 0, or the failure's XG_E* code         */
    int32_t region;           /* the region that failed, or -1          */
    char err[1024];           /* its message                            */
    struct xgo_rank rank;     /* what this rank did                     */
    uint64_t nrec;            /* records that follow                    */
    uint64_t features[2];     /* features owned (with those without
                                 geometry, counted by region 0)         */
    uint64_t nogeom[2], barren[2], invalid[2];
    uint64_t triangulated, nonplanar, bad_polygons, not_closed, crossing;
    int32_t has_z, has_run;   /* has_run: st's engine, threads and grid
                                 are those of a run (its first)         */
    struct xg_stats st;
};

/* Rank 0: opens the inputs as a single run does (the job's filters, the
 * copied fields resolved: src[0], src[1], which the caller closes with
 * xgo__src_close), checks their CRSs (*srs), and plans n regions over the
 * union of their extents (OGR_L_GetExtent), into regions; clip receives
 * a finite box holding every feature, which the regions' reaches are
 * cut to (OGR's filters then never see an infinite or huge box). */
int xgp__plan(const struct xgo_job *job, int n, struct xgo_src src[2],
              OGRSpatialReferenceH *srs, struct xg_region *regions,
              double clip[4], char *err, size_t errlen);

/* Runs region k (r) on this rank: reads the features meeting its reach
 * (cut to clip), runs the core with ctx, keeps the contacts r owns and
 * appends them to out as records; adds its counts and figures to part.
 * pf/pa (may be NULL) see the progress, and cancel by returning FALSE. */
int xgp__region_run(const struct xgo_job *job, struct xg_ctx *ctx, int k,
                    const struct xg_region *r, const double clip[4],
                    struct xgp_part *part, struct xgp_recs *out,
                    GDALProgressFunc pf, void *pa, char *err,
                    size_t errlen);

/* Appends one record; XG_ENOMEM. */
int xgp__recs_push(struct xgp_recs *out, const struct xgp_rec *x);

/* Sorts n records into the single-process order: ascending A FID, A
 * element, then the records of a B element by B FID and B element, then
 * the record of no B element. */
void xgp__recs_sort(struct xgp_rec *v, size_t n);

/* Rank 0: writes the n sorted records v to dst as xgo_job_run would
 * (ogr_driver's writer), the copied attributes fetched by FID from src
 * (xgp__plan's); fills rep->written, layer, lines_layer. */
int xgp__write(const struct xgo_job *job, GDALDatasetH dst,
               const char *layer_name, char **lco,
               OGRSpatialReferenceH srs, struct xgo_src src[2],
               const struct xgp_rec *v, size_t n, struct xgo_report *rep,
               GDALProgressFunc pf, void *pa, char *err, size_t errlen);

#endif /* XGP_INTERNAL_H */
