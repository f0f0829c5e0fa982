# bench: see Makefile.am
# Benchmarks: built by `make`, run by bench/run.sh (not part of `make check`).
noinst_PROGRAMS += bench/gen_paper bench/bench_segtri
bench_gen_paper_SOURCES = bench/gen_paper.c
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
bench_bench_redblue_LDADD = src/libexactgeo_core.la $(GEOS_LIBS) $(GMP_LIBS) -lm
endif
