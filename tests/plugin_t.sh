#!/bin/sh
# plugin_t.sh -- the EXACTGEO GDAL driver through ogrinfo and ogr2ogr: each
# format written through the driver equals the exactgeo tool's own output
# (every field, every coordinate bit: tests/ogrdump); filters; open
# options; job files; errors give messages and no crash.  TAP.
: "${top_srcdir:=.}" "${top_builddir:=.}"
TOOL=$top_builddir/exactgeo
DUMP=$top_builddir/tests/ogrdump
if [ ! -f "$top_builddir/ogr_driver/.libs/ogr_EXACTGEO.so" ] ||
   ! command -v ogr2ogr >/dev/null || ! command -v ogrinfo >/dev/null; then
    echo "1..0 # SKIP no plugin build or no ogr2ogr/ogrinfo"
    exit 0
fi
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" && pwd)
LD_LIBRARY_PATH=$(cd "$top_builddir/src/.libs" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GDAL_DRIVER_PATH LD_LIBRARY_PATH
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

A=$(cd "$top_srcdir/data" && pwd)/drillholes.gpkg
B=$(cd "$top_srcdir/data" && pwd)/orebodies.gpkg
CONN="EXACTGEO:op=segtri;a=$A;b=$B;acopy=hole_id;bcopy=body_id,rock_type"
COPY="-acopy hole_id -bcopy body_id,rock_type"

n=0
fail=0
check() {   # check STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"
    else echo "not ok $n - $2"; fail=1; fi
}
same() {    # same FILE1 FILE2: identical and not empty
    [ -s "$1" ] && cmp -s "$1" "$2" ||
        { diff "$1" "$2" | head -5 | sed 's/^/# /'; return 1; }
}

ogrinfo --formats | grep -q '^ *EXACTGEO -vector- (ro)'
check $? "ogrinfo --formats lists EXACTGEO as a read-only vector driver"
# issue 31, item 11: its name lists every operation of the table
line=$(ogrinfo --formats | grep '^ *EXACTGEO -vector-')
all=0
for op in $("$TOOL" --operations | sed -n 's/^ *{"name": "\([a-z0-9_]*\)".*/\1/p'); do
    echo "$line" | grep -q "[ (]$op[,) ]" || all=1
done
[ -n "$op" ] && ! echo "$line" | grep -q intersections || all=1
check $all "ogrinfo --formats names every operation: $line"

# The reference: the tool, in each format.
"$TOOL" segtri -q $COPY "$T/cli.gpkg" "$A" "$B" &&
"$TOOL" segtri -q $COPY -f GeoJSON "$T/cli.geojson" "$A" "$B" &&
"$TOOL" segtri -q $COPY -f FlatGeobuf "$T/cli.fgb" "$A" "$B" &&
"$TOOL" segtri -q $COPY -f "ESRI Shapefile" "$T/cli_shp" "$A" "$B"
check $? "the tool writes GPKG, GeoJSON, FlatGeobuf and Shapefile"
"$DUMP" "$T/cli.gpkg" > "$T/cli.gpkg.txt"
grep -q "kind=coplanar" "$T/cli.gpkg.txt" && grep -q "kind=touch" "$T/cli.gpkg.txt"
check $? "the demo has coplanar and touch contacts (lines and points)"

for f in GPKG:gpkg GeoJSON:geojson FlatGeobuf:fgb; do
    fmt=${f%%:*} ext=${f#*:}
    ogr2ogr -f "$fmt" "$T/drv.$ext" "$CONN" 2> "$T/err" &&
        "$DUMP" "$T/cli.$ext" > "$T/a.txt" && "$DUMP" "$T/drv.$ext" > "$T/b.txt" &&
        same "$T/a.txt" "$T/b.txt"
    check $? "ogr2ogr -f $fmt through the driver equals the tool's $fmt"
done

# Shapefile cannot mix points and lines: the tool splits the lines off
# into contacts_lines; through the driver, one -where per layer.
mkdir "$T/drv_shp"
ogr2ogr -f "ESRI Shapefile" "$T/drv_shp" "$CONN" -nln contacts \
    -where "kind <> 'coplanar'" &&
ogr2ogr -f "ESRI Shapefile" "$T/drv_shp" "$CONN" -nln contacts_lines \
    -where "kind = 'coplanar'" &&
    "$DUMP" "$T/cli_shp" | sort > "$T/a.txt" &&
    "$DUMP" "$T/drv_shp" | sort > "$T/b.txt" && same "$T/a.txt" "$T/b.txt"
check $? "ogr2ogr -f 'ESRI Shapefile' (two layers by -where) equals the tool's"

# Attribute filter: the touch contacts, in the tool's order.
ogr2ogr -f GPKG "$T/touch.gpkg" "$CONN" -where "kind = 'touch'" &&
    grep '^feature' "$T/cli.gpkg.txt" | grep ' kind=touch ' > "$T/a.txt" &&
    "$DUMP" "$T/touch.gpkg" | grep '^feature' > "$T/b.txt" &&
    same "$T/a.txt" "$T/b.txt"
check $? "attribute filter (-where kind = 'touch') keeps exactly those"

# Spatial filter: the west half of the extent, as OGR filters the tool's.
ext=$(ogrinfo -so -al "$T/cli.gpkg" | sed -n 's/^Extent: (\([^,]*\), \([^)]*\)) - (\([^,]*\), \([^)]*\))/\1 \2 \3 \4/p')
set -- $ext
xmid=$(echo "$1 $3" | awk '{ printf "%.3f", ($1 + $2) / 2 }')
ogr2ogr -f GPKG "$T/spat_cli.gpkg" "$T/cli.gpkg" -spat "$1" "$2" "$xmid" "$4" &&
ogr2ogr -f GPKG "$T/spat_drv.gpkg" "$CONN" -spat "$1" "$2" "$xmid" "$4" &&
    "$DUMP" "$T/spat_cli.gpkg" > "$T/a.txt" && "$DUMP" "$T/spat_drv.gpkg" > "$T/b.txt" &&
    same "$T/a.txt" "$T/b.txt" &&
    [ "$(grep -c '^feature' "$T/b.txt")" -lt "$(grep -c '^feature' "$T/cli.gpkg.txt")" ]
check $? "spatial filter (-spat, west half) equals OGR's filter on the tool's output"

# Open options and the job file give the same contacts.
ogr2ogr -f GPKG "$T/oo.gpkg" "$CONN" -oo ENGINE=seq -oo GRID=3,4,5 &&
    "$DUMP" "$T/oo.gpkg" > "$T/b.txt" && same "$T/cli.gpkg.txt" "$T/b.txt"
check $? "open options ENGINE=seq GRID=3,4,5: same contacts"
cp "$A" "$B" "$T/"
printf '#exactgeo-job 1\nop = segtri\na = drillholes.gpkg\nb = orebodies.gpkg\nacopy = hole_id\nbcopy = body_id,rock_type\n' > "$T/run.xgjob"
(cd / && ogr2ogr -f GPKG "$T/job.gpkg" "$T/run.xgjob") &&
    "$DUMP" "$T/job.gpkg" > "$T/b.txt" && same "$T/cli.gpkg.txt" "$T/b.txt"
check $? "a .xgjob file (relative paths, run from elsewhere): same contacts"

# Errors: a message through CPLError, a failing exit, no crash.
fails() {   # fails PATTERN ogrinfo-args...: exit 1 (not a signal), message
    pat=$1; shift
    ogrinfo -ro -so -al "$@" > "$T/out" 2> "$T/err"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q -- "$pat" "$T/err" ||
        { echo "# rc $rc: $(head -3 "$T/err")"; return 1; }
}
fails "EXACTGEO: unknown key 'colour'" "EXACTGEO:op=segtri;a=$A;b=$B;colour=red"
check $? "unknown key: named"
fails "EXACTGEO: missing key 'b'" "EXACTGEO:op=segtri;a=$A"
check $? "missing input key: named"
fails "EXACTGEO: unknown operation 'union'" "EXACTGEO:op=union;a=$A;b=$B"
check $? "unknown operation: named"
fails "EXACTGEO: unterminated quote" "EXACTGEO:op=segtri;a=\"$A;b=$B"
check $? "unterminated quote: named"
fails "EXACTGEO: bad grid 'x'" "EXACTGEO:op=segtri;a=$A;b=$B" -oo GRID=x
check $? "bad GRID open option: named"

# Missing inputs: the tool's own message, behind EXACTGEO:.
for c in "$T/nosuch.gpkg|$B||" "$A|$B|nosuch|" "$A|$B||nosuch" \
         "$A|$B|||hole_idx"; do
    IFS='|' read -r a b al where acopy <<EOF
$c
EOF
    set -- -q -f GPKG
    [ -n "$al" ] && set -- "$@" -al "$al"
    [ -n "$where" ] && set -- "$@" -where "$where"
    [ -n "$acopy" ] && set -- "$@" -acopy "$acopy"
    "$TOOL" segtri "$@" "$T/never.gpkg" "$a" "$b" 2> "$T/tool_err"
    msg=$(sed -n 's/^exactgeo: //p' "$T/tool_err" | head -1)
    s="EXACTGEO:op=segtri;a=$a;b=$b"
    [ -n "$al" ] && s="$s;al=$al"
    [ -n "$where" ] && s="$s;awhere=$where"
    [ -n "$acopy" ] && s="$s;acopy=$acopy"
    [ -n "$msg" ] && fails "EXACTGEO: $msg" "$s" && [ ! -e "$T/never.gpkg" ]
    check $? "same message as the tool: $msg"
done

# Identify claims only what is ours: the prefix, and the .xgjob files,
# which then get a reason rather than GDAL's "not recognized".
printf 'op = segtri\n' > "$T/plain.xgjob"
fails "EXACTGEO: $T/plain.xgjob: not an exactgeo job file: the first line must start with '#exactgeo-job'" \
    "$T/plain.xgjob" && grep -q "not 'op = segtri'" "$T/err"
check $? "a .xgjob without the magic line: the message names the expected first line"
ogrinfo -ro -so "$A" 2>&1 | grep -q "using driver .GPKG."
check $? "a GeoPackage is still opened by GPKG"
printf 'op = segtri\n' > "$T/plain.txt"
ogrinfo -ro "$T/plain.txt" > "$T/err" 2>&1
! grep -q "EXACTGEO:" "$T/err" && grep -q "Unable to open" "$T/err"
check $? "a text file of another extension is declined silently"

# Issue 11, item 12.
# A job file saved with a UTF-8 byte order mark (Windows editors) opens.
printf '\357\273\277#exactgeo-job 1\r\nop = segtri\r\na = drillholes.gpkg\r\nb = orebodies.gpkg\r\nacopy = hole_id\r\nbcopy = body_id,rock_type\r\n' > "$T/bom.xgjob"
ogr2ogr -f GPKG "$T/bom.gpkg" "$T/bom.xgjob" &&
    "$DUMP" "$T/bom.gpkg" > "$T/b.txt" && same "$T/cli.gpkg.txt" "$T/b.txt"
check $? "a .xgjob with a UTF-8 BOM and CRLF line ends: same contacts"
# ogrinfo without -ro opens for update when given -sql (GDAL 3.6; always
# in later versions), as QGIS does: no error message.
for src in "$CONN" "$T/run.xgjob"; do
    case $src in EXACTGEO:*) what="a connection string" ;; *) what="a .xgjob" ;; esac
    ogrinfo "$src" -sql "SELECT COUNT(*) AS n FROM contacts" > "$T/out" 2> "$T/err" &&
        [ ! -s "$T/err" ] && grep -q "n (Integer) = [1-9]" "$T/out" &&
        ! grep -q "read-only" "$T/out" ||
        { sed 's/^/# /' "$T/err" | head -3; false; }
    check $? "ogrinfo -sql without -ro on $what: no message, exit 0"
