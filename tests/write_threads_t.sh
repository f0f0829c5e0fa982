#!/bin/sh
# write_threads_t.sh -- the writers' pipeline (ogr_driver/write_batch.c,
# issue 33 item 3): features made on worker threads, written by one, in
# order.  With --threads 1 (no worker) and with several, the tool's
# outputs are the same file, byte for byte (GeoPackage with its date
# pinned, FlatGeobuf, CSV, GeoJSON, Shapefile with its _lines layer), for
# every writer: triangles (delaunay), contacts with copied attributes
# (inside -bcopy, segtri -acopy), in regions (attributes fetched by FID
# as the records are written); a failure in the middle of the write
# gives the same message and leaves DST as it was.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=write_threads
. "$top_srcdir/tests/cli_lib.sh"
D="$top_srcdir/data"
# GeoPackages carry the time they were written: pin it
OGR_CURRENT_DATE=2000-01-01T00:00:00Z
export OGR_CURRENT_DATE

# run_same NAME EXT OP ARGS...: exactgeo OP with --threads 1 and with
# --threads 4, DST t1/NAME.EXT and t4/NAME.EXT, inputs and options ARGS,
# write the same files (a Shapefile's layers each a file).
run_same() {
    name=$1; ext=$2; op=$3; shift 3
    for t in 1 4; do
        rm -rf "t$t"; mkdir "t$t"
        "$XG" "$op" -q --threads $t "t$t/$name.$ext" "$@" 2>"t$t.err" ||
            { cat "t$t.err"; return 1; }
    done
    for f in t1/*; do
        cmp -s "$f" "t4/${f#t1/}" || { echo "# $f differs"; return 1; }
    done
    [ "$(ls t1 | wc -l)" -eq "$(ls t4 | wc -l)" ]
}

for ext in gpkg fgb csv geojson shp; do
    run_same tri "$ext" delaunay "$D/survey.gpkg"
    ok $? "delaunay, $ext: --threads 1 and 4 write the same file"
done
ntri=$(ogrinfo -al -so t4/tri.shp 2>/dev/null | sed -n 's/^Feature Count: //p')
[ "${ntri:-0}" -gt 2048 ]
ok $? "delaunay: $ntri triangles, several batches of the pipeline"

for ext in gpkg shp csv; do
    run_same ins "$ext" inside -outside "$D/blocks.gpkg" "$D/orebodies.gpkg" -bcopy rock_type
    ok $? "inside -outside -bcopy, $ext: --threads 1 and 4 write the same file"
done

for ext in gpkg shp geojson; do
    run_same seg "$ext" segtri "$D/drillholes.gpkg" "$D/orebodies.gpkg" -acopy hole_id -bcopy rock_type
    ok $? "segtri -acopy -bcopy, $ext: --threads 1 and 4 write the same files ($(ls t1 | tr '\n' ' '))"
done

run_same reg gpkg inside --regions 3 -outside "$D/blocks.gpkg" "$D/orebodies.gpkg" -bcopy rock_type
ok $? "inside --regions 3 -bcopy (attributes fetched by FID while writing): --threads 1 and 4 the same"
run_same rb gpkg redblue "$D/nybb.gpkg" "$D/nybb_simplified.gpkg" -acopy BoroName
ok $? "redblue -acopy: --threads 1 and 4 write the same file"

# ---- a failure in the middle of the write (the testing hook, the path
# a cancel takes too): the same message, DST as it was, nothing staged
"$XG" delaunay -q keep.gpkg "$D/survey.gpkg" 2>/dev/null
before=$(cksum < keep.gpkg)
for t in 1 4; do
    EXACTGEO_TEST_FAIL_AFTER=3000 "$XG" delaunay -q -overwrite --threads $t keep.gpkg "$D/survey.gpkg" 2>"fail$t.err"
    echo $? > "fail$t.st"
done
[ "$(cat fail1.st)" = 1 ] && [ "$(cat fail4.st)" = 1 ] &&
    cmp -s fail1.err fail4.err && [ -s fail1.err ] &&
    [ "$(cksum < keep.gpkg)" = "$before" ] && nostage .
ok $? "delaunay failing after 3000 features: exit 1 with --threads 1 and 4, the same message ('$(tail -1 fail4.err)'), DST untouched"
for t in 1 4; do
    EXACTGEO_TEST_FAIL_AFTER=20000 "$XG" inside -q -outside --threads $t fail$t.shp "$D/blocks.gpkg" "$D/orebodies.gpkg" -bcopy rock_type 2>"fail$t.err"
    echo $? > "fail$t.st"
done
[ "$(cat fail1.st)" = 1 ] && [ "$(cat fail4.st)" = 1 ] &&
    [ "$(sed s/fail1/failN/g fail1.err)" = "$(sed s/fail4/failN/g fail4.err)" ] &&
    [ -s fail1.err ] && ! ls fail1.* fail4.* 2>/dev/null | grep -q shp && nostage .
ok $? "inside to Shapefile failing after 20000 features: the same message with 1 and 4 threads, no file left"

echo "1..$n"
exit $failed
