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
    # an input without an index field (field null) adds no output field;
    # records without kinds (lines: boxmeet, a test operation) no kind
    kind = 'kind' if op['kinds'] else None
    assert op['fields'] == [f for f in ('a_fid', a['field'], 'b_fid',
                                        b['field'], kind) if f is not None]
    assert a['field'] is not None
    assert len(op['kinds']) in (0, 3) and \
        len(set(op['kinds'])) == len(op['kinds'])
    print(op['name'])
PY
[ $rc -eq 0 ] && [ $? -eq 0 ] && [ -s names.txt ]
ok $? "--operations: valid JSON, every entry with its inputs, kinds and fields ($(tr '\n' ' ' < names.txt))"
# a test build (configure --enable-test-ops) lists its test operation
# (boxmeet, tests/op/) after the product's
printf 'segtri\nredblue\ninside\ndelaunay\n' | cmp -s - names.txt ||
    printf 'segtri\nredblue\ninside\ndelaunay\nboxmeet\n' | cmp -s - names.txt
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

# Issue 31, item 9: the help and the advice for refused ogr2ogr options
# are each operation's own (from its table entry), never another's.
refused() {  # refused OP OPTION: the advice's text, after "not supported: "
    "$XG" "$1" "$2" x y z 2> err.txt
    [ $? -eq 2 ] && sed -n "s/^exactgeo: $2 is not supported: //p" err.txt
}
all=0
for op in segtri redblue inside delaunay; do
    why=$(refused $op -nlt)
    case $op in
    segtri) echo "$why" | grep -q 'PointZ' && echo "$why" | grep -q 'LineStringZ .*coplanar' ;;
    redblue) echo "$why" | grep -q 'Point ' && echo "$why" | grep -q 'LineString .*overlap' ;;
    inside) echo "$why" | grep -q 'PointZ' && ! echo "$why" | grep -qi 'line' ;;
    delaunay) echo "$why" | grep -q 'Polygon' && echo "$why" | grep -q 'TIN' && ! echo "$why" | grep -qi 'line' ;;
    esac || { all=1; echo "# $op -nlt: $why"; }
done
ok $all "-nlt: each operation's own output (inside: points only; delaunay: polygons or a TIN, no lines)"
why=$(refused delaunay -select)
echo "$why" | grep -q 'v0, v1, v2' && ! echo "$why" | grep -q -e '-acopy' -e '-bcopy' &&
    [ "$(refused segtri -select)" = "use -acopy/-bcopy to choose the fields copied" ] &&
    [ "$(refused inside -select)" = "use -acopy/-bcopy to choose the fields copied" ]
ok $? "-select: delaunay copies no fields, join on v0, v1, v2 ('$why'); segtri and inside: -acopy/-bcopy"
all=0
for o in -clipsrc -clipdst -sql -dialect -spat_srs -skipfailures; do
    why=$(refused delaunay $o)
    [ -n "$why" ] && ! echo "$why" | grep -q -e '-bspat' -e '-bwhere' -e 'inputs' || { all=1; echo "# delaunay $o: $why"; }
done
[ "$(refused delaunay -clipsrc)" = "use -spat for a box, or clip with ogr2ogr first" ] &&
    [ "$(refused segtri -clipsrc)" = "use -spat/-bspat for a box, or clip with ogr2ogr first" ] || all=1
ok $all "-clipsrc, -clipdst, -sql, -dialect, -spat_srs, -skipfailures: delaunay (one input) is never told of B's options"
all=0
for op in segtri redblue inside delaunay; do
    why=$(refused $op -explodecollections)
    case $op in
    segtri) echo "$why" | grep -q 'a_seg' && echo "$why" | grep -q 'b_tri' ;;
    redblue) echo "$why" | grep -q 'a_seg' && echo "$why" | grep -q 'b_seg' ;;
    inside) echo "$why" | grep -q 'a_part' && ! echo "$why" | grep -q '_seg' ;;
    delaunay) echo "$why" | grep -q 'v0_part' && ! echo "$why" | grep -q -e 'a_seg' -e 'a_part' ;;
    esac || { all=1; echo "# $op -explodecollections: $why"; }
done
ok $all "-explodecollections: each operation's own index fields (delaunay: v0_part, no a_seg)"
why=$(refused delaunay -preserve_fid)
echo "$why" | grep -q 'v0, v1, v2' && ! echo "$why" | grep -q 'b_fid' &&
    refused inside -skipfailures | grep -q -- '-skip-invalid' &&
    ! refused segtri -skipfailures | grep -q -- '-skip-invalid'
ok $? "-preserve_fid (delaunay: v0, v1, v2) and -skipfailures (inside: -skip-invalid) per operation"

# --help: -nln's default is each operation's, the layer it writes
"$XG" --help > help.txt
grep -A2 -e '^  -nln NAME' help.txt | tr '\n' ' ' | tr -s ' ' |
    grep -q 'default: contacts for segtri, redblue, inside; triangles for delaunay'
