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
#
# catalogue.sh runs the cases of the tools and the registry; with
# --launch (tests/catalogue/catalogue-launch.sh) it runs the cases that
# launch on an OpenCL device ($LAUNCH in COMMAND) instead, and skips as a
# whole where there is no such device or no image for it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

WRAP=$top_builddir/devimg-wrap
DUMP=$top_builddir/devimg-dump
REG=$top_builddir/tests/catalogue/cat-register
LAUNCH=$top_builddir/tests/catalogue/cat-launch
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
: "${CC:=cc}"
cases=$top_srcdir/tests/catalogue/cases.tsv
case ${1:-} in
'') rows=tools ;;
--launch) rows=launch ;;
*) fail "usage: catalogue.sh [--launch]" ;;
esac

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

# wrap_lib NAME SYM FORMAT TARGET FILE: in/NAME.so from FILE.
wrap_lib() {
	printf '%s\n' "$2" >"in/$1.sym"
	"$WRAP" -o "in/$1.o" -kind=sycl -target="$4" -format="$3" \
		-entries="in/$1.sym" "$5" || fail "cannot wrap $5 as $1"
	$CC -shared -o "in/$1.so" "in/$1.o" || fail "cannot link $1.so"
}

# launch_fixtures: the libraries of the launch cases, for a device that
# takes $taken and not $other (empty: it takes both); skips where it takes
# neither or the build made no image of the dispatch suite for it.
launch_fixtures() {
	head -c 256 /dev/zero | tr '\0' 'G' >in/garbage.bc
	cp in/garbage.bc in/garbage.spv
	printf 'BC\300\336llvm bitcode bytes\n' >in/a.bc
	case $taken in
	spirv)
		# Bytes that are not SPIR-V never reach the driver (drivers
		# refuse them at different steps).
		cat_GARBAGE_ERROR='invalid argument or malformed input'
		cat_GARBAGE_CALL='program_create_il\(256 bytes\)'
		cat_GARBAGE_CODE='not a SPIR-V module \(no magic number 0x07230203 and 5-word header\)'
		src=spv ;;
	llvmbc)
		cat_GARBAGE_ERROR='no image compatible with the device'
		cat_GARBAGE_CALL='clCreateProgramWithBinary\(256 bytes, SPIR\)'
		cat_GARBAGE_CODE='CL_INVALID_BINARY \(-42\)'
		src=bc ;;
	*) skip opencl-device "the OpenCL device takes neither SPIR-V nor SPIR bitcode ($formats)" ;;
	esac
	img=$top_builddir/tests/dispatch/dispatch.$src
	if [ ! -f "$img" ]; then
		[ $src = spv ] ||
			skip clang "$img is not built (configure found no clang)"
		skip llvm-spirv "$img is not built (configure found no llvm-spirv matching clang)"
	fi
	# An image the device cannot take: the SPIR-family format it lacks,
	# or, where it takes both, an image of no format anything knows.
	case $other in
	spirv)
		cat_OTHER_WHY='format spirv: device has no SPIR-V ingestion'
		wrap_lib other sk spirv spir64 in/a.spv ;;
	llvmbc)
		cat_OTHER_WHY='format llvmbc: device has no SPIR bitcode ingestion'
		wrap_lib other sk llvmbc spir64 in/a.bc ;;
	*)
		echo "# the device takes SPIR-V and SPIR: launch-format-not-ingested launches an image of no known format"
		cat_OTHER_WHY='format none: bytes are not SPIR-V, LLVM bitcode, ELF or PTX'
		wrap_lib other sk none spir64 in/garbage.bc ;;
	esac
	wrap_lib garbage gk "$taken" spir64 "in/garbage.$src"
	wrap_lib miss not_in_it "$taken" spir64 "$img"
	wrap_lib native nk native spir64_x86_64 in/garbage.bc
}

# ---- images a device cannot take (--launch) ----
# The SPIR-family format the device takes (SPIR-V where it takes both, as
# image selection prefers) and the one it does not take, if any; each
# launch case is made in those, and its expected message filled in from
# cat_* (the %NAME% of a pattern in cases.tsv is $cat_NAME).
cat_GARBAGE_ERROR=unused cat_GARBAGE_CALL=unused cat_GARBAGE_CODE=unused
cat_OTHER_WHY=unused
if [ $rows = launch ]; then
	mkdir -p pocl-cache
	POCL_CACHE_DIR=$scratch/pocl-cache
	DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs
	DEVIMG_DEVICE_SELECTOR=$(opencl_selector 'opencl:*')
	export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
	export LSAN_OPTIONS
	[ -f "$DEVIMG_PLUGIN_PATH/devimg-opencl.so" ] ||
		skip opencl "OpenCL plugin not built"
	formats=$(device_formats)
	[ -n "$formats" ] ||
		skip opencl-device "no OpenCL device (PoCL shows none)"
	echo "# device formats: $formats"
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
	launch_fixtures
fi
export cat_GARBAGE_ERROR cat_GARBAGE_CALL cat_GARBAGE_CODE cat_OTHER_WHY

# The patterns with %NAME% filled in from $cat_NAME (no escapes taken).
awk 'BEGIN { n = split("GARBAGE_ERROR GARBAGE_CALL GARBAGE_CODE OTHER_WHY", key, " ") }
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
tab=$(printf '\t')
while IFS="$tab" read -r name status pattern cmd; do
	case $name in '' | '#'*) continue ;; esac
	case $cmd in
	*'$LAUNCH'*) [ $rows = launch ] || continue ;;
	*) [ $rows = tools ] || continue ;;
	esac
	total=$((total + 1))
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
echo "catalogue ($rows): $passed of $total cases pass"
if [ $rows = tools ]; then
	[ $total -ge 30 ] || fail "only $total cases"
else
	[ $total -ge 4 ] || fail "only $total launch cases"
fi
[ $passed -eq $total ] || fail "$((total - passed)) cases failed"
