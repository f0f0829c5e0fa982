/*
 * xgp_mpi.h -- mpi/: the communicator over MPI for the partitioned run
 * of ogr_driver/ (xgp.h, struct xgp_comm), and whether this process was
 * started by an MPI launcher.  The only folder that includes mpi.h
 * (comm_mpi.c, with mpicc's flags).
 */
#ifndef XGP_MPI_H
#define XGP_MPI_H

#include <stddef.h>
#include "xgp.h"

/* The number of processes of the MPI job this process was launched in
 * (mpirun, srun: their environment says so), or 0 when it was started
 * on its own.  A plain start never initialises MPI. */
int xgp_launched(void);

/* c = the MPI job this process is part of (MPI_Init; xgp_launched()
 * says whether there is one).  XG_ENOTSUP in a build without MPI, with
 * the message in err. */
int xgp_comm_mpi(struct xgp_comm *c, int *argc, char ***argv, char *err,
                 size_t errlen);

#endif /* XGP_MPI_H */
