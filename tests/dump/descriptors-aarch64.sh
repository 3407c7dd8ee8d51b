#!/bin/sh
# devimg-dump finds LLVM 22's binary descriptor (tests/dump/desc-llvm.c)
# in files built for aarch64 as tests/dump/descriptors.sh finds it in
# x86-64 ones: a relocatable object (R_AARCH64_ABS64), a shared library
# and a PIE (R_AARCH64_RELATIVE) each list both images, exactly.
#
# On x86-64 it needs aarch64-linux-gnu-gcc and its libc
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross) and skips as a whole
# (cross-aarch64) without them; on aarch64 it uses $CC. XCC overrides
# the compiler.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

if [ "$(uname -m)" = aarch64 ]; then
	: "${XCC:=${CC:-cc}}"
else
	: "${XCC:=aarch64-linux-gnu-gcc}"
	command -v "$XCC" >/dev/null 2>&1 ||
		skip cross-aarch64 "no aarch64 cross compiler ($XCC; Debian: gcc-aarch64-linux-gnu)"
fi
fixture_main
cd "$scratch"
$XCC -o probe main.c 2>xcc.err ||
	skip cross-aarch64 "$XCC cannot link programs (libc6-dev-arm64-cross missing?): $(head -n 3 xcc.err)"

# shown FILE: the text listing without what the link decides (where the
# descriptor and the bytes lie).
shown() {
	"$dump" "$1" >"$1.txt" || fail "devimg-dump $1 failed"
	sed -e 's/^\(  found: *descriptor\) in section .*/\1/' \
		-e 's/^\(  size: *[0-9]* bytes\) at file offset 0x[0-9a-f]*$/\1/' \
		"$1.txt"
}

# What devimg-dump lists of desc-llvm.c's descriptor (F: the file).
cp "$top_srcdir/tests/dump/desc-llvm.txt" want-llvm.txt

$XCC -fPIC -c "$top_srcdir/tests/dump/desc-llvm.c" -o a64.o ||
	fail "$XCC cannot compile desc-llvm.c"
$XCC -shared -nostdlib a64.o -o a64.so || fail "$XCC -shared failed"
$XCC -fPIE -pie main.c a64.o -o a64-pie || fail "$XCC cannot link a PIE"
readelf -hW a64.o | grep -q 'Machine: *AArch64' ||
	fail "a64.o is not for AArch64: $(readelf -hW a64.o)"
readelf -rW a64.o | grep -q R_AARCH64_ABS64 ||
	fail "a64.o has no R_AARCH64_ABS64: $(readelf -rW a64.o)"
for f in a64.so a64-pie; do
	readelf -rW $f | grep -q R_AARCH64_RELATIVE ||
		fail "$f has no R_AARCH64_RELATIVE: $(readelf -rW $f)"
done
for f in a64.o a64.so a64-pie; do
	sed "1s/^F:/$f:/" want-llvm.txt >want.txt
	shown "$f" >got.txt
	cmp -s want.txt got.txt || fail "$f text: $(diff want.txt got.txt)"
done
echo "PASS: aarch64 object, shared library and PIE"
