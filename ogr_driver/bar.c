/*
 * bar.c -- the job's progress bar cut into stages by their estimated
 * work (xgo_internal.h, struct xgo_bar).
 *
 * A fixed cut (read 10 %, core 60 %, write 10 %, close 10 %) made the bar
 * stand still for seconds where a stage took more of the run than its
 * slice: a GeoPackage's write took 60 % of the time for 10 % of the bar.
 * Here each stage, when it begins, takes of what is left of the bar the
 * part its estimate is of the estimates of it and the stages after it
 * (bar_costs.c gives them, from counts of features and records); an
 * estimate made better later (the records, known once the core ends)
 * re-cuts only what is left.  So the bar never moves back, and a wrong
 * guess early is corrected at the next stage's start.
 */
#include <string.h>
#include "xgo_internal.h"

/* Every stage that runs gets this much at least (in the units of the
 * estimates, nanoseconds): a stage estimated at nothing (a CSV file's
 * close) still has a slice of its own, so that the stage before it never
 * reaches the end of the bar. */
#define FLOOR 1e3

/* The highest value a stage tells: below GDAL's last tick (its terminal
 * bar prints "100 - done." at 1.0), which xgo__bar_done alone tells. */
#define BELOW_END (1.0 - 1e-9)

static const char *const names[XGO_BAR_STAGES] = {
    "reading A", "reading B", "computing", "writing", "closing", "indexing"};

void xgo__bar_init(struct xgo_bar *b, GDALProgressFunc pf, void *pa)
{
    int k;
    memset(b, 0, sizeof *b);
    b->pf = pf;
    b->pa = pa;
    b->stage = -1;
    b->weight = 1;
    for (k = 0; k < XGO_BAR_STAGES; k++)
        b->est[k] = -1;
}

void xgo__bar_plan(struct xgo_bar *b, int stage, double est)
{
    b->est[stage] = est;
}

/* est of stage k as the cut counts it: -1 (does not run) stays -1. */
static double weight(const struct xgo_bar *b, int k)
{
    return b->est[k] < 0 ? -1 : b->est[k] < FLOOR ? FLOOR : b->est[k];
}

void xgo__bar_begin(struct xgo_bar *b, int stage)
{
    double left, rest = 0, w;
    int k;
    b->at += b->span;
    if (b->at > BELOW_END)
        b->at = BELOW_END;
    left = 1.0 - b->at;
    for (k = stage; k < XGO_BAR_STAGES; k++)
        if (weight(b, k) >= 0)
            rest += weight(b, k);
    w = weight(b, stage);
    if (w < 0)  /* begun though not planned: a floor's worth */
        rest += (w = FLOOR);
    b->stage = stage;
    b->span = left * w / rest;
    CPLDebug("EXACTGEO", "progress: %s from %.4f to %.4f", names[stage],
             b->at, b->at + b->span);
}

int CPL_STDCALL xgo__bar_fn(double f, const char *msg, void *arg)
{
    struct xgo_bar *b = arg;
    double v;
    (void)msg;
    if (!b->pf)
        return TRUE;
    if (!(f > 0))  /* NaN too */
        f = 0;
    if (f > 1)
        f = 1;
    v = b->at + b->span * f;
    if (v > BELOW_END)
        v = BELOW_END;
    if (v < b->shown)
        v = b->shown;
    b->shown = v;
    return b->pf(v, b->stage >= 0 ? names[b->stage] : NULL, b->pa);
}

int xgo__bar_done(struct xgo_bar *b)
{
    b->shown = 1.0;
    return !b->pf || b->pf(1.0, NULL, b->pa);
}
