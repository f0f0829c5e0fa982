#!/bin/bash
# Issue 32, branch gpuhost: on the build machine, packs ab.c built against
# two trees (NEW, default this tree; BASE, default /work/wt/fix31 =
# 870268c), each tree's libexactgeo.so.0 and gen_paper into
# .carry/ab/ (ignored by git), for ab.sh on the GPU machine.
#   NEW=/work/main bash bench/results/2026-11-28-gpuhost/ab_prep.sh
set -e
D=$(cd "$(dirname "$0")" && pwd)
R=$(cd "$D/../../.." && pwd)
NEW=${NEW:-$R}
BASE=${BASE:-/work/wt/fix31}
C=$R/.carry/ab
rm -rf "$C"
mkdir -p "$C/new" "$C/base"
for t in new base; do
    Tr=$NEW; [ $t = base ] && Tr=$BASE
    gcc -std=c11 -O2 -Wall -Wextra -I"$Tr/src" -I"$R/bench" "$D/ab.c" \
        -L"$Tr/src/.libs" -lexactgeo -lm -o "$C/$t/ab"
    cp -L "$Tr/src/.libs/libexactgeo.so.0" "$C/$t/"
    git -C "$Tr" rev-parse --short HEAD > "$C/$t/commit"
    git -C "$Tr" status --porcelain --untracked-files=no | wc -l \
        > "$C/$t/changed"
done
cp "$NEW/bench/gen_paper" "$C/"
strip "$C"/*/ab "$C"/*/libexactgeo.so.0 "$C/gen_paper"
du -sh "$C"
