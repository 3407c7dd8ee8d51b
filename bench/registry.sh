#!/bin/sh
# make bench-registry: registration and lookup cost of the image registry.
#
# Generates NIMAGES (100) small SPIR-V images with NKERNELS (100) kernel
# names each (10,000 names), wraps them with devimg-wrap twice: one object
# per image (100 descriptors) and one -batch object (1 descriptor of 100
# images), and links each set into bench/registry-main.c against the
# shared libdevimg. The programs time every __sycl_register_lib() call
# their wrapped objects' constructors make (-Wl,--wrap, clock_gettime
# around the real call) and the median of 2001 batches of 1000 lookups of
# random names, and registration again after unregistering everything
# (the cost without first touches of memory). Then bench/registry-spawn
# times whole runs (fork, exec, load, registration, exit, unregistration)
# of each program and of the same program linked without images (the
# baseline), interleaved.
# Registration only queues a descriptor; the first read of the registry
# indexes the names, and is timed and printed as well ("first registry
# read"), so the deferred work is in the figures.
# Targets: registration under 1 ms, a lookup under 100 ns.
#
# Last, bench/registry-names times registration, settling, a lookup of
# every name and unregistration of NAMES (200,000) entries with distinct
# names and, alternately in the same run, with repeated ones (one image
# of one name NAMES times; NAMES images of one entry of the same name;
# 200 images of the same NAMES / 200 names), and prints the ratio.
# Target: repeated names within 2x of distinct ones.
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS (from make);
# BENCH_IMAGES, BENCH_KERNELS, BENCH_ROUNDS, BENCH_NAMES (a multiple of
# 200) and BENCH_NAME_ROUNDS (5) to change the sizes.
set -eu

nimages=${BENCH_IMAGES:-100}
nkernels=${BENCH_KERNELS:-100}
rounds=${BENCH_ROUNDS:-400}
names=${BENCH_NAMES:-200000}
name_rounds=${BENCH_NAME_ROUNDS:-5}
wrap=$top_builddir/devimg-wrap
libdir=$top_builddir/loader/.libs
out=$top_builddir/bench/registry

[ -x "$wrap" ] || { echo "bench-registry: $wrap is not built" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/gen"
cd "$out"

echo "bench-registry: generating $nimages images x $nkernels kernels"
: >gen/table.txt
echo '[Code|Symbols]' >gen/table.txt
i=0
while [ "$i" -lt "$nimages" ]; do
	awk -v i="$i" -v n="$nkernels" 'BEGIN {
		for (k = 0; k < n; k++)
			printf "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%d_%d\n", i, k
	}' >"gen/img$i.sym"
	{
		printf '\003\002\043\007\000\000\001\000'
		printf 'image %d of the registry bench\n' "$i"
	} >"gen/img$i.spv"
	"$wrap" -o "gen/w$i.o" -kind=sycl -target=spir64 -format=spirv \
		-entries="gen/img$i.sym" "gen/img$i.spv"
	echo "gen/img$i.spv|gen/img$i.sym" >>gen/table.txt
	i=$((i + 1))
done
"$wrap" -o gen/batch.o -kind=sycl -target=spir64 -format=spirv \
	-batch gen/table.txt

build() {
	prog=$1
	shift
	# shellcheck disable=SC2086
	$CC -std=c11 ${CFLAGS:-} -I"$top_srcdir" -I"$top_srcdir/include" -o "$prog" \
		"$top_srcdir/bench/registry-main.c" "$@" \
		-Wl,--wrap=__sycl_register_lib \
		-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg
}
build registry-none
# shellcheck disable=SC2046
build registry-each $(i=0; while [ "$i" -lt "$nimages" ]; do
	echo "gen/w$i.o"; i=$((i + 1)); done)
build registry-batch gen/batch.o
# shellcheck disable=SC2086
$CC -std=c11 ${CFLAGS:-} -o registry-spawn \
	"$top_srcdir/bench/registry-spawn.c"
# shellcheck disable=SC2086
$CC -std=c11 ${CFLAGS:-} -I"$top_srcdir" -I"$top_srcdir/include" -o registry-names \
	"$top_srcdir/bench/registry-names.c" \
	-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg

echo "== $nimages descriptors of 1 image (one wrapped object per image)"
./registry-each "$nimages" "$nkernels" | tee each.txt
echo "== 1 descriptor of $nimages images (devimg-wrap -batch)"
./registry-batch "$nimages" "$nkernels" | tee batch.txt
echo "== start-up: fork + exec + load + registration + exit, $rounds runs each"
./registry-spawn "$rounds" ./registry-none ./registry-each ./registry-batch |
	tee spawn.txt | awk '
	{ split($2, m, "="); split($3, n, "="); med[NR] = m[2]; min[NR] = n[2]; name[NR] = $1 }
	END {
		printf "baseline (no images):   median %8.1f us  min %8.1f us\n", med[1], min[1]
		for (i = 2; i <= NR; i++)
			printf "%-23s median %8.1f us  min %8.1f us  (+%.1f us median)\n",
			       name[i] ":", med[i], min[i], med[i] - med[1]
	}'

for f in each batch; do
	reg=$(awk '/^registration/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "us") { print $i; exit } }' "$f.txt")
	look=$(awk '/^lookup/ { for (i = 1; i <= NF; i++) if ($i == "median") { print $(i + 1); exit } }' "$f.txt")
	verdict_reg=$(awk -v v="$reg" 'BEGIN { print (v < 1000) ? "ok" : "MISSED" }')
	both=$(awk '/^first registry read/ { sub(/.*first read: /, ""); print $1; exit }' "$f.txt")
	verdict_look=$(awk -v v="$look" 'BEGIN { print (v < 100) ? "ok" : "MISSED" }')
	echo "targets ($f): registration $reg us < 1000 us: $verdict_reg; lookup $look ns < 100 ns: $verdict_look (registration + indexing on first read: $both us)"
done

echo "== repeated kernel names against distinct ones: $names entries, median of $name_rounds rounds"
./registry-names "$names" "$name_rounds" | tee names.txt
