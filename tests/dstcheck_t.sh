#!/bin/sh
# dstcheck_t.sh -- what the exactgeo tool writes besides DST, and DST
# itself, checked before any input is read (issue 31, items 1 and 10),
# end to end with the real binary:
#  1. a side file (--stats, --dump) is never DST, nor a file of DST's
#     dataset (Shapefile components and its _lines layer, SQLite
#     journals, a file the format writes beside it, anything in a folder
#     DST), whether or not DST exists yet, nor a file of an input
#     (sidecars, journals, a VRT's sources, GPKG:file:layer), whatever
#     the path to it; for segtri, redblue, inside, delaunay, --regions
#     and mpirun -n 3: exit 1, one line, every file as it was;
#  2. DST problems: a GDAL connection string, a folder where the format
#     writes a file and the reverse, a format that writes no file, and
#     --tin to a format that cannot hold a TIN (asked of the driver: a
#     TIN written in memory must come back the same) are refused before
#     any input is read; formats that hold a TIN still write one.
# "Before any input is read" is shown with an input that fails when read
# (a NaN coordinate): the refusal, not the NaN, is what is reported.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=dstcheck
. "$top_srcdir/tests/cli_lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=no
if [ "${XG_MPI:-yes}" = yes ] && command -v mpirun >/dev/null 2>&1 &&
    mpirun -n 2 --oversubscribe "$XG" --version >/dev/null 2>&1; then
    mpi=yes
fi

# ---- fixtures, in fix/; each case runs in w/, a fresh copy of it (the
# logs stay outside it), so that a case never sees another's leftovers
mkdir fix && cd fix || exit 1
# segtri: two vertical holes through a triangle; redblue: two crossing
# lines; inside: a closed tetrahedron and two points; delaunay: five
# points with z
cat > a.geojson <<'JSON'
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{"hole":"P"},"geometry":{"type":"LineString","coordinates":[[1,1,-1],[1,1,1]]}},
{"type":"Feature","id":2,"properties":{"hole":"Q"},"geometry":{"type":"LineString","coordinates":[[2,1,-1],[2,1,1]]}}]}
JSON
cat > b.geojson <<'JSON'
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0,0],[4,0,0],[0,4,0],[0,0,0]]]}}]}
JSON
sed 's/\[1,1,-1\]/[1,1,NaN]/' a.geojson > anan.geojson
cat > r.geojson <<'JSON'
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[4,4]]}},
{"type":"Feature","id":2,"properties":{},"geometry":{"type":"LineString","coordinates":[[0,4],[4,0]]}}]}
JSON
cat > solid.csv <<'CSV'
WKT,id
"TIN Z (((0 0 0,0 4 0,4 0 0,0 0 0)),((0 0 0,4 0 0,0 0 4,0 0 0)),((0 0 0,0 0 4,0 4 0,0 0 0)),((4 0 0,0 4 0,0 0 4,4 0 0)))",1
CSV
cat > pts.csv <<'CSV'
WKT,id
"POINT Z (1 1 1)",1
"POINT Z (9 9 9)",2
CSV
cat > survey.csv <<'CSV'
WKT,id
"POINT Z (0 0 1)",1
"POINT Z (4 0 2)",2
"POINT Z (0 4 3)",3
"POINT Z (4 4 4)",4
"POINT Z (2 1 5)",5
CSV
sed 's/POINT Z (2 1 5)/POINT Z (2 1 nan)/' survey.csv > survey_nan.csv
gpkg a.gpkg a.geojson
gpkg anan.gpkg anan.geojson
gpkg b.gpkg b.geojson
gpkg r.gpkg r.geojson -nlt LINESTRING -dim XY
gpkg solid.gpkg solid.csv -nlt TINZ
gpkg pts.gpkg pts.csv -nlt POINTZ
gpkg survey.gpkg survey.csv -nlt POINTZ
gpkg survey_nan.gpkg survey_nan.csv -nlt POINTZ
ogr2ogr ash.shp a.gpkg 2>/dev/null
# a VRT whose source is a GeoPackage in a folder beside it, inside a
# union layer (GDAL's file list of such a VRT names the VRT alone)
cat > v.vrt <<'XML'
<OGRVRTDataSource>
  <OGRVRTUnionLayer name="a">
    <OGRVRTLayer name="a">
      <SrcDataSource relativeToVRT="1">src/a.gpkg</SrcDataSource>
      <SrcLayer>a</SrcLayer>
    </OGRVRTLayer>
  </OGRVRTUnionLayer>
