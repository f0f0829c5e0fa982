#!/bin/sh
# qgis_t.sh -- the QGIS Processing provider run headless by qgis_process:
# its point and line outputs together equal the exactgeo tool's contacts.
# Skips where QGIS is absent.
: "${top_srcdir:=.}" "${top_builddir:=.}"
QP=$(command -v qgis_process.bin || command -v qgis_process)
if [ -z "$QP" ]; then echo "1..0 # SKIP QGIS (qgis_process) not installed"; exit 0; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$T/xdg" XDG_RUNTIME_DIR="$T"
P="$XDG_DATA_HOME/QGIS/QGIS3/profiles/default/python/plugins/exactgeo"
mkdir -p "$P" && cp "$top_srcdir"/qgis/exactgeo/*.py "$top_srcdir"/qgis/exactgeo/metadata.txt "$P/"
EXACTGEO_TOOL=$(cd "$top_builddir" && pwd)/exactgeo
export EXACTGEO_TOOL
D=$(cd "$top_srcdir/data" && pwd)
DUMP=$top_builddir/tests/ogrdump
n=0 fail=0
check() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
"$QP" plugins enable exactgeo > "$T/log" 2>&1
check $? "qgis_process plugins enable exactgeo"
"$QP" run exactgeo:segtri -- A="$D/drillholes.gpkg" B="$D/orebodies.gpkg" \
    A_FIELDS=hole_id OUTPUT="$T/pts.gpkg" OUTPUT_LINES="$T/lines.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
check $rc "qgis_process run exactgeo:segtri"
"$EXACTGEO_TOOL" segtri -q -acopy hole_id "$T/cli.gpkg" "$D/drillholes.gpkg" "$D/orebodies.gpkg"
"$DUMP" "$T/cli.gpkg" | grep '^feature' | grep -v 'kind=coplanar' > "$T/a.txt"
"$DUMP" "$T/pts.gpkg" | grep '^feature' > "$T/b.txt"
[ -s "$T/a.txt" ] && cmp -s "$T/a.txt" "$T/b.txt"
check $? "point contacts equal the tool's (fields, coordinates, order)"
"$DUMP" "$T/cli.gpkg" | grep '^feature' | grep 'kind=coplanar' > "$T/a.txt"
"$DUMP" "$T/lines.gpkg" | grep '^feature' > "$T/b.txt"
[ -s "$T/a.txt" ] && cmp -s "$T/a.txt" "$T/b.txt"
check $? "line contacts equal the tool's"
"$DUMP" "$T/pts.gpkg" | grep -q '^layer .* 3D Point$'
check $? "points are PointZ"
echo "1..$n"
exit $fail
