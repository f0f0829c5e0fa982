# cuda: the GPU engines, built into libexactgeo (its core, src/local.mk)
# when configure found nvcc.
# The kernels (.cu) are compiled by nvcc into libtool objects written here
# (libtool does not know nvcc); the host side (.c) is plain C.
#
#   the core   xg_core.h: what the engines use of src/, in one place
#   plumbing   xg_cuda.h xg_cuda_dev.cuh xg_cub.cuh gpu_device.c
#              gpu_pinned.c gpu_output.c sort_hits.cu boxes.cu grid_gpu.cu
#              cell_pairs.cu
#   the table src/ reaches the engines through: gpu_engines.c
#   the door of the benchmark-only strategies: gpu_bench.h gpu_bench.c
#   one folder per operation's engine, op/NAME/ (as src/op/NAME/):
#   segtri     segtri_gpu.h segtri_pair.cuh segtri_gpu.c segtri_prep.c
#              segtri_batches.c segtri_passes.c segtri_kernels.cu
#              segtri_tables.cu
#   redblue    redblue_gpu.h redblue_gpu.c redblue_kernels.cu
#   delaunay   delaunay_gpu.h delaunay_gpu.cu delaunay_order.cu
#              delaunay_core.cuh (with delaunay_state.cuh,
#              delaunay_insert.cuh, delaunay_flip.cuh, delaunay_setup.cuh)
#              delaunay_run.cuh (tests/dt_emul.cpp runs the .cuh on the
#              host)
#   inside     inside_gpu.h inside_kernels.cu; the host side inside_run.h
#              inside_gpu.c inside_batch.c inside_pipe.c
#   tests only test_kernels.h test_kernels.cu (linked into tests/gpu_t,
#              tests/gpu_iv_t)
#   host half  host/xg_gpuhost.h host/gpu_plan.c host/gpu_finish.c
#              host/inside_finish.c, and the overlapped pipeline of
#              batches host/xg_pipe.h host/xg_pipe.c: plain C, in every
#              build (below)
# The benchmark-only strategies (the paper's, the seed's point-in-solid
# method) are bench/cuda/'s, outside the library: below, the convenience
# library that only the programs running them link.
#
# -fmad=false: nothing in the kernels may be fused into an FMA.  The
# interval code uses directed-rounding intrinsics that are never fused,
# but the box tests and cell arithmetic must agree with the host's bit
# for bit, and the rule is simplest stated for the whole file.
XG_CUDA_INC = cuda/xg_core.h cuda/xg_cuda.h cuda/xg_cuda_dev.cuh cuda/xg_cub.cuh \
	cuda/gpu_bench.h cuda/test_kernels.h \
	cuda/op/segtri/segtri_gpu.h cuda/op/segtri/segtri_pair.cuh \
	cuda/op/redblue/redblue_gpu.h \
	cuda/op/inside/inside_gpu.h cuda/op/inside/inside_run.h \
	cuda/op/delaunay/delaunay_gpu.h cuda/op/delaunay/delaunay_core.cuh \
	cuda/op/delaunay/delaunay_state.cuh cuda/op/delaunay/delaunay_insert.cuh \
	cuda/op/delaunay/delaunay_flip.cuh cuda/op/delaunay/delaunay_setup.cuh \
	cuda/op/delaunay/delaunay_run.cuh
XG_CUDA_LOS = \
	cuda/sort_hits.lo cuda/boxes.lo cuda/grid_gpu.lo cuda/cell_pairs.lo \
	cuda/op/segtri/segtri_kernels.lo cuda/op/segtri/segtri_tables.lo \
	cuda/op/redblue/redblue_kernels.lo cuda/op/inside/inside_kernels.lo \
	cuda/op/delaunay/delaunay_gpu.lo cuda/op/delaunay/delaunay_order.lo
