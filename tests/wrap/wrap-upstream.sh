#!/bin/sh
# clang-offload-wrapper's command lines, as DPC++'s own tests
# (clang/test/Driver/clang-offload-wrapper.c) and its driver (the FPGA
# archive flow of sycl-offload-*.cpp) give them, paths adapted: each is
# accepted and makes what DPC++'s wrapper makes, read back with
# devimg-dump, readelf and a program that reads the descriptor.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

DUMP=$top_builddir/devimg-dump

# dumpj OBJ: devimg-dump --json OBJ into OBJ.json, its status checked
# before anything reads the file.
dumpj() {
	"$DUMP" --json "$1" >"$1.json" 2>"$1.err" &&
	one_file_json "$1.json" ||
		fail "devimg-dump --json $1 exited $?: $(cat "$1.err")"
}
cd "$scratch"
echo 'Content of device file1' >t1.tgt
echo 'Content of device file2' >t2.tgt
echo 'Content of device file' >t.tgt

# descdump OUT NAME [CFLAGS]: a program printing .sycl_offloading.NAME
descdump() {
	$CC -std=c11 -O1 ${3:-} -DDESC="\".sycl_offloading.$2\"" -c \
		"$wsrc/descdump.c" -o "$1.main.o" || fail "cannot build descdump"
}

# The test's first command: per-image options hold until given again;
# "-format spirv" takes its value as the next argument;
# -add-omp-offload-notes is accepted (it only changes OpenMP images).
"$WRAP" -add-omp-offload-notes -host=x86_64-pc-linux-gnu \
	-kind=sycl -target=tg1 -compile-opts=-g -link-opts=-cl-denorms-are-zero \
	-format spirv t1.tgt \
	-target=tg2 -compile-opts= -link-opts= \
	-format native t2.tgt \
	-o w1.o || fail "the first command line"
dumpj w1.o
jq -c '.images[] | [.index, .version, .kind, .format,
	.target, .compile_options, .link_options, .manifest, .size]' w1.o.json >got1
cat >want1 <<'W'
[0,2,"sycl","spirv","tg1","-g","-cl-denorms-are-zero",null,24]
[1,2,"sycl","native","tg2","","",null,24]
W
diff -u want1 got1 || fail "first command line: images differ"
readelf -SW w1.o >s1
grep -q ' __CLANG_OFFLOAD_BUNDLE__sycl-tg1 ' s1 || fail "no section for tg1"
grep -q ' __CLANG_OFFLOAD_BUNDLE__sycl-tg2 ' s1 || fail "no section for tg2"
grep -Eq ' \.tgtimg +PROGBITS +0+ [0-9a-f]+ 000020 ' s1 ||
	fail ".tgtimg is not two pairs: $(grep tgtimg s1)"

# -emit-reg-funcs=0 -desc-name=lalala -o -: the object on standard output,
# no constructor, destructor or .tgtimg, and the descriptor a global
# .sycl_offloading.lalala that a program reads.
"$WRAP" -kind sycl -host=x86_64-pc-linux-gnu -emit-reg-funcs=0 \
	-desc-name=lalala -o - t.tgt >w2.o || fail "-o - failed"
elflint w2.o
readelf -sW w2.o >sym2
grep -Eq ' [0-9]+ OBJECT +GLOBAL +DEFAULT +[0-9]+ \.sycl_offloading\.lalala$' sym2 ||
	fail "no global .sycl_offloading.lalala: $(cat sym2)"
! grep -q '__sycl_register_lib' sym2 || fail "registration with -emit-reg-funcs=0"
readelf -SW w2.o >s2
! grep -q '\.tgtimg' s2 || fail ".tgtimg with -emit-reg-funcs=0"
! grep -Eq ' \.(rela\.)?(init|fini)_array\.1 |\.text\.devimg ' s2 ||
	fail "constructor with -emit-reg-funcs=0: $(cat s2)"
descdump d2 lalala
$CC -no-pie -o d2 d2.main.o w2.o || fail "cannot link the descriptor reader"
./d2 >got2 || fail "descriptor reader failed"
printf '%s\n' 'binaries 1 count 1' \
	'image 0 version 2 kind 4 format 0 target  copts  lopts  size 23 entries ' >want2
diff -u want2 got2 || fail "-desc-name descriptor differs"
cmp img.0 t.tgt || fail "-desc-name descriptor: image bytes differ"
# The same object, written to a file, is the same bytes.
"$WRAP" -kind sycl -host=x86_64-pc-linux-gnu -emit-reg-funcs=0 \
	-desc-name=lalala -o w2f.o t.tgt || fail "-o file"
