#!/bin/sh
# remote.sh -- the real exactgeo end to end on the GPU machine, GeoPackage
# in and out (issue 33, item 5), from the kit of pack.sh.  Run from the
# repository root, in one call of the device tool (10 minutes at most):
#
#   sh bench/gpu_e2e/remote.sh [KIT]
#
# KIT: the archive (default bench/gpu_e2e/kit/kit.tar.xz).  Unpacks it to
# $XG_WORK/kit, points LD_LIBRARY_PATH, GDAL_DATA, PROJ_DATA and
# GDAL_DRIVER_PATH at it, checks the tool (--version, the libraries it
# finds outside the kit, a tiny run), times a disk write floor (dd), makes
# the inputs with the kit's gen_gpkg (timed apart: no GDAL, straight
# SQLite), then runs, each with --stats and -q:
#   inside    XG_N_INSIDE uniform PointZ in a 1000 m cube x 8 closed UV
#             spheres of XG_NTRI triangles in all, filling XG_FILL of the
#             cube (so about XG_FILL x XG_N_INSIDE rows out; no -outside)
#   delaunay  XG_N_DELAUNAY uniform PointZ in 10 x 10 km
#   mpi       inside's inputs, the single run and then `mpirun -n P` for
#             P in XG_RANKS, each rank on $(nproc)/P threads (the
#             machine's Open MPI: the kit's own MPI libraries are set
#             aside), each output's digest against the single run's
# and the read floor of each input (GDAL's Arrow stream, arrow_floor).
# Prints progress lines with the time, then one markdown table: wall,
# read, compute (total - read - write - close), write, close, rows out.
# Every step runs under `timeout` of what is left of XG_BUDGET, so the
# table comes even when a run is cut (its row says so).  Where $OUT is
# set (the device tool), the table, the --stats files and the logs are
# copied there.
#
# Environment (defaults in brackets):
#   XG_CASES       which runs ["inside delaunay"]
#   XG_N_INSIDE    [100000000]   XG_NTRI [1000000]   XG_FILL [0.02]
#   XG_N_DELAUNAY  [10000000]
#   XG_ENGINE      the tool's --engine [gpu]
#   XG_OPTS        more options of every run, e.g. "-lco SPATIAL_INDEX=NO"
#   XG_BUDGET      seconds for the whole script [570]
#   XG_WORK        where the kit, inputs and outputs go [/tmp/xg_gpu]; the
#                  inputs stay and are reused when their sizes match
#   XG_DD_MB       MiB of the dd floor [4096]; 0: none
#   XG_CHECK       1: PRAGMA integrity_check and rtreecheck() of NEW's
#                  output after its run [0]
#   XG_RANKS       the mpi case's rank counts ["1 2 4 8"]
#   XG_MPIRUN_OPTS more options of mpirun, e.g. "--mca btl self,vader
#                  -x CPL_DEBUG=EXACTGEO" (whose rank lines are shown)
#   XG_REF         1: also run the kit's second build (pack.sh's
#                  XG_PACK_REF) on the same inputs, right after each run;
#                  its rows are labelled REF [0]
# Sizes: 10^8 points make a GeoPackage of about 5 GB; the disk has 64 GiB.
set -u
T0=$(date +%s)
KIT=${1:-bench/gpu_e2e/kit/kit.tar.xz}
CASES=${XG_CASES:-inside delaunay}
NI=${XG_N_INSIDE:-100000000} NT=${XG_NTRI:-1000000} FILL=${XG_FILL:-0.02}
ND=${XG_N_DELAUNAY:-10000000}
ENGINE=${XG_ENGINE:-gpu} OPTS=${XG_OPTS:-} BUDGET=${XG_BUDGET:-570}
WK=${XG_WORK:-/tmp/xg_gpu} DD_MB=${XG_DD_MB:-4096}
say() { echo "[$(($(date +%s) - T0)) s] $*"; }
left() { echo $((BUDGET - ($(date +%s) - T0))); }
# timed SECONDS_VAR CMD...: run CMD under timeout of what is left; sets
# the variable named SECONDS_VAR to its wall seconds; returns its status.
timed() {
    v=$1; shift
    l=$(left)
    [ "$l" -gt 5 ] || { say "no time left for: $*"; eval "$v=cut"; return 124; }
    a=$(date +%s.%N)
    timeout "$l" "$@"
    rc=$?
    b=$(date +%s.%N)
    eval "$v=$(echo "$b - $a" | awk '{ printf "%.2f", $1 - $3 }')"
    [ $rc -eq 124 ] && eval "$v=cut"
    return $rc
}

