/*
 * args.c -- the tool's command line (args.h):
 *   exactgeo OPERATION [options] DST A_SRC B_SRC
 * The tool's own options (output, format, messages) here; the run
 * options (run_opts) through xgo_option_set, as a connection string's
 * keys; the options an operation refuses told with what to use instead
 * (help_refused).
 */
#include <stdio.h>
#include <string.h>
#include <gdal.h>
#include <cpl_string.h>
#include "args.h"
#include "exactgeo.h"
#include "help.h"
#include "tool.h"

/* The tool's run options and their keys in the one parser; a flag (the
 * option alone, no value) sets its key to flag. */
static const struct {
    const char *opt, *key, *flag;
} run_opts[] = {
    {"-al", "al", NULL},         {"-bl", "bl", NULL},
    {"-where", "awhere", NULL},  {"-bwhere", "bwhere", NULL},
    {"-acopy", "acopy", NULL},   {"-bcopy", "bcopy", NULL},
    {"--engine", "engine", NULL}, {"--grid", "grid", NULL},
    {"--threads", "threads", NULL}, {"--gpus", "gpus", NULL},
    {"-spat", "aspat", NULL},
    {"-bspat", "bspat", NULL},   {"-outside", "outside", "yes"},
    {"-skip-invalid", "skip_invalid", "yes"}, {"--verify", "verify", "yes"},
    {"--tin", "tin", "yes"},     {"--regions", "regions", NULL},
    {"--max-memory", "max_memory", NULL},
    {"-oo", "oo", NULL},         {"-aoo", "aoo", NULL},
    {"-boo", "boo", NULL},       {"-bgroup", "bgroup", NULL},
    {"--solids-checked", "solids_checked", "yes"},
};

/* Sets run option argv[*i] (a key of run_opts) from its value: flag when
 * not NULL, else the next argument (-spat, -bspat: the next four); exits
 * on a usage error. */
static void run_option(int argc, char **argv, int *i, const char *key,
                       const char *flag, struct xgo_job *job)
{
    const char *opt = argv[*i];
    char box[512], err[512];
    const char *value;
    if (flag) {
        value = flag;
    } else if (strcmp(key, "aspat") == 0 || strcmp(key, "bspat") == 0) {
        if (*i + 4 >= argc)
            tool_usage_error("%s needs four values: XMIN YMIN XMAX YMAX",
                             opt);
        snprintf(box, sizeof box, "%s %s %s %s", argv[*i + 1],
                 argv[*i + 2], argv[*i + 3], argv[*i + 4]);
        *i += 4;
        value = box;
    } else {
        if (*i + 1 >= argc)
            tool_usage_error("%s needs a value", opt);
        value = argv[++*i];
    }
    if (xgo_option_set(job, key, value, err, sizeof err) != XG_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s: %s", opt, err);
        tool_usage_error("%s", msg);
    }
}

/* argv[*i], an option that is not the tool's own: a run option (its
 * value read, *i moved past it), else an option the operation refuses
 * (said so, with what to use instead), else unknown: both end the
 * process (exit 2). */
static void other_option(int argc, char **argv, int *i, struct xgo_job *job)
{
    const char *a = argv[*i];
    char instead[512];
    int refused = help_refused(job->op, a, instead, sizeof instead);
    size_t k;
    for (k = 0; k < sizeof run_opts / sizeof *run_opts; k++)
        if (!strcmp(a, run_opts[k].opt))
            break;
    if (k < sizeof run_opts / sizeof *run_opts) {
        run_option(argc, argv, i, run_opts[k].key, run_opts[k].flag, job);
        return;
    }
    if (refused) {
        if (tool_comm.rank == 0) {
            fprintf(stderr, "exactgeo: %s is not supported: %s\n", a,
                    instead);
            tool_try_help();
        }
        tool_leave(2);
    }
    tool_usage_error("unknown option '%s'", a);
}

