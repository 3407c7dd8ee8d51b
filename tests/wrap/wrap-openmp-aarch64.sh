#!/bin/sh
# wrap-openmp.sh's usage example for an aarch64 host
# (-host=aarch64-linux-gnu): SYCL and -kind=openmp images in one object,
# linked statically with the stand-in for libomptarget (tgtreg.c) and run,
# register in the same order, the OpenMP image byte for byte with the host
# entries range, and unregister at exit.
#
# On x86-64 it needs aarch64-linux-gnu-gcc with its static libc
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross) and qemu-aarch64
# (qemu-user), and skips as a whole (cross-aarch64) without them; on
# aarch64 it uses $CC and runs the program directly. XCC and QEMU_AARCH64
# override the tools.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
aarch64_tools

spirv_file a.spv 300
rand_file c.bin 10
"$WRAP" -o a64.o -host=aarch64-linux-gnu -kind=sycl -target=spir64 \
	a.spv -kind=openmp -target=nvptx64 c.bin || fail "aarch64 wrap"
elflint a64.o
readelf -hW a64.o | grep -q 'Machine: *AArch64' ||
	fail "a64.o is not for AArch64: $(readelf -hW a64.o)"
$XCC -std=c11 -static -o prog "$wsrc/tgtreg.c" a64.o ||
	fail "$XCC cannot link a64.o"
mkdir out
REG_OUT=out $run ./prog >out.txt || fail "aarch64 program failed"
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
diff want.txt got.txt || fail "aarch64 registration differs"
cmp out/omp.0 c.bin || fail "aarch64 image bytes differ"
reg=$(sed -n 's/^register \(0x[0-9a-f]*\).*/\1/p' out.txt)
grep -qx "unregister $reg" out.txt || fail "unregistered another pointer"
echo PASS
