#!/bin/sh
# make bench-first-result: time from process start to one kernel's result,
# a raw driver program against the same work through libdevimg, same
# kernel, same run.
#
# The kernel, first(global int *p) storing 42 at p[0], is made as
# bench/first-result-build.sh says: for OpenCL, the image image selection
# would pick (SPIR 1.2 bitcode or SPIR-V, bench/format.sh); for CUDA,
# PTX. bench/first-result-opencl.c and bench/first-result-cuda.c are the
# raw programs; bench/first-result-devimg.c, the image wrapped and linked
# in, the devimg one. Each run is one process, timed by bench/runstat
# from its fork to its exit; it must print its result (42) and exit 0.
# BENCH_RUNS raw/devimg pairs (order alternating) for each of: default
# selection (no DEVIMG_DEVICE_SELECTOR) and a pinned selector (opencl:cpu,
# cuda:0), each with cold driver caches (a fresh empty POCL_CACHE_DIR and
# MESA_SHADER_CACHE_DIR, or CUDA_CACHE_PATH, per run) and warm ones (one cache, filled by a run of
# each program first). Prints per row the median milliseconds and their
# min-max, the median of the paired ratios devimg/raw, the target (1.05x
# pinned, 1.25x default) and ok or MISS: printed, never asserted. Without
# an OpenCL device or a CUDA device, that part says so in one line.
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS, CLANG, LLVM_SPIRV,
# OPENCL_CFLAGS, OPENCL_LIBS (from make); BENCH_RUNS (15), BENCH_FORMAT
# (bench/format.sh).
set -eu

bench='bench-first-result'
runstat=$top_builddir/bench/runstat
plugins=$top_builddir/plugins/.libs
out=$top_builddir/bench/first-result
runs=${BENCH_RUNS:-15}

[ -x "$top_builddir/devimg-wrap" ] || {
	echo "$bench: $top_builddir/devimg-wrap is not built" >&2; exit 1; }
[ -x "$runstat" ] || { echo "$bench: $runstat is not built" >&2; exit 1; }
case $runs in
'' | *[!0-9]* | 0) echo "$bench: BENCH_RUNS=$runs: want a count" >&2; exit 1 ;;
esac
# shellcheck source=bench/format.sh
. "$top_srcdir/bench/format.sh"
# shellcheck source=bench/first-result-build.sh
. "$top_srcdir/bench/first-result-build.sh"
rm -rf "$out"
mkdir -p "$out"
cd "$out"
DEVIMG_PLUGIN_PATH=$plugins
export DEVIMG_PLUGIN_PATH
unset DEVIMG_DEVICE_SELECTOR

# first_run COMMAND...: one run under runstat, the variables of $cachevar
# naming $cache, or a fresh empty folder when $caches is cold; prints its
# wall seconds. Stops the bench when it fails or prints no result.
first_run() {
	first_cache=$cache
	if [ "$caches" = cold ]; then
		first_cache=$(mktemp -d "$out/cold.XXXXXX")
	fi
	rc=0
	# shellcheck disable=SC2046 # one NAME=folder word per variable
	env $(for v in $cachevar; do printf '%s=%s ' "$v" "$first_cache"; done) \
		"$runstat" -o run.stat -- "$@" >run.out 2>&1 || rc=$?
	[ "$caches" = warm ] || rm -rf "$first_cache"
	if [ "$rc" -ne 0 ]; then
		echo "$bench: $* (exit $rc):" >&2
		cat run.out >&2
		exit 1
	fi
	grep -q ': 42$' run.out || {
		echo "$bench: $* printed no result:" >&2; cat run.out >&2
		exit 1
	}
	sed -n 's/^wall_s=\([0-9.]*\) .*/\1/p' run.stat
}

