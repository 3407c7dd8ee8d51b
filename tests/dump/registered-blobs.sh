#!/bin/sh
# OffloadBinary blobs in an allocated .llvm.offloading section are what a
# constructor hands to __sycl_register_lib() (LLVM 23's wrappers):
# devimg-dump lists their SYCL entries that are not metadata among the
# file's images as libdevimg registers them (version 3, format of the
# image kind, target the triple, entries the decoded "symbols" in each of
# LLVM's three forms), in an object and in a PIE, and --extract writes
# them; the OFFLOADING IMAGE blocks show LLVM 23's names, the image size
# and the symbols. A section with SHF_EXCLUDE (clang -fsycl -c) registers
# nothing; an allocated one of raw bytes is no error; an inconsistent
# symbols table is an error of that entry alone; a blob that libdevimg
# refuses as a whole lists no image; a zstd-compressed blob registers the
# images of its inflated copy (tests/containers/mk-offload writes it).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

mk=$top_builddir/tests/dump/mk-sycl-blob
[ -x "$mk" ] || skip build "mk-sycl-blob is not built"
mko=$top_builddir/tests/containers/mk-offload
[ -x "$mko" ] || skip build "tests/containers/mk-offload is not built"
fixture_main
cd "$scratch"

printf '\003\002\043\007spirv 0' >img0.spv
printf 'BC\300\336bitcode 1' >img1.bc
printf '\003\002\043\007spirv 2 longer' >img2.spv
printf '// ptx\n.version 7.0\n' >a.ptx

"$mk" 2 a.bin \
	spv sycl spirv64-unknown-unknown table:_ZTS4Fill,_ZTS5Other img0.spv \
	bc sycl spir64 lines:k_lines1,k_lines2 img1.bc \
	spv sycl spirv64 nul:k_nul img2.spv \
	s cuda nvptx64-nvidia-cuda - a.ptx \
	spv sycl+meta spirv64 - img2.spv || fail "mk-sycl-blob a.bin"
"$mk" 1 b.bin 0 sycl spir64 lines:one,two img0.spv ||
	fail "mk-sycl-blob b.bin"
boff=$(( ($(wc -c <a.bin) + 7) / 8 * 8 ))

# section NAME FLAGS BLOB...: NAME.o with the blobs in one
# SHT_LLVM_OFFLOADING section .llvm.offloading of those flags.
section() {
	n=$1
	fl=$2
	shift 2
	printf '.section .note.GNU-stack,"",@progbits\n' >"$n.s"
	echo ".section .llvm.offloading,\"$fl\",@0x6fff4c0b" >>"$n.s"
	for b in "$@"; do
		printf '.balign 8\n.incbin "%s"\n' "$scratch/$b" >>"$n.s"
	done
	$CC -c "$n.s" -o "$n.o" || fail "cannot assemble $n.s"
}

# shown FILE: the text listing, without the file offsets of the bytes.
shown() {
	"$dump" "$1" >"$1.txt" || fail "devimg-dump $1 failed"
	sed 's/^\(  size: *[0-9]* bytes\) at file offset 0x[0-9a-f]*$/\1/' \
		"$1.txt"
}

section reg a "a.bin" "b.bin"
$CC -fPIE -pie main.c reg.o -o reg-pie ||
	fail "cannot link a PIE of the descriptor object"

cat >want-reg.txt <<TEXT
F: 4 device images
image 0:
  found:           offload-binary in section ".llvm.offloading" at offset 0x0
  kind:            sycl
  format:          spirv
  version:         3
  target:          "spirv64-unknown-unknown"
  compile options: ""
  link options:    ""
  manifest:        none
  size:            11 bytes
  entries:         2
    _ZTS4Fill
    _ZTS5Other
  property sets:   0
image 1:
  found:           offload-binary in section ".llvm.offloading" at offset 0x0
  kind:            sycl
  format:          llvmbc
  version:         3
  target:          "spir64"
  compile options: ""
  link options:    ""
  manifest:        none
  size:            13 bytes
  entries:         2
    k_lines1
    k_lines2
  property sets:   0
image 2:
  found:           offload-binary in section ".llvm.offloading" at offset 0x0
  kind:            sycl
  format:          spirv
  version:         3
  target:          "spirv64"
  compile options: ""
  link options:    ""
  manifest:        none
  size:            18 bytes
  entries:         1
    k_nul
  property sets:   0
