#!/bin/sh
# libdevimg names the libraries it opens at run time in an ELF note
# (.note.dlopen, owner "FDO", type 0x407c0c0a, a JSON array), as the ELF
# dlopen metadata convention describes, so packaging tools see them: one
# NOTE section, allocated, holding one note of that owner and type whose
# JSON names libzstd.so.1 and libz.so.1, both "recommended".
. "$top_srcdir/tests/lib.sh"

lib=$top_builddir/loader/.libs/libdevimg.so
[ -f "$lib" ] || fail "$lib not built"
readelf -SW "$lib" >"$scratch/sections" || fail "readelf -S $lib"
grep -Eq '\] \.note\.dlopen +NOTE +[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ 00 +A ' \
	"$scratch/sections" ||
	fail "no allocated NOTE section .note.dlopen: $(grep dlopen "$scratch/sections")"
objcopy -O binary --only-section=.note.dlopen "$lib" "$scratch/note" ||
	fail "objcopy of .note.dlopen failed"
# namesz 4, type 0x407c0c0a (little-endian), name "FDO\0"
head -c 16 "$scratch/note" | od -An -tx1 | tr -d ' \n' >"$scratch/head"
case $(cat "$scratch/head") in
04000000????????0a0c7c4046444f00) ;;
*) fail "note header $(cat "$scratch/head"), expected namesz 4, type 0x407c0c0a, owner FDO" ;;
esac
descsz=$(head -c 8 "$scratch/note" | tail -c 4 | od -An -tu4 | tr -d ' ')
tail -c +17 "$scratch/note" | head -c $((descsz - 1)) >"$scratch/json"
[ "$(tail -c +17 "$scratch/note" | head -c "$descsz" | tail -c 1 | od -An -tx1 | tr -d ' ')" = 00 ] ||
	fail "the note's JSON does not end with its NUL"
jq -e . "$scratch/json" >/dev/null || fail "not JSON: $(cat "$scratch/json")"
[ "$(jq -c '[.[] | [.soname[], .priority]]' "$scratch/json")" = \
  '[["libzstd.so.1","recommended"],["libz.so.1","recommended"]]' ] ||
	fail "the note says $(cat "$scratch/json")"
# and the sonames are the ones the library opens
for so in libzstd.so.1 libz.so.1; do
	grep -q "dlopen(\"$so\"" "$top_srcdir/props/unzstd.c" \
		"$top_srcdir/props/offload-inflate.c" ||
		fail "$so is in the note but opened nowhere"
done
echo PASS