XG_CUDA_SRCS = cuda/gpu_device.c cuda/gpu_pinned.c cuda/gpu_output.c \
	cuda/gpu_engines.c cuda/gpu_bench.c \
	cuda/op/segtri/segtri_gpu.c cuda/op/segtri/segtri_prep.c \
	cuda/op/segtri/segtri_batches.c cuda/op/segtri/segtri_passes.c \
	cuda/op/redblue/redblue_gpu.c \
	cuda/op/inside/inside_gpu.c cuda/op/inside/inside_batch.c \
	cuda/op/inside/inside_pipe.c
XG_BENCH_CUDA_LOS = bench/cuda/paper.lo bench/cuda/inside_seed.lo
XG_BENCH_CUDA_SRCS = bench/cuda/paper.h bench/cuda/paper.c \
	bench/cuda/install.c bench/cuda/install.h
EXTRA_DIST += $(XG_CUDA_INC) \
	$(XG_CUDA_LOS:.lo=.cu) cuda/test_kernels.cu $(XG_CUDA_SRCS) \
	$(XG_BENCH_CUDA_LOS:.lo=.cu) $(XG_BENCH_CUDA_SRCS) \
	cuda/check-gpu.sh cuda/gpu-verify.sh

# -fno-exceptions: the engines' entry points are extern "C", and no C++
# exception may cross them; compiled without exceptions, nothing in the
# kernels' files can throw one (CUB reports through cudaError_t), and
# one thrown below them would end the program rather than unwind C
# frames.
NVCCFLAGS = -O3 -std=c++17 -fmad=false \
	-gencode arch=compute_90,code=[sm_90,compute_90] \
	-Xcompiler -fPIC -Xcompiler -fno-exceptions \
	-I$(top_srcdir)/src -I$(top_srcdir)/cuda

# The engines' host half (cuda/host/xg_gpuhost.h: the batches and block
# tables, the hits into contacts, inside's finish; xg_pipe.h: the
# overlapped pipeline of batches) is plain C with no
# CUDA: built into the core in every build, so that make check tests it
# on machines without a GPU.
XG_GPUHOST_SRCS = cuda/host/xg_gpuhost.h cuda/host/gpu_plan.c \
	cuda/host/gpu_finish.c cuda/host/inside_finish.c \
	cuda/host/xg_pipe.h cuda/host/xg_pipe.c
src_libexactgeo_core_la_SOURCES += $(XG_GPUHOST_SRCS)

if HAVE_CUDA
src_libexactgeo_core_la_SOURCES += $(XG_CUDA_INC) $(XG_CUDA_SRCS)
src_libexactgeo_core_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cuda $(CUDA_CPPFLAGS)
src_libexactgeo_core_la_LIBADD += $(XG_CUDA_LOS) $(CUDA_LIBS)

# The benchmark-only strategies (bench/cuda/paper.h), linked before the
# core by the programs that run them: bench_gpu, bench_inside,
# bench_redblue, tests/gpu_t, redblue_gpu_t, inside_gpu_t (their
# XG_BENCH_GPU_LIBS, empty without CUDA).
noinst_LTLIBRARIES += bench/cuda/libxgbench.la
bench_cuda_libxgbench_la_SOURCES = $(XG_BENCH_CUDA_SRCS)
bench_cuda_libxgbench_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cuda \
	$(CUDA_CPPFLAGS)
bench_cuda_libxgbench_la_LIBADD = $(XG_BENCH_CUDA_LOS)
XG_BENCH_GPU_LIBS = bench/cuda/libxgbench.la

