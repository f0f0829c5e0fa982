#!/bin/sh
# driver_regions_t.sh -- the EXACTGEO driver in regions (regions=N in the
# connection string or a job file): the partitioned run in the driver's
# process, its records kept as a single run's.  For every operation that
# runs in regions (segtri, redblue, inside; boxmeet in a test build), on
# the demo data, with copied fields, regions=2 and regions=7 give the
# driver's single run byte for byte: every feature, in order, every field
# and coordinate bit (tests/ogrdump), the layer's FIDs, fields, count and
# extent (ogrinfo), and ogr2ogr's GeoPackage of it.  That the regions ran
# is seen where only they differ: two features of one FID are refused.
# delaunay, whose row does not run in regions, is refused at the open,
# and so is a bad count.  TAP.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=driver_regions
. "$top_srcdir/tests/cli_lib.sh"
if [ ! -f "$top_builddir/ogr_driver/.libs/ogr_EXACTGEO.so" ] ||
   ! command -v ogrinfo >/dev/null; then
    echo "1..0 # SKIP no plugin build or no ogrinfo"
    exit 0
fi
DUMP=$top_builddir/tests/ogrdump
GDAL_DRIVER_PATH=$top_builddir/ogr_driver/.libs
LD_LIBRARY_PATH=$top_builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# GeoPackages carry the time they were written: pinned, two writes of
# the same features are the same bytes
OGR_CURRENT_DATE=2000-01-01T00:00:00Z
export GDAL_DRIVER_PATH LD_LIBRARY_PATH OGR_CURRENT_DATE
D=$top_srcdir/data

# same FILE1 FILE2: identical and not empty
same() {
    [ -s "$1" ] && cmp -s "$1" "$2" ||
        { diff "$1" "$2" | head -5 | sed 's/^/# /'; return 1; }
}
# look NAME CONN: what the driver gives for CONN, into $T/NAME.*: the
# features exactly (ogrdump), the layer with its FIDs and extent
# (ogrinfo), and ogr2ogr's GeoPackage of it
look() {
    "$DUMP" "$2" > "$T/$1.dump" 2> "$T/$1.err" &&
        ogrinfo -ro -al -nomd "$2" 2>> "$T/$1.err" |
            sed '/^INFO: Open of/d; /^      using driver/d' > "$T/$1.info" &&
        ogr2ogr -f GPKG "$T/$1.gpkg" "$2" 2>> "$T/$1.err" ||
        { sed 's/^/# /' "$T/$1.err" | head -3; return 1; }
}

# The operations that run in regions (the tool's --operations: those
# whose "options" list regions), each on the demo data.
conn() {    # conn OP: the connection string of OP's case, or nothing
    case $1 in
    segtri) echo "op=segtri;a=$D/drillholes.gpkg;b=$D/orebodies.gpkg;acopy=hole_id;bcopy=body_id,rock_type" ;;
    redblue) echo "op=redblue;a=$D/nybb.gpkg;b=$D/nybb_simplified.gpkg;acopy=BoroName" ;;
    inside) echo "op=inside;a=$D/blocks.gpkg;b=$D/orebodies.gpkg;bcopy=rock_type;outside=yes" ;;
    boxmeet) echo "op=boxmeet;a=$D/orebodies.gpkg;b=$D/orebodies.gpkg;acopy=body_id" ;;
    esac
}
ops=$("$XG" --operations | /usr/bin/python3 -c '
import json, sys
for op in json.load(sys.stdin)["operations"]:
    if "regions" in op["options"]:
        print(op["name"])')
echo "$ops" | grep -qx segtri && echo "$ops" | grep -qx inside &&
    ! echo "$ops" | grep -qx delaunay
ok $? "the operations that run in regions: $(echo $ops)"
for op in $ops; do
    c=$(conn "$op")
    if [ -z "$c" ]; then
        ok 1 "$op runs in regions: this test has no case for it"
        continue
    fi
    look "$op" "EXACTGEO:$c"
    ok $? "$op: the driver's single run"
    grep -q '^feature' "$T/$op.dump"
    ok $? "$op: the single run gives features ($(grep -c '^feature' "$T/$op.dump"))"
    for r in 2 7; do
        look "$op-$r" "EXACTGEO:$c;regions=$r" &&
            same "$T/$op.dump" "$T/$op-$r.dump" &&
            same "$T/$op.info" "$T/$op-$r.info" &&
            same "$T/$op.gpkg" "$T/$op-$r.gpkg"
        ok $? "$op: regions=$r gives the single run's features, FIDs, layer and GeoPackage, byte for byte"
    done
done

# A job file takes regions too.
printf '#exactgeo-job 1\nop = segtri\na = %s\nb = %s\nacopy = hole_id\nbcopy = body_id,rock_type\nregions = 3\n' \
    "$D/drillholes.gpkg" "$D/orebodies.gpkg" > "$T/r3.xgjob"
look job "$T/r3.xgjob" && same "$T/segtri.dump" "$T/job.dump"
ok $? "a .xgjob with regions = 3: the single run's features"

# The regions did run: a layer with two features of one FID reads in a
# single run, and is refused in regions (which name features by FID).
cat > "$T/dup.geojson" <<'JSON'
{"type": "FeatureCollection", "name": "dup",
 "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::32634"}},
 "features": [
{"type": "Feature", "id": 1, "properties": {"name": "p"}, "geometry": {"type": "Point", "coordinates": [499900, 7000000, 250]}},
{"type": "Feature", "id": 1, "properties": {"name": "q"}, "geometry": {"type": "Point", "coordinates": [500100, 7000000, 250]}}
]}
JSON
DUP="EXACTGEO:op=inside;a=$T/dup.geojson;b=$D/orebodies.gpkg;outside=yes"
[ "$(ogrinfo -ro -q -al "$DUP" 2> /dev/null | grep -c '^OGRFeature')" -eq 2 ]
ok $? "two features of one FID: the single run reads both"
ogrinfo -ro -so -al "$DUP;regions=2" > /dev/null 2> "$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] &&
    grep -q "dup.geojson, layer 'dup': two features have the id (FID) 1" "$T/err"
ok $? "... and regions=2 refuses them, naming the id ($(head -1 "$T/err"))"

# Refused at the open: what the operation's row does not run in regions,
# and a count out of range.
fails() {   # fails PATTERN CONN: the open fails (exit 1, no signal), message
    ogrinfo -ro -so -al "$2" > /dev/null 2> "$T/err"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q -- "$1" "$T/err" ||
        { echo "# rc $rc: $(head -3 "$T/err")"; return 1; }
}
fails "delaunay cannot run in regions" "EXACTGEO:op=delaunay;a=$D/survey.gpkg;regions=2"
ok $? "op=delaunay;regions=2: refused at the open ($(head -1 "$T/err"))"
fails "bad regions '0'" "EXACTGEO:$(conn segtri);regions=0"
ok $? "regions=0: refused at the open ($(head -1 "$T/err"))"

echo "1..$n"
exit $failed
