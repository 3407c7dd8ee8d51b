#!/bin/sh
# The registry's lock against the dynamic linker's load lock (issue #30;
# docs/design.md, "Locks and the dynamic loader"). A program's first use
# of libzstd or zlib, in one thread, while another thread is inside
# dlopen() or dlclose() of a registrar whose constructor or destructor
# holds the load lock for 200 ms before it registers or unregisters
# (tests/loader/lib-slow.c, prog-dllock.c): each of the three calls that
# expand the first compressed image (devimg_image_guess_format,
# devimg_image_bin, devimg_image_bin_copy) against dlopen and dlclose; the
# first expansion while the constructor expands a compressed OffloadBinary
# (zstd, then zlib); the program registering a compressed blob itself
# (zlib, then zstd). A deadlock fails within DEVIMG_TEST_DEADLOCK_S
# seconds (10; the program's watchdog), never hangs. Also run by make
# check-tsan with libdevimg and the programs built with -fsanitize=thread.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/loader/lib-loader.sh"

mk=$top_builddir/tests/containers/mk-offload
[ -x "$mk" ] || skip build "$mk is not built"
cd "$scratch"

# The program's compressed image (over devimg-wrap's 512-byte threshold):
# SPIR-V by its magic, so that guessing its format expands it.
spirv_image big.spv
awk 'BEGIN { for (i = 0; i < 400; i++) printf "w%d ", (i * 7919) % 1000 }' >>big.spv
sym big.sym k_compressed
wrap cz.o -offload-compress -target=spir64 -entries=big.sym big.spv
build_prog prog-dllock "$lsrc/prog-dllock.c" cz.o

# The registrars: a descriptor, and blobs of the same image compressed
# with zstd (3z) and zlib (3Z); the program registers blobs of its own.
spirv_image slow.spv
sym slow.sym k_slow
wrap slow.o -emit-reg-funcs=0 -desc-name=slow -target=spir64 \
	-format=spirv -entries=slow.sym slow.spv
# registrar OUT [CFLAGS...]: libOUT.so from lib-slow.c and the rest.
registrar() {
	out=$1
	shift
	# shellcheck disable=SC2086
	$CC -std=c11 $LOADER_CFLAGS $warn -fPIC -shared \
		-I"$top_srcdir" -I"$top_srcdir/include" -o "$out" "$lsrc/lib-slow.c" "$@" \
		-L"$LOADER_LIBDIR" -Wl,-rpath,"$LOADER_LIBDIR" -ldevimg \
		$LOADER_LDFLAGS || fail "cannot link $out"
}
registrar libslow.so slow.o
for z in z Z; do
	rc=0
	"$mk" 3$z blob$z.bin spv sycl spir64-unknown-unknown - slow.spv \
		>why || rc=$?
	[ $rc -ne 77 ] || skip tools "mk-offload cannot compress with $z: $(cat why)"
	[ $rc -eq 0 ] || fail "mk-offload 3$z: $(cat why)"
	{
		echo 'static const unsigned char slow_blob[]'
		echo '	__attribute__((aligned(16))) = {'
		od -An -v -tx1 blob$z.bin | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'
		echo '};'
	} >blob$z.h
	registrar libslow$z.so -DBLOB="\"$scratch/blob$z.h\""
done

# run TRIGGER ACTION LIBRARY FILE: prog-dllock, also held to a time limit
# from outside when timeout(1) is there (the watchdog is the program's).
run() {
	rc=0
	if command -v timeout >/dev/null 2>&1; then
		timeout -k 5 120 ./prog-dllock "$@" >out 2>err || rc=$?
	else
		./prog-dllock "$@" >out 2>err || rc=$?
	fi
	[ $rc -ne 124 ] && [ $rc -ne 137 ] ||
		fail "prog-dllock $*: killed by timeout(1): deadlock"
	[ $rc -eq 0 ] || fail "prog-dllock $* exited $rc: $(cat err)"
	cat out
}

for trigger in guess bin copy; do
	for action in open close; do
		run $trigger $action "$scratch/libslow.so" big.spv
	done
done
run bin open "$scratch/libslowz.so" big.spv
run bin open "$scratch/libslowZ.so" big.spv
run register open "$scratch/libslow.so" blobZ.bin
run register open "$scratch/libslow.so" blobz.bin
