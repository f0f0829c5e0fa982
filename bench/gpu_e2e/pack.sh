#!/bin/sh
# pack.sh -- the kit that runs the real exactgeo, GDAL and all, on the GPU
# machine (which has no GDAL; issue 33, item 5).
#
#   bench/gpu_e2e/pack.sh TREE OUTDIR
#
# TREE: a built tree (configured with CUDA, so that --engine gpu exists).
# Writes OUTDIR/kit.tar.xz and prints its size.  For the device tool,
# OUTDIR is bench/gpu_e2e/kit of the checkout that the tool sends (its
# .gitignore here ignores it), named in the call's `carry`: at most 64
# MiB travel, this and the tree together.  The archive holds:
#   bin/exactgeo        the tool's real binary (TREE/.libs/exactgeo, not
#                       libtool's wrapper script)
#   bin/ogrinfo, bin/ogr2ogr, bin/gen_gpkg (bench/gpu_e2e/gen_gpkg.c),
#                       bin/arrow_floor (bench/arrow_floor.c), and
#                       bin/sqlite_floor where bench/sqlite_floor.c is:
#                       built here, as the GPU machine has no GDAL and no
#                       sqlite3.h
#   lib/                libexactgeo, and the ldd closure of every program
#                       and of the plugin, less what the system there has
#                       (libc, ld-linux, libm, libpthread, libdl, librt)
#                       and the CUDA driver (libcuda: the machine's own)
#   plugins/ogr_EXACTGEO.so  the GDAL plugin (GDAL_DRIVER_PATH)
#   gdal-data/          GDAL_DATA: the few files the GPKG, CSV and
#                       FlatGeobuf drivers read
#   proj/proj.db        PROJ_DATA
#   ref/bin/exactgeo, ref/lib/libexactgeo.so.0
#                       only with XG_PACK_REF=TREE2 (another CUDA build,
#                       e.g. today's main): its tool and library, so that
#                       remote.sh runs both in one call (XG_REF=1); the
#                       rest of the closure is shared
# bench/gpu_e2e/remote.sh unpacks it there and runs the benchmark.
# Exit 0 done (under 52 MiB, leaving 12 MiB of the 64 for the tree), 1
# otherwise.
set -eu
[ $# -eq 2 ] || { echo "usage: pack.sh TREE OUTDIR" >&2; exit 2; }
T=$(cd "$1" && pwd)
S=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$2"
O=$(cd "$2" && pwd)
K=$(mktemp -d "${TMPDIR:-/tmp}/xg_kit.XXXXXX")
trap 'rm -rf "$K"' EXIT
mkdir -p "$K/kit/bin" "$K/kit/lib" "$K/kit/plugins" "$K/kit/gdal-data" "$K/kit/proj"
cp "$T/.libs/exactgeo" "$K/kit/bin/exactgeo"
cp "$T/ogr_driver/.libs/ogr_EXACTGEO.so" "$K/kit/plugins/"
cp "$(command -v ogrinfo)" "$(command -v ogr2ogr)" "$K/kit/bin/"
CC="cc -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -ffp-contract=off"
$CC "$S/bench/gpu_e2e/gen_gpkg.c" -o "$K/kit/bin/gen_gpkg" -lsqlite3 -lm
# shellcheck disable=SC2046
$CC "$S/bench/arrow_floor.c" -o "$K/kit/bin/arrow_floor" $(gdal-config --cflags) \
    $(gdal-config --libs)
if [ -f "$S/bench/sqlite_floor.c" ]; then
    $CC "$S/bench/sqlite_floor.c" -o "$K/kit/bin/sqlite_floor" -lsqlite3
fi
cp -L "$T"/src/.libs/libexactgeo.so.0 "$K/kit/lib/"
if [ -n "${XG_PACK_REF:-}" ]; then
    R=$(cd "$XG_PACK_REF" && pwd)
    mkdir -p "$K/kit/ref/bin" "$K/kit/ref/lib"
    cp "$R/.libs/exactgeo" "$K/kit/ref/bin/exactgeo"
    cp -L "$R"/src/.libs/libexactgeo.so.0 "$K/kit/ref/lib/"
fi
# The closure: ldd, with the tree's own library found first.
for f in "$K"/kit/bin/* "$K/kit/plugins/ogr_EXACTGEO.so"; do
    LD_LIBRARY_PATH=$T/src/.libs ldd "$f"
done | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u |
while read -r name path; do
    case $name in
    libc.so.* | ld-linux* | libm.so.* | libpthread.so.* | libdl.so.* | \
        librt.so.* | libcuda.so.* | libexactgeo.so.*) ;;
    *) cp -L "$path" "$K/kit/lib/$name" ;;
    esac
done
# GDAL_DATA: what the drivers used here read (gdalvrt.xsd and the like
# are not needed); PROJ_DATA: proj.db only.
GD=$(gdal-config --datadir)
for f in gdalinfo_output.schema.json ogrinfo_output.schema.json \
    pci_datum.txt pci_ellips.txt; do
    [ -f "$GD/$f" ] && cp "$GD/$f" "$K/kit/gdal-data/"
done
cp /usr/share/proj/proj.db "$K/kit/proj/"
strip --strip-unneeded "$K"/kit/lib/*.so* "$K"/kit/bin/* "$K"/kit/ref/*/* \
    "$K/kit/plugins/ogr_EXACTGEO.so" 2> /dev/null || true
echo "pack: $(du -sh "$K/kit" | cut -f1) unpacked, $(ls "$K/kit/lib" | wc -l) libraries" >&2
tar -C "$K" -cf - kit | xz -T2 -6 > "$O/kit.tar.xz.tmp"
mv "$O/kit.tar.xz.tmp" "$O/kit.tar.xz"
size=$(wc -c < "$O/kit.tar.xz")
echo "pack: $O/kit.tar.xz $size bytes ($((size / 1048576)) MiB; the limit is 64 MiB with the tree)"
[ "$size" -lt $((52 * 1048576)) ] || { echo "pack: too large: the tree needs about 11 MiB" >&2; exit 1; }