cmp w2.o w2f.o || fail "-o - and -o file differ"

# -entries, then -o - in a pipe.
printf 'entryA\nentryB\n' >t.txt
# The pipe is kept (stdout not seekable); devimg-wrap's status goes to
# w3.rc, checked before w3.o is read.
{
	rc=0
	"$WRAP" -host=x86_64-pc-linux-gnu -kind=sycl -entries=t.txt t.tgt \
		-o - 2>w3.err || rc=$?
	echo "$rc" >w3.rc
} | cat >w3.o
[ "$(cat w3.rc)" = 0 ] || fail "devimg-wrap -o - into a pipe exited $(cat w3.rc): $(cat w3.err)"
dumpj w3.o
[ "$(jq -c '.images[0].entries' w3.o.json)" = '["entryA","entryB"]' ] ||
	fail "-entries through -o -"

# The image can be taken out as clang-offload-bundler -type=o does: the
# section named for kind and target holds exactly its bytes.
"$WRAP" -o w4.o -host=x86_64-pc-linux-gnu -kind=sycl \
	-target=spir64-unknown-linux t1.tgt || fail "bundler command line"
objcopy -O binary \
	--only-section=__CLANG_OFFLOAD_BUNDLE__sycl-spir64-unknown-linux w4.o t1.out
cmp t1.out t1.tgt || fail "the bundle section is not the image"

# The FPGA archive flow: "-o=FILE" and "--emit-reg-funcs=0" spellings, a
# batch table with extra columns, then the result wrapped again as a host
# image for the archive (carried as bytes, not registered).
printf '[Code|Symbols|Properties|SymAndProps]\nt1.tgt|t.txt||x.bc\nt2.tgt|||x.bc\n' >table.txt
"$WRAP" -o=w5.o -host=x86_64-unknown-linux-gnu --emit-reg-funcs=0 \
	-target=fpga_aocx-intel-unknown -kind=sycl -batch table.txt ||
	fail "FPGA batch command line"
dumpj w5.o
jq -c '.images[] | [.target, .entries, .size]' w5.o.json >got5
printf '%s\n' '["fpga_aocx-intel-unknown",["entryA","entryB"],24]' \
	'["fpga_aocx-intel-unknown",[],24]' >want5
diff -u want5 got5 || fail "FPGA batch: images differ"
"$WRAP" -o w6.o -host=x86_64-unknown-linux-gnu \
	-target=fpga_aocx-intel-unknown -kind=host w5.o ||
	fail "-kind=host command line"
objcopy -O binary \
	--only-section=__CLANG_OFFLOAD_BUNDLE__host-fpga_aocx-intel-unknown w6.o w5.out
cmp w5.out w5.o || fail "the host bundle section is not the object"
dumpj w6.o
[ "$(jq '.images | length' w6.o.json)" = 0 ] ||
	fail "a host image is in the SYCL descriptor"
! readelf -sW w6.o | grep -q __sycl_register_lib ||
	fail "a host image is registered"

# Several tables: -batch before each, or once for all; options between
# tables hold for the tables after them. A table with only its header
# adds nothing.
printf '[Code]\nt1.tgt\n' >ta.txt
printf '[Code|Symbols]\nt2.tgt|t.txt\n' >tb.txt
printf '[Code|Symbols]\n' >empty.txt
"$WRAP" -o w7.o -kind=sycl -target=a -batch ta.txt -target=b -batch tb.txt \
	-batch empty.txt || fail "-batch twice"
"$WRAP" -o w8.o -kind=sycl -target=a -batch ta.txt empty.txt tb.txt ||
	fail "-batch once for three tables"
dumpj w7.o
[ "$(jq -c '[.images[] | [.target, .entries]]' w7.o.json)" = \
	'[["a",[]],["b",["entryA","entryB"]]]' ] || fail "-batch twice: images"
dumpj w8.o
[ "$(jq -c '[.images[] | [.target, .entries]]' w8.o.json)" = \
	'[["a",[]],["a",["entryA","entryB"]]]' ] ||
	fail "-batch once: images"

# Only a header: an object without images that registers nothing and
# links.
"$WRAP" -o w9.o -kind=sycl -batch empty.txt || fail "header-only table"
elflint w9.o
dumpj w9.o
[ "$(jq '.images | length' w9.o.json)" = 0 ] ||
	fail "header-only table: images"
