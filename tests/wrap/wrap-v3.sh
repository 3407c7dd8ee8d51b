#!/bin/sh
# Version 3 images: -image-version=3 and -fpreview-breaking-changes write
# the 80-byte device image of DPC++'s preview ABI (no manifest pointers);
# a runtime reading that layout finds every field, devimg-dump says
# version 3, and the default stays version 2.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

DUMP=$top_builddir/devimg-dump
cd "$scratch"
rand_file a.bin 1000
rand_file b.bin 77
sym_file a.sym kern_a kern_b
printf '[SYCL/misc properties]\noptLevel=1|2\n' >a.props

for opt in -image-version=3 --image-version=3 -fpreview-breaking-changes; do
	"$WRAP" -o v3.o -kind=sycl -emit-reg-funcs=0 -desc-name=v3 $opt \
		-target=spir64 -format=spirv -compile-opts=-g -link-opts=-lm \
		-entries=a.sym -properties=a.props a.bin \
		-target=nvptx64 -format=native -entries= -properties= b.bin ||
		fail "devimg-wrap $opt"
	elflint v3.o
	$CC -std=c11 -O1 -DIMAGE_V3 -DDESC='".sycl_offloading.v3"' \
		-c "$wsrc/descdump.c" -o dd.o || fail "cannot build descdump"
	$CC -no-pie -o dd dd.o v3.o || fail "cannot link descdump"
	./dd >got || fail "descdump failed ($opt)"
	printf '%s\n' 'binaries 1 count 2' \
		'image 0 version 3 kind 4 format 2 target spir64 copts -g lopts -lm size 1000 entries kern_a,kern_b' \
		'image 1 version 3 kind 4 format 1 target nvptx64 copts -g lopts -lm size 77 entries ' \
		>want
	diff -u want got || fail "version 3 descriptor ($opt)"
	cmp img.0 a.bin || fail "image 0 bytes ($opt)"
	cmp img.1 b.bin || fail "image 1 bytes ($opt)"
	"$DUMP" --json v3.o >v3.json &&
	one_file_json v3.json || fail "devimg-dump ($opt)"
	[ "$(jq -c '[.images[] | .version]' v3.json)" = '[3,3]' ] ||
		fail "devimg-dump --json version ($opt): $(cat v3.json)"
	[ "$(jq -c '.images[0].property_sets[0].name' v3.json)" = '"SYCL/misc properties"' ] ||
		fail "property sets of a version 3 image ($opt)"
	"$DUMP" v3.o | grep -q '^  version: *3$' ||
		fail "devimg-dump text version ($opt)"
done

# Image 0 (at 0x20) has entries_begin at 48, not 64; its entries follow
# the 32 bytes of binaries and two 80-byte images, at 0xc0.
readelf -rW v3.o | grep -Eq '^0*50 .*R_X86_64_64 .*\.data\.rel\.ro\.devimg \+ c0$' ||
	fail "image 0's entries_begin: $(readelf -rW v3.o)"

# The default is version 2, and -image-version=2 says so explicitly.
"$WRAP" -o v2.o -kind=sycl -image-version=2 a.bin || fail "-image-version=2"
"$WRAP" -o v2d.o -kind=sycl a.bin || fail "default version"
cmp v2.o v2d.o || fail "-image-version=2 is not the default"
[ "$("$DUMP" --json v2.o | jq '.files[0] | .images[0].version')" = 2 ] ||
	fail "default image version"
echo PASS