</OGRVRTDataSource>
XML
mkdir src out
cp a.gpkg src/a.gpkg
ln -s out outlink
"$XG" segtri -q -f "ESRI Shapefile" shp a.gpkg b.gpkg -nln c 2>/dev/null
mkdir folder; echo "my notes" > folder/notes.txt
echo "a file" > afile
for f in a.geojson b.geojson r.geojson solid.csv pts.csv survey.csv survey_nan.csv anan.geojson; do rm -f "$f"; done
[ "$(ogrinfo -ro -so -al v.vrt 2>/dev/null | sed -n 's/^Feature Count: //p')" = 2 ] &&
    [ "$("$XG" segtri -q -f CSV /vsistdout/ a.gpkg b.gpkg 2>/dev/null | wc -l)" = 3 ] &&
    [ "$("$XG" inside -q -f CSV /vsistdout/ pts.gpkg solid.gpkg 2>/dev/null | wc -l)" = 2 ] ||
    { echo "Bail out! fixtures"; exit 1; }

cd "$T" || exit 1
# fresh: a new w/ from fix/, the current folder
fresh() { cd "$T" && rm -rf w && cp -a fix w && cd w; }
# snap: every file (with its checksum), folder and link under w/
snap() {
    find . -type f | LC_ALL=C sort | xargs cksum
    find . ! -type f | LC_ALL=C sort
    find . -type l -exec ls -l {} + | sed 's/.* \(\..*\)/\1/'
}
# refused CODE DESCRIPTION MESSAGE ARGS...: exactgeo ARGS exits CODE, its
# first line is "exactgeo: MESSAGE..." and the only one (but for exit 2's
# "Try 'exactgeo OP --help'."), and every file and folder is as it was
refused() {
    code=$1; desc=$2; msg=$3; shift 3
    fresh
    snap > ../before.txt
    "$XG" "$@" > ../out.txt 2> ../err.txt
    st=$?
    snap > ../after.txt
    [ $st -eq "$code" ] &&
        awk -v p="exactgeo: $msg" 'NR == 1 { exit index($0, p) != 1 }' ../err.txt &&
        [ "$(grep -cv "^Try 'exactgeo [a-z ]*--help'.\$" ../err.txt)" -eq 1 ] &&
        cmp -s ../before.txt ../after.txt
    ok $? "$desc: exit $st, nothing written: '$(head -1 ../err.txt)'"
}

# ---- 1. side files
refused 1 "segtri --stats = a new DST" "--stats out/g.gpkg: is DST (out/g.gpkg)" \
    segtri -q --stats out/g.gpkg out/g.gpkg a.gpkg b.gpkg
refused 1 "delaunay --dump = a new DST, spelt ./out/../out/g.gpkg" \
    "--dump ./out/../out/g.gpkg: is DST (out/g.gpkg)" \
    delaunay -q --dump ./out/../out/g.gpkg out/g.gpkg survey.gpkg
refused 1 "inside --stats = a new DST through a linked folder" \
    "--stats outlink/g.gpkg: is DST (out/g.gpkg)" \
    inside -q --stats outlink/g.gpkg out/g.gpkg pts.gpkg solid.gpkg
refused 1 "inside --stats = a new DST by its absolute path" \
    "--stats $T/w/out/g.gpkg: is DST (out/g.gpkg)" \
    inside -q --stats "$T/w/out/g.gpkg" out/g.gpkg pts.gpkg solid.gpkg
refused 1 "redblue --stats = the .dbf of a new Shapefile DST" \
    "--stats out/r.dbf: is a file of DST (out/r.shp)" \
    redblue -q --stats out/r.dbf out/r.shp r.gpkg r.gpkg
refused 1 "segtri --dump = a file of a Shapefile DST's _lines layer" \
    "--dump out/c_lines.shx: is a file of DST (out/c.shp)" \
    segtri -q --dump out/c_lines.shx out/c.shp a.gpkg b.gpkg
refused 1 "delaunay --stats = the -wal of a new GeoPackage DST" \
    "--stats out/g.gpkg-wal: is a file of DST (out/g.gpkg)" \
    delaunay -q --stats out/g.gpkg-wal out/g.gpkg survey.gpkg
refused 1 "segtri --stats = the .xsd a GML DST writes beside it (asked of the driver)" \
    "--stats out/g.xsd: is a file of DST (out/g.gml)" \
    segtri -q --stats out/g.xsd out/g.gml a.gpkg b.gpkg
refused 1 "-overwrite of a Shapefile folder, --stats = its layer's .dbf" \
    "--stats shp/c.dbf: is in folder DST (shp)" \
    segtri -q -overwrite -f "ESRI Shapefile" shp a.gpkg b.gpkg -nln c --stats shp/c.dbf
