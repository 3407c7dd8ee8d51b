#!/bin/sh
# Device globals through the OpenCL plugin's operations on a fake OpenCL
# driver (fake-icd.c) that offers cl_intel_global_variable_access: the
# variables of globals.ll (made into SPIR-V at build time as DPC++ makes
# device globals) read, written and read back; unknown names, ranges and
# host access refused with the extension's errors.
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built (no OpenCL ICD loader at configure time)"
icd=$top_builddir/tests/plugins/.libs/fake-icd.so
[ -f "$icd" ] || skip opencl "fake OpenCL driver not built"
spv=$top_builddir/tests/plugins/globals.spv
[ -f "$spv" ] || skip llvm-spirv "no globals.spv: the build had no clang or llvm-spirv"

# The plugin links the ICD loader (libOpenCL.so.1); ocl-icd and Khronos'
# loader read every NAME.icd of the folder OCL_ICD_VENDORS names, each
# holding the path of a driver to dlopen(). Only the fake, then: where the
# loader ignores OCL_ICD_VENDORS the runner finds no fake device (77).
mkdir "$scratch/vendors"
echo "$icd" >"$scratch/vendors/devimg-fake.icd"
OCL_ICD_VENDORS=$scratch/vendors
export OCL_ICD_VENDORS

# The variables as globals.ll decorates them (6147, as DPC++ writes
# them), or, with --host-access (tests/plugins/opencl-globals-host-access.sh),
# as SPV_INTEL_global_variable_host_access decorates them: HostAccessINTEL
# 6188, whose modes are numbered none, read, write, read_write (6147's:
# read, write, read_write, none), translated by an llvm-spirv that knows
# that extension (19 does, 15 does not).
case ${1:-} in
'') ;;
--host-access)
	[ "${CLANG:-no}" != no ] ||
		skip clang "configure found no clang to compile host-access.ll"
	[ "${LLVM_SPIRV:-no}" != no ] ||
		skip llvm-spirv "configure found no llvm-spirv to translate host-access.ll"
	sed -e 's/i32 6147, i32 0,/i32 6188, i32 1,/' \
		-e 's/i32 6147, i32 1,/i32 6188, i32 2,/' \
		-e 's/i32 6147, i32 2,/i32 6188, i32 3,/' \
		-e 's/i32 6147, i32 3,/i32 6188, i32 0,/' \
		"$top_srcdir/tests/plugins/globals.ll" >"$scratch/host-access.ll"
	! grep -q '^!.*i32 6147' "$scratch/host-access.ll" ||
		fail "globals.ll: a 6147 left unmapped"
	"$CLANG" -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -x ir \
		-o "$scratch/host-access.bc" "$scratch/host-access.ll" ||
		fail "$CLANG cannot compile host-access.ll"
	if ! "$LLVM_SPIRV" --spirv-max-version=1.2 \
		--spirv-ext=+SPV_INTEL_global_variable_host_access \
		-o "$scratch/host-access.spv" "$scratch/host-access.bc" \
		2>"$scratch/err"; then
		grep -q "Unknown extension 'SPV_INTEL_global_variable_host_access'" "$scratch/err" &&
			skip spirv-host-access "$LLVM_SPIRV cannot write SPV_INTEL_global_variable_host_access: $(head -n 1 "$scratch/err")"
		fail "$LLVM_SPIRV failed on host-access.bc: $(cat "$scratch/err")"
	fi
	spv=$scratch/host-access.spv ;;
*) fail "usage: opencl-globals-fake.sh [--host-access]" ;;
esac
rc=0
"$top_builddir/tests/plugins/opencl-globals" "$plugins/devimg-opencl.so" \
	fake "$spv" || rc=$?
[ $rc -ne 77 ] ||
	skip icd-vendors "the OpenCL ICD loader shows no fake device: it does not read OCL_ICD_VENDORS"
[ $rc -eq 0 ] || fail "opencl-globals on $spv exited $rc"
