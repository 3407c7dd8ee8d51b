#!/bin/sh
# Objects laid out as the wrappers of today write them (lib-offload.sh),
# compiled by llc from IR: a descriptor of version 3 images with LLVM's
# 56-byte entries (llvm-project's wrapSYCLBinaries), one of version 3
# images of DPC++'s numbers with 32-byte entries, one of version 2 images
# with 56-byte entries, and an OffloadBinary blob registered by its start
# and size from a priority-101 constructor, unregistered through atexit
# (and one by its start and end, unregistered by a destructor). Linked
# into a program and into dlopen'ed libraries: the images, their names,
# targets and formats read back; unregistration on exit and dlclose.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/loader/lib-loader.sh"
. "$top_srcdir/tests/loader/lib-offload.sh"

cd "$scratch"
spirv_image a.spv
spirv_image b.spv
printf 'BC\300\336\065\024\000\000\005\000\000\000' >c.bc
ptx_image d.ptx
spv=$(wc -c <a.spv)
ptx=$(wc -c <d.ptx)

# LLVM's: kind 8, ImageKind 6 (SPIR-V), 2 (bitcode).
ir_descriptor llvm.ll 3 llvm "8:6:spirv64-unknown-unknown:a.spv:k_a,k_shared" \
	"8:2:spir64-unknown-unknown:c.bc:k_c"
# DPC++'s version 3: kind 4, its format numbers, 32-byte entries.
ir_descriptor dpcpp3.ll 3 old "4:2:spir64:b.spv:k_b,k_shared"
# Version 2 images with LLVM's entries.
ir_descriptor v2new.ll 2 llvm "4:0:nvptx64:d.ptx:k_d"
# A blob of a SYCL SPIR-V image, an OpenMP image (skipped) and a PTX one.
mkblob blob.bin "6:8:spirv64-unknown-unknown:a.spv:k_blob,k_shared" \
	"1:1:x86_64-unknown-linux-gnu:c.bc:omp_fn" \
	"5:8:nvptx64-nvidia-cuda:d.ptx:k_ptx1,k_ptx2"
ir_blob blob-size.ll blob.bin size
mkblob blob2.bin "2:8:spir64-unknown-unknown:c.bc:k_end"
ir_blob blob-end.ll blob2.bin end
for f in llvm dpcpp3 v2new blob-size blob-end; do
	llc_obj "$f.ll" "$f.o"
done

build_prog prog-offload "$lsrc/prog-offload.c" llvm.o dpcpp3.o v2new.o \
	blob-size.o blob-end.o
DEVIMG_TRACE=1 ./prog-offload >out 2>trace || fail "prog-offload: $(cat out trace)"
cat >want <<EOF
main: 7 images
  version 3 kind 4 format 2 target spirv64-unknown-unknown bin $spv entries k_a k_shared
  version 3 kind 4 format 3 target spir64-unknown-unknown bin 12 entries k_c
  version 3 kind 4 format 2 target spir64 bin $spv entries k_b k_shared
  version 2 kind 4 format 0 target nvptx64 bin $ptx entries k_d
  version 3 kind 4 format 2 target spirv64-unknown-unknown bin $spv entries k_blob k_shared
  version 3 kind 4 format 0 target nvptx64-nvidia-cuda bin $ptx entries k_ptx1 k_ptx2
  version 3 kind 4 format 3 target spir64-unknown-unknown bin 12 entries k_end
EOF
# Constructors of one priority run in link order, the blob's (101) later.
sort want >want.sorted
sort out >out.sorted
diff want.sorted out.sorted || fail "prog-offload saw other images: $(cat out)"
[ "$(grep -c '^libdevimg: registered descriptor' trace)" -eq 5 ] ||
	fail "not five registrations: $(cat trace)"
[ "$(grep -c '^libdevimg: unregistered descriptor' trace)" -eq 5 ] ||
	fail "not five unregistrations at exit: $(cat trace)"

# The same objects in libraries: registered by dlopen, gone at dlclose
# (the blob's atexit handler runs then).
# shellcheck disable=SC2086
$CC -std=c11 $LOADER_CFLAGS -shared -o libdesc.so llvm.o dpcpp3.o \
	-L"$LOADER_LIBDIR" -Wl,-rpath,"$LOADER_LIBDIR" -ldevimg \
	$LOADER_LDFLAGS || fail "cannot link libdesc.so"
# shellcheck disable=SC2086
$CC -std=c11 $LOADER_CFLAGS -shared -o libblob.so blob-size.o \
	-L"$LOADER_LIBDIR" -Wl,-rpath,"$LOADER_LIBDIR" -ldevimg \
	$LOADER_LDFLAGS || fail "cannot link libblob.so"
build_prog prog-offload-dl "$lsrc/prog-offload.c"
DEVIMG_TRACE=1 ./prog-offload-dl "$scratch/libdesc.so" "$scratch/libblob.so" \
	>out 2>trace || fail "prog-offload-dl: $(cat out trace)"
cat >want <<EOF
main: 0 images
dlopen: 3 images
  version 3 kind 4 format 2 target spirv64-unknown-unknown bin $spv entries k_a k_shared
  version 3 kind 4 format 3 target spir64-unknown-unknown bin 12 entries k_c
  version 3 kind 4 format 2 target spir64 bin $spv entries k_b k_shared
dlclose: 0 images
dlopen: 2 images
  version 3 kind 4 format 2 target spirv64-unknown-unknown bin $spv entries k_blob k_shared
  version 3 kind 4 format 0 target nvptx64-nvidia-cuda bin $ptx entries k_ptx1 k_ptx2
dlclose: 0 images
EOF
diff want out || fail "prog-offload-dl saw other images"
[ "$(grep -c '^libdevimg: unregistered descriptor' trace)" -eq 3 ] ||
	fail "not three unregistrations at dlclose: $(cat trace)"

# A blob the runtime cannot read: one line naming it, nothing registered.
printf 'junk' >junk.spv
mkblob bad.bin "9:8:spirv64-unknown-unknown:junk.spv:k_bad"
ir_blob bad.ll bad.bin size
llc_obj bad.ll bad.o
build_prog prog-offload-bad "$lsrc/prog-offload.c" bad.o
./prog-offload-bad >out 2>err || fail "prog-offload-bad: $(cat out err)"
grep -q '^  problem: descriptor 0x[0-9a-f]*: OffloadBinary entry 0: image kind 9 unknown, expected 0 to 6$' out ||
	fail "no problem named for the bad blob: $(cat out)"
grep -q '^main: 0 images$' out || fail "the bad blob registered images"
