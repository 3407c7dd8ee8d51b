#!/bin/sh
# devimg-dump shows names from a file without letting their bytes reach
# the terminal raw: a property set and properties whose names hold an
# escape sequence, an OSC title sequence ended by BEL, a backslash, a C1
# control (U+009B, CSI) and a byte that is not UTF-8 print as \xHH (and
# \\), in the object's text dump, in --props and in error messages; the
# JSON output keeps the exact bytes, as JSON escapes (read back with jq,
# which the test needs: it skips as a whole without it).
. "$top_srcdir/tests/lib.sh"

WRAP=$top_builddir/devimg-wrap
DUMP=$top_builddir/devimg-dump
[ -x "$WRAP" ] && [ -x "$DUMP" ] || skip build "devimg-wrap or devimg-dump is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found (it decodes the JSON output)"
cd "$scratch"

esc=$(printf '\033') bel=$(printf '\007')
printf 'k\n' >k.sym
printf '[Set\033[2Jname]\nprop\033]0;t\007=1|5\nback\\slash=1|1\nc1\302\233x=1|2\nbad\377=1|3\n' >k.props
head -c 64 /dev/zero >img.bin
"$WRAP" -o w.o -kind=sycl -target=spir64 -format=native -entries=k.sym \
	-properties=k.props img.bin || fail "devimg-wrap failed"

# no_raw FILE: no ESC, BEL, CSI (C2 9B) or 0xff byte in FILE.
no_raw() {
	if LC_ALL=C grep -q "[$esc$bel]" "$1" ||
		LC_ALL=C grep -q "$(printf '\302\233')" "$1" ||
		LC_ALL=C grep -q "$(printf '\377')" "$1"; then
		fail "$2 has raw control bytes: $(od -c "$1" | head -n 20)"
	fi
}

for mode in object props; do
	if [ "$mode" = object ]; then
		"$DUMP" w.o >out.$mode || fail "devimg-dump w.o failed"
	else
		"$DUMP" --props k.props >out.$mode || fail "devimg-dump --props failed"
	fi
	no_raw out.$mode "devimg-dump ($mode)"
	for want in '[Set\x1b[2Jname]' 'prop\x1b]0;t\x07 = 5' 'back\\slash = 1' \
		'c1\xc2\x9bx = 2' 'bad\xff = 3'; do
		grep -qF -- "$want" out.$mode ||
			fail "devimg-dump ($mode) does not show '$want': $(cat out.$mode)"
	done
done

# JSON: the names round-trip exactly (jq decodes the JSON escapes).
"$DUMP" --json w.o >out.json || fail "devimg-dump --json failed"
no_raw out.json "devimg-dump --json"
# The byte 0xff that is no UTF-8, kept as \udcff (docs/dump-json.md).
grep -qF '"bad\udcff"' out.json ||
	fail "devimg-dump --json does not keep byte 0xff as \\udcff: $(cat out.json)"
one_file_json out.json
jq -r '.images[0].property_sets[0].name' out.json >set.name ||
	fail "no property set name in the JSON: $(cat out.json)"
printf 'Set\033[2Jname\n' | cmp - set.name ||
	fail "the set name did not round-trip through --json: $(od -c set.name)"
# The first three names are valid UTF-8 and come back exactly through jq
# (which reads the fourth's \udcff as U+FFFD).
jq -r '.images[0].property_sets[0].properties[0:3][] | .name' \
	out.json >prop.names || fail "no property names in the JSON"
printf 'prop\033]0;t\007\nback\\slash\nc1\302\233x\n' >prop.want
cmp prop.want prop.names ||
	fail "property names did not round-trip through --json: $(od -c prop.names)"

# An error naming a file whose name holds an escape sequence.
name=$(printf 'no\033[2Jsuch\nFAIL')
expect_fail 'no\\x1b\[2Jsuch\\x0aFAIL' "$DUMP" "$name"
no_raw "$scratch/err" "devimg-dump's error"
echo "ok: names and errors escaped in text, exact in JSON"
