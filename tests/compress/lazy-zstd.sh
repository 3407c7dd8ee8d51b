#!/bin/sh
# libdevimg reaches libzstd only through props/unzstd.c, which loads it on
# the first compressed image: the library itself does not name it, so a
# program that never meets a compressed image does not load it.
. "$top_srcdir/tests/lib.sh"

so=$top_builddir/loader/.libs/libdevimg.so
[ -f "$so" ] || skip "libdevimg.so not built"
command -v readelf >/dev/null || skip "no readelf"
readelf -d "$so" >"$scratch/dyn" || fail "readelf -d $so"
grep -q '(NEEDED)' "$scratch/dyn" || fail "readelf shows no NEEDED: $(cat "$scratch/dyn")"
if grep '(NEEDED)' "$scratch/dyn" | grep -q zstd; then
	fail "libdevimg.so links libzstd: $(grep '(NEEDED)' "$scratch/dyn")"
fi
# The expander is the only place that names the library.
nm -D "$so" | grep -q ' U ZSTD_' &&
	fail "libdevimg.so calls libzstd directly: $(nm -D "$so" | grep ZSTD_)"
echo "PASS: libdevimg.so does not link libzstd"
