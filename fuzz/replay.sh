#!/bin/sh
# Each fuzz harness over its seed corpus (made from the test fixtures by
# fuzz/seeds.sh) and over the inputs that once made it fail
# (fuzz/regressions/<harness>/): once through the replay program built by
# the ordinary compiler, and once through the libFuzzer program where
# clang built one (make check builds them when it can).
. "$top_srcdir/tests/lib.sh"

sh "$top_srcdir/fuzz/seeds.sh" "$scratch/seeds" ||
	fail "fuzz/seeds.sh failed"
for h in props bytes sym table reader descriptor introspect containers; do
	replay=$top_builddir/fuzz/replay-$h
	[ -x "$replay" ] || fail "$replay is not built"
	set -- "$scratch/seeds/$h"
	reg=$top_srcdir/fuzz/regressions/$h
	[ -d "$reg" ] && set -- "$@" "$reg"
	"$replay" "$@" || fail "replay-$h failed"
	bin=$top_builddir/fuzz/bin/$h
	if [ -x "$bin" ]; then
		files=$(find "$@" -type f | sort)
		# An input that makes the code allocate 256 MB at once is a
		# finding too (a descriptor's size taken on trust).
		# shellcheck disable=SC2086
		"$bin" -malloc_limit_mb=256 $files >"$scratch/$h.log" 2>&1 || {
			cat "$scratch/$h.log"
			fail "fuzz/bin/$h failed on its seeds or regressions"
		}
		echo "fuzz/bin/$h: $(grep -c '^Executed' "$scratch/$h.log") inputs"
	fi
done
[ -x "$top_builddir/fuzz/bin/props" ] ||
	echo "libFuzzer programs not built (no clang or no libFuzzer): replayed only"
