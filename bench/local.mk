# bench: see Makefile.am
# Benchmarks: built by `make`, run by bench/run.sh (not part of `make check`).
noinst_PROGRAMS += bench/gen_paper bench/bench_segtri
bench_gen_paper_SOURCES = bench/gen_paper.c bench/gen_shapes.h
bench_gen_paper_LDADD = src/libexactgeo.la -lm
bench_bench_segtri_SOURCES = bench/bench_segtri.c
bench_bench_segtri_LDADD = src/libexactgeo.la $(GMP_LIBS) -lm
dist_noinst_SCRIPTS += bench/run.sh

# Red/blue: the map generator (core only) and the benchmark (GEOS peer),
# which calls internals (xg__gpu_redblue): the core's convenience library.
noinst_PROGRAMS += bench/gen_maps
bench_gen_maps_SOURCES = bench/gen_maps.c
bench_gen_maps_LDADD = src/libexactgeo.la -lm
if HAVE_GEOS
noinst_PROGRAMS += bench/bench_redblue
bench_bench_redblue_SOURCES = bench/bench_redblue.c
bench_bench_redblue_CFLAGS = $(AM_CFLAGS) $(GEOS_CFLAGS)
bench_bench_redblue_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
bench_bench_redblue_LDADD = $(XG_BENCH_GPU_LIBS) src/libexactgeo_core.la \
	$(GEOS_LIBS) $(GMP_LIBS) -lm
endif

# Point-in-solid: the CGAL peer (bench/cgal_inside.cpp), built when
# configure found CGAL's headers, and static (libstdc++, GMP, MPFR) so
# that it runs on the GPU machine, which has no CGAL; bench_inside (in
# cuda/local.mk: it needs the GPU engine) runs it.  The data of both come
# from bench/gen_inside.h.
EXTRA_DIST += bench/gen_inside.h
# Built on demand only (`make bench/cgal_inside`): -all-static cannot be
# combined with the sanitizers of `make check-sanitize`.
if HAVE_CGAL
EXTRA_PROGRAMS = bench/cgal_inside
bench_cgal_inside_SOURCES = bench/cgal_inside.cpp bench/gen_inside.h
bench_cgal_inside_CXXFLAGS = -O2 -std=c++17 -frounding-math -pthread
bench_cgal_inside_LDFLAGS = -all-static -pthread
bench_cgal_inside_LDADD = -lmpfr -lgmp
endif

# Delaunay: the benchmark (core internals: xg__now, xg__parallel), its
# data (bench/gen_delaunay.h, shared with the CGAL peer) and its peers:
# bench/cgal_delaunay (built on demand, static, like cgal_inside) and
# bench/peers_delaunay.py (Qhull through scipy, CuPy's GPU Delaunay).
noinst_PROGRAMS += bench/bench_delaunay
bench_bench_delaunay_SOURCES = bench/bench_delaunay.c bench/gen_delaunay.h
bench_bench_delaunay_CPPFLAGS = -I$(top_srcdir)/src
bench_bench_delaunay_LDADD = src/libexactgeo_core.la $(GMP_LIBS) -lm
dist_noinst_SCRIPTS += bench/peers_delaunay.py
if HAVE_CGAL
EXTRA_PROGRAMS += bench/cgal_delaunay
bench_cgal_delaunay_SOURCES = bench/cgal_delaunay.cpp bench/gen_delaunay.h
bench_cgal_delaunay_CXXFLAGS = -O2 -std=c++17 -frounding-math -pthread
bench_cgal_delaunay_LDFLAGS = -all-static -pthread
bench_cgal_delaunay_LDADD = -lmpfr -lgmp
endif

# The laptop path (issue 16): bench_cpu runs our CPU engines on the
# shapes of bench/gen_shapes.h (and a dump: the world map) against
# bench/cgal_pairs, CGAL's box_intersection_d + do_intersect.  The peer
# is built on demand (`make bench/cgal_pairs`), like the other CGAL
# peers; with TBB (HAVE_TBB) it runs CGAL's Parallel_tag on more than one
# thread.  It links GMP, MPFR and TBB (which has no static library in
# Debian) as shared libraries: to run it on a machine without them (the
# GPU machine), carry libgmp.so.10, libmpfr.so.6 and libtbb.so.12 along
# and set LD_LIBRARY_PATH.
noinst_PROGRAMS += bench/bench_cpu
bench_bench_cpu_SOURCES = bench/bench_cpu.c bench/gen_shapes.h
bench_bench_cpu_LDADD = src/libexactgeo.la -lm
if HAVE_CGAL
EXTRA_PROGRAMS += bench/cgal_pairs
bench_cgal_pairs_SOURCES = bench/cgal_pairs.cpp
bench_cgal_pairs_CPPFLAGS = -I$(top_srcdir)/src
bench_cgal_pairs_CXXFLAGS = -O2 -std=c++17 -frounding-math -pthread
bench_cgal_pairs_LDFLAGS = -pthread
bench_cgal_pairs_LDADD = src/libexactgeo_core.la -lmpfr $(GMP_LIBS) -lm
if HAVE_TBB
bench_cgal_pairs_CPPFLAGS += -DCGAL_LINKED_WITH_TBB
bench_cgal_pairs_LDADD += -ltbb
endif
endif

# Memory (issue 16): bench_memory measures each operation's peak resident
# memory beyond its inputs, per input element, in child processes (Linux
# /proc): the figures of docs/memory.md and of src/memory.c's estimate.
noinst_PROGRAMS += bench/bench_memory
bench_bench_memory_SOURCES = bench/bench_memory.c bench/gen_shapes.h \
	bench/gen_inside.h bench/gen_delaunay.h
bench_bench_memory_LDADD = src/libexactgeo.la -lm

# Same answers before and after a change (issue 32): bench/same_output.sh
# compiles bench_digest.c against each of two build trees.
EXTRA_DIST += bench/bench_digest.c bench/same_output.sh

# The data plane end to end (issue 33): run by hand, not built by make.
# bench_e2e.sh builds arrow_floor and gen_gpkg itself; gpu_e2e/ is the
# kit for the GPU machine (docs/bench.md).
dist_noinst_SCRIPTS += bench/bench_e2e.sh bench/gpu_e2e/pack.sh \
	bench/gpu_e2e/remote.sh
EXTRA_DIST += bench/arrow_floor.c bench/e2e_bodies.py bench/e2e_same.py \
	bench/gpu_e2e/gen_gpkg.c bench/progress_gaps.py
