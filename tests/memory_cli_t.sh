#!/bin/sh
# memory_cli_t.sh -- --max-memory (issue 16): a run whose memory estimate
# exceeds the limit is refused before it starts, exit 1, one line giving
# the estimate and the limit, nothing written, an existing output left as
# it was; the same run under --max-memory none or a large limit writes its
# contacts; bad sizes are usage errors (exit 2) from the one option
# parser, which EXACTGEO: connection strings share (max_memory=).  The
# limits are the test's own, so nothing depends on this machine's memory.
# Issue 31, item 5: the driver stays within a limit it accepts (peak
# resident memory, a wide margin), and inside's outside records count.
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
# Issue 31, item 5: the driver's memory.  It held the whole result as OGR
# features (1.5 million points: 2.84 GB under max_memory=300M); it now
# holds the core's records and makes each feature when read, so a run
# accepted under max_memory stays within it: what ogrinfo reading every
# feature of the job takes beyond ogrinfo reading the input itself is at
# most max_memory (the estimate) plus the points as read (40 bytes each,
# docs/memory.md).  Peak resident memory from the kernel (ru_maxrss); the
# base run kept 10 times the bound, this one about half of it.
peak() {  # peak CMD...: "KB STATUS" of CMD's peak resident memory
    /usr/bin/python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r)' "$@"
}
estimate() {  # estimate CONN: the bytes the refusal under max_memory=1 names
    ogrinfo -ro -so "$1;max_memory=1" 2>&1 |
        sed -n 's/.*(\([0-9]*\) bytes) of memory (estimate).*/\1/p'
}
N=100000
awk -v n=$N 'BEGIN { srand(7); print "x,y,z"; for (i = 0; i < n; i++)
  printf "%.3f,%.3f,%.2f\n", 500000 + rand() * 5000, 7000000 + rand() * 5000, rand() * 100 }' > big.csv
ogr2ogr -f GPKG big.gpkg big.csv -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y \
    -oo Z_POSSIBLE_NAMES=z -a_srs EPSG:32634 -nln pts -lco SPATIAL_INDEX=NO
CONN="EXACTGEO:op=delaunay;a=big.gpkg;threads=2"
need=$(estimate "$CONN")
set -- $(peak ogrinfo -ro -al -q big.gpkg -where "fid < 0")
base_kb=$1
set -- $(peak ogrinfo -ro -al -q "$CONN;max_memory=$need" -where "v0 < 0")
run_kb=$1 run_rc=$2
bound_kb=$(( (need + 40 * N) / 1024 ))
if [ -n "${XG_SANITIZE:-}" ]; then   # ASan's own memory is no measure
    n=$((n + 1))
    echo "ok $n - EXACTGEO: delaunay of $N points under its estimate # SKIP peak memory under the sanitizers"
else
    [ -n "$need" ] && [ "$run_rc" -eq 0 ] && [ $((run_kb - base_kb)) -le "$bound_kb" ]
    ok $? "EXACTGEO: delaunay of $N points under max_memory=$need (its estimate): reading every triangle takes $((run_kb - base_kb)) KB beyond reading the points, at most $bound_kb KB"
fi
ogrinfo -ro -so "$CONN;max_memory=$((need - 1))" > /dev/null 2> err.txt
ok $([ $? -ne 0 ] && grep -q "delaunay: $N points need about .* refused before it started" err.txt
     echo $?) "EXACTGEO: delaunay one byte under its estimate: refused"

# inside with outside records (outside=yes): one record per point
# whatever the data, 64 bytes each, now in the estimate (the tool's and
# the driver's), so that a run whose records exceed the limit is refused
cat > cube.geojson <<'JSON'
{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[
[[[500100,7000100,10],[500100,7000400,10],[500300,7000400,10],[500300,7000100,10],[500100,7000100,10]]],
[[[500100,7000100,60],[500300,7000100,60],[500300,7000400,60],[500100,7000400,60],[500100,7000100,60]]],
[[[500100,7000100,10],[500300,7000100,10],[500300,7000100,60],[500100,7000100,60],[500100,7000100,10]]],
[[[500100,7000400,10],[500100,7000400,60],[500300,7000400,60],[500300,7000400,10],[500100,7000400,10]]],
[[[500100,7000100,10],[500100,7000100,60],[500100,7000400,60],[500100,7000400,10],[500100,7000100,10]]],
[[[500300,7000100,10],[500300,7000400,10],[500300,7000400,60],[500300,7000100,60],[500300,7000100,10]]]]}}]}
JSON
gpkg cube.gpkg cube.geojson
IN="EXACTGEO:op=inside;a=big.gpkg;b=cube.gpkg;threads=2"
plain=$(estimate "$IN")
outs=$(estimate "$IN;outside=yes")
[ -n "$plain" ] && [ -n "$outs" ] && [ "$outs" -eq $((plain + 64 * N)) ]
ok $? "inside: outside=yes adds 64 bytes a point to the estimate ($plain -> $outs bytes)"
ogrinfo -ro -so "$IN;outside=yes;max_memory=$((outs - 1))" > /dev/null 2> err.txt
st=$?
"$XG" inside -q -outside --max-memory $((outs - 1)) in.gpkg big.gpkg cube.gpkg 2> err2.txt
st2=$?
ok $([ $st -ne 0 ] && [ $st2 -eq 1 ] && [ ! -e in.gpkg ] &&
     grep -q "and $N records at least need about .* refused before it started" err.txt &&
     grep -q "and $N records at least need about" err2.txt; echo $?) \
   "inside -outside one byte under the estimate with its records: refused by the driver and the tool"
ogrinfo -ro -so -al "$IN;outside=yes;max_memory=$outs" > info.txt 2> err.txt
ok $([ $? -eq 0 ] && grep -q "^Feature Count: $N$" info.txt; echo $?) \
   "inside -outside under its estimate: runs, $N records"
echo "1..$n"
exit $failed
