#!/bin/sh
# devimg-dump finds binary descriptors that no .devimg index describes by
# their structure, and lists their images as libdevimg registers them:
# LLVM 22's layout (tests/dump/desc-llvm.c) in a relocatable object, a
# PIE, a non-PIE executable, a shared library, a stripped PIE and a PIE
# with packed relative relocations (DT_RELR), and
# DPC++'s (tests/dump/desc-dpcpp.c, images of versions 1, 2 and 3, a
# manifest, property sets); --extract writes their bytes. Descriptors
# that break the rule (a pointer past the file, a count over the limit,
# an unknown image kind) are not listed and are no error; a structure
# repeated past the check budget is a one-line error. The same files
# built for aarch64 are tests/dump/descriptors-aarch64.sh's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

command -v strip >/dev/null 2>&1 || skip tools "strip not found"
fixture_main
cd "$scratch"
# -z pack-relative-relocs: GNU ld packs relative relocations (DT_RELR) for
# x86-64 since binutils 2.38 (for aarch64 since 2.41; lld since 15), which
# every platform of deps/ has on x86-64. An ld that packs nothing even for
# main.c alone lacks the feature (skip tools: a tool, not devimg); the
# link of the descriptor object below then fails only for devimg's sake.
if ! $CC -fPIE -pie -Wl,-z,pack-relative-relocs main.c -o relr-probe \
	>relr.err 2>&1 || [ -z "$(section_hex relr-probe .relr.dyn addr)" ]; then
	skip tools "the linker does not pack relative relocations (-z pack-relative-relocs: GNU ld 2.38, 2.41 for aarch64): $(cat relr.err)"
fi

# The bytes desc-llvm.c and desc-dpcpp.c lay out.
printf '\003\002\043\007spirv image 0' >llvm0.ref
printf 'BC\300\336bitcode image 1' >llvm1.ref
printf '\003\002\043\007dpcpp spirv' >dpcpp0.ref
printf '// ptx\n.version 7.0\n' >dpcpp1.ref
printf 'BC\300\336dpcpp bitcode' >dpcpp2.ref

# build NAME SOURCE FLAGS...: NAME.o (PIC) and the programs made of it.
build() {
	n=$1
	src=$top_srcdir/tests/dump/$2
	shift 2
	$CC -fPIC "$@" -c "$src" -o "$n.o" || fail "cannot compile $src"
	$CC -fPIE -pie main.c "$n.o" -o "$n-pie" || fail "cannot link a PIE of $src"
	$CC -no-pie main.c "$n.o" -o "$n-exe" ||
		fail "cannot link a non-PIE executable of $src"
	$CC -shared "$n.o" -o "$n.so" || fail "cannot link a shared library"
	strip --strip-all -o "$n-stripped" "$n-pie" || fail "strip failed"
}

# shown FILE: the text listing without what the link decides (where the
# descriptor and the bytes lie).
shown() {
	"$dump" "$1" >"$1.txt" || fail "devimg-dump $1 failed"
	sed -e 's/^\(  found: *descriptor\) in section .*/\1/' \
		-e 's/^\(  size: *[0-9]* bytes\) at file offset 0x[0-9a-f]*$/\1/' \
		"$1.txt"
}

# json FILE: the JSON listing, keys sorted, without the same.
json() {
	"$dump" --json "$1" >"$1.json" &&
	one_file_json "$1.json" || fail "devimg-dump --json $1 failed"
	jq -S 'del(.file) | .images[] |= del(.found_section, .found_offset)' \
		"$1.json"
}

# ---- LLVM 22's layout ----

build llvm desc-llvm.c
# What devimg-dump lists of desc-llvm.c's descriptor (F: the file).
cp "$top_srcdir/tests/dump/desc-llvm.txt" want-llvm.txt
cat >want-llvm.json <<'JSON'
{"images": [
 {"index": 0, "found": "descriptor", "version": 3, "kind": "sycl",
  "format": "none", "target": "spirv64-unknown-unknown",
  "compile_options": "", "link_options": "", "manifest": null, "size": 17,
  "entries": ["_ZTS4Fill", "_ZTS5Other"], "property_sets": []},
 {"index": 1, "found": "descriptor", "version": 3, "kind": "sycl",
  "format": "llvmbc", "target": "spir64", "compile_options": "",
  "link_options": "", "manifest": null, "size": 19,
  "entries": ["_ZTS4Last"], "property_sets": []}]}
