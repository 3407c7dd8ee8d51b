#!/bin/sh
# devimg-wrap -form=blob: two images with kernel lists and property sets
# in one OffloadBinary of version 2, in an allocated SHT_LLVM_OFFLOADING
# section .llvm.offloading aligned to 16, registered by a priority-1
# constructor with (blob, size). devimg-dump reads back what was given:
# kinds, triples, the symbols table, one string per property set (.props
# text without the set's line), the images byte for byte; each image's
# arch is the -arch before it (or before its -batch table), empty without
# one. Linked with libdevimg into a PIE, and into a shared library that a
# program opens and closes, every kernel and property set registers as
# the descriptor form of the same inputs registers them (and devimg-dump
# lists them so), and dlclose unregisters; a set whose text does not read
# fails reading the image's sets, in libdevimg and devimg-dump alike. A
# program linking 10,000 kernels in this form has 4 dynamic relocations
# more than without them. What the form has no place for is a one-line
# error and no output, and so is an -arch without the form, or of a
# character or a length it does not take; -emit-reg-funcs=0 leaves the
# code out, no image the blob.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"
. "$top_srcdir/tests/upstream/lib-upstream.sh"
# Programs that load libdevimg are built with its flags (a sanitizer's
# runtime, when the build has one).
. "$top_builddir/tests/loader/build-flags.sh"
CC="$CC $LOADER_CFLAGS"

[ -x "$DUMP" ] || skip build "devimg-dump is not built"
command -v objcopy >/dev/null 2>&1 || skip tools "objcopy not found"
cd "$scratch"
build_mkprops
host_objs

spirv_file a.spv 4096
ptx_file k.ptx
sym_file a.sym _ZTS7KernelA _ZTS7KernelB "name with spaces"
sym_file k.sym k_ptx
sym_file l.sym l_one l_two
printf 'BC\300\336' >l.bc
head -c 300 /dev/urandom >>l.bc
cat >a.props <<'EOF'
[SYCL/specialization constants]
9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
[SYCL/misc properties]
optLevel=1|2
big=1|4294967295
[SYCL/no properties]
EOF
# mkprops' random sets, but its set "Empty": a blob's set needs a '/'.
gen_props 2 g
sed '/^\[Empty\]$/d' g.props >k.props

# blob_lint OBJ: eu-elflint --strict finds nothing but the section type
# it does not know (LLVM's, as llvm-offload-wrapper writes it).
blob_lint() {
	[ "${EU_ELFLINT:-no}" != no ] && [ -x "$EU_ELFLINT" ] ||
		skip tools "no eu-elflint (elfutils) to check $1"
	"$EU_ELFLINT" --strict "$1" >lint.out 2>&1 || true
	grep -v -e "^section \[ *[0-9]*\] '.llvm.offloading' has unsupported type 1879002123$" \
		-e '^No errors$' lint.out >lint.rest || true
	[ ! -s lint.rest ] || fail "eu-elflint --strict $1: $(cat lint.out)"
}

args="-kind=sycl -target=spir64-unknown-unknown -format=spirv -entries=a.sym
	-properties=a.props a.spv -target=nvptx64-nvidia-cuda -format=none
	-entries=k.sym -properties=k.props k.ptx"
# shellcheck disable=SC2086
"$WRAP" -form=blob -o w.o $args || fail "devimg-wrap -form=blob"
# shellcheck disable=SC2086
"$WRAP" -form=descriptor -o d.o $args || fail "devimg-wrap -form=descriptor"
"$WRAP" -form=blob -o l.o -kind=sycl -target=spir64 -format=llvmbc \
	-entries=l.sym -properties=a.props l.bc || fail "devimg-wrap l.o"

# 1. The object: the blob's section and no descriptor.
readelf -SW w.o >w.sec
line=$(grep ' \.llvm\.offloading ' w.sec) || fail "no .llvm.offloading: $(cat w.sec)"
# shellcheck disable=SC2086
set -- $line
# readelf names the type from binutils 2.44 (Debian 13) on; older ones
# (2.40 in Debian 12) print a number.
case $3 in
LOOS+0xfff4c0b | LLVM_OFFLOADING) ;;
*) fail "section type $3, not SHT_LLVM_OFFLOADING: $line" ;;
esac
[ "$8" = A ] && [ "${11}" = 16 ] ||
	fail "flags '$8' alignment ${11}, not A and 16: $line"
