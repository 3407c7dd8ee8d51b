#!/bin/sh
# -kind=openmp and -kind=hip images go into libomptarget descriptors
# (__tgt_bin_desc) registered by __tgt_register_lib from priority-1
# constructors, beside the SYCL descriptor in the same object, as DPC++'s
# clang-offload-wrapper writes them: its usage example (SYCL images, then
# -kind=openmp c.bin) linked with a program that stands in for
# libomptarget gets each image byte for byte and the host entries range
# __start_/__stop_omp_offloading_entries. -add-omp-offload-notes adds
# the LLVMOMPOFFLOAD notes to x86-64, amdgcn and 32-bit big-endian
# (powerpc) objects, which clang makes, and to yaml2obj's empty objects
# of each class and byte order, as DPC++'s driver test does; the test
# needs both (clang: skips without it or its targets; yaml2obj: LLVM's,
# yaml2obj-23 to -15 or unversioned). The aarch64 host is
# wrap-openmp-aarch64.sh's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

# clang makes the amdgcn and the 32-bit big-endian (powerpc) objects that
# get notes; yaml2obj (LLVM's, in deps/) DPC++'s empty ELF inputs.
[ "${CLANG:-no}" != no ] ||
	skip clang "configure found no clang: no amdgcn or powerpc object to add notes to"
"$CLANG" -print-targets >"$scratch/targets" 2>&1 ||
	fail "$CLANG -print-targets failed: $(cat "$scratch/targets")"
for t in amdgcn ppc32; do
	grep -q "^ *$t " "$scratch/targets" ||
		skip clang "$CLANG has no $t target: $(cat "$scratch/targets")"
done
yaml2obj=$(find_llvm yaml2obj)
[ -n "$yaml2obj" ] || skip tools "no yaml2obj (yaml2obj-23 to -15; Debian: llvm-N)"

cd "$scratch"
spirv_file a.spv 300
rand_file b.bin 77
rand_file c.bin 10
rand_file d.bin 40
rand_file h.bin 33
sym_file a.sym k1 k2
printf 'manifest\n' >a.mnf
printf 'b manifest\n' >b.mnf

# The command line of DPC++'s clang-offload-wrapper usage text.
"$WRAP" -o w.o -host x86_64-pc-linux-gnu -kind=sycl -target=spir64 \
	-format=spirv -compile-opts=-g -link-opts=-cl-denorms-are-zero \
	-entries=a.sym a.spv a.mnf -target=xxx -format=native -compile-opts= \
	-link-opts= -entries= b.bin b.mnf -kind=openmp c.bin ||
	fail "devimg-wrap (usage example)"
elflint w.o
readelf -SW w.o >s.txt
readelf -sW w.o >sym.txt
readelf -rW w.o >r.txt

# section NAME TYPE FLAGS ALIGN SIZE
section() {
	line=$(grep -F " $1 " s.txt) || fail "no section $1: $(cat s.txt)"
	echo "$line" | sed 's/^ *\[ *[0-9]*\] *//' |
		awk -v want="$*" '{ f = (NF == 10) ? $7 : "-";
			got = $1 " " $2 " " f " " $NF " " $5;
			if (got != want) { print got; exit 1 } }' ||
		fail "section $1: $line"
}
# Images over 16 bytes are 16-aligned, smaller ones not, as LLVM lays out
# a global byte array.
section __CLANG_OFFLOAD_BUNDLE__openmp-xxx PROGBITS A 1 00000a
section __CLANG_OFFLOAD_BUNDLE__sycl-xxx PROGBITS A 16 00004d
section omp_offloading_entries PROGBITS A 8 000000
section .data.rel.ro.devimg PROGBITS WA 16 000160

symbol() {
	grep -Eq " $1 +$2 +$3 +$4 +$5 $6\$" sym.txt ||
		fail "symbol $6: $(grep " $6\$" sym.txt)"
}
symbol 0 NOTYPE GLOBAL DEFAULT UND __tgt_register_lib
symbol 0 NOTYPE GLOBAL DEFAULT UND __tgt_unregister_lib
symbol 0 NOTYPE GLOBAL HIDDEN UND __start_omp_offloading_entries
symbol 0 NOTYPE GLOBAL HIDDEN UND __stop_omp_offloading_entries
symbol 0 OBJECT GLOBAL HIDDEN '[0-9]+' __dummy.omp_offloading.entry
symbol 0 NOTYPE GLOBAL DEFAULT UND __sycl_register_lib

