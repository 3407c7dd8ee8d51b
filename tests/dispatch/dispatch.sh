#!/bin/sh
# The dispatch API end to end on PoCL: kernels in OpenCL C compiled by
# clang at build time (tests/dispatch/local.mk) to SPIR 1.2 bitcode and to
# SPIR-V, wrapped here by devimg-wrap with .sym/.props into shared
# libraries that dispatch-run opens, results checked on the host. The
# images are in the format the device takes (device_format): SPIR-V, with
# spec_k's spec constants native (spec-native.spv), else SPIR bitcode,
# with them emulated (spec.cl). Needs no clang at run time, so a carried
# build tree runs it on another machine.
. "$top_srcdir/tests/dispatch/common.sh"

cd "$scratch"
for f in dispatch broken pick-which-1 pick-which-2 pick-which-3 \
	pick-last-10 pick-last-20 pick-last-30; do
	cp "$bc/$f.$ext" . || fail "$bc/$f.$ext is missing"
done
cp "$bc/$spec.$ext" "spec.$ext" || fail "$bc/$spec.$ext is missing"
printf 'spec_k\n' >spec.sym
printf 'broken_k\n' >broken.sym
printf 'ptx_only\n' >ptx.sym
printf '//\n.version 7.0\n.target sm_80\n.address_size 64\n' >ptx.ptx

lib main -target=spir64 -format="$fmt" -entries="$src/dispatch.sym" \
	"dispatch.$ext" \
	-target=spir64 -format="$fmt" -entries=spec.sym \
	-properties="$src/spec.props" "spec.$ext"
lib nocompat -target=nvptx64 -format=native -entries=ptx.sym ptx.ptx
lib broken -target=spir64 -format="$fmt" -entries=broken.sym "broken.$ext"

# pick: "which" for three targets, "last" in two spir64 images and an FPGA one.
printf 'which\n' >which.sym
printf 'last\n' >last.sym
lib pick -format="$fmt" -entries=which.sym -target=spir64 "pick-which-1.$ext" \
	-target=spir64_gen "pick-which-2.$ext" \
	-target=spir64_x86_64 "pick-which-3.$ext" \
	-entries=last.sym -target=spir64 "pick-last-10.$ext" \
	-target=spir64 "pick-last-20.$ext" -target=spir64_fpga "pick-last-30.$ext"

LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

mkdir dump
for mode in main nocompat broken threads shared pick; do
	rc=0
	libname=$mode
	[ "$mode" = threads ] || [ "$mode" = shared ] && libname=main
	dumpdir=
	[ "$mode" = pick ] && dumpdir=$scratch/dump
	DEVIMG_DUMP_IMAGES=$dumpdir "$run" "$mode" "$scratch/lib$libname.so" \
		"$spec_path" >"out.$mode" 2>&1 || rc=$?
	cat "out.$mode"
	# device_format found the device: it cannot be missing here.
	[ "$rc" -ne 77 ] ||
		fail "dispatch-run $mode found no device, which devimg-ls listed"
	[ "$rc" -eq 0 ] || fail "dispatch-run $mode exited $rc"
done

# DEVIMG_DUMP_IMAGES: the two images pick built, byte for byte, and no
# temporary file left; an unwritable folder warns and builds anyway.
set -- dump/*
[ $# -eq 2 ] || fail "DEVIMG_DUMP_IMAGES wrote $# files, want 2: $*"
cmp dump/spir64_x86_64-*".$ext" "pick-which-3.$ext" ||
	fail "dumped spir64_x86_64 image differs from pick-which-3.$ext"
cmp dump/spir64-*".$ext" "pick-last-20.$ext" ||
	fail "dumped spir64 image differs from pick-last-20.$ext"
rc=0
DEVIMG_DUMP_IMAGES=$scratch/no/such/dir "$run" pick "$scratch/libpick.so" \
	"$spec_path" >out.nodump 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat out.nodump; fail "pick with an unwritable dump folder exited $rc"; }
grep -q "DEVIMG_DUMP_IMAGES: .*no/such/dir.*No such file or directory" out.nodump ||
	{ cat out.nodump; fail "no warning for an unwritable dump folder"; }
exit 0
