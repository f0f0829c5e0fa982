#!/bin/sh
# Real polygon data for `exactgeo redblue`: New York City's borough
# boundaries (NYC Department of City Planning, nybb 16a, NY State Plane
# Long Island, US feet), as Debian's python3-geopandas package ships them,
# and a second "edition" of the same map simplified with GEOS (ogr2ogr
# -simplify keeps a subset of the original vertices, so the two maps share
# exact vertices and stretches of boundary, as two editions of a real map
# do).  Writes data/nybb.gpkg and data/nybb_simplified.gpkg.
#   sh data/make_maps.sh      (needs apt-get download and ogr2ogr)
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download python3-geopandas >/dev/null)
dpkg -x "$tmp"/python3-geopandas_*.deb "$tmp/x"
zip=$(find "$tmp/x" -name 'nybb_16a.zip' | head -n 1)
rm -f nybb.gpkg nybb_simplified.gpkg
ogr2ogr -f GPKG -nln boroughs -nlt MULTIPOLYGON nybb.gpkg "/vsizip/$zip/nybb.shp"
ogr2ogr -f GPKG -nln boroughs_simplified -nlt MULTIPOLYGON -simplify 20 \
    nybb_simplified.gpkg nybb.gpkg
ogrinfo -so -al nybb.gpkg | grep -E 'Feature Count'
ogrinfo -so -al nybb_simplified.gpkg | grep -E 'Feature Count'
