#!/bin/sh
# The time-to-first-result benchmark's programs (bench/first-result.sh):
# they build without warnings (WARN_CFLAGS, -Werror when configured so)
# and each, run once, prints the kernel's result. No time is measured.
#
# first-result-smoke.sh: OpenCL, the raw program and the devimg one on
# the OpenCL device, with default and pinned (opencl:cpu) selection, must
# print 42 (skipped without a device). With --cuda
# (bench/first-result-smoke-cuda.sh): CUDA without a GPU, both on the
# recording driver (tests/cuda/fake-driver.c), which runs no kernel: each
# must get through every call (the log shows the module load and the one
# launch of `first`) and then report the int it read back, 0, as not 42.
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

bench=first-result-smoke
CFLAGS=${FIRST_RESULT_CFLAGS:-}
FIRST_WARN='-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Werror'
export CFLAGS
plugins=$top_builddir/plugins/.libs
DEVIMG_PLUGIN_PATH=$plugins
export DEVIMG_PLUGIN_PATH
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
# shellcheck source=bench/format.sh
. "$top_srcdir/bench/format.sh"
# shellcheck source=bench/first-result-build.sh
. "$top_srcdir/bench/first-result-build.sh"
cd "$scratch"

case ${1:-} in
'') backend=opencl ;;
--cuda) backend=cuda ;;
*) fail "usage: first-result-smoke.sh [--cuda]" ;;
esac

# ---- OpenCL ----
if [ $backend = opencl ]; then
	[ -f "$plugins/devimg-opencl.so" ] ||
		skip opencl "OpenCL plugin not built"
	mkdir opencl
	(
		cd opencl
		DEVIMG_DEVICE_SELECTOR=opencl:cpu
		POCL_CACHE_DIR=$scratch/opencl/cache
		export DEVIMG_DEVICE_SELECTOR POCL_CACHE_DIR
		# bench_format exits 77 itself: a subshell keeps its SKIP
		# line in build.out for the cat below, and hands the format
		# it chose back through fmt.env.
		rc=0
		(first_build_opencl &&
			echo "bench_fmt=$bench_fmt bench_ext=$bench_ext" >fmt.env) \
			>build.out 2>&1 || rc=$?
		if [ "$rc" -eq 77 ]; then
			cat build.out
			exit 77
		fi
		[ "$rc" -eq 0 ] ||
			fail "building the OpenCL programs: $(cat build.out)"
		. ./fmt.env
		./first-result-opencl "$bench_fmt" "first.$bench_ext" >out 2>&1 ||
			fail "raw OpenCL: $(cat out)"
		[ "$(cat out)" = 'first-result: raw opencl: 42' ] ||
			fail "raw OpenCL printed: $(cat out)"
		for sel in opencl:cpu ''; do
			if [ -n "$sel" ]; then
				DEVIMG_DEVICE_SELECTOR=$sel
				export DEVIMG_DEVICE_SELECTOR
			else
				unset DEVIMG_DEVICE_SELECTOR
			fi
			./first-result-devimg-opencl opencl >out 2>&1 ||
				fail "devimg (selector '$sel'): $(cat out)"
			[ "$(cat out)" = 'first-result: devimg opencl: 42' ] ||
				fail "devimg (selector '$sel') printed: $(cat out)"
		done
		echo "ok: OpenCL ($bench_fmt), raw and devimg read back 42"
	)
	exit
fi

# ---- CUDA, on the recording driver ----
fake=$top_builddir/tests/cuda/.libs/libcuda-fake.so
[ -f "$plugins/devimg-cuda.so" ] || skip build "CUDA plugin not built"
[ -f "$fake" ] || skip build "$fake is not built"
mkdir cuda
cd cuda
first_build_cuda >build.out 2>&1 ||
	fail "building the CUDA programs: $(cat build.out)"
DEVIMG_CUDA_DRIVER=$fake
DEVIMG_FAKE_CUDA_LOG=$scratch/cuda/record.log
export DEVIMG_CUDA_DRIVER DEVIMG_FAKE_CUDA_LOG
for side in raw devimg; do
	rm -f record.log
	rc=0
	if [ "$side" = raw ]; then
		./first-result-cuda first.ptx >out 2>&1 || rc=$?
	else
		DEVIMG_DEVICE_SELECTOR=cuda:0 \
			./first-result-devimg-cuda cuda >out 2>&1 || rc=$?
	fi
	[ "$rc" -eq 2 ] || fail "$side CUDA: exit $rc: $(cat out)"
	[ "$(cat out)" = "first-result: $side cuda: read 0, want 42" ] ||
		fail "$side CUDA printed: $(cat out)"
	grep -q '^load 1 entries on 0$' record.log ||
		fail "$side CUDA: no module load: $(cat record.log)"
	launches=$(grep '^launch ' record.log)
	[ "$launches" = 'launch first grid 1 1 1 block 1 1 1 shared 0 params x8' ] ||
		fail "$side CUDA: not one launch of first: $(cat record.log)"
done
echo "ok: CUDA on the recording driver, raw and devimg launch first once"
cd ..
