#!/bin/sh
# memory_cli_t.sh -- --max-memory (issue 16): a run whose memory estimate
# exceeds the limit is refused before it starts, exit 1, one line giving
# the estimate and the limit, nothing written, an existing output left as
# it was; the same run under --max-memory none or a large limit writes its
# contacts; bad sizes are usage errors (exit 2) from the one option
# parser, which EXACTGEO: connection strings share (max_memory=).  The
# limits are the test's own, so nothing depends on this machine's memory.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=memory
. "$top_srcdir/tests/cli_lib.sh"
fixture_holes name
OGRDUMP="$top_builddir/tests/ogrdump"

"$XG" segtri out.gpkg a.geojson b.geojson --max-memory 100 2> err.txt
rc=$?
ok $([ $rc -eq 1 ] && [ ! -e out.gpkg ] && nostage &&
     [ "$(wc -l < err.txt)" -eq 1 ] &&
     grep -q 'segtri: 11 segments x 3 triangles need about .* bytes) of memory (estimate), more than the 100 bytes it may take (the limit set)' err.txt
     echo $?) "--max-memory 100: refused, exit $rc, nothing written: $(cat err.txt)"

"$XG" segtri out.gpkg a.geojson b.geojson --max-memory none -q
ok $([ $? -eq 0 ] && [ -s out.gpkg ]; echo $?) "--max-memory none: runs"
sum0=$(cksum < out.gpkg)
"$XG" segtri -overwrite out.gpkg a.geojson b.geojson --max-memory 1k \
    2> err.txt
rc=$?
ok $([ $rc -eq 1 ] && [ "$(cksum < out.gpkg)" = "$sum0" ] && nostage &&
     grep -q 'refused before it started' err.txt; echo $?) \
   "-overwrite with --max-memory 1k: refused, the existing output unchanged"
for size in 1G 2.5M 1048576 auto; do
    "$XG" segtri -overwrite out2.gpkg a.geojson b.geojson \
        --max-memory "$size" -q
    ok $([ $? -eq 0 ] &&
         [ "$("$OGRDUMP" out.gpkg)" = "$("$OGRDUMP" out2.gpkg)" ]
         echo $?) \
       "--max-memory $size: runs, the same output"
    rm -f out2.gpkg
done
for bad in 0 -1 12Q 1.5.3 x ''; do
    "$XG" segtri out3.gpkg a.geojson b.geojson --max-memory "$bad" 2> err.txt
    rc=$?
    ok $([ $rc -eq 2 ] && [ ! -e out3.gpkg ] &&
         grep -q "bad max_memory '$bad' (expected auto, none, or a size" err.txt
         echo $?) "--max-memory '$bad': usage error (exit $rc)"
done
# points: delaunay and inside are checked alike (the core's test,
# tests/memory_t, covers every operation); here delaunay's one input
awk 'BEGIN { printf "{\"type\":\"FeatureCollection\",\"features\":[";
  for (i = 0; i < 30; i++) printf "%s{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[%d.5,%d.25]}}", i ? "," : "", 500000 + (i * 7) % 11, 7000000 + (i * 5) % 13;
  print "]}" }' > p.geojson
"$XG" delaunay tin.gpkg p.geojson --max-memory 2K 2> err.txt
ok $([ $? -eq 1 ] && [ ! -e tin.gpkg ] &&
     grep -q 'delaunay: 30 points need about' err.txt; echo $?) \
   "delaunay --max-memory 2K: refused, nothing written: $(cat err.txt)"

GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" 2>/dev/null && pwd)
export GDAL_DRIVER_PATH
ogrinfo -ro -so "EXACTGEO:op=segtri;a=a.geojson;b=b.geojson;max_memory=1K" \
    > /dev/null 2> err.txt
ok $([ $? -ne 0 ] && grep -q "refused before it started" err.txt; echo $?) \
   "EXACTGEO: max_memory=1K: the open fails with the message"
ogrinfo -ro -so "EXACTGEO:op=segtri;a=a.geojson;b=b.geojson;max_memory=z" \
    > /dev/null 2> err.txt
ok $([ $? -ne 0 ] && grep -q "bad max_memory 'z'" err.txt; echo $?) \
   "EXACTGEO: max_memory=z gets the parser's message"
echo "1..$n"
exit $failed
