/*
 * gpu_engines.c -- the CUDA build registers its engines: the one table
 * src/ reaches them through (struct xg__gpu_engine, src/gpu_engine.c).
 * A new GPU engine adds its entry here and nowhere in src/.
 */
#include "segtri_gpu.h"
#include "redblue_gpu.h"
#include "inside_gpu.h"
#include "delaunay_gpu.h"

static const struct xg__gpu_engine cuda_engines = {
    xg__cuda_device_check,
    xg__segtri_gpu_run,
    xg__redblue_gpu_run,
    xg__inside_gpu_run,
    xg__delaunay_gpu_run,
    xg__cuda_device_count,
};
const struct xg__gpu_engine *const xg__gpu_engine = &cuda_engines;
