# The core, compiled once into a convenience library: the tests and the
# benchmarks that reach internals (xg__) link it; libexactgeo.so wraps it
# and exports the public API of src/exactgeo.h and nothing else.  Two
# fences: the core is compiled with hidden visibility (exactgeo.h makes
# what it declares visible), and the version script of -export-symbols-regex
# hides what the compiler flag cannot reach (the nvcc-built objects, the
# statically linked CUDA runtime and C++ library).  tests/exports_t.sh
# compares the exported names with the header's.
noinst_LTLIBRARIES += src/libexactgeo_core.la
src_libexactgeo_core_la_SOURCES = \
	src/exactgeo.h src/xg_internal.h src/xg_interval.h src/xg_filters.h src/xg_dd.h src/xg_expansion.h \
	src/xg_thread.h src/xg_boxes.h src/xg_gpu_hit.h \
	src/ctx.c src/clock.c src/thread.c src/geom.c src/contact_store.c \
	src/exact.c src/orient.c src/refine.c src/project.c \
	src/grid.c src/pair_engine.c src/pair_walk.c src/segtri.c src/segtri_engine.c \
	src/xg_earclip.h src/earclip.c src/earclip_rings.c src/earclip_bridge.c \
	src/redblue.c src/gpu_plan.c src/gpu_finish.c \
	src/xg_engine.h src/xg_ops.h src/gpu_engine.c \
	src/xg_inside.h src/inside.c src/inside_prep.c src/inside_cpu.c src/inside_finish.c \
	src/dump.c src/region.c src/regions_run.c \
	src/regions_select.c \
	src/xg_delaunay.h src/delaunay.c src/delaunay_build.c \
	src/delaunay_strips.c src/delaunay_bounds.h src/delaunay_hull.c \
	src/delaunay_check.c
# The GPU engines' table: NULL here without CUDA; cuda/local.mk links
# cuda/gpu_engines.c instead.
if !HAVE_CUDA
src_libexactgeo_core_la_SOURCES += src/gpu_none.c
endif
# the operation table (exactgeo.h, "Operations")
src_libexactgeo_core_la_SOURCES += src/ops.c
# the memory a run may take, and the check before it starts
src_libexactgeo_core_la_SOURCES += src/memory.c
# where a surface crosses itself (xg_self_crossing; inside's solids)
src_libexactgeo_core_la_SOURCES += src/selfx.c
src_libexactgeo_core_la_CFLAGS = $(AM_CFLAGS) $(XG_VISIBILITY_CFLAGS)
src_libexactgeo_core_la_LIBADD = $(GMP_LIBS) -lm $(PTHREAD_LIBS)

lib_LTLIBRARIES += src/libexactgeo.la
include_HEADERS += src/exactgeo.h
src_libexactgeo_la_SOURCES =
src_libexactgeo_la_LIBADD = src/libexactgeo_core.la
src_libexactgeo_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^xg_[^_]'
