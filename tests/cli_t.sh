#!/bin/sh
# cli_t.sh -- the exactgeo tool end to end: hand-built inputs with known
# contacts (proper, through a vertex, through an edge, coplanar, part and
# zero-length segment numbering), GeoPackage and Shapefile output with
# attribute copies, every bad input (clear message, non-zero exit, nothing
# written, nothing lost), and the demo data of data/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=cli
. "$top_srcdir/tests/cli_lib.sh"

fixture_holes hole
gpkg a.gpkg a.geojson
gpkg b.gpkg b.geojson

# ---- GeoPackage, no copies
"$XG" segtri -q out.gpkg a.gpkg b.gpkg 2>err.txt
ok $? "segtri to GPKG exits 0"
dump out.gpkg $fixed > got.txt
cmp -s got.txt all.txt; ok $? "GPKG: the seven known contacts, in (a, b) order, exact points"
ogrinfo -so out.gpkg contacts 2>/dev/null | grep -q 'ID\["EPSG",32634\]'
ok $? "GPKG: output CRS is the inputs' (EPSG:32634)"
[ ! -s err.txt ]; ok $? "-q: nothing on stderr"
nostage .; ok $? "no staging folder left behind"

# ---- GeoPackage with copies; summary
"$XG" segtri out2.gpkg a.gpkg b.gpkg -acopy hole -bcopy all -nln hits >sum.txt 2>&1
ok $? "segtri with -acopy/-bcopy exits 0"
dump out2.gpkg hits -select a_fid,b_fid,a_hole,b_body,b_rock > got.txt
printf '%s\n' "POINT Z (500001 7000001 0),1,1,P,7,ore" > exp.txt
[ "$(head -1 got.txt)" = "$(cat exp.txt)" ] && [ "$(tail -1 got.txt)" = "POINT Z (500000.25 7000000.25 10),8,2,B2,8,waste" ]
ok $? "copied fields a_hole, b_body, b_rock hold each contact's source values"
grep -q "contacts: 7 (4 proper, 2 touch, 1 coplanar)" sum.txt && grep -q "engine cpu" sum.txt &&
    grep -q "output: out2.gpkg, layer 'hits'" sum.txt
ok $? "summary names counts by kind, engine and output"

# ---- Shapefile: points and, apart, lines
"$XG" segtri -q out.shp a.gpkg b.gpkg -acopy hole 2>err.txt
ok $? "segtri to Shapefile exits 0"
dump out.shp $fixed > got.txt
grep -v LINESTRING all.txt > exp.txt
cmp -s got.txt exp.txt; ok $? "Shapefile: points in out.shp"
dump out_lines.shp $fixed > got.txt
cmp -s got.txt lines.txt; ok $? "Shapefile: the coplanar overlap in out_lines.shp"
[ -f out.prj ] && [ -f out_lines.prj ]; ok $? "Shapefile: both layers carry the CRS"
[ "$(dump out.shp -select a_hole | cut -d, -f2 | tr '\n' ' ')" = "P V E MP Z B2 " ]
ok $? "Shapefile: copied field a_hole"
"$XG" segtri -q pts_only.shp a.gpkg b.gpkg -where "hole <> 'C'" 2>/dev/null
[ $? -eq 0 ] && [ -f pts_only.shp ] && [ ! -f pts_only_lines.shp ]
ok $? "Shapefile: no lines layer when there are no overlaps (-where on A)"
"$XG" segtri -q -f "ESRI Shapefile" shpdir a.gpkg b.gpkg -nln c 2>/dev/null
[ $? -eq 0 ] && [ -f shpdir/c.shp ] && [ -f shpdir/c_lines.shp ]
ok $? "Shapefile folder output: shpdir/c.shp and shpdir/c_lines.shp"

# ---- -bwhere, -al/-bl, engines, stats, dump
"$XG" segtri -q o3.gpkg a.gpkg b.gpkg -al a -bl b -bwhere "body = 8" --engine seq --stats s.json --dump d.xg 2>/dev/null
ok $? "-al/-bl/-bwhere/--engine seq/--stats/--dump exit 0"
[ "$(dump o3.gpkg $fixed)" = "$(tail -1 all.txt)" ]; ok $? "-bwhere keeps B feature 2 only"
grep -q '"engine": "seq"' s.json && grep -q '"total": 1}' s.json && grep -q '"segments": 11' s.json
ok $? "--stats: engine, segment count and contact total"
if command -v python3 >/dev/null 2>&1; then
    python3 -c "import json,sys; json.load(open('s.json'))" 2>/dev/null
    ok $? "--stats: valid JSON"
fi
[ -s d.xg ] && [ "$(head -c 8 d.xg)" = "XGDUMP01" ]; ok $? "--dump wrote a core dump"

