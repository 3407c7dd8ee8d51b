#!/bin/sh
# The loader's layout holds: no two source files of loader/, props/,
# wrapper/ or tools/ call each other (tools/call-loops.sh, checked here to find a loop it is
# shown), and the core and the registry wing compile without the plugin
# headers, which the dispatch wing cannot.
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
grep -qx "$scratch/t/a.c <-> $scratch/t/b.c: $scratch/t/a.c calls b_one; $scratch/t/b.c calls a_one" \
	"$scratch/out" || fail "call-loops.sh: $(cat "$scratch/out")"
[ "$(sed -n '$p' "$scratch/out")" = "1 loop(s)" ] ||
	fail "call-loops.sh found more than a.c <-> b.c: $(cat "$scratch/out")"

# No loop in the tree.
sh "$loops" "$top_srcdir/loader" "$top_srcdir/props" "$top_srcdir/wrapper" \
	"$top_srcdir/tools" >"$scratch/out" ||
	fail "files that call each other: $(cat "$scratch/out")"
[ "$(cat "$scratch/out")" = "no loops" ] || fail "call-loops.sh: $(cat "$scratch/out")"

# The core and the registry without the plugin headers.
flags="-std=c11 -fsyntax-only -include $top_builddir/config.h \
	-I$top_srcdir/include -I$top_srcdir/props -I$top_srcdir/loader \
	-I$top_srcdir/loader/registry"
n=0
for f in "$top_srcdir"/loader/*.c "$top_srcdir"/loader/registry/*.c; do
	# shellcheck disable=SC2086
	${CC:-cc} $flags "$f" 2>"$scratch/err" ||
		fail "$f does not compile without the plugin headers: $(cat "$scratch/err")"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n files in the core and the registry"
# ...which the dispatch wing needs: the check above has teeth.
# shellcheck disable=SC2086
if ${CC:-cc} $flags -I"$top_srcdir/loader/dispatch" \
	"$top_srcdir/loader/dispatch/context.c" 2>"$scratch/err"; then
	fail "loader/dispatch/context.c compiles without the plugin headers"
fi
grep -q 'devimg_plugin\.h' "$scratch/err" ||
	fail "loader/dispatch/context.c: $(cat "$scratch/err")"
echo "PASS: no loops; $n core and registry files without the plugin headers"
