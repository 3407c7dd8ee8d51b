#!/bin/sh
# End to end on PoCL: one program holding a version 2 image (DPC++'s
# descriptor layout), a descriptor of version 3 images with 56-byte
# entries (LLVM's wrapSYCLBinaries) and an OffloadBinary blob registered
# by __sycl_register_lib(blob, size), all of tests/dispatch's kernels in
# the format the device takes (device_format: SPIR-V, else SPIR
# bitcode); each kernel is named by one image only, so each launch runs
# code found through its layout, and prog-offload-run checks the values.
# Then one descriptor that mixes a version 2 image, a version 3 image and
# a compressed (format 4) one, each again the only image of its kernel.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/loader/lib-loader.sh"
. "$top_srcdir/tests/loader/lib-offload.sh"

plugins=$top_builddir/plugins/.libs
bc=$top_builddir/tests/dispatch
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=$(opencl_selector 'opencl:*')
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
device_format "$bc" dispatch
# DPC++'s format numbers and LLVM's ImageKind of the same file.
if [ "$fmt" = spirv ]; then
	dpcpp_format=2
	llvm_kind=6
else
	dpcpp_format=3
	llvm_kind=2
fi

cd "$scratch"
cp "$bc/dispatch.$ext" "img.$ext" || fail "$bc/dispatch.$ext is missing"
ir_descriptor v2.ll 2 old "4:$dpcpp_format:spir64:img.$ext:vadd"
ir_descriptor v3.ll 3 llvm "8:$llvm_kind:spirv64-unknown-unknown:img.$ext:off1"
mkblob blob.bin "$llvm_kind:8:spir64-unknown-unknown:img.$ext:off2"
ir_blob blob.ll blob.bin size
for f in v2 v3 blob; do
	llc_obj "$f.ll" "$f.o"
done
build_prog prog-offload-run "$lsrc/prog-offload-run.c" v2.o v3.o blob.o

LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS
rc=0
./prog-offload-run >out 2>&1 || rc=$?
cat out
[ "$rc" -ne 77 ] || skip opencl-device "PoCL shows no OpenCL device"
[ "$rc" -eq 0 ] || fail "prog-offload-run exited $rc"
for k in vadd off1 off2; do
	grep -q "^ok $k\$" out || fail "$k did not run"
done

command -v zstd >/dev/null 2>&1 || skip tools "no zstd tool to make a compressed image"
zstd -q -19 -c "img.$ext" >img.zst || fail "zstd could not compress img.$ext"
ir_descriptor mixed.ll 2 old "4:$dpcpp_format:spir64:img.$ext:off1" \
	"4:$dpcpp_format:spir64:img.$ext:off2:3" "4:4:spir64:img.zst:vadd"
llc_obj mixed.ll mixed.o
build_prog prog-offload-mixed "$lsrc/prog-offload-run.c" mixed.o
rc=0
./prog-offload-mixed off1:2 off2:3 vadd:2 >out.mixed 2>&1 || rc=$?
cat out.mixed
[ "$rc" -eq 0 ] || fail "prog-offload-mixed exited $rc"
grep -q "^vadd: image version 2, target spir64, format 4\$" out.mixed ||
	fail "vadd did not come from the compressed image"
for k in off1 off2 vadd; do
	grep -q "^ok $k\$" out.mixed || fail "$k did not run from the mixed descriptor"
done
