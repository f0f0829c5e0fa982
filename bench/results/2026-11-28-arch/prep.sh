#!/bin/bash
# Issue 32, branch cuda (CUB for the engines' algorithms, the benchmark-
# only strategies out of the library, the GPU engines' files split): on
# the build machine, packs what gpu_check.sh runs on the GPU machine into
# .carry/arch/pack.tar.xz (the one path to carry; .carry/ is ignored):
#   bin/   this tree's GPU tests (static: tests/gpu_t, gpu_iv_t,
#          redblue_gpu_t, inside_gpu_t, delaunay_gpu_t, regions_gpu_t)
#          and the tests of `make check` that run the gpu engine where
#          there is one (gpu_ctx_t, inside_t, pair_engine_t), the
#          benchmarks (bench_gpu, bench_inside, bench_delaunay,
#          bench_redblue), the data generators (gen_paper, gen_maps) and
#          digest_new, digest_base (bench/bench_digest.c, the digests of
#          bench/same_output.sh: every engine's answer on the benchmark
#          sets hashed, public API only; built against each tree's
#          headers and shared library; from main's commit where this
#          tree has no bench_digest.c yet);
#   new/, base/  libexactgeo.so.0 of this tree and of the reference
#          (BASE, default /work/wt/fix31, a built tree of 870268c), for
#          the digests and gen_maps;
#   base/  the reference's benchmarks, for timings on the same machine;
#   lib/   GEOS's libraries (bench_redblue loads them; the GPU machine has
#          none).
# Everything stripped.  The trees are only read: build this one first
# (make, make check TESTS=) and the reference before.
#   bash bench/results/2026-11-28-arch/prep.sh
set -e
D=$(cd "$(dirname "$0")" && pwd)
R=$(cd "$D/../../.." && pwd)
BASE=${BASE:-/work/wt/fix31}
C=$R/.carry/arch
T="tests/gpu_t tests/gpu_iv_t tests/redblue_gpu_t tests/inside_gpu_t
   tests/delaunay_gpu_t tests/regions_gpu_t tests/gpu_ctx_t tests/inside_t
   tests/pair_engine_t"
B="bench/bench_gpu bench/bench_inside bench/bench_delaunay bench/bench_redblue"
rm -rf "$C"
P=$C/pack
mkdir -p "$P/bin" "$P/new" "$P/base" "$P/lib"
for f in $T $B bench/gen_paper; do
    if ! head -c 4 "$R/$f" | grep -q ELF; then
        echo "prep: $R/$f: not a built program"; exit 1
    fi
    cp "$R/$f" "$P/bin/"
done
cp "$R/bench/.libs/gen_maps" "$P/bin/gen_maps"
cp -L "$R/src/.libs/libexactgeo.so.0" "$P/new/"
for f in $B; do
    if ! head -c 4 "$BASE/$f" | grep -q ELF; then
        echo "prep: $BASE/$f: not a built program"; exit 1
    fi
    cp "$BASE/$f" "$P/base/"
done
cp -L "$BASE/src/.libs/libexactgeo.so.0" "$P/base/"
DIG=$R/bench/bench_digest.c
if [ ! -f "$DIG" ]; then
    DIG=$C/bench_digest.c
    git -C "$R" show main:bench/bench_digest.c > "$DIG"
fi
for t in new base; do
    Tr=$R; [ $t = base ] && Tr=$BASE
    gcc -std=c11 -O2 -Wall -I"$Tr/src" -I"$R/bench" "$DIG" \
        -L"$Tr/src/.libs" -lexactgeo -lm -o "$P/bin/digest_$t"
done
rm -f "$C/bench_digest.c"
# gen_maps and the digests load libexactgeo.so.0 (new/ or base/); GEOS
# for bench_redblue, both trees'
for f in $(ldd "$P/bin/bench_redblue" | awk '/libgeos/ {print $3}'); do
    cp -L "$f" "$P/lib/"
done
strip "$P"/bin/* "$P"/base/bench_* "$P"/new/* "$P"/base/*.so.0
tar cf - -C "$P" . | xz -T2 -6 > "$C/pack.tar.xz"
rm -rf "$P"
git -C "$R" rev-parse --short HEAD > "$C/new.commit"
git -C "$BASE" rev-parse --short HEAD > "$C/base.commit"
echo "prep: $C/pack.tar.xz ($(du -h "$C/pack.tar.xz" | cut -f1)):" \
     "this tree $(cat "$C/new.commit") (uncommitted changes:" \
     "$(git -C "$R" status --porcelain --untracked-files=no | wc -l)" \
     "files), reference $(cat "$C/base.commit")"