s='' w='' g=''
mkdir -p "$WK" || exit 1
rm -rf "$WK/kit" "$WK/out"
mkdir -p "$WK/out"
# xz may be missing there: Python's lzma then (python3 is there).
unpack() {
    if command -v xz > /dev/null; then tar -C "$WK" -xJf "$KIT"
    else python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$KIT" "$WK"
    fi
}
unpack || { say "cannot unpack $KIT"; exit 1; }
say "unpacked the kit"
K=$WK/kit
export LD_LIBRARY_PATH="$K/lib" GDAL_DATA="$K/gdal-data" PROJ_DATA="$K/proj" \
    PROJ_LIB="$K/proj" GDAL_DRIVER_PATH="$K/plugins" PATH="$K/bin:$PATH" \
    OGR_CURRENT_DATE=2000-01-01T00:00:00Z
say "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
    "disk: $(df -h "$WK" | awk 'NR == 2 { print $4 " free" }')"
nvidia-smi -L 2>&1 | sed 's/^/  /'
exactgeo --version || { say "the tool does not start"; exit 1; }
say "libraries found outside the kit (should be the system's libc family and libcuda):"
ldd "$K/bin/exactgeo" "$K/plugins/ogr_EXACTGEO.so" | awk '$3 ~ /^\// && $3 !~ /\/kit\/lib\// { print "  " $1 }' | sort -u

# A tiny run first: a broken kit fails here in seconds, not after the
# inputs are made.
rm -f "$WK/tiny_"*.gpkg "$WK/out/tiny.gpkg"
gen_gpkg points "$WK/tiny_a.gpkg" pts 1000 1 0 0 0 1000 1000 1000 &&
    gen_gpkg spheres "$WK/tiny_b.gpkg" solids 8 8000 0.2 0 0 0 1000 1000 1000 &&
    exactgeo inside --engine "$ENGINE" -q "$WK/out/tiny.gpkg" "$WK/tiny_a.gpkg" "$WK/tiny_b.gpkg" &&
    ogrinfo -so "$WK/out/tiny.gpkg" contacts | grep "Feature Count" ||
    { say "the tiny run failed"; exit 1; }
say "tiny run done (engine $ENGINE)"

# The disk's write floor: dd of zeros, flushed.
DD=-
if [ "$DD_MB" -gt 0 ]; then
    timed s dd if=/dev/zero of="$WK/dd.bin" bs=1M count="$DD_MB" conv=fdatasync 2> "$WK/dd.log"
    [ "$s" = cut ] || DD=$(echo "$DD_MB $s" | awk '{ printf "%.0f MB/s", $1 * 1.048576 / $2 }')
    rm -f "$WK/dd.bin"
    say "disk write floor (dd, $DD_MB MiB, fdatasync): $DD"
fi

: > "$WK/table"
row() {  # row CASE GEN_S RUN_S STATS_FILE FLOOR: a line of the table
    python3 - "$@" >> "$WK/table" <<'EOF'
import json, sys
case, gen, wall, f, floor = sys.argv[1:]
try:
    j = json.load(open(f))
    s = j["seconds"]
    st = "%.2f | %.2f | %.2f | %.2f" % (s["read"], s["total"] - s["read"] - s["write"] - s["close"],
                                        s["write"], s["close"])
    rows = j.get("features_written", "?")
except (OSError, ValueError, KeyError):
    st, rows = "- | - | - | -", "-"
print("| %s | %s | %s | %s | %s | %s |" % (case, gen, wall, st, rows, floor))
EOF
}
floor() {  # floor FILE LAYER: the Arrow stream's seconds over it
    l=$(left)
    if [ "$l" -gt 5 ]; then timeout "$l" arrow_floor "$1" "$2" | awk '{ print $4 }'; fi
}

