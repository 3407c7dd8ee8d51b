#!/bin/sh
# The loader's layout holds: no source files of loader/, util/, props/,
# wrapper/, tools/ or plugins/ call each other in a loop of any length
# (tools/call-loops.sh: strongly connected components; checked here to
# find loops of two and three files and one planted in a copy of the
# loader); the loader's wings form a stack, each file calling only its
# own wing and those below (core, registry, backend, program, dispatch),
# and including only their headers.
. "$top_srcdir/tests/lib.sh"

loops=$top_srcdir/tools/call-loops.sh

# The script finds a loop, and only a loop.
mkdir "$scratch/t"
cat >"$scratch/t/a.c" <<'C'
int a_one(void);
int b_one(void);
int a_one(void)
{
	return b_one(); /* c_one() in a comment is no call */
}
C
cat >"$scratch/t/b.c" <<'C'
int b_one(void)
{
	return a_one() + c_one();
}
C
cat >"$scratch/t/c.c" <<'C'
static int b_one(void)
{
	return 0;
}

int c_one(void)
{
	return b_one();
}
C
if sh "$loops" "$scratch/t" >"$scratch/out"; then
	fail "call-loops.sh missed a.c <-> b.c: $(cat "$scratch/out")"
fi
printf '%s\n' "loop: $scratch/t/a.c $scratch/t/b.c" \
	"  $scratch/t/a.c -> $scratch/t/b.c: b_one" \
	"  $scratch/t/b.c -> $scratch/t/a.c: a_one" "1 loop(s)" >"$scratch/want"
cmp -s "$scratch/want" "$scratch/out" ||
	fail "call-loops.sh: $(cat "$scratch/out")"

