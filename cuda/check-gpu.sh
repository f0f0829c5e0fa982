#!/bin/sh
# cuda/check-gpu.sh -- the GPU tests (make check-gpu): the TAP program,
# then the same under compute-sanitizer's memcheck when it is there
# (without the paper-scale set, which would take minutes under it).
#   cuda/check-gpu.sh tests/gpu_t
set -u
prog=${1:-tests/gpu_t}
status=0
"$prog" || status=1
cs=$(command -v compute-sanitizer || true)
[ -z "$cs" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && \
    cs=/usr/local/cuda/bin/compute-sanitizer
if [ -n "$cs" ]; then
    XG_PAPER_DUMP= XG_GPU_T_SMALL=1 "$cs" --tool memcheck --leak-check full --error-exitcode 9 \
        "$prog" >/dev/null 2>sanitizer.log
    rc=$?
    tail -n 3 sanitizer.log
    if [ $rc -eq 0 ]; then
        echo "compute-sanitizer memcheck: clean"
    else
        echo "compute-sanitizer memcheck: FAILED (exit $rc, see sanitizer.log)"
        status=1
    fi
else
    echo "compute-sanitizer not found: memcheck skipped"
fi
exit $status
