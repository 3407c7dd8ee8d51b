#!/bin/sh
# -emit-reg-funcs=0 leaves no code behind: no .text.devimg, no
# .init_array.1 or .fini_array.1 and no relocation section without
# relocations, as DPC++'s clang-offload-wrapper writes none; the images,
# the descriptors and the index are all still there (devimg-dump extracts
# the image). The same holds for an object with nothing to register (host
# images only).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

DUMP=$top_builddir/devimg-dump
[ -x "$DUMP" ] || skip build "devimg-dump is not built"
cd "$scratch"
spirv_file a.spv 300
rand_file c.bin 10

no_code() {
	elflint "$1"
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *\([^ ]*\) .*/\1/p' >"$1.s"
	for sec in .text.devimg .rela.text.devimg .init_array.1 \
		.rela.init_array.1 .fini_array.1 .rela.fini_array.1 .tgtimg \
		.rela.tgtimg; do
		! grep -qx -- "$sec" "$1.s" || fail "$1: $sec left: $(cat "$1.s")"
	done
	for sec in "$@"; do
		[ "$sec" = "$1" ] || grep -qx -- "$sec" "$1.s" ||
			fail "$1: no $sec: $(cat "$1.s")"
	done
	! readelf -sW "$1" | grep -Eq '_register_lib|_unregister_lib|\.text\.devimg' ||
		fail "$1: registration symbols left: $(readelf -sW "$1")"
}

"$WRAP" -o s.o -emit-reg-funcs=0 -kind=sycl -target=spir64 a.spv ||
	fail "devimg-wrap sycl"
no_code s.o .devimg .rela.devimg .data.rel.ro.devimg \
	.rela.data.rel.ro.devimg __CLANG_OFFLOAD_BUNDLE__sycl-spir64
"$WRAP" -o o.o -emit-reg-funcs=0 -kind=sycl -target=spir64 a.spv \
	-kind=openmp c.bin || fail "devimg-wrap sycl+openmp"
no_code o.o omp_offloading_entries __CLANG_OFFLOAD_BUNDLE__openmp-spir64
"$WRAP" -o h.o -emit-reg-funcs=0 -kind=host -target=x86_64 c.bin ||
	fail "devimg-wrap host"
no_code h.o .devimg .data.rel.ro.devimg __CLANG_OFFLOAD_BUNDLE__host-x86_64

# The image is still found: devimg-dump extracts it.
mkdir x
"$DUMP" --extract x s.o >x.list 2>x.err ||
	fail "devimg-dump --extract x s.o: $(cat x.err)"
[ "$(cat x.list)" = x/s.o.0.spir64.spv ] ||
	fail "devimg-dump --extract x s.o wrote: $(cat x.list)"
cmp a.spv x/s.o.0.spir64.spv || fail "the extracted image differs"

# Linked into a program, nothing registers.
cat >main.c <<'EOT'
int main(void) { return 0; }
EOT
$CC -o prog main.c o.o || fail "link without registration failed"
./prog || fail "program failed"
