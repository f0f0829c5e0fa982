#!/bin/sh
# safety_t.sh -- the exactgeo tool never changes what it was not asked to
# (issue 11, items 1-4), run end to end with the real binary:
#  1. a DST that is, or holds, a file of an input is refused before any
#     work, whatever the path to it (links, "..", GPKG:file:layer,
#     Shapefile sidecars, folders);
#  2. -overwrite / -append of a Shapefile folder touch the output layer's
#     files and nothing else in it (also with "." as DST);
#  3. every SIGINT / SIGTERM, however many, ends in "interrupted; nothing
#     written", the signal's exit status, no staging folder, DST
#     untouched; a dead run's staging folder is removed, nothing else;
#  4. /vsistdout/ streams GeoJSON / CSV to standard output (summary on
#     stderr); other /vsi DSTs are refused.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=safety
. "$top_srcdir/tests/cli_lib.sh"

# B: a triangle in the plane z = 0; A: two vertical holes crossing it,
# one through its vertex (0,0,0) and a line lying in its plane (a
# coplanar overlap: Shapefile output then has a _lines layer).  Four
# contacts: 3 points, 1 line.
cat > a.geojson <<'JSON'
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{"hole":"P"},"geometry":{"type":"LineString","coordinates":[[1,1,-1],[1,1,1]]}},
{"type":"Feature","id":2,"properties":{"hole":"Q"},"geometry":{"type":"LineString","coordinates":[[2,1,-1],[2,1,1]]}},
{"type":"Feature","id":3,"properties":{"hole":"V"},"geometry":{"type":"LineString","coordinates":[[0,0,-1],[0,0,1]]}},
{"type":"Feature","id":4,"properties":{"hole":"C"},"geometry":{"type":"LineString","coordinates":[[-1,1,0],[5,1,0]]}}]}
JSON
cat > b.geojson <<'JSON'
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0,0],[4,0,0],[0,4,0],[0,0,0]]]}}]}
JSON
gpkg a.gpkg a.geojson
gpkg b.gpkg b.geojson
# sha256 of every file under a folder, by relative path
sums() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum); }

# ---- 1. DST is, or holds, an input: refused before any work
mkdir sub sd sd/deep
ln -s b.gpkg link.gpkg
ln b.gpkg hard.gpkg
ogr2ogr ash.shp a.gpkg 2>/dev/null
for e in shp shx dbf prj; do cp ash.$e ash3_lines.$e; done
ogr2ogr sd/x.shp a.gpkg 2>/dev/null; cp b.gpkg sd/deep/y.gpkg
mkdir orig; cp -R a.gpkg b.gpkg ash.* ash3_lines.* sd orig/
refused() {  # refused "DESCRIPTION" PATTERN FILES-TO-KEEP -- ARGS...
    desc=$1; pat=$2; shift 2
    keep=""
    while [ "$1" != "--" ]; do keep="$keep $1"; shift; done
    shift
    before=$(find $keep -type f | LC_ALL=C sort | xargs cksum)
    rm -f st.json
    "$XG" segtri -q --stats st.json "$@" >/dev/null 2>err.txt
    st=$?
    [ $st -eq 1 ] && grep -q "^exactgeo: .*$pat" err.txt &&
        [ "$(wc -l < err.txt)" -eq 1 ] && [ ! -e st.json ] && nostage . &&
        [ "$(find $keep -type f | LC_ALL=C sort | xargs cksum)" = "$before" ]
    ok $? "$desc: exit 1, nothing read or written: '$(cat err.txt)'"
    # each case on intact inputs, even where a build lets one be lost
    rm -rf sd; cp -R orig/. .
}
refused "-overwrite DST = input B" "b.gpkg: is input B (b.gpkg); choose another DST" \
    b.gpkg -- -overwrite b.gpkg a.gpkg b.gpkg
refused "DST = input B through sub/.." "sub/../b.gpkg: is input B (b.gpkg)" \
    b.gpkg -- -overwrite sub/../b.gpkg a.gpkg b.gpkg
refused "DST = input B by absolute path" "$T/b.gpkg: is input B" \
    b.gpkg -- -overwrite "$T/b.gpkg" a.gpkg b.gpkg
refused "DST = a symbolic link to input B" "link.gpkg: is input B (b.gpkg)" \
    b.gpkg -- -overwrite link.gpkg a.gpkg b.gpkg
