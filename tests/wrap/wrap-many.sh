#!/bin/sh
# Many images in one object (40, each with its own options, entries and
# property sets), a batch file table, and two wrapped objects linked into
# one program: every image arrives intact and in order.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

build_registrar
build_mkprops
cd "$scratch"
expect_reset

targets="spir64 spir64_x86_64 spir64_gen spir64_fpga nvptx64 amdgcn"
formats="none native spirv llvmbc"
set -- -o many.o -kind=sycl
i=0
while [ $i -lt 40 ]; do
	t=$(echo $targets | cut -d' ' -f$((i % 6 + 1)))
	f=$(echo $formats | cut -d' ' -f$((i % 4 + 1)))
	rand_file img$i.bin $((i * 977 % 5000 + 1))
	sym_file img$i.sym "kernel_${i}_a" "kernel_${i}_b"
	gen_props $((i % 7 + 1)) p$i
	set -- "$@" -target=$t -format=$f -compile-opts="-DI=$i" \
		-entries=img$i.sym -properties=p$i.props img$i.bin
	expect $i img$i.bin $f $t "-DI=$i" "" img$i.sym p$i.pjson -
	i=$((i + 1))
done
"$WRAP" "$@" || fail "devimg-wrap with 40 images"
elflint many.o
[ "$(readelf -SW many.o | grep -c ' __CLANG_OFFLOAD_BUNDLE__sycl-')" -eq 40 ] ||
	fail "not 40 image sections"
run_linked many-pie "-pie -fPIE" many.o
run_dlopen many-dlopen "" many.o

# A batch table: cells name each image's files, options before the table
# hold for every row, empty cells mean none.
printf 'manifest of row 2\n' >row2.mnf
cat >table.txt <<'EOF'
[Code|Symbols|Properties|Manifest]
img0.bin|img0.sym|p1.props|
img1.bin|||row2.mnf
img2.bin|img2.sym||
EOF
"$WRAP" -o batch.o -kind=sycl -target=spir64 -format=spirv \
	-compile-opts=-O3 -link-opts=-L -batch table.txt ||
	fail "devimg-wrap -batch"
elflint batch.o
expect_reset
expect 0 img0.bin spirv spir64 -O3 -L img0.sym p1.pjson -
expect 1 img1.bin spirv spir64 -O3 -L - - row2.mnf
expect 2 img2.bin spirv spir64 -O3 -L img2.sym - -
run_linked batch "-no-pie" batch.o

# Columns in any order.
cat >table2.txt <<'EOF'
[Symbols|Code]
img0.sym|img0.bin
EOF
"$WRAP" -o batch2.o -kind=sycl -target=x -batch table2.txt ||
	fail "-batch with a table of two columns failed"
expect_reset
expect 0 img0.bin none x "" "" img0.sym - -
run_linked batch2 "-no-pie" batch2.o

# Two wrapped objects in one program: two registrations, images counted
# across both in link order.
expect_reset
"$WRAP" -o one.o -kind=sycl -target=a img1.bin || fail "one.o"
"$WRAP" -o two.o -kind=sycl -target=b img2.bin -target=c img3.bin ||
	fail "two.o"
expect 0 img1.bin none a "" "" - - -
expect 1 img2.bin none b "" "" - - -
expect 2 img3.bin none c "" "" - - -
run_linked two "-no-pie" "one.o two.o"
[ "$(grep -c '^register ' run.two/out)" -eq 2 ] ||
	fail "two objects did not register twice: $(cat run.two/out)"
echo PASS