JSON
jq -S . want-llvm.json >want.json
for f in llvm.o llvm-pie llvm-exe llvm.so llvm-stripped; do
	sed "1s/^F:/$f:/" want-llvm.txt >want.txt
	shown $f >got.txt
	cmp -s want.txt got.txt || fail "$f text: $(diff want.txt got.txt)"
	json $f >got.json
	cmp -s want.json got.json || fail "$f JSON: $(diff want.json got.json)"
	rm -rf x && mkdir x
	"$dump" --extract x $f >names || fail "--extract $f failed"
	printf 'x/%s.0.spirv64-unknown-unknown.spv\nx/%s.1.spir64.bc\n' \
		$f $f | cmp -s - names || fail "$f: written $(cat names)"
	cmp llvm0.ref x/$f.0.spirv64-unknown-unknown.spv ||
		fail "$f: image 0 bytes differ"
	cmp llvm1.ref x/$f.1.spir64.bc || fail "$f: image 1 bytes differ"
done

# Packed relative relocations (DT_RELR) leave the values in place.
$CC -fPIE -pie -Wl,-z,pack-relative-relocs main.c llvm.o -o llvm-relr ||
	fail "cannot link a PIE of desc-llvm.c with -z pack-relative-relocs"
[ -n "$(section_hex llvm-relr .relr.dyn addr)" ] ||
	fail "llvm-relr has no .relr.dyn: $(readelf -SW llvm-relr)"
sed "1s/^F:/llvm-relr:/" want-llvm.txt >want.txt
shown llvm-relr >got.txt
cmp -s want.txt got.txt || fail "llvm-relr text: $(diff want.txt got.txt)"

# Where it was found: the descriptor's section and offset.
off=$(symbol_value llvm-pie descriptor)
sec=$(jq -r '.images[0].found_section' llvm-pie.json)
addr=$(section_hex llvm-pie "$sec" addr)
[ "$(jq '.images[0].found_offset' llvm-pie.json)" = $((off - 0x$addr)) ] ||
	fail "llvm-pie: found_offset $(jq '.images[0].found_offset' llvm-pie.json), descriptor at $off in $sec at 0x$addr"
grep -q "^  found:           descriptor in section \"$sec\" at offset 0x" \
	llvm-pie.txt || fail "llvm-pie: found line: $(grep found: llvm-pie.txt)"

# ---- DPC++'s layout, no .devimg index ----

build dpcpp desc-dpcpp.c
cat >want-dpcpp.txt <<'TEXT'
F: 3 device images
image 0:
  found:           descriptor
  kind:            sycl
  format:          spirv
  version:         2
  target:          "spir64"
  compile options: "-O2"
  link options:    ""
  manifest:        "manifest line"
  size:            15 bytes
  entries:         2
    kernel_a
    kernel_b
  property sets:   2
    [SYCL/specialization constants]
      9d329ad59055e972____ZL6SpecId = {id 7, offset 0, size 4}
    [SYCL/misc properties]
      optLevel = 2
      note = "hi"
image 1:
  found:           descriptor
  kind:            sycl
  format:          native
  version:         1
  target:          "nvptx64"
  compile options: ""
  link options:    ""
  manifest:        none
  size:            20 bytes
  entries:         0
  property sets:   0
image 2:
  found:           descriptor
  kind:            sycl
  format:          llvmbc
  version:         3
  target:          "spir64_x86_64"
  compile options: ""
  link options:    ""
  manifest:        none
  size:            17 bytes
  entries:         1
    kernel_c
  property sets:   0
TEXT
for f in dpcpp.o dpcpp-pie dpcpp-exe dpcpp.so dpcpp-stripped; do
	sed "1s/^F:/$f:/" want-dpcpp.txt >want.txt
	shown $f >got.txt
	cmp -s want.txt got.txt || fail "$f text: $(diff want.txt got.txt)"
	json $f >got.json
	[ "$(jq -c '[.images[] | [.index, .found, .version, .kind, .format, .target, .manifest, .size, .entries]]' got.json)" = \
	  '[[0,"descriptor",2,"sycl","spirv","spir64","manifest line",15,["kernel_a","kernel_b"]],[1,"descriptor",1,"sycl","native","nvptx64",null,20,[]],[2,"descriptor",3,"sycl","llvmbc","spir64_x86_64",null,17,["kernel_c"]]]' ] ||
		fail "$f JSON: $(jq -c . got.json)"
	[ "$(jq -c '.images[0].property_sets | map([.name, (.properties | map([.name, .type, .value, .descriptors]))])' got.json)" = \
	  '[["SYCL/specialization constants",[["9d329ad59055e972____ZL6SpecId","byte_array","070000000000000004000000",[{"id":7,"offset":0,"size":4}]]]],["SYCL/misc properties",[["optLevel","uint32",2,null],["note","string","hi",null]]]]' ] ||
		fail "$f property sets: $(jq -c '.images[0].property_sets' got.json)"
	rm -rf x && mkdir x
	"$dump" --extract x $f >names || fail "--extract $f failed"
	printf 'x/%s.0.spir64.spv\nx/%s.1.nvptx64.ptx\nx/%s.2.spir64_x86_64.bc\n' \
		$f $f $f | cmp -s - names || fail "$f: written $(cat names)"
	cmp dpcpp0.ref x/$f.0.spir64.spv || fail "$f: image 0 bytes differ"
	cmp dpcpp1.ref x/$f.1.nvptx64.ptx || fail "$f: image 1 bytes differ"
	cmp dpcpp2.ref x/$f.2.spir64_x86_64.bc || fail "$f: image 2 bytes differ"
