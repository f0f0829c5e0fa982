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

# Identify claims only what is ours.
printf 'op = segtri\n' > "$T/plain.xgjob"
ogrinfo -ro "$T/plain.xgjob" > "$T/err" 2>&1
! grep -q "EXACTGEO:" "$T/err" && grep -q "Unable to open" "$T/err"
check $? "a .xgjob without the magic line is declined silently"
ogrinfo -ro -so "$A" 2>&1 | grep -q "using driver .GPKG."
check $? "a GeoPackage is still opened by GPKG"

echo "1..$n"
exit $fail
