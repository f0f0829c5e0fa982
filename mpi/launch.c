/*
 * launch.c -- whether this process was started by an MPI launcher.  Only
 * then does the tool initialise MPI, so that a plain run stays as it was
 * (no MPI runtime started, no launcher needed).
 */
#include <stdlib.h>
#include "xgp_mpi.h"

/* A positive integer from the environment, or 0. */
static int env_int(const char *name)
{
    const char *v = getenv(name);
    long n = v && *v ? strtol(v, NULL, 10) : 0;
    return n > 0 && n < (1L << 30) ? (int)n : 0;
}

int xgp_launched(void)
{
    int n;
    /* Open MPI's mpirun; then the PMI of MPICH's hydra and of srun
     * --mpi=pmi2; then srun --mpi=pmix, whose size Slurm gives */
    if ((n = env_int("OMPI_COMM_WORLD_SIZE")) > 0)
        return n;
    if ((n = env_int("PMI_SIZE")) > 0)
        return n;
    if (getenv("PMIX_RANK") && (n = env_int("SLURM_NTASKS")) > 0)
        return n;
    return 0;
}
