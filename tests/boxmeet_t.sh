#!/bin/sh
# boxmeet_t.sh -- the test operation boxmeet (tests/op/boxmeet.c: two
# meshes in, segments out, shape lines) through every front end with no
# change of theirs: the exactgeo tool (its records against a brute force
# here, the summary, --stats, --regions equal to the single run, --help
# and --operations), the EXACTGEO driver and QGIS (which skips where
# qgis_process is absent).  In a build without the test operations
# (configure without --enable-test-ops) the whole script skips.  TAP.
: "${top_srcdir:=.}" "${top_builddir:=.}"
TOOL=$top_builddir/exactgeo
DUMP=$top_builddir/tests/ogrdump
if ! "$TOOL" --operations 2>/dev/null | grep -q '"name": "boxmeet"'; then
    echo "1..0 # SKIP no test operations in this build (configure --enable-test-ops)"
    exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 fail=0
check() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
same() {    # same FILE1 FILE2: identical and not empty
    [ -s "$1" ] && cmp -s "$1" "$2" ||
        { diff "$1" "$2" | head -5 | sed 's/^/# /'; return 1; }
}

# Two small meshes, one MultiPolygon of two triangles per square: A four
# squares along x rising in z (FIDs 1..4), B two flat squares at z 0.5
# (FIDs 1, 2), shifted so that some boxes only touch (z = 0.5, x = 2.5);
# and the records a brute force over every pair of triangles expects, in
# the tool's order (A's triangles, then B's, in read order): the line's
# ends (Python's repr: every bit), the ids and the indices.
/usr/bin/python3 - "$T" <<'PY'
import sys
d = sys.argv[1]
def quad(x0, y0, x1, y1, z0, z1):
    a, b, c, e = (x0, y0, z0), (x1, y0, z1), (x1, y1, z1), (x0, y1, z0)
    return [(a, b, c), (a, c, e)]
A = [quad(i, 0, i + 1, 1, i * 0.25, (i + 1) * 0.25) for i in range(4)]
B = [quad(0.5 + 2 * i, 0.25, 2.5 + 2 * i, 2.25, 0.5, 0.5) for i in range(2)]
def geojson(name, feats):
    with open('%s/%s.geojson' % (d, name), 'w') as f:
        f.write('{"type": "FeatureCollection", "features": [\n')
        f.write(',\n'.join(
            '{"type": "Feature", "id": %d, "properties": {"name": "%s%d"}, '
            '"geometry": {"type": "MultiPolygon", "coordinates": [%s]}}' % (
                k + 1, name, k + 1, ', '.join('[[%s]]' % ', '.join(
                    '[%r, %r, %r]' % v for v in t + (t[0],)) for t in tris))
            for k, tris in enumerate(feats)))
        f.write(']}\n')
geojson('a', A)
geojson('b', B)
def box(t):
    return [min(v[k] for v in t) for k in range(3)] + \
           [max(v[k] for v in t) for k in range(3)]
with open(d + '/want.txt', 'w') as f:
    for fa, ta in enumerate(A):
        for ia, a in enumerate(ta):
            for fb, tb in enumerate(B):
                for ib, b in enumerate(tb):
                    p, q = box(a), box(b)
                    if all(p[k] <= q[3 + k] and q[k] <= p[3 + k]
                           for k in range(3)):
                        lo = [max(p[k], q[k]) for k in range(3)]
                        hi = [min(p[3 + k], q[3 + k]) for k in range(3)]
                        xyz = tuple(map(float, lo + hi))
                        f.write('%r %d %d %d %d\n' % (
                            xyz, fa + 1, ia, fb + 1, ib))
PY
A=$T/a.geojson B=$T/b.geojson

"$TOOL" boxmeet -f CSV "$T/out.csv" "$A" "$B" > "$T/sum.txt" 2>&1
check $? "exactgeo boxmeet runs"
# the CSV's WKT and fields as the brute force writes them
/usr/bin/python3 - "$T/out.csv" > "$T/got.txt" <<'PY'
import csv, re, sys
for r in list(csv.reader(open(sys.argv[1])))[1:]:
    xyz = tuple(float(v) for v in re.findall(r'[-0-9.e+]+', r[0]))
    print('%r %s' % (xyz, ' '.join(r[1:])))
PY
same "$T/want.txt" "$T/got.txt"
check $? "its segments are the brute force's ($(wc -l < "$T/want.txt") pairs: ids, indices, coordinates, order)"
head -1 "$T/out.csv" | grep -qx 'WKT,a_fid,a_tri,b_fid,b_tri'
check $? "fields a_fid, a_tri, b_fid, b_tri, no kind ($(head -1 "$T/out.csv"))"
"$TOOL" boxmeet -q -acopy name -bcopy name -f CSV "$T/copy.csv" "$A" "$B"
sed -n 2p "$T/copy.csv" | grep -q '"2","0","1","0",a2,b1$' &&
    head -1 "$T/copy.csv" | grep -qx 'WKT,a_fid,a_tri,b_fid,b_tri,a_name,b_name'
