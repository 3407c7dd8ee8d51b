#!/bin/sh
# devimg-wrap -offload-compress as DPC++'s offload wrapper does it: only
# images whose format is none and whose size reaches the threshold (512
# bytes unless -offload-compression-threshold) become one zstd frame that
# records its content size, with format 4; the others keep their bytes
# and format. The frames are checked with the zstd tool, the stored and
# expanded bytes with devimg-dump --extract [--raw].
. "$top_srcdir/tests/lib.sh"

WRAP=$top_builddir/devimg-wrap
DUMP=$top_builddir/devimg-dump
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
command -v jq >/dev/null || skip tools "jq is not installed"
command -v zstd >/dev/null || skip tools "the zstd tool is not installed"
cd "$scratch"

# Inputs: text of a given size, made here.
mk() {
	awk -v n="$2" 'BEGIN { s = ""; i = 0
		while (length(s) < n) s = s sprintf("w%d ", (i++ * 7919) % 1000)
		printf "%s", substr(s, 1, n) }' >"$1"
	[ "$(wc -c <"$1")" -eq "$2" ] || fail "cannot make $1"
}
mk big 70000
mk s511 511
mk s512 512

# Every tool writes to a file and its status is checked before the file
# is read: no status lost in a pipe.

# dumpj OBJ: devimg-dump --json OBJ into OBJ.json.
dumpj() {
	"$DUMP" --json "$1" >"$1.json" 2>"$1.err" &&
	one_file_json "$1.json" ||
		fail "devimg-dump --json $1 exited $?: $(cat "$1.err")"
}

# unzstd FRAME OUT: zstd -d of FRAME into OUT.
unzstd() {
	zstd -q -d -c "$1" >"$2" 2>"$2.err" ||
		fail "zstd -d $1 exited $?: $(cat "$2.err")"
}

# formats OBJECT: the images' formats, one line
formats() {
	dumpj "$1"
	jq -r '[.images[].format] | join(" ")' "$1.json"
}

check_formats() {
	got=$(formats "$1")
	[ "$got" = "$2" ] || fail "$1: formats '$got', want '$2'"
}

# A per-image option between images: a second file would be a manifest.
"$WRAP" -o a.o -kind=sycl -target=spir64 -offload-compress big \
	-target=spir64 s511 -target=spir64_x86_64 s512 -format=spirv -target=spir64 big ||
	fail "devimg-wrap -offload-compress failed"
check_formats a.o "compressed none compressed spirv"
dumpj a.o
jq -c '[.images[] | [.size, .real_size]]' a.o.json >sizes
stored=$(jq '.images[0].size' a.o.json)
[ "$stored" -lt 70000 ] || fail "big was not made smaller: $stored bytes"
grep -q '^\[\['"$stored"',70000\],\[511,null\],\[[0-9]*,512\],\[70000,null\]\]$' sizes ||
	fail "sizes: $(cat sizes)"
"$DUMP" a.o >a.o.txt 2>a.o.err || fail "devimg-dump a.o exited $?: $(cat a.o.err)"
grep -q "^  real size: *70000 bytes (zstd frame)$" a.o.txt ||
	fail "text view lacks the real size: $(cat a.o.txt)"

# --raw: the stored frames, which zstd expands to the inputs and which
# record their content size; --extract: the inputs themselves.
mkdir raw ex
"$DUMP" --extract raw --raw a.o >raw.list || fail "--extract --raw failed"
"$DUMP" --extract ex a.o >ex.list || fail "--extract failed"
unzstd raw/a.o.0.spir64.zst frame0
cmp frame0 big || fail "frame 0 is not big"
unzstd raw/a.o.2.spir64_x86_64.zst frame2
cmp frame2 s512 || fail "frame 2 is not s512"
zstd -lv raw/a.o.0.spir64.zst >frame0.lv 2>&1 ||
	fail "zstd -lv exited $?: $(cat frame0.lv)"
grep -q "Decompressed Size:.*[( ]70000 B" frame0.lv ||
	fail "frame 0 does not record its content size: $(cat frame0.lv)"
cmp raw/a.o.1.spir64.bin s511 || fail "s511 changed"
cmp ex/a.o.0.spir64.bin big || fail "--extract did not expand image 0"
cmp ex/a.o.2.spir64_x86_64.bin s512 || fail "--extract did not expand image 2"
cmp ex/a.o.3.spir64.spv big || fail "the spirv image changed"
expect_fail "devimg-dump: --raw needs --extract" "$DUMP" --raw a.o

