#!/bin/sh
# llvm-offload-wrapper-23 --kind=sycl, as clang-linker-wrapper-23 runs it:
# objects that register an OffloadBinary from a priority-1 constructor,
# made from a plain OffloadBinary (llvm-offload-binary-23, symbols "vadd"),
# from clang-sycl-linker-23's output (symbols a binary table) and from
# clang-sycl-linker-22's (version 1, names joined by newlines). Each,
# linked into a program and into a shared library: every image registered
# before main with exactly upstream's kernel names, each kernel run on
# PoCL and its results read back, nothing registered after exit or after
# dlclose, registration clean under valgrind, and devimg-dump lists what
# registers.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/upstream/lib-upstream.sh"

cd "$scratch"
need_tools clang-23 clang++-23 llvm-offload-binary-23 llvm-offload-wrapper-23 \
	clang-sycl-linker-23 llvm-objdump-23 clang++-22 clang-sycl-linker-22
need_spirv_device
host_objs

# wrap NAME BLOB: NAME.o (PIC) registering BLOB.
wrap() {
	llvm-offload-wrapper-23 --kind=sycl -o "$1.bc" "$2" ||
		fail "llvm-offload-wrapper-23 $2 failed"
	clang-23 -c -fPIC "$1.bc" -o "$1.o" || fail "clang-23 -c $1.bc failed"
}

