/*
 * tool.c -- how the exactgeo tool speaks and ends (tool.h): the
 * processes of the run, the messages of rank 0, the exit codes (0 done,
 * 1 failed, 2 a usage error).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "tool.h"

struct pathmap tool_names;
struct xgp_comm tool_comm;
int tool_go_pending;
const struct xg_op *tool_help_op;
int tool_quiet;

/* Ends this process with code, the other ranks let go first (tool.h). */
void tool_leave(int code)
{
    if (tool_go_pending) {
        int go = code;
        tool_go_pending = 0;
        tool_comm.bcast(&tool_comm, &go, sizeof go);
    }
    tool_comm.end(&tool_comm);
    exit(code);
}

/* A failure's message from rank 0, then exit 1 (tool.h). */
void tool_die(const char *fmt, ...)
{
    char msg[4096], shown[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pathmap_apply(&tool_names, msg, shown, sizeof shown);
    if (tool_comm.rank == 0)
        fprintf(stderr, "exactgeo: %s\n", shown);
    tool_leave(1);
}

/* Where to find help: the operation's own --help once it is known. */
void tool_try_help(void)
{
    fprintf(stderr, "Try 'exactgeo %s%s--help'.\n",
            tool_help_op ? tool_help_op->name : "", tool_help_op ? " " : "");
}

/* A usage error's message and the way to help, then exit 2 (tool.h). */
void tool_usage_error(const char *fmt, const char *arg)
{
    if (tool_comm.rank == 0) {
        fputs("exactgeo: ", stderr);
        fprintf(stderr, fmt, arg);
        fputc('\n', stderr);
        tool_try_help();
    }
    tool_leave(2);
}

/* The MPI job when a launcher started this process, else this process
 * alone (tool.h). */
void tool_comm_open(int *argc, char ***argv)
{
    char err[512];
    int n = xgp_launched();
    xgp_comm_local(&tool_comm);
    if (n == 0)
        return;
    if (xgp_comm_mpi(&tool_comm, argc, argv, err, sizeof err) != XG_OK) {
        if (n == 1)           /* one process: as if started alone */
            return;
        fprintf(stderr, "exactgeo: %s\n", err);
        exit(1);
    }
}

/* GDAL's warnings and debug messages, through the map of names (tool.h). */
void CPL_STDCALL tool_on_cpl_error(CPLErr cls, CPLErrorNum no,
                                   const char *msg)
{
    char shown[4096];
    (void)no;
    if (cls != CE_Debug && (cls != CE_Warning || tool_quiet))
        return;
    pathmap_apply(&tool_names, msg, shown, sizeof shown);
    if (cls == CE_Debug)
        fprintf(stderr, "%s\n", shown);
    else
        fprintf(stderr, "exactgeo: warning: %s\n", shown);
}
