#!/bin/sh
# docs_t.sh -- every shell command of README.md and docs/*.md is run, so
# that the docs cannot rot.  TAP, one assertion per block (and one more
# per shown output), named by file and line.
#
# The conventions (docs/testing.md, "The documentation's commands"):
#   ```sh ... ```      a block of commands, run with `set -e` in a fresh
#                      temporary folder laid out like the source folder
#                      after ./setup.sh: a copy of data/, an empty out/,
#                      the built exactgeo (also on PATH), bench/ with the
#                      built programs and run.sh, src/ and ogr_driver/
#                      (the build's, for the GDAL plugin); HOME inside it;
#   ```output ... ```  right after an sh block: lines the block prints, in
#                      a row (stdout and stderr together); only the
#                      seconds and the engine's thread count may differ;
#   # needs: NEED      first line of a block that cannot always run:
#                      ci (compared with .ci/run), build-folder, root and
#                      cluster (Slurm; not run; make targets and programs
#                      must exist), gdal, qgis, gpu, mpi (an MPI build
#                      and mpirun; skipped without them), slow
#                      (skipped unless XG_DOCS_SLOW=1).
# Each block's seconds follow it as a TAP comment (# FILE:LINE: N s).
# A command-looking line anywhere else (indented, after a `$ ` prompt, or
# in a fence of another language) is an error: it would not be run.
#   XG_DOCS="/abs/a.md /abs/b.md" checks those files instead.
: "${top_srcdir:=.}" "${top_builddir:=.}"
S=$(cd "$top_srcdir" && pwd)
B=$(cd "$top_builddir" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/xg_docs.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
n=0
fail=0
ok() {  # ok STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
skip() {  # skip DESCRIPTION REASON
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}

docs=${XG_DOCS:-}
if [ -z "$docs" ]; then
    docs="$S/README.md"
    for f in "$S"/docs/*.md; do [ -f "$f" ] && docs="$docs $f"; done
fi

# Split the docs: W/b/K.sh (a block), K.where (file:line), K.needs,
# K.out (its shown output); W/stray lists the commands outside sh blocks.
mkdir "$W/b"
for f in $docs; do
    rel=${f#"$S"/}
    awk -v rel="$rel" -v dir="$W/b" -v stray="$W/stray" '
    function cmdlike(s) {
        sub(/^[ \t]*(\$ +)?/, "", s)
        return s ~ /^(\.\/|exactgeo |ogr2ogr |ogrinfo |make |bench\/|sudo |apt-get |qgis_process|python3 |\/usr\/bin\/python3|export |cd |sh |bash )/
    }
    BEGIN { k = 0; while ((getline l < (dir "/count")) > 0) k = l + 0; fence = ""; after = 0 }
    /^```/ {
        if (fence == "") {
            info = substr($0, 4); gsub(/[ \t]/, "", info)
            if (info == "sh") {
                k++; fence = "sh"; first = 1
                print rel ":" FNR > (dir "/" k ".where"); close(dir "/" k ".where")
                printf "" > (dir "/" k ".sh")
            } else if (info == "output") {
                fence = "output"
                if (!after) print rel ":" FNR ": an output block not right after an sh block" >> stray
                else printf "" > (dir "/" k ".out")
                outk = after ? k : 0
            } else if (info == "") {
                fence = "?"
                print rel ":" FNR ": a fence without a language (sh, output, c, text, ...)" >> stray
            } else fence = info
            after = 0
        } else {
            after = (fence == "sh"); fence = ""
        }
        next
    }
    fence == "sh" {
        if (first && $0 ~ /^# needs: /) { v = $0; sub(/^# needs: */, "", v); print v > (dir "/" k ".needs"); close(dir "/" k ".needs") }
        first = 0
        print >> (dir "/" k ".sh"); next
    }
    fence == "output" { if (outk) print >> (dir "/" outk ".out"); next }
    fence != "" { if (cmdlike($0)) print rel ":" FNR ": a command outside an sh block: " $0 >> stray; next }
    /^[ \t]*$/ { next }
    { after = 0 }
    (/^(    |\t)/ || /^\$ /) && cmdlike($0) { print rel ":" FNR ": a command outside an sh block: " $0 >> stray }
    END { print k > (dir "/count") }
    ' "$f"
done

if [ -s "$W/stray" ]; then
    sed 's/^/# /' "$W/stray"
    ok 1 "every command of the docs is in an sh block"
else
    ok 0 "every command of the docs is in an sh block"
fi

