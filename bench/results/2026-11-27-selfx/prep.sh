#!/bin/bash
# Issue 31, item 3: makes the folder run.sh runs on the GPU machine (from
# a built tree with CUDA, sm_90, static CUDA runtime, as configure sets it
# up): this tree's bench_inside and the tests that touch the self-crossing
# check, the base's bench_inside (a built tree of 2c57d1c, before the
# check), the tool exactgeo of both trees (the real binaries of .libs/,
# each with its libexactgeo.so.0: new/ and base/), gen_gpkg (the
# benchmark's solids and points as GeoPackages), ab_inside (xg_inside on
# the benchmark's cases through the public API, for either library),
# selfx_time (the check per solid, as the tool's reader makes it), the libraries all of them
# load (GDAL 3.6 and its dependencies, GMP, libstdc++: the ldd closure,
# less the C library's own), GDAL's data and PROJ's proj.db; all in
# pack.tar.xz (the GPU machine has no GDAL), beside run.sh, which unpacks it.
#   bash bench/results/2026-11-27-selfx/prep.sh [FOLDER]    (default gpurun)
#   BASE=/path/to/built/base  (default /work/base)
set -e
D=$(cd "$(dirname "$0")" && pwd)
R=$(cd "$D/../../.." && pwd)
BASE=${BASE:-/work/base}
G=${1:-$R/gpurun}
make -C "$R" -j2 exactgeo bench/bench_inside tests/inside_t tests/inside_gpu_t tests/selfx_t > /dev/null
make -C "$BASE" -j2 exactgeo bench/bench_inside > /dev/null
rm -rf "$G"
P=$G/pack
mkdir -p "$P/bin" "$P/lib" "$P/new" "$P/base" "$P/share/proj"
cp "$R/bench/bench_inside" "$P/bin/bench_inside"
cp "$BASE/bench/bench_inside" "$P/bin/bench_inside_base"
for t in inside_t inside_gpu_t selfx_t; do cp "$R/tests/$t" "$P/bin/"; done
gcc -O2 -Wall -I"$R/bench" "$D/gen_gpkg.c" $(gdal-config --cflags) -lgdal -lm -o "$P/bin/gen_gpkg"
gcc -O2 -Wall -pthread -I"$R/src" -I"$R/bench" "$D/ab_inside.c" -L"$R/src/.libs" -lexactgeo -lm -o "$P/bin/ab_inside"
gcc -O2 -Wall -I"$R/src" -I"$R/bench" "$D/selfx_time.c" -L"$R/src/.libs" -lexactgeo -lm -o "$P/bin/selfx_time"
for t in new base; do
    T=$R; [ $t = base ] && T=$BASE
    cp "$T/.libs/exactgeo" "$P/$t/exactgeo"
    cp -L "$T/src/.libs/libexactgeo.so.0" "$P/$t/"
    # the tool needs nothing else of its build tree
    LD_LIBRARY_PATH=$P/$t ldd "$P/$t/exactgeo" | grep -E 'not found|\.libs/' && exit 1
done
strip "$P"/bin/* "$P"/new/* "$P"/base/*
# the closure: every library these load, but the C library's own
for f in "$P"/bin/* "$P"/new/* "$P"/base/*; do
    LD_LIBRARY_PATH=$(dirname "$f") ldd "$f"
done | awk '/=> \//{print $1, $3}' | sort -u |
    grep -v -E '^(libc\.so|ld-linux|libm\.so|libpthread|libdl\.so|librt\.so|libresolv|libutil|libexactgeo)' |
    while read -r n p; do cp -L "$p" "$P/lib/$n"; done
cp -r /usr/share/gdal "$P/share/gdal"
cp /usr/share/proj/proj.db /usr/share/proj/proj.ini "$P/share/proj/"
tar cf - -C "$P" . | xz -T2 -6 > "$G/pack.tar.xz"
rm -rf "$P"
cp "$D/run.sh" "$D/e2e_table.py" "$G/"
printf '%s\n' "$(git -C "$R" rev-parse --short HEAD)" > "$G/new.commit"
printf '%s\n' "$(git -C "$BASE" rev-parse --short HEAD)" > "$G/base.commit"
echo "$(cat "$G/new.commit") and base $(cat "$G/base.commit") in $G ($(du -sh "$G" | cut -f1))"
