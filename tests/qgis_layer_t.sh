#!/bin/sh
# qgis_layer_t.sh -- QGIS loads EXACTGEO layers (connection string and
# .xgjob) through its ogr provider, runs each job once, and exits cleanly:
# issue 11, items 5 (abort at exit, "corrupted size vs. prev_size") and 12
# (two runs per layer, "ERROR 6 ... read-only" on every open); an inside
# layer (points in solids) with the tool's records and kinds.  Skips
# where PyQGIS or the plugin is absent.  TAP.
: "${top_srcdir:=.}" "${top_builddir:=.}"
PY=/usr/bin/python3
if ! "$PY" -c 'import qgis.core' 2>/dev/null ||
   [ ! -f "$top_builddir/ogr_driver/.libs/ogr_EXACTGEO.so" ]; then
    echo "1..0 # SKIP no PyQGIS or no plugin build"
    exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" && pwd)
LD_LIBRARY_PATH=$(cd "$top_builddir/src/.libs" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GDAL_DRIVER_PATH LD_LIBRARY_PATH
export QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$T/xdg" XDG_CONFIG_HOME="$T/xdg" XDG_RUNTIME_DIR="$T"
D=$(cd "$top_srcdir/data" && pwd)
cp "$D/drillholes.gpkg" "$D/orebodies.gpkg" "$T/"
printf '#exactgeo-job 1\nop = segtri\na = drillholes.gpkg\nb = orebodies.gpkg\nacopy = hole_id\n' > "$T/run.xgjob"
CONN="EXACTGEO:op=segtri;a=$D/drillholes.gpkg;b=$D/orebodies.gpkg"
"$top_builddir/exactgeo" segtri -q "$T/ref.gpkg" "$D/drillholes.gpkg" \
    "$D/orebodies.gpkg" || { echo "Bail out! the tool failed"; exit 1; }
# inside: one level of the block model and the probes, every point kept
ogr2ogr -f GPKG "$T/few.gpkg" "$D/blocks.gpkg" -where "iz = 13 OR probe IS NOT NULL" ||
    { echo "Bail out! ogr2ogr failed"; exit 1; }
IN_CONN="EXACTGEO:op=inside;a=$T/few.gpkg;b=$D/orebodies.gpkg;outside=yes"
DT_CONN="EXACTGEO:op=delaunay;a=$D/survey.gpkg"
"$top_builddir/exactgeo" delaunay -q "$T/dt_ref.gpkg" "$D/survey.gpkg" ||
    { echo "Bail out! the tool failed (delaunay)"; exit 1; }
"$top_builddir/exactgeo" inside -q -outside "$T/in_ref.gpkg" "$T/few.gpkg" \
    "$D/orebodies.gpkg" || { echo "Bail out! the tool failed (inside)"; exit 1; }

n=0 fail=0
check() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

CPL_DEBUG=EXACTGEO "$PY" "$top_srcdir/tests/qgis_layer_t.py" "$CONN" \
    "$T/run.xgjob" "$T/ref.gpkg" "$IN_CONN" "$T/in_ref.gpkg" "$DT_CONN" \
    "$T/dt_ref.gpkg" > "$T/out" 2> "$T/err"
rc=$?
while read -r st rest; do
    case $st in ok) check 0 "${rest#- }" ;; *) check 1 "${rest#- }" ;; esac
done < "$T/out"
[ "$n" -eq 14 ]
check $? "QGIS made all 14 checks ($n)"
[ $rc -eq 0 ] || tail -5 "$T/err" | sed 's/^/# /'
check $rc "QGIS exits with status 0 after exitQgis() (status $rc)"
! grep -E -q "corrupted|Aborted|double free|Segmentation" "$T/err"
check $? "no heap corruption message at exit"
! grep -q "ERROR" "$T/err" || grep "ERROR" "$T/err" | head -3 | sed 's/^/# /'
! grep -q "ERROR" "$T/err"
check $? "no GDAL error message (QGIS opens the .xgjob for update)"
runs=$(grep -c "EXACTGEO: running job" "$T/err")
[ "$runs" -eq 4 ]
check $? "each job ran once, though QGIS opens each layer's dataset more than once ($runs runs for 4 layers)"
echo "1..$n"
exit $fail