# A loop of three files (d -> e -> f -> d), and g, which calls into it
# but is not called back, outside it.
mkdir "$scratch/t3"
for x in d:e e:f f:d g:d; do
	from=${x%:*} to=${x#*:}
	printf 'int %s_one(void);\nint %s_one(void)\n{\n\treturn %s_one();\n}\n' \
		"$to" "$from" "$to" >"$scratch/t3/$from.c"
done
if sh "$loops" "$scratch/t3" >"$scratch/out"; then
	fail "call-loops.sh missed d.c -> e.c -> f.c -> d.c: $(cat "$scratch/out")"
fi
printf '%s\n' "loop: $scratch/t3/d.c $scratch/t3/e.c $scratch/t3/f.c" \
	"  $scratch/t3/d.c -> $scratch/t3/e.c: e_one" \
	"  $scratch/t3/e.c -> $scratch/t3/f.c: f_one" \
	"  $scratch/t3/f.c -> $scratch/t3/d.c: d_one" "1 loop(s)" >"$scratch/want"
cmp -s "$scratch/want" "$scratch/out" ||
	fail "call-loops.sh, three files: $(cat "$scratch/out")"

# A scratch copy of the loader with one call planted that closes a loop
# (the context calling into bundles again): the loop, through five files,
# is found.
cp -R "$top_srcdir/loader" "$scratch/copy"
printf 'void planted(void)\n{\n\tbundle_filter_read(0, 0);\n}\n' \
	>>"$scratch/copy/dispatch/context.c"
if sh "$loops" "$scratch/copy" >"$scratch/out"; then
	fail "call-loops.sh missed the planted loop: $(cat "$scratch/out")"
fi
grep -q "^loop: .*dispatch/bundle.c .*dispatch/context.c" "$scratch/out" &&
	grep -qx "  $scratch/copy/dispatch/context.c -> $scratch/copy/dispatch/bundle.c: bundle_filter_read" \
		"$scratch/out" || fail "call-loops.sh, planted: $(cat "$scratch/out")"

# No loop in the tree, of any length.
sh "$loops" "$top_srcdir/loader" "$top_srcdir/util" "$top_srcdir/props" \
	"$top_srcdir/wrapper" "$top_srcdir/tools" "$top_srcdir/plugins" \
	>"$scratch/out" ||
	fail "files that call each other: $(cat "$scratch/out")"
[ "$(cat "$scratch/out")" = "no loops" ] || fail "call-loops.sh: $(cat "$scratch/out")"

# The stack: a file of the loader calls only its own wing and the wings
# below it, core (loader/*.c) < registry < backend < program < dispatch.
# stack_check DIR: the calls of DIR (a loader) that go up, in
# $scratch/stack; fails the check (status 1) when there is one.
stack_check() {
	sh "$loops" -v "$1" | sed -n 's/^\(.*\) -> \([^:]*\): \(.*\)$/\1 \2 \3/p' |
		awk -v top="$1/" '
		function rank(f,    w) {
			w = substr(f, length(top) + 1)
			if (w !~ /\//) return 0
			sub(/\/.*/, "", w)
			if (w == "registry") return 1
			if (w == "backend") return 2
			if (w == "program") return 3
			if (w == "dispatch") return 4
			return 9
		}
		rank($1) == 9 || rank($2) == 9 { print "outside the wings: " $1 " -> " $2; bad = 1 }
		rank($1) < rank($2) { print "up the stack: " $0; bad = 1 }
		END { exit bad }' >"$scratch/stack"
}
# It sees a call planted up the stack (the registry creating a context).
cp -R "$top_srcdir/loader" "$scratch/up"
printf 'void planted(void)\n{\n\tdevimg_ctx_new(0);\n}\n' \
	>>"$scratch/up/registry/registry.c"
if stack_check "$scratch/up"; then
	fail "the stack check missed registry.c -> context.c"
fi
grep -qx "up the stack: $scratch/up/registry/registry.c $scratch/up/dispatch/context.c devimg_ctx_new" \
	"$scratch/stack" || fail "the stack check: $(cat "$scratch/stack")"
stack_check "$top_srcdir/loader" ||
	fail "the wing stack is broken: $(cat "$scratch/stack")"
n=$(sh "$loops" -v "$top_srcdir/loader" | grep -c ' -> ')
[ "$n" -gt 50 ] || fail "only $n calls between the loader's files: the stack check read nothing"

# Includes keep the stack too: a file of the loader includes headers of
# its own wing and those below, the plugin interface (plugins/) from the
# backend up, and util/, props/, the public headers and those make
# generates (paths.h) anywhere. Every quoted #include names
# its folder (Makefile.am), so the folder is the wing.
# include_check DIR: the includes of DIR (a loader) that go up, in
# $scratch/incs; fails the check when there is one.
include_check() {
	grep -H '^#include "' "$1"/*.[ch] "$1"/*/*.[ch] |
		sed 's/^\([^:]*\):#include "\([^"]*\)".*/\1 \2/' |
		awk -v top="$1/" '
		function wing(w) {
			if (w == "registry") return 1
			if (w == "backend") return 2
			if (w == "program") return 3
			if (w == "dispatch") return 4
			return 9
		}
		function rank_file(f,    w) {
			w = substr(f, length(top) + 1)
			if (w !~ /\//) return 0
			sub(/\/.*/, "", w)
			return wing(w)
		}
		function rank_inc(h,    w) {
			if (h ~ /^(util|props|devimg)\// || h !~ /\//) return -1
			if (h ~ /^plugins\//) return 2
			if (h !~ /^loader\//) return 9
			w = substr(h, 8)
			if (w !~ /\//) return 0
			sub(/\/.*/, "", w)
			return wing(w)
		}
		{ n++ }
		rank_inc($2) > rank_file($1) { print "include up the stack: " $1 " " $2; bad = 1 }
		END { if (n < 50) { print "only " n " includes read"; bad = 1 } exit bad }' \
		>"$scratch/incs"
}
# It sees an include planted up the stack (the registry seeing contexts),
# and the plugin interface in the core.
cp -R "$top_srcdir/loader" "$scratch/inc"
printf '#include "loader/dispatch/dispatch.h"\n' >>"$scratch/inc/registry/registry.c"
printf '#include "plugins/devimg_plugin.h"\n' >>"$scratch/inc/env.c"
if include_check "$scratch/inc"; then
	fail "the include check missed registry.c -> dispatch.h"
fi
grep -qx "include up the stack: $scratch/inc/registry/registry.c loader/dispatch/dispatch.h" \
	"$scratch/incs" &&
	grep -qx "include up the stack: $scratch/inc/env.c plugins/devimg_plugin.h" \
		"$scratch/incs" || fail "the include check: $(cat "$scratch/incs")"
include_check "$top_srcdir/loader" ||
	fail "an include goes up the stack: $(cat "$scratch/incs")"
echo "PASS: no loops; the stack holds for calls and includes"
