#!/bin/sh
# The catalogue of malformed inputs (cases.tsv): truncated and corrupted
# ELF files for devimg-dump, bad property files, symbol files and file
# tables for devimg-wrap, bad descriptors registered through libdevimg,
# images a device cannot take, absurd sizes and counts. For each case:
# its exit status, exactly one line on stderr matching the case's
# pattern (the whole line: tool, file, line or field, reason), nothing on
# stdout, and no file left in out/ (the output folder every case writes
# to). cases.tsv: NAME<TAB>STATUS<TAB>PATTERN<TAB>COMMAND, PATTERN an
# extended regular expression, in which %NAME% stands for $cat_NAME set
# below (what differs with the image format the device takes); COMMAND
# runs in the scratch folder with $WRAP, $DUMP, $REG, $LAUNCH and the
# fixtures made below.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

WRAP=$top_builddir/devimg-wrap
DUMP=$top_builddir/devimg-dump
REG=$top_builddir/tests/catalogue/cat-register
LAUNCH=$top_builddir/tests/catalogue/cat-launch
[ -x "$WRAP" ] || skip "devimg-wrap is not built"
: "${CC:=cc}"
cases=$top_srcdir/tests/catalogue/cases.tsv

cd "$scratch"
mkdir in out

# ---- fixtures: good inputs ----
printf '\003\002\043\007\000\000\001\000spirv image bytes\n' >in/a.spv
printf 'k\n' >in/k.sym
"$WRAP" -o in/w.o -kind=sycl -target=spir64 -format=spirv \
	-entries=in/k.sym in/a.spv || fail "cannot wrap in/a.spv"
$CC -shared -o in/w.so in/w.o || fail "cannot link in/w.so"

