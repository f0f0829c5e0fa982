/*
 * xg_core.h -- what the GPU engines use of the core, in one place: cuda/
 * reaches src/ through this header (by way of xg_cuda.h) and through
 * the door that registers its engines (xg_engine.h, in gpu_engines.c),
 * and through no other.  Not installed.
 *
 *   the context     xg__error, xg__cancelled_at, xg__threads,
 *                   xg_strerror; the clock, xg__now; the threads,
 *                   xg__parallel (xg_thread.h)
 *   memory          xg__big_alloc, xg__reserve (sets, contacts, stats
 *                   and options are exactgeo.h's)
 *   the grid        struct xg_grid, xg__grid_frame, xg__grid_free
 *   the pairs       xg__segtri_ops, xg__redblue_ops (their settle),
 *                   xg__segtri_prepare, xg__redblue_prepare,
 *                   xg__nonfinite_run, xg__tri_is_degenerate
 *   point-in-solid  the solids and their checks, the hits' keys
 *                   (xg_inside.h)
 *   delaunay        xg__dt_canonical, xg__dt_incircle (xg_delaunay.h)
 *   both sides      the filters, double-double, the box rules and the
 *                   hit record, compiled for host and device
 *                   (xg_filters.h, xg_dd.h, xg_boxes.h, xg_gpu_hit.h)
 *   the host half   batches, block tables, hits into contacts, inside's
 *                   finish (host/xg_gpuhost.h, plain C, every build)
 * The first four rows' declarations live in the core's subsystem
 * headers (xg_ctx.h, xg_mem.h, xg_grid.h, xg_pair.h, ...), included
 * here by name.
 */
#ifndef XG_CORE_H
#define XG_CORE_H

/* C headers first, outside extern "C": under C++ some of them pull in
 * templates, which cannot have C linkage. */
#include <gmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_mem.h"
#include "op/segtri/xg_segtri.h"
#include "op/redblue/xg_redblue.h"
#include "xg_grid.h"
#include "xg_pair.h"
#include "xg_gpu.h"
#include "xg_filters.h"
#include "xg_dd.h"
#include "xg_boxes.h"
#include "xg_thread.h"
#include "op/inside/xg_inside.h"
#include "op/delaunay/xg_delaunay.h"
#include "xg_gpu_hit.h"
#include "host/xg_gpuhost.h"
#ifdef __cplusplus
}
#endif

#endif /* XG_CORE_H */
