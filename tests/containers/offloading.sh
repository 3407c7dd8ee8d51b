#!/bin/sh
# devimg-dump lists OffloadBinary files and the .llvm.offloading sections
# of ELF objects as llvm-objdump --offloading does, LLVM 23's "image size"
# line included (checked against it when the clang's llvm-objdump is
# there; an older one prints no such line), shows their strings in JSON and
# extracts their images byte for byte, compressed (zstd, zlib) or not;
# malformed blobs are one-line errors.
. "$top_srcdir/tests/lib.sh"
dump=$top_builddir/devimg-dump
mk=$top_builddir/tests/containers/mk-offload
[ -x "$dump" ] || skip build "devimg-dump is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
cd "$scratch"

printf '// ptx\n.version 7.0\n' >a.ptx
printf '\177ELFcubin' >b.cubin
printf '\003\002\043\007spirv' >c.spv
"$mk" 1 one.bin s cuda nvptx64-nvidia-cuda sm_70 a.ptx || fail "mk-offload"
"$mk" 1 two.bin cubin openmp nvptx64-nvidia-cuda sm_80 b.cubin ||
	fail "mk-offload"
"$mk" 3 multi.bin spv sycl spir64-unknown-unknown - c.spv \
	fatbin hip amdgcn-amd-amdhsa gfx90a b.cubin || fail "mk-offload"

# A bare OffloadBinary file, several entries (version 3).
"$dump" multi.bin >text || fail "dump multi.bin failed"
# (an empty arch is the label and its padding: written as EMPTY here)
sed 's/EMPTY$//' >want <<'TEXT'
multi.bin: no device images

OFFLOADING IMAGE [0]:
kind            spir-v
arch            EMPTY
triple          spir64-unknown-unknown
producer        sycl
image size      9 bytes

OFFLOADING IMAGE [1]:
kind            fatbinary
arch            gfx90a
triple          amdgcn-amd-amdhsa
producer        hip
image size      9 bytes
TEXT
cmp -s want text || fail "multi.bin text: $(diff want text)"

"$dump" --json multi.bin >m.json &&
	one_file_json m.json || fail "--json multi.bin failed"
[ "$(jq -c '.offloading | map([.index, .kind, .image_kind, .producer, .offload_kind, .size, .strings])' m.json)" = \
  '[[0,"spir-v",6,"sycl",8,9,{"triple":"spir64-unknown-unknown"}],[1,"fatbinary",4,"hip",4,9,{"triple":"amdgcn-amd-amdhsa","arch":"gfx90a"}]]' ] ||
	fail "multi.bin JSON: $(jq -c .offloading m.json)"

mkdir x
"$dump" --extract x multi.bin >list || fail "--extract multi.bin failed"
cmp c.spv x/multi.bin.offload.0.spir64-unknown-unknown.spv ||
	fail "entry 0 bytes differ: $(cat list)"
cmp b.cubin x/multi.bin.offload.1.amdgcn-amd-amdhsa-gfx90a.bin ||
	fail "entry 1 bytes differ: $(cat list)"

# Compressed as LLVM's writer compresses (version 3, zstd or zlib): the
# same listing, the same bytes out; a corrupt body is a one-line error.
for z in z Z; do
	rc=0
	"$mk" 3$z multi$z.bin spv sycl spir64-unknown-unknown - c.spv \
		fatbin hip amdgcn-amd-amdhsa gfx90a b.cubin >why || rc=$?
	[ $rc -ne 77 ] || skip tools "mk-offload cannot compress with $z: $(cat why)"
	[ $rc -eq 0 ] || fail "mk-offload 3$z"
	[ "$(od -An -tu8 -j32 -N8 multi$z.bin | tr -d ' ')" -gt 0 ] ||
		fail "multi$z.bin has no InflatedSize"
	"$dump" --json multi$z.bin | jq -c .files[0].offloading >z.json ||
		fail "dump multi$z.bin failed"
	[ "$(cat z.json)" = "$(jq -c .offloading m.json)" ] ||
		fail "multi$z.bin reads otherwise: $(cat z.json)"
	rm -rf x && mkdir x
	"$dump" -x x multi$z.bin >/dev/null || fail "--extract multi$z.bin"
	cmp b.cubin x/multi$z.bin.offload.1.amdgcn-amd-amdhsa-gfx90a.bin ||
		fail "multi$z.bin: entry 1 bytes differ"
	# the body's first bytes (the zstd magic, the zlib header) changed
	cp multi$z.bin bad$z.bin
	printf '\125\125\125\125' |
		dd of=bad$z.bin bs=1 seek=40 conv=notrunc 2>/dev/null
	expect_fail "bad$z.bin: compressed OffloadBinary (InflatedSize [0-9]*): .*z" \
		"$dump" bad$z.bin
done

# Two blobs embedded in one object's .llvm.offloading section, as clang
# (-fembed-offload-object, clang 15 and later) puts them there.
[ "${CLANG:-no}" != no ] || skip clang "no clang to embed offloading sections"
printf 'int main(void) { return 0; }\n' >m.c
"$CLANG" -c m.c -o m.o -Xclang -fembed-offload-object=one.bin \
	-Xclang -fembed-offload-object=two.bin 2>err ||
	skip clang "$CLANG cannot embed offload objects: $(head -n1 err)"
"$dump" m.o >text || fail "dump m.o failed"
cat >want <<'TEXT'
m.o: no device images

OFFLOADING IMAGE [0]:
kind            ptx
arch            sm_70
triple          nvptx64-nvidia-cuda
producer        cuda
image size      20 bytes

OFFLOADING IMAGE [1]:
kind            cubin
arch            sm_80
triple          nvptx64-nvidia-cuda
producer        openmp
image size      9 bytes
TEXT
cmp -s want text || fail "m.o text: $(diff want text)"

objdump=$(dirname "$(readlink -f "$(command -v "$CLANG")")")/llvm-objdump
[ -x "$objdump" ] ||
	skip tools "no llvm-objdump beside $CLANG (Debian: the llvm package of its release)"
"$objdump" --offloading m.o >theirs.all || fail "$objdump --offloading m.o failed"
sed -n '/^OFFLOADING/,$p' theirs.all >theirs
sed -n '/^OFFLOADING/,$p' text >ours
grep -q '^image size' theirs || sed -i '/^image size/d' ours
cmp -s theirs ours || fail "llvm-objdump says otherwise: $(diff theirs ours)"

rm -rf x && mkdir x
"$dump" -x x m.o >/dev/null || fail "--extract m.o failed"
cmp a.ptx x/m.o.offload.0.nvptx64-nvidia-cuda-sm_70.ptx || fail "ptx differs"
cmp b.cubin x/m.o.offload.1.nvptx64-nvidia-cuda-sm_80.bin ||
	fail "cubin differs"

# Malformed: a truncated blob file, a section whose blob lies about its size.
head -c 40 multi.bin >short.bin
expect_fail "short.bin: OffloadBinary Size" "$dump" short.bin
cp one.bin bad.bin
printf '\377\377' | dd of=bad.bin bs=1 seek=96 conv=notrunc 2>/dev/null
"$CLANG" -c m.c -o bad.o -Xclang -fembed-offload-object=bad.bin ||
	fail "cannot embed bad.bin"
expect_fail "bad.o: section [0-9]*: OffloadBinary entry 0" "$dump" bad.o
[ ! -s "$scratch/out" ] || fail "partial output for bad.o"
exit 0
