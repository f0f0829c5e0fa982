# One TAP program per module.  The tests reach internals (xg__), so they
# link the core's convenience library, not the shared libexactgeo.so,
# which exports the public API only (src/local.mk); the header tests link
# the shared library, as a user of the header would.
TAP_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/cuda/host -I$(top_srcdir)/tests
TAP_LDADD = src/libexactgeo_core.la $(GMP_LIBS) -lm

check_PROGRAMS += tests/segtri_t
tests_segtri_t_SOURCES = tests/segtri_t.c tests/tap.h
tests_segtri_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_t_LDADD = $(TAP_LDADD)

TESTS += tests/segtri_t

check_PROGRAMS += tests/orient_t
tests_orient_t_SOURCES = tests/orient_t.c tests/pred_ref.h tests/xg_test.h tests/tap.h
tests_orient_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_orient_t_LDADD = $(TAP_LDADD)
TESTS += tests/orient_t

check_PROGRAMS += tests/thread_t
tests_thread_t_SOURCES = tests/thread_t.c tests/tap.h
tests_thread_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_thread_t_LDADD = $(TAP_LDADD)
TESTS += tests/thread_t

check_PROGRAMS += tests/grid_t
tests_grid_t_SOURCES = tests/grid_t.c tests/xg_test.h tests/tap.h
tests_grid_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_grid_t_LDADD = $(TAP_LDADD)
TESTS += tests/grid_t

check_PROGRAMS += tests/csr_t
tests_csr_t_SOURCES = tests/csr_t.c tests/xg_test.h tests/tap.h
tests_csr_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_csr_t_LDADD = $(TAP_LDADD)
TESTS += tests/csr_t

check_PROGRAMS += tests/grow_t
tests_grow_t_SOURCES = tests/grow_t.c tests/tap.h
tests_grow_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_grow_t_LDADD = $(TAP_LDADD)
TESTS += tests/grow_t

check_PROGRAMS += tests/mesh_t
tests_mesh_t_SOURCES = tests/mesh_t.c tests/xg_test.h tests/tap.h
tests_mesh_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_mesh_t_LDADD = $(TAP_LDADD)
TESTS += tests/mesh_t

# Tests that compare against MPFR (configure's HAVE_MPFR).
if HAVE_MPFR
check_PROGRAMS += tests/interval_t
tests_interval_t_SOURCES = tests/interval_t.c tests/iv_ref.h tests/xg_test.h tests/tap.h
tests_interval_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_interval_t_LDADD = $(MPFR_LIBS) $(GMP_LIBS) -lm
TESTS += tests/interval_t

check_PROGRAMS += tests/exact_t
tests_exact_t_SOURCES = tests/exact_t.c tests/xg_test.h tests/tap.h
tests_exact_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_exact_t_LDADD = $(TAP_LDADD) $(MPFR_LIBS)
TESTS += tests/exact_t
endif

if HAVE_MPFR
check_PROGRAMS += tests/segtri_ref_t
tests_segtri_ref_t_SOURCES = tests/segtri_ref_t.c tests/xg_test.h tests/tap.h
tests_segtri_ref_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_ref_t_LDADD = $(TAP_LDADD) $(MPFR_LIBS)
TESTS += tests/segtri_ref_t
endif

# The public header alone, from strict C89 and from C++ (PROJ-style).
check_PROGRAMS += tests/header_t tests/header_cc_t
tests_header_t_SOURCES = tests/header_t.c
tests_header_t_CPPFLAGS = -I$(top_srcdir)/src
tests_header_t_CFLAGS = -std=c89 -pedantic -Wall -Wextra -Werror
tests_header_t_LDADD = src/libexactgeo.la
tests_header_cc_t_SOURCES = tests/header_cc_t.cc
tests_header_cc_t_CPPFLAGS = -I$(top_srcdir)/src
tests_header_cc_t_CXXFLAGS = $(XG_CXXFLAGS) -pedantic -Werror
tests_header_cc_t_LDADD = src/libexactgeo.la
TESTS += tests/header_t tests/header_cc_t

check_PROGRAMS += tests/earclip_t
tests_earclip_t_SOURCES = tests/earclip_t.c tests/tap.h
tests_earclip_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_earclip_t_LDADD = $(TAP_LDADD)

TESTS += tests/earclip_t

