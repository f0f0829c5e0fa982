#!/bin/sh
# total_t.sh -- `make check` closes with its one-line total even when a
# test fails, and still fails: this build's own check target, run on two
# small fixture tests (one failing), must print "2 passed, 1 failed,
# 0 skipped" as its last line and exit non-zero; on the passing fixture
# alone, "1 passed, 0 failed, 0 skipped" and exit 0; a missing result
# is a failure.  TAP.
: "${top_srcdir:=.}" "${top_builddir:=.}"
if ! command -v "${MAKE:-make}" >/dev/null || [ ! -f "$top_builddir/Makefile" ]; then
    echo "1..0 # SKIP no make or no configured build"
    exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '#!/bin/sh\necho 1..2\necho "ok 1 - fine"\necho "not ok 2 - broken"\n' > "$T/fail_t.sh"
printf '#!/bin/sh\necho 1..1\necho "ok 1 - fine"\n' > "$T/pass_t.sh"

n=0 fail=0
check() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

# The nested make is a make of its own: not the jobs of the running one,
# and not under the sanitizer build's preloaded runtime (make is not
# what is tested; its fixtures still run as that build runs its tests).
run() {     # run TESTS...: make check on those, stdout in $T/out
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u LD_PRELOAD -u ASAN_OPTIONS \
        -u UBSAN_OPTIONS "${MAKE:-make}" -s -C "$top_builddir" check \
        TESTS="$*" TEST_SUITE_LOG="$T/suite.log" > "$T/out" 2> "$T/err"
}

run "$T/fail_t.sh" "$T/pass_t.sh"
rc=$?
[ $rc -ne 0 ]
check $? "make check fails when a test fails (status $rc)"
last=$(grep -v '^make' "$T/out" | tail -n 1)
[ "$last" = "2 passed, 1 failed, 0 skipped" ]
check $? "and still closes with the total: '$last'"
grep -q '^FAIL: .*fail_t.sh 2 - broken' "$T/out"
check $? "the failing assertion is named"
[ $rc -ne 0 ] && [ "$last" = "2 passed, 1 failed, 0 skipped" ] ||
    { sed 's/^/# /' "$T/out" "$T/err" | tail -20; }

run "$T/pass_t.sh"
rc=$?
last=$(grep -v '^make' "$T/out" | tail -n 1)
[ $rc -eq 0 ] && [ "$last" = "1 passed, 0 failed, 0 skipped" ]
check $? "a passing run exits 0 with '$last'"

# A test that left no result (it could not run) is a failure, not nothing.
out=$(sh "$top_srcdir/build-aux/tap-total.sh" "$T/pass_t.trs" "$T/gone_t.trs" 2>/dev/null)
rc=$?
[ $rc -ne 0 ] && [ "$out" = "1 passed, 1 failed, 0 skipped" ]
check $? "a missing result counts as a failure: '$out' (status $rc)"

echo "1..$n"
exit $fail