# ---- corrupted ELF files (offsets from readelf) ----
shoff=$(readelf -hW in/w.o | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
# shdr FILE SECTION FIELD-OFFSET: file offset of a field of a section header.
shdr() {
	echo $((shoff + $(section_index "$1" "$2") * 64 + $3))
}
cp in/w.o in/nobits.o
patch in/nobits.o "$(shdr in/w.o .devimg 4)" 08 00 00 00
cp in/w.o in/compressed.o
patch in/compressed.o "$(shdr in/w.o .devimg 8)" 02 08 00 00
cp in/w.o in/devoff.o
# shellcheck disable=SC2046
patch in/devoff.o "$(shdr in/w.o .devimg 24)" $(le64 0x10000000)
cp in/w.o in/relaent.o
patch in/relaent.o "$(shdr in/w.o .rela.devimg 56)" 00
cp in/w.o in/reltype.o
patch in/reltype.o "$(shdr in/w.o .rela.devimg 4)" 09
cp in/w.o in/relalink.o
patch in/relalink.o "$(shdr in/w.o .rela.devimg 40)" 00 00 00 00
cp in/w.o in/shstrndx.o
patch in/shstrndx.o 62 01 00
cp in/w.o in/shentsize.o
patch in/shentsize.o 58 20 00
cp in/w.o in/eidata.o
patch in/eidata.o 5 03
cp in/w.so in/phoff.so
# shellcheck disable=SC2046
patch in/phoff.so 32 $(le64 0x7fffffff0)
head -c $(($(wc -c <in/w.so) - 100)) in/w.so >in/cut.so
dv=$(section_off in/w.o .devimg)
cp in/w.o in/nimages.o
patch in/nimages.o $((dv + 26)) 00 01
cp in/w.o in/binsize.o
# shellcheck disable=SC2046
patch in/binsize.o $((dv + 40 + 8)) $(le64 0xffffffffffffffff)

# A compressed image whose frame lost its magic number.
"$WRAP" -o in/zbad.o -kind=sycl -target=spir64 -offload-compress \
	-offload-compression-threshold=0 -entries=in/k.sym in/a.spv ||
	fail "cannot wrap in/a.spv compressed"
zoff=$("$DUMP" in/zbad.o | sed -n 's/.*bytes at file offset 0x\([0-9a-f]*\)$/\1/p')
[ -n "$zoff" ] || fail "no image offset in in/zbad.o"
patch in/zbad.o "$(printf '%d' "0x$zoff")" 00 00 00 00

# ---- property files, symbol files and file tables ----
printf '[S]\nx=3|text\n' >in/type3.props
printf '[]\n' >in/emptyset.props
printf '[abc\n' >in/unterminated.props
printf '[S]\nx=1|\0005\n' >in/nul.props
printf '[S]\nx=2|IAAAA\n' >in/b64len.props
printf '[S]\nx=2|ABAAAAAAAAQA\n' >in/bits.props
printf '[S]\n=1|2\n' >in/noname.props
printf '[S]\nx=1\n' >in/nobar.props
printf '[SYCL/specialization constants]\nc=2|gBAAAAAAAAAAAAAAAAAAAAAAAAA\n' \
	>in/leaf0.props
printf '[SYCL/specialization constants]\nc=2|ADAAAAAAAAAAAAAAAAAAAQAAAAQAAAAACAAAAQAAAAA\n' \
	>in/overlap.props
printf 'k\nb\000d\n' >in/nul.sym
printf '[Code|Code]\nin/a.spv|in/a.spv\n' >in/repeated.txt
printf '[Code]\nin/a.spv|in/k.sym\n' >in/cells.txt
printf '[Code|Symbols]\nin/a.spv|in/nosuch.sym\n' >in/rowsym.txt
# 65536 images: one more than the descriptor's 16-bit count holds.
{ echo '[Code]'; i=0; while [ $i -lt 65536 ]; do echo in/a.spv; i=$((i + 1)); done; } \
	>in/many.txt

# ---- images a device cannot take ----
mkdir -p pocl-cache
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs
DEVIMG_DEVICE_SELECTOR=opencl:*
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS
# The SPIR-family format the device takes (SPIR-V where it takes both, as
# image selection prefers) and the one it does not take, if any; each
# launch case below is made in those, and its expected message filled in
# from cat_* (the %NAME% of a pattern in cases.tsv is $cat_NAME). A
# library that cannot be made has in/NAME.why saying why; its cases skip.
formats=
[ -f "$DEVIMG_PLUGIN_PATH/devimg-opencl.so" ] && formats=$(device_formats)
echo "# device formats: ${formats:-none (no OpenCL device)}"
taken=
other=
case " $formats " in *" spirv "*) taken=spirv other=llvmbc ;; esac
case " $formats " in
*" spir "*)
	if [ -n "$taken" ]; then
		other=
	else
		taken=llvmbc other=spirv
	fi ;;
esac
# why NAME REASON: in/NAME.so will not be made.
why() {
	echo "$2" >"in/$1.why"
}
# wrap_lib NAME SYM FORMAT TARGET FILE: in/NAME.so from FILE.
wrap_lib() {
	printf '%s\n' "$2" >"in/$1.sym"
	"$WRAP" -o "in/$1.o" -kind=sycl -target="$4" -format="$3" \
		-entries="in/$1.sym" "$5" || fail "cannot wrap $5 as $1"
	$CC -shared -o "in/$1.so" "in/$1.o" || fail "cannot link $1.so"
}
head -c 256 /dev/zero | tr '\0' 'G' >in/garbage.bc
cp in/garbage.bc in/garbage.spv
printf 'BC\300\336llvm bitcode bytes\n' >in/a.bc
cat_GARBAGE_ERROR='no image compatible with the device'
cat_GARBAGE_CALL='clCreateProgramWithBinary\(256 bytes, SPIR\)'
cat_GARBAGE_CODE='CL_INVALID_BINARY \(-42\)'
cat_OTHER_FORMAT=spirv
cat_OTHER_NAME=SPIR-V
case $taken in
spirv)
	# A malformed IL is CL_INVALID_VALUE (OpenCL 2.1+).
	cat_GARBAGE_ERROR='invalid argument or malformed input'
	cat_GARBAGE_CALL='clCreateProgramWithIL\(256 bytes of SPIR-V\)'
	cat_GARBAGE_CODE='CL_INVALID_VALUE \(-30\)'
	src='spv' ;;
