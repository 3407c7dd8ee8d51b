#!/bin/sh
# make bench-bundle: time to first launch of a kernel built at dispatch
# against one taken from an executable bundle built ahead, on one PoCL
# device, and the cost of a warm kernel creation either way.
#
# 16 kernels, kernel void kN(global int *p) { p[get_global_id(0)] = N; },
# each in its own OpenCL C file, are compiled by clang to SPIR 1.2 bitcode,
# translated to SPIR-V 1.2 by llvm-spirv where the device takes SPIR-V (the
# format image selection would pick, bench/format.sh; both cases use it)
# and wrapped by one devimg-wrap call as 16 images of one kernel each (16
# program builds, like an application of many libraries), then linked into
# bench/bundle-main.c with libdevimg. The program says what it measures.
# It runs twice. First with PoCL's on-disk cache (POCL_CACHE_DIR) fresh and
# empty: the bundle case runs first, so the build-at-dispatch baseline finds
# PoCL's cache warm, conservative for bundles. That cache also holds the
# code PoCL generates for a kernel at its first launch, which a bundle
# build does not make ahead: the warm baseline skips it, the bundle case
# pays it. Then with PoCL's disk cache off (POCL_KERNEL_CACHE=0), where
# every case compiles what it needs. Exits 77 when there is no device or
# no way to make its format.
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS, CLANG, LLVM_SPIRV
# (from make); BENCH_BUNDLE_REPS (2000): warm creations of each kind;
# BENCH_FORMAT (spirv or llvmbc; the device's by default).
set -eu

wrap=$top_builddir/devimg-wrap
libdir=$top_builddir/loader/.libs
plugins=$top_builddir/plugins/.libs
out=$top_builddir/bench/bundle
bench='bench-bundle'
nk=16

[ -x "$wrap" ] || { echo "bench-bundle: $wrap is not built" >&2; exit 1; }
[ -f "$plugins/devimg-opencl.so" ] || {
	echo "bench-bundle: OpenCL plugin not built, skipped" >&2; exit 77; }
[ -x "$top_builddir/devimg-ls" ] || {
	echo "bench-bundle: $top_builddir/devimg-ls is not built" >&2; exit 1; }
# shellcheck source=bench/format.sh
. "$top_srcdir/bench/format.sh"
rm -rf "$out"
mkdir -p "$out/pocl-cache"
cd "$out"

DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-opencl:*}
export DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
# Its own PoCL cache: the benchmark's stays fresh and empty.
bench_format "$out/probe-cache"
bench_header

images=
i=0
while [ "$i" -lt "$nk" ]; do
	printf 'kernel void k%d(global int *p) { p[get_global_id(0)] = %d; }\n' \
		"$i" "$i" >"k$i.cl"
	printf 'k%d\n' "$i" >"k$i.sym"
	bench_image "k$i"
	images="$images -entries=k$i.sym k$i.$bench_ext"
	i=$((i + 1))
done
# shellcheck disable=SC2086
"$wrap" -o kernels.o -kind=sycl -target=spir64 -format="$bench_fmt" \
	$images
# shellcheck disable=SC2086
$CC -std=c11 ${CFLAGS:-} -I"$top_srcdir" -I"$top_srcdir/include" \
	-o bundle "$top_srcdir/bench/bundle-main.c" kernels.o \
	-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg

POCL_CACHE_DIR=$out/pocl-cache
export POCL_CACHE_DIR
rc=0
echo "-- PoCL disk cache fresh, bundle case first (the baseline finds it warm)"
./bundle "$nk" "${BENCH_BUNDLE_REPS:-2000}" || rc=$?
if [ "$rc" -eq 77 ]; then
	echo "bench-bundle: no OpenCL device, skipped"
	exit 77
fi
[ "$rc" -eq 0 ] || exit "$rc"
echo "-- PoCL disk cache off (POCL_KERNEL_CACHE=0): every case compiles"
POCL_KERNEL_CACHE=0 ./bundle "$nk" "${BENCH_BUNDLE_REPS:-2000}" || rc=$?
exit "$rc"
