#!/bin/sh
# Images come back out of a linked program the way DPC++'s
# clang-offload-extract takes them: read the {address, size} pairs of the
# .tgtimg section, skip zero padding, find the allocated data section
# that holds [address, address + size), and copy those bytes. Written in
# shell with readelf and od; every image must come back exactly, from two
# wrapped objects linked together (non-PIE, and PIE where the linker
# writes the addresses in place) and from images without a target. GNU ld
# must link; gold and lld are tried where they link a program (lib-wrap.sh
# linkers), and the test says which ran.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
rand_file a.bin 1000
rand_file b.bin 77
spirv_file c.spv 4000
rand_file d.bin 1
"$WRAP" -o w1.o -kind=sycl -target=spir64 a.bin -target=nvptx64 b.bin ||
	fail "devimg-wrap w1"
"$WRAP" -o w2.o -kind=sycl -target=spir64 -format=spirv c.spv -target= d.bin ||
	fail "devimg-wrap w2"
main_file main.c

# extract FILE STEM: STEM.0, STEM.1, ... as clang-offload-extract names them
extract() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *//p' >"$2.sections"
	set -- "$1" "$2" $(awk '$1 == ".tgtimg" { print $4, $5 }' "$2.sections")
	[ $# -eq 4 ] || fail "$1: no .tgtimg section"
	# type address offset size flags of each section
	awk '{ print $2, $3, $4, $5, ($7 ~ /^[WAXMSILOGTCxoEDlp]+$/ ? $7 : "-") }' \
		"$2.sections" >"$2.data"
	od -An -v -t u8 -j $((0x$3)) -N $((0x$4)) "$1" | tr -s ' ' '\n' |
		sed '/^$/d' >"$2.pairs"
	n=0
	while read -r addr && read -r size; do
		[ "$addr" -ne 0 ] || continue
		where=
		while read -r type sa off sz flags; do
			[ "$type" = PROGBITS ] || continue
			case $flags in *X*) continue ;; *A*) ;; *) continue ;; esac
			if [ "$addr" -ge $((0x$sa)) ] &&
				[ $((addr + size)) -le $((0x$sa + 0x$sz)) ]; then
				where=$((0x$off + addr - 0x$sa))
				break
			fi
		done <"$2.data"
		[ -n "$where" ] || fail "$1: no section holds image at $addr, $size bytes"
		tail -c +$((where + 1)) "$1" | head -c "$size" >"$2.$n"
		n=$((n + 1))
	done <"$2.pairs"
	echo $n >"$2.count"
}

linkers
for ld in $lds; do
	$CC -fuse-ld="$ld" -B"$ldbin" -no-pie -o "exe.$ld" main.c w1.o w2.o \
		-Wl,--unresolved-symbols=ignore-all || fail "$ld: link"
	links="exe.$ld"
	# In a PIE, GNU ld and gold also write each address in place (the
	# dynamic relocation aside); lld leaves zeros, which the extractor
	# skips as padding, as clang-offload-extract does.
	if [ "$ld" != lld ]; then
		$CC -fuse-ld="$ld" -B"$ldbin" -pie -fPIE -o "pie.$ld" main.c \
			w1.o w2.o -Wl,--unresolved-symbols=ignore-all ||
			fail "$ld: PIE link"
		links="$links pie.$ld"
	fi
	for f in $links; do
		extract $f out.$f
		[ "$(cat out.$f.count)" -eq 4 ] ||
			fail "$f: $(cat out.$f.count) images, not 4"
		i=0
		for img in a.bin b.bin c.spv d.bin; do
			cmp "out.$f.$i" $img || fail "$f: image $i is not $img"
			i=$((i + 1))
		done
	done
done
# The relocatable object: the same pairs, each address relocated by hand
# (R_X86_64_64 against the image's section, which starts at its file
# offset); the targets differ, so section names are unique here.
readelf -SW w1.o | sed -n 's/^ *\[ *[0-9]*\] *//p' >w1.sections
tgt=$(awk '$1 == ".tgtimg" { print $4 }' w1.sections)
readelf -rW w1.o | sed -n "/'.rela.tgtimg'/,/^$/p" |
	awk '$3 == "R_X86_64_64" { print $1, $5, $7 }' >w1.rel
[ "$(wc -l <w1.rel)" -eq 2 ] || fail "w1.o: not two .tgtimg relocations"
i=0
while read -r at sec addend; do
	off=$(awk -v n="$sec" '$1 == n { print $4 }' w1.sections)
	size=$(od -An -t u8 -j $((0x$tgt + 0x$at + 8)) -N 8 w1.o | tr -d ' ')
	tail -c +$((0x$off + 0x$addend + 1)) w1.o | head -c "$size" >obj.$i
	i=$((i + 1))
done <w1.rel
cmp obj.0 a.bin || fail "w1.o: image 0"
cmp obj.1 b.bin || fail "w1.o: image 1"
echo PASS