refused 1 "a new Shapefile folder DST, --stats in it" \
    "--stats newshp/s.json: is in folder DST (newshp)" \
    segtri -q -f "ESRI Shapefile" newshp a.gpkg b.gpkg --stats newshp/s.json
refused 1 "--stats = the .dbf of input A's Shapefile" \
    "--stats ash.dbf: is a file of input A (ash.shp)" \
    segtri -q --stats ash.dbf out/x.gpkg ash.shp b.gpkg
refused 1 "--stats = a new .qix beside input A's Shapefile" \
    "--stats ash.qix: is a file of input A (ash.shp)" \
    segtri -q --stats ash.qix out/x.gpkg ash.shp b.gpkg
refused 1 "--stats = the -wal of input B" "--stats b.gpkg-wal: is a file of input B (b.gpkg)" \
    segtri -q --stats b.gpkg-wal out/x.gpkg a.gpkg b.gpkg
refused 1 "--dump = the source of input A, a VRT" \
    "--dump src/a.gpkg: is a file of input A (v.vrt)" \
    segtri -q --dump src/a.gpkg out/x.gpkg v.vrt b.gpkg
refused 1 "--stats = the file of input B given as GPKG:b.gpkg:b" \
    "--stats b.gpkg: is a file of input B (GPKG:b.gpkg:b)" \
    segtri -q --stats b.gpkg out/x.gpkg a.gpkg GPKG:b.gpkg:b
refused 1 "--stats = input A through ./ and .." \
    "--stats ./out/../a.gpkg: is the same file as a.gpkg, input A" \
    segtri -q --stats ./out/../a.gpkg out/x.gpkg a.gpkg b.gpkg
refused 2 "--stats and --dump: one file, spelt two ways" \
    "--stats and --dump name the same file 'out/s.json'" \
    segtri -q --stats out/s.json --dump ./out/s.json out/x.gpkg a.gpkg b.gpkg
refused 1 "--stats = a new DST, --regions 2" "--stats out/g.gpkg: is DST (out/g.gpkg)" \
    segtri -q --regions 2 --stats out/g.gpkg out/g.gpkg a.gpkg b.gpkg
refused 1 "--stats = a new DST's .dbf, inside --regions 3" \
    "--stats out/i.dbf: is a file of DST (out/i.shp)" \
    inside -q --regions 3 --stats out/i.dbf out/i.shp pts.gpkg solid.gpkg
refused 1 "before any input is read: --stats = DST, A fails when read" \
    "--stats out/g.gpkg: is DST (out/g.gpkg)" \
    segtri -q --stats out/g.gpkg out/g.gpkg anan.gpkg b.gpkg
refused 1 "before any input is read: delaunay --stats = DST, a NaN z" \
    "--stats out/g.gpkg: is DST (out/g.gpkg)" \
    delaunay -q --stats out/g.gpkg out/g.gpkg survey_nan.gpkg
# refused_mpi DESCRIPTION LINE ARGS...: under mpirun -n 3, a non-zero
# exit, LINE the one line of exactgeo's, every file as it was
refused_mpi() {
    desc=$1; line=$2; shift 2
    if [ "$mpi" = no ]; then
        ok 0 "mpirun -n 3, $desc # SKIP not built with MPI"
        return
    fi
    fresh
    snap > ../before.txt
    mpirun -n 3 --oversubscribe "$XG" "$@" > /dev/null 2> ../err.txt
    st=$?
    snap > ../after.txt
    [ $st -ne 0 ] && [ "$(grep -c '^exactgeo:' ../err.txt)" -eq 1 ] &&
        grep -qxF "exactgeo: $line" ../err.txt && cmp -s ../before.txt ../after.txt
    ok $? "mpirun -n 3, $desc: non-zero, the one message, nothing written"
}
refused_mpi "segtri --stats = a new DST" \
    "--stats out/g.gpkg: is DST (out/g.gpkg); choose another name" \
    segtri -q --stats out/g.gpkg out/g.gpkg a.gpkg b.gpkg
refused_mpi "inside --stats = a new DST's journal" \
    "--stats out/i.gpkg-journal: is a file of DST (out/i.gpkg); choose another name" \
    inside -q --stats out/i.gpkg-journal out/i.gpkg pts.gpkg solid.gpkg
# not refused: side files beside DST and the inputs, of their own names
fresh
"$XG" segtri -q --stats out/g.json --dump out/g.xgdump out/g.gpkg a.gpkg b.gpkg 2> ../err.txt &&
    grep -q '"contacts"' out/g.json && [ -s out/g.xgdump ] &&
    [ "$(ogrinfo -ro -so -al out/g.gpkg 2>/dev/null | sed -n 's/^Feature Count: //p')" = 2 ] &&
    "$XG" segtri -q --stats ash.json out/h.shp ash.shp b.gpkg 2>> ../err.txt &&
    grep -q '"contacts"' ash.json