! grep -Eq ' \.devimg | \.data\.rel\.ro\.devimg |__CLANG_OFFLOAD_BUNDLE__|\.tgtimg' w.sec ||
	fail "the blob form has descriptor sections: $(cat w.sec)"
grep -q ' \.init_array\.1 ' w.sec && grep -q ' \.fini_array\.1 ' w.sec ||
	fail "no priority-1 constructor tables: $(cat w.sec)"
readelf -sW w.o | grep -q 'GLOBAL DEFAULT *UND __sycl_register_lib$' &&
	readelf -sW w.o | grep -q 'GLOBAL DEFAULT *UND __sycl_unregister_lib$' ||
	fail "no undefined registration functions: $(readelf -sW w.o)"
blob_lint w.o
objcopy -O binary --only-section=.llvm.offloading w.o blob.bin ||
	fail "objcopy cannot take the section out"
[ "$(od -An -tx1 -N8 blob.bin | tr -d ' \n')" = 10ff10ad02000000 ] ||
	fail "not an OffloadBinary of version 2: $(od -An -tx1 -N32 blob.bin)"
size=$(od -An -tu8 -j8 -N8 blob.bin | tr -d ' ')
[ "$size" = "$(wc -c <blob.bin)" ] ||
	fail "blob Size $size, section $(wc -c <blob.bin) bytes"

# 2. devimg-dump: what the blob holds.
"$DUMP" --json w.o >w.json && one_file_json w.json ||
	fail "devimg-dump --json w.o failed"
jq -c '.offloading | map([.kind, .image_kind, .producer, .offload_kind,
	.strings.triple, .strings.arch, .symbols, .symbols_form])' w.json >got
cat >want <<'EOF'
[["spir-v",6,"sycl",8,"spir64-unknown-unknown","",["_ZTS7KernelA","_ZTS7KernelB","name with spaces"],"table"],["ptx",5,"sycl",8,"nvptx64-nvidia-cuda","",["k_ptx"],"table"]]
EOF
diff want got || fail "devimg-dump shows other entries"
jq -r '.offloading[1].strings | keys_unsorted | .[3:] | .[]' w.json >got
sed -n 's/^\[\(.*\)\]$/\1/p' k.props >want
diff want got || fail "image 1's property-set strings are not its sets"
jq -j '.offloading[0].strings["SYCL/misc properties"]' w.json >got
printf 'optLevel=1|2\nbig=1|4294967295\n' >want
diff want got || fail "the text of SYCL/misc properties differs"
[ "$(jq -c '.offloading[0].strings["SYCL/no properties"]' w.json)" = '""' ] ||
	fail "a set without properties is not an empty string"
# The table as clang-sycl-linker 23 writes it, byte for byte.
jq -j '.offloading[1].strings.symbols' w.json | od -An -tx1 | tr -d ' \n' >got
[ "$(cat got)" = 010000000c000000050000006b5f70747800 ] ||
	fail "image 1's symbols table: $(cat got)"
mkdir x
"$DUMP" --extract x w.o >x.list || fail "devimg-dump --extract w.o"
# The images as registered, and the blob's entries.
cmp a.spv x/w.o.0.spir64-unknown-unknown.spv &&
	cmp k.ptx x/w.o.1.nvptx64-nvidia-cuda.ptx &&
	cmp a.spv x/w.o.offload.0.spir64-unknown-unknown.spv &&
	cmp k.ptx x/w.o.offload.1.nvptx64-nvidia-cuda.ptx ||
	fail "extracted images differ: $(cat x.list)"
"$DUMP" --json l.o >l.json && one_file_json l.json ||
	fail "devimg-dump --json l.o failed"
