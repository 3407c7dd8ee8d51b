#!/bin/sh
# make bench-launch: per-launch overhead of devimg_launch() against raw
# OpenCL on the same PoCL device.
#
# An empty kernel (kernel void empty(global int *p) {}) is compiled by
# clang to SPIR 1.2 bitcode and, where the device takes SPIR-V, translated
# to SPIR-V 1.2 by llvm-spirv (the format image selection would pick,
# bench/format.sh), wrapped by devimg-wrap and linked into
# bench/launch-main.c with libdevimg and the OpenCL ICD loader. The
# program times, on the first device, N launches of global size 1 each
# followed by a finish ("sync") and N launches followed by one finish
# ("batch"; its enqueue loop alone is "submit"), through raw OpenCL (the
# same image: clCreateProgramWithIL for SPIR-V, clCreateProgramWithBinary
# and "-x spir -spir-std=1.2" for SPIR) and through devimg_launch(),
# repetitions interleaved, and prints median microseconds per launch and
# the median of the paired devimg/raw ratios. Target: devimg within 1.03x
# of raw. Exits 77 when there is no device or no way to make its format.
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS, CLANG, LLVM_SPIRV,
# OPENCL_CFLAGS, OPENCL_LIBS (from make); BENCH_LAUNCHES (300),
# BENCH_REPS (201), BENCH_FORMAT (spirv or llvmbc; the device's by default).
set -eu

wrap=$top_builddir/devimg-wrap
libdir=$top_builddir/loader/.libs
plugins=$top_builddir/plugins/.libs
out=$top_builddir/bench/launch
bench='bench-launch'

[ -x "$wrap" ] || { echo "bench-launch: $wrap is not built" >&2; exit 1; }
[ -f "$plugins/devimg-opencl.so" ] || {
	echo "bench-launch: OpenCL plugin not built, skipped" >&2; exit 77; }
[ -x "$top_builddir/devimg-ls" ] || {
	echo "bench-launch: $top_builddir/devimg-ls is not built" >&2; exit 1; }
# shellcheck source=bench/format.sh
. "$top_srcdir/bench/format.sh"
rm -rf "$out"
mkdir -p "$out/pocl-cache"
cd "$out"

DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-opencl:*}
export DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
bench_format "$out/probe-cache"
bench_header

printf 'kernel void empty(global int *p) {}\n' >empty.cl
printf 'empty\n' >empty.sym
bench_image empty
"$wrap" -o empty.o -kind=sycl -target=spir64 -format="$bench_fmt" \
	-entries=empty.sym "empty.$bench_ext"
# shellcheck disable=SC2086
$CC -std=c11 ${CFLAGS:-} ${OPENCL_CFLAGS:-} -I"$top_srcdir" -I"$top_srcdir/include" \
	-o launch "$top_srcdir/bench/launch-main.c" empty.o \
	-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg ${OPENCL_LIBS:-}

POCL_CACHE_DIR=$out/pocl-cache
export POCL_CACHE_DIR
rc=0
./launch "$bench_fmt" "empty.$bench_ext" "${BENCH_LAUNCHES:-300}" \
	"${BENCH_REPS:-201}" || rc=$?
[ "$rc" -eq 77 ] && echo "bench-launch: no OpenCL device, skipped"
exit "$rc"