image 3:
  found:           offload-binary in section ".llvm.offloading" at offset $(printf '0x%x' $boff)
  kind:            sycl
  format:          none
  version:         3
  target:          "spir64"
  compile options: ""
  link options:    ""
  manifest:        none
  size:            11 bytes
  entries:         2
    one
    two
  property sets:   0

OFFLOADING IMAGE [0]:
kind            spir-v
arch            
triple          spirv64-unknown-unknown
producer        sycl
image size      11 bytes
symbols         _ZTS4Fill
                _ZTS5Other

OFFLOADING IMAGE [1]:
kind            llvm ir
arch            
triple          spir64
producer        sycl
image size      13 bytes
symbols         k_lines1
                k_lines2

OFFLOADING IMAGE [2]:
kind            spir-v
arch            
triple          spirv64
producer        sycl
image size      18 bytes
symbols         k_nul

OFFLOADING IMAGE [3]:
kind            ptx
arch            
triple          nvptx64-nvidia-cuda
producer        cuda
image size      20 bytes

OFFLOADING IMAGE [4]:
kind            spir-v
arch            
triple          spirv64
producer        sycl
image size      18 bytes

OFFLOADING IMAGE [5]:
kind            <none>
arch            
triple          spir64
producer        sycl
image size      11 bytes
symbols         one
                two
TEXT
for f in reg.o reg-pie; do
	sed "1s/^F:/$f:/" want-reg.txt >want.txt
	shown $f >got.txt
	cmp -s want.txt got.txt || fail "$f text: $(diff want.txt got.txt)"
	"$dump" --json $f >$f.json &&
	one_file_json $f.json || fail "devimg-dump --json $f failed"
	[ "$(jq -c '[.images[] | [.index, .found, .found_section, .found_offset, .version, .kind, .format, .target, .size, .entries, .property_sets]]' $f.json)" = \
	  "[[0,\"offload-binary\",\".llvm.offloading\",0,3,\"sycl\",\"spirv\",\"spirv64-unknown-unknown\",11,[\"_ZTS4Fill\",\"_ZTS5Other\"],[]],[1,\"offload-binary\",\".llvm.offloading\",0,3,\"sycl\",\"llvmbc\",\"spir64\",13,[\"k_lines1\",\"k_lines2\"],[]],[2,\"offload-binary\",\".llvm.offloading\",0,3,\"sycl\",\"spirv\",\"spirv64\",18,[\"k_nul\"],[]],[3,\"offload-binary\",\".llvm.offloading\",$boff,3,\"sycl\",\"none\",\"spir64\",11,[\"one\",\"two\"],[]]]" ] ||
		fail "$f JSON images: $(jq -c .images $f.json)"
	[ "$(jq -c '[.offloading[] | [.index, .kind, .size, .symbols, .symbols_form]]' $f.json)" = \
	  '[[0,"spir-v",11,["_ZTS4Fill","_ZTS5Other"],"table"],[1,"llvm ir",13,["k_lines1","k_lines2"],"lines"],[2,"spir-v",18,["k_nul"],"nul"],[3,"ptx",20,null,null],[4,"spir-v",18,null,null],[5,"<none>",11,["one","two"],"lines"]]' ] ||
		fail "$f JSON offloading: $(jq -c .offloading $f.json)"
	[ "$(jq '.offloading[3] | has("symbols")' $f.json)" = false ] ||
		fail "$f: an entry without symbols has the key"
	rm -rf x && mkdir x
	"$dump" --extract x $f >names || fail "--extract $f failed"
	cat >want-names <<NAMES
x/$f.0.spirv64-unknown-unknown.spv
x/$f.1.spir64.bc
x/$f.2.spirv64.spv
x/$f.3.spir64.spv
x/$f.offload.0.spirv64-unknown-unknown.spv
x/$f.offload.1.spir64.bc
x/$f.offload.2.spirv64.spv
x/$f.offload.3.nvptx64-nvidia-cuda.ptx
x/$f.offload.4.spirv64.spv
x/$f.offload.5.spir64.spv
NAMES
	cmp -s want-names names || fail "$f: written $(diff want-names names)"
	cmp img0.spv x/$f.0.spirv64-unknown-unknown.spv || fail "$f: image 0"
	cmp img1.bc x/$f.1.spir64.bc || fail "$f: image 1"
	cmp img2.spv x/$f.2.spirv64.spv || fail "$f: image 2"
	cmp img0.spv x/$f.3.spir64.spv || fail "$f: image 3"
done

