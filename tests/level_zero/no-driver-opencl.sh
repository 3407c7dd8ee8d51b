#!/bin/sh
# Without a Level Zero driver, the Level Zero plugin binds with no device
# and every other backend keeps working: the OpenCL device (PoCL) runs
# vadd from SPIR bitcode in the same process.
. "$top_srcdir/tests/level_zero/common.sh"

[ -f "$plugins/devimg-opencl.so" ] || skip "OpenCL plugin not built"
# The dispatch suite's bitcode, made at build time when clang was found.
bc=$top_builddir/tests/dispatch/dispatch.bc
if [ ! -f "$bc" ]; then
	if [ -z "${CLANG:-}" ] || [ "$CLANG" = no ]; then
		skip "no clang to make SPIR bitcode"
	fi
	bc=$scratch/dispatch.bc
	"$CLANG" -cc1 -triple spir64-unknown-unknown -emit-llvm-bc \
		-cl-std=CL1.2 -finclude-default-header -O2 -o "$bc" \
		"$dispatch/dispatch.cl" ||
		fail "$CLANG could not compile dispatch.cl"
fi
lib main -target=spir64 -format=llvmbc -entries="$dispatch/dispatch.sym" \
	"$bc"

mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
ZE_ENABLE_ALT_DRIVERS=$scratch/no-such-driver.so
export POCL_CACHE_DIR ZE_ENABLE_ALT_DRIVERS
rc=0
DEVIMG_TRACE=1 "$run" opencl "$scratch/libmain.so" >"$scratch/out" \
	2>"$scratch/err" || rc=$?
cat "$scratch/out"
[ "$rc" -eq 77 ] && skip "PoCL shows no OpenCL device"
[ "$rc" -eq 0 ] || fail "contract-run opencl exited $rc: $(cat "$scratch/err")"
grep -q "^devimg: plugins: level_zero: 0 platforms: zeInit: " "$scratch/err" ||
	fail "the Level Zero plugin is not bound without devices"
grep -q "^devimg: plugins: bound opencl from " "$scratch/err" ||
	fail "the OpenCL plugin is not bound"
