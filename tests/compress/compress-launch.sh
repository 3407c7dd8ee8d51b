#!/bin/sh
# Compressed images on PoCL: dispatch.cl and spec.cl (the images of
# tests/dispatch, in the format the device takes) wrapped with
# -offload-compress and no -format, so both are stored as zstd frames
# (format 4); dispatch-run launches their kernels and checks the results,
# which needs the real format guessed after expansion (SPIR-V: native spec
# constants; SPIR bitcode: emulated). Then a library whose first image has
# a garbled frame: its kernel fails with the reason, the kernel of the
# second image still runs.
. "$top_srcdir/tests/dispatch/common.sh"

crun=$top_builddir/tests/compress/compress-run
DUMP=$top_builddir/devimg-dump
command -v jq >/dev/null || skip tools "jq is not installed"
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

cd "$scratch"
cp "$bc/dispatch.$ext" . || fail "$bc/dispatch.$ext is missing"
cp "$bc/$spec.$ext" "spec.$ext" || fail "$bc/$spec.$ext is missing"
printf 'spec_k\n' >spec.sym

lib main -offload-compress -target=spir64 -entries="$src/dispatch.sym" \
	"dispatch.$ext" -entries=spec.sym -properties="$src/spec.props" \
	"spec.$ext"
"$DUMP" --json main.o | jq -r '.files[0] | .images[].format' >formats
[ "$(cat formats)" = "compressed
compressed" ] || fail "images not stored compressed: $(cat formats)"

rc=0
"$run" main "$scratch/libmain.so" "$spec_path" >out.main 2>&1 || rc=$?
cat out.main
[ "$rc" -ne 77 ] || skip opencl-device "PoCL shows no OpenCL device"
[ "$rc" -eq 0 ] || fail "dispatch-run main on compressed images exited $rc"
grep -q "^ok vadd" out.main || fail "vadd did not run"

# Image 0 (reduce) garbled after its frame header; image 1 (vadd) intact.
printf 'reduce\n' >reduce.sym
printf 'vadd\n' >vadd.sym
"$WRAP" -o bad.o -kind=sycl -offload-compress -target=spir64 \
	-entries=reduce.sym "dispatch.$ext" -entries=vadd.sym "dispatch.$ext" ||
	fail "devimg-wrap for bad failed"
off=$("$DUMP" bad.o | sed -n '/^image 0:/,/^image 1:/s/.*bytes at file offset 0x\([0-9a-f]*\)$/\1/p')
size=$("$DUMP" --json bad.o | jq '.files[0] | .images[0].size')
[ -n "$off" ] && [ "$size" -gt 64 ] || fail "image 0 not found in bad.o"
off=$(printf '%d' "0x$off")
head -c 32 /dev/zero | tr '\0' '\377' |
	dd of=bad.o bs=1 seek=$((off + 24)) conv=notrunc 2>/dev/null ||
	fail "cannot garble bad.o"
"$DUMP" --json bad.o | jq -e '.files[0] | .images[0].real_size > 0' >/dev/null ||
	fail "the garbled frame lost its header"
${CC:-cc} -shared -o libbad.so bad.o || fail "cannot link libbad.so"

rc=0
"$crun" "$scratch/libbad.so" reduce "format compressed: corrupt zstd frame" \
	>out.bad 2>&1 || rc=$?
cat out.bad
[ "$rc" -eq 0 ] || fail "compress-run on the garbled image exited $rc"
grep -q "compressed bytes: corrupt zstd frame" out.bad ||
	fail "the expansion error was not logged"
rc=0
"$run" vadd "$scratch/libbad.so" >out.vadd 2>&1 || rc=$?
cat out.vadd
[ "$rc" -eq 0 ] || fail "vadd beside a garbled image exited $rc"
grep -q "^ok vadd" out.vadd || fail "vadd did not run beside a garbled image"
exit 0
