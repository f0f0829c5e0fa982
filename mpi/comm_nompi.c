/*
 * comm_nompi.c -- the MPI communicator of a build without MPI: refused,
 * with what to do (./configure --with-mpi).
 */
#include <stdio.h>
#include "xgp_mpi.h"

int xgp_comm_mpi(struct xgp_comm *c, int *argc, char ***argv, char *err,
                 size_t errlen)
{
    (void)c, (void)argc, (void)argv;
    if (err && errlen)
        snprintf(err, errlen, "started by an MPI launcher (%d processes), "
                 "but this exactgeo was built without MPI: build it with "
                 "./configure --with-mpi (Open MPI's mpicc)",
                 xgp_launched());
    return XG_ENOTSUP;
}