! readelf -sW w9.o | grep -q __sycl_register_lib ||
	fail "header-only table: registration"
main_file m.c
$CC -o m9 m.c w9.o && ./m9 || fail "header-only table: cannot link or run"

# --sym-prop-bc-files (DPC++'s sym-prop-bc-files test, adapted): wrap three
# images from a table with symbols and properties, change the images,
# wrap them again from a Code-only table and take symbols and properties
# from the first object, listed in a [SymAndProps] table. Both objects
# then say the same but for the image bytes.
i=0
for k in 5 4 3; do
	echo "pseudo-aocx-$i" >s$i.aocx
	printf '%s\n' '[SYCL/devicelib req mask]' 'DeviceLibReqMask=1|0' \
		'[SYCL/device requirements]' 'aspects=2|AAAAAAAAAAA' \
		'reqd_work_group_size=2|AAAAAAAAAAA' '[SYCL/kernel param opt]' \
		"_ZTSZ4add${k}N4sycl3_V15queueEPiiiE10add${k}_dummy=2|DAAAAAAAAAAA" \
		"_ZZ4add${k}N4sycl3_V15queueEPiiiENKUlvE_clEv=2|BAAAAAAAAAAA" \
		'[SYCL/misc properties]' 'optLevel=1|2' >s$i.prop
	echo "_ZTSZ4add${k}N4sycl3_V15queueEPiiiE10add${k}_dummy" >s$i.sym
	i=$((i + 1))
done
printf '%s\n' '[Code|Properties|Symbols]' 's0.aocx|s0.prop|s0.sym' \
	's1.aocx|s1.prop|s1.sym' 's2.aocx|s2.prop|s2.sym' >s.table
"$WRAP" "-o=s1.o" "-host=x86_64-unknown-linux-gnu" "--emit-reg-funcs=0" \
	"-target=fpga_aocx-intel-unknown" "-kind=sycl" "-batch" s.table ||
	fail "sym-prop: first wrap"
echo 'fake-aocx-0-updated' >s0.aocx
echo 'fake-aocx-1-enhanced' >s1.aocx
echo 'fake-aocx-2-different-form' >s2.aocx
printf '%s\n' '[Code]' s0.aocx s1.aocx s2.aocx >s_code_only.table
printf '%s\n' '[SymAndProps]' s1.o >s_sym_prop_files.txt
"$WRAP" "-o=s2.o" "-host=x86_64-unknown-linux-gnu" "--emit-reg-funcs=0" \
	"-target=fpga_aocx-intel-unknown" "-kind=sycl" "-batch" \
	s_code_only.table --sym-prop-bc-files=s_sym_prop_files.txt ||
	fail "sym-prop: second wrap"
for o in s1 s2; do
	dumpj $o.o
	jq -c '.images[] | [.target, .entries, .property_sets]' $o.o.json >$o.meta
done
[ "$(wc -l <s1.meta)" -eq 3 ] || fail "sym-prop: not three images"
grep -q '"_ZTSZ4add4N4sycl3_V15queueEPiiiE10add4_dummy"' s1.meta ||
	fail "sym-prop: the first object lacks its entries"
diff -u s1.meta s2.meta || fail "sym-prop: entries or properties differ"
mkdir sx
"$DUMP" --extract sx s2.o >/dev/null || fail "sym-prop: extract"
i=0
for f in sx/*; do
	cmp "$f" s$i.aocx || fail "sym-prop: image $i is not the new code"
	i=$((i + 1))
done
[ $i -eq 3 ] || fail "sym-prop: $i images extracted"
printf '%s\n' '[SymAndProps]' w9.o >s_short.txt
expect_fail '^devimg-wrap: s_short.txt: the objects it lists hold fewer images than the 3 SYCL images wrapped here$' \
	"$WRAP" -o s3.o -kind=sycl -batch s_code_only.table \
	--sym-prop-bc-files=s_short.txt

# A Windows host stays a clear error: devimg-wrap writes ELF.
expect_fail '^devimg-wrap: -host=x86_64-pc-windows-msvc: unsupported host (x86_64 or aarch64 Linux: devimg-wrap writes ELF only)$' \
	"$WRAP" -o wa.o -host=x86_64-pc-windows-msvc -kind=sycl t.tgt
[ ! -e wa.o ] || fail "output left for a Windows host"
echo PASS
