/*
 * args.h -- the tool's command line (args.c): the operation, the
 * options and the operands, in ogr2ogr's manner, into the tool's own
 * options and the job; run options go through the one parser the
 * EXACTGEO: connection strings use (xgo_option_set).
 */
#ifndef ARGS_H
#define ARGS_H

#include "xgo.h"

/* The tool's own options (not the job's). */
struct opts {
    const char *dst, *format, *nln, *stats;
    char **lco, **dsco;       /* -lco, -dsco: CSL lists, the caller's */
    int overwrite, append, progress, quiet;
};

/* --help (-h), --operations and --version, wherever they stand among
 * the arguments: answered (by rank 0) and the process ended; returns
 * when there is none. */
void args_early(int argc, char **argv);

/* The operation (argv[1]), the options and the operands into o and job
 * (both zeroed by the caller), checked against each other and the MPI
 * job's ranks; o->dst, job->a.path and job->b.path point into argv.  A
 * usage error ends the process (exit 2). */
void args_parse(int argc, char **argv, struct opts *o, struct xgo_job *job);

#endif /* ARGS_H */