ok $? "side files of their own names beside DST and the inputs (out/g.json, ash.json) are written"
# names equal but for case: one file only where the folder ignores case
# (asked of it with a temporary file, removed); this one does not
fresh
if [ ! -e OUT.GPKG ] && touch out.gpkg && [ ! -e OUT.GPKG ]; then
    rm -f out.gpkg
    "$XG" segtri -q --stats out/G.gpkg out/g.gpkg a.gpkg b.gpkg 2> ../err.txt &&
        grep -q '"contacts"' out/G.gpkg &&
        [ "$(ogrinfo -ro -so -al out/g.gpkg 2>/dev/null | sed -n 's/^Feature Count: //p')" = 2 ] &&
        ! ls -A out | grep -q exactgeo-case
    ok $? "--stats out/G.gpkg beside DST out/g.gpkg, in a folder that keeps case: both written, no probe left"
else
    rm -f out.gpkg
    ok 0 "--stats out/G.gpkg beside DST out/g.gpkg # SKIP this folder ignores case"
fi

# ---- 2. DST problems, found before any input is read
refused 2 "DST GPKG:survey.gpkg:triangles (a connection string)" \
    "GPKG:survey.gpkg:triangles: DST is a file or a folder, not a GDAL connection string: write '-f GPKG survey.gpkg -nln triangles' instead" \
    delaunay -q -overwrite GPKG:survey.gpkg:triangles survey.gpkg
refused 1 "-overwrite DST = the source of input A, a VRT" \
    "src/a.gpkg: is src/a.gpkg, a file of input A (v.vrt); choose another DST" \
    segtri -q -overwrite src/a.gpkg v.vrt b.gpkg
refused 1 "DST = the -wal of input B" \
    "b.gpkg-wal: is a file of input B (b.gpkg); choose another DST" \
    segtri -q b.gpkg-wal a.gpkg b.gpkg
refused 2 "DST PG:dbname=x (a connection prefix)" \
    "PG:dbname=x: DST is a file or a folder, not a GDAL connection string (PostgreSQL)" \
    segtri -q PG:dbname=x a.gpkg b.gpkg
refused 1 "inside -overwrite of a folder with a GeoPackage DST" \
    "folder: is a folder, and the GPKG format writes a file; -overwrite never replaces a folder" \
    inside -q -overwrite folder pts.gpkg solid.gpkg
refused 1 "the same, the input failing when read: found first" \
    "folder: is a folder, and the GPKG format writes a file" \
    segtri -q -overwrite folder anan.gpkg b.gpkg
refused 1 "-overwrite of a file with a Shapefile folder" \
    "afile: is a file, and the ESRI Shapefile format writes a folder there" \
    segtri -q -overwrite -f "ESRI Shapefile" afile anan.gpkg b.gpkg
refused 2 "-f Memory (writes no file)" "-f Memory: this driver writes no file" \
    segtri -q -f Memory mem a.gpkg b.gpkg
for f in "shp:ESRI Shapefile:as 3D Multi Polygon" "geojson:GeoJSON:OGR geometry type unsupported" \
         "kml:LIBKML:without geometry" "tab:MapInfo File:without geometry"; do
    e=${f%%:*}; r=${f#*:}; d=${r%%:*}; why=${r#*:}
    refused 2 "--tin to .$e" "--tin: the $d format cannot hold a TIN" \
        delaunay -q --tin out/tin.$e survey_nan.gpkg
    grep -q "$why" ../err.txt
    ok $? "--tin to .$e: the reason given ($why)"
done
refused 2 "--tin to GeoJSON on standard output" "--tin: the GeoJSON format cannot hold a TIN" \
    delaunay -q --tin -f GeoJSON /vsistdout/ survey_nan.gpkg
[ ! -s ../out.txt ]; ok $? "--tin to GeoJSON on standard output: nothing on it"
fresh
for e in gpkg fgb csv gml; do
    "$XG" delaunay -q --tin out/tin.$e survey.gpkg 2> ../err.txt &&
        ogrinfo -ro -al -q out/tin.$e 2>/dev/null | grep -q '^  TIN Z ((('
    ok $? "--tin to .$e: written, read back a TIN Z"
done
"$XG" delaunay -q --tin -f CSV /vsistdout/ survey.gpkg 2> ../err.txt | grep -q '^"TIN Z ((('
ok $? "--tin to CSV on standard output: a TIN Z"

echo "1..$n"
exit 0
