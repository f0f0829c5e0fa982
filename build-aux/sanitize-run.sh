#!/bin/sh
# sanitize-run.sh -- runs one test of a --enable-sanitize build and judges
# what the sanitizers found (Makefile.am's LOG_COMPILER there; `make
# check-sanitize` makes such a build in build-asan/).
#   usage: sanitize-run.sh LIBASAN PROGRAM [ARGS...]
#
# The ASan runtime is preloaded into every process of the test: shell
# tests start programs that are not built with the sanitizers (ogrinfo,
# ogr2ogr, python3, qgis_process) and load our plugin into them, and the
# runtime must come first in such a process.  Each process writes its
# ASan and LSan reports to a file named after its program, not to the
# test's stderr (which tests check), and a leak does not change its exit
# status (tests check that too).  A memory error or a UBSan finding
# aborts the program (abort_on_error; -fno-sanitize-recover=undefined at
# build time), which fails its test; UBSan's report goes to stderr (GCC
# 12's UBSan ignores log_path).  After the test, these reports fail it (a
# TAP "Bail out!", with the report in the test's log):
#   - any memory error, in any program;
#   - a leak in a program built in this tree (the tool, the test
#     programs, ogrdump), whose code is all ours or runs ours in-process.
# A leak in any other program is listed and ignored: they leak on their
# own on Debian 12 (coreutils' sort, cp, tr, tail, mktemp; sed; bash;
# ogr2ogr 5 bytes from CPLMalloc; python3 and GDAL's SWIG modules;
# qgis_process 2.7 MB at --version), with stacks that cannot be told
# apart from a leak of our plugin loaded into them.  So our plugin's
# leaks are judged where it runs in our own programs and in the C tests
# (xgo_t drives the same job code); in a foreign host only its memory
# errors are.  QGIS's exit scan for leaks takes 20 s to 14 minutes a run
# (838 s for one of docs_t's blocks, loaded), for leaks never judged: a
# qgis_process.bin placed first on PATH starts the real one without it,
# whichever test runs QGIS; in tests named *qgis* (which load QGIS into
# python3) leak detection is off altogether.  No suppressions file.
# XG_SANITIZE is set, for tests that cannot run under ASan (valgrind).
libasan=$1
shift
reports=$(mktemp -d "${TMPDIR:-/tmp}/xg-sanitize.XXXXXX") || exit 99
leaks=1
# docs_t: its python3 block (docs/gdal-qgis.md, our plugin in
# /usr/bin/python3) had LeakSanitizer's own tracer crash at exit ("Tracer
# caught signal 11 ... LeakSanitizer has encountered a fatal error") in 2
# of 2 whole docs_t runs on 29 November, never in 25 runs of the block
# alone: a python3 leak check is never judged here anyway, and python3 is
# called by its path, past any wrapper.  The tool's and the plugin's
# leaks stay judged in every other test that runs the same code.
case "$*" in *qgis*|*docs_t*) leaks=0 ;; esac
qgis=$(command -v qgis_process.bin)
if [ -n "$qgis" ]; then
    mkdir "$reports/bin"
    printf '#!/bin/sh\nASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" exec %s "$@"\n' \
        "$qgis" > "$reports/bin/qgis_process.bin"
    chmod +x "$reports/bin/qgis_process.bin"
    PATH=$reports/bin:$PATH
fi
env XG_SANITIZE=address,undefined \
    LD_PRELOAD="$libasan${LD_PRELOAD:+:$LD_PRELOAD}" \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$leaks:exitcode=0:abort_on_error=1:log_path=$reports/asan:log_exe_name=1" \
    UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1:abort_on_error=1" \
    "$@"
status=$?
bad=0
ignored=
for r in "$reports"/*; do
    [ -f "$r" ] || continue
    name=${r##*/}               # asan.PROGRAM.PID
    pid=${name##*.}
    prog=${name#*.}
    prog=${prog%.*}
    if grep -q 'ERROR: LeakSanitizer' "$r" &&
       ! grep -q 'ERROR: AddressSanitizer' "$r" &&
       [ -z "$(find "${top_builddir:-.}" -name "$prog" -type f 2>/dev/null | head -n 1)" ]; then
        ignored="$ignored $prog"
        continue
    fi
    bad=$((bad + 1))
    echo "# sanitizers: report from $prog (pid $pid):"
    sed 's/^/# /' "$r"
done
rm -rf "$reports"
[ -z "$ignored" ] ||
    echo "# sanitizers: leaks ignored in programs not built here:" \
        $(echo $ignored | tr ' ' '\n' | sort | uniq -c | awk '{ print $2 " (" $1 ")" }')
if [ "$bad" -ne 0 ]; then
    echo "Bail out! $bad sanitizer report(s), above"
    exit 1
fi
exit "$status"
