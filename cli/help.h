/* help.h -- the exactgeo tool's --help text and refused options. */
#ifndef XG_CLI_HELP_H
#define XG_CLI_HELP_H

#include <stdio.h>

/* Prints the --help text: usage and summary of every operation of the
 * table, then the options. */
void help_print(FILE *f);

/* For an ogr2ogr option the tool does not take (-sql, -t_srs, ...), what
 * to do instead; NULL for others. */
const char *help_refused(const char *opt);

#endif