done
# op and engine values are case-insensitive, like the keys.
ogr2ogr -f GPKG "$T/upper.gpkg" "EXACTGEO:OP=SEGTRI;A=$A;B=$B;ACOPY=hole_id;BCOPY=body_id,rock_type;ENGINE=Seq" &&
    "$DUMP" "$T/upper.gpkg" > "$T/b.txt" && same "$T/cli.gpkg.txt" "$T/b.txt"
check $? "op=SEGTRI, engine=Seq: same contacts"
# The job runs inside the open, where GDAL gives no progress callback:
# PROGRESS=YES (or EXACTGEO_PROGRESS) draws its bar on stderr.
bar="EXACTGEO: running the job: 0...10...20...30...40...50...60...70...80...90...100 - done."
ogrinfo -ro -so -al "$CONN" -oo PROGRESS=YES > "$T/out" 2> "$T/err" &&
    [ "$(cat "$T/err")" = "$bar" ] && grep -q "^Feature Count: " "$T/out"
check $? "-oo PROGRESS=YES: the job's progress bar on stderr"
ogrinfo -ro -so -al "$CONN" --config EXACTGEO_PROGRESS YES 2> "$T/err" >/dev/null &&
    [ "$(cat "$T/err")" = "$bar" ]
check $? "--config EXACTGEO_PROGRESS YES: the same"
ogr2ogr -f GPKG "$T/quiet.gpkg" "$CONN" 2> "$T/err" && [ ! -s "$T/err" ]
check $? "no bar by default"
# One run per open: ogrinfo -al opens, counts, reads, takes the extent.
CPL_DEBUG=EXACTGEO ogrinfo -al "$CONN" > /dev/null 2> "$T/err" &&
    [ "$(grep -c 'EXACTGEO: running job' "$T/err")" -eq 1 ]
