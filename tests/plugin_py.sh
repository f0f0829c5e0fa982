#!/bin/sh
# plugin_py.sh -- runs plugin_t.py with a Python that has GDAL's bindings
# (Debian: /usr/bin/python3 with python3-gdal); skips without one.
: "${top_srcdir:=.}" "${top_builddir:=.}"
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'from osgeo import gdal' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ] || [ ! -f "$top_builddir/ogr_driver/.libs/ogr_EXACTGEO.so" ]; then
    echo "1..0 # SKIP no Python GDAL bindings or no plugin build"
    exit 0
fi
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" && pwd)
LD_LIBRARY_PATH=$(cd "$top_builddir/src/.libs" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GDAL_DRIVER_PATH LD_LIBRARY_PATH
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=$(cd "$top_srcdir/data" && pwd)
"$top_builddir/exactgeo" segtri -q -acopy hole_id "$T/ref.gpkg" \
    "$D/drillholes.gpkg" "$D/orebodies.gpkg" || { echo "Bail out! the tool failed"; exit 1; }
exec "$PY" "$top_srcdir/tests/plugin_t.py" "$D/drillholes.gpkg" "$D/orebodies.gpkg" "$T/ref.gpkg"