# The descriptor at 0x140 (after the SYCL one and the image array at 0x120):
# its count, images, entries; the image's begin, end and entries.
desc=$(readelf -x .data.rel.ro.devimg w.o | sed -n 's/^  0x00000140 \([0-9a-f]*\) .*/\1/p')
[ "$desc" = 01000000 ] || fail "NumDeviceImages: $desc"
for want in '0*120 .*R_X86_64_64 .* __CLANG_OFFLOAD_BUNDLE__openmp-xxx \+ 0$' \
	'0*128 .*R_X86_64_64 .* __CLANG_OFFLOAD_BUNDLE__openmp-xxx \+ a$' \
	'0*130 .*R_X86_64_64 .* __start_omp_offloading_entries \+ 0$' \
	'0*138 .*R_X86_64_64 .* __stop_omp_offloading_entries \+ 0$' \
	'0*148 .*R_X86_64_64 .* \.data\.rel\.ro\.devimg \+ 120$' \
	'0*150 .*R_X86_64_64 .* __start_omp_offloading_entries \+ 0$' \
	'0*158 .*R_X86_64_64 .* __stop_omp_offloading_entries \+ 0$' \
	'0*23 .*R_X86_64_PC32 .* \.data\.rel\.ro\.devimg \+ 13c$' \
	'0*28 .*R_X86_64_PLT32 .* __tgt_register_lib - 4$' \
	'0*38 .*R_X86_64_PLT32 .* __tgt_unregister_lib - 4$'; do
	grep -Eq "^$want" r.txt || fail "no relocation $want: $(cat r.txt)"
done
# Constructors: openmp's first, then SYCL's, as DPC++'s wrapper lists them.
grep -A3 "'.rela.init_array.1'" r.txt | tail -n 2 | awk '{ print $NF }' |
	tr '\n' ' ' >init.txt
[ "$(cat init.txt)" = "20 0 " ] || fail "init_array: $(cat r.txt)"

# Linked: libomptarget's stand-in gets the image and the entries table.
$CC -std=c11 -o prog "$wsrc/tgtreg.c" w.o || fail "link failed"
mkdir out
REG_OUT=out ./prog >out.txt || fail "program failed"
sed 's/0x[0-9a-f]*/P/' out.txt >got.txt
cat >want.txt <<'EOT'
register P images 1 entries 2
image 0 size 10 entries same
entry 0 entry_a size 4 flags 0
entry 1 entry_b size 4 flags 1
sycl-register P
main
sycl-unregister P
unregister P
EOT
diff want.txt got.txt || fail "registration differs"
cmp out/omp.0 c.bin || fail "image bytes differ"
reg=$(sed -n 's/^register \(0x[0-9a-f]*\).*/\1/p' out.txt)
grep -qx "unregister $reg" out.txt || fail "unregistered another pointer"

# No entries anywhere: the linker still defines an empty range.
$CC -std=c11 -DNO_ENTRIES -o prog2 "$wsrc/tgtreg.c" w.o ||
	fail "link without entries failed"
./prog2 | grep -qx 'register 0x[0-9a-f]* images 1 entries 0' ||
	fail "without entries: $(./prog2)"

# OpenMP and HIP images only: two descriptors, both registered (openmp's
# first, hip's last); -desc-name makes them global under their kind's name.
"$WRAP" -o o.o -kind=openmp -target=nvptx64 c.bin -format=native d.bin -kind=hip \
	-target=amdgcn-amd-amdhsa h.bin -desc-name=dev ||
	fail "devimg-wrap openmp+hip"
elflint o.o
readelf -sW o.o >osym.txt
grep -Eq ' 32 OBJECT +GLOBAL DEFAULT +[0-9]+ \.openmp_offloading\.dev$' osym.txt ||
	fail "openmp descriptor symbol: $(cat osym.txt)"
grep -Eq ' 32 OBJECT +GLOBAL DEFAULT +[0-9]+ \.hip_offloading\.dev$' osym.txt ||
	fail "hip descriptor symbol: $(cat osym.txt)"
! grep -q __sycl_register_lib osym.txt || fail "SYCL registered without SYCL images"
readelf -SW o.o | grep -q ' __CLANG_OFFLOAD_BUNDLE__hip-amdgcn-amd-amdhsa ' ||
	fail "no hip image section"
$CC -std=c11 -o prog3 "$wsrc/tgtreg.c" o.o || fail "link openmp+hip failed"
rm -rf out && mkdir out
REG_OUT=out ./prog3 | sed 's/0x[0-9a-f]*/P/' >got3.txt || fail "program failed"
cat >want3.txt <<'EOT'
register P images 2 entries 2
image 0 size 10 entries same
image 1 size 40 entries same
entry 0 entry_a size 4 flags 0
entry 1 entry_b size 4 flags 1
register P images 1 entries 2
image 2 size 33 entries same
entry 0 entry_a size 4 flags 0
entry 1 entry_b size 4 flags 1
main
unregister P
unregister P
EOT
diff want3.txt got3.txt || fail "openmp+hip registration differs"
cmp out/omp.0 c.bin && cmp out/omp.1 d.bin && cmp out/omp.2 h.bin ||
	fail "openmp+hip image bytes differ"

