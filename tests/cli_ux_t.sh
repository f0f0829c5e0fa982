#!/bin/sh
# cli_ux_t.sh -- the exactgeo tool as a new user meets it (issue 11, items
# 8-11 and 13): inputs with nothing usable are errors, side outputs
# (--stats, --dump) are checked before any work and never clobbered by a
# failed run, the close of the output is a stage of its own, the summary
# names what was written, CSV keeps the geometry, messages name the user's
# paths, -spat/-bspat filter like ogr2ogr's -spat, ogr2ogr options that do
# not apply are refused with the alternative, and --help says what the
# output holds.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=cliux
. "$top_srcdir/tests/cli_lib.sh"

fixture_holes hole_name_long
gpkg a.gpkg a.geojson
gpkg b.gpkg b.geojson
# fails DESC PATTERN ARGS...: exit 1, PATTERN in the one-line error, no
# new.gpkg, nothing hidden left behind
fails() {
    desc=$1; pat=$2; shift 2
    rm -f new.gpkg
    "$XG" "$@" >/dev/null 2>err.txt
    st=$?
    grep -v ': warning: ' err.txt > msg.txt
    [ $st -eq 1 ] && [ "$(wc -l < msg.txt)" -eq 1 ] && grep -q "^exactgeo: $pat" msg.txt &&
        [ ! -e new.gpkg ] && nostage .
    ok $? "$desc: exit $st, '$(cat msg.txt 2>/dev/null)'"
}

# ---- item 8: an input with no usable segment or triangle is an error
cat > anull.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":null},
{"type":"Feature","id":2,"properties":{},"geometry":null}]}
JSON
cat > aempty.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"LineString","coordinates":[]}},
{"type":"Feature","id":2,"properties":{},"geometry":{"type":"LineString","coordinates":[]}}]}
JSON
cat > aone.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"LineString","coordinates":[[500001,7000001,0]]}},
{"type":"Feature","id":2,"properties":{},"geometry":null},
{"type":"Feature","id":3,"properties":{},"geometry":{"type":"LineString","coordinates":[[500001,7000001,1]]}}]}
JSON
cat > azero.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"LineString","coordinates":[[500001,7000001,0],[500001,7000001,0]]}}]}
JSON
for f in anull aempty aone azero; do gpkg $f.gpkg $f.geojson -nlt LINESTRINGZ; done
fails "segtri A all NULL" "anull.gpkg, layer 'anull': no usable segments (2 features: 2 without geometry)$" \
    segtri new.gpkg anull.gpkg b.gpkg
fails "segtri A all empty" "aempty.gpkg, layer 'aempty': no usable segments (2 features: 2 without geometry)$" \
    segtri new.gpkg aempty.gpkg b.gpkg
fails "segtri A all of one vertex (and NULL)" "aone.gpkg, layer 'aone': no usable segments (3 features: 1 without geometry, 2 of one vertex)$" \
    segtri new.gpkg aone.gpkg b.gpkg
fails "segtri A all of zero length" "azero.gpkg, layer 'azero': no usable segments (1 feature; 1 segment, of zero length)$" \
    segtri new.gpkg azero.gpkg b.gpkg
sed 's/"LineString","coordinates":\[\]/"Polygon","coordinates":[]/g' aempty.geojson > bempty.geojson
cat > bbad.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Polygon","coordinates":[[[$X,$Y,0],[500004,$Y,0],[500008,$Y,0],[500002,$Y,0],[$X,$Y,0]]]}},
{"type":"Feature","id":2,"properties":{},"geometry":null}]}
JSON
cat > bflat.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Polygon","coordinates":[[[$X,$Y,0],[500004,$Y,0],[500008,$Y,0],[$X,$Y,0]]]}},
{"type":"Feature","id":2,"properties":{},"geometry":{"type":"Polygon","coordinates":[[[$X,$Y,1],[500004,$Y,1],[500008,$Y,1],[$X,$Y,1]]]}}]}
JSON
cp anull.geojson bnull.geojson; cp anull.geojson rnull.geojson
gpkg bnull.gpkg bnull.geojson -nlt POLYGONZ
for f in bempty bbad bflat; do gpkg $f.gpkg $f.geojson -nlt POLYGONZ; done
fails "segtri B all NULL" "bnull.gpkg, layer 'bnull': no usable triangles (2 features: 2 without geometry)$" \
    segtri new.gpkg a.gpkg bnull.gpkg
