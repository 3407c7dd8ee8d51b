#!/bin/sh
# devimg-dump lists an OffloadBinary entry as llvm-objdump-23 --offloading
# does (its names of image kinds, spir-v included, and the image size),
# then the names of its "symbols" string whichever of LLVM's three forms
# it has (a binary table, names joined by '\n', names joined by NUL), in
# text and in JSON; a string that claims to be a table and is not a
# consistent one is that entry's error, shown with it, the other entries
# unharmed, exit status 1, the JSON document complete.
. "$top_srcdir/tests/lib.sh"

dump=$top_builddir/devimg-dump
mk=$top_builddir/tests/dump/mk-sycl-blob
[ -x "$dump" ] || skip build "devimg-dump is not built"
[ -x "$mk" ] || skip build "mk-sycl-blob is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
cd "$scratch"

printf '\003\002\043\007spirv 0' >img0.spv
printf 'BC\300\336bitcode 1' >img1.bc
printf '\177ELFobject' >img2.o

"$mk" 2 v2.bin \
	spv sycl spirv64-unknown-unknown table:_ZTS4Fill,_ZTS5Other img0.spv \
	bc sycl spir64 lines:k_lines1,k_lines2 img1.bc \
	o openmp x86_64-unknown-linux-gnu nul:k_nul img2.o \
	spv sycl spirv64 - img0.spv || fail "mk-sycl-blob v2.bin"
"$mk" 1 v1.bin 0 sycl spirv64 lines:one img0.spv || fail "mk-sycl-blob v1.bin"

"$dump" v2.bin >text || fail "devimg-dump v2.bin failed"
# (an empty arch is the label and its padding: written as EMPTY here)
sed 's/EMPTY$//' >want <<'TEXT'
v2.bin: no device images

OFFLOADING IMAGE [0]:
kind            spir-v
arch            EMPTY
triple          spirv64-unknown-unknown
producer        sycl
image size      11 bytes
symbols         _ZTS4Fill
                _ZTS5Other

OFFLOADING IMAGE [1]:
kind            llvm ir
arch            EMPTY
triple          spir64
producer        sycl
image size      13 bytes
symbols         k_lines1
                k_lines2

OFFLOADING IMAGE [2]:
kind            elf
arch            EMPTY
triple          x86_64-unknown-linux-gnu
producer        openmp
image size      10 bytes
symbols         k_nul

OFFLOADING IMAGE [3]:
kind            spir-v
arch            EMPTY
triple          spirv64
producer        sycl
image size      11 bytes
TEXT
cmp -s want text || fail "v2.bin text: $(diff want text)"

"$dump" v1.bin >text || fail "devimg-dump v1.bin failed"
[ "$(sed -n 's/^\(kind\|image size\|symbols\) *//p' text | tr '\n' '|')" = \
  '<none>|11 bytes|one|' ] || fail "v1.bin: $(cat text)"

"$dump" --json v2.bin >v2.json &&
	one_file_json v2.json || fail "devimg-dump --json v2.bin failed"
[ "$(jq -c '[.offloading[] | [.index, .kind, .size, .symbols, .symbols_form, has("symbols_error")]]' v2.json)" = \
  '[[0,"spir-v",11,["_ZTS4Fill","_ZTS5Other"],"table",false],[1,"llvm ir",13,["k_lines1","k_lines2"],"lines",false],[2,"elf",10,["k_nul"],"nul",false],[3,"spir-v",11,null,null,false]]' ] ||
	fail "v2.bin JSON: $(jq -c .offloading v2.json)"
[ "$(jq '.offloading[3] | has("symbols")' v2.json)" = false ] ||
	fail "an entry without a symbols string has the key"
# the string itself is still among the entry's strings
[ "$(jq -r '.offloading[1].strings.symbols' v2.json)" = "$(printf 'k_lines1\nk_lines2')" ] ||
	fail "v2.bin strings: $(jq -c '.offloading[1].strings' v2.json)"

# An inconsistent table: entry 1's error; entries 0 and 2 unharmed.
"$mk" 2 bad.bin spv sycl spirv64 table:good img0.spv \
	spv sycl spirv64 badtable img0.spv \
	spv sycl spirv64 nul:after img0.spv || fail "mk-sycl-blob bad.bin"
rc=0
"$dump" bad.bin >text 2>err || rc=$?
[ $rc -eq 1 ] || fail "bad.bin: exit status $rc"
[ "$(wc -l <err)" -eq 1 ] &&
	grep -q '^devimg-dump: bad.bin: OFFLOADING IMAGE \[1\]: "symbols" table: count 3 ' err ||
	fail "bad.bin: stderr: $(cat err)"
[ "$(grep -c '^OFFLOADING IMAGE' text)" -eq 3 ] || fail "bad.bin: $(cat text)"
grep -q '^symbols         good$' text && grep -q '^symbols         after$' text ||
	fail "bad.bin: $(cat text)"
grep -q '^symbols         cannot decode: bad.bin: OFFLOADING IMAGE \[1\]: "symbols" table: count 3 ' text ||
	fail "bad.bin: $(cat text)"
rc=0
"$dump" --json bad.bin >bad.json 2>/dev/null || rc=$?
[ $rc -eq 1 ] || fail "bad.bin --json: exit status $rc"
one_file_json bad.json
[ "$(jq -c '[.offloading[] | [.symbols, (.symbols_error | type)]]' bad.json)" = \
  '[[["good"],"null"],[null,"string"],[["after"],"null"]]' ] ||
	fail "bad.bin JSON: $(cat bad.json)"
# with other files: one document, every file in it, exit status 1
rc=0
"$dump" --json v1.bin bad.bin >two.json 2>/dev/null || rc=$?
[ $rc -eq 1 ] || fail "two files: exit status $rc"
[ "$(jq -r '[.files[].file] | join(" ")' two.json)" = "v1.bin bad.bin" ] ||
	fail "two files: $(cat two.json)"
exit 0