[ -L link.gpkg ]; ok $? "the link is still a link"
refused "DST = a hard link to input B" "hard.gpkg: is input B (b.gpkg)" \
    b.gpkg -- -overwrite hard.gpkg a.gpkg b.gpkg
refused "-append to input A" "a.gpkg: is input A (a.gpkg)" \
    a.gpkg -- -append a.gpkg a.gpkg b.gpkg
refused "DST = the file of input B given as GPKG:b.gpkg:b" \
    "b.gpkg: is b.gpkg, a file of input B (GPKG:b.gpkg:b)" \
    b.gpkg -- -overwrite b.gpkg a.gpkg GPKG:b.gpkg:b
refused "DST = input A's Shapefile" "ash.shp: is input A (ash.shp)" \
    ash.shp ash.dbf ash.shx ash.prj -- -overwrite ash.shp ash.shp b.gpkg
refused "DST = the .dbf of input A's Shapefile" \
    "ash.dbf: would write over ash.shp, a file of input A (ash.shp)" \
    ash.shp ash.dbf ash.shx ash.prj -- -overwrite ash.dbf ash.shp b.gpkg
refused "new DST whose _lines layer would replace input A" \
    "ash3.shp: would write over ash3_lines.shp, a file of input A (ash3_lines.shp)" \
    ash3_lines.shp ash3_lines.dbf -- ash3.shp ash3_lines.shp b.gpkg
refused "Shapefile folder DST holding input A's layer" \
    "sd: folder holds sd/x.shp, a file of input A (sd/x.shp)" \
    sd -- -overwrite -f "ESRI Shapefile" sd sd/x.shp b.gpkg
refused "Shapefile folder DST = input folder A" "sd: is input A (sd)" \
    sd -- -overwrite -f "ESRI Shapefile" sd sd b.gpkg
refused "folder DST holding input B two folders down" \
    "sd: folder holds sd/deep/y.gpkg, a file of input B" \
    sd -- -append -f "ESRI Shapefile" sd a.gpkg sd/deep/y.gpkg
refused "DST = a layer of input folder A" "sd/x.shp: is sd/x.shp, a file of input A (sd)" \
    sd -- -overwrite sd/x.shp sd b.gpkg
(cd sd && "$XG" segtri -q -overwrite -f "ESRI Shapefile" . x.shp ../b.gpkg -nln x 2>../err.txt)
[ $? -eq 1 ] && grep -q "^exactgeo: \.: folder holds x.shp, a file of input A" err.txt && nostage sd
ok $? "'.' as DST, run inside the folder holding input A: refused: '$(cat err.txt)'"
# not refused: a new layer beside an input's, a name shared but no file
"$XG" segtri -q sd/new.shp sd/x.shp b.gpkg 2>err.txt && [ -f sd/new.shp ] &&
    "$XG" segtri -q ash.gpkg ash.shp b.gpkg 2>>err.txt && [ -f ash.gpkg ]
ok $? "a DST beside an input (sd/new.shp; ash.gpkg for ash.shp) is fine"

# ---- 2. a Shapefile folder DST: only the output layer's files change
mkdir shp
for l in roads holes mydata; do ogr2ogr "shp/$l.shp" a.gpkg 2>/dev/null; done
echo "my notes" > shp/notes.txt; echo "keep me" > shp/c.txt
mkdir shp/subdir; echo x > shp/subdir/file
"$XG" segtri -q -f "ESRI Shapefile" new_shp a.gpkg b.gpkg -nln c 2>/dev/null
cp new_shp/c* shp/ && echo "stale index" > shp/c.qix
sums shp | grep -v ' \./c\.[a-z]*$' | grep -v ' \./c_lines\.' > other.txt
count() { ogrinfo -ro -al -so "$1" "$2" 2>/dev/null | sed -n 's/^Feature Count: //p'; }
"$XG" segtri -q -overwrite -f "ESRI Shapefile" shp a.gpkg b.gpkg -nln c -where "hole <> 'C'" 2>err.txt
st=$?
[ $st -eq 0 ] && sums shp | grep -v ' \./c\.[a-z]*$' | grep -v ' \./c_lines\.' | cmp -s - other.txt
ok $? "-overwrite of folder shp: roads.*, holes.*, mydata.*, notes.txt, c.txt, subdir/ byte-identical"
[ "$(count shp/c.shp c)" = 3 ] && [ ! -e shp/c_lines.shp ] && [ ! -e shp/c.qix ] && nostage .
ok $? "-overwrite of folder shp: layer c replaced (3 points), its stale c_lines.* and c.qix removed"
ls -i shp/roads.shp shp/notes.txt > inodes.txt
"$XG" segtri -q -append -f "ESRI Shapefile" shp a.gpkg b.gpkg -nln c 2>err.txt
[ $? -eq 0 ] && sums shp | grep -v ' \./c\.[a-z]*$' | grep -v ' \./c_lines\.' | cmp -s - other.txt &&
    ls -i shp/roads.shp shp/notes.txt | cmp -s - inodes.txt &&
    [ "$(count shp/c.shp c)" = 6 ] && [ "$(count shp/c_lines.shp c_lines)" = 1 ]