fails "segtri B all empty" "bempty.gpkg, layer 'bempty': no usable triangles (2 features: 2 without geometry)$" \
    segtri new.gpkg a.gpkg bempty.gpkg
fails "segtri B every polygon skipped (and NULL)" "bbad.gpkg, layer 'bbad': no usable triangles (2 features: 1 without geometry, 1 with every polygon skipped)$" \
    segtri new.gpkg a.gpkg bbad.gpkg
fails "segtri B all triangles degenerate" "bflat.gpkg, layer 'bflat': no usable triangles (2 features; 2 triangles, all degenerate)$" \
    segtri new.gpkg a.gpkg bflat.gpkg
# redblue: 2D lines, B of one vertex, A and B all NULL
sed 's/,[-0-9.]*\]/]/g' aone.geojson > rone.geojson
gpkg rone.gpkg rone.geojson -nlt LINESTRING
gpkg ra.gpkg a.geojson -nlt LINESTRING -dim XY
gpkg rnull.gpkg rnull.geojson -nlt LINESTRING
fails "redblue B all of one vertex" "rone.gpkg, layer 'rone': no usable segments (3 features: 1 without geometry, 2 of one vertex)$" \
    redblue new.gpkg ra.gpkg rone.gpkg
fails "redblue A all of one vertex" "rone.gpkg, layer 'rone': no usable segments" \
    redblue new.gpkg rone.gpkg ra.gpkg
fails "redblue B all NULL" "rnull.gpkg, layer 'rnull': no usable segments (2 features: 2 without geometry)$" \
    redblue new.gpkg ra.gpkg rnull.gpkg

# ---- item 9: side outputs checked before any work, never clobbered
cat > nan.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"LineString","coordinates":[[$X,$Y,0],[$X,$Y,1]]}},
{"type":"Feature","id":9,"properties":{},"geometry":{"type":"LineString","coordinates":[[$X,$Y,0],[$X,$Y,NaN]]}}]}
JSON
gpkg nan.gpkg nan.geojson
# nan.gpkg fails while it is read: its error shows when the inputs are
# read before the side paths are checked
fails "--stats into a missing folder: found before reading" "--stats nosuch/s.json: cannot write: No such file or directory$" \
    segtri new.gpkg nan.gpkg b.gpkg --stats nosuch/s.json
fails "--dump into a missing folder: found before reading" "--dump nosuch/d.xg: cannot write: No such file or directory$" \
    segtri new.gpkg nan.gpkg b.gpkg --dump nosuch/d.xg
mkdir adir
fails "--dump to a folder: found before reading" "--dump adir: cannot write: Is a directory$" \
    segtri new.gpkg nan.gpkg b.gpkg --dump adir
cp a.gpkg mine.gpkg; cp a.gpkg mine_before.gpkg
fails "--stats naming an input: refused" "--stats mine.gpkg: is the same file as mine.gpkg" \
    segtri -q new.gpkg mine.gpkg b.gpkg --stats mine.gpkg
cmp -s mine.gpkg mine_before.gpkg; ok $? "--stats naming an input: the input is byte-identical"
# a real write error (EFBIG under a file size limit) gives its reason, and
# the existing dump is left as it was
awk -v x=$X -v y=$Y 'BEGIN {
    printf "{\"type\":\"FeatureCollection\",\"features\":[\n";
    for (i = 1; i <= 3000; i++)
        printf "%s{\"type\":\"Feature\",\"id\":%d,\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[%d,%d,-1],[%d,%d,1]]}}\n",
            (i > 1 ? "," : ""), i, x + 1, y + 1, x + 1, y + 1;
    printf "]}\n" }' > many.geojson
gpkg many.gpkg many.geojson
echo "an earlier dump" > big.xg; cp big.xg big_before.xg
(trap '' XFSZ; ulimit -f 64; exec "$XG" segtri -q --dump big.xg new.geojson many.gpkg b.gpkg) 2>err.txt
st=$?
[ $st -eq 1 ] && grep -q "^exactgeo: big.xg: write failed: File too large$" err.txt &&
    [ ! -e new.geojson ] && nostage .