ok $? "--help: -nln's default per operation ($(grep -A1 -e '^  -nln' help.txt | tr -s ' ' | tr '\n' ' '))"
awk 'BEGIN { printf "{\"type\":\"FeatureCollection\",\"features\":[";
  for (i = 0; i < 12; i++) printf "%s{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[%d.5,%d.25,%d]}}", i ? "," : "", 500000 + (i * 7) % 11, 7000000 + (i * 5) % 13, i;
  print "]}" }' > p.geojson
D=$(cd "$top_srcdir/data" && pwd)
fixture_holes hole
gpkg a.gpkg a.geojson
gpkg b.gpkg b.geojson
all=0
for op in segtri redblue inside delaunay; do
    "$XG" $op --help > h.txt 2>&1 || all=1
    default=$(sed -n 's/^  -nln NAME .*(default: \([a-z_]*\))\..*/\1/p' h.txt)
    case $op in
    delaunay) "$XG" $op -overwrite o.gpkg p.geojson > s.txt 2>&1 ;;
    inside) "$XG" $op -overwrite o.gpkg "$D/blocks.gpkg" "$D/orebodies.gpkg" \
                -where "probe IS NOT NULL" > s.txt 2>&1 ;;
    *) "$XG" $op -overwrite o.gpkg a.gpkg b.gpkg > s.txt 2>&1 ;;
    esac
    wrote=$(sed -n "s/^  output: o.gpkg, layer '\([a-z_]*\)'.*/\1/p" s.txt)
    [ -n "$default" ] && [ "$default" = "$wrote" ] || { all=1; echo "# $op: help says '$default', wrote '$wrote'"; }
done
ok $all "OP --help: -nln's default is the layer each operation writes"

"$XG" inside --help > h.txt
head -1 h.txt | grep -q '^Usage: exactgeo inside \[options\] DST A_SRC B_SRC$' &&
    grep -q 'B_SRC takes one closed surface per feature: PolyhedralSurface, TIN' h.txt &&
    grep -q 'A_SRC takes Point, MultiPoint with Z' h.txt &&
    ! grep -q 'exactgeo segtri' h.txt
ok $? "inside --help: inside's usage and the geometries A and B take"
"$XG" delaunay --help > h.txt
head -1 h.txt | grep -q '^Usage: exactgeo delaunay \[options\] DST POINTS_SRC$' &&
    grep -q 'POINTS_SRC takes Point, MultiPoint, with or without Z' h.txt &&
    grep -q 'v0, v1, v2' h.txt && ! grep -q -e 'B_SRC' -e 'a_seg' -e 'b_fid' -e '^  proper' h.txt
ok $? "delaunay --help: one input of points, the triangles' fields, no B, no contacts"
# every option an OP --help lists is taken, every one it leaves out is
# refused (exit 2 before any input is read; the inputs do not exist)
all=0
for op in segtri redblue inside delaunay; do
    "$XG" $op --help > h.txt
    for o in "-outside" "-skip-invalid" "--verify" "--tin" "--grid 4" "--regions 2" \
             "-acopy f" "-bcopy f" "-bl x" "-bwhere 1=1" "-bspat 0 0 1 1"; do
        flag=${o%% *}
        grep -q -- "^  $flag " h.txt; listed=$?
        "$XG" $op $o nodir/o.gpkg nodir/a.gpkg nodir/b.gpkg > /dev/null 2>&1; rc=$?
        [ $op = delaunay ] && { "$XG" $op $o nodir/o.gpkg nodir/a.gpkg > /dev/null 2>&1; rc=$?; }
        if [ $listed -eq 0 ]; then [ $rc -ne 2 ]; else [ $rc -eq 2 ]; fi ||
            { all=1; echo "# $op $o: listed $listed, status $rc"; }
    done
done
ok $all "OP --help lists exactly the options OP takes (the others are usage errors)"
"$XG" delaunay --grid 4 nodir/o.gpkg nodir/a.gpkg 2> err.txt
[ $? -eq 2 ] && grep -q -- '--grid: delaunay has no grid' err.txt &&
    grep -q "Try 'exactgeo delaunay --help'" err.txt
ok $? "delaunay --grid: refused, pointing to delaunay's help ($(head -1 err.txt))"
python3 - ops.json <<'PY'
import json, sys
ops = {op['name']: op for op in json.load(open(sys.argv[1]))['operations']}
assert ops['delaunay']['layer'] == 'triangles' and ops['segtri']['layer'] == 'contacts'
assert ops['inside']['records'] != 'contacts', ops['inside']['records']
assert 'outside' in ops['inside']['options'] and 'outside' not in ops['segtri']['options']
assert 'tin' in ops['delaunay']['options'] and 'grid' not in ops['delaunay']['options']
assert not any(k.startswith('b') for k in ops['delaunay']['options'])
assert 'bcopy' in ops['inside']['options'] and 'regions' in ops['redblue']['options']
PY
ok $? "--operations: each entry's layer, records and the options it takes"

# The same bad values through the tool and through EXACTGEO: (the GDAL
# plugin, when built): the tool prefixes the option typed.
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" 2>/dev/null && pwd)
export GDAL_DRIVER_PATH
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
