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

/* ---- the temporary file (part_spill.c) ---- */

/* One unlinked temporary file: nothing of it outlives the process. */
struct xgp_spill {
    int fd;
    uint64_t end;             /* bytes written                          */
    char dir[4096];           /* its folder, for messages               */
};
struct xgp_chunk {
    uint64_t off, len;
};
/* Entries appended to the file in chunks (each a run of whole entries),
 * the last ones pending in buf until a chunk is full. */
struct xgp_stream {
    unsigned char *buf;
    size_t used, cap;
    struct xgp_chunk *c;
    size_t n, ncap;
    uint64_t bytes;           /* written and pending                    */
};
/* Makes the file in dir (NULL or "": $TMPDIR, else /tmp).  XG_EIO. */
int xgp__spill_open(struct xgp_spill *s, const char *dir, char *err,
                    size_t errlen);
void xgp__spill_close(struct xgp_spill *s);
/* n bytes at the file's end, their offset in *off; n bytes at off read
 * back.  XG_EIO (a full disk) with the message in err. */
int xgp__spill_write(struct xgp_spill *s, const void *p, size_t n,
                     uint64_t *off, char *err, size_t errlen);
int xgp__spill_read(const struct xgp_spill *s, uint64_t off, void *to,
                    size_t n, char *err, size_t errlen);
/* One entry of n bytes appended to t, in chunks of cap bytes (an entry
 * larger than cap is a chunk of its own); t's pending entries written;
 * t's bytes (t->bytes of them) into to; t freed.  XG_EIO, XG_ENOMEM. */
int xgp__stream_put(struct xgp_spill *s, struct xgp_stream *t, size_t cap,
                    const void *p, size_t n, char *err, size_t errlen);
int xgp__stream_flush(struct xgp_spill *s, struct xgp_stream *t, char *err,
                      size_t errlen);
int xgp__stream_load(const struct xgp_spill *s, const struct xgp_stream *t,
                     unsigned char *to, char *err, size_t errlen);
void xgp__stream_free(struct xgp_stream *t);

/* b freed when it holds more than 64 MiB: a buffer used again from
 * region to region saves the first touch of its pages in many small
 * regions, but a few large ones would hold it beside their sets. */
void xgp__buf_trim(struct xgp_buf *b);

/* ---- the plan (part_plan.c) ---- */

/* A feature's elements as the plan files them and as a region receives
 * them: this head, then its elements (m & XGP_ENT_COUNT of them), each
 * its xg_elem_doubles doubles, preceded by its index in the feature
 * (int64_t) where m has XGP_ENT_SUBS; without it they are numbered 0, 1,
 * 2... (nearly always: a point, a line's segments, a surface's
 * triangles), and a point takes 40 bytes, not 56. */
struct xgp_ent {
    int64_t fid;
    uint32_t m;
    /* filed: the first strip the feature meets and the one that owns it
     * (at most 65536 strips); in a region's buffer: c0 is 1 when the
     * region owns it */
    uint16_t c0, cown;
};
#define XGP_ENT_SUBS 0x80000000u
#define XGP_ENT_COUNT 0x7fffffffu

/* The bytes of the elements after head h, of d doubles each. */
static inline size_t xgp__ent_body(const struct xgp_ent *h, size_t d)
{
    return (size_t)(h->m & XGP_ENT_COUNT) *
           (d * sizeof(double) + (h->m & XGP_ENT_SUBS ? sizeof(int64_t) : 0));
}

/* A feature filed once, for every strip it meets (wide: it meets many). */
struct xgp_wide {
    uint64_t off, len;
    int32_t c0, c1;
};

/* Rank 0's plan: the fine strips ("bins") the pass filed each feature
 * under, the file, and the regions, each a run of bins holding about an
 * equal share of the filed bytes (the work, not the area). */
struct xgp_plan {
    struct xgp_spill sp;
    int nbins;
    int axis;                 /* the bins' axis, their low end and     */
    double lo, scale;         /* bins per unit (0: none, one step each) */
    int doubles[2];           /* per input: xg_elem_doubles of its kind */
    struct xg_region *bins;
    int *first;               /* region k: bins first[k] .. first[k+1]-1 */
    struct xgp_stream *narrow[2]; /* per input, per bin                 */
    struct xgp_wide *wide[2];
    size_t nwide[2], wcap[2];
};
/* What the regions took from pl freed, its file kept (the records' runs
 * follow in it); then everything, the file closed. */
void xgp__plan_drop(struct xgp_plan *pl);
void xgp__plan_free(struct xgp_plan *pl);

/* Rank 0: opens the inputs as a single run does (the job's filters, the
 * copied fields resolved: src[0], src[1], which the caller closes with
 * xgo__src_close), checks their CRSs (*srs), cuts the union of their
 * extents (OGR_L_GetExtent) into fine strips, and reads every feature
 * once with the single run's reader: its failures, warnings and counts
 * (src[i]'s nread, nogeom, barren, invalid; rep's a_features,
 * b_features, null_geoms, triangulated, nonplanar, bad_polygons,
 * not_closed) are the single run's.  Each feature that gives elements is
 * filed in pl's file under the strips whose reach meets their (x, y) box,
 * owned by the one that holds their first vertex; then the n regions
 * (regions, the caller's) are cut from runs of strips, by the bytes
 * filed.  Two features of one FID are an error.  Progress: the reads'
 * stages of bar, estimated first (xgo__bar_estimate). */