# registered NAME WHEN FORMAT KERNELS: NAME.out shows one image of
# FORMAT, target spirv64-unknown-unknown, with exactly KERNELS (sorted).
registered() {
	grep -qx "$2: 1 images" "$1.out" ||
		fail "$1: not one image $2: $(cat "$1.out")"
	line=$(grep '^image 0: ' "$1.out") || fail "$1: no image 0"
	[ "${line%%, kernels:*}" = "image 0: format $3, target spirv64-unknown-unknown" ] ||
		fail "$1: $line"
	got=$(printf '%s\n' ${line#*kernels:} | sort | tr '\n' ' ')
	[ "$got" = "$4 " ] || fail "$1: kernels '$got', want '$4 '"
}

# unloaded NAME: NAME.out says the registry is empty after dlclose.
unloaded() {
	grep -qx 'after dlclose: 0 images' "$1.out" ||
		fail "$1: images left after dlclose: $(cat "$1.out")"
}

# listed NAME FILE FORMAT KERNELS: devimg-dump lists FILE's image as
# libdevimg registers it, and its OffloadBinary as llvm-objdump-23 does.
listed() {
	"$DUMP" --json "$2" >"$1.json" &&
	one_file_json "$1.json" || fail "devimg-dump --json $2 failed"
	jq -e --arg f "$3" --arg k "$4 " '.images | length == 1 and
		.[0].format == $f and
		.[0].target == "spirv64-unknown-unknown" and
		((.[0].entries | sort | join(" ")) + " ") == $k' \
		"$1.json" >/dev/null ||
		fail "devimg-dump --json $2: $(cat "$1.json")"
	llvm-objdump-23 --offloading "$2" >"$1.objdump" ||
		fail "llvm-objdump-23 --offloading $2 failed"
	"$DUMP" "$2" >"$1.dump" || fail "devimg-dump $2 failed"
	fields='^(OFFLOADING IMAGE|kind|arch|triple|producer|image size) '
	grep -E "$fields" "$1.objdump" >"$1.want" || true
	grep -E "$fields" "$1.dump" >"$1.got" || true
	[ -s "$1.want" ] || fail "llvm-objdump-23 shows nothing in $2"
	diff -u "$1.want" "$1.got" ||
		fail "devimg-dump and llvm-objdump-23 disagree on $2"
}

# 1. A plain OffloadBinary of vadd.cl's SPIR-V.
clang-23 --target=spirv64 -cl-std=CL2.0 -O2 -c "$usrc/vadd.cl" -o vadd.spv ||
	fail "clang-23 cannot make SPIR-V"
llvm-offload-binary-23 -o plain.bin \
	--image=file=vadd.spv,triple=spirv64-unknown-unknown,arch=generic,kind=sycl,symbols=vadd ||
	fail "llvm-offload-binary-23 failed"
wrap plain plain.bin
link_run plain-prog plain.o
run_traced plain ./plain-prog vadd
registered plain "before main" 2 "vadd"
grep -q '^vadd: .*all correct$' plain.out || fail "plain: $(cat plain.out)"
listed plain plain-prog spirv "vadd"
$CC -shared -o libplain.so plain.o || fail "cannot link libplain.so"
link_run up-run
run_traced plain-lib ./up-run dlopen ./libplain.so vadd
registered plain-lib "after dlopen" 2 "vadd"
unloaded plain-lib
no_leaks plain-lib ./up-run dlopen ./libplain.so none
echo "plain OffloadBinary: 1 image, kernel vadd, run, unregistered"

# 2 and 3. clang-sycl-linker-23 and -22 on examples/sycl.cpp's device
# code; the host part compiled by clang++-23 -fsycl (its own
# .llvm.offloading is a link input, dropped by the linker).
clang++-23 -fsycl -I"$top_srcdir" -I"$top_srcdir/include" -c "$top_srcdir/examples/sycl.cpp" \
	-o host.o || fail "clang++-23 -fsycl -c failed"
clang++-23 -fsycl -fPIC -DSYCL_EXAMPLE_LIBRARY -I"$top_srcdir" -I"$top_srcdir/include" \
	-c "$top_srcdir/examples/sycl.cpp" -o host-lib.o ||
	fail "clang++-23 -fsycl -c (library) failed"
for n in 23 22; do
	"clang++-$n" -fsycl -fsycl-device-only -I"$top_srcdir" -I"$top_srcdir/include" -c \
		"$top_srcdir/examples/sycl.cpp" -o "dev$n.bc" ||
		fail "clang++-$n -fsycl-device-only failed"
	"clang-sycl-linker-$n" --triple=spirv64-unknown-unknown "dev$n.bc" -o "linked$n.bin" ||
		fail "clang-sycl-linker-$n failed"
	# 23 writes image kind 6 (SPIR-V, format 2), 22 kind 0 (format 0).
	if [ "$n" = 23 ]; then fmt=2 name=spirv; else fmt=0 name=none; fi
	wrap "sl$n" "linked$n.bin"
	clang++-23 -o "sl$n-prog" host.o "sl$n.o" "$scratch/regshow.o" \
		-L"$devlib" -ldevimg -Wl,-rpath,"$devlib" ||
		fail "cannot link sl$n-prog"
	run_traced "sl$n" "./sl$n-prog"
	registered "sl$n" "before main" $fmt "_ZTS4Fill _ZTS5Scale"
	grep -q 'all correct$' "sl$n.out" || fail "sl$n: $(cat "sl$n.out")"
	listed "sl$n" "sl$n-prog" $name "_ZTS4Fill _ZTS5Scale"
	clang++-23 -shared -o "libsl$n.so" host-lib.o "sl$n.o" \
		-L"$devlib" -ldevimg -Wl,-rpath,"$devlib" ||
		fail "cannot link libsl$n.so"
	run_traced "sl$n-lib" ./up-run dlopen "./libsl$n.so" sycl_example_main
	registered "sl$n-lib" "after dlopen" $fmt "_ZTS4Fill _ZTS5Scale"
	grep -q 'all correct$' "sl$n-lib.out" || fail "sl$n-lib: $(cat "sl$n-lib.out")"
	unloaded "sl$n-lib"
	no_leaks "sl$n-lib" ./up-run dlopen "./libsl$n.so" none
	echo "clang-sycl-linker-$n: 1 image, kernels _ZTS4Fill _ZTS5Scale, run, unregistered"
done