# SHF_EXCLUDE: a link input (clang -fsycl -c), registered by nothing.
section excl ae "a.bin"
"$dump" excl.o >excl.txt || fail "devimg-dump excl.o failed"
[ "$(head -n 1 excl.txt)" = "excl.o: no device images" ] ||
	fail "excl.o: $(head -n 3 excl.txt)"
grep -q '^OFFLOADING IMAGE \[4\]:$' excl.txt || fail "excl.o: $(cat excl.txt)"
[ "$("$dump" --json excl.o | jq -c .files[0].images)" = "[]" ] || fail "excl.o JSON"

# An allocated section of raw bytes (LLVM 22's images) is no blob and no
# error; a section that is not allocated must hold blobs.
section raw a "img0.spv"
out=$("$dump" raw.o 2>err) || fail "raw.o: $(cat err)"
[ "$out" = "raw.o: no device images" ] && [ ! -s err ] ||
	fail "raw.o: $out $(cat err)"
section rawna "" "img0.spv"
expect_fail "rawna.o: section [0-9]*: at offset 0: not an OffloadBinary" \
	"$dump" rawna.o

# A symbols table that is not a consistent one: that entry's error, the
# others listed, exit status 1, valid JSON.
"$mk" 2 bad.bin spv sycl spirv64 table:good img0.spv \
	spv sycl spirv64 badtable img2.spv || fail "mk-sycl-blob bad.bin"
section bad a "bad.bin"
rc=0
"$dump" bad.o >bad.txt 2>err || rc=$?
[ $rc -eq 1 ] || fail "bad.o: exit status $rc"
[ "$(wc -l <err)" -eq 1 ] &&
	grep -q '^devimg-dump: bad.o: OFFLOADING IMAGE \[1\]: "symbols" table: count 3' err ||
	fail "bad.o: stderr: $(cat err)"
[ "$(head -n 1 bad.txt)" = "bad.o: 1 device image" ] || fail "bad.o: $(cat bad.txt)"
grep -q '^symbols         good$' bad.txt || fail "bad.o: $(cat bad.txt)"
grep -q '^symbols         cannot decode: bad.o: OFFLOADING IMAGE \[1\]: "symbols" table: count 3' bad.txt ||
	fail "bad.o: $(cat bad.txt)"
rc=0
"$dump" --json bad.o >bad.json 2>/dev/null || rc=$?
[ $rc -eq 1 ] || fail "bad.o --json: exit status $rc"
one_file_json bad.json
[ "$(jq -c '[.images[].entries, (.offloading[] | [.symbols, (.symbols_error | type)])]' bad.json)" = \
  '[["good"],[["good"],"null"],[null,"string"]]' ] ||
	fail "bad.o JSON: $(cat bad.json)"

# A SYCL entry of an image kind libdevimg does not know: the whole blob
# registers nothing.
"$mk" 2 kind.bin spv sycl spirv64 table:first img0.spv \
	9 sycl spirv64 table:second img2.spv || fail "mk-sycl-blob kind.bin"
section kind a "kind.bin"
rc=0
"$dump" kind.o >kind.txt 2>err || rc=$?
[ $rc -eq 1 ] || fail "kind.o: exit status $rc"
grep -q "^devimg-dump: kind.o: section \[[0-9]*\] '.llvm.offloading' blob at 0x0: OFFLOADING IMAGE \[1\]: image kind 9 unknown, expected 0 to 6: a constructor registers none of its images$" err ||
	fail "kind.o: stderr: $(cat err)"
[ "$(head -n 1 kind.txt)" = "kind.o: no device images" ] ||
	fail "kind.o: $(cat kind.txt)"

# A compressed blob registers the images of its inflated copy (mk-offload
# compresses with the system's libzstd.so.1, exit 77 without it).
rc=0
"$mko" 3z z.bin spv sycl spirv64 - img2.spv >why 2>&1 || rc=$?
[ $rc -ne 77 ] || skip tools "mk-offload cannot compress: $(cat why)"
[ $rc -eq 0 ] || fail "mk-offload 3z: $(cat why)"
section z a "z.bin"
"$dump" z.o >z.txt || fail "z.o: devimg-dump failed"
grep -q '^  size:            18 bytes (inflated from a compressed OffloadBinary)$' z.txt ||
	fail "z.o: $(cat z.txt)"
rm -rf x && mkdir x
"$dump" -x x z.o >/dev/null || fail "z.o: --extract failed"
cmp img2.spv x/z.o.0.spirv64.spv || fail "z.o: image 0"
exit 0
