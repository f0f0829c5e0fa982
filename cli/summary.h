/* summary.h -- the lines the exactgeo tool prints after a run. */
#ifndef XG_CLI_SUMMARY_H
#define XG_CLI_SUMMARY_H

#include "xgo.h"

/* Prints to stdout what was read, how it ran and what was written to
 * dst, in the words of job->op's table entry. */
void summary_print(const char *dst, const struct xgo_job *job,
                   const struct xg_stats *st, const struct xgo_report *rep);

#endif