# Every kernel file becomes a libtool object: nvcc writes the PIC object
# and the .lo stub that libtool reads (in the .lo's own folder).
XG_CUDA_DEPS = $(XG_CUDA_INC) \
	$(top_srcdir)/src/xg_filters.h $(top_srcdir)/src/xg_dd.h \
	$(top_srcdir)/src/xg_filter_orient.h $(top_srcdir)/src/xg_filter_segtri.h \
	$(top_srcdir)/src/xg_filter_redblue.h $(top_srcdir)/src/xg_filter_ray.h \
	$(top_srcdir)/src/xg_interval.h $(top_srcdir)/src/xg_ctx.h \
	$(top_srcdir)/src/xg_mem.h $(top_srcdir)/src/xg_grid.h \
	$(top_srcdir)/src/op/segtri/xg_segtri.h \
	$(top_srcdir)/src/op/redblue/xg_redblue.h \
	$(top_srcdir)/src/xg_pair.h $(top_srcdir)/src/xg_gpu.h \
	$(top_srcdir)/src/xg_boxes.h $(top_srcdir)/src/xg_gpu_hit.h \
	$(top_srcdir)/src/exactgeo.h $(top_srcdir)/src/op/inside/xg_inside.h \
	$(top_srcdir)/src/op/delaunay/xg_delaunay.h \
	$(top_srcdir)/cuda/host/xg_gpuhost.h
XG_NVCC_LO = $(MKDIR_P) $(@D)/.libs && \
	$(NVCC) $(NVCCFLAGS) $(CUDA_CPPFLAGS) -c $< -o $(@D)/.libs/$(*F).o && \
	cp $(@D)/.libs/$(*F).o $(@D)/$(*F).o && \
	printf "%s\n" "\# $@ - a libtool object file" \
		"\# Generated by libtool (GNU libtool)" \
		"pic_object='.libs/$(*F).o'" \
		"non_pic_object='$(*F).o'" > $@
cuda/%.lo: $(top_srcdir)/cuda/%.cu $(XG_CUDA_DEPS)
	$(AM_V_GEN)$(XG_NVCC_LO)
bench/cuda/%.lo: $(top_srcdir)/bench/cuda/%.cu $(XG_CUDA_DEPS) \
		$(top_srcdir)/bench/cuda/paper.h
	$(AM_V_GEN)$(XG_NVCC_LO)
