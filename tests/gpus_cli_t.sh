#!/bin/sh
# gpus_cli_t.sh -- `--gpus all|N|LIST` (issue 15) where no GPU can run the
# gpu engine (this machine, CI): the run fails cleanly, exit 1, one line
# naming --gpus and the reason, nothing written and no staging left, as
# --engine gpu does; bad values and --gpus with a CPU engine are usage
# errors (exit 2) from the one option parser; the CPU engines' --stats say
# "gpus": 0.  On a machine with a usable GPU the failures are skipped (the
# GPU tests, tests/regions_gpu_t, cover it there).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=gpus
. "$top_srcdir/tests/cli_lib.sh"
fixture_holes name

if nvidia-smi -L >/dev/null 2>&1; then
    ok 0 "# SKIP a GPU is present: the no-GPU failures are not tested here"
else
    for g in 2 all 0,0 0,1,0; do
        "$XG" segtri out.gpkg a.geojson b.geojson --gpus "$g" 2> err.txt
        rc=$?
        ok $([ $rc -eq 1 ] && [ ! -e out.gpkg ] && nostage &&
             [ "$(wc -l < err.txt)" -eq 1 ] && grep -q 'gpus' err.txt &&
             grep -q 'GPU' err.txt; echo $?) \
           "--gpus $g without a GPU: exit $rc, nothing written: $(cat err.txt)"
    done
    "$XG" redblue out.gpkg a.geojson b.geojson --gpus 2 --engine gpu \
        2> err.txt
    ok $([ $? -eq 1 ] && [ ! -e out.gpkg ] && nostage &&
         grep -q 'gpus: ' err.txt; echo $?) \
       "--gpus 2 --engine gpu (redblue) fails too, nothing written"
fi

"$XG" segtri out.gpkg a.geojson b.geojson --gpus 0,0 --engine cpu 2> err.txt
rc=$?
ok $([ $rc -eq 2 ] && [ ! -e out.gpkg ] &&
     grep -q "gpus are the gpu engine's, not the cpu engine's" err.txt
     echo $?) "--gpus with --engine cpu: a usage error: $(head -1 err.txt)"
"$XG" segtri out.gpkg a.geojson b.geojson --engine seq --gpus 2 2> err.txt
ok $([ $? -eq 2 ] && grep -q "not the seq engine's" err.txt; echo $?) \
   "and with --engine seq before it"
for bad in 0 65 x 1,,2 -1,0 all,1 ''; do
    "$XG" segtri out.gpkg a.geojson b.geojson --gpus "$bad" 2> err.txt
    rc=$?
    ok $([ $rc -eq 2 ] && [ ! -e out.gpkg ] &&
         grep -q "bad gpus '$bad' (expected all, N in 1..64" err.txt
         echo $?) "--gpus '$bad': usage error (exit $rc)"
done

# EXACTGEO: takes gpus= through the same parser
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" 2>/dev/null && pwd)
export GDAL_DRIVER_PATH
ogrinfo -ro -so "EXACTGEO:op=segtri;a=a.geojson;b=b.geojson;gpus=0,x" \
    > /dev/null 2> err.txt
ok $([ $? -ne 0 ] && grep -q "bad gpus '0,x'" err.txt; echo $?) \
   "EXACTGEO: gpus=0,x gets the parser's message"
"$XG" segtri out.gpkg a.geojson b.geojson --engine cpu --stats st.json -q
ok $([ $? -eq 0 ] && grep -q '"gpus": 0,' st.json; echo $?) \
   "the cpu engine's --stats: \"gpus\": 0"
echo "1..$n"
exit $failed
