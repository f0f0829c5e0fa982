#!/bin/sh
# exports_t.sh -- libexactgeo.so exports exactly what src/exactgeo.h
# declares: no internal (xg__) symbol, no test-only launcher, nothing of
# the statically linked CUDA runtime or C++ library, and no public
# function missing (src/local.mk says how).
#
# The header's names come from the compiler: the preprocessed header, its
# own lines and its parts' only (the line markers say whose a line is), cut into
# top-level declarations.  A declaration is a function's when its first
# parenthesis follows its name; typedefs, static functions and what has a
# body are not exported, and "extern" objects are.  The library's names
# come from nm -D --defined-only.
: "${top_srcdir:=.}" "${top_builddir:=.}"
lib=$top_builddir/src/.libs/libexactgeo.so
if [ ! -f "$lib" ]; then
    echo "1..0 # SKIP no shared library (configured --disable-shared)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xg-exports.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

echo '#include "exactgeo.h"' > "$tmp/h.c"
if ! ${CC:-cc} -E -I"$top_srcdir/src" "$tmp/h.c" > "$tmp/h.i"; then
    echo "Bail out! ${CC:-cc} -E failed on src/exactgeo.h"
    exit 1
fi
awk '
/^# *[0-9]+ "/ { mine = ($0 ~ /"[^"]*exactgeo(_[a-z]+)?\.h"/); next }
/^#/ { next }
mine { text = text " " $0 }
# One top-level declaration: the name of each of its declarators (split
# at the commas outside parentheses) that is a function, or an object
# when the declaration is extern.
function emit(stmt, body,    d, i, c, depth, ext) {
    gsub(/[ \t]+/, " ", stmt)
    sub(/^ /, "", stmt)
    if (body || stmt ~ /^(typedef|static)[ (]/)
        return
    ext = stmt ~ /^extern /
    d = ""
    for (i = 1; i <= length(stmt); i++) {
        c = substr(stmt, i, 1)
        depth += (c == "(") - (c == ")")
        if (c == "," && depth == 0) {
            declarator(d, ext); d = ""
        } else
            d = d c
    }
    declarator(d, ext)
}
function declarator(d, ext) {
    if (d ~ /\(/)
        d = substr(d, 1, index(d, "(") - 1)
    else if (ext)
        sub(/ ?(\[[^]]*\] ?)*$/, "", d)
    else
        return
    sub(/ $/, "", d)
    if (match(d, /[A-Za-z_][A-Za-z0-9_]*$/))
        print substr(d, RSTART, RLENGTH)
}
END {
    depth = 0; stmt = ""; body = 0
    for (i = 1; i <= length(text); i++) {
        c = substr(text, i, 1)
        if (c == "{") {
            if (depth++ == 0)
                body = (stmt ~ /\)[ ]*$/)   # a function body, not a struct
            continue
        }
        if (c == "}") {
            if (--depth == 0 && body) {
                emit(stmt, 1); stmt = ""; body = 0
            }
            continue
        }
        if (depth > 0)
            continue
        if (c == ";") {
            emit(stmt, 0); stmt = ""
            continue
        }
        stmt = stmt c
    }
}' "$tmp/h.i" | sort -u > "$tmp/declared"
nm -D --defined-only "$lib" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' |
    sort -u > "$tmp/exported"

declared=$(wc -l < "$tmp/declared" | tr -d ' ')
exported=$(wc -l < "$tmp/exported" | tr -d ' ')
echo "1..4"
echo "# src/exactgeo.h declares $declared names; $lib exports $exported symbols"
if grep -qx xg_ctx_new "$tmp/declared" && grep -qx xg_triangulate "$tmp/declared" &&
   ! grep -qv '^xg_[a-z]' "$tmp/declared"; then
    echo "ok 1 - the header's declarations are read (xg_ctx_new, xg_triangulate; xg_ names only)"
else
    echo "not ok 1 - the header's declarations are read (xg_ctx_new, xg_triangulate; xg_ names only)"
    sed 's/^/#   read: /' "$tmp/declared"
fi
comm -13 "$tmp/declared" "$tmp/exported" > "$tmp/leaked"
if [ -s "$tmp/leaked" ]; then
    echo "not ok 2 - every exported symbol is declared in src/exactgeo.h ($(wc -l < "$tmp/leaked" | tr -d ' ') leaked)"
    sed 's/^/#   exported, not declared: /' "$tmp/leaked"
else
    echo "ok 2 - every exported symbol is declared in src/exactgeo.h"
fi
comm -23 "$tmp/declared" "$tmp/exported" > "$tmp/missing"
if [ -s "$tmp/missing" ]; then
    echo "not ok 3 - every function src/exactgeo.h declares is exported ($(wc -l < "$tmp/missing" | tr -d ' ') missing)"
    sed 's/^/#   declared, not exported: /' "$tmp/missing"
else
    echo "ok 3 - every function src/exactgeo.h declares is exported"
fi

# The GDAL plugin exports GDAL's entry points only (ogr_driver/plugin.map).
plugin=$top_builddir/ogr_driver/.libs/ogr_EXACTGEO.so
if [ ! -f "$plugin" ]; then
    echo "ok 4 # SKIP no GDAL plugin in this build"
else
    got=$(nm -D --defined-only "$plugin" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u | tr '\n' ' ')
    want="GDALRegisterMe GDALRegister_EXACTGEO RegisterOGREXACTGEO "
    if [ "$got" = "$want" ]; then
        echo "ok 4 - ogr_EXACTGEO.so exports GDAL's three entry points and nothing else"
    else
        echo "not ok 4 - ogr_EXACTGEO.so exports GDAL's three entry points and nothing else"
        echo "#   exported: $got"
    fi
fi
