/*
 * part_local.c -- the communicator of one process (xgp.h): rank 0 of 1,
 * so that every collective step is a copy or nothing.  The run in
 * regions goes through it when no MPI job is there: that is how the
 * partitioned path is tested everywhere, and how an input larger than
 * memory streams through in regions.
 */
#include <stdlib.h>
#include <string.h>
#include "xgp.h"

/* The steps of one process (xgp.h's struct xgp_comm says what each
 * does): a broadcast and a maximum change nothing, a gather is one copy
 * (allocated; the caller frees it with free()), a scatter makes rank 0's
 * part in place, an end does nothing. */
static int local_bcast(struct xgp_comm *c, void *buf, size_t n)
{
    (void)c, (void)buf, (void)n;
    return XG_OK;
}

static int local_max(struct xgp_comm *c, int *v)
{
    (void)c, (void)v;
    return XG_OK;
}

static int local_gather(struct xgp_comm *c, const void *buf, size_t n,
                        void **all, size_t *len)
{
    (void)c;
    *all = malloc(n ? n : 1);
    if (!*all)
        return XG_ENOMEM;
    memcpy(*all, buf, n);
    len[0] = n;
    return XG_OK;
}

static int local_scatter(struct xgp_comm *c,
                         int (*make)(void *arg, int r, struct xgp_buf *b),
                         void *arg, struct xgp_buf *mine)
{
    (void)c;
    mine->len = 0;
    return make(arg, 0, mine);
}

static void local_end(struct xgp_comm *c)
{
    (void)c;
}

void xgp_comm_local(struct xgp_comm *c)
{
    c->rank = 0;
    c->size = 1;
    c->name = "local";
    c->bcast = local_bcast;
    c->max = local_max;
    c->gather = local_gather;
    c->scatter = local_scatter;
    c->end = local_end;
}
