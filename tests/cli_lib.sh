# cli_lib.sh -- what the exactgeo tool's shell tests share, sourced by
# cli_t.sh, cli_ux_t.sh and safety_t.sh after they set top_srcdir and
# XG_T_NAME: the TAP `ok`, a private temporary folder (the current folder
# from here on, removed at exit), `dump`, `nostage`, `gpkg` and the
# fixture with known contacts.
top_builddir=${top_builddir:-$top_srcdir}
XG="$top_builddir/exactgeo"
n=0
failed=0
ok() {  # ok COND-STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}
command -v ogr2ogr >/dev/null 2>&1 || { echo "1..0 # SKIP no ogr2ogr"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/xg_$XG_T_NAME.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# dump DATASET [LAYER] [ogr2ogr options]: the contacts as WKT,fields...,
# one line each, no header, no quotes; $fixed selects the fixed fields.
dump() {
    ogr2ogr -f CSV /vsistdout/ "$@" -lco GEOMETRY=AS_WKT 2>/dev/null |
        tail -n +2 | tr -d '"'
}
fixed="-select a_fid,a_seg,b_fid,b_tri,kind"
# nostage [DIR]: no staging folder of the tool left in DIR (default .).
nostage() { ! ls -A "${1:-.}" | grep -q 'exactgeo-'; }

gpkg() {  # gpkg OUT IN [ogr2ogr options, e.g. -a_srs EPSG:32633, -nlt TYPE]
    out=$1; in=$2; shift 2
    ogr2ogr -f GPKG -a_srs EPSG:32634 -preserve_fid "$@" "$out" "$in" 2>/dev/null
}

# fixture_holes FIELD: a.geojson and b.geojson, A's text field named FIELD.
# B: the triangle (0,0,0) (4,0,0) (0,4,0) and a second feature of two
# parts, shifted to UTM magnitudes; every coordinate and every expected
# point is exact in binary.  A: eight holes with known contacts (a proper
# crossing, through a vertex, through an edge, a coplanar stretch, a miss,
# a two-part hole, a zero-length segment, the upper part of B 2), and
# those contacts: pts.txt, lines.txt and all.txt (in output order).
fixture_holes() {
    X=500000; Y=7000000; f=$1
    cat > b.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{"body":7,"rock":"ore"},"geometry":{"type":"Polygon","coordinates":[[[$X,$Y,0],[500004,$Y,0],[$X,7000004,0],[$X,$Y,0]]]}},
{"type":"Feature","id":2,"properties":{"body":8,"rock":"waste"},"geometry":{"type":"MultiPolygon","coordinates":[[[[500100,$Y,0],[500104,$Y,0],[500100,7000004,0],[500100,$Y,0]]],[[[$X,$Y,10],[500004,$Y,10],[$X,7000004,10],[$X,$Y,10]]]]}}]}
JSON
    cat > a.geojson <<JSON
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{"$f":"P"},"geometry":{"type":"LineString","coordinates":[[500001,7000001,-1],[500001,7000001,1]]}},
{"type":"Feature","id":2,"properties":{"$f":"V"},"geometry":{"type":"LineString","coordinates":[[$X,$Y,-1],[$X,$Y,2]]}},
{"type":"Feature","id":3,"properties":{"$f":"E"},"geometry":{"type":"LineString","coordinates":[[500002,$Y,-3],[500002,$Y,1]]}},
{"type":"Feature","id":4,"properties":{"$f":"C"},"geometry":{"type":"LineString","coordinates":[[499999,7000001,0],[500005,7000001,0]]}},
{"type":"Feature","id":5,"properties":{"$f":"M"},"geometry":{"type":"LineString","coordinates":[[500010,7000010,-1],[500010,7000010,1]]}},
{"type":"Feature","id":6,"properties":{"$f":"MP"},"geometry":{"type":"MultiLineString","coordinates":[[[500020,7000020,0],[500020,7000020,1]],[[500001,7000002,1],[500001,7000002,0.5],[500001,7000002,-1]]]}},
{"type":"Feature","id":7,"properties":{"$f":"Z"},"geometry":{"type":"LineString","coordinates":[[500000.5,7000000.5,1],[500000.5,7000000.5,1],[500000.5,7000000.5,-1]]}},
{"type":"Feature","id":8,"properties":{"$f":"B2"},"geometry":{"type":"LineString","coordinates":[[500000.25,7000000.25,20],[500000.25,7000000.25,5]]}}]}
JSON
    # Independently known contacts, in (a, b) order (WKT,a_fid,a_seg,b_fid,b_tri,kind):
    # a proper crossing, through a vertex, through an edge, a coplanar overlap
    # clipped to the triangle, segment 2 of a two-part MultiLineString, a
    # segment after a zero-length one (which counts), a second polygon part.
    cat > pts.txt <<'CSV'
POINT Z (500001 7000001 0),1,0,1,0,proper
POINT Z (500000 7000000 0),2,0,1,0,touch
POINT Z (500002 7000000 0),3,0,1,0,touch
POINT Z (500001 7000002 0),6,2,1,0,proper
POINT Z (500000.5 7000000.5 0),7,1,1,0,proper
POINT Z (500000.25 7000000.25 10),8,0,2,1,proper
CSV
    cat > lines.txt <<'CSV'
LINESTRING Z (500000 7000001 0,500003 7000001 0),4,0,1,0,coplanar
CSV
    head -3 pts.txt > all.txt; cat lines.txt >> all.txt; tail -3 pts.txt >> all.txt
}