/* --help, --operations, --version answered, the process ended (args.h). */
void args_early(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            /* exactgeo OP --help: that operation's */
            const struct xg_op *op = xg_op_find(argv[1]);
            if (tool_comm.rank == 0 && op)
                help_print_op(stdout, op);
            else if (tool_comm.rank == 0)
                help_print(stdout);
            tool_leave(0);
        }
        if (strcmp(argv[i], "--operations") == 0)
            tool_leave(tool_comm.rank != 0 ||
                       xgo_ops_write_json(stdout) == XG_OK ? 0 : 1);
        if (strcmp(argv[i], "--version") == 0) {
            if (tool_comm.rank == 0)
                printf("exactgeo %s (GDAL %s)\n", XG_VERSION,
                       GDALVersionInfo("RELEASE_NAME"));
            tool_leave(0);
        }
    }
}

/* The options and operands after the operation (argv[2] on) into o and
 * job: the tool's own here, the others through other_option; then their
 * number checked against the operation's inputs. */
static void options(int argc, char **argv, struct opts *o,
                    struct xgo_job *job, const char **pos)
{
    int i, npos = 0;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
#define VALUE()                                                            \
    (i + 1 < argc ? argv[++i]                                              \
                  : (tool_usage_error("%s needs a value", a), ""))
        if (a[0] != '-' || a[1] == '\0') {
            if (npos == 1 + job->op->ninputs)
                tool_usage_error("unexpected argument '%s'", a);
            pos[npos++] = a;
        } else if (!strcmp(a, "-f")) {
            o->format = VALUE();
        } else if (!strcmp(a, "-nln")) {
            o->nln = VALUE();
        } else if (!strcmp(a, "-lco")) {
            o->lco = CSLAddString(o->lco, VALUE());
        } else if (!strcmp(a, "-dsco")) {
            o->dsco = CSLAddString(o->dsco, VALUE());
        } else if (!strcmp(a, "-overwrite")) {
            o->overwrite = 1;
        } else if (!strcmp(a, "-append")) {
            o->append = 1;
        } else if (!strcmp(a, "-progress")) {
            o->progress = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "-quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "--stats")) {
            o->stats = VALUE();
        } else if (!strcmp(a, "--dump")) {
            job->dump_path = VALUE();
        } else {
            other_option(argc, argv, &i, job);
        }
#undef VALUE
    }
    if (npos != 1 + job->op->ninputs) {
        char args[64];
        help_args(job->op, args, sizeof args);
        tool_usage_error("expected %s", args);
    }
}

/* The command line into o and job, checked; usage errors exit 2
 * (args.h). */
void args_parse(int argc, char **argv, struct opts *o, struct xgo_job *job)
{
    const char *pos[3] = {NULL, NULL, NULL};
    char err[2048];
    if (argc < 2) {
        xgo_op_list(err, sizeof err);
        tool_usage_error("no operation given (%s)", err);
    }
    if (xgo_option_set(job, "op", argv[1], err, sizeof err) != XG_OK)
        tool_usage_error("%s", err);
    tool_help_op = job->op;
    job->a.layer_opt = "-al";
    job->b.layer_opt = "-bl";
    options(argc, argv, o, job, pos);
    if (o->overwrite && o->append)
        tool_usage_error("%s", "-overwrite and -append exclude each other");
    /* the ranks of an MPI job run in regions, one at least each */
    if (tool_comm.size > 1 && !job->regions) {
        char n[32];
        snprintf(n, sizeof n, "%d", tool_comm.size);
        if (xgo_option_set(job, "regions", n, err, sizeof err) != XG_OK) {
            char msg[4096];
            snprintf(msg, sizeof msg, "%d MPI ranks: %s", tool_comm.size,
                     err);
            tool_usage_error("%s", msg);
        }
    }
    if (job->regions && job->regions < tool_comm.size) {
        char msg[256];
        snprintf(msg, sizeof msg, "--regions %d with %d MPI ranks: each "
                 "rank needs one region at least", job->regions,
                 tool_comm.size);
        tool_usage_error("%s", msg);
    }
    if (job->regions && job->dump_path)
        tool_usage_error("%s", "--dump writes the inputs whole: not in a "
                         "run in regions (--regions, mpirun)");
    o->dst = pos[0];
    job->a.path = pos[1];
    job->b.path = pos[2];     /* NULL for an operation of one input */
}