# the one seeded random source of every test (XG_TEST_SEED replays a run)
EXTRA_DIST += tests/xg_rng.h

# The region API: plans tile the plane, reaches hold the roundings.
check_PROGRAMS += tests/region_t
tests_region_t_SOURCES = tests/region_t.c tests/xg_test.h tests/tap.h
tests_region_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_region_t_LDADD = $(TAP_LDADD)
TESTS += tests/region_t

# The gpu engine on devices {0} and {0, 0}, whole and in regions, against
# the cpu engine; skips without a GPU (static: cuda/local.mk).
check_PROGRAMS += tests/regions_gpu_t
tests_regions_gpu_t_SOURCES = tests/regions_gpu_t.c tests/regions_data.h \
	tests/tap.h
tests_regions_gpu_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_regions_gpu_t_LDADD = $(TAP_LDADD)
TESTS += tests/regions_gpu_t

# The partitioned run: 1..7 regions give the whole run's answer.
check_PROGRAMS += tests/regions_t
tests_regions_t_SOURCES = tests/regions_t.c tests/regions_data.h tests/tap.h
tests_regions_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_regions_t_LDADD = $(TAP_LDADD)
TESTS += tests/regions_t

# tests/cases/*.case: named robustness cases run through the core
check_PROGRAMS += tests/set_t
tests_set_t_SOURCES = tests/set_t.c tests/tap.h
tests_set_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_set_t_LDADD = $(TAP_LDADD)
TESTS += tests/set_t

check_PROGRAMS += tests/cases_t
tests_cases_t_SOURCES = tests/cases_t.c tests/tap.h
tests_cases_t_CPPFLAGS = $(TAP_CPPFLAGS) -DXG_CASES_DIR='"$(abs_top_srcdir)/tests/cases"'
tests_cases_t_LDADD = $(TAP_LDADD)
TESTS += tests/cases_t
EXTRA_DIST += tests/cases/README.md tests/cases/redblue-ulp-utm.case \
	tests/cases/segtri-coplanar-overlap.case tests/cases/segtri-through-edge.case \
	tests/cases/segtri-through-vertex.case tests/cases/segtri-ulp-utm.case

# The GDAL-facing layer and the exactgeo tool (ogr_driver/, cli/).
if HAVE_GDAL
TESTS += tests/cli_t.sh tests/cli_ux_t.sh
check_PROGRAMS += tests/xgo_t
tests_xgo_t_SOURCES = tests/xgo_t.c tests/tap.h
tests_xgo_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
tests_xgo_t_LDADD = ogr_driver/libxgogr.la $(TAP_LDADD) $(GDAL_LIBS)
TESTS += tests/xgo_t
check_PROGRAMS += tests/shapes_t
tests_shapes_t_SOURCES = tests/shapes_t.c tests/tap.h
tests_shapes_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
tests_shapes_t_LDADD = ogr_driver/libxgogr.la $(TAP_LDADD) $(GDAL_LIBS)
TESTS += tests/shapes_t
# The progress bar cut by the stages' estimates (ogr_driver/bar.c).
check_PROGRAMS += tests/bar_t
tests_bar_t_SOURCES = tests/bar_t.c tests/tap.h
tests_bar_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
tests_bar_t_LDADD = ogr_driver/libxgogr.la $(TAP_LDADD) $(GDAL_LIBS)
TESTS += tests/bar_t
endif
EXTRA_DIST += tests/cli_t.sh tests/cli_ux_t.sh tests/cli_lib.sh
# The EXACTGEO: connection string and job file parser, and the run
# options' parser it shares with the tool (GDAL's headers, no GDAL call).
if HAVE_GDAL
check_PROGRAMS += tests/conn_t
tests_conn_t_SOURCES = tests/conn_t.c ogr_driver/xgo_conn.c ogr_driver/xgo_conn.h \
	ogr_driver/xgo_options.c ogr_driver/open_options.c ogr_driver/fail.c \
	tests/tap.h
tests_conn_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
tests_conn_t_LDADD = $(TAP_LDADD)
TESTS += tests/conn_t
endif
# The box the GeoPackage R-tree loader reads of a geometry blob, bounds
# checked (ogr_driver/gpkg_box.c; GDAL's headers, no GDAL call).
if HAVE_GDAL
check_PROGRAMS += tests/gpkg_box_t
tests_gpkg_box_t_SOURCES = tests/gpkg_box_t.c ogr_driver/gpkg_box.c \
	ogr_driver/gpkg_rtree.h tests/tap.h
