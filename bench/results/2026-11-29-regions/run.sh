#!/bin/sh
# run.sh -- issue 34 part 1: --regions N in one process against the single
# run, end to end through files, on the bench_e2e inputs (2-core VM):
# wall, peak RSS (/usr/bin/time), the summary's stages; ROUNDS rounds,
# the configurations alternated within each.  Usage: run.sh TREE [ROUNDS]
T=${1:?tree}; ROUNDS=${2:-3}
D=/tmp/xg_e2e; W=/usr/share/qgis/resources/data/world_map.gpkg
O=$(mktemp -d)
X="$T/exactgeo"
cases='outside|inside -outside -overwrite OUT D/blocks-2000000.gpkg D/bodies8.gpkg
blocks|inside -bcopy rock_type -overwrite OUT D/blocks-2000000.gpkg D/bodies8.gpkg
world|redblue -al countries -bl states_provinces -overwrite OUT W W
five|inside -overwrite OUT T/data/blocks.gpkg T/data/orebodies.gpkg'
echo "| case | regions | round | wall s | peak RSS MB | read | compute | write | close | same |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
    echo "$cases" | while IFS='|' read -r name args; do
        a=$(echo "$args" | sed "s#D/#$D/#g; s# W# $W#g; s#T/#$T/#g")
        case $name in five) rs="0 1000" ;; *) rs="0 1 4 8" ;; esac
        for r in $rs; do
            out=$O/$name-$r.gpkg
            ra=; [ "$r" = 0 ] || ra="--regions $r"
            /usr/bin/time -f "%e %M" -o $O/time $X $(echo "$a" | sed "s#OUT#$out#") $ra > $O/sum 2>$O/err
            set -- $(cat $O/time)
            st=$(sed -n 's/.*seconds: read \([^,]*\), compute \([^,]*\), write \([^,]*\), close \(.*\)/\1 | \2 | \3 | \4/p' $O/sum | head -1)
            if [ "$r" = 0 ]; then "$T/tests/ogrdump" $out > $O/$name.ref; same=ref
            else "$T/tests/ogrdump" $out | cmp -s - $O/$name.ref && same=yes || same=NO; fi
            echo "| $name | $r | $round | $1 | $(($2 / 1024)) | $st | $same |"
        done
    done
done
rm -rf "$O"