ok $? "-append to folder shp: layer c grows (3 + 3 points, 1 line), other files untouched (same inodes)"
(cd shp && "$XG" segtri -q -overwrite -f "ESRI Shapefile" . ../a.gpkg ../b.gpkg -nln c 2>../err.txt)
[ $? -eq 0 ] && sums shp | grep -v ' \./c\.[a-z]*$' | grep -v ' \./c_lines\.' | cmp -s - other.txt &&
    [ "$(count shp/c.shp c)" = 3 ] && nostage shp
ok $? "-overwrite with '.' as DST, run inside shp: only c.* and c_lines.* changed"

# ---- 3. signals
"$XG" segtri -q keep.gpkg a.gpkg b.gpkg 2>/dev/null; cp keep.gpkg before.gpkg
# A run that waits at a known point (the staging folder exists, the
# output is open: EXACTGEO_TEST_PAUSE) gets one signal there and, once
# that one was handled, a burst of 20 more (a second Ctrl-C, and more
# during the clean-up).  SIGINT is set to its default first, as a shell's
# background job ignores it.
burst() {  # burst SIGNALS DST ARGS...  -> $st, err.txt
    sigs=$1; shift
    rm -f ready ready.caught
    EXACTGEO_TEST_PAUSE=ready env --default-signal=INT "$XG" segtri -q "$@" 2>err.txt &
    pid=$!
    while [ ! -e ready ] && kill -0 $pid 2>/dev/null; do sleep 0.02; done
    for s in $sigs; do kill -s "$s" $pid 2>/dev/null; break; done
    while [ ! -e ready.caught ] && kill -0 $pid 2>/dev/null; do sleep 0.02; done
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        for s in $sigs; do kill -s "$s" $pid 2>/dev/null; done
    done
    wait $pid 2>/dev/null
    st=$?
}
if env --default-signal=INT true 2>/dev/null; then
    burst INT -overwrite keep.gpkg a.gpkg b.gpkg
    [ $st -eq 130 ] && [ "$(cat err.txt)" = "exactgeo: interrupted; nothing written" ] &&
        cmp -s keep.gpkg before.gpkg && nostage .
    ok $? "21 SIGINTs: exit 130, 'interrupted; nothing written', DST byte-identical, no staging (status $st)"
    burst TERM -overwrite keep.gpkg a.gpkg b.gpkg
    [ $st -eq 143 ] && [ "$(cat err.txt)" = "exactgeo: interrupted; nothing written" ] &&
        cmp -s keep.gpkg before.gpkg && nostage .
    ok $? "21 SIGTERMs: exit 143, same clean path (status $st)"
    burst "INT TERM" -overwrite keep.gpkg a.gpkg b.gpkg
    [ $st -eq 130 ] &&
        [ "$(cat err.txt)" = "exactgeo: interrupted; nothing written" ] &&
        cmp -s keep.gpkg before.gpkg && nostage .
    ok $? "SIGINT, then 20 SIGINT+SIGTERM pairs: the same, exit 130 (status $st)"
    sums shp > shp_before.txt
    burst "TERM INT" -overwrite -f "ESRI Shapefile" shp a.gpkg b.gpkg -nln c
    [ $st -eq 143 ] && sums shp | cmp -s - shp_before.txt && nostage .
    ok $? "SIGTERM, then SIGTERM+SIGINT pairs during -overwrite of a Shapefile folder: exit 143, every file in it unchanged (status $st)"
    burst INT fresh.gpkg a.gpkg b.gpkg
    [ $st -eq 130 ] && [ ! -e fresh.gpkg ] && nostage .
    ok $? "SIGINT during a new output: no output at all"