tests_gpkg_box_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
tests_gpkg_box_t_LDADD = -lm
TESTS += tests/gpkg_box_t
endif
# Rows written as SQLite B-tree pages against SQLite's own inserts
# (ogr_driver/sqlite_pages.c; SQLite only).
if HAVE_GDAL
check_PROGRAMS += tests/sqlite_pages_t
tests_sqlite_pages_t_SOURCES = tests/sqlite_pages_t.c \
	ogr_driver/sqlite_pages.c ogr_driver/sqlite_pages.h ogr_driver/fail.c \
	tests/tap.h
tests_sqlite_pages_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/src \
	-I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
tests_sqlite_pages_t_LDADD = $(SQLITE3_LIBS) -lm
TESTS += tests/sqlite_pages_t
endif

# The EXACTGEO GDAL driver (ogr2ogr/ogrinfo, Python) and the QGIS provider:
# each compares with the exactgeo tool's own output, dumped exactly.
if HAVE_GDAL
check_PROGRAMS += tests/ogrdump
tests_ogrdump_SOURCES = tests/ogrdump.c
tests_ogrdump_CPPFLAGS = $(GDAL_CFLAGS)
tests_ogrdump_LDADD = $(GDAL_LIBS)
TESTS += tests/plugin_t.sh tests/plugin_py.sh tests/qgis_t.sh
# The driver in regions (regions=N): the single run's features, bit for bit.
TESTS += tests/driver_regions_t.sh

# The plugin left open at GDALDestroyDriverManager (issue 11, item 5); a
# plain program (GDAL only, no libtool wrapper) so that valgrind runs it.
check_PROGRAMS += tests/plugin_exit_t
tests_plugin_exit_t_SOURCES = tests/plugin_exit_t.c tests/tap.h
tests_plugin_exit_t_CPPFLAGS = $(TAP_CPPFLAGS) $(GDAL_CFLAGS)
tests_plugin_exit_t_LDADD = $(GDAL_LIBS)
TESTS += tests/plugin_exit_t
# QGIS loads EXACTGEO layers, runs each job once and exits cleanly.
TESTS += tests/qgis_layer_t.sh
endif
# The test operation boxmeet (tests/op/) through the tool, the driver and
# QGIS; it skips in a build without it (configure --enable-test-ops).
TESTS += tests/boxmeet_t.sh
EXTRA_DIST += tests/boxmeet_t.sh
EXTRA_DIST += tests/plugin_t.sh tests/plugin_py.sh tests/plugin_t.py tests/qgis_t.sh
EXTRA_DIST += tests/driver_regions_t.sh
EXTRA_DIST += tests/qgis_layer_t.sh tests/qgis_layer_t.py
check_PROGRAMS += tests/redblue_t
tests_redblue_t_SOURCES = tests/redblue_t.c tests/tap.h
tests_redblue_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_redblue_t_LDADD = $(TAP_LDADD)
TESTS += tests/redblue_t

check_PROGRAMS += tests/redblue_gpu_t
tests_redblue_gpu_t_SOURCES = tests/redblue_gpu_t.c tests/tap.h
tests_redblue_gpu_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_redblue_gpu_t_LDADD = $(XG_BENCH_GPU_LIBS) $(TAP_LDADD)
TESTS += tests/redblue_gpu_t

check_PROGRAMS += tests/inside_gpu_t
tests_inside_gpu_t_SOURCES = tests/inside_gpu_t.c tests/tap.h
tests_inside_gpu_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/bench
tests_inside_gpu_t_LDADD = $(XG_BENCH_GPU_LIBS) $(TAP_LDADD)
TESTS += tests/inside_gpu_t
check_PROGRAMS += tests/gpu_plan_t
tests_gpu_plan_t_SOURCES = tests/gpu_plan_t.c tests/tap.h
tests_gpu_plan_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_gpu_plan_t_LDADD = $(TAP_LDADD)
TESTS += tests/gpu_plan_t

# The GPU engines' overlapped pipeline (cuda/host/xg_pipe.c), with CPU
# callbacks.
check_PROGRAMS += tests/pipe_t
tests_pipe_t_SOURCES = tests/pipe_t.c tests/tap.h
tests_pipe_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_pipe_t_LDADD = $(TAP_LDADD)
TESTS += tests/pipe_t

