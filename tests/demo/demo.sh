#!/bin/sh
# The demo (examples/vadd, linked with an object holding vadd as SPIR
# bitcode, then as SPIR-V) on the OpenCL device: the image selection
# picks is the one the device ingests (SPIR-V where it takes IL, SPIR
# where it takes only SPIR), its bytes are what the device built
# (DEVIMG_DUMP_IMAGES), and the sums read back are right.
. "$top_srcdir/tests/lib.sh"

vadd=$top_builddir/examples/vadd
obj=$top_builddir/examples/vadd-wrap.o
[ -x "$vadd" ] || skip clang "examples/vadd is not built (configure found no clang)"
[ -f "$top_builddir/plugins/.libs/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"

# The object: image 0 SPIR bitcode, image 1 SPIR-V (when llvm-spirv was
# found), both for spir64 with the kernel vadd.
"$top_builddir/devimg-dump" --json "$obj" >"$scratch/dump.json" &&
	one_file_json "$scratch/dump.json" ||
	fail "devimg-dump $obj failed"
formats=$(jq -r '[.images[].format] | join(" ")' "$scratch/dump.json") ||
	fail "devimg-dump --json gave no images: $(cat "$scratch/dump.json")"
case $formats in
"llvmbc spirv") spirv_built=yes ;;
llvmbc) spirv_built=no ;;
*) fail "the demo object holds formats '$formats', want 'llvmbc spirv'" ;;
esac

POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs
DEVIMG_DEVICE_SELECTOR=$(opencl_selector 'opencl:*')
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR LSAN_OPTIONS
mkdir -p "$POCL_CACHE_DIR"

takes=$(device_formats)
[ -n "$takes" ] || skip opencl-device "no OpenCL device (PoCL shows none)"
case " $takes " in
*" spirv "*)
	[ "$spirv_built" = yes ] ||
		skip llvm-spirv "the device takes SPIR-V only and no SPIR-V image was built (no llvm-spirv)"
	want="1, SPIR-V" file=vadd.spv ext=spv ;;
*" spir "*) want="0, SPIR bitcode" file=vadd.bc ext=bc ;;
*) skip opencl-device "the OpenCL device takes neither SPIR-V nor SPIR ($takes)" ;;
esac
echo "# device takes: $takes; expecting image $want"

mkdir "$scratch/images"
rc=0
DEVIMG_DUMP_IMAGES=$scratch/images "$vadd" >"$scratch/out" 2>&1 || rc=$?
cat "$scratch/out"
[ "$rc" -eq 0 ] || fail "examples/vadd exited $rc"
grep -q "^image: $want, target spir64\$" "$scratch/out" ||
	fail "examples/vadd did not run image $want"
grep -q '^vadd of 1024 floats: c\[0\]=512 c\[1023\]=1023.5, all correct$' \
	"$scratch/out" || fail "examples/vadd's sums are wrong"
set -- "$scratch"/images/*
[ $# -eq 1 ] || fail "the device built $# images, want 1: $*"
case $1 in
*."$ext") ;;
*) fail "the image built is $1, want a .$ext file" ;;
esac
cmp "$1" "$top_builddir/examples/$file" ||
	fail "the image built differs from examples/$file"
echo "ok: $takes device ran image $want ($file), sums right"
