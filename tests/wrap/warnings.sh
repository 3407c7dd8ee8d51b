#!/bin/sh
# devimg-wrap's warnings: one line each on stderr, exit status 0 and the
# object written as without them (-w silences them, the bytes the same);
# -Werror makes them errors (exit 1, nothing written). A SYCL image
# without -entries (not with -entries=""), a manifest that looks like a
# kernel list (a .sym name, or names one a line), a -format the magic
# number contradicts (SPIR-V in either byte order, LLVM bitcode and its
# wrapper, ELF, fatbin, PTX text, unknown bytes), kernels of a SPIR-V
# image's list that are not OpEntryPoint names of its module (first
# three named, then "and more"); in a batch table, the row.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"

# le32 WORD...: little-endian 32-bit words; be32: big-endian.
le32() {
	for w; do
		printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((w & 255)) \
			$((w >> 8 & 255)) $((w >> 16 & 255)) $((w >> 24 & 255)))"
	done
}
be32() {
	for w; do
		printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((w >> 24 & 255)) \
			$((w >> 16 & 255)) $((w >> 8 & 255)) $((w & 255)))"
	done
}
# module ENDIAN: a SPIR-V module with OpEntryPoint Kernel "vadd" and
# "vsub", OpExecutionMode after them: on stdout.
module() {
	$1 0x07230203 0x00010000 0 10 0	# header
	$1 0x00020011 6			# OpCapability Kernel
	$1 0x0003000e 2 2		# OpMemoryModel Physical64 OpenCL
	# OpEntryPoint Kernel %1 "vadd"; %2 "vsub" (name, NUL word)
	$1 0x0005000f 6 1 0x64646176 0
	$1 0x0005000f 6 2 0x62757376 0
	$1 0x00030010 1 0		# OpExecutionMode: the preamble ends
}
module le32 >m.spv
module be32 >mbe.spv
printf 'vadd\nvsub\n' >ok.sym
printf 'vadd\nvmul\n' >one.sym
printf 'vadd\nk1\nk2\nk3\nk4\n' >many.sym
printf 'BC\300\336' >k.bc && head -c 60 /dev/zero >>k.bc
le32 0x0b17c0de 0 20 40 >kw.bc && head -c 60 /dev/zero >>kw.bc
le32 0xba55ed50 0 0 0 >k.fatbin
cp "$WRAP" k.elf
ptx_file k.ptx
rand_file k.bin 64
printf '\001\002\003' >bin.mnf
printf 'vadd\nvsub\n' >names.mnf

# warns EXPECTED ARGS...: devimg-wrap -o w.o ARGS exits 0 and says exactly
# EXPECTED on stderr (lines; "" for nothing), and w.o is as with -w.
warns() {
	want=$1
	shift
	rm -f w.o q.o
	"$WRAP" -o w.o "$@" >out 2>err || fail "devimg-wrap $* exited $?: $(cat err)"
	[ "$(cat err)" = "$want" ] ||
		fail "devimg-wrap $*: stderr '$(cat err)', expected '$want'"
	"$WRAP" -o q.o -w "$@" 2>err || fail "devimg-wrap -w $* exited $?: $(cat err)"
	[ ! -s err ] || fail "devimg-wrap -w $* said: $(cat err)"
	cmp -s w.o q.o || fail "devimg-wrap $*: the object differs with -w"
}
W="devimg-wrap: warning:"

# A SYCL image without a kernel list; -entries="" says it has none.
warns "$W m.spv: a SYCL image without a kernel list (-entries=FILE): no kernel of it can be found at run time (-entries=\"\" says it has none)" \
	-kind=sycl -format=spirv m.spv
warns "" -kind=sycl -format=spirv -entries= m.spv
warns "" -kind=sycl -format=spirv -entries=ok.sym m.spv
# Not for other kinds.
warns "" -kind=openmp -format=native k.elf

# A manifest that looks like a kernel list: its name, its content.
cp ok.sym m2.sym
warns "$W m2.sym: taken as the manifest of m.spv, but it looks like a kernel list (give it as -entries=m2.sym)" \
	-kind=sycl -format=spirv -entries=ok.sym m.spv m2.sym
warns "$W names.mnf: taken as the manifest of m.spv, but it looks like a kernel list (give it as -entries=names.mnf)" \
	-kind=sycl -format=spirv -entries=ok.sym m.spv names.mnf
