#!/bin/sh
# Sums the assertions of every TAP test (automake writes one
# ":test-result:" line per assertion into each .trs file) and prints the
# total on one line: "N passed, N failed, N skipped".  A test with no
# .trs file (it could not be run) counts as one failure.  Exits 1 when
# anything failed: `make check` runs this even after a failed test run
# (Makefile.am), so this exit status is what fails it.
pass=0 fail=0 skip=0
for f in "$@"; do
    if [ ! -f "$f" ]; then
        echo "no result for ${f%.trs}" >&2
        fail=$((fail + 1))
        continue
    fi
    p=$(grep -c '^:test-result: PASS' "$f"); pass=$((pass + p))
    x=$(grep -c '^:test-result: XFAIL' "$f"); pass=$((pass + x))
    q=$(grep -c -E '^:test-result: (FAIL|XPASS|ERROR)' "$f"); fail=$((fail + q))
    s=$(grep -c '^:test-result: SKIP' "$f"); skip=$((skip + s))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
