#!/bin/sh
# make bench-compress: the first-use cost of a compressed image. One image
# of 1 MiB and one of 16 MiB (text made here, about as compressible as
# SPIR-V), each wrapped plain and with -offload-compress into its own
# shared library; bench/compress-main opens each BENCH_ROUNDS (21) times
# and prints the median time of the first devimg_image_bin() (the
# expansion, for a compressed image) and of the next (cached).
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS (from make).
set -eu

rounds=${BENCH_ROUNDS:-21}
wrap=$top_builddir/devimg-wrap
libdir=$top_builddir/loader/.libs
out=$top_builddir/bench/compress
rm -rf "$out"
mkdir -p "$out"
cd "$out"
# shellcheck disable=SC2086
${CC:-cc} ${CFLAGS:-} -I"$top_srcdir" -I"$top_srcdir/include" -o compress-main \
	"$top_srcdir/bench/compress-main.c" -L"$libdir" -ldevimg \
	-Wl,-rpath,"$libdir" -ldl
printf 'k\n' >k.sym
for mib in 1 16; do
	awk -v n=$((mib * 1048576)) 'BEGIN { srand(1); s = 0
		while (s < n) { w = sprintf("%%%d = OpIAdd %%uint %%%d %%%d\n",
			int(rand() * 5000), int(rand() * 5000), int(rand() * 50))
			printf "%s", w; s += length(w) } }' | head -c $((mib * 1048576)) >img$mib
	"$wrap" -o plain$mib.o -kind=sycl -target=spir64 -entries=k.sym img$mib
	"$wrap" -o zst$mib.o -kind=sycl -target=spir64 -offload-compress \
		-entries=k.sym img$mib
	for v in plain zst; do
		${CC:-cc} -shared -o lib$v$mib.so $v$mib.o
		printf '%-6s %2d MiB: ' "$v" "$mib"
		./compress-main "$out/lib$v$mib.so" k "$rounds"
	done
done
