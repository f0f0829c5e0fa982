/*
 * tool.h -- how the exactgeo tool speaks and ends (tool.c): one process,
 * or the ranks of an MPI job of which rank 0 alone prints, so that a
 * failed run says one thing once (the others fail alike, or learn of its
 * failure).  Every message goes through the map of hidden working names
 * to the user's (pathmap.h).  Shared by main.c and args.c.
 */
#ifndef TOOL_H
#define TOOL_H

#include <cpl_error.h>
#include "exactgeo.h"
#include "pathmap.h"
#include "xgp_mpi.h"

/* The processes of this run: this one alone, or the ranks of an MPI job
 * (tool_comm_open). */
extern struct xgp_comm tool_comm;
/* Hidden working names (staging folder, temporary side files) and the
 * user's names for them: every message goes through it. */
extern struct pathmap tool_names;
/* Rank 0 of several owes the others its go (0) or its exit code: they
 * wait for it while it checks DST and stages the output. */
extern int tool_go_pending;
/* The operation, once known: usage errors point to its own --help. */
extern const struct xg_op *tool_help_op;
/* -q: GDAL's warnings not printed (tool_on_cpl_error). */
extern int tool_quiet;

/* tool_comm: the MPI job when an MPI launcher started this process, else
 * this process alone; exits (1) when that cannot be. */
void tool_comm_open(int *argc, char ***argv);

/* Ends this process with code, after letting the other ranks go. */
void tool_leave(int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* "exactgeo: MESSAGE" on standard error (rank 0; working names shown as
 * the user's), then tool_leave(1). */
void tool_die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* "Try 'exactgeo [OP ]--help'." on standard error. */
void tool_try_help(void);

/* A usage error: "exactgeo: " and fmt with arg, then tool_try_help's
 * line (rank 0), then tool_leave(2). */
void tool_usage_error(const char *fmt, const char *arg)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* GDAL's error handler for the tool: warnings printed (unless
 * tool_quiet), and debug messages where CPL_DEBUG asks for them;
 * failures are reported by the tool's own message, which includes
 * GDAL's where it helps. */
void CPL_STDCALL tool_on_cpl_error(CPLErr cls, CPLErrorNum no,
                                   const char *msg);

#endif /* TOOL_H */
