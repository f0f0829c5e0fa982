#!/bin/sh
# Sums the assertions of every TAP test (automake writes one
# ":test-result:" line per assertion into each .trs file) and prints the
# total on one line: "N passed, N failed, N skipped".
pass=0 fail=0 skip=0
for f in "$@"; do
    [ -f "$f" ] || continue
    p=$(grep -c '^:test-result: PASS' "$f"); pass=$((pass + p))
    x=$(grep -c '^:test-result: XFAIL' "$f"); pass=$((pass + x))
    q=$(grep -c -E '^:test-result: (FAIL|XPASS|ERROR)' "$f"); fail=$((fail + q))
    s=$(grep -c '^:test-result: SKIP' "$f"); skip=$((skip + s))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
