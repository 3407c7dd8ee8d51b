#!/bin/sh
# make bench-threads: launch throughput of many threads at once, each with
# its own queue and kernel object, through devimg and through the raw
# driver, on OpenCL (the first OpenCL device: PoCL here) and, where there
# is a GPU and the CUDA plugin, on CUDA: one GPU, then two GPUs driven
# at once (a thread each) where the machine has two.
#
# The OpenCL side builds `kernel void empty(global int *p) {}` as
# bench/launch.sh does (bench/format.sh); the CUDA side uses
# bench/empty.ptx. Each image is wrapped by devimg-wrap and linked into
# bench/launch-threads-opencl.c or bench/launch-threads-cuda.c, whose
# measurement bench/scaling.h describes: per thread count, bursts of 100
# launches each followed by a wait and one stream of all launches then a
# wait, each with no local size and with a local size of 1, devimg and
# raw runs paired. Targets: devimg/raw >= 0.95 on OpenCL, >= 0.98 on
# CUDA, >= 0.95 for two GPUs together; one line each with ok or MISS.
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS, CLANG, LLVM_SPIRV,
# OPENCL_CFLAGS, OPENCL_LIBS (from make); BENCH_THREADS (the thread
# counts: "1,2" on a machine of fewer than 16 CPUs, else "1,4,16"),
# BENCH_LAUNCHES (a thread's launches a run: 5000), BENCH_REPS (41),
# BENCH_FORMAT (as bench/launch.sh); BENCH_RAW_MODULE (CUDA's raw side:
# "shared", one module per device as a program that loads its kernels
# once, or "own", a module per thread; bench/launch-threads-cuda.c);
# BENCH_REUSE=1 runs the programs and images a previous run built here
# (for a GPU machine given the build tree, without the compilers).
set -eu

wrap=$top_builddir/devimg-wrap
libdir=$top_builddir/loader/.libs
plugins=$top_builddir/plugins/.libs
out=$top_builddir/bench/launch-threads
bench='bench-threads'
reuse=${BENCH_REUSE:-0}
threads=${BENCH_THREADS:-}
if [ -z "$threads" ]; then
	threads=1,2
	[ "$(nproc)" -lt 16 ] || threads=1,4,16
fi
reps=${BENCH_REPS:-41}

[ -x "$wrap" ] || { echo "$bench: $wrap is not built" >&2; exit 1; }
if [ "$reuse" != 1 ]; then
	rm -rf "$out"
fi
mkdir -p "$out/pocl-cache"
cd "$out"
DEVIMG_PLUGIN_PATH=$plugins
POCL_CACHE_DIR=$out/pocl-cache
export DEVIMG_PLUGIN_PATH POCL_CACHE_DIR

# run PROGRAM [ARG]...: 0, or 77 when it skipped; any other status ends
# the script with it.
run() {
	rc=0
	"$@" || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || exit "$rc"
	return "$rc"
}

# OpenCL, where the plugin is built, a device shows and its image can be
# made (or was, with BENCH_REUSE=1); a skip is said in one line. The
# probe runs in a subshell of its own, as bench_format exits 77 to skip.
opencl() (
	[ -f "$plugins/devimg-opencl.so" ] || {
		echo "$bench: OpenCL plugin not built, skipped"; exit 0; }
	DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-opencl:*}
	export DEVIMG_DEVICE_SELECTOR
	if [ "$reuse" != 1 ] || [ ! -x launch-threads-opencl ]; then
		# shellcheck source=bench/format.sh
		. "$top_srcdir/bench/format.sh"
		probe=$(bench_format "$out/probe-cache" &&
			echo "$bench_fmt $bench_ext") || {
			echo "$bench: OpenCL skipped"; exit 0; }
		bench_fmt=${probe% *}
		bench_ext=${probe#* }
		printf 'kernel void empty(global int *p) {}\n' >empty.cl
		printf 'empty\n' >empty.sym
		bench_image empty
		"$wrap" -o empty-cl.o -kind=sycl -target=spir64 \
			-format="$bench_fmt" -entries=empty.sym \
			"empty.$bench_ext"
		# shellcheck disable=SC2086
		$CC -std=c11 ${CFLAGS:-} ${OPENCL_CFLAGS:-} -I"$top_srcdir" \
			-I"$top_srcdir/include" -o launch-threads-opencl \
			"$top_srcdir/bench/launch-threads-opencl.c" empty-cl.o \
			-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg \
			${OPENCL_LIBS:-} -lpthread
		echo "$bench_fmt empty.$bench_ext" >opencl-image
	fi
	read -r fmt image <opencl-image
	echo "== OpenCL: threads $threads, image $image"
	run ./launch-threads-opencl "$fmt" "$image" "$threads" \
		"${BENCH_LAUNCHES:-5000}" "$reps" || true
)

# CUDA, where the plugin is built (the program says when there is no GPU).
cuda() (
	[ -f "$plugins/devimg-cuda.so" ] || {
		echo "$bench: CUDA plugin not built, skipped"; exit 0; }
	if [ "$reuse" != 1 ] || [ ! -x launch-threads-cuda ]; then
		cp "$top_srcdir/bench/empty.ptx" empty.ptx
		printf 'empty\n' >empty.sym
		"$wrap" -o empty-cuda.o -kind=sycl -target=nvptx64 \
			-format=native -entries=empty.sym empty.ptx
		# shellcheck disable=SC2086
		$CC -std=c11 ${CFLAGS:-} -I"$top_srcdir" \
			-I"$top_srcdir/include" -o launch-threads-cuda \
			"$top_srcdir/bench/launch-threads-cuda.c" empty-cuda.o \
			-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg -ldl -lpthread
	fi
	DEVIMG_DEVICE_SELECTOR='cuda:*'
	export DEVIMG_DEVICE_SELECTOR
	echo "== CUDA, one GPU: threads $threads"
	run ./launch-threads-cuda empty.ptx "$threads" 1 \
		"${BENCH_LAUNCHES:-5000}" "$reps" || exit 0
	echo "== CUDA, two GPUs at once: a thread each"
	run env BENCH_TARGET=0.95 ./launch-threads-cuda empty.ptx 2 2 \
		"${BENCH_LAUNCHES:-5000}" "$reps" || true
)

opencl
cuda