ok $? "--dump write error: exit $st, the reason given: '$(cat err.txt)'"
cmp -s big.xg big_before.xg; ok $? "--dump write error: the existing file is left as it was"

# ---- item 10: closing the output is a stage, and progress ends after it
CPL_DEBUG=EXACTGEO "$XG" segtri -progress --stats s.json prog.gpkg a.gpkg b.gpkg >prog.txt 2>&1
st=$?
[ $st -eq 0 ] && grep -q '"write": [0-9.]*, "close": [0-9.]*, "total"' s.json
ok $? "--stats: seconds have a close stage after write (exit $st)"
grep -q '^  seconds: read [0-9.]*, compute [0-9.]*, write [0-9.]*, close [0-9.]*$' prog.txt
ok $? "summary: seconds read, compute, write, close"
awk '/EXACTGEO: closed prog.gpkg in/ { c = NR } /100 - done\./ { d = NR; k++ }
     END { exit !(c && d && c < d && k == 1) }' prog.txt
ok $? "-progress: 100 comes once, after the output is closed"
if command -v python3 >/dev/null 2>&1; then
    python3 -c "import json; s = json.load(open('s.json'))['seconds']; assert abs(s['total'] - s['read'] - s['prepare'] - s['upload'] - s['intersect'] - s['download'] - s['unique'] - s['write'] - s['close']) < 1e-5" 2>/dev/null
    ok $? "--stats: total is the sum of the stages, close included"
fi
"$XG" --help | grep -q "SPATIAL_INDEX=NO"; ok $? "--help: -lco SPATIAL_INDEX=NO for fast GeoPackage output"

# ---- item 11: what the summary says is what was written
"$XG" segtri -f 'ESRI Shapefile' -nln named --stats shp.json x.shp a.gpkg b.gpkg >sum.txt 2>err.txt
st=$?
[ $st -eq 0 ] && [ -f x.shp ] && [ -f x_lines.shp ] && [ ! -e named.shp ] &&
    grep -q "output: x.shp, layer 'x' and 'x_lines' (lines), 7 features" sum.txt
