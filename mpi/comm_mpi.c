/*
 * comm_mpi.c -- the communicator over MPI (xgp_mpi.h, ogr_driver/xgp.h): MPI_COMM_WORLD.
 * Buffers go as bytes (MPI_BYTE): the ranks of one job share one binary
 * and one architecture.  Large buffers go in pieces of at most 64 MiB,
 * so that a rank's records may pass 2^31 bytes (MPI's counts are int).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "xgp_mpi.h"

#define PIECE ((size_t)1 << 26)

/* xgp_comm.bcast (contract in ogr_driver/xgp.h): MPI_Bcast from rank 0,
 * PIECE bytes at a time.  Always XG_OK (MPI's errors end the job). */
static int mpi_bcast(struct xgp_comm *c, void *buf, size_t n)
{
    size_t at;
    (void)c;
    for (at = 0; at < n; at += PIECE) {
        size_t k = n - at < PIECE ? n - at : PIECE;
        MPI_Bcast((char *)buf + at, (int)k, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    return XG_OK;
}

/* xgp_comm.max (contract in xgp.h): MPI_Allreduce with MPI_MAX. */
static int mpi_max(struct xgp_comm *c, int *v)
{
    int in = *v;
    (void)c;
    MPI_Allreduce(&in, v, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return XG_OK;
}

/* xgp_comm.gather (contract in xgp.h): the lengths first (MPI_Gather),
 * then each rank's bytes in PIECEs, tag 1.  XG_ENOMEM on rank 0 when
 * *all cannot be had: the bytes are still received, into a scratch
 * piece, so that no sender waits for ever; the few bytes a rank's
 * length takes are not optional (MPI_Abort without them). */
static int mpi_gather(struct xgp_comm *c, const void *buf, size_t n,
                      void **all, size_t *len)
{
    uint64_t mine = n, *lens = NULL;
    char *scratch = NULL;
    size_t total = 0, at, off;
    int r, rc = XG_OK;
    *all = NULL;
    /* a few bytes per rank: without them rank 0 cannot go on, nor let
     * the others go */
    if (c->rank == 0 && !(lens = malloc((size_t)c->size * sizeof *lens)))
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Gather(&mine, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, 0,
               MPI_COMM_WORLD);
    if (c->rank != 0) {
        for (at = 0; at < n; at += PIECE) {
            size_t k = n - at < PIECE ? n - at : PIECE;
            MPI_Send((const char *)buf + at, (int)k, MPI_BYTE, 0, 1,
                     MPI_COMM_WORLD);
        }
        return XG_OK;
    }
    for (r = 0; r < c->size; r++)
        total += len[r] = (size_t)lens[r];
    if (rc == XG_OK && !(*all = malloc(total ? total : 1)))
        rc = XG_ENOMEM;
    /* the pieces are received even when there is nowhere to keep them,
     * so that no sender waits for ever */
    if (!*all && !(scratch = malloc(PIECE)))
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (r = 0, off = 0; r < c->size; r++) {
        size_t nr = (size_t)lens[r];
        if (r == 0) {
            if (*all)
                memcpy(*all, buf, n);
        } else {
            for (at = 0; at < nr; at += PIECE) {
                size_t k = nr - at < PIECE ? nr - at : PIECE;
                char *to = *all ? (char *)*all + off + at : scratch;
                MPI_Recv(to, (int)k, MPI_BYTE, r, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            }
        }
        off += nr;
    }
    free(lens);
    free(scratch);
    return rc;
}

/* xgp_comm.scatter (contract in xgp.h): rank 0 makes each rank's part
 * in turn, in its own buffer, and sends its length, then its bytes in
 * PIECEs, tag 2. */
static int mpi_scatter(struct xgp_comm *c,
                       int (*make)(void *arg, int r, struct xgp_buf *b),
                       void *arg, struct xgp_buf *mine)
{
    uint64_t nr = 0;
    size_t at;
    char *scratch = NULL;
    if (c->rank == 0) {
        int r, rc = XG_OK, e;
        for (r = 1; r < c->size; r++) {
            mine->len = 0;
            if ((e = make(arg, r, mine)) != XG_OK) {
                rc = rc ? rc : e;
                mine->len = 0;
            }
            nr = mine->len;
            MPI_Send(&nr, 1, MPI_UINT64_T, r, 2, MPI_COMM_WORLD);
            for (at = 0; at < mine->len; at += PIECE) {
                size_t k = mine->len - at < PIECE ? mine->len - at : PIECE;
                MPI_Send(mine->p + at, (int)k, MPI_BYTE, r, 2,
                         MPI_COMM_WORLD);
            }
        }
        mine->len = 0;
        e = make(arg, 0, mine);
        return rc ? rc : e;
    }
    MPI_Recv(&nr, 1, MPI_UINT64_T, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    mine->len = 0;
    if (nr > mine->cap) {
        unsigned char *p = realloc(mine->p, (size_t)nr);
        if (p) {
            mine->p = p;
            mine->cap = (size_t)nr;
        }
    }
    /* the pieces are received even when there is nowhere to keep them,
     * so that rank 0 does not wait for ever */
    if (nr > mine->cap && !(scratch = malloc(PIECE)))
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (at = 0; at < (size_t)nr; at += PIECE) {
        size_t k = (size_t)nr - at < PIECE ? (size_t)nr - at : PIECE;
        MPI_Recv(scratch ? scratch : (char *)mine->p + at, (int)k, MPI_BYTE,
                 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    free(scratch);
    if (scratch)
        return XG_ENOMEM;
    mine->len = (size_t)nr;
    return XG_OK;
}

/* xgp_comm.end (contract in xgp.h): MPI_Finalize, unless it was done
 * already (a second call does nothing). */
static void mpi_end(struct xgp_comm *c)
{
    int done = 0;
    (void)c;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

int xgp_comm_mpi(struct xgp_comm *c, int *argc, char ***argv, char *err,
                 size_t errlen)
{
    (void)err, (void)errlen;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c->size);
    c->name = "mpi";
    c->bcast = mpi_bcast;
    c->max = mpi_max;
    c->gather = mpi_gather;
    c->scatter = mpi_scatter;
    c->end = mpi_end;
    return XG_OK;
}