# The double-double construction stage (xg_dd.h) against mpq and MPFR.
if HAVE_MPFR
check_PROGRAMS += tests/dd_t
tests_dd_t_SOURCES = tests/dd_t.c tests/xg_test.h tests/tap.h
tests_dd_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_dd_t_LDADD = $(TAP_LDADD) $(MPFR_LIBS)
TESTS += tests/dd_t
endif

# The exactgeo tool never changes what it was not asked to: DST against
# the inputs, Shapefile folders, signals, /vsi DSTs (real binary).
if HAVE_GDAL
TESTS += tests/safety_t.sh
endif
EXTRA_DIST += tests/safety_t.sh
# What the tool writes besides DST (--stats, --dump), and DST itself,
# checked before any input is read (issue 31, items 1 and 10; real
# binary, mpirun -n 3 where built with MPI).
if HAVE_GDAL
TESTS += tests/dstcheck_t.sh
endif
EXTRA_DIST += tests/dstcheck_t.sh
# The GeoPackage spatial index exactgeo bulk-loads (issue 33, item 1):
# rtreecheck, GDAL's boxes and SQL, spatial filters, edits (real binary).
if HAVE_GDAL
TESTS += tests/gpkg_rtree_t.sh
endif
EXTRA_DIST += tests/gpkg_rtree_t.sh tests/gpkg_rtree_t.py
# The direct GeoPackage writer (issue 33 part 2): the file of OGR's route,
# blob for blob, for every writer; -append; a failure mid-write.
if HAVE_GDAL
TESTS += tests/gpkg_direct_t.sh
endif
EXTRA_DIST += tests/gpkg_direct_t.sh

# The writers' pipeline (issue 33): the same files with 1 and 4 threads.
if HAVE_GDAL
TESTS += tests/write_threads_t.sh
endif
EXTRA_DIST += tests/write_threads_t.sh

# The engines' shared error and cancel paths (src/pair_engine.c).
check_PROGRAMS += tests/pair_engine_t
tests_pair_engine_t_SOURCES = tests/pair_engine_t.c tests/tap.h
tests_pair_engine_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_pair_engine_t_LDADD = $(TAP_LDADD)
TESTS += tests/pair_engine_t

# The context's GPU choice, and the answers of a build without a GPU.
check_PROGRAMS += tests/gpu_ctx_t
tests_gpu_ctx_t_SOURCES = tests/gpu_ctx_t.c tests/tap.h
tests_gpu_ctx_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_gpu_ctx_t_LDADD = $(TAP_LDADD)
TESTS += tests/gpu_ctx_t

# The pair engine over points, with a sink that reduces per element.
check_PROGRAMS += tests/pair_sink_t
tests_pair_sink_t_SOURCES = tests/pair_sink_t.c tests/tap.h
tests_pair_sink_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_pair_sink_t_LDADD = $(TAP_LDADD)
TESTS += tests/pair_sink_t
# xg_inside against an all-rational reference (tests/inside_ref.h).
check_PROGRAMS += tests/inside_t
tests_inside_t_SOURCES = tests/inside_t.c tests/inside_ref.h \
	tests/xg_test.h tests/tap.h
tests_inside_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_inside_t_LDADD = $(TAP_LDADD)
TESTS += tests/inside_t
# Surfaces that cross themselves (src/selfx.c): the pair test and the
# detector against an all-rational reference, and on solids.
check_PROGRAMS += tests/selfx_t
tests_selfx_t_SOURCES = tests/selfx_t.c tests/xg_test.h tests/tap.h
tests_selfx_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/bench
tests_selfx_t_LDADD = $(TAP_LDADD)
TESTS += tests/selfx_t
# libexactgeo.so exports what src/exactgeo.h declares and nothing else
# (needs $(CC) for the header: AM_TESTS_ENVIRONMENT).
TESTS += tests/exports_t.sh
EXTRA_DIST += tests/exports_t.sh

# `make check` prints its total even when a test fails (Makefile.am).
TESTS += tests/total_t.sh
EXTRA_DIST += tests/total_t.sh