check $? "ogrinfo -al runs the job once (CPL_DEBUG=EXACTGEO: $(grep -c 'running job' "$T/err") run)"

# op=delaunay: one input (a=), no b; the layer 'triangles' holds the
# tool's triangles, bit for bit, in GPKG and GeoJSON; a job file too.
S=$(cd "$top_srcdir/data" && pwd)/survey.gpkg
DCONN="EXACTGEO:op=delaunay;a=$S;verify=yes"
"$TOOL" delaunay -q "$T/tin_cli.gpkg" "$S" &&
    "$TOOL" delaunay -q -f GeoJSON "$T/tin_cli.geojson" "$S" &&
    ogr2ogr -f GPKG "$T/tin_drv.gpkg" "$DCONN" 2> "$T/err" &&
    ogr2ogr -f GeoJSON "$T/tin_drv.geojson" "$DCONN" 2>> "$T/err" &&
    "$DUMP" "$T/tin_cli.gpkg" > "$T/a.txt" && "$DUMP" "$T/tin_drv.gpkg" > "$T/b.txt" &&
    same "$T/a.txt" "$T/b.txt" &&
    "$DUMP" "$T/tin_cli.geojson" > "$T/a.txt" && "$DUMP" "$T/tin_drv.geojson" > "$T/b.txt" &&
    same "$T/a.txt" "$T/b.txt"