# points PREFIX N SEED X1 Y1 Z1: $WK/PREFIX_N.gpkg, N points in [0, X1] x
# [0, Y1] x [0, Z1], made unless there (another N's file is removed first:
# the disk holds a few of 10^8); sets A to it and g to the seconds taken
# (or "reused").  Returns non-zero when it could not be made.
points() {
    A=$WK/$1_$2.gpkg g=reused
    [ -f "$A" ] && return 0
    rm -f "$WK/$1"_*.gpkg
    say "making $2 points"
    timed g gen_gpkg points "$A.tmp" pts "$2" "$3" 0 0 0 "$4" "$5" "$6" &&
        mv "$A.tmp" "$A" && return 0
    say "cannot make $A"
    rm -f "$A.tmp"
    return 1
}
# run CASE LABEL INPUTS...: exactgeo CASE on the inputs to
# $WK/out/CASE.gpkg, timed, and its row in the table (the floor: the
# first input's Arrow stream).
run() {
    c=$1 label=$2; shift 2
    say "running $c --engine $ENGINE $OPTS"
    rm -f "$WK/out/$c.gpkg"
    # shellcheck disable=SC2086
    timed w exactgeo "$c" --engine "$ENGINE" $OPTS -q --stats "$WK/out/$c.json" \
        "$WK/out/$c.gpkg" "$@" > "$WK/out/$c.log" 2>&1
    say "$c: exit $?, $w s; $(tail -n 3 "$WK/out/$c.log")"
    fl=$(floor "$1" pts)
    row "$label" "$g" "$w" "$WK/out/$c.json" "${fl:-?}"
    [ "${XG_CHECK:-0}" = 1 ] && say "$c: $(check "$WK/out/$c.gpkg")"
    [ "${XG_REF:-0}" = 1 ] && [ -x "$K/ref/bin/exactgeo" ] || return 0
    dn=$(digest "$WK/out/$c.gpkg")
    rm -f "$WK/out/$c.gpkg"
    say "running REF $c --engine $ENGINE $OPTS"
    # shellcheck disable=SC2086
    timed w env LD_LIBRARY_PATH="$K/ref/lib:$K/lib" "$K/ref/bin/exactgeo" "$c" \
        --engine "$ENGINE" $OPTS -q --stats "$WK/out/${c}_ref.json" \
        "$WK/out/$c.gpkg" "$@" > "$WK/out/${c}_ref.log" 2>&1
    say "REF $c: exit $?, $w s; $(tail -n 3 "$WK/out/${c}_ref.log")"
    row "REF $label" "$g" "$w" "$WK/out/${c}_ref.json" "${fl:-?}"
    dr=$(digest "$WK/out/$c.gpkg")
    if [ -n "$dn" ] && [ "$dn" = "$dr" ]; then
        say "$c: NEW's rows are REF's (digest $dn)"
    else
        say "$c: NEW's rows DIFFER from REF's: '$dn' against '$dr'"
    fi
    rm -f "$WK/out/$c.gpkg"
}
# check GPKG: SQLite's PRAGMA integrity_check and rtreecheck() of each
# layer's index, timed (the pages exactgeo wrote, past the lock-byte page
# at 1 GiB on these sizes).
check() {
    l=$(left)
    [ "$l" -gt 5 ] || { echo "no time left to check"; return 0; }
    timeout "$l" python3 - "$1" <<'EOF2'
import sqlite3, sys, time
t0 = time.time()
db = sqlite3.connect(sys.argv[1])
ic = "; ".join(r[0] for r in db.execute("PRAGMA integrity_check").fetchall()[:3])
rt = []
for (t, g) in db.execute("SELECT table_name, column_name FROM gpkg_geometry_columns").fetchall():
    name = "rtree_%s_%s" % (t, g)
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone():
        rt.append(db.execute("SELECT rtreecheck(?)", (name,)).fetchone()[0])
print("integrity_check %s, rtreecheck %s (%.1f s)" % (ic, ",".join(rt) or "-", time.time() - t0))
EOF2
}
# digest GPKG: the SHA-256 of every row of its feature tables (those of
# gpkg_contents) in FID order, through Python's sqlite3 (no GDAL there);
# the index tables and gpkg_contents' timestamps are left out.
digest() {
    l=$(left)
    [ "$l" -gt 5 ] || return 0
    timeout "$l" python3 - "$1" <<'EOF2'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
h = hashlib.sha256()
for (t, mnx, mny, mxx, mxy) in db.execute(
        "SELECT table_name, min_x, min_y, max_x, max_y FROM gpkg_contents "
        "WHERE data_type = 'features' ORDER BY table_name").fetchall():
    h.update(repr((t, mnx, mny, mxx, mxy)).encode())
    n = db.execute("SELECT feature_count FROM gpkg_ogr_contents WHERE table_name = ?",
                   (t,)).fetchone()
    h.update(repr(n).encode())
    for r in db.execute('SELECT * FROM "%s" ORDER BY 1' % t.replace('"', '""')):
        h.update(repr(r).encode())
print(h.hexdigest()[:16])
EOF2
}