ok $? "-nln with a single-file Shapefile: the summary names layer 'x', as written"
grep -q '"output": {"layer": "x", "lines_layer": "x_lines"}' shp.json
ok $? "-nln with a single-file Shapefile: --stats names the layers written"
grep -q "^exactgeo: warning: -nln named is ignored: a single-file Shapefile names its layer after its file ('x')$" err.txt
ok $? "-nln with a single-file Shapefile: a warning says it is ignored"
"$XG" segtri -q out.csv a.gpkg b.gpkg 2>/dev/null && [ "$(head -1 out.csv)" = "WKT,a_fid,a_seg,b_fid,b_tri,kind" ] &&
    [ "$(tail -n +2 out.csv | tr -d '"')" = "$(cat all.txt)" ]
ok $? "CSV output: a WKT column with the seven known points and lines"
EXACTGEO_TEST_FAIL_AFTER=2 "$XG" segtri -q fail.gpkg a.gpkg b.gpkg 2>err.txt
[ $? -eq 1 ] && grep -q "^exactgeo: fail.gpkg: failure injected after 2 features" err.txt &&
    ! grep -q 'exactgeo-' err.txt && [ ! -e fail.gpkg ] && nostage .
ok $? "write failure: the message names DST, not the staging path: '$(cat err.txt)'"
mkdir shpdir
EXACTGEO_TEST_FAIL_AFTER=2 "$XG" segtri -q -overwrite -f 'ESRI Shapefile' shpdir a.gpkg b.gpkg 2>err.txt
[ $? -eq 1 ] && grep -q "^exactgeo: shpdir: failure injected" err.txt && ! grep -q 'exactgeo-' err.txt
ok $? "write failure to a Shapefile folder: the message names it: '$(cat err.txt)'"
"$XG" segtri -lco NO_SUCH_OPTION=1 lco.gpkg a.gpkg b.gpkg >/dev/null 2>err.txt
[ $? -eq 0 ] && grep -q "warning: .*lco.gpkg.* NO_SUCH_OPTION" err.txt && ! grep -q 'exactgeo-' err.txt
ok $? "GDAL's warning names DST, not the staging path: '$(cat err.txt)'"
"$XG" segtri -acopy all -overwrite l.shp a.gpkg b.gpkg >/dev/null 2>err.txt
[ $? -eq 0 ] && [ -f l_lines.shp ] &&
    [ "$(grep -c "laundered field name: 'a_hole_name_long'" err.txt)" -eq 1 ]
ok $? "Shapefile with a lines layer: the laundered-field warning comes once"

# ---- item 13: -spat, -bspat, refused ogr2ogr options, --help
box="500000.9 7000000.9 500001.1 7000002.1"
"$XG" segtri -q spat.gpkg a.gpkg b.gpkg -spat $box 2>/dev/null
st=$?
ogr2ogr -f GPKG -preserve_fid -spat $box a_box.gpkg a.gpkg 2>/dev/null
"$XG" segtri -q spat_ref.gpkg a_box.gpkg b.gpkg 2>/dev/null
[ $st -eq 0 ] && [ "$(dump spat.gpkg $fixed)" = "$(dump spat_ref.gpkg $fixed)" ] &&
    [ "$(dump spat.gpkg $fixed | sed 's/^.*),//' | cut -d, -f1 | tr '\n' ' ')" = "1 4 6 " ]
ok $? "-spat keeps the holes meeting the box (1, 4, 6), as a run on ogr2ogr -spat's output"
bbox="500099 6999999 500105 7000005"
"$XG" segtri -q bspat.gpkg a.gpkg b.gpkg -bspat $bbox 2>/dev/null &&
    ogr2ogr -f GPKG -preserve_fid -spat $bbox b_box.gpkg b.gpkg 2>/dev/null &&
    "$XG" segtri -q bspat_ref.gpkg a.gpkg b_box.gpkg 2>/dev/null &&
    [ "$(dump bspat.gpkg $fixed)" = "$(dump bspat_ref.gpkg $fixed)" ] &&
    [ "$(dump bspat.gpkg $fixed)" = "$(tail -1 all.txt)" ]
ok $? "-bspat keeps B feature 2 only, as a run on ogr2ogr -spat's output"
fails "-spat selecting nothing" "a.gpkg, layer 'a': no feature matches the box 0 0 1 1$" \
    segtri new.gpkg a.gpkg b.gpkg -spat 0 0 1 1
usage() {  # usage DESC PATTERN ARGS...: exit 2, PATTERN on stderr
    desc=$1; pat=$2; shift 2
    rm -f new.gpkg
    "$XG" "$@" >/dev/null 2>err.txt
    st=$?
    [ $st -eq 2 ] && grep -q "^exactgeo: $pat" err.txt && [ ! -e new.gpkg ]
    ok $? "$desc: exit $st, '$(head -1 err.txt)'"
}
usage "-spat with a word for a number" "-spat: 'x' is not a number" segtri new.gpkg a.gpkg b.gpkg -spat 0 0 1 x
usage "-sql refused, naming the alternative" "-sql is not supported: use -where/-bwhere for attribute filters, or ogr2ogr -sql first" \
    segtri new.gpkg a.gpkg b.gpkg -sql "SELECT * FROM a"
usage "-t_srs refused, naming the alternative" "-t_srs is not supported: reproject the input with ogr2ogr -t_srs first" \
    segtri new.gpkg a.gpkg b.gpkg -t_srs EPSG:4326
usage "-clipsrc refused, naming the alternative" "-clipsrc is not supported: use -spat/-bspat" \
    segtri new.gpkg a.gpkg b.gpkg -clipsrc 0 0 1 1
"$XG" --help > help.txt
grep -q "a_fid, a_seg" help.txt && grep -q "b_fid, b_tri" help.txt && grep -q "b_seg" help.txt &&
    grep -q "a_\*, b_\*" help.txt
ok $? "--help: the output fields"
grep -q "^  proper " help.txt && grep -q "^  touch " help.txt && grep -q "^  coplanar " help.txt &&
    grep -q "^  overlap " help.txt
ok $? "--help: the kinds, one line each"
grep -q "0 done; 1 error, nothing written; 2 usage error" help.txt && grep -q "130 (SIGINT) or 143 (SIGTERM) interrupted" help.txt
ok $? "--help: the exit codes"
grep -q 'ogrinfo .*EXACTGEO:op=segtri' help.txt && grep -q -- "-spat XMIN YMIN XMAX YMAX" help.txt
ok $? "--help: the EXACTGEO driver and -spat"

echo "1..$n"
exit 0