# The commands of a block or a script, one a line: no comments, no blanks.
commands() {
    sed -e 's/[ \t]#.*$//' -e '/^[ \t]*#/d' -e '/^[ \t]*$/d' -e 's/[ \t]*$//' "$1"
}

# The README's set-up block is what CI runs (.ci/run, less its set and cd).
cib=$(grep -l '^ci$' "$W"/b/*.needs 2>/dev/null)
if [ "$(echo "$cib" | grep -c .)" -ne 1 ]; then
    ok 1 "exactly one set-up block (# needs: ci) in the docs"
else
    k=$(basename "$cib" .needs)
    commands "$W/b/$k.sh" > "$W/ci.doc"
    commands "$S/.ci/run" | grep -v -e '^set ' -e '^cd ' > "$W/ci.run"
    [ -s "$W/ci.doc" ] && cmp -s "$W/ci.doc" "$W/ci.run" ||
        { diff "$W/ci.doc" "$W/ci.run" | sed 's/^/# /'; false; }
    ok $? "$(cat "$W/b/$k.where"): the set-up block runs what .ci/run runs"
fi

# Lines of a block not to be run: every make target must be a target of
# the build's Makefile; in build-folder blocks, every other program must
# exist in the build folder or on PATH.
static_check() {  # static_check BLOCK NEED
    st=0 need=$2
    commands "$1" | sed 's/&&/\n/g' > "$W/static"
    while read -r line; do
        set -f; set -- $line; set +f
        while [ $# -gt 0 ] && case $1 in *=*) true ;; *) false ;; esac; do shift; done
        [ $# -eq 0 ] && continue
        prog=$1; shift
        if [ "$prog" = make ]; then
            for t in "$@"; do
                case $t in -*|*=*) continue ;; esac
                grep -q "^$t:" "$B/Makefile" ||
                    { echo "# make target '$t' not in $B/Makefile"; st=1; }
            done
        elif [ "$need" = build-folder ]; then
            case $prog in
                */*) found=0
                     for p in "$B"/$prog; do [ -e "$p" ] && found=1; done
                     for a in "$@"; do case $a in */*)
                         for p in "$B"/$a; do [ -e "$p" ] || { echo "# $a: not in the build folder"; st=1; }; done ;;
                     esac; done
                     [ $found -eq 1 ] || { echo "# $prog: not in the build folder"; st=1; } ;;
                *) command -v "$prog" >/dev/null || { echo "# $prog: not on PATH"; st=1; } ;;
            esac
        fi
    done < "$W/static"
    return $st
}

# A fresh folder laid out like the source folder after ./setup.sh.
prepare() {  # prepare DIR
    mkdir -p "$1/out" "$1/bin" "$1/bench" "$1/home"
    cp -R "$S/data" "$1/data"
    ln -s "$B/exactgeo" "$1/exactgeo"
    ln -s "$B/exactgeo" "$1/bin/exactgeo"
    ln -s "$B/src" "$1/src"
    ln -s "$B/ogr_driver" "$1/ogr_driver"
    for p in "$B"/bench/* "$S"/bench/run.sh; do
        [ -f "$p" ] && [ -x "$p" ] && ln -sf "$p" "$1/bench/"
    done
}

# Normalised output: the seconds and the engine's thread count vary.
normal() {
    sed -e '/^  seconds: /s/[0-9][0-9.]*/#/g' \
        -e 's/engine [a-z]*, [0-9]* threads*,/engine E, N threads,/' "$1"
}

