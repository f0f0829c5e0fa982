/*
 * xg_gpu.h -- what the library knows of the GPU engines: whether one
 * can run (gpu_engine.c), the segtri engine's strategies and
 * its knobs for tests and benchmarks.
 */
#ifndef XG_GPU_H
#define XG_GPU_H

#include <stdint.h>
#include "exactgeo.h"

/* ---- GPU engine (cuda/, when built) ---- */

/* The strategies of the GPU segtri engine: the paper's four (Table
 * 11.3; benchmark-only, cuda/paper.*, except multi-block, the fallback of
 * grids too wide for packed records) and ours. */
enum xg_gpu_strategy {
    XG_GPU_MULTI = 0,   /* several blocks per cell, pairs implicit */
    XG_GPU_LIST,        /* list of pairs built on the CPU          */
    XG_GPU_SEG,         /* one segment per thread                  */
    XG_GPU_TRI,         /* one triangle per thread                 */
    XG_GPU_PACKED,      /* multi-block with blocks cut from the run
                           of all pairs, small cells sharing a block
                           (ours; the engine's default)            */
    XG_GPU_NSTRAT
};

/* Knobs for tests and benchmarks; zeroed means the defaults. */
struct xg_gpu_opts {
    int strategy;         /* enum xg_gpu_strategy                    */
    double slack;         /* output capacity = count * (1 + slack);
                             0 = 0.05, negative = start at capacity 1 */
    /* filled in: */
    uint64_t count_bound; /* what the float count pass gave          */
    uint64_t hits;        /* entries the interval pass wrote         */
    uint64_t relaunches;  /* interval passes redone after overflow   */
    uint64_t batches;
    uint64_t not_owned;   /* box-meeting pairs left to another cell  */
    uint64_t construct_fail; /* hits whose point the host rounded    */
    uint64_t refined;     /* points certified on the device in
                             double-double                           */
    uint64_t plane_crossings; /* packed: pairs that reached the edge
                             tests (xg_segtri_edges)                 */
    double count_seconds, interval_seconds;  /* wall clock, with syncs */
    double count_kernel_seconds, interval_kernel_seconds; /* events */
    int device_prep;      /* 1: boxes, grid and tables built on the GPU */
};

/* ---- GPU engines, registered by (operation, kind): xg_engine.h ---- */

/* Non-zero when the context's GPU (xg_ctx_set_gpu; ctx may be NULL:
 * the calling thread's current device) can run the engines. */
int xg__gpu_usable(struct xg_ctx *ctx);
/* XG_OK, or XG_ENOGPU with the message users see when the gpu engine
 * was asked for and cannot run (no CUDA in this build, or no usable
 * device). */
int xg__gpu_require(struct xg_ctx *ctx);

#endif /* XG_GPU_H */
