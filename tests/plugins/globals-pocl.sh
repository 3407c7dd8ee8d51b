#!/bin/sh
# Device globals end to end on PoCL, which lacks
# cl_intel_global_variable_access: globals-pocl.ll's image, in the format
# the device takes (SPIR bitcode on PoCL 3, SPIR-V on PoCL 6), wrapped with
# the "SYCL/device globals" set a SYCL compiler gives its two globals (one
# with device_image_scope, one without) into a library that globals-pocl
# loads; it checks through libdevimg's public functions that both are
# found, that reading and writing them is -ENOTSUP with a message naming
# what is missing, and that the image's kernel still runs.
# Skips (77) without a PoCL device, saying why.
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built (no OpenCL ICD loader at configure time)"
WRAP=$top_builddir/devimg-wrap
pocl_env 'opencl:*'
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS
device_format "$top_builddir/tests/plugins" globals-pocl
# The runner takes device 0: it must be PoCL's, not a driver that offers
# cl_intel_global_variable_access. devimg-ls's own failure fails
# (devimg_ls), it does not read as "not PoCL".
(
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
	devimg_ls "$scratch/ls.out" "$scratch/ls.err"
)
first=$(sed -n '/^\[opencl:0\]/p' "$scratch/ls.out")
case $first in
*PoCL*) ;;
*) skip pocl "the first OpenCL device is not PoCL's: $first" ;;
esac

# Values: the 8-byte bit count 64, then the size and the image-scope
# flag, 32 bits each (LSB-first base64, docs/formats.md): 16 and 1 for
# the counter, 4 and 0 for the other.
printf '[SYCL/device globals]\n%s\n%s\n' \
	'5b0e41c7a93d2f68____ZL7counter=2|ABAAAAAAAAAEAAAABAAAAA' \
	'5b0e41c7a93d2f68____ZL6shared=2|ABAAAAAAAAABAAAAAAAAAA' \
	>"$scratch/globals.props"
printf 'peek\n' >"$scratch/globals.sym"
lib globals -target=spir64 -format="$fmt" -entries="$scratch/globals.sym" \
	-properties="$scratch/globals.props" \
	"$top_builddir/tests/plugins/globals-pocl.$ext"

rc=0
"$top_builddir/tests/plugins/globals-pocl" "$scratch/libglobals.so" \
	>"$scratch/run.out" 2>&1 || rc=$?
cat "$scratch/run.out"
[ "$rc" -eq 0 ] || exit "$rc"
counter=5b0e41c7a93d2f68____ZL7counter
grep -q "^# global_write: device global '$counter' in the program of image .*: global_write(\"$counter\"): device \".*\" does not offer cl_intel_global_variable_access" \
	"$scratch/run.out" ||
	fail "no -ENOTSUP message naming the extension for the counter"
grep -q "^# global_read: device global '5b0e41c7a93d2f68____ZL6shared' on .*: mem_address: " \
	"$scratch/run.out" ||
	fail "no -ENOTSUP message naming mem_address for the other global"