else
    echo "# env --default-signal not available: signal checks skipped"
fi
# A staging folder whose pid cannot be alive (above pid_max) is stale;
# one of a live process ($$), names not exactly ours, and a file are not.
dead=$(($(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 4194304) + 1))
mkdir ".keep.gpkg.exactgeo-$dead-AbC123" ".keep.gpkg.exactgeo-$$-AbC123" \
      ".keep.gpkg.exactgeo-AbC123" ".keep.gpkg.exactgeo-$dead-AbC12" \
      ".keep.gpkg.exactgeo-$dead-AbC1234" ".other.gpkg.exactgeo-$dead-AbC123"
echo half > ".keep.gpkg.exactgeo-$dead-AbC123/keep.gpkg"
echo mine > ".keep.gpkg.exactgeo-$dead-XyZ789"
"$XG" segtri -overwrite keep.gpkg a.gpkg b.gpkg >/dev/null 2>err.txt
[ $? -eq 0 ] && [ ! -e ".keep.gpkg.exactgeo-$dead-AbC123" ] &&
    grep -q "^exactgeo: warning: removed \.keep\.gpkg\.exactgeo-$dead-AbC123, left by an earlier run (pid $dead) that did not finish$" err.txt
ok $? "a dead run's staging folder is removed, with a warning: '$(head -1 err.txt)'"
[ -d ".keep.gpkg.exactgeo-$$-AbC123" ] && [ -d ".keep.gpkg.exactgeo-AbC123" ] &&
    [ -d ".keep.gpkg.exactgeo-$dead-AbC12" ] && [ -d ".keep.gpkg.exactgeo-$dead-AbC1234" ] &&
    [ -d ".other.gpkg.exactgeo-$dead-AbC123" ] && [ "$(cat ".keep.gpkg.exactgeo-$dead-XyZ789")" = mine ] &&
    [ "$(grep -c warning err.txt)" -eq 1 ]
ok $? "left alone: a live pid's folder, other names, another DST's folder, a file"
rm -rf .keep.gpkg.exactgeo-* .other.gpkg.exactgeo-*

# ---- 4. /vsi DSTs
[ -e /vsistdout ]; had_root_file=$?
"$XG" segtri -f GeoJSON /vsistdout/ a.gpkg b.gpkg > out.json 2>err.txt
st=$?
[ $st -eq 0 ] && [ "$(count out.json contacts)" = 4 ] && grep -q "contacts: 4 " err.txt &&
    ! grep -q contacts: out.json && nostage .
ok $? "-f GeoJSON /vsistdout/: 4 features on stdout, the summary on stderr"
if [ $had_root_file -ne 0 ]; then
    [ ! -e /vsistdout ]; ok $? "/vsistdout/: no file named /vsistdout created"
fi
"$XG" segtri -q -f CSV /vsistdout/ a.gpkg b.gpkg 2>err.txt | head -1 > csv.txt
[ "$(cat csv.txt)" = "WKT,a_fid,a_seg,b_fid,b_tri,kind" ] && [ ! -s err.txt ]
ok $? "-f CSV /vsistdout/: the CSV, geometry as WKT, on stdout"
"$XG" segtri -q -f GeoJSONSeq /vsistdout/ a.gpkg b.gpkg 2>/dev/null | grep -c '"type": "Feature"' > seq.txt
[ "$(cat seq.txt)" = 4 ]; ok $? "-f GeoJSONSeq /vsistdout/: four lines"
"$XG" segtri /vsistdout/ a.gpkg b.gpkg > out.txt 2>err.txt
[ $? -eq 2 ] && [ ! -s out.txt ] && grep -q "^exactgeo: /vsistdout/: the GPKG format cannot be streamed; use -f GeoJSON" err.txt
ok $? "/vsistdout/ without a streamable -f: exit 2: '$(head -1 err.txt)'"
for d in /vsimem/x.gpkg /vsizip/out.zip/x.shp "/vsis3/bucket/x.gpkg"; do
    "$XG" segtri "$d" a.gpkg b.gpkg >/dev/null 2>err.txt
    [ $? -eq 2 ] && grep -q "^exactgeo: $d: cannot write to a /vsi path.*use /vsistdout/ with -f GeoJSON" err.txt &&
        [ -z "$(ls -A | grep -e out.zip -e '^vsi')" ]
    ok $? "$d: refused, exit 2, naming the alternative"
done

echo "1..$n"
exit 0
