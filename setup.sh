#!/bin/sh
# exactgeo set-up on Debian 12, run as root from the source folder:
# installs the Debian packages that are missing, builds, and runs the main
# jobs on the bundled data (drill holes x ore bodies -> out/contacts.gpkg;
# block centroids in ore bodies, with each block's rock type ->
# out/blocks.gpkg; the survey points' Delaunay triangulation ->
# out/tin.gpkg).
#   --no-qgis   skip QGIS (about 1.2 GB), which only the QGIS Processing
#               provider and its test need; that test then skips.
set -e
cd "$(dirname "$0")"

PKGS="build-essential autoconf automake libtool pkg-config libgmp-dev
      libmpfr-dev libgdal-dev libsqlite3-dev gdal-bin python3-gdal sqlite3 libgeos-dev
      valgrind libopenmpi-dev openmpi-bin"
case "${1:-}" in
    --no-qgis) ;;
    "") PKGS="$PKGS qgis python3-qgis" ;;
    *) echo "usage: ./setup.sh [--no-qgis]" >&2; exit 2 ;;
esac
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: run as root (or with sudo) to install packages" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
[ -f Makefile ] && [ Makefile -nt configure ] || ./configure
make -j"$(nproc)"

mkdir -p out
./exactgeo segtri -overwrite out/contacts.gpkg data/drillholes.gpkg data/orebodies.gpkg
./exactgeo inside -overwrite out/blocks.gpkg data/blocks.gpkg data/orebodies.gpkg -bcopy rock_type
./exactgeo delaunay -overwrite out/tin.gpkg data/survey.gpkg --verify