# -add-omp-offload-notes: each OpenMP ELF image gets a .note.openmp section
# (SHT_NOTE) with the three LLVMOMPOFFLOAD notes, its own bytes otherwise
# kept (the ELF header but for e_shoff and e_shnum; every other section as
# it was); a non-ELF OpenMP image is wrapped unchanged after a warning, and
# SYCL images are never touched.
printf 'int f(int x) { return x + 1; }\n' >k.c
$CC -c -o k64.o k.c || fail "cc -c"
# An amdgcn code object and a 32-bit big-endian object.
"$CLANG" --target=amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -c \
	-o kgpu.o k.c || fail "$CLANG cannot compile for amdgcn-amd-amdhsa"
"$CLANG" --target=powerpc-linux-gnu -c -o kbe.o k.c ||
	fail "$CLANG cannot compile for powerpc-linux-gnu"
imgs="k64.o kgpu.o kbe.o"
args=
for f in $imgs; do
	args="$args -format=native $f"
done
# shellcheck disable=SC2086
"$WRAP" -o n.o -add-omp-offload-notes -kind=sycl -target=spir64 a.spv \
	-kind=openmp -target=x86_64 $args -format=none c.bin 2>warn.txt ||
	fail "devimg-wrap -add-omp-offload-notes: $(cat warn.txt)"
grep -qx "devimg-wrap: warning: c.bin is not an ELF image, so notes cannot be added to it." warn.txt ||
	fail "warning: $(cat warn.txt)"
elflint n.o
$CC -std=c11 -o prog4 "$wsrc/tgtreg.c" n.o || fail "link with notes failed"
rm -rf out && mkdir out
REG_OUT=out ./prog4 >out4.txt || fail "program with notes failed"
i=0
for f in $imgs; do
	got=out/omp.$i
	readelf -nW "$got" >notes.$i || fail "$f: readelf -n: $(cat notes.$i)"
	[ "$(grep -c '^ *LLVMOMPOFFLOAD ' notes.$i)" -eq 3 ] ||
		fail "$f: notes: $(cat notes.$i)"
	grep -q "^Displaying notes found in: \.note\.openmp" notes.$i ||
		fail "$f: no .note.openmp: $(cat notes.$i)"
	grep -Eq 'LLVMOMPOFFLOAD +0x00000003.*data: 31 2e 30 $' notes.$i ||
		fail "$f: version note: $(cat notes.$i)"
	grep -Eq 'LLVMOMPOFFLOAD +0x00000006.*data: 64 65 76 69 6d 67 $' notes.$i ||
		fail "$f: producer note: $(cat notes.$i)"
	readelf -SW "$got" | grep -Eq ' \.note\.openmp +NOTE +0+ [0-9a-f]+ 000068 00 +0 +0 +4$' ||
		fail "$f: section: $(readelf -SW "$got")"
	# Every section of the input is still there, at the same place.
	# (but the section name table, grown and moved to the end).
	names=$(readelf -hW "$f" | sed -n 's/^ *Section header string table index: *//p')
	readelf -SW "$f" | grep '^ *\[' | grep -v "^ *\[ *$names\]" >in.s
	readelf -SW "$got" | grep '^ *\[' | grep -v "^ *\[ *$names\]" |
		grep -v '\.note\.openmp' >got.s
	diff in.s got.s || fail "$f: sections moved"
	size=$(wc -c <"$f")
	cmp -n $((size - 64)) -i 64 "$f" "$got" || fail "$f: bytes changed"
	i=$((i + 1))
done
cmp out/omp.$i c.bin || fail "non-ELF image changed"
"$WRAP" -o n2.o -add-omp-offload-notes -kind=sycl -target=spir64 k64.o ||
	fail "devimg-wrap sycl with notes"
size=$(printf '%06x' "$(wc -c <k64.o)")
readelf -SW n2.o | grep -q " __CLANG_OFFLOAD_BUNDLE__sycl-spir64 .* $size " ||
	fail "SYCL image changed: $(readelf -SW n2.o)"

# A damaged ELF image is wrapped unchanged after a warning too.
head -c 200 k64.o >cut.o
"$WRAP" -o cut.w.o -add-omp-offload-notes -kind=openmp cut.o 2>warn2.txt ||
	fail "devimg-wrap with a cut ELF image"
