#!/bin/sh
# ops_cli_t.sh -- the operation table as the front ends show it: the
# tool's --operations (JSON, what the QGIS provider reads), its --help and
# its unknown-operation message list the same operations, each accepted
# as a sub-command and as op= of a connection string; and a bad run option
# gets the same message from the tool and from EXACTGEO: (one parser).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=opscli
. "$top_srcdir/tests/cli_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }

"$XG" --operations > ops.json; rc=$?
python3 - ops.json > names.txt <<'PY'
import json, sys
ops = json.load(open(sys.argv[1]))['operations']
for op in ops:
    assert op['dim'] in (2, 3)
    assert all(i['geometry'] for i in op['inputs'])
    assert op['verify'] in (True, False)
    if op['output'] == ['polygon']:     # triangles of one input's points
        a, = op['inputs']
        assert a['role'] == 'A' and a['field'] is None
        assert op['fields'] == ['v0', 'v1', 'v2'] and op['kinds'] == []
        print(op['name'])
        continue
    a, b = op['inputs']
    assert a['role'] == 'A' and b['role'] == 'B'
    # an input without an index field (field null) adds no output field
    assert op['fields'] == [f for f in ('a_fid', a['field'], 'b_fid',
                                        b['field'], 'kind') if f is not None]
    assert a['field'] is not None
    assert len(op['kinds']) == 3 and len(set(op['kinds'])) == 3
    print(op['name'])
PY
[ $rc -eq 0 ] && [ $? -eq 0 ] && [ -s names.txt ]
ok $? "--operations: valid JSON, every entry with its inputs, kinds and fields ($(tr '\n' ' ' < names.txt))"
printf 'segtri\nredblue\ninside\ndelaunay\n' | cmp -s - names.txt
ok $? "--operations lists segtri, redblue, inside and delaunay, in the table's order"
python3 - ops.json <<'PY'
import json, sys
ops = {op['name']: op for op in json.load(open(sys.argv[1]))['operations']}
d = ops['delaunay']
assert [i['geometry'] for i in d['inputs']] == [['point']] and d['dim'] == 2
assert d['output'] == ['polygon'] and d['verify'] is True
assert not any(ops[n]['verify'] for n in ('segtri', 'redblue', 'inside'))
PY
ok $? "--operations: delaunay takes one input of points, gives polygons, has --verify; the others have no check"
python3 - ops.json <<'PY'
import json, sys
ops = {op['name']: op for op in json.load(open(sys.argv[1]))['operations']}
assert ops['segtri']['kinds'] == ['proper', 'touch', 'coplanar']
assert ops['redblue']['kinds'] == ['proper', 'touch', 'overlap']
assert ops['inside']['kinds'] == ['inside', 'boundary', 'outside']
assert ops['segtri']['fields'] == ['a_fid', 'a_seg', 'b_fid', 'b_tri', 'kind']
assert ops['inside']['fields'] == ['a_fid', 'a_part', 'b_fid', 'kind']
assert ops['inside']['inputs'][1]['field'] is None
assert [i['geometry'] for i in ops['inside']['inputs']] == [['point'], ['polygon']]
PY
ok $? "--operations: each operation's own kinds and fields (inside: no B index field, points and polygons)"
python3 - ops.json <<'PY'
import json, sys
ops = {op['name']: op for op in json.load(open(sys.argv[1]))['operations']}
assert ops['segtri']['output'] == ops['redblue']['output'] == ['point', 'line']
assert ops['inside']['output'] == ['point']
assert [i['closed'] for n in ('segtri', 'redblue', 'inside')
        for i in ops[n]['inputs']] == [False] * 5 + [True]
PY
ok $? "--operations: the records' geometries (output) and the inputs that must be closed (closed), as QGIS reads them"

"$XG" --help > help.txt
sed -n 's/^\(Usage:\)\{0,1\} *exactgeo \([a-z0-9_]*\) *\[options\].*/\2/p' help.txt > usage.txt
cmp -s names.txt usage.txt
ok $? "--help: one usage line per operation of the table, same order"
sed -n 's/^\([a-z0-9_]*\): .*/\1/p' help.txt > summary.txt
cmp -s names.txt summary.txt
ok $? "--help: one summary line per operation of the table"

"$XG" nosuchop x y z 2> err.txt; rc=$?
want="exactgeo: unknown operation 'nosuchop' (expected $(python3 -c '
import sys; n = sys.stdin.read().split()
print(", ".join(n[:-1]) + " or " + n[-1] if len(n) > 1 else n[0])' < names.txt))"
[ $rc -eq 2 ] && [ "$(head -1 err.txt)" = "$want" ]
ok $? "an unknown operation names every operation: '$(head -1 err.txt)'"
all=0
while read -r op; do
    "$XG" "$op" 2> err.txt
    [ $? -eq 2 ] && grep -q "expected DST [A-Z_]*SRC" err.txt || all=1
done < names.txt
grep -q '^       exactgeo delaunay *\[options\] DST POINTS_SRC$' help.txt || all=1
ok $all "every operation of the table is a sub-command (delaunay: DST POINTS_SRC)"

# The same bad values through the tool and through EXACTGEO: (the GDAL
# plugin, when built): the tool prefixes the option typed.
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" 2>/dev/null && pwd)
export GDAL_DRIVER_PATH
fixture_holes hole
gpkg a.gpkg a.geojson
gpkg b.gpkg b.geojson
for case in "--grid grid 0" "--grid grid 10,20" "--threads threads -1" \
            "--engine engine fast" "-acopy acopy ," "-bcopy bcopy ,," \
            "-outside outside yes" "-skip-invalid skip_invalid yes"; do
    eval "set -- $case"
    case $1 in  # flags take no value
    -outside|-skip-invalid) "$XG" segtri "$1" new.gpkg a.gpkg b.gpkg 2> err.txt; rc=$? ;;
    *) "$XG" segtri "$1" "$3" new.gpkg a.gpkg b.gpkg 2> err.txt; rc=$? ;;
    esac
    cli=$(head -1 err.txt)
    ogrinfo -ro -so -al "EXACTGEO:op=segtri;a=a.gpkg;b=b.gpkg;$2=$3" > /dev/null 2> err.txt
    conn=$(grep -o 'EXACTGEO: .*' err.txt | head -1)
    [ $rc -eq 2 ] && [ -n "${cli#exactgeo: $1: }" ] &&
        [ "exactgeo: $1: ${conn#EXACTGEO: }" = "$cli" ]
    ok $? "$1 $3 and $2=$3: the same message ('$cli', '$conn')"
done
echo "1..$n"
exit $failed