# ---- bad input: message, exit status, nothing written
bad() {  # bad "DESCRIPTION" PATTERN ARGS...  (output always new.gpkg)
    desc=$1; pat=$2; shift 2
    rm -f new.gpkg
    "$XG" segtri "$@" >/dev/null 2>err.txt
    st=$?
    [ $st -ne 0 ] && grep -q "^exactgeo: .*$pat" err.txt && [ "$(wc -l < err.txt)" -eq 1 ] &&
        [ ! -e new.gpkg ] && nostage .
    ok $? "$desc: '$(cat err.txt)'"
}
bad "missing file" "nosuch.gpkg: no such file" new.gpkg nosuch.gpkg b.gpkg
bad "unknown layer" "a.gpkg: no layer 'nope' (layers: 'a')" new.gpkg a.gpkg b.gpkg -al nope
cat > pt.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":5,"properties":{},"geometry":{"type":"Point","coordinates":[$X,$Y,1]}}]}
JSON
gpkg pt.gpkg pt.geojson
bad "wrong geometry type" "pt.gpkg, layer 'pt', feature 5: geometry is 3D Point; expected LineString" new.gpkg pt.gpkg b.gpkg
cat > nan.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"LineString","coordinates":[[$X,$Y,0],[$X,$Y,1]]}},
{"type":"Feature","id":9,"properties":{},"geometry":{"type":"LineString","coordinates":[[$X,$Y,0],[$X,$Y,NaN]]}}]}
JSON
gpkg nan.gpkg nan.geojson
bad "NaN coordinate" "nan.gpkg, layer 'nan', feature 9: vertex 1: z coordinate is NaN" new.gpkg nan.gpkg b.gpkg
sed 's/NaN/Infinity/' nan.geojson > inf.geojson; gpkg inf.gpkg inf.geojson
bad "infinite coordinate" "inf.gpkg, layer 'inf', feature 9: vertex 1: z coordinate is infinite" new.gpkg inf.gpkg b.gpkg
gpkg empty.gpkg a.geojson; ogrinfo -q empty.gpkg -sql "DELETE FROM a" >/dev/null 2>&1
bad "empty layer" "empty.gpkg, layer 'a': layer is empty" new.gpkg empty.gpkg b.gpkg
bad "filter selects nothing" "no feature matches the filter" new.gpkg a.gpkg b.gpkg -where "hole = 'none'"
gpkg b33.gpkg b.geojson -a_srs EPSG:32633
bad "CRS mismatch" "CRS mismatch: a.gpkg, layer 'a' has EPSG:32634.*b33.gpkg, layer 'b' has EPSG:32633" new.gpkg a.gpkg b33.gpkg
gpkg bnocrs.gpkg b.geojson -a_srs None
bad "CRS on one side only" "CRS mismatch: .* has no CRS" new.gpkg a.gpkg bnocrs.gpkg
ogr2ogr -f GPKG -preserve_fid a2d.gpkg a.geojson -dim XY -a_srs EPSG:32634 2>/dev/null
bad "2D input to segtri" "a2d.gpkg, layer 'a'.* has no Z; segtri needs 3D input" new.gpkg a2d.gpkg b.gpkg
cp a.gpkg two.gpkg; ogr2ogr -update -append -nln second -preserve_fid two.gpkg a.gpkg 2>/dev/null
bad "several layers, none named" "two.gpkg: has 2 layers ('a', 'second'); name the A layer with -al" new.gpkg two.gpkg b.gpkg
bad "bad filter" "bad filter 'no such column = 1'" new.gpkg a.gpkg b.gpkg -where "no such column = 1"

# ---- never overwrite, never lose data
cp out.gpkg keep.gpkg; cp out.gpkg before.gpkg
"$XG" segtri -q keep.gpkg a.gpkg b.gpkg 2>err.txt
[ $? -ne 0 ] && grep -q "keep.gpkg: exists; use -overwrite" err.txt && cmp -s keep.gpkg before.gpkg
ok $? "existing output without -overwrite: error, file byte-identical"
EXACTGEO_TEST_FAIL_AFTER=3 "$XG" segtri -q -overwrite keep.gpkg a.gpkg b.gpkg 2>err.txt
[ $? -ne 0 ] && grep -q "failure injected after 3" err.txt && cmp -s keep.gpkg before.gpkg && nostage .
ok $? "failure mid-write with -overwrite: existing file byte-identical, no staging left"
EXACTGEO_TEST_FAIL_AFTER=3 "$XG" segtri -q fresh.shp a.gpkg b.gpkg 2>/dev/null
[ $? -ne 0 ] && [ -z "$(ls fresh* 2>/dev/null)" ] && nostage .
ok $? "failure mid-write to a new Shapefile: no file at all"
"$XG" segtri -q -overwrite keep.gpkg a.gpkg pt.gpkg 2>/dev/null
[ $? -ne 0 ] && cmp -s keep.gpkg before.gpkg; ok $? "bad input with -overwrite: existing file untouched"
"$XG" segtri -q -overwrite keep.gpkg a.gpkg b.gpkg -where "hole = 'P'" 2>/dev/null
[ $? -eq 0 ] && [ "$(dump keep.gpkg $fixed)" = "$(head -1 all.txt)" ]
ok $? "-overwrite replaces the dataset"
cp keep.gpkg before.gpkg
"$XG" segtri -q -append keep.gpkg a.gpkg b.gpkg -nln second -where "hole = 'V'" 2>/dev/null
[ $? -eq 0 ] && [ "$(dump keep.gpkg contacts $fixed)" = "$(head -1 all.txt)" ] &&
    [ "$(dump keep.gpkg second $fixed)" = "$(sed -n 2p all.txt)" ]