check $? "op=delaunay: ogr2ogr -f GPKG and GeoJSON through the driver equal the tool's"
grep -q "5 points at the (x, y) of another but with another z" "$T/err"
check $? "op=delaunay: the warning for merged points of another z comes through GDAL"
ogrinfo -ro -so -al "$DCONN" 2> /dev/null > "$T/out" &&
    grep -q "^Layer name: triangles$" "$T/out" &&
    grep -q "^Geometry: 3D Polygon$" "$T/out" &&
    grep -q "^Feature Count: 6232$" "$T/out" &&
    grep -q "^v0: Integer64" "$T/out" && grep -q "^v2: Integer64" "$T/out"
check $? "op=delaunay: ogrinfo shows layer 'triangles', 3D Polygon, 6232 features, v0..v2"
[ "$(ogrinfo -ro -q -al "$DCONN" -where "v0 = 1 OR v1 = 1 OR v2 = 1" 2>/dev/null | grep -c '^OGRFeature')" -ge 1 ]
check $? "op=delaunay: attribute filters on v0..v2 work"
printf '#exactgeo-job 1\nop = delaunay\na = survey.gpkg\nnln = tin\n' > "$T/tin.xgjob"
cp "$S" "$T/survey.gpkg"
ogrinfo -ro -so "$T/tin.xgjob" tin 2> /dev/null | grep -q "^Feature Count: 6232$"
check $? "op=delaunay in a .xgjob, with nln = tin"
ogrinfo -ro -so "EXACTGEO:op=delaunay;a=$S;b=$S" > /dev/null 2> "$T/err"
[ $? -ne 0 ] && grep -q "delaunay takes one input" "$T/err"
check $? "op=delaunay with b=: the open fails with a message"

echo "1..$n"
exit $fail
