/*
 * xgp.h -- a run in regions (issue 15), in one process or over MPI: the
 * partitioned run of ogr_driver/ (part_*.c) against a communicator it
 * declares here.
 *
 * The plane is cut into regions (xg_regions_plan); rank 0 reads every
 * feature once, as a single run reads it, and lists it by FID for the
 * regions its elements meet; each region's run reads its features by
 * FID, runs the operation's engine on them and keeps the contacts the
 * region owns (exactgeo.h, "Regions"), each turned into a record named
 * by the sources' ids.  Rank 0 gathers the records, puts them in the
 * single-process order and writes them through the single run's writer
 * (xgp_run), or keeps them as a single run's records for the EXACTGEO
 * driver, which runs in regions in its own process (xgp__run_keep,
 * xgp_internal.h): one run, two ends.
 * The run is written once, against a communicator (struct xgp_comm) with
 * two implementations: one process running the regions one after another
 * (part_local.c, here) and MPI (mpi/comm_mpi.c, ./configure --with-mpi;
 * mpi/xgp_mpi.h).  Neither src/ nor this folder includes MPI's headers:
 * MPI stays at the edge, in mpi/, as GDAL does in ogr_driver/.  The
 * model: docs/cluster.md.
 */
#ifndef XGP_H
#define XGP_H

#include <stddef.h>
#include "xgo.h"

/* A buffer of bytes that grows and is used again: len bytes at p, room
 * for cap (p from malloc; free(p) frees it). */
struct xgp_buf {
    unsigned char *p;
    size_t len, cap;
};

/* The processes of a run and the few collective steps the run takes.
 * Every rank calls each step in the same order; a step's failure
 * returns an XG_E* code (MPI's own errors end the job, as MPI does by
 * default). */
struct xgp_comm {
    int rank, size;
    const char *name;         /* "local" or "mpi", for messages */
    /* n bytes at buf, rank 0's, to every rank */
    int (*bcast)(struct xgp_comm *c, void *buf, size_t n);
    /* *v = the largest of the ranks' *v, on every rank */
    int (*max)(struct xgp_comm *c, int *v);
    /* Each rank's n bytes at buf to rank 0, which receives them in rank
     * order in *all (allocated; the caller frees it with free()) and
     * their lengths in len (size entries, the caller's); other ranks
     * get *all NULL. */
    int (*gather)(struct xgp_comm *c, const void *buf, size_t n, void **all,
                  size_t *len);
    /* Rank 0 makes each rank r's part with make(arg, r, b) (r = 1 ..
     * size - 1, then 0: into b, its mine, grown as needed, len set) and
     * sends it to rank r, one at a time; each rank receives its own in
     * mine (grown as needed: the caller's, used again from round to
     * round, so that a region's bytes are not paged in anew each time).
     * On rank 0, the first failure of make (that rank's part then
     * empty); XG_ENOMEM on a rank that cannot hold its part (mine->len
     * 0; the part is received all the same, so that no rank waits). */
    int (*scatter)(struct xgp_comm *c,
                   int (*make)(void *arg, int r, struct xgp_buf *b),
                   void *arg, struct xgp_buf *mine);
    /* The end of the processes' work together (MPI_Finalize); call it
     * once, before exit, on every rank. */
    void (*end)(struct xgp_comm *c);
};

/* c = one process (rank 0 of 1).  Never fails. */
void xgp_comm_local(struct xgp_comm *c);

/*
 * Runs job (an operation that runs in regions: its entry takes
 * XG_OPT_REGIONS, today those that give contacts) in job->regions regions
 * (comm->size when 0; at least one per rank), on every rank of comm;
 * rank 0 writes the records to dst as xgo_job_run does (dst, layer_name,
 * lco and job->close_dst as there; other ranks pass dst NULL), in the
 * single-process order: ascending (A FID, A element, B FID, B element),
 * which is the order of a single run whose inputs are read in ascending
 * FID order (GeoPackage, Shapefile).  Attributes copied (-acopy, -bcopy)
 * are fetched by FID on rank 0.  The counts in job->report and st equal
 * a single run's (the features', and the warnings, from rank 0's pass
 * over the inputs; each feature's elements counted by the one region
 * that owns it); the report also says what each rank did
 * (report->per_rank, which the caller frees; with no job->report, the
 * run frees it).  On rank 0, returns 0 or
 * an XG_E* code with the one message of the run in err (bad input: the
 * message a single run gives, for the same feature; a cancelled run:
 * XG_ECANCEL); the other ranks return the same code, err empty.  The
 * inputs' features need unique ids (FIDs).
 */
int xgp_run(struct xgp_comm *comm, const struct xgo_job *job,
            GDALDatasetH dst, const char *layer_name, char **lco,
            struct xg_stats *st, char *err, size_t errlen);

#endif /* XGP_H */