ok $? "-append adds a layer and keeps the first"
"$XG" segtri -q -append keep.gpkg a.gpkg b.gpkg -nln second -where "hole = 'E'" 2>/dev/null
[ $? -eq 0 ] && [ "$(dump keep.gpkg second $fixed | wc -l)" -eq 2 ]
ok $? "-append adds features to an existing layer"
cp keep.gpkg before.gpkg
"$XG" segtri -q -append keep.gpkg a.gpkg b.gpkg -nln second -acopy hole 2>err.txt
[ $? -ne 0 ] && grep -q "has no field 'a_hole'; cannot append" err.txt && cmp -s keep.gpkg before.gpkg
ok $? "-append to a layer without the copied field: error, file byte-identical"
shp_before=$(cksum out.shp out.dbf out_lines.shp)
EXACTGEO_TEST_FAIL_AFTER=2 "$XG" segtri -q -overwrite out.shp a.gpkg b.gpkg 2>/dev/null
[ $? -ne 0 ] && [ "$(cksum out.shp out.dbf out_lines.shp)" = "$shp_before" ]
ok $? "failed -overwrite of a Shapefile: all its files untouched"
"$XG" segtri -q -overwrite out.shp a.gpkg b.gpkg -where "hole = 'P'" 2>/dev/null
[ $? -eq 0 ] && [ ! -e out_lines.shp ] && [ "$(dump out.shp $fixed)" = "$(head -1 all.txt)" ]
ok $? "-overwrite of a Shapefile removes the stale _lines layer"

# ---- usage errors
"$XG" segtri out9.gpkg a.gpkg 2>/dev/null; [ $? -eq 2 ] && [ ! -e out9.gpkg ]; ok $? "missing argument: exit 2"
"$XG" segtri --engine warp out9.gpkg a.gpkg b.gpkg 2>/dev/null; [ $? -eq 2 ]; ok $? "bad --engine: exit 2"
"$XG" --help | grep -q -- "-acopy"; ok $? "--help lists the options"
"$XG" --version | grep -q "^exactgeo "; ok $? "--version"

# ---- redblue: 2D lines x polygon ring edges, known contacts
# B: the square (2,0) (6,0) (6,2) (2,2), edges 0..3 in ring order; A: a
# diagonal through its corner (2,2) (a touch with edges 2 and 3), a
# T-junction on edge 3, a collinear overlap with edge 0 that also touches
# edge 1 at (6,0), and a proper crossing of edge 0.  All at UTM offsets.
cat > ra.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"LineString","coordinates":[[500000,7000000],[500004,7000004]]}},
{"type":"Feature","id":2,"properties":{},"geometry":{"type":"LineString","coordinates":[[500000,7000001],[500002,7000001]]}},
{"type":"Feature","id":3,"properties":{},"geometry":{"type":"LineString","coordinates":[[500005,7000000],[500009,7000000]]}},
{"type":"Feature","id":4,"properties":{},"geometry":{"type":"LineString","coordinates":[[500003,6999999],[500003,7000001]]}}]}
JSON
cat > rb.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Polygon","coordinates":[[[500002,7000000],[500006,7000000],[500006,7000002],[500002,7000002],[500002,7000000]]]}}]}
JSON
gpkg ra.gpkg ra.geojson
gpkg rb.gpkg rb.geojson
cat > rb_want.txt <<'CSV'
POINT (500002 7000002),1,0,1,2,touch
POINT (500002 7000002),1,0,1,3,touch
POINT (500002 7000001),2,0,1,3,touch
LINESTRING (500005 7000000,500006 7000000),3,0,1,0,overlap
POINT (500006 7000000),3,0,1,1,touch
POINT (500003 7000000),4,0,1,0,proper
CSV
"$XG" redblue -q rb_out.gpkg ra.gpkg rb.gpkg 2>err.txt
ok $? "redblue to GPKG exits 0"
dump rb_out.gpkg -select a_fid,a_seg,b_fid,b_seg,kind > rb_got.txt
cmp -s rb_got.txt rb_want.txt; ok $? "redblue: proper, T-junction, shared vertex, overlap; 2D points and lines"
"$XG" redblue -q --engine seq rb_seq.gpkg ra.gpkg rb.gpkg 2>/dev/null &&
    dump rb_seq.gpkg -select a_fid,a_seg,b_fid,b_seg,kind | cmp -s - rb_want.txt
