/*
 * xgp_internal.h -- shared by the partitioned run of ogr_driver/
 * (part_*.c; xgp__ names): the record a rank sends for each contact,
 * what it sends before them, and the steps of the run (plan, one region,
 * the records written or kept); and the run whose records are kept, for
 * the EXACTGEO driver (job.c's xgo__job_keep).
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
 * The features' counts are rank 0's plan's; a rank counts the elements
 * of the features its regions own (their sums are a single run's) and
 * sums the work figures (candidates, predicates, seconds) over its
 * runs. */
struct xgp_part {
    int32_t rc;               /* 0, or the failure's XG_E* code         */
    int32_t region;           /* the region that failed, or -1          */
    char err[1024];           /* its message                            */
    struct xgo_rank rank;     /* what this rank did                     */
    uint64_t nrec;            /* records that follow                    */
    int32_t has_run, pad;     /* has_run: st's engine, threads and grid
                                 are those of a run (its first)         */
    struct xg_stats st;
};

/* A region's features in the plan that rank 0 sends each rank: for each
 * of its regions, this head, then the FIDs of A's features that the
 * region owns, of the other A features it reads, then B's two lists,
 * each in ascending FIDs. */
struct xgp_head {
    int32_t region, pad;
    uint64_t n[2][2];         /* [input][0: owned, 1: other]            */
};

/* A region's lists (pointing into the plan a rank received). */
struct xgp_fids {
    const int64_t *v[2][2];
    size_t n[2][2];
};

/* Rank 0: opens the inputs as a single run does (the job's filters, the
 * copied fields resolved: src[0], src[1], which the caller closes with
 * xgo__src_close), checks their CRSs (*srs), plans n regions over the
 * union of their extents (OGR_L_GetExtent) into regions, and reads every
 * feature once with the single run's reader: its failures, warnings and
 * counts (src[i]'s nread, nogeom, barren, invalid; rep's a_features,
 * b_features, null_geoms, triangulated, nonplanar, bad_polygons,
 * not_closed) are the single run's.  Each feature that gives elements
 * goes to the lists of the regions whose reach meets their (x, y) box,
 * owned by the one that holds their first vertex.  parts[r] receives
 * rank r's part of the plan (size ranks; allocated, the caller frees
 * each with free()), len[r] its bytes.  Progress: the reads' stages of
 * bar, estimated first (xgo__bar_estimate). */
int xgp__plan(const struct xgo_job *job, int n, int size,
              struct xgo_src src[2], OGRSpatialReferenceH *srs,
              struct xg_region *regions, struct xgo_report *rep,
              struct xgo_bar *bar, void **parts, size_t *len, char *err,
              size_t errlen);

/* Runs region r on this rank: reads its features by FID (f) with the
 * single run's reader, quietly (rank 0's plan gave the warnings and
 * counts), runs the core with ctx, keeps the contacts r owns and appends
 * them to out as records; adds the owned elements and the work figures
 * to part.  pf/pa (may be NULL) see the progress, and cancel by
 * returning FALSE. */
int xgp__region_run(const struct xgo_job *job, struct xg_ctx *ctx,
                    const struct xg_region *r, const struct xgp_fids *f,
                    struct xgp_part *part, struct xgp_recs *out,
                    GDALProgressFunc pf, void *pa, char *err,
                    size_t errlen);

/* A region's features read by FID (region_read.c): a source of features
 * for the reader (xgo_src.next, with xgp__fetch_next), the n features of
 * s whose ascending FIDs fid lists, each once, in no given order.  Begin
 * sets s's filter (s is opened without the job's); end removes it and
 * frees what begin allocated.  XG_ENOMEM. */
struct xgp_fetch {
    struct xgo_src *s;
    const int64_t *fid;
    size_t n, got, at;
    unsigned char *have;      /* per listed feature: taken */
    int random, pass;
};
/* qsort's and bsearch's order of FIDs (int64_t). */
int xgp__fid_cmp(const void *x, const void *y);
int xgp__fetch_begin(struct xgp_fetch *f, struct xgo_src *s,
                     const int64_t *fid, size_t n);
OGRFeatureH xgp__fetch_next(void *arg, int *rc, char *err, size_t errlen);
void xgp__fetch_end(struct xgp_fetch *f);

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

/* Rank 0: keeps the n sorted records v for the EXACTGEO driver, as a
 * single run's records are kept (xgo__kept_new, under layer_name, rep's
 * written and layer): the elements they name, each record a contact
 * between them in v's order, the copied attributes fetched by FID from
 * src (xgp__plan's), which *keep takes over (src left zeroed).  So the
 * driver's features are those of the single run, in its order (xgp_run's
 * order; fields, attributes, geometries).  pf/pa (may be NULL) go to 1 at
 * the end.  *keep: free with xgo__kept_free; NULL on failure. */
int xgp__keep_records(const struct xgo_job *job, const char *layer_name,
                      OGRSpatialReferenceH srs, struct xgo_src src[2],
                      const struct xgp_rec *v, size_t n,
                      struct xgo_report *rep, struct xgo_kept **keep,
                      GDALProgressFunc pf, void *pa, char *err,
                      size_t errlen);

/* xgp_run with the records kept in *keep (xgp__keep_records; free with
 * xgo__kept_free) rather than written: the EXACTGEO driver's run in
 * regions (job.c, with xgp_comm_local).  The report, figures, messages
 * and codes are xgp_run's; progress from 0 to 1.  *keep NULL on
 * failure, and on ranks other than 0. */
int xgp__run_keep(struct xgp_comm *comm, const struct xgo_job *job,
                  const char *layer_name, struct xgo_kept **keep,
                  struct xg_stats *st, char *err, size_t errlen);

#endif /* XGP_INTERNAL_H */