CLEANFILES += $(XG_CUDA_LOS) $(XG_CUDA_LOS:.lo=.o) cuda/test_kernels.lo \
	cuda/test_kernels.o cuda/.libs/*.o $(XG_BENCH_CUDA_LOS) \
	$(XG_BENCH_CUDA_LOS:.lo=.o) bench/cuda/.libs/*.o

# The GPU test, linked against the static library so that it runs on a
# machine without this build tree (the GPU machine).  Not in TESTS: CI
# has no GPU.  `make check-gpu` runs it, under compute-sanitizer too.
check_PROGRAMS += tests/gpu_t
tests_gpu_t_SOURCES = tests/gpu_t.c tests/tap.h
tests_gpu_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/cuda $(CUDA_CPPFLAGS)
tests_gpu_t_LDADD = cuda/test_kernels.lo $(XG_BENCH_GPU_LIBS) $(TAP_LDADD) \
	$(CUDA_LIBS)
tests_gpu_t_LDFLAGS = -static

# The gpu Delaunay engine against seq (and its benchmark: `bench`),
# static; not in TESTS, run by check-gpu.
check_PROGRAMS += tests/delaunay_gpu_t
tests_delaunay_gpu_t_SOURCES = tests/delaunay_gpu_t.c tests/dt_sets.h tests/xg_test.h \
	tests/tap.h
tests_delaunay_gpu_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_delaunay_gpu_t_LDADD = $(TAP_LDADD) $(CUDA_LIBS)
tests_delaunay_gpu_t_LDFLAGS = -static

# The red/blue GPU test is in TESTS (it skips without a GPU); built
# static here too so that it runs on the GPU machine.  It and inside's
# compare the benchmark's strategies too (XG_HAVE_CUDA: they install them).
tests_redblue_gpu_t_LDFLAGS = -static
tests_redblue_gpu_t_LDADD += $(CUDA_LIBS)
tests_redblue_gpu_t_CPPFLAGS += $(CUDA_CPPFLAGS)
tests_inside_gpu_t_LDFLAGS = -static
tests_inside_gpu_t_LDADD += $(CUDA_LIBS)
tests_inside_gpu_t_CPPFLAGS += $(CUDA_CPPFLAGS)
tests_regions_gpu_t_LDFLAGS = -static
tests_regions_gpu_t_LDADD += $(CUDA_LIBS)

# The device's interval operations (by signs, powers) and incircle filter
# against MPFR and GMP; it skips without a GPU, so it is in TESTS, and it
# is static like the others.
XG_GPU_TESTS = tests/gpu_t tests/redblue_gpu_t tests/inside_gpu_t \
	tests/delaunay_gpu_t tests/regions_gpu_t
if HAVE_MPFR
check_PROGRAMS += tests/gpu_iv_t
tests_gpu_iv_t_SOURCES = tests/gpu_iv_t.c tests/iv_ref.h tests/pred_ref.h \
	tests/xg_test.h tests/tap.h
tests_gpu_iv_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/cuda $(CUDA_CPPFLAGS)
tests_gpu_iv_t_LDADD = cuda/test_kernels.lo $(MPFR_LIBS) $(TAP_LDADD) \
	$(CUDA_LIBS)
tests_gpu_iv_t_LDFLAGS = -static
TESTS += tests/gpu_iv_t
XG_GPU_TESTS += tests/gpu_iv_t
endif

check-gpu: $(XG_GPU_TESTS)
	st=0; for p in $(XG_GPU_TESTS); do \
	    $(SHELL) $(top_srcdir)/cuda/check-gpu.sh $$p || st=1; done; exit $$st
else
# the host half above still needs src/: a target's own CPPFLAGS, defined
# under HAVE_CUDA, replaces AM_CPPFLAGS in both branches
src_libexactgeo_core_la_CPPFLAGS = $(AM_CPPFLAGS)
XG_BENCH_GPU_LIBS =
check-gpu:
	@echo "check-gpu: this build has no CUDA (./configure --with-cuda)"; exit 1
endif
.PHONY: check-gpu

# The Table 11.3 benchmark (bench/bench_gpu.c), static like the test, and
# its data generator static too: cuda/gpu-verify.sh runs the four on the
# GPU machine, carried there without this build tree.
if HAVE_CUDA
noinst_PROGRAMS += bench/bench_gpu
bench_bench_gpu_SOURCES = bench/bench_gpu.c
bench_bench_gpu_CPPFLAGS = -I$(top_srcdir)/src $(CUDA_CPPFLAGS)
bench_bench_gpu_LDADD = $(XG_BENCH_GPU_LIBS) src/libexactgeo_core.la \
	$(GMP_LIBS) -lm $(CUDA_LIBS)
bench_bench_gpu_LDFLAGS = -static
bench_gen_paper_LDFLAGS = -static
# The point-in-solid benchmark (bench/bench_inside.c, data of
# bench/gen_inside.h): every engine and the CGAL peer in one run.
noinst_PROGRAMS += bench/bench_inside
bench_bench_inside_SOURCES = bench/bench_inside.c bench/gen_inside.h
bench_bench_inside_CPPFLAGS = -I$(top_srcdir)/src $(CUDA_CPPFLAGS)
bench_bench_inside_LDADD = $(XG_BENCH_GPU_LIBS) src/libexactgeo_core.la \
	$(GMP_LIBS) -lm $(CUDA_LIBS)
bench_bench_inside_LDFLAGS = -static
# The partitioned run on one device and on a list (bench/bench_regions.c):
# select, compute and gather times, answers checked; static likewise.
noinst_PROGRAMS += bench/bench_regions
bench_bench_regions_SOURCES = bench/bench_regions.c bench/gen_inside.h
bench_bench_regions_CPPFLAGS = -I$(top_srcdir)/src $(CUDA_CPPFLAGS)
bench_bench_regions_LDADD = src/libexactgeo_core.la $(GMP_LIBS) -lm $(CUDA_LIBS)
bench_bench_regions_LDFLAGS = -static
endif