ok $? "redblue: seq engine gives the same"

# ---- real maps (data/nybb*.gpkg): every edge of the simplified edition
# runs between vertices of the original, so each one must meet it
N="$top_srcdir/data/nybb.gpkg"; NS="$top_srcdir/data/nybb_simplified.gpkg"
if [ -f "$N" ] && [ -f "$NS" ]; then
    "$XG" redblue -q --engine seq --stats nyc.json nyc_seq.gpkg "$N" "$NS" 2>/dev/null
    ok $? "NYC boroughs x simplified edition, seq engine"
    "$XG" redblue -q --engine cpu nyc_cpu.gpkg "$N" "$NS" 2>/dev/null
    ok $? "NYC boroughs x simplified edition, cpu engine"
    dump nyc_seq.gpkg > nyc_seq.txt; dump nyc_cpu.gpkg > nyc_cpu.txt
    cmp -s nyc_seq.txt nyc_cpu.txt && [ -s nyc_seq.txt ]; ok $? "NYC: seq and cpu outputs identical"
    nb=$(sed -n 's/.*"b_segments": \([0-9]*\).*/\1/p' nyc.json)
    met=$(ogr2ogr -f CSV /vsistdout/ nyc_seq.gpkg -dialect SQLite \
        -sql "SELECT COUNT(*) FROM (SELECT DISTINCT b_fid, b_seg FROM contacts)" 2>/dev/null |
        tail -n 1 | tr -d '"')
    [ -n "$nb" ] && [ "$met" = "$nb" ]; ok $? "NYC: every one of the $nb simplified edges meets the original ($met do)"
fi

# ---- the demo data (data/): 96 contacts, seq and cpu identical
D="$top_srcdir/data"
if [ -f "$D/drillholes.gpkg" ] && [ -f "$D/orebodies.gpkg" ]; then
    "$XG" segtri -q --engine seq --stats seq.json demo_seq.gpkg "$D/drillholes.gpkg" "$D/orebodies.gpkg" 2>/dev/null
    ok $? "demo data, seq engine"
    "$XG" segtri -q --engine cpu --threads 2 demo_cpu.gpkg "$D/drillholes.gpkg" "$D/orebodies.gpkg" 2>/dev/null
    ok $? "demo data, cpu engine"
    dump demo_seq.gpkg > seq.txt; dump demo_cpu.gpkg > cpu.txt
    cmp -s seq.txt cpu.txt && [ -s seq.txt ]; ok $? "seq and cpu outputs identical"
    [ "$(grep -c ',proper$' seq.txt) $(grep -c ',touch$' seq.txt) $(grep -c ',coplanar$' seq.txt)" = "83 12 1" ]
    ok $? "demo data: 83 proper, 12 touch, 1 coplanar (data/README.md)"
    [ "$(grep ',41,16,1,[0-9]*,touch$' seq.txt | cut -d, -f5 | tr '\n' ' ')" = "386 393 398 993 998 1004 " ] &&
        grep -q '^POINT Z (499871\(\.0\)\? 7000099.5 289.25),41,16,1,386,touch$' seq.txt
    ok $? "DEG-VERTEX: touches at the vertex with its six triangles"
    grep -q '^POINT Z (500171.25 6999949.25 226.5),42,25,2,993,touch$' seq.txt &&
        grep -q '^POINT Z (500171.25 6999949.25 226.5),42,25,2,1004,touch$' seq.txt
    ok $? "DEG-EDGE: touches at the edge midpoint with both triangles"
    grep -q '^LINESTRING Z (499787.6875 7000076.4375 237.0625,.*,43,14,1,266,coplanar$' seq.txt
    ok $? "DEG-COPLANAR: the coplanar overlap with triangle 266"
    grep -q '^POINT Z (500020.8125 7000222.3125 334.8125),44,12,3,96,touch$' seq.txt &&
        grep -q '^POINT Z (500020.8125 7000222.3125 334.8125),44,13,3,96,touch$' seq.txt
    ok $? "DEG-FACE: touches for segments 12 and 13 inside triangle 96"
    [ "$(wc -l < seq.txt)" -eq "$(sed -n 's/.*"total": \([0-9]*\)}.*/\1/p' seq.json)" ]
    ok $? "stats total equals the features written"
else
    echo "# no data/*.gpkg: demo checks skipped"
fi

echo "1..$n"
exit 0
