/*
 * install.h -- the one call of bench/cuda/ a program makes: it hands the
 * benchmark-only GPU strategies (paper.h) to the engines
 * (xg__gpu_bench_register, cuda/gpu_bench.h), once, before its first run.
 * Plain C without CUDA's headers, for the programs that build without
 * CUDA too (they call it only under XG_HAVE_CUDA).
 */
#ifndef XG_BENCH_INSTALL_H
#define XG_BENCH_INSTALL_H

#ifdef __cplusplus
extern "C" {
#endif

void xg__gpu_bench_install(void);

#ifdef __cplusplus
}
#endif

#endif /* XG_BENCH_INSTALL_H */
