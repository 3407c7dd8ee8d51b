#!/bin/sh
# The OpenCL plugin on NVIDIA's OpenCL: PTX of the OpenCL flavour, made
# from tests/plugins/nv-vadd.cl by clang at build time, wrapped as an
# nvptx64 image and taken by an OpenCL GPU that reports PTX as its native
# binary format; vadd runs there and is checked on the host. Skips
# without such a device (on the GPU machines it runs).
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
run=$top_builddir/tests/dispatch/dispatch-run
ptx=$top_builddir/tests/plugins/nv-vadd.ptx
WRAP=$top_builddir/devimg-wrap
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
[ -f "$ptx" ] || skip clang "no test PTX built (configure found no clang)"
: "${CC:=cc}"

mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=opencl:gpu
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

# devimg-ls's own failure fails (devimg_ls); only a clean listing without
# such a GPU skips.
devimg_ls "$scratch/ls" "$scratch/ls.err"
grep -q '^\[opencl:[0-9]*\] gpu, .*formats: .*ptx' "$scratch/ls" ||
	skip opencl-ptx "no OpenCL GPU that takes PTX"
cat "$scratch/ls"

cd "$scratch"
printf 'vadd\n' >vadd.sym
"$WRAP" -o nv.o -kind=sycl -target=nvptx64 -format=native \
	-entries=vadd.sym "$ptx" || fail "devimg-wrap failed"
$CC -shared -o libnv.so nv.o || fail "cannot link libnv.so"
rc=0
"$run" vadd "$scratch/libnv.so" >out 2>&1 || rc=$?
cat out
[ "$rc" -eq 0 ] || fail "dispatch-run vadd on NVIDIA OpenCL exited $rc"
grep -q "^ok vadd" out || fail "vadd did not report success"