done
# Two descriptors: two places.
[ "$(jq -c '[.images[].found_offset] | unique | length' dpcpp-pie.json)" = 2 ] ||
	fail "dpcpp-pie: $(jq -c '[.images[].found_offset]' dpcpp-pie.json)"

# ---- descriptors that break the rule: not listed, no error ----

# no_images FILE: devimg-dump lists nothing, exit status 0.
no_images() {
	out=$("$dump" "$1" 2>err) || fail "$1: exit status $?: $(cat err)"
	[ "$out" = "$1: no device images" ] || fail "$1: $out"
	[ ! -s err ] || fail "$1: stderr: $(cat err)"
}

for v in BIN COUNT KIND; do
	$CC -fPIC -DDESC_BAD_$v -c "$top_srcdir/tests/dump/desc-llvm.c" \
		-o bad-$v.o || fail "cannot compile DESC_BAD_$v"
	$CC -fPIE -pie main.c bad-$v.o -o bad-$v-pie || fail "cannot link"
	$CC -no-pie main.c bad-$v.o -o bad-$v-exe || fail "cannot link"
	no_images bad-$v.o
	no_images bad-$v-pie
	no_images bad-$v-exe
done

# Patched in place (a non-PIE executable holds its pointers there).
sec=$(jq -r '.images[0].found_section' llvm-exe.json)
desc=$(($(section_off llvm-exe "$sec") + $(jq '.images[0].found_offset' llvm-exe.json)))
# the images pointer past the file, then past any section
cp llvm-exe p1 && patch p1 $((desc + 8)) $(le64 $((0x7fff00000000)))
no_images p1
cp llvm-exe p2 && patch p2 $((desc + 8)) $(le64 $(($(wc -c <llvm-exe) - 8)))
no_images p2
# a count over the limit, and one over the images that are there
cp llvm-exe p3 && patch p3 $((desc + 2)) e9 fd
no_images p3
cp llvm-exe p4 && patch p4 $((desc + 2)) 03 00
no_images p4
# version 2 and host entries are not a descriptor's
cp llvm-exe p5 && patch p5 $desc 02 00
no_images p5
cp llvm-exe p6 && patch p6 $((desc + 16)) $(le64 $((desc)))
no_images p6
# image 0's target pointer to an address no section holds
addr=$(od -An -tu8 -j$((desc + 8)) -N8 llvm-exe | tr -d ' ')
img=$((addr - 0x$(section_hex llvm-exe "$sec" addr) + $(section_off llvm-exe "$sec")))
cp llvm-exe p7 && patch p7 $((img + 8)) $(le64 16)
no_images p7

# Truncated copies: read or refused, never a crash.
size=$(wc -c <llvm-pie)
for n in 64 1024 4096 8192 $((size / 2)) $((size - 1)); do
	head -c "$n" llvm-pie >cut.bin
	rc=0
	"$dump" cut.bin >/dev/null 2>&1 || rc=$?
	[ $rc -le 1 ] || fail "cut at $n: exit status $rc"
done

# ---- a structure repeated past the check budget ----

cat >repeat.c <<'C'
#include <stddef.h>
struct entry { void *addr; const char *name; size_t size; int flags, reserved; };
struct image { unsigned short version; unsigned char kind, format;
	const char *target, *copts, *lopts, *mb, *me;
	const unsigned char *bb, *be; const struct entry *eb, *ee;
	const void *pb, *pe; };
struct binaries { unsigned short version, count; const struct image *images;
	const void *hb, *he; };
static const unsigned char bytes[] = "bytes";
static const struct entry ents[4096] = { [0 ... 4095] = { NULL, "k", 0, 0, 0 } };
static const struct image img = { 2, 4, 1, "t", "", "", NULL, NULL, bytes,
	bytes + 5, ents, ents + 4096, NULL, NULL };
__attribute__((used)) static const struct binaries descs[2000] = {
	[0 ... 1999] = { 1, 1, &img, NULL, NULL } };
C
$CC -fPIC -c repeat.c -o repeat.o || fail "cannot compile repeat.c"
expect_fail "repeat.o: descriptor search: section \[[0-9]*\] '[^']*' offset 0x[0-9a-f]*: more than [0-9]* checks" \
	"$dump" repeat.o
[ ! -s "$scratch/out" ] || fail "repeat.o: output: $(cat "$scratch/out")"
exit 0
