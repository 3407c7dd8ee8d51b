#!/bin/sh
# The in-memory reader survives every truncation and single-byte corruption
# of a wrapped object and of an executable: it reads a model that can be
# walked whole, or it fails with one line naming the file (run it under
# ASan/UBSan to see reads out of bounds).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

mutate=$top_builddir/tests/dump/reader-mutate
[ -x "$mutate" ] || skip build "reader-mutate is not built"
fixture_obj a
fixture_obj b
fixture_main
cd "$scratch"
$CC -fPIE -pie main.c a.o b.o -o app 2>link.err ||
	fail "cannot link a PIE (the objects are this test's own): $(cat link.err)"
"$mutate" a.o || fail "a.o"
"$mutate" b.o || fail "b.o"
"$mutate" app 3 || fail "app"
exit 0
