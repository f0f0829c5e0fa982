/*
 * gpu_none.c -- the build without CUDA registers no GPU engine
 * (gpu_engine.c answers for it).  The CUDA build links
 * cuda/gpu_engines.c instead of this file.
 */
#include "xg_engine.h"

const struct xg__gpu_engine *const xg__gpu_engine = NULL;
