#!/bin/sh
# Objects that devimg-wrap writes for an aarch64 host (-host=aarch64-linux-gnu)
# link with Debian's aarch64 cross toolchain into a PIE, a non-PIE, a static
# program and a shared library opened with dlopen, and under qemu-aarch64
# each registers its descriptor before main (or dlopen) returns, and
# unregisters the same descriptor at exit (or dlclose). A registrar built
# for aarch64 reports what it received: versions, count, every image's
# kind, format, target, options, size, entry names, property sets and
# cksum(1) of its bytes, manifest and byte arrays; it must be what the
# inputs say. devimg-dump must read the same images back from the object,
# the program and the library, and eu-elflint --strict finds nothing in
# the object.
#
# Skips (77, cross-aarch64) without aarch64-linux-gnu-gcc and its libc,
# shared and static (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross), or
# qemu-aarch64 (qemu-user), and (tools) without eu-elflint; on an aarch64
# host it uses $CC and runs the programs directly. XCC and QEMU_AARCH64
# override the tools, QEMU_LD_PREFIX the cross root
# (default /usr/aarch64-linux-gnu).
. "$top_srcdir/tests/lib.sh"

WRAP=$top_builddir/devimg-wrap
DUMP=$top_builddir/devimg-dump
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
[ -x "$DUMP" ] || skip build "devimg-dump is not built"
command -v readelf >/dev/null 2>&1 || skip tools "readelf not found"
command -v cksum >/dev/null 2>&1 || skip tools "cksum not found"

if [ "$(uname -m)" = aarch64 ]; then
	: "${XCC:=${CC:-cc}}"
	run=""
else
	: "${XCC:=aarch64-linux-gnu-gcc}"
	: "${QEMU_AARCH64:=qemu-aarch64}"
	: "${QEMU_LD_PREFIX:=/usr/aarch64-linux-gnu}"
	command -v "$XCC" >/dev/null 2>&1 ||
		skip cross-aarch64 "no aarch64 cross compiler ($XCC; Debian: gcc-aarch64-linux-gnu)"
	command -v "$QEMU_AARCH64" >/dev/null 2>&1 ||
		skip cross-aarch64 "no $QEMU_AARCH64 (Debian: qemu-user)"
	run="$QEMU_AARCH64 -L $QEMU_LD_PREFIX"
fi
[ "${EU_ELFLINT:-no}" != no ] ||
	skip tools "configure found no eu-elflint (elfutils) to check the object"

cd "$scratch"

# The toolchain links and runs programs, dynamic and static.
echo 'int main(void) { return 0; }' >main.c
$XCC -o probe main.c 2>xcc.err ||
	skip cross-aarch64 "$XCC cannot link programs (libc6-dev-arm64-cross missing?): $(head -3 xcc.err)"
$run ./probe || skip cross-aarch64 "qemu cannot run an aarch64 program here"
$XCC -static -o probe-static main.c 2>xcc.err ||
	skip cross-aarch64 "$XCC cannot link static programs (no static libc?): $(head -3 xcc.err)"
$run ./probe-static ||
	skip cross-aarch64 "qemu cannot run a static aarch64 program here"

# ---- inputs ----

ck() {
	cksum <"$1" | cut -d' ' -f1
}

head -c 4099 /dev/urandom >a.bin
printf 'manifest\nof image 0\n' >a.mnf
printf '%s\n' _ZTS7KernelA _ZTS7KernelB kernel_c >a.sym
cat >a.props <<'EOF'
[SYCL/specialization constants default values]
all=2|IBAAAAAAAAAFAAAAjBAAAEA
[SYCL/misc properties]
optLevel=1|3
name=1|64
EOF
# all: 72 bits, 14 00 00 00 63 00 00 00 01, after its 8-byte bit count.
printf '\110\000\000\000\000\000\000\000\024\000\000\000\143\000\000\000\001' \
	>all.bytes
cat >b.ptx <<'EOF'
//
// PTX-like text for an nvptx64 image
//
.version 7.0
.target sm_80
.address_size 64
.visible .entry k_ptx(.param .u64 k_ptx_param_0)
{
	ret;
}
EOF
printf 'k_ptx\n' >b.sym
head -c 1048581 /dev/urandom >c.bin

set -- -kind=sycl \
	-target=spir64 -format=spirv -compile-opts="-O3 -g" \
	-link-opts=-cl-fast-relaxed-math -entries=a.sym -properties=a.props \
	a.bin a.mnf \
	-target=nvptx64 -format=native -compile-opts= -link-opts= \
	-entries=b.sym -properties= b.ptx \
	-target=spir64_gen -format=none -entries= c.bin

"$WRAP" -o w.o -host=aarch64-linux-gnu "$@" ||
	fail "devimg-wrap -host=aarch64-linux-gnu failed"