grep -qx "devimg-wrap: warning: cut.o is not an ELF image (section headers past its end), so notes cannot be added to it." warn2.txt ||
	fail "cut image warning: $(cat warn2.txt)"

# -offload-compress leaves OpenMP images alone: only the SYCL runtime
# reads compressed images.
rand_file big.bin 5000
"$WRAP" -o z.o -offload-compress -offload-compression-threshold=0 \
	-kind=openmp -format=none big.bin || fail "devimg-wrap -offload-compress"
$CC -std=c11 -o prog5 "$wsrc/tgtreg.c" z.o || fail "link compressed failed"
rm -rf out && mkdir out
REG_OUT=out ./prog5 >/dev/null || fail "program (compress) failed"
cmp out/omp.0 big.bin || fail "OpenMP image compressed"

# DPC++'s first driver test (clang-offload-wrapper.c), its command line as
# it is: an OpenMP image (not ELF, with a manifest) before two SYCL ones.
echo 'Content of device file1' >t1.tgt
echo 'Content of device file2' >t2.tgt
echo 'Content of device file3' >t3.tgt
echo 'Content of manifest file1' >t1_mf.txt
"$WRAP" -add-omp-offload-notes -host=x86_64-pc-linux-gnu \
	-kind=openmp -target=tg2 -format=native t3.tgt t1_mf.txt \
	-kind=sycl -target=tg1 -compile-opts=-g -link-opts=-cl-denorms-are-zero \
	-format spirv t1.tgt -target=tg2 -compile-opts= -link-opts= \
	-format native t2.tgt -o d.o 2>warn3.txt || fail "driver test command"
grep -q 'is not an ELF image, so notes cannot be added to it\.$' warn3.txt ||
	fail "driver test warning: $(cat warn3.txt)"
elflint d.o
# .tgtimg: the OpenMP image first, as DPC++ handles the openmp kind first.
readelf -rW d.o | sed -n "/'.rela.tgtimg'/,/^$/p" |
	awk '/R_X86_64_64/ { print $1, $5 }' >tgt.txt
cat >want-tgt.txt <<'EOT'
0000000000000000 __CLANG_OFFLOAD_BUNDLE__openmp-tg2
0000000000000010 __CLANG_OFFLOAD_BUNDLE__sycl-tg1
0000000000000020 __CLANG_OFFLOAD_BUNDLE__sycl-tg2
EOT
diff want-tgt.txt tgt.txt || fail ".tgtimg order"
$CC -std=c11 -o prog6 "$wsrc/tgtreg.c" d.o || fail "link driver test"
rm -rf out && mkdir out
REG_OUT=out ./prog6 | sed 's/0x[0-9a-f]*/P/' >got6.txt ||
	fail "driver test program failed"
head -n 2 got6.txt | tr '\n' ' ' >got6.head
[ "$(cat got6.head)" = "register P images 1 entries 2 image 0 size 24 entries same " ] ||
	fail "driver test registration: $(cat got6.txt)"
cmp out/omp.0 t3.tgt || fail "driver test OpenMP image"

# Its notes inputs: yaml2obj's empty ELF object of each class and byte
# order gets the three notes, which readelf reads back.
printf -- '--- !ELF\nFileHeader:\n  Class: ELFCLASS[[BITS]]\n  Data:  ELFDATA2[[ENCODING]]\n  Type:  ET_REL\n' >empty.yaml
for v in 64:LSB 64:MSB 32:LSB 32:MSB; do
	b=${v%:*} e=${v#*:}
	"$yaml2obj" empty.yaml -o "e$b$e" -DBITS="$b" -DENCODING="$e" ||
		fail "$yaml2obj $v"
	"$WRAP" -add-omp-offload-notes -kind=openmp \
		-target=x86_64-pc-linux-gnu -o "e$b$e.o" "e$b$e" 2>warn4.txt ||
		fail "devimg-wrap $v"
	[ ! -s warn4.txt ] || fail "$v: $(cat warn4.txt)"
	$CC -std=c11 -o prog7 "$wsrc/tgtreg.c" "e$b$e.o" || fail "link $v"
	rm -rf out && mkdir out
	REG_OUT=out ./prog7 >/dev/null || fail "program $v"
	readelf -nW out/omp.0 >n7.txt 2>&1 || fail "$v: $(cat n7.txt)"
	[ "$(grep -c '^ *LLVMOMPOFFLOAD ' n7.txt)" -eq 3 ] ||
		fail "$v: notes: $(cat n7.txt)"
	grep -Eq 'LLVMOMPOFFLOAD +0x00000003.*data: 31 2e 30 $' n7.txt ||
		fail "$v: version note: $(cat n7.txt)"
done