warns "" -kind=sycl -format=spirv -entries=ok.sym m.spv bin.mnf

# -format against the magic number.
warns "$W k.bc: -format=spirv, but the file is LLVM bitcode (-format=llvmbc)" \
	-kind=sycl -entries= -format=spirv k.bc
warns "$W kw.bc: -format=spirv, but the file is LLVM bitcode (-format=llvmbc)" \
	-kind=sycl -entries= -format=spirv kw.bc
warns "$W m.spv: -format=llvmbc, but the file is SPIR-V (-format=spirv)" \
	-kind=sycl -entries= -format=llvmbc m.spv
warns "$W mbe.spv: -format=native, but the file is SPIR-V (-format=spirv)" \
	-kind=sycl -entries= -format=native mbe.spv
warns "$W k.ptx: -format=spirv, but the file is PTX text (-format=native or none)" \
	-kind=sycl -entries= -format=spirv k.ptx
warns "$W k.fatbin: -format=llvmbc, but the file is a CUDA fatbin (-format=native)" \
	-kind=sycl -entries= -format=llvmbc k.fatbin
warns "$W k.elf: -format=spirv, but the file is an ELF file (-format=native)" \
	-kind=sycl -entries= -format=spirv k.elf
warns "$W k.bin: -format=spirv, but the file is of no format devimg-wrap knows" \
	-kind=sycl -entries= -format=spirv k.bin
T=-target=spir64
warns "" -kind=sycl -entries= -format=llvmbc k.bc $T kw.bc \
	-format=native k.elf $T k.fatbin $T k.ptx -format=none m.spv $T k.bc \
	$T k.bin -format=spirv m.spv $T mbe.spv

# Listed kernels that are not entry points, in either byte order.
warns "$W m.spv: 1 kernel of one.sym is not an OpEntryPoint of the SPIR-V module: 'vmul'" \
	-kind=sycl -format=spirv -entries=one.sym m.spv
warns "$W mbe.spv: 4 kernels of many.sym are not an OpEntryPoint of the SPIR-V module: 'k1', 'k2', 'k3' and more" \
	-kind=sycl -format=spirv -entries=many.sym mbe.spv
warns "" -kind=sycl -format=spirv -entries=ok.sym m.spv mbe.spv
# Bytes that only start like SPIR-V (no OpMemoryModel): nothing to say.
spirv_file fake.spv 64
warns "" -kind=sycl -format=spirv -entries=one.sym fake.spv

# Several: in image order, one line each; a batch row says where.
printf '[Code|Symbols]\nm.spv|one.sym\nk.bc|\n' >t.table
warns "$W m.spv: 1 kernel of one.sym is not an OpEntryPoint of the SPIR-V module: 'vmul' (t.table:2)
$W k.bc: -format=spirv, but the file is LLVM bitcode (-format=llvmbc) (t.table:3)" \
	-kind=sycl -format=spirv -batch t.table

# -Werror: every warning as an error line, exit 1, nothing written.
echo old >w.o
"$WRAP" -Werror -o w.o -kind=sycl -format=spirv m.spv -entries=one.sym \
	k.bc >out 2>err && fail "devimg-wrap -Werror wrote despite warnings"
[ "$(cat err)" = "devimg-wrap: error: m.spv: a SYCL image without a kernel list (-entries=FILE): no kernel of it can be found at run time (-entries=\"\" says it has none) [-Werror]
devimg-wrap: error: k.bc: -format=spirv, but the file is LLVM bitcode (-format=llvmbc) [-Werror]" ] ||
	fail "-Werror: $(cat err)"
[ "$(cat w.o)" = old ] || fail "-Werror replaced the output"
"$WRAP" -Werror -o w.o -kind=sycl -format=spirv -entries=ok.sym m.spv 2>err ||
	fail "-Werror without warnings failed: $(cat err)"
[ ! -s err ] || fail "-Werror without warnings said: $(cat err)"
# A failing command: its one error line, no warning.
"$WRAP" -o w.o -kind=sycl m.spv missing.spv 2>err && fail "a missing manifest wrapped"
[ "$(wc -l <err)" -eq 1 ] || fail "a failing command printed more than its error: $(cat err)"
"$WRAP" --help | grep -q -- '-Werror' || fail "--help does not name -Werror"
