# The core, compiled once into a convenience library: the tests and the
# benchmarks that reach internals (xg__) link it; libexactgeo.so wraps it
# and exports the public API of src/exactgeo.h and nothing else.  Two
# fences: the core is compiled with hidden visibility (exactgeo.h makes
# what it declares visible), and the version script of -export-symbols-regex
# hides what the compiler flag cannot reach (the nvcc-built objects, the
# statically linked CUDA runtime and C++ library).  tests/exports_t.sh
# compares the exported names with the header's.
noinst_LTLIBRARIES += src/libexactgeo_core.la
# the shared core: predicates and their filters, exact arithmetic, the
# context, sets, grid, pair engine, regions, GPU engine registry
src_libexactgeo_core_la_SOURCES = \
	src/exactgeo.h src/xg_interval.h src/xg_filters.h src/xg_dd.h src/xg_expansion.h \
	src/xg_filter_orient.h src/xg_filter_segtri.h src/xg_filter_redblue.h src/xg_filter_ray.h \
	src/xg_thread.h src/xg_boxes.h src/xg_gpu_hit.h \
	src/xg_ctx.h src/xg_mem.h src/xg_sets.h src/xg_exact.h src/xg_grid.h \
	src/xg_pair.h src/xg_regions.h src/xg_gpu.h \
	src/ctx.c src/clock.c src/thread.c src/geom.c src/contact_store.c \
	src/exact.c src/orient.c src/refine.c src/project.c \
	src/grid.c src/pair_engine.c src/pair_walk.c \
	src/xg_earclip.h src/earclip.c src/earclip_rings.c src/earclip_bridge.c \
	src/xg_engine.h src/gpu_engine.c \
	src/dump.c src/region.c src/regions_run.c src/regions_select.c
# The GPU engines' table: NULL here without CUDA; cuda/local.mk links
# cuda/gpu_engines.c instead.
if !HAVE_CUDA
src_libexactgeo_core_la_SOURCES += src/gpu_none.c
endif
# the memory a run may take, and the check before it starts
src_libexactgeo_core_la_SOURCES += src/memory.c
# where a surface crosses itself (xg_self_crossing; inside's solids)
src_libexactgeo_core_la_SOURCES += src/selfx.c
# a pair operation's checks and preparation, beside pair_engine.c
src_libexactgeo_core_la_SOURCES += src/finite.c src/pair_begin.c src/pair_prepare.c
# the self-crossing test's pair and T-junctions, beside selfx.c
src_libexactgeo_core_la_SOURCES += src/xg_selfx.h src/selfx_pair.c src/selfx_junction.c
# the one CSR build (count, scan, fill) and the grid's frame
src_libexactgeo_core_la_SOURCES += src/xg_csr.h src/csr.c src/grid_frame.c
# the growth rule of a growable array, shared with the plugin (ogr_driver/)
src_libexactgeo_core_la_SOURCES += src/xg_grow.h src/xg_hilbert.h
# the indexed mesh (vertices welded exactly, triangles, edges and uses)
src_libexactgeo_core_la_SOURCES += src/xg_mesh.h src/mesh.c src/mesh_edges.c

# The operation table (exactgeo_ops.h) and the operations, one folder
# each (src/op/NAME/: its row NAME_op.c, its engines, its header), listed
# by one line each of src/op/list.h.
src_libexactgeo_core_la_SOURCES += src/xg_ops.h src/ops.c src/op/list.h
# segtri: its row, the exact segment x triangle test (inside and selfx
# use it too), the run on the pair engine
src_libexactgeo_core_la_SOURCES += src/op/segtri/segtri_op.c \
	src/op/segtri/xg_segtri.h src/op/segtri/segtri.c \
	src/op/segtri/segtri_engine.c
# redblue: its row, the exact segment x segment test and the run
src_libexactgeo_core_la_SOURCES += src/op/redblue/redblue_op.c \
	src/op/redblue/xg_redblue.h src/op/redblue/redblue.c
# inside: its row, the run, the solids' preparation (xg_solids.h: edges,
# grouping, checks, kept triangles, the columns' runs), the cpu engine
src_libexactgeo_core_la_SOURCES += src/op/inside/inside_op.c \
	src/op/inside/xg_inside.h src/op/inside/inside.c \
	src/op/inside/inside_prep.c src/op/inside/inside_cpu.c \
	src/op/inside/xg_solids.h src/op/inside/inside_edges.c \
	src/op/inside/inside_group.c src/op/inside/inside_check.c \
	src/op/inside/inside_keep.c src/op/inside/inside_runs.c
# delaunay: its row and check, the run, one build's parts
# (delaunay_builder.h: the insertion order, one point in with its flips),
# the cpu engine's strips (delaunay_strips.h: the plan, a strip's task,
# the slow proofs, the bounds), the hull, the exact audit
src_libexactgeo_core_la_SOURCES += src/op/delaunay/delaunay_op.c \
	src/op/delaunay/xg_delaunay.h src/op/delaunay/delaunay.c \
	src/op/delaunay/delaunay_builder.h src/op/delaunay/delaunay_build.c \
	src/op/delaunay/delaunay_order.c src/op/delaunay/delaunay_insert.c \
	src/op/delaunay/delaunay_strips.h src/op/delaunay/delaunay_strips.c \
	src/op/delaunay/delaunay_strips_plan.c \
	src/op/delaunay/delaunay_strips_task.c \
	src/op/delaunay/delaunay_strips_proof.c \
	src/op/delaunay/delaunay_bounds.h src/op/delaunay/delaunay_hull.c \
	src/op/delaunay/delaunay_check.c
src_libexactgeo_core_la_CFLAGS = $(AM_CFLAGS) $(XG_VISIBILITY_CFLAGS)
src_libexactgeo_core_la_LIBADD = $(GMP_LIBS) -lm $(PTHREAD_LIBS)
# the test operations (tests/op/), in test builds only (configure
# --enable-test-ops), compiled as the core is
if XG_TEST_OPS
noinst_LTLIBRARIES += tests/op/libxgtestops.la
tests_op_libxgtestops_la_SOURCES = tests/op/boxmeet.c
tests_op_libxgtestops_la_CFLAGS = $(AM_CFLAGS) $(XG_VISIBILITY_CFLAGS)
src_libexactgeo_core_la_LIBADD += tests/op/libxgtestops.la
endif

lib_LTLIBRARIES += src/libexactgeo.la
include_HEADERS += src/exactgeo.h src/exactgeo_tri.h src/exactgeo_ops.h \
	src/exactgeo_dump.h
src_libexactgeo_la_SOURCES =
src_libexactgeo_la_LIBADD = src/libexactgeo_core.la
src_libexactgeo_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^xg_[^_]'