# The registrar's report for one registration of w.o's descriptor.
cat >expected <<EOF
register 0 version 1 count 3 host null
image 0 version 2 kind 4 format 2 size 4099 cksum $(ck a.bin) manifest $(wc -c <a.mnf | tr -d ' ') cksum $(ck a.mnf)
target 0 "spir64"
compile 0 "-O3 -g"
link 0 "-cl-fast-relaxed-math"
entry 0 0 _ZTS7KernelA
entry 0 1 _ZTS7KernelB
entry 0 2 kernel_c
propset 0 0 SYCL/specialization constants default values nprops 1
prop 0 0 0 all type 2 size 17 cksum $(ck all.bytes)
propset 0 1 SYCL/misc properties nprops 2
prop 0 1 0 optLevel type 1 size 3
prop 0 1 1 name type 1 size 64
image 1 version 2 kind 4 format 1 size $(wc -c <b.ptx | tr -d ' ') cksum $(ck b.ptx) manifest none
target 1 "nvptx64"
compile 1 ""
link 1 ""
entry 1 0 k_ptx
image 2 version 2 kind 4 format 0 size 1048581 cksum $(ck c.bin) manifest none
target 2 "spir64_gen"
compile 2 ""
link 2 ""
unregister 0
EOF

# ---- the object ----

readelf -hW w.o >hdr || fail "readelf cannot read w.o"
grep -q 'Class: *ELF64' hdr || fail "w.o is not ELF64: $(cat hdr)"
grep -q 'little endian' hdr || fail "w.o is not little endian: $(cat hdr)"
grep -q 'Machine: *AArch64' hdr || fail "w.o is not for AArch64: $(cat hdr)"
grep -q 'Type: *REL ' hdr || fail "w.o is not relocatable: $(cat hdr)"
readelf -rW w.o >rel || fail "readelf -r w.o failed"
for r in R_AARCH64_ADR_PREL_PG_HI21 R_AARCH64_ADD_ABS_LO12_NC \
	R_AARCH64_JUMP26 R_AARCH64_ABS64 R_AARCH64_PREL64; do
	grep -q "$r" rel || fail "w.o has no $r relocation"
done
! grep -q R_X86_64 rel || fail "w.o has x86-64 relocations"
"$EU_ELFLINT" --strict w.o >elflint.out 2>&1 ||
	fail "eu-elflint --strict w.o: $(cat elflint.out)"

# Other spellings of the host give the same bytes.
for h in aarch64 arm64 aarch64-unknown-linux-gnu; do
	"$WRAP" -o alias.o -host=$h "$@" || fail "devimg-wrap -host=$h failed"
	cmp -s w.o alias.o || fail "-host=$h writes other bytes than aarch64-linux-gnu"
done
expect_fail "unsupported host" "$WRAP" -o bad.o -host=aarch64-apple-darwin "$@"

# devimg-dump reads the images back: FILE.INDEX.TARGET.EXT in DIR.
check_extract() {
	rm -rf x && mkdir x
	"$DUMP" --extract x "$1" >x.list || fail "devimg-dump --extract $1 failed"
	base=$(basename "$1")
	[ "$(wc -l <x.list)" -eq 3 ] ||
		fail "devimg-dump --extract $1: not 3 images: $(cat x.list)"
	cmp x/"$base".0.spir64.* a.bin || fail "$1: image 0 differs"
	cmp x/"$base".1.nvptx64.* b.ptx || fail "$1: image 1 differs"
	cmp x/"$base".2.spir64_gen.* c.bin || fail "$1: image 2 differs"
}
check_extract w.o

# ---- linked for aarch64, run ----

cfile=$top_srcdir/tests/pkg/cross-registrar.c
cat >dlmain.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h;

	if (argc != 2)
		return 2;
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	puts("opened");
	fflush(stdout);
	if (dlclose(h))
		return 1;
	puts("closed");
	return 0;
}
EOF

$XCC -std=c11 -O1 -fPIC -c "$cfile" -o registrar.o 2>xcc.err ||
	fail "$XCC cannot compile the registrar: $(cat xcc.err)"

check_run() {
	name=$1 want=$2
	shift 2
	$run "$@" >"$name.out" 2>"$name.err" ||
		fail "$name: the program failed: $(cat "$name.err" "$name.out")"
	diff -u "$want" "$name.out" >"$name.diff" ||
		fail "$name: the registrar received other than the inputs: $(head -40 "$name.diff")"
}

$XCC -fPIE -pie -o prog-pie main.c w.o registrar.o || fail "PIE link failed"
check_run pie expected ./prog-pie
check_extract prog-pie

$XCC -no-pie -o prog-nopie main.c w.o registrar.o || fail "non-PIE link failed"
check_run nopie expected ./prog-nopie

$XCC -static -o prog-static main.c w.o registrar.o ||
	fail "static link failed"
check_run static expected ./prog-static

$XCC -shared -o libreg.so registrar.o || fail "cannot link libreg.so"
$XCC -shared -o libw.so w.o -L. -lreg -Wl,-rpath,"$scratch" ||
	fail "cannot link libw.so"
! readelf -dW libw.so | grep -q TEXTREL || fail "libw.so has text relocations"
$XCC -o prog-dlopen dlmain.c -ldl || fail "cannot link the dlopen program"
sed -e '/^unregister/i opened' -e '$a closed' expected >expected.dlopen
check_run dlopen expected.dlopen ./prog-dlopen "$scratch/libw.so"
check_extract libw.so

echo PASS