# What __sycl_register_lib receives (tests/wrap's registrar, no
# libdevimg): format 4 and the frame, byte for byte, for images 0 and 2.
: "${CC:=cc}"
$CC -std=c11 -O1 -fPIC -I"$top_srcdir" -I"$top_srcdir/include" \
	-c "$top_srcdir/tests/wrap/registrar.c" -o registrar.o &&
	echo 'int main(void) { return 0; }' >main.c &&
	$CC -o prog main.c a.o registrar.o || fail "cannot link the registrar"
mkdir reg
REG_OUT=$scratch/reg ./prog >reg.out || fail "the registrar program failed"
jq -r '[.images[].format] | join(" ")' reg/desc.* >reg.formats
[ "$(cat reg.formats)" = "compressed none compressed spirv" ] ||
	fail "registered formats: $(cat reg.formats)"
cmp reg/img.0 raw/a.o.0.spir64.zst || fail "registered image 0 is not the frame"
cmp reg/img.2 raw/a.o.2.spir64_x86_64.zst ||
	fail "registered image 2 is not the frame"

# The threshold: an image this large is compressed, one byte less is not.
"$WRAP" -o t.o -kind=sycl -offload-compress \
	-offload-compression-threshold=70000 big -target= s512 ||
	fail "threshold 70000 failed"
check_formats t.o "compressed none"
"$WRAP" -o t.o -kind=sycl --offload-compress \
	--offload-compression-threshold=70001 big -target= s512 ||
	fail "threshold 70001 failed"
check_formats t.o "none none"
"$WRAP" -o t.o -kind=sycl -offload-compress \
	-offload-compression-threshold 0 s511 || fail "threshold 0 failed"
check_formats t.o "compressed"

# Levels: 10 by default; another level makes another frame.
"$WRAP" -o l10.o -kind=sycl -target=spir64 -offload-compress \
	-offload-compression-level=10 big || fail "level 10 failed"
"$WRAP" -o l1.o -kind=sycl -target=spir64 -offload-compress \
	-offload-compression-level=1 big || fail "level 1 failed"
mkdir l10 l1
"$DUMP" -x l10 -r l10.o >/dev/null && "$DUMP" -x l1 -r l1.o >/dev/null ||
	fail "cannot extract the level frames"
cmp raw/a.o.0.spir64.zst l10/l10.o.0.spir64.zst ||
	fail "the default level is not 10"
if cmp -s raw/a.o.0.spir64.zst l1/l1.o.0.spir64.zst; then
	fail "level 1 made the same frame as level 10"
fi
unzstd l1/l1.o.0.spir64.zst l1frame
cmp l1frame big || fail "level 1 frame is not big"

# Without -offload-compress (or with =false), the level and threshold
# change nothing, as the driver's command lines expect.
"$WRAP" -o n.o -kind=sycl -offload-compression-level=3 big ||
	fail "level alone failed"
check_formats n.o "none"
"$WRAP" -o n.o -kind=sycl -offload-compress=false big ||
	fail "-offload-compress=false failed"
check_formats n.o "none"

# Batch mode: the option holds for every row of the table.
printf '[Code]\nbig\ns511\n' >table
"$WRAP" -o b.o -kind=sycl -target=spir64 -offload-compress -batch table ||
	fail "batch with -offload-compress failed"
check_formats b.o "compressed none"

# An image that compresses beyond the 1032:1 readers expand (4 MiB of
# zeros: some 150 bytes) is stored as it is, and says so with -v; one
# just within (a third of it random) is compressed.
head -c 4194304 /dev/zero >zeros
"$WRAP" -o z.o -kind=sycl -target=spir64 -offload-compress -v zeros \
	2>z.err || fail "wrapping zeros failed: $(cat z.err)"
check_formats z.o "none"
grep -q '^devimg-wrap: zeros: 4194304 bytes compress to [0-9]*, more than the 1032:1 readers expand: stored uncompressed$' z.err ||
	fail "no word of zeros stored uncompressed: $(cat z.err)"
mkdir zx
"$DUMP" -x zx z.o >/dev/null || fail "devimg-dump -x z.o failed"
set -- zx/*
[ $# -eq 1 ] && cmp "$1" zeros || fail "zeros: extracted bytes differ: $*"

expect_fail "devimg-wrap: -offload-compression-level=x: 'x' is not an integer" \
	"$WRAP" -o e.o -kind=sycl -offload-compress -offload-compression-level=x big
expect_fail "devimg-wrap: -offload-compression-threshold=9999999999: '9999999999' is not an integer" \
	"$WRAP" -o e.o -kind=sycl -offload-compress \
	-offload-compression-threshold=9999999999 big
expect_fail "devimg-wrap: -offload-compress=maybe: 'maybe' is not a boolean" \
	"$WRAP" -o e.o -kind=sycl -offload-compress=maybe big
[ ! -e e.o ] || fail "a refused command line left e.o"
exit 0