# first_row SELECTION CACHES TARGET: BENCH_RUNS interleaved pairs of
# raw_cmd and dev_cmd (shell words in $raw_cmd, $dev_cmd), one table row.
first_row() {
	caches=$2
	cache=$out/warm-cache
	rm -rf "$cache" raw.ms dev.ms
	mkdir -p "$cache"
	rc=0
	# shellcheck disable=SC2086
	env "$cachevar=$cache" $dev_cmd >run.out 2>&1 || rc=$?
	if [ "$rc" -eq 77 ]; then
		printf '%-10s %-5s skipped: %s\n' "$1" "$2" "$(cat run.out)"
		return 0
	fi
	# Warm: the shared cache filled; cold: the files in the page cache.
	# shellcheck disable=SC2086
	first_run $raw_cmd >/dev/null
	# shellcheck disable=SC2086
	first_run $dev_cmd >/dev/null
	i=0
	while [ "$i" -lt "$runs" ]; do
		# shellcheck disable=SC2086
		if [ $((i % 2)) -eq 0 ]; then
			first_run $raw_cmd >>raw.ms
			first_run $dev_cmd >>dev.ms
		else
			first_run $dev_cmd >>dev.ms
			first_run $raw_cmd >>raw.ms
		fi
		i=$((i + 1))
	done
	paste raw.ms dev.ms | awk -v sel="$1" -v caches="$2" -v target="$3" '
		function med(a, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
					t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
				}
			return a[int((n + 1) / 2)]
		}
		{ r[NR] = $1 * 1000; d[NR] = $2 * 1000; q[NR] = $2 / $1 }
		END {
			mr = med(r, NR); md = med(d, NR); mq = med(q, NR)
			printf "%-10s %-5s %8.1f (%6.1f-%6.1f) %8.1f (%6.1f-%6.1f) %6.3fx  <= %.2fx  %s\n",
				sel, caches, mr, r[1], r[NR], md, d[1], d[NR],
				mq, target, mq <= target ? "ok" : "MISS"
		}'
}

first_table() {
	printf '%-10s %-5s %8s %15s %8s %15s %7s  %8s\n' selector cache \
		'raw ms' '(min-max)' 'devimg' '(min-max)' ratio target
	for caches in cold warm; do
		unset DEVIMG_DEVICE_SELECTOR
		first_row default "$caches" 1.25
		DEVIMG_DEVICE_SELECTOR=$1
		export DEVIMG_DEVICE_SELECTOR
		first_row "$1" "$caches" 1.05
	done
	unset DEVIMG_DEVICE_SELECTOR
}

status=0
# OpenCL, in a subshell: bench/format.sh exits 77 for what is not there.
(
	mkdir opencl && cd opencl
	DEVIMG_DEVICE_SELECTOR=opencl:cpu
	export DEVIMG_DEVICE_SELECTOR
	first_build_opencl
	unset DEVIMG_DEVICE_SELECTOR
	bench_header
	echo "OpenCL: $runs runs each, raw and devimg interleaved; median ms from fork to exit"
	# PoCL's kernel cache and Mesa's (rusticl's) shader cache.
	cachevar="POCL_CACHE_DIR MESA_SHADER_CACHE_DIR"
	raw_cmd="./first-result-opencl $bench_fmt first.$bench_ext"
	dev_cmd="./first-result-devimg-opencl opencl"
	first_table opencl:cpu
) || status=$?
[ "$status" -eq 77 ] && status=0
[ "$status" -eq 0 ] || exit "$status"

if [ -f "$plugins/devimg-cuda.so" ]; then
	(
		mkdir cuda && cd cuda
		first_build_cuda
		rc=0
		./first-result-cuda first.ptx >probe.out || rc=$?
		if [ "$rc" -eq 77 ]; then
			sed 's/^first-result/bench-first-result: CUDA/' probe.out
			exit 0
		fi
		[ "$rc" -eq 0 ] || { cat probe.out >&2; exit 1; }
		echo "CUDA: $runs runs each, raw and devimg interleaved; median ms from fork to exit"
		cachevar=CUDA_CACHE_PATH
		raw_cmd="./first-result-cuda first.ptx"
		dev_cmd="./first-result-devimg-cuda cuda"
		first_table cuda:0
	)
else
	echo "$bench: CUDA plugin not built, CUDA part skipped"
fi
