#!/bin/sh
# Every reference to the project's documentation resolves
# (tools/check-doc-refs.sh): on the tree itself, and on a small tree
# whose every kind of broken reference must be named, file and line, by
# the checker (the names are put together at run time so that this file
# does not hold them).
. "$top_srcdir/tests/lib.sh"

check=$top_srcdir/tools/check-doc-refs.sh
[ -f "$check" ] || fail "no $check"

sh "$check" "$top_srcdir" >"$scratch/out" 2>&1 ||
	fail "broken references in the tree: $(cat "$scratch/out")"
grep -q '^ok: ' "$scratch/out" || fail "no summary: $(cat "$scratch/out")"
# The tree cites the docs, formats.md's sections and its man pages
# (the four counts of the summary, split into $1..$4).
# shellcheck disable=SC2046
set -- $(sed -n 's/^ok: //p' "$scratch/out" | tr -c '0-9\n' ' ')
[ $# -eq 4 ] && [ "$2" -gt 50 ] && [ "$3" -gt 20 ] && [ "$4" -gt 20 ] ||
	fail "too few references found: $(cat "$scratch/out")"
echo "tree: $(cat "$scratch/out")"

# A tree with one broken reference of each kind, and good ones beside.
md=md
d=devimg
t=$scratch/t
mkdir -p "$t/docs" "$t/man" "$t/src"
printf '%s\n' '# Formats' '## 5. Five' '### Byte arrays' '## 11. Eleven' \
	>"$t/docs/formats.$md"
printf '%s\n' ".TH ${d}-DUMP 1" '.SH NAME' "${d}-dump \\- a tool" \
	>"$t/man/${d}-dump.1"
printf '%s\n' ".TH DEVIMG 3" '.SH NAME' "${d} \\- the library" >"$t/man/$d.3"
cat >"$t/docs/page.$md" <<EOF
# A page

## 1. First

As section 1 says, and docs/formats.$md (section 11) and
formats.$md, "Byte arrays" hold; section 2 does not exist.
See also [the formats](formats.$md) and [none](gone.$md).
EOF
cat >"$t/man/${d}_x.3" <<EOF
.TH ${d}_X 3
.SH NAME
${d}_x, ${d}_x_ref \\- a page
.SH DESCRIPTION
${d}_x_ref(3) is here, ${d}-dump(1) too.
.SH SEE ALSO
.BR ${d} (3),
.BR ${d}_gone (3),
.BR readelf (1)
EOF
cat >"$t/src/a.c" <<EOF
/*
 * The layout is in docs/formats.$md, section 5 and docs/formats.$md,
 * section 12; docs/none.$md and FORMATS.$md are not in the tree; the
 * text is in docs/formats.$md ("No such title"), and man ${d}_x_ref,
 * man 1 ${d}-dump hold, man 3 ${d}_nope and ${d}-nothing(1) do not.
 */
EOF
if sh "$check" "$t" >"$scratch/out" 2>&1; then
	fail "broken references pass: $(cat "$scratch/out")"
fi
cat >"$scratch/expected" <<EOF
./docs/page.$md:6: ./docs/page.$md has no section 2
./docs/page.$md:7: gone.$md is not beside the file, in docs/ or at the top
./man/${d}_x.3:8: no manual page ${d}_gone(3) in man/
./src/a.c:2: docs/formats.$md has no section 12
./src/a.c:3: docs/none.$md does not exist
./src/a.c:3: FORMATS.$md is not beside the file, in docs/ or at the top
./src/a.c:4: docs/formats.$md has no section "No such title"
./src/a.c:5: no manual page ${d}_nope(3) in man/
./src/a.c:5: no manual page ${d}-nothing(1) in man/
9 broken documentation reference(s)
EOF
diff -u "$scratch/expected" "$scratch/out" >"$scratch/diff" ||
	fail "the checker's report differs: $(cat "$scratch/diff")"
echo "ok: 9 broken references named, the good ones passed"