# The rules the CPU and GPU engines share (xg_boxes.h), and the GPU
# engines' host half (hits finished into contacts), both without a GPU.
check_PROGRAMS += tests/boxes_t tests/gpu_finish_t
tests_boxes_t_SOURCES = tests/boxes_t.c tests/xg_test.h tests/tap.h
tests_boxes_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_boxes_t_LDADD = $(TAP_LDADD)
tests_gpu_finish_t_SOURCES = tests/gpu_finish_t.c tests/xg_test.h tests/tap.h
tests_gpu_finish_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_gpu_finish_t_LDADD = $(TAP_LDADD)
TESTS += tests/boxes_t tests/gpu_finish_t

# Every shell command of README.md and docs/*.md, run (docs/testing.md).
TESTS += tests/docs_t.sh
EXTRA_DIST += tests/docs_t.sh
# The operation table (src/ops.c, the rows in src/op/).
check_PROGRAMS += tests/ops_t
tests_ops_t_SOURCES = tests/ops_t.c tests/tap.h
tests_ops_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_ops_t_LDADD = $(TAP_LDADD)
TESTS += tests/ops_t
# The table as the tool and the driver show it; the one option parser.
if HAVE_GDAL
TESTS += tests/ops_cli_t.sh
endif
EXTRA_DIST += tests/ops_cli_t.sh
# `exactgeo inside` end to end: points in closed solids (GPKG built by
# python3's osgeo.ogr), open surfaces, -outside, -skip-invalid, EXACTGEO:.
if HAVE_GDAL
TESTS += tests/inside_cli_t.sh
endif
EXTRA_DIST += tests/inside_cli_t.sh
# --gpus where no GPU can run: clean failures, usage errors, "gpus" in
# --stats.
if HAVE_GDAL
TESTS += tests/gpus_cli_t.sh
endif
EXTRA_DIST += tests/gpus_cli_t.sh
# --max-memory: refusals before the run, nothing written; max_memory=.
if HAVE_GDAL
TESTS += tests/memory_cli_t.sh
endif
EXTRA_DIST += tests/memory_cli_t.sh
# Runs in regions (mpi/): --regions 1..7 and mpirun -n 1..4 (skipped
# without MPI) give the single run's output bit for bit (tests/ogrdump)
# and its counts; bad input in one region, an interrupt, refusals.
if HAVE_GDAL
TESTS += tests/regions_cli_t.sh
endif
EXTRA_DIST += tests/regions_cli_t.sh
# xg_incircle and its stages against a GMP rational reference.
check_PROGRAMS += tests/incircle_t
tests_incircle_t_SOURCES = tests/incircle_t.c tests/pred_ref.h \
	tests/xg_test.h tests/tap.h
tests_incircle_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_incircle_t_LDADD = $(TAP_LDADD)
TESTS += tests/incircle_t
# xg_delaunay: every engine against a GMP reference with the tie rule
# from its definition, and xg_delaunay_check.
check_PROGRAMS += tests/delaunay_t
tests_delaunay_t_SOURCES = tests/delaunay_t.c tests/pred_ref.h tests/dt_sets.h \
	tests/xg_test.h \
	tests/tap.h
tests_delaunay_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/bench
tests_delaunay_t_LDADD = $(TAP_LDADD)
TESTS += tests/delaunay_t
# `exactgeo delaunay` end to end (issue 14): the triangles against a
# brute-force rational triangulation, merges, errors, --verify, engines,
# EXACTGEO:op=delaunay.
if HAVE_GDAL
TESTS += tests/delaunay_cli_t.sh
endif
EXTRA_DIST += tests/delaunay_cli_t.sh
# What the reader makes of its input (issue 31, items 4, 6, 7, 8): points
# with and without Z, a NaN hidden as an empty point, a VRT's missing
# source, open options (-oo), a DXF wireframe grouped into solids
# (-bgroup), repeated warnings capped.
if HAVE_GDAL
TESTS += tests/reader_t.sh
# The Arrow route of the reader reads what today's route reads (issue 33).
TESTS += tests/read_arrow_t.sh
endif
EXTRA_DIST += tests/read_arrow_t.sh
EXTRA_DIST += tests/reader_t.sh tests/cases/wireframe.dxf \
	tests/cases/make_wireframe.py

# The memory check before a run (memory.c, xg_ctx_set_memory).
check_PROGRAMS += tests/memory_t
tests_memory_t_SOURCES = tests/memory_t.c tests/tap.h
tests_memory_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_memory_t_LDADD = $(TAP_LDADD)
TESTS += tests/memory_t
