#!/bin/sh
# Each fuzz harness over its seed corpus (made from the test fixtures by
# fuzz/seeds.sh) and over the inputs that once made it fail
# (fuzz/regressions/<harness>/), through the replay program built by the
# ordinary compiler. With --libfuzzer (fuzz/libfuzzer-replay.sh), through
# the libFuzzer programs clang builds (fuzz/bin) instead, with ASan and
# UBSan; that skips where clang built none.
. "$top_srcdir/tests/lib.sh"

case ${1:-} in
'') mode=replay ;;
--libfuzzer)
	mode=libfuzzer
	[ -x "$top_builddir/fuzz/bin/props" ] ||
		skip libfuzzer "the libFuzzer programs are not built (no clang, or no libFuzzer runtime with it)" ;;
*) fail "usage: replay.sh [--libfuzzer]" ;;
esac
sh "$top_srcdir/fuzz/seeds.sh" "$scratch/seeds" ||
	fail "fuzz/seeds.sh failed"
# Every harness seeds.sh makes a corpus for (its list is the one place).
for d in "$scratch"/seeds/*/; do
	h=$(basename "$d")
	set -- "$scratch/seeds/$h"
	reg=$top_srcdir/fuzz/regressions/$h
	[ -d "$reg" ] && set -- "$@" "$reg"
	if [ $mode = replay ]; then
		replay=$top_builddir/fuzz/replay-$h
		[ -x "$replay" ] || fail "$replay is not built"
		"$replay" "$@" || fail "replay-$h failed"
		continue
	fi
	bin=$top_builddir/fuzz/bin/$h
	[ -x "$bin" ] || fail "$bin is not built (fuzz/bin/props is)"
	files=$(find "$@" -type f | sort)
	# An input that makes the code allocate 256 MB at once is a finding
	# too (a descriptor's size taken on trust), and so is one that takes
	# more than 25 s (as in make fuzz).
	# shellcheck disable=SC2086
	"$bin" -malloc_limit_mb=256 -rss_limit_mb=2048 -timeout=25 $files \
		>"$scratch/$h.log" 2>&1 || {
		cat "$scratch/$h.log"
		fail "fuzz/bin/$h failed on its seeds or regressions"
	}
	echo "fuzz/bin/$h: $(grep -c '^Executed' "$scratch/$h.log") inputs"
done
