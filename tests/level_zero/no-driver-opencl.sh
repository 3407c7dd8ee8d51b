#!/bin/sh
# Without a Level Zero driver, the Level Zero plugin binds with no device
# and every other backend keeps working: the OpenCL device (PoCL) runs
# vadd from SPIR-V or SPIR bitcode (whichever it takes) in the same
# process.
. "$top_srcdir/tests/level_zero/common.sh"

[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
ZE_ENABLE_ALT_DRIVERS=$scratch/no-such-driver.so
export POCL_CACHE_DIR ZE_ENABLE_ALT_DRIVERS
# The dispatch suite's kernels, made at build time (no clang needed here):
# dispatch.spv where the device takes SPIR-V, else dispatch.bc.
device_format "$top_builddir/tests/dispatch" dispatch
lib main -target=spir64 -format="$fmt" -entries="$dispatch/dispatch.sym" \
	"$top_builddir/tests/dispatch/dispatch.$ext"

rc=0
DEVIMG_TRACE=1 "$run" opencl "$scratch/libmain.so" >"$scratch/out" \
	2>"$scratch/err" || rc=$?
cat "$scratch/out"
[ "$rc" -eq 77 ] && skip opencl-device "PoCL shows no OpenCL device"
[ "$rc" -eq 0 ] || fail "contract-run opencl exited $rc: $(cat "$scratch/err")"
grep -q "^libdevimg: plugins: level_zero: 0 platforms: zeInit: " "$scratch/err" ||
	fail "the Level Zero plugin is not bound without devices"
grep -q "^libdevimg: plugins: bound opencl from " "$scratch/err" ||
	fail "the OpenCL plugin is not bound"