# In a test build (configure --enable-test-ops, XG_TEST_OPS=yes), prints
# the first test operation (tests/op/NAME.c) that GOT names as a word and
# WANT does not, and succeeds; fails otherwise.  The docs show the
# product's outputs: a list of operations there differs in a test build
# by that operation alone, which is no fault of the docs.
test_op_in() {  # test_op_in GOT WANT
    [ "${XG_TEST_OPS:-no}" = yes ] || return 1
    for t in "$S"/tests/op/*.c; do
        t=$(basename "$t" .c)
        if grep -qw "$t" "$1" && ! grep -qw "$t" "$2"; then
            echo "$t"
            return 0
        fi
    done
    return 1
}

plugin=$B/ogr_driver/.libs/ogr_EXACTGEO.so
qp=$(command -v qgis_process.bin || command -v qgis_process)
k=0
count=$(cat "$W/b/count" 2>/dev/null || echo 0)
while [ $k -lt "$count" ]; do
    k=$((k + 1))
    where=$(cat "$W/b/$k.where")
    needs=$(cat "$W/b/$k.needs" 2>/dev/null)
    case $needs in
        ci) continue ;;
        build-folder|root|cluster)
            static_check "$W/b/$k.sh" "$needs"
            st=$?
            if [ $st -eq 0 ]; then
                skip "$where: its make targets and programs exist" "not run: $needs (make check and CI run it)"
            else
                ok 1 "$where: its make targets and programs exist"
            fi
            continue ;;
        gpu)
            if [ ! -x "$B/bench/bench_gpu" ] || ! nvidia-smi -L >/dev/null 2>&1; then
                skip "$where" "needs a CUDA build and a GPU"; continue
            fi ;;
        mpi)
            # as root, Open MPI's mpirun wants these; a 2-core machine
            # runs 4 ranks only oversubscribed
            export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
            export OMPI_MCA_rmaps_base_oversubscribe=1
            if [ "${XG_MPI:-yes}" != yes ] ||
                ! command -v mpirun >/dev/null 2>&1 ||
                ! mpirun -n 2 "$B/exactgeo" --version >/dev/null 2>&1; then
                skip "$where" "needs an MPI build and mpirun"; continue
            fi ;;
        slow)
            if [ "${XG_DOCS_SLOW:-0}" != 1 ]; then
                skip "$where" "slow (XG_DOCS_SLOW=1 runs it)"; continue
            fi ;;
        gdal)
            if [ ! -f "$plugin" ]; then skip "$where" "no GDAL plugin built"; continue; fi ;;
        qgis)
            if [ -z "$qp" ] || [ ! -f "$plugin" ]; then skip "$where" "QGIS (qgis_process) not installed"; continue; fi ;;
        "") ;;
        *) ok 1 "$where: unknown need '$needs'"; continue ;;
    esac
    d=$W/run$k
    t0=$(date +%s)
    prepare "$d"
    (
        cd "$d" || exit 1
        HOME=$d/home PATH=$d/bin:$PATH
        export HOME PATH
        case $needs in
            gdal|qgis)
                GDAL_DRIVER_PATH=$B/ogr_driver/.libs
                LD_LIBRARY_PATH=$B/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
                export GDAL_DRIVER_PATH LD_LIBRARY_PATH ;;
        esac
        if [ "$needs" = qgis ]; then
            # what `make install-qgis` does, into a private profile
            XDG_DATA_HOME=$d/xdg XDG_RUNTIME_DIR=$d QT_QPA_PLATFORM=offscreen EXACTGEO_TOOL=$B/exactgeo
            export XDG_DATA_HOME XDG_RUNTIME_DIR QT_QPA_PLATFORM EXACTGEO_TOOL
            P=$XDG_DATA_HOME/QGIS/QGIS3/profiles/default/python/plugins/exactgeo
            mkdir -p "$P" && cp "$S"/qgis/exactgeo/*.py "$S"/qgis/exactgeo/metadata.txt "$P/" &&
                "$qp" plugins enable exactgeo > /dev/null 2>&1 || exit 1
        fi
        { echo "set -e"; cat "$W/b/$k.sh"; } > "$d/block.sh"
        exec sh "$d/block.sh"
    ) > "$W/$k.log" 2>&1
    st=$?
    echo "# $where: $(( $(date +%s) - t0 )) s"
    [ $st -ne 0 ] && { echo "# exit status $st; last lines:"; tail -8 "$W/$k.log" | sed 's/^/#   /'; }
    ok $st "$where: runs"
    if [ -f "$W/b/$k.out" ]; then
        normal "$W/b/$k.out" > "$W/$k.want"
        normal "$W/$k.log" > "$W/$k.got"
        awk -v want="$W/$k.want" '
            BEGIN { m = 0; while ((getline l < want) > 0) w[++m] = l; if (!m) exit 1 }
            { g[++n] = $0 }
            END {
                for (s = 1; s + m - 1 <= n; s++) {
                    for (i = 1; i <= m && g[s + i - 1] == w[i]; i++) ;
                    if (i > m) exit 0
                }
                exit 1
            }' "$W/$k.got"
        st=$?
        if [ $st -ne 0 ] && extra=$(test_op_in "$W/$k.got" "$W/$k.want"); then
            skip "$where: prints the output the doc shows" \
                "a test build (--enable-test-ops) also lists its test operation $extra"
            continue
        fi
        [ $st -ne 0 ] && { echo "# shown output not printed; it printed:"; head -20 "$W/$k.log" | sed 's/^/#   /'; }
        ok $st "$where: prints the output the doc shows"
    fi
done

echo "1..$n"
exit $fail