llvmbc) src='bc' ;;
esac
case $other in
spirv) wrap_lib other sk spirv spir64 in/a.spv ;;
llvmbc)
	cat_OTHER_FORMAT=llvmbc
	cat_OTHER_NAME='SPIR bitcode'
	wrap_lib other sk llvmbc spir64 in/a.bc ;;
*) why other "the device takes both SPIR-V and SPIR bitcode, or neither" ;;
esac
export cat_GARBAGE_ERROR cat_GARBAGE_CALL cat_GARBAGE_CODE cat_OTHER_FORMAT \
	cat_OTHER_NAME
if [ -n "$taken" ]; then
	wrap_lib garbage gk "$taken" spir64 "in/garbage.$src"
	img=$top_builddir/tests/dispatch/dispatch.$src
	if [ -f "$img" ]; then
		wrap_lib miss not_in_it "$taken" spir64 "$img"
	else
		why miss "$img is not built (configure found no clang or llvm-spirv)"
	fi
else
	why garbage "the device takes neither SPIR-V nor SPIR bitcode"
	why miss "the device takes neither SPIR-V nor SPIR bitcode"
fi
wrap_lib native nk native spir64_x86_64 in/garbage.bc

have_device=no
if [ -f "$DEVIMG_PLUGIN_PATH/devimg-opencl.so" ] &&
	"$LAUNCH" in/w.so k >/dev/null 2>&1; [ $? -ne 77 ]; then
	have_device=yes
fi
# The patterns with %NAME% filled in from $cat_NAME (no escapes taken).
awk 'BEGIN { n = split("GARBAGE_ERROR GARBAGE_CALL GARBAGE_CODE OTHER_FORMAT OTHER_NAME", key, " ") }
{
	for (i = 1; i <= n; i++) {
		t = "%" key[i] "%"
		v = ENVIRON["cat_" key[i]]
		while ((p = index($0, t)) > 0)
			$0 = substr($0, 1, p - 1) v substr($0, p + length(t))
	}
	print
}' "$cases" >cases.filled || fail "cannot fill in $cases"
! grep '%[A-Z_][A-Z_]*%' cases.filled || fail "unfilled %NAME% in $cases"

# ---- the cases ----
total=0
passed=0
skipped=0
tab=$(printf '\t')
while IFS="$tab" read -r name status pattern cmd; do
	case $name in '' | '#'*) continue ;; esac
	total=$((total + 1))
	case $cmd in
	*'$LAUNCH'*)
		lib=${cmd#*in/}
		lib=${lib%%.so*}
		reason=
		if [ $have_device = no ]; then
			reason="no OpenCL device"
		elif [ -f "in/$lib.why" ]; then
			reason="in/$lib.so not made: $(cat "in/$lib.why")"
		fi
		if [ -n "$reason" ]; then
			echo "SKIP $name: $reason"
			skipped=$((skipped + 1))
			continue
		fi ;;
	esac
	rm -rf out && mkdir out
	rc=0
	eval "$cmd" >stdout 2>stderr || rc=$?
	lines=$(wc -l <stderr)
	bad=
	[ "$rc" = "$status" ] || bad="exit status $rc, expected $status"
	[ -z "$bad" ] && [ "$lines" -ne 1 ] && bad="$lines lines on stderr"
	[ -z "$bad" ] && ! grep -Eq -- "^$pattern\$" stderr &&
		bad="message does not match ^$pattern\$"
	[ -z "$bad" ] && [ -s stdout ] && bad="output on stdout: $(head -c 200 stdout)"
	[ -z "$bad" ] && [ -n "$(ls -A out)" ] && bad="left behind in out/: $(ls -A out)"
	if [ -n "$bad" ]; then
		echo "FAIL $name: $bad"
		echo "  command: $cmd"
		sed 's/^/  stderr: /' stderr | head -n 5
		continue
	fi
	echo "ok $name"
	passed=$((passed + 1))
done <cases.filled
echo "catalogue: $passed of $total cases pass, $skipped skipped"
[ $total -ge 30 ] || fail "only $total cases"
[ $((passed + skipped)) -eq $total ] || fail "$((total - passed - skipped)) cases failed"
