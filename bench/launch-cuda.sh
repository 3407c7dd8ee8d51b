#!/bin/sh
# make bench-cuda: per-launch overhead of devimg_launch() against raw
# cuLaunchKernel() on the same GPU.
#
# An empty kernel, `.entry empty(.param .u64)`, written as PTX by hand
# (bench/empty.ptx, so that no clang is needed on the GPU machine), is
# wrapped by devimg-wrap and linked into bench/launch-cuda.c with
# libdevimg; the program loads the same PTX through the driver itself for
# the raw side. It times N launches of one work-item each followed by a
# stream synchronize ("sync") and N launches followed by one ("batch", and its enqueue loop alone,
# "submit"), raw and devimg repetitions interleaved, and prints medians
# and the median paired ratio devimg/raw and difference. Target: within
# 1.02x and 50 ns a launch on sync and batch. Without a CUDA device it
# says so in one line and exits 77.
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS (from make);
# BENCH_LAUNCHES (1000), BENCH_REPS (201); DEVIMG_DEVICE_SELECTOR (cuda:0).
set -eu

wrap=$top_builddir/devimg-wrap
libdir=$top_builddir/loader/.libs
plugins=$top_builddir/plugins/.libs
out=$top_builddir/bench/launch-cuda

[ -x "$wrap" ] || { echo "bench-cuda: $wrap is not built" >&2; exit 1; }
[ -f "$plugins/devimg-cuda.so" ] || {
	echo "bench-cuda: CUDA plugin not built, skipped"; exit 77; }
rm -rf "$out"
mkdir -p "$out"
cd "$out"

cp "$top_srcdir/bench/empty.ptx" empty.ptx
printf 'empty\n' >empty.sym
"$wrap" -o empty.o -kind=sycl -target=nvptx64 -format=native \
	-entries=empty.sym empty.ptx
# shellcheck disable=SC2086
${CC:-cc} -std=c11 ${CFLAGS:-} -I"$top_srcdir" -I"$top_srcdir/include" \
	-o launch-cuda \
	"$top_srcdir/bench/launch-cuda.c" empty.o \
	-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg -ldl

DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-cuda:0}
export DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
rc=0
./launch-cuda empty.ptx "${BENCH_LAUNCHES:-1000}" "${BENCH_REPS:-201}" || rc=$?
exit "$rc"