jq -e '.offloading[0].image_kind == 2' l.json >/dev/null ||
	fail "an LLVM bitcode image is not of kind 2: $(cat l.json)"
# -arch: each image's "arch" string, from the -arch before it until given
# again (-arch= drops it), in devimg-dump's text and JSON.
head -c 256 /dev/urandom >k.cubin
"$WRAP" -form=blob -o arch.o -kind=sycl -target=nvptx64-nvidia-cuda \
	-format=native -arch=sm_90 -entries=k.sym k.cubin \
	-target=spir64-unknown-unknown -format=spirv -arch= -entries=a.sym \
	a.spv || fail "devimg-wrap -arch"
"$DUMP" arch.o >arch.txt || fail "devimg-dump arch.o"
grep -E '^(OFFLOADING IMAGE|kind|arch|triple) ' arch.txt |
	sed 's/  */ /g; s/ $//' >got
cat >want <<'EOF'
OFFLOADING IMAGE [0]:
kind cubin
arch sm_90
triple nvptx64-nvidia-cuda
OFFLOADING IMAGE [1]:
kind spir-v
arch
triple spir64-unknown-unknown
EOF
diff want got || fail "devimg-dump shows other arch strings: $(cat arch.txt)"
"$DUMP" --json arch.o >arch.json && one_file_json arch.json ||
	fail "devimg-dump --json arch.o failed"
jq -c '.offloading | map([.image_kind, .strings.triple, .strings.arch])' \
	arch.json >got
echo '[[3,"nvptx64-nvidia-cuda","sm_90"],[6,"spir64-unknown-unknown",""]]' >want
diff want got || fail "devimg-dump --json shows other arch strings"
# The rows of a -batch table take the -arch before it (here as the next
# argument, after two dashes); 64 bytes is not too long.
head -c 300 /dev/urandom >m.cubin
printf '[Code|Symbols]\nk.cubin|k.sym\nm.cubin|k.sym\n' >arch.tab
"$WRAP" -form=blob -o archb.o -kind=sycl -target=amdgcn-amd-amdhsa \
	-format=native --arch gfx90a:xnack+ -batch arch.tab ||
	fail "devimg-wrap -arch -batch"
"$DUMP" --json archb.o >archb.json && one_file_json archb.json ||
	fail "devimg-dump --json archb.o failed"
[ "$(jq -c '.offloading | map(.strings.arch)' archb.json)" = \
  '["gfx90a:xnack+","gfx90a:xnack+"]' ] ||
	fail "the table's rows: $(jq -c .offloading archb.json)"
a64=$(printf '%064d' 0 | tr 0 a)
"$WRAP" -form=blob -o arch64.o -kind=sycl -target=x -arch="$a64" \
	-entries=k.sym k.cubin || fail "devimg-wrap -arch of 64 bytes"
"$DUMP" --json arch64.o >arch64.json && one_file_json arch64.json ||
	fail "devimg-dump --json arch64.o failed"
[ "$(jq -r '.offloading[0].strings.arch' arch64.json)" = "$a64" ] ||
	fail "the 64-byte arch: $(jq -c .offloading arch64.json)"
# An empty -arch is no arch: the descriptor form takes it.
"$WRAP" -o archd.o -kind=sycl -arch= -entries=k.sym k.cubin ||
	fail "devimg-wrap -arch= (descriptor form)"

# 3. Registered by libdevimg as the descriptor form of the same inputs:
# in a PIE (before main), and in a library opened and closed.
$CC -shared -o libl.so l.o || fail "cannot link libl.so"
link_run wprog w.o
link_run dprog d.o
run_traced w ./wprog dlopen ./libl.so none
run_traced d ./dprog dlopen ./libl.so none
diff d.out w.out || fail "the blob form registers otherwise"
grep -qx 'image 0: format 2, target spir64-unknown-unknown, kernels: _ZTS7KernelA _ZTS7KernelB name with spaces' w.out &&
	grep -qx 'image 0 set SYCL/misc properties: optLevel=1|2 big=1|4294967295' w.out &&
	grep -qx 'image 0 set SYCL/no properties:' w.out &&
	grep -qx 'image 1: format 0, target nvptx64-nvidia-cuda, kernels: k_ptx' w.out &&
	grep -qx 'image 2: format 3, target spir64, kernels: l_one l_two' w.out &&
	grep -qx 'image 2 set SYCL/misc properties: optLevel=1|2 big=1|4294967295' w.out ||
	fail "registered: $(cat w.out)"