# inside_inputs: inside's points (A, as points() sets it) and solids (B),
# made unless there; non-zero when they could not be made.
inside_inputs() {
    points in_pts "$NI" 1 1000 1000 1000 || return 1
    B=$WK/in_solids_${NT}_$FILL.gpkg
    [ -f "$B" ] && return 0
    gen_gpkg spheres "$B.tmp" solids 8 "$NT" "$FILL" 0 0 0 1000 1000 1000 &&
        mv "$B.tmp" "$B" && return 0
    say "cannot make $B"
    return 1
}

for c in $CASES; do
    case $c in
    inside)
        inside_inputs || continue
        say "inputs: $(du -h "$A" | cut -f1) points ($g s), $(du -h "$B" | cut -f1) solids"
        run inside "inside $NI x $NT tri" "$A" "$B"
        ;;
    delaunay)
        points dt_pts "$ND" 2 10000 10000 100 || continue
        run delaunay "delaunay $ND" "$A"
        ;;
    mpi)
        inside_inputs || continue
        # the machine's Open MPI, not the kit's copy of this one's
        mkdir -p "$K/lib-mpi-aside"
        mv "$K"/lib/libmpi.so.* "$K"/lib/libopen-rte.so.* "$K"/lib/libopen-pal.so.* \
            "$K"/lib/libhwloc.so.* "$K"/lib/libevent*.so.* "$K/lib-mpi-aside/" 2> /dev/null
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        say "mpirun: $(mpirun --version 2>&1 | head -n 1)"
        run inside "inside $NI x $NT tri, single, cpu $(nproc) threads" "$A" "$B"
        d1=$(digest "$WK/out/inside.gpkg")
        say "single run's digest $d1"
        for P in ${XG_RANKS:-1 2 4 8}; do
            th=$(( $(nproc) / P ))
            say "running mpirun -n $P inside --engine $ENGINE --threads $th"
            rm -f "$WK/out/mpi$P.gpkg"
            # shellcheck disable=SC2086
            timed w mpirun -n "$P" --oversubscribe --bind-to none ${XG_MPIRUN_OPTS:-} -x LD_LIBRARY_PATH \
                -x GDAL_DATA -x PROJ_DATA -x GDAL_DRIVER_PATH -x OGR_CURRENT_DATE \
                "$K/bin/exactgeo" inside --engine "$ENGINE" --threads "$th" $OPTS \
                --stats "$WK/out/mpi$P.json" "$WK/out/mpi$P.gpkg" "$A" "$B" \
                > "$WK/out/mpi$P.log" 2>&1
            say "mpirun -n $P: exit $?, $w s; $(grep -e 'rank [0-9]' -e seconds "$WK/out/mpi$P.log" | tr '\n' ';')"
            grep -e 'EXACTGEO: rank' -e 'mca\|btl\|WARNING' "$WK/out/mpi$P.log" | head -n 20
            row "inside, mpirun -n $P, $th threads each" "$g" "$w" "$WK/out/mpi$P.json" "-"
            dp=$(digest "$WK/out/mpi$P.gpkg")
            [ -n "$dp" ] && [ "$dp" = "$d1" ] && say "mpirun -n $P: the single run's rows (digest $dp)" ||
                say "mpirun -n $P: rows DIFFER from the single run's: '$dp' against '$d1'"
            rm -f "$WK/out/mpi$P.gpkg"
        done
        rm -f "$WK/out/inside.gpkg"
        ;;
    *) say "unknown case $c" ;;
    esac
done

{
    echo "engine $ENGINE, options '${OPTS}', $(nproc) cores; disk write floor $DD"
    echo "| run | make inputs s | wall s | read | compute | write | close | rows out | read floor (Arrow) s |"
    echo "|---|---|---|---|---|---|---|---|---|"
    cat "$WK/table"
} > "$WK/out/table.md"
cat "$WK/out/table.md"
if [ -n "${OUT:-}" ]; then
    cp "$WK/out/table.md" "$WK/out/"*.json "$WK/out/"*.log "$OUT/" 2> /dev/null
fi
say "done"