int xgp__plan(const struct xgo_job *job, int n, struct xgo_src src[2],
              OGRSpatialReferenceH *srs, struct xg_region *regions,
              struct xgo_report *rep, struct xgo_bar *bar,
              struct xgp_plan *pl, char *err, size_t errlen);

/* Region k's features, from the plan's file, into out (grown as needed;
 * tmp: scratch, grown too), out->len bytes: a uint64_t, the bytes of A's entries,
 * then A's entries, then B's, each feature once, c0 telling whether the
 * region owns it.  XG_ENOMEM, XG_EIO. */
int xgp__plan_region(const struct xgp_plan *pl, int k, struct xgp_buf *out,
                     struct xgp_buf *tmp, char *err, size_t errlen);

/* Runs region r on this rank: its features (in: one of
 * xgp__plan_region's, trimmed once the sets are made, xgp__buf_trim)
 * into sets, those it owns first, the core run with
 * ctx, the contacts r owns kept as records, sorted, appended to the
 * rank's file sp as one run (runs); the owned elements and the work
 * figures added to part.  pf/pa (may be NULL) see the progress, and
 * cancel by returning FALSE. */
struct xgp_runs {
    struct xgp_chunk *v;      /* each a run of sorted records in sp     */
    size_t n, cap;
    uint64_t nrec;
    struct xgp_rec *scratch;  /* a region's records, made there         */
    size_t scratch_cap;
};
int xgp__region_run(const struct xgo_job *job, struct xg_ctx *ctx,
                    const struct xg_region *r, struct xgp_buf *in,
                    struct xgp_part *part,
                    struct xgp_spill *sp,
                    struct xgp_runs *runs, GDALProgressFunc pf, void *pa,
                    char *err, size_t errlen);

/* Sorts n records into the single-process order: ascending A FID, A
 * element, then the records of a B element by B FID and B element, then
 * the record of no B element. */
void xgp__recs_sort(struct xgp_rec *v, size_t n);
/* That order: < 0, 0 or > 0 as x goes before, with or after y. */
int xgp__rec_cmp(const struct xgp_rec *x, const struct xgp_rec *y);

/* The records of several sorted runs, merged into the single-process
 * order: runs in the file sp (runs, read through small buffers), and
 * the records at mem (nmem of them, concatenated sorted runs, as the
 * ranks send them).  next: the next record, NULL at the end or on a
 * failure (*rc, message in err). */
struct xgp_merge {
    struct xgp_cur *cur;
    size_t ncur, *heap, nheap;
    const struct xgp_spill *sp;
    uint64_t n;               /* records in all                         */
    size_t bufn;              /* records a file's run reads at a time   */
    struct xgp_rec rec;       /* the one next returned                  */
};
int xgp__merge_begin(struct xgp_merge *m, const struct xgp_spill *sp,
                     const struct xgp_runs *runs, const struct xgp_rec *mem,
                     size_t nmem, char *err, size_t errlen);
const struct xgp_rec *xgp__merge_next(struct xgp_merge *m, int *rc,
                                      char *err, size_t errlen);
void xgp__merge_end(struct xgp_merge *m);

/* Rank 0: writes the records of m (merged in order) to dst as
 * xgo_job_run would (ogr_driver's writer), the copied attributes fetched
 * by FID from src (xgp__plan's); fills rep->written, layer,
 * lines_layer. */
int xgp__write(const struct xgo_job *job, GDALDatasetH dst,
               const char *layer_name, char **lco,
               OGRSpatialReferenceH srs, struct xgo_src src[2],
               struct xgp_merge *m, struct xgo_report *rep,
               GDALProgressFunc pf, void *pa, char *err, size_t errlen);

/* Rank 0: keeps the records of m for the EXACTGEO driver, as a single
 * run's records are kept (xgo__kept_new, under layer_name, rep's
 * written and layer): the elements they name, each record a contact
 * between them in m's order, the copied attributes fetched by FID from
 * src (xgp__plan's), which *keep takes over (src left zeroed).  So the
 * driver's features are those of the single run, in its order (xgp_run's
 * order; fields, attributes, geometries).  pf/pa (may be NULL) go to 1 at
 * the end.  *keep: free with xgo__kept_free; NULL on failure. */
int xgp__keep_records(const struct xgo_job *job, const char *layer_name,
                      OGRSpatialReferenceH srs, struct xgo_src src[2],
                      struct xgp_merge *m, struct xgo_report *rep,
                      struct xgo_kept **keep, GDALProgressFunc pf, void *pa,
                      char *err, size_t errlen);

/* xgp_run with the records kept in *keep (xgp__keep_records; free with
 * xgo__kept_free) rather than written: the EXACTGEO driver's run in
 * regions (job.c, with xgp_comm_local).  The report, figures, messages
 * and codes are xgp_run's; progress from 0 to 1.  *keep NULL on
 * failure, and on ranks other than 0. */
int xgp__run_keep(struct xgp_comm *comm, const struct xgo_job *job,
                  const char *layer_name, struct xgo_kept **keep,
                  struct xg_stats *st, char *err, size_t errlen);

#endif /* XGP_INTERNAL_H */
