#!/bin/sh
# devimg-wrap -form=blob read by LLVM 23's tools: llvm-objdump-23
# --offloading lists the object's OffloadBinary with the kind, arch,
# triple, producer and image size of each image that devimg-dump lists,
# and llvm-offload-binary-23 extracts each image from the object, byte
# for byte its input.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/upstream/lib-upstream.sh"

WRAP=$top_builddir/devimg-wrap
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
[ -x "$DUMP" ] || skip build "devimg-dump is not built"
need_tools llvm-offload-binary-23 llvm-objdump-23
cd "$scratch"

printf '\003\002\043\007\000\000\001\000' >a.spv
head -c 1000 /dev/urandom >>a.spv
printf '.version 7.0\n.target sm_80\n.address_size 64\n' >k.ptx
printf '_ZTS4Fill\n_ZTS5Scale\n' >a.sym
printf 'k_ptx\n' >k.sym
printf '[SYCL/misc properties]\noptLevel=1|2\n' >a.props
"$WRAP" -form=blob -o w.o -kind=sycl -target=spirv64-unknown-unknown \
	-format=spirv -entries=a.sym -properties=a.props a.spv -arch=sm_80 \
	-target=nvptx64-nvidia-cuda -format=none -entries=k.sym k.ptx ||
	fail "devimg-wrap -form=blob failed"

# The listing: the fields both print, the same values.
llvm-objdump-23 --offloading w.o >objdump.txt ||
	fail "llvm-objdump-23 --offloading w.o failed"
"$DUMP" w.o >dump.txt || fail "devimg-dump w.o failed"
fields='^(OFFLOADING IMAGE|kind|arch|triple|producer|image size) '
grep -E "$fields" objdump.txt >want || true
grep -E "$fields" dump.txt >got || true
[ "$(grep -c '^OFFLOADING IMAGE' want)" = 2 ] ||
	fail "llvm-objdump-23 does not list two images: $(cat objdump.txt)"
diff -u want got || fail "devimg-dump and llvm-objdump-23 disagree on w.o"
grep -Eq '^kind +spir-v$' want && grep -Eq '^kind +ptx$' want &&
	grep -Eq '^arch +sm_80$' want &&
	grep -Eq '^producer +sycl$' want ||
	fail "llvm-objdump-23 reads other kinds: $(cat objdump.txt)"

# Extraction, one image per filter.
mkdir up
(cd up && llvm-offload-binary-23 ../w.o \
	--image=file=a.out,triple=spirv64-unknown-unknown,kind=sycl \
	--image=file=k.out,triple=nvptx64-nvidia-cuda,kind=sycl) ||
	fail "llvm-offload-binary-23 cannot extract from w.o"
cmp a.spv up/a.out && cmp k.ptx up/k.out ||
	fail "llvm-offload-binary-23 extracts other bytes"
echo "llvm-objdump-23 and llvm-offload-binary-23 read devimg-wrap -form=blob"
