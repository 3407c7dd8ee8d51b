#!/bin/sh
# examples/sycl.cpp compiled by clang++-22 and clang++-23 -fsycl and
# linked by clang-linker-wrapper-22 and -23 (clang++-N --offload-link):
# 22 writes a descriptor of version-3 images with 56-byte entries, 23 an
# OffloadBinary that its constructor registers. Each program and shared
# library: the image registered before main with exactly upstream's
# kernel names, both kernels run on PoCL with their results read back,
# nothing registered after exit or after dlclose, registration clean
# under valgrind, and devimg-dump lists what registers (and agrees with
# llvm-objdump-23 where it can read the file).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/upstream/lib-upstream.sh"

cd "$scratch"
need_tools clang++-22 clang++-23 clang-linker-wrapper-22 \
	clang-linker-wrapper-23 clang-sycl-linker-22 clang-sycl-linker-23 \
	llvm-config-22 llvm-config-23 llvm-objdump-23
need_spirv_device
host_objs
link_run up-run
ex=$top_srcdir/examples/sycl.cpp
kernels='_ZTS4Fill _ZTS5Scale'

for n in 22 23; do
	"clang++-$n" -fsycl -I"$top_srcdir" -I"$top_srcdir/include" -c "$ex" -o "sycl$n.o" ||
		fail "clang++-$n -fsycl -c failed"
	offload_link "$n" "sycl$n" "sycl$n.o" "$scratch/regshow.o"
	run_traced "prog$n" "./sycl$n"
	grep -qx 'before main: 1 images' "prog$n.out" ||
		fail "sycl$n: not one image before main: $(cat "prog$n.out")"
	# 22's image declares LLVM's image kind 0 (format 0, told by the
	# bytes), 23's blob kind 6 (SPIR-V, format 2).
	if [ "$n" = 23 ]; then fmt=2 name=spirv; else fmt=0 name=none; fi
	line=$(grep '^image 0: ' "prog$n.out") || fail "sycl$n: no image 0"
	[ "${line%%, kernels:*}" = "image 0: format $fmt, target spirv64-unknown-unknown" ] ||
		fail "sycl$n: $line"
	got=$(printf '%s\n' ${line#*kernels:} | sort | tr '\n' ' ')
	[ "$got" = "$kernels " ] || fail "sycl$n: kernels '$got', want '$kernels '"
	grep -q '^fill and scale of 256 ints: .*all correct$' "prog$n.out" ||
		fail "sycl$n: $(cat "prog$n.out")"

	"$DUMP" --json "sycl$n" >"sycl$n.json" &&
	one_file_json "sycl$n.json" || fail "devimg-dump --json sycl$n failed"
	jq -e --arg f "$name" --arg k "$kernels " '.images | length == 1 and
		.[0].format == $f and
		.[0].target == "spirv64-unknown-unknown" and
		((.[0].entries | sort | join(" ")) + " ") == $k' \
		"sycl$n.json" >/dev/null ||
		fail "devimg-dump --json sycl$n: $(cat "sycl$n.json")"
	"$DUMP" "sycl$n" >"sycl$n.dump" || fail "devimg-dump sycl$n failed"
	if [ "$n" = 23 ]; then
		llvm-objdump-23 --offloading sycl23 >sycl23.objdump ||
			fail "llvm-objdump-23 --offloading sycl23 failed"
		fields='^(OFFLOADING IMAGE|kind|arch|triple|producer|image size) '
		grep -E "$fields" sycl23.objdump >want || true
		grep -E "$fields" sycl23.dump >got || true
		[ -s want ] || fail "llvm-objdump-23 shows nothing in sycl23"
		diff -u want got || fail "devimg-dump and llvm-objdump-23 disagree on sycl23"
	fi

	"clang++-$n" -fsycl -fPIC -DSYCL_EXAMPLE_LIBRARY -I"$top_srcdir" -I"$top_srcdir/include" \
		-c "$ex" -o "lib$n.o" || fail "clang++-$n -fsycl -c (library) failed"
	offload_link "$n" "libsycl$n.so" -shared "lib$n.o"
	run_traced "lib$n" ./up-run dlopen "./libsycl$n.so" sycl_example_main
	grep -qx 'after dlopen: 1 images' "lib$n.out" ||
		fail "libsycl$n.so: not one image after dlopen: $(cat "lib$n.out")"
	grep -q '^fill and scale of 256 ints: .*all correct$' "lib$n.out" ||
		fail "libsycl$n.so: $(cat "lib$n.out")"
	grep -qx 'after dlclose: 0 images' "lib$n.out" ||
		fail "libsycl$n.so: images left after dlclose: $(cat "lib$n.out")"
	no_leaks "lib$n" ./up-run dlopen "./libsycl$n.so" none
	echo "clang++-$n -fsycl, clang-linker-wrapper-$n: 1 image, kernels $kernels, run, unregistered"
done
