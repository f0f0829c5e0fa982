# bench: see Makefile.am
# Benchmarks: built by `make`, run by bench/run.sh (not part of `make check`).
noinst_PROGRAMS += bench/gen_paper bench/bench_segtri
bench_gen_paper_SOURCES = bench/gen_paper.c
bench_gen_paper_LDADD = src/libexactgeo.la -lm
bench_bench_segtri_SOURCES = bench/bench_segtri.c
bench_bench_segtri_LDADD = src/libexactgeo.la $(GMP_LIBS) -lm
dist_noinst_SCRIPTS += bench/run.sh
