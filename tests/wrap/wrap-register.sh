#!/bin/sh
# Images of every format (SPIR bitcode from clang: the test skips without
# it), with and without entries, properties and a manifest, wrapped into
# one object that is linked every way we promise (non-PIE, PIE, shared
# library opened with dlopen; GNU ld, which must link, and gold where it
# links: the test says which ran): the registrar receives each image byte
# for byte and the descriptor says what the inputs say.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

[ "${CLANG:-no}" != no ] ||
	skip clang "configure found no clang to make a SPIR bitcode image"

build_registrar
build_mkprops
cd "$scratch"

rand_file native.bin 3001
spirv_file a.spv 4096
ptx_file k.ptx
rand_file empty.bin 0
sym_file a.sym _ZTS7KernelA _ZTS7KernelB "name with spaces"
sym_file k.sym k_ptx
: >nothing.sym
gen_props 1 a
gen_props 2 k
printf 'manifest text\nline 2\n' >a.mnf

set -- -o w.o -kind=sycl \
	-target=spir64 -format=spirv -compile-opts=-g \
	-link-opts=-cl-denorms-are-zero -entries=a.sym -properties=a.props \
	a.spv a.mnf \
	-target=nvptx64 -format=native -compile-opts= -link-opts= \
	-entries=k.sym -properties=k.props k.ptx \
	-target=spir64_x86_64 -format=none -entries= -properties= native.bin \
	-target=spir64_gen -entries=nothing.sym -properties= \
	empty.bin
expect_reset
expect 0 a.spv spirv spir64 -g -cl-denorms-are-zero a.sym a.pjson a.mnf
expect 1 k.ptx native nvptx64 "" "" k.sym k.pjson -
expect 2 native.bin none spir64_x86_64 "" "" - - -
expect 3 empty.bin none spir64_gen "" "" - - -
bitcode_file k.bc
set -- "$@" -target=spir64 -format=llvmbc -entries=a.sym -properties= k.bc
expect 4 k.bc llvmbc spir64 "" "" a.sym - -

"$WRAP" "$@" || fail "devimg-wrap $*"
elflint w.o
run_all_links "$scratch/w.o"

# What JSON cannot show: which ranges are NULL and which are empty
# (DPC++: no file gives NULL, NULL; an entries file without names gives
# an empty array; a set without properties gives NULL, NULL).
r=run.pie-bfd/ranges.0
check_range() {
	grep -q "$1" "$r" || fail "ranges: no line matching '$1' in: $(cat "$r")"
}
check_range '^binaries version 1 host null$'
check_range '^image 0 manifest 21 entries 3 propsets [1-9]'
check_range '^image 1 manifest null entries 1 propsets [1-9]'
check_range '^image 2 manifest null entries null propsets null$'
check_range '^image 3 manifest null entries empty propsets null$'
! grep -q ' 0\]' "$r" || fail "a set without properties is not NULL: $(cat "$r")"
if grep -q '"Empty"' a.pjson k.pjson; then
	check_range '\[Empty null\]'
fi
echo PASS