check $? "-acopy, -bcopy: the fields copied ($(sed -n 2p "$T/copy.csv"))"
grep -q '^  segments: 12$' "$T/sum.txt" &&
    grep -q "^  A: .*: 4 features, 8 triangles" "$T/sum.txt" &&
    grep -q "^  B: .*: 2 features, 4 triangles" "$T/sum.txt"
check $? "the summary: inputs and segments"

"$TOOL" boxmeet -q --threads 1 --stats "$T/one.json" "$T/one.gpkg" "$A" "$B"
rc=$?
grep -q '"operation": "boxmeet"' "$T/one.json" &&
    grep -q '"segments": 12,' "$T/one.json" &&
    grep -q '"bbox_pairs": ' "$T/one.json" &&
    grep -q '"b_triangles": 4' "$T/one.json"
check $((rc + $?)) "--stats: the operation, its counters, the segments"
"$DUMP" "$T/one.gpkg" > "$T/one.txt"
grep -q '^layer segments .*3D Line String' "$T/one.txt"
check $? "the layer 'segments' is of LineStringZ"
for r in 2 3 5; do
    "$TOOL" boxmeet -q --regions $r --stats "$T/r$r.json" "$T/r$r.gpkg" "$A" "$B"
    rc=$?
    "$DUMP" "$T/r$r.gpkg" > "$T/r$r.txt"
    same "$T/one.txt" "$T/r$r.txt" && grep -q '"segments": 12,' "$T/r$r.json"
    check $((rc + $?)) "--regions $r: the single run's features, bit for bit"
done
"$TOOL" --help | grep -q '^  boxmeet'
check $? "--help lists boxmeet"
"$TOOL" boxmeet --help > "$T/help.txt" 2>&1 && grep -q 'a_tri' "$T/help.txt"
check $? "boxmeet --help names its fields"
"$TOOL" --operations | grep -q '"output": \["line"\]'
check $? "--operations: its output is lines"

# the EXACTGEO driver: the tool's features
if [ -f "$top_builddir/ogr_driver/.libs/ogr_EXACTGEO.so" ] &&
   command -v ogr2ogr >/dev/null; then
    GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" && pwd)
    LD_LIBRARY_PATH=$(cd "$top_builddir/src/.libs" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export GDAL_DRIVER_PATH LD_LIBRARY_PATH
    ogr2ogr -f GPKG "$T/drv.gpkg" "EXACTGEO:op=boxmeet;a=$A;b=$B" -nln segments
    rc=$?
    "$DUMP" "$T/drv.gpkg" > "$T/drv.txt"
    same "$T/one.txt" "$T/drv.txt"
    check $((rc + $?)) "the EXACTGEO driver (op=boxmeet) gives the tool's features"
else
    n=$((n + 1)); echo "ok $n # SKIP no plugin build or no ogr2ogr"
fi

# QGIS: the provider lists it from --operations and runs it
QP=$(command -v qgis_process.bin || command -v qgis_process)
if [ -n "$QP" ]; then
    export QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$T/xdg" XDG_RUNTIME_DIR="$T"
    P="$XDG_DATA_HOME/QGIS/QGIS3/profiles/default/python/plugins/exactgeo"
    mkdir -p "$P" && cp "$top_srcdir"/qgis/exactgeo/*.py "$top_srcdir"/qgis/exactgeo/metadata.txt "$P/"
    EXACTGEO_TOOL=$(cd "$top_builddir" && pwd)/exactgeo
    export EXACTGEO_TOOL
    "$QP" plugins enable exactgeo > "$T/log" 2>&1
    "$QP" run exactgeo:boxmeet -- A="$A" B="$B" OUTPUT="$T/q.gpkg" > "$T/log" 2>&1
    rc=$?
    [ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
    "$DUMP" "$T/one.gpkg" | grep '^feature' > "$T/a.txt"
    "$DUMP" "$T/q.gpkg" | grep '^feature' > "$T/b.txt"
    same "$T/a.txt" "$T/b.txt" && "$DUMP" "$T/q.gpkg" | grep -q '^layer .*3D Line String'
    check $((rc + $?)) "QGIS: exactgeo:boxmeet gives the tool's segments (LineStringZ)"
    "$QP" help exactgeo:boxmeet > "$T/qhelp" 2>&1
    grep -q '^OUTPUT:' "$T/qhelp" && ! grep -q '^OUTPUT_LINES:' "$T/qhelp"
    check $? "QGIS: boxmeet has one output, of lines"
else
    n=$((n + 1)); echo "ok $n # SKIP QGIS (qgis_process) not installed"
fi
echo "1..$n"
exit $fail
