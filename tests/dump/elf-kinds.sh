#!/bin/sh
# devimg-dump reads the same images from a relocatable object, a non-PIE
# executable, a PIE, a stripped PIE, a shared library and an "ld -r" merge;
# blobs of several objects are all found and indices continue in link order.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

for tool in strip ld; do
	command -v $tool >/dev/null 2>&1 || skip tools "$tool not found"
done
expected=$top_srcdir/tests/dump/fixture-ab.json
fixture_obj a
fixture_obj b
fixture_main
cd "$scratch"

$CC -no-pie main.c a.o b.o -o exe 2>link.err ||
	fail "cannot link a non-PIE executable (the objects are this test's own): $(cat link.err)"
$CC -fPIE -pie main.c a.o b.o -o pie 2>link.err ||
	fail "cannot link a PIE (the objects are this test's own): $(cat link.err)"
strip --strip-all -o stripped pie || fail "strip failed"
$CC -shared a.o b.o -o lib.so || fail "cannot link a shared library"
ld -r a.o b.o -o ab.o || fail "ld -r failed"

# json FILE: the dump without the file name, keys sorted.
json() {
	"$dump" --json "$1" >"$1.json" &&
	one_file_json "$1.json" || fail "devimg-dump --json $1 failed"
	jq -S 'del(.file)' "$1.json"
}

jq -S . "$expected" >want.json
for f in exe pie stripped lib.so ab.o; do
	json $f >got.json
	cmp -s want.json got.json ||
		fail "$f: dump differs: $(diff want.json got.json | head -20)"
	[ "$(jq -r .file $f.json)" = $f ] || fail "$f: wrong file key"
done

# Images that no section header maps are found through PT_LOAD: clear
# SHF_ALLOC of the image sections of a copy of the executable.
cp exe noshdr
for i in $(readelf -SW exe |
	sed -n 's/^ *\[ *\([0-9]*\)\] __CLANG_OFFLOAD_BUNDLE__.*/\1/p'); do
	patch noshdr $(($(shdr_off exe "$i") + 8)) 00
done
json noshdr >got.json
cmp -s want.json got.json || fail "noshdr: $(diff want.json got.json | head)"

# Each object alone: its own images, numbered from 0.
jq -S '.images |= .[0:2]' "$expected" >want-a.json
json a.o >got.json
cmp -s want-a.json got.json || fail "a.o: $(diff want-a.json got.json | head)"
jq -S '.images |= (.[2:4] | map(.index -= 2))' "$expected" >want-b.json
json b.o >got.json
cmp -s want-b.json got.json || fail "b.o: $(diff want-b.json got.json | head)"

# Several files: one document {"files": [...]}, in order.
"$dump" --json a.o exe >two.json || fail "two files failed"
[ "$(jq -r '[.files[].file] | join(" ")' two.json)" = "a.o exe" ] ||
	fail "files array: $(cat two.json)"
[ "$(jq '.files[1].images | length' two.json)" = 4 ] || fail "exe images"

# The plain text view of the same facts.
"$dump" exe >text || fail "text dump failed"
for line in \
	'exe: 4 device images' \
	'image 3:' \
	'  kind:            9' \
	'  target:          "spir64"' \
	'  compile options: "-O2 -g"' \
	'  manifest:        "manifest line 1\nline 2"' \
	'  size:            30 bytes at file offset 0x' \
	'    ptx_kernel' \
	'    [SYCL/specialization constants]' \
	'      9d329ad59055e972____ZL12StructSpecId = {id 0, offset 0, size 8}' \
	'      9d329ad59055e972____ZL9CompositeId = {id 2, offset 0, size 4}, {pad, offset 4, size 4}, {id 3, offset 8, size 8}' \
	'      all = 1400000063000000 01 (72 bits)' \
	'      optLevel = 2' \
	'      note = "say \"hi\"\tand\\ leave"' \
	'      unknown_type = (type 0, size 12)' \
	'    [Empty]'; do
	grep -qF -- "$line" text || fail "text lacks '$line'"
done

# A binary without images is no error.
$CC main.c -o plain || fail "cannot link"
out=$("$dump" plain) || fail "plain: non-zero exit"
[ "$out" = "plain: no device images" ] || fail "plain: '$out'"
[ "$("$dump" --json plain | jq -c .files[0].images)" = "[]" ] || fail "plain: json"
exit 0