[ "$(sed '/^after dlopen:/q' w.out | grep -c '^image 1 set ')" = \
  "$(grep -c '^\[' k.props)" ] ||
	fail "not every set of image 1 registered: $(cat w.out)"
[ "$(sed -n '/^before main:/,/^after dlopen:/p' w.out | sed '$d' | sed 1d)" = \
  "$(sed -n '/^after dlclose:/,$p' w.out | sed 1d)" ] &&
	grep -qx 'before main: 2 images' w.out &&
	grep -qx 'after dlopen: 3 images' w.out &&
	grep -qx 'after dlclose: 2 images' w.out ||
	fail "dlclose did not unregister the library's blob: $(cat w.out)"

# devimg-dump lists the images as libdevimg registers them, property
# sets included: as the descriptor form's.
"$DUMP" --json d.o >d.json && one_file_json d.json ||
	fail "devimg-dump --json d.o failed"
for f in d w; do
	jq -S '.images | map({format, target, entries, property_sets})' \
		$f.json >$f.images
done
diff d.images w.images || fail "devimg-dump shows other registered images"
# A text that does not read: the image registers, its sets do not read,
# in libdevimg and in devimg-dump alike (one line, exit status 1).
LC_ALL=C sed 's/optLevel=1|2/optLevel=9|2/' w.o >bad.o
cmp -s w.o bad.o && fail "bad.o is w.o"
link_run badprog bad.o
./badprog dlopen ./libl.so none >bad.out ||
	fail "badprog failed: $(cat bad.out)"
grep -qx 'image 0: format 2, target spir64-unknown-unknown, kernels: _ZTS7KernelA _ZTS7KernelB name with spaces' bad.out &&
	grep -qx 'image 0 sets: error -22' bad.out &&
	grep -q '^image 1 set ' bad.out ||
	fail "bad.o registered: $(cat bad.out)"
set +e
"$DUMP" bad.o >bad.dump 2>bad.err
rc=$?
set -e
[ $rc = 1 ] && [ "$(wc -l <bad.err)" = 1 ] &&
	grep -q "^devimg-dump: bad.o: OFFLOADING IMAGE \[0\]: set 'SYCL/misc properties':1:10: bad property type: .*: libdevimg cannot read the image's property sets$" bad.err ||
	fail "devimg-dump bad.o: exit $rc: $(cat bad.err)"

# 4. Dynamic relocations: two words, whatever the number of kernels.
i=0
while [ $i -lt 10000 ]; do
	echo "_ZTS6Kernel$i"
	i=$((i + 1))
done >big.sym
"$WRAP" -form=blob -o big.o -kind=sycl -target=spir64 -format=spirv \
	-entries=big.sym -properties=a.props a.spv || fail "devimg-wrap big.o"
main_file main.c
relocs() {
	readelf -rW "$1" | grep -c '^[0-9a-f]\{8,\} '
}
$CC -pie -fPIE -o plain main.c -L"$devlib" -ldevimg -Wl,-rpath,"$devlib" ||
	fail "cannot link plain"
$CC -pie -fPIE -o bigprog main.c big.o -L"$devlib" -ldevimg \
	-Wl,-rpath,"$devlib" || fail "cannot link bigprog"
extra=$(($(relocs bigprog) - $(relocs plain)))
echo "# 10,000 kernels in the blob form: $extra dynamic relocations more"
[ "$extra" -le 4 ] ||
	fail "10,000 kernels add $extra dynamic relocations: $(readelf -rW bigprog)"
[ "$(./bigprog; echo $?)" = 0 ] || fail "bigprog failed"

