/* redblue.c -- 2D red/blue segment intersection (issue 4: not yet built). */
#include "xg_internal.h"

int xg_redblue(struct xg_ctx *ctx, const struct xg_segs *a,
               const struct xg_segs *b, const struct xg_opts *opt,
               struct xg_contacts *out, struct xg_stats *st)
{
    (void)a; (void)b; (void)opt; (void)out; (void)st;
    return xg__error(ctx, XG_ENOTSUP, "redblue is not implemented yet");
}

int xg_redblue_pair(struct xg_counters *cnt, const double sa[6],
                    const double sb[6], struct xg_contact *c)
{
    (void)cnt; (void)sa; (void)sb; (void)c;
    return -1;
}
