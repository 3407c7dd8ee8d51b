#!/bin/sh
# The object is laid out as wrapper/index.h says (sections, flags, symbols,
# relocations; images extractable with objcopy), and after linking each
# index entry's bin_rel leads from the field to its image without any
# dynamic relocation: non-PIE, PIE and shared, with GNU ld (which must
# link), gold and lld where they link a program (lib-wrap.sh linkers);
# the same for an aarch64 object linked by lld (ld.lld or ld.lld-N) and
# read back with llvm-objdump where lld is installed. The test says which
# linkers ran; with lld, no llvm-objdump (LLVM's, in deps/) skips it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

# lld is optional (deps/ installs none); llvm-objdump reads its link.
lld=$(find_llvm ld.lld)
objdump=
if [ -n "$lld" ]; then
	objdump=$(find_llvm llvm-objdump)
	[ -n "$objdump" ] ||
		skip tools "$lld is installed but no llvm-objdump (llvm-objdump-23 to -15) reads its aarch64 link"
fi

cd "$scratch"
rand_file a.bin 1000
rand_file b.bin 77
spirv_file c.spv 4000
sym_file a.sym k
"$WRAP" -o w.o -kind=sycl -target=spir64 -entries=a.sym a.bin -format=none b.bin \
	-format=spirv c.spv || fail "devimg-wrap"
elflint w.o

readelf -hW w.o >h.txt
grep -q 'Class: *ELF64' h.txt || fail "not ELF64"
grep -q 'Type: *REL ' h.txt || fail "not relocatable"
grep -q 'Machine: *Advanced Micro Devices X86-64' h.txt || fail "not x86-64"

