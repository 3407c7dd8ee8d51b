#!/bin/sh
# devimg-wrap -form=blob -host=aarch64-linux-gnu: the constructor and the
# destructor, linked statically with a stand-in for the runtime and run,
# pass the blob's address (16-aligned, the OffloadBinary's magic) and its
# size (the section's, and the header's Size) in x0 and x1, the same in
# both; the size is moved into x1 16 bits at a time, four moves (checked
# by disassembly when aarch64-linux-gnu-objdump is there).
#
# On x86-64 it needs aarch64-linux-gnu-gcc with its static libc and
# qemu-aarch64, and skips as a whole (cross-aarch64) without them; on
# aarch64 it uses $CC and runs the program directly. XCC and QEMU_AARCH64
# override the tools.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
aarch64_tools

cat >reg.c <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void show(const char *what, const unsigned char *b, uint64_t size)
{
	uint64_t hs;

	memcpy(&hs, b + 8, 8);
	printf("%s magic %s aligned %d size %llu header %llu\n", what,
	       memcmp(b, "\x10\xff\x10\xad", 4) ? "bad" : "ok",
	       (int)((uintptr_t)b % 16 == 0), (unsigned long long)size,
	       (unsigned long long)hs);
}

void __sycl_register_lib(const unsigned char *b, uint64_t size)
{
	show("register", b, size);
}

void __sycl_unregister_lib(const unsigned char *b, uint64_t size)
{
	show("unregister", b, size);
}

int main(void)
{
	puts("main");
	return 0;
}
EOF
spirv_file a.spv 300
sym_file a.sym k_one k_two
"$WRAP" -form=blob -o a64.o -host=aarch64-linux-gnu -kind=sycl \
	-target=spir64 -format=spirv -entries=a.sym a.spv || fail "aarch64 wrap"
readelf -hW a64.o | grep -q 'Machine: *AArch64' ||
	fail "a64.o is not for AArch64: $(readelf -hW a64.o)"
size=$(readelf -SW a64.o |
	sed -n 's/.* \.llvm\.offloading *[^ ]* *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1/p')
[ -n "$size" ] || fail "no .llvm.offloading: $(readelf -SW a64.o)"
size=$(printf '%d' "0x$size")
$XCC -std=c11 -static -o prog reg.c a64.o || fail "$XCC cannot link a64.o"
$run ./prog >out.txt || fail "aarch64 program failed"
cat >want.txt <<EOF
register magic ok aligned 1 size $size header $size
main
unregister magic ok aligned 1 size $size header $size
EOF
diff want.txt out.txt || fail "aarch64 registration differs"

# The size in x1 is built 16 bits at a time: all four moves matter.
objdump=aarch64-linux-gnu-objdump
if command -v $objdump >/dev/null 2>&1; then
	$objdump -d a64.o >dis.txt || fail "$objdump -d a64.o"
	[ "$(grep -c 'mov[kz]*	x1, #' dis.txt)" = 8 ] ||
		fail "not four moves into x1 per stub: $(cat dis.txt)"
	grep -q "mov	x1, #0x$(printf '%x' "$size")" dis.txt ||
		fail "x1 does not get $size: $(cat dis.txt)"
else
	echo "# no $objdump: the moves are checked by running only"
fi
echo PASS