# 5. What the blob form has no place for.
mkdir dst
echo old >dst/keep.o
printf '[S]\nx=1|1\n' >noslash.props
o="-o dst/w.o -form=blob"
# shellcheck disable=SC2086
{
wrap_fails "k.ptx: the blob form holds SYCL images only, not -kind=openmp ones" \
	$o -kind=openmp k.ptx
wrap_fails "a.spv: the blob form has no place for a manifest" \
	$o -kind=sycl a.spv a.sym
wrap_fails "a.spv: the blob form has no place for compile options" \
	$o -kind=sycl -compile-opts=-g a.spv
wrap_fails "a.spv: property set 'S': the blob form names a set's string by the set, which needs a '/'" \
	$o -kind=sycl -properties=noslash.props a.spv
wrap_usage_fails "-form=blob: conflicts with -desc-name" \
	$o -desc-name=x -kind=sycl a.spv
wrap_usage_fails "-form=blob: conflicts with -image-version=3" \
	$o -image-version=3 -kind=sycl a.spv
wrap_usage_fails "-form=blob: conflicts with -offload-compress" \
	$o -offload-compress -kind=sycl a.spv
wrap_usage_fails "-form=blob: conflicts with -syclbin" \
	$o -syclbin=input -kind=sycl a.spv
wrap_usage_fails "-form=blobs: unknown form 'blobs' (expected descriptor or blob)" \
	-o dst/w.o -form=blobs -kind=sycl a.spv
# -arch: the blob form's only; a name of its characters, 64 at most.
wrap_usage_fails "-arch=sm_90: conflicts with the default -form=descriptor (the DPC++ descriptor has no arch field; use -form=blob)$" \
	-o dst/w.o -kind=sycl -target=nvptx64 -arch=sm_90 k.cubin
wrap_usage_fails "--arch: conflicts with -form=descriptor (the DPC++ descriptor has no arch field; use -form=blob)$" \
	-o dst/w.o -form=descriptor -kind=sycl --arch sm_90 k.cubin
wrap_usage_fails "-arch=sm_90: conflicts with -syclbin (a SYCLBIN file takes a native image's arch from its compile_target property; use -form=blob)$" \
	-o dst/w.o -syclbin=input -kind=sycl -format=native \
	-target=nvptx64 -arch=sm_90 k.cubin
wrap_usage_fails "-arch: 'sm 90': byte 3, ' ', is not allowed in an arch name (letters, digits, '_', '.', '+', '-' and ':' are)$" \
	$o -kind=sycl "-arch=sm 90" a.spv
wrap_usage_fails "--arch: 'sm/90': byte 3, '/', is not allowed in an arch name" \
	$o -kind=sycl --arch=sm/90 a.spv
wrap_usage_fails "-arch: '${a64%????????????????}\.\.\.': 65 bytes, more than the 64 of an arch name$" \
	$o -kind=sycl -arch="${a64}b" a.spv
}

# 6. -emit-reg-funcs=0: the blob without code, tables or undefined
# functions; no image (a table without rows): not even the blob.
"$WRAP" -form=blob -emit-reg-funcs=0 -o n.o -kind=sycl -target=spir64 \
	-entries=a.sym a.spv || fail "devimg-wrap -emit-reg-funcs=0"
blob_lint n.o
readelf -SW n.o >n.sec
grep -q ' \.llvm\.offloading ' n.sec &&
	! grep -Eq ' \.text\.devimg | \.init_array\.1 | \.fini_array\.1 |\.rela' n.sec ||
	fail "-emit-reg-funcs=0: $(cat n.sec)"
! readelf -sW n.o | grep -q '_register_lib' ||
	fail "-emit-reg-funcs=0 references the registration: $(readelf -sW n.o)"
printf '[Code]\n' >empty.txt
"$WRAP" -form=blob -o e.o -kind=sycl -batch empty.txt ||
	fail "devimg-wrap of an empty table"
blob_lint e.o
! readelf -SW e.o | grep -Eq 'offloading|devimg' ||
	fail "an object without images: $(readelf -SW e.o)"
echo PASS