# section NAME TYPE FLAGS ALIGN: readelf -S shows it so (every section of
# that name).
readelf -SW w.o >s.txt
section() {
	line=$(grep -F " $1 " s.txt | sort -u -k2) || fail "no section $1"
	[ "$(echo "$line" | sed 's/^ *\[ *[0-9]*\] *//' | awk '{ print $1, $2, $7, $NF }' | sort -u | wc -l)" -eq 1 ] ||
		fail "sections $1 differ: $line"
	line=$(echo "$line" | head -n 1)
	fields=$(echo "$line" | sed 's/^ *\[ *[0-9]*\] *//')
	# shellcheck disable=SC2086
	set -- "$1" "$2" "$3" "$4" $fields
	got_type=$6
	got_align=$(eval echo "\${$#}")
	if [ $# -eq 14 ]; then got_flags=${11}; else got_flags=-; fi
	[ "$got_type" = "$2" ] && [ "$got_flags" = "$3" ] &&
		[ "$got_align" = "$4" ] || fail "section $1: $line"
}
[ "$(grep -c ' __CLANG_OFFLOAD_BUNDLE__sycl-spir64 ' s.txt)" -eq 3 ] ||
	fail "not one section per image: $(cat s.txt)"
section __CLANG_OFFLOAD_BUNDLE__sycl-spir64 PROGBITS A 16
section .tgtimg PROGBITS WA 16
section .devimg PROGBITS A 8
section .data.rel.ro.devimg PROGBITS WA 8
section .text.devimg PROGBITS AX 16
section .init_array.1 INIT_ARRAY WA 8
section .fini_array.1 FINI_ARRAY WA 8
section .note.GNU-stack PROGBITS - 1

readelf -sW w.o >sym.txt
symbol() {
	grep -Eq " $1 +$2 +$3 +DEFAULT +$4 $5\$" sym.txt ||
		fail "symbol $5: $(grep " $5\$" sym.txt)"
}
symbol 1000 OBJECT LOCAL '[0-9]+' __devimg_image_0
symbol 77 OBJECT LOCAL '[0-9]+' __devimg_image_1
symbol '[0-9]+' OBJECT LOCAL '[0-9]+' __devimg_index
symbol '[0-9]+' OBJECT LOCAL '[0-9]+' __devimg_descriptor
symbol 12 FUNC LOCAL '[0-9]+' __devimg_register
symbol 12 FUNC LOCAL '[0-9]+' __devimg_unregister
symbol 0 NOTYPE GLOBAL UND __sycl_register_lib
symbol 0 NOTYPE GLOBAL UND __sycl_unregister_lib

readelf -rW w.o >r.txt
grep -A2 "'.rela.init_array.1'" r.txt | grep -q 'R_X86_64_64 .* \.text\.devimg + 0$' ||
	fail "init_array: $(cat r.txt)"
grep -A2 "'.rela.fini_array.1'" r.txt | grep -q 'R_X86_64_64 .* \.text\.devimg + 10$' ||
	fail "fini_array: $(cat r.txt)"
[ "$(grep -c 'R_X86_64_PC64 .* __CLANG_OFFLOAD_BUNDLE__sycl-spir64 + 0$' r.txt)" -eq 3 ] ||
	fail "bin_rel relocations: $(cat r.txt)"
[ "$(grep -A4 "'.rela.tgtimg'" r.txt | grep -c '^0*[0-2]0 .*R_X86_64_64 .* __CLANG_OFFLOAD_BUNDLE__sycl-spir64 + 0$')" -eq 3 ] ||
	fail ".tgtimg relocations: $(cat r.txt)"
grep -q '^0*3 .*R_X86_64_PC32 .* \.data\.rel\.ro\.devimg - 4$' r.txt ||
	fail "lea relocation: $(cat r.txt)"
grep -q '^0*8 .*R_X86_64_PLT32 .* __sycl_register_lib - 4$' r.txt ||
	fail "jmp relocation: $(cat r.txt)"

# The third section of that name holds image 2.
set -- $(grep -F ' __CLANG_OFFLOAD_BUNDLE__sycl-spir64 ' s.txt | sed -n 3p |
	sed 's/^ *\[ *[0-9]*\] *//' | awk '{ print $4, $5 }')
tail -c +$((0x$1 + 1)) w.o | head -c $((0x$2)) >c.out
cmp c.out c.spv || fail "the third image section is not image 2"
objcopy -O binary --only-section=.devimg w.o index.bin
[ "$(head -c 8 index.bin)" = DEVIMGX1 ] || fail "no index magic"

# section_addr FILE NAME: the address of section NAME in a linked file.
section_addr() {
	readelf -SW "$1" | grep -F " $2 " |
		sed 's/^ *\[ *[0-9]*\] *//' | awk '{ print $3 }'
}

# section_bytes FILE NAME OUT: the contents of a section (any machine).
section_bytes() {
	set -- "$@" $(readelf -SW "$1" | grep -F " $2 " |
		sed 's/^ *\[ *[0-9]*\] *//' | awk '{ print $4, $5 }')
	[ $# -eq 5 ] || fail "$1: no section $2"
	tail -c +$((0x$4 + 1)) "$1" | head -c $((0x$5)) >"$3"
}

# check_bin_rel FILE: in a linked FILE, image i's bin_rel in the (first)
# index blob plus the field's address is the image's address, and no
# dynamic relocation touches .devimg.
check_bin_rel() {
	f=$1
	section_bytes "$f" .devimg "$f.index"
	base=$((0x$(section_addr "$f" .devimg)))
	size=$(wc -c <"$f.index")
	i=0
	for img in a.bin b.bin c.spv; do
		field=$((40 + 56 * i))
		rel=$(od -An -t d8 -j $field -N 8 "$f.index" | tr -d ' ')
		want=$((0x$(readelf -sW "$f" |
			awk -v n=__devimg_image_$i '$8 == n { print $2 }')))
		[ $((base + field + rel)) -eq $want ] ||
			fail "$f: image $i: bin_rel $rel leads to $((base + field + rel)), not $want"
		n=$(od -An -t u8 -j $((field + 8)) -N 8 "$f.index" | tr -d ' ')
		[ "$n" -eq "$(wc -c <$img)" ] || fail "$f: image $i: size $n"
		i=$((i + 1))
	done
	readelf -rW "$f" | awk '/^[0-9a-f]+ /{ print $1 }' | while read -r off; do
		o=$((0x$off))
		[ $o -lt $base ] || [ $o -ge $((base + size)) ] ||
			fail "$f: dynamic relocation at $off inside .devimg"
	done
}

main_file main.c
linkers
for ld in $lds; do
	$CC -fuse-ld="$ld" -B"$ldbin" -no-pie -o "exe.$ld" main.c w.o \
		-Wl,--unresolved-symbols=ignore-all || fail "$ld: non-PIE link"
	check_bin_rel "exe.$ld"
	$CC -fuse-ld="$ld" -B"$ldbin" -pie -o "pie.$ld" main.c w.o \
		-Wl,--unresolved-symbols=ignore-all || fail "$ld: PIE link"
	check_bin_rel "pie.$ld"
	$CC -fuse-ld="$ld" -B"$ldbin" -shared -o "lib.$ld.so" w.o ||
		fail "$ld: shared link"
	check_bin_rel "lib.$ld.so"
	! readelf -dW "lib.$ld.so" | grep -q TEXTREL || fail "$ld: TEXTREL"
done

# aarch64: lld links it; the stub loads the descriptor's address and
# branches to the registration function; bin_rel as above.
if [ -n "$lld" ]; then
	echo "# aarch64: $lld, $objdump"
	"$WRAP" -o arm.o -host=aarch64-linux-gnu -kind=sycl -target=spir64 \
		-entries=a.sym a.bin -format=none b.bin -format=spirv c.spv ||
		fail "aarch64 wrap"
	elflint arm.o
	readelf -rW arm.o >ar.txt
	for t in R_AARCH64_ADR_PREL_PG_HI21 R_AARCH64_ADD_ABS_LO12_NC \
		R_AARCH64_JUMP26 R_AARCH64_ABS64 R_AARCH64_PREL64; do
		grep -q "$t" ar.txt || fail "aarch64: no $t"
	done
	# --no-relax keeps adrp + add as written, where lld has it.
	"$lld" -m aarch64linux -shared --no-relax -o arm.so arm.o 2>/dev/null ||
		"$lld" -m aarch64linux -shared -o arm.so arm.o ||
		fail "$lld cannot link the aarch64 object"
	check_bin_rel arm.so
	! readelf -dW arm.so | grep -q TEXTREL || fail "aarch64: TEXTREL"
	desc=$(readelf -sW arm.so | awk '$8 == "__devimg_descriptor" { print $2 }')
	"$objdump" -d --no-show-raw-insn arm.so >arm.dis ||
		fail "$objdump -d arm.so failed"
	# lld may relax adrp + add into nop + adr.
	stub=$(grep -A2 '<__devimg_register>:' arm.dis | tr '\t' ' ')
	page=$(echo "$stub" | sed -n 's/.*adrp *x0, \(0x[0-9a-f]*\).*/\1/p')
	lo=$(echo "$stub" | sed -n 's/.*add *x0, x0, #\([0-9a-fx]*\).*/\1/p')
	at=$(echo "$stub" | sed -n 's/^ *\([0-9a-f]*\): *adr *x0, #\(-*[0-9]*\).*/0x\1 \2/p')
	if [ -n "$page" ] && [ -n "$lo" ]; then
		loaded=$((page + lo))
	elif [ -n "$at" ]; then
		# shellcheck disable=SC2086
		set -- $at
		loaded=$(($1 + $2))
	else
		fail "aarch64 stub: $stub"
	fi
	[ $loaded -eq $((0x$desc)) ] ||
		fail "aarch64 stub loads $loaded, descriptor at 0x$desc: $stub"
	grep -A3 '<__devimg_register>:' arm.dis | grep -q 'b[[:space:]].*<__sycl_register_lib@plt>' ||
		fail "aarch64 stub does not branch to __sycl_register_lib: $(cat arm.dis)"
	grep -A3 '<__devimg_unregister>:' arm.dis | grep -q 'b[[:space:]].*<__sycl_unregister_lib@plt>' ||
		fail "aarch64 stub does not branch to __sycl_unregister_lib"
else
	echo "# no ld.lld (nor ld.lld-23 to -15): the aarch64 link is not checked"
fi

# Image alignment as LLVM gives DPC++'s image globals: 16 only over 16
# bytes (target names tell the sections apart).
rand_file s16.bin 16
rand_file s17.bin 17
rand_file s0.bin 0
"$WRAP" -o al.o -kind=sycl -target=t16 s16.bin -target=t17 s17.bin \
	-target=t0 s0.bin || fail "devimg-wrap (alignment)"
elflint al.o
readelf -SW al.o >al.txt
for want in t16:1 t17:16 t0:1; do
	t=${want%:*} a=${want#*:}
	grep -Eq " __CLANG_OFFLOAD_BUNDLE__sycl-$t +PROGBITS .* $a\$" al.txt ||
		fail "image $t: not aligned $a: $(grep "sycl-$t " al.txt)"
done
echo PASS
