#!/bin/sh
# seeds.sh OUTDIR: seed corpora of the fuzz harnesses, made from the test
# fixtures and what the tools and the test writers make of them:
# OUTDIR/<harness>/ for each harness (the list below, which replay.sh
# walks). Needs top_srcdir and top_builddir (as make check sets them);
# the ELF and container seeds also need devimg-wrap, $CC and the writers
# of tests/containers and tests/dump (mk-offload, mk-syclbin,
# mk-sycl-blob), and are left out without them.
set -eu
out=$1
: "${top_srcdir:?}" "${top_builddir:?}"
: "${CC:=cc}"
t=$top_srcdir/tests
harnesses="props bytes sym table reader descriptor introspect containers
dump blob layout bundle devglobal"
for h in $harnesses; do
	mkdir -p "$out/$h"
done

# .props, .sym and file tables: the fixtures as they are.
n=0
for f in "$t"/props/*.props "$t"/dispatch/*.props "$t"/meta/*.props; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	cp "$f" "$out/props/fixture-$n"
done
printf '[Empty]\n[S]\nu=1|4294967295\ns=3|text with = and |\r\n' \
	>"$out/props/types"
n=0
for f in "$t"/props/*.sym "$t"/dispatch/*.sym "$t"/meta/*.sym; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	cp "$f" "$out/sym/fixture-$n"
done
printf 'a\r\n\nb\n' >"$out/sym/crlf"
cp "$t/props/batch.txt" "$out/table/fixture"
printf '[Manifest|Code]\nm.txt|a.bin\n\n' >"$out/table/manifest"

# bytes: the first byte picks the decoder (0 base64 text, 1 bytes to
# base64, 2 header check, 3 spec-constant descriptor, 4 layout, 5 launch).
n=0
for f in "$out"/props/*; do
	sed -n 's/^[^=]*=2|//p' "$f" | while IFS= read -r v; do
		n=$((n + 1))
		printf '\000%s' "$v" >"$out/bytes/b64-$(basename "$f")-$n"
	done
done
printf '\001\001\002\003\377' >"$out/bytes/encode"
printf '\002\010\000\000\000\000\000\000\000\001' >"$out/bytes/header"
# {0, 0, 8}: 96 bits, then the tuple (StructSpecId, docs/formats.md
# section 5).
spec='\140\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\010\000\000\000'
printf "\\003$spec" >"$out/bytes/spec"
# Two constants and their 9-byte defaults blob.
spec2='\140\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000\001\000\000\000'
printf "\\004\\002\\024$spec\\024$spec2\\110\\000\\000\\000\\000\\000\\000\\000\\001\\002\\003\\004\\005\\006\\007\\010\\011" \
	>"$out/bytes/layout"
printf '\005\140\000\000\000\000\000\000\000\010\000\000\000\004\000\000\000\002\000\000\000' \
	>"$out/bytes/launch"

# descriptor: see fuzz-descriptor.c for how bytes become a descriptor.
# Flags 0, one image, no host entries, whole host span; image flags 0,
# format 2, target spir64, no options, bin = 16 bytes at arena offset 0,
# two entries k0 and k1 (whole span), no sets (whole span).
printf '\000\001\000\000''\000\002\000\377\377\377\377\001\000\000\000\020''\002\000\001\000''\000\000' \
	>"$out/descriptor/one-image"
# One entry "shared" and a spec-constant set: constant c0 whose byte
# array is the 20 bytes at arena offset 64 (the tail of the input).
{
	printf '\000\001\000\000''\000\002\000\377\377\377\377\001\000\000\000\020''\001\004\000'
	printf '\001''\001''\000''\002''\013''\000\100''\000''\000\024''\000''\000'
	head -c $((64 - 31)) /dev/zero
	printf "$spec"
} >"$out/descriptor/spec"
printf '\001\002\000\000\002' >"$out/descriptor/bad-version"
printf '\000\000\000\000' >"$out/descriptor/empty"

# introspect: see fuzz-introspect.c. One SPIR-V image for spir64 with
# entry k0 and five sets: requirements (aspects 1, 2), k0's required
# work-group size 8x1x1, constant c0 {id 1, offset 0, size 4} with its
# 4 default bytes, and k0's argument mask.
printf '\000''\002\000\001\000''\005''\004\001''\002\005\000\010\001\000\000\000\002\000\000\000''\003\001''\002\012\000\014\010\000\000\000\001\000\000\000\001\000\000\000''\000\001''\002\015\000\014\001\000\000\000\000\000\000\000\004\000\000\000''\001\001''\002\000\000\004\007\000\000\000''\002\001''\002\001\000\001\005''\001\002\003' \
	>"$out/introspect/one-image"
# Two images sharing kernel shared, strings and uint32s in one set.
printf '\001''\002\002\001\002''\001''\005\003''\001\000\003abc''\000\007\020\000''\201\000\003xyz\002''\006\002\001\000\000''\001\000' \
	>"$out/introspect/two-images"
printf '\000' >"$out/introspect/empty"

# layout: see fuzz-layout.c. LLVM 22's layout: two images of version 3,
# kind 8, SPIR-V (image kind 6, target spirv64-unknown-unknown, entries
# k0 and k1) and bitcode (image kind 2, spir64, entry _ZTS4Fill), each
# with 56-byte entries and its bytes in the input.
printf '\001\001\001''\000\006\001\000\000\000\020\001\001\000\000\001\000\000''\000\002\000\000\004\000\010\001\000\000\003\000' \
	>"$out/layout/llvm22"
# Versions 2, 3 and 1 in one array: a SPIR-V image with 32-byte entries
# and an aspects requirement, a kind 4 image of version 3 with 56-byte
# entries, a native version 1 image with a manifest.
printf '\002\004\001\000''\000\002\000\000\000\000\010\000\002\000\000\001''\001\004\001\002\004\010\001\000\000\000\002\000\000\000''\001\000\005\000\020\000\004\002\000\000\002''\000''\100\001\003\000\000\000\004\000\002\001\000\001\000\000\000' \
	>"$out/layout/mixed"
# LLVM entries whose second one has another layout (refused), and a span
# of 56-byte entries that is not whole ones (refused).
printf '\000\001''\000\006\001\000\000\000\020\001\001\000\000\001\370\000\000\000\000\000\000\000\001\000' \
	>"$out/layout/mixed-entries"
printf '\000\001''\000\006\001\000\000\000\020\001\001\002\000\001\000\007\000' \
	>"$out/layout/partial-entry"

# devglobal: the first byte picks (fuzz-devglobal.c). Values: a global of
# 12 bytes with device_image_scope, one without, a bad flag, a short one.
printf '\000\100\000\000\000\000\000\000\000\014\000\000\000\001\000\000\000' \
	>"$out/devglobal/scope"
printf '\000\100\000\000\000\000\000\000\000\010\000\000\000\000\252\252\252' \
	>"$out/devglobal/plain"
printf '\000\100\000\000\000\000\000\000\000\010\000\000\000\002\000\000\000' \
	>"$out/devglobal/bad-flag"
printf '\000\070\000\000\000\000\000\000\000\010\000\000' \
	>"$out/devglobal/short"
# SPIR-V: name "dg" (2 bytes), then a module: the header, OpCapability
# Kernel, OpDecorate %5 HostAccessINTEL (6188) read "dg", OpDecorate %6
# of the older number (6147) "dx"; one decoration in big-endian words.
hdr='\003\002\043\007\000\000\001\000\000\000\000\000\010\000\000\000\000\000\000\000'
dec='\021\000\002\000\006\000\000\000''\107\000\005\000\005\000\000\000\054\030\000\000\001\000\000\000dg\000\000''\107\000\005\000\006\000\000\000\003\030\000\000\002\000\000\000dx\000\000'
printf "\\001\\002dg$hdr$dec" >"$out/devglobal/spirv"
printf "\\001\\002dx$hdr$dec" >"$out/devglobal/spirv-old"
printf '\001\002dg\007\043\002\003\000\001\000\000\000\000\000\000\000\000\000\010\000\000\000\000\000\005\000\107\000\000\000\005\000\000\030\054\000\000\000\000\000\000gd' \
	>"$out/devglobal/spirv-big-endian"
printf "\\001\\002zz$hdr$dec" >"$out/devglobal/spirv-absent"
if [ -n "${SPIRV_AS:-}" ] && [ "$SPIRV_AS" != no ] &&
	"$SPIRV_AS" -o "$out/devglobal/globals.spv" \
		"$t/level_zero/globals.spvasm" 2>/dev/null; then
	{ printf '\001\017devimg_test_ptr'; cat "$out/devglobal/globals.spv"; } \
		>"$out/devglobal/globals"
fi
rm -f "$out/devglobal/globals.spv"

# reader: wrapped objects of the fixtures, a shared library, stripped.
WRAP=$top_builddir/devimg-wrap
[ -x "$WRAP" ] || exit 0
w=$(mktemp -d "${TMPDIR:-/tmp}/devimg-seeds.XXXXXX")
trap 'rm -rf "$w"' EXIT
printf '\003\002\043\007\000\000\001\000spirv\n' >"$w/a.spv"
printf '//\n.version 7.0\n.target sm_80\n' >"$w/b.ptx"
printf 'manifest\n' >"$w/m.txt"
"$WRAP" -o "$out/reader/one.o" -kind=sycl -target=spir64 -format=spirv \
	-entries="$t/dispatch/dispatch.sym" "$w/a.spv"
"$WRAP" -o "$out/reader/two.o" -kind=sycl -target=spir64 -format=spirv \
	-entries="$t/props/kernels.sym" \
	-properties="$t/props/spec-example.props" "$w/a.spv" "$w/m.txt" \
	-target=nvptx64 -format=none -entries="$t/dispatch/dispatch.sym" \
	-properties="$t/dispatch/spec.props" "$w/b.ptx"
if $CC -shared -o "$w/lib.so" "$out/reader/two.o" 2>/dev/null; then
	cp "$w/lib.so" "$out/reader/lib.so"
	if strip -o "$w/stripped.so" "$w/lib.so" 2>/dev/null; then
		cp "$w/stripped.so" "$out/reader/stripped.so"
	fi
fi
for f in a b; do
	$CC -c "$t/dump/fixture-$f.s" -o "$out/reader/fixture-$f.o" \
		2>/dev/null || rm -f "$out/reader/fixture-$f.o"
done

# containers: SYCLBIN files from devimg-wrap (the envelope, and the bare
# file inside it at offset 80) and OffloadBinary blobs from mk-offload.
wrap=$top_builddir/devimg-wrap
if [ -x "$wrap" ]; then
	printf '\003\002\043\007 spirv' >"$out/containers/k.spv"
	printf 'k0\nk1\n' >"$out/containers/k.sym"
	printf '[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n' \
		>"$out/containers/k.props"
	"$wrap" -kind=sycl -syclbin=executable -o "$out/containers/envelope" \
		-format=spirv -entries="$out/containers/k.sym" \
		-properties="$out/containers/k.props" "$out/containers/k.spv" \
		-format=native -target=nvptx64-nvidia-cuda \
		"$out/containers/k.spv" &&
		tail -c +81 "$out/containers/envelope" >"$out/containers/bare"
	rm -f "$out/containers/k.spv" "$out/containers/k.sym" \
		"$out/containers/k.props"
fi
mk=$top_builddir/tests/containers/mk-offload
if [ -x "$mk" ]; then
	printf 'image' >"$out/containers/img"
	"$mk" 1 "$out/containers/v1" s cuda nvptx64-nvidia-cuda sm_70 \
		"$out/containers/img"
	"$mk" 3 "$out/containers/v3" spv sycl spir64 - "$out/containers/img" \
		cubin openmp nvptx64-nvidia-cuda sm_80 "$out/containers/img"
	"$mk" 3z "$out/containers/v3z" spv sycl spir64 - \
		"$out/containers/img" >/dev/null || true
	rm -f "$out/containers/img"
fi

# blob: OffloadBinary blobs with SYCL entries in each of the "symbols"
# forms (tests/dump/registered-blobs.sh), one whose table is
# inconsistent, one entry of another producer and one of metadata, and
# the blobs of mk-offload.
mkb=$top_builddir/tests/dump/mk-sycl-blob
printf '\003\002\043\007spirv 0' >"$w/img0.spv"
printf 'BC\300\336bitcode 1' >"$w/img1.bc"
printf '// ptx\n.version 7.0\n' >"$w/a.ptx"
if [ -x "$mkb" ]; then
	"$mkb" 2 "$out/blob/v2" \
		spv sycl spirv64-unknown-unknown table:_ZTS4Fill,_ZTS5Other \
		"$w/img0.spv" bc sycl spir64 lines:k_lines1,k_lines2 "$w/img1.bc" \
		spv sycl spirv64 nul:k_nul "$w/img0.spv" \
		s cuda nvptx64-nvidia-cuda - "$w/a.ptx" \
		spv sycl+meta spirv64 - "$w/img0.spv"
	"$mkb" 1 "$out/blob/v1" 0 sycl spir64 lines:one,two "$w/img0.spv"
	"$mkb" 2 "$out/blob/badtable" spv sycl spir64 badtable "$w/img0.spv" \
		bc sycl spir64 nul:k "$w/img1.bc"
	"$mkb" 2 "$out/blob/no-triple" spv sycl - table:k "$w/img0.spv"
fi
for f in v1 v3 v3z; do
	[ -f "$out/containers/$f" ] && cp "$out/containers/$f" "$out/blob/$f-offload"
done

# bundle: SYCLBIN files in each form (devimg-wrap's envelope, the bare
# file in it, mk-syclbin's, with a native image).
for f in envelope bare; do
	[ -f "$out/containers/$f" ] && cp "$out/containers/$f" "$out/bundle/$f"
done
mks=$top_builddir/tests/containers/mk-syclbin
if [ -x "$mks" ]; then
	"$mks" bare 1 "$out/bundle/mk-bare" "$w/img0.spv" k0,k1
	"$mks" envelope 2 "$out/bundle/mk-envelope" "$w/img0.spv" k0 \
		"$w/a.ptx" nvptx64-nvidia-cuda sm_80
	# Newer writers: multi-entry SYCLBIN (version 2) and many modules.
	"$mks" v2 2 2 1 honest "$out/bundle/mk-v2" 2>/dev/null ||
		rm -f "$out/bundle/mk-v2"
	"$mks" many 64 64 honest "$out/bundle/mk-many" 2>/dev/null ||
		rm -f "$out/bundle/mk-many"
fi

# dump: what devimg-dump reads besides the index: every container above,
# descriptors of LLVM 22's and DPC++'s layouts found by their structure
# (tests/dump/desc-*.c) in an object, a shared library and a stripped
# one, blobs in allocated and excluded SHT_LLVM_OFFLOADING sections, and
# the reader's wrapped objects, one with device globals.
for d in containers blob bundle reader; do
	for f in "$out/$d"/*; do
		[ -f "$f" ] && cp "$f" "$out/dump/$d-$(basename "$f")"
	done
done
for d in llvm dpcpp; do
	if $CC -fPIC -c "$t/dump/desc-$d.c" -o "$out/dump/desc-$d.o" \
		2>/dev/null; then
		$CC -shared "$out/dump/desc-$d.o" -o "$w/desc-$d.so" 2>/dev/null &&
			cp "$w/desc-$d.so" "$out/dump/desc-$d.so" &&
			strip -o "$out/dump/desc-$d-stripped.so" "$w/desc-$d.so" \
				2>/dev/null || true
	else
		rm -f "$out/dump/desc-$d.o"
	fi
done
if [ -f "$out/blob/v2" ]; then
	for fl in a ae; do
		{
			printf '.section .note.GNU-stack,"",@progbits\n'
			echo ".section .llvm.offloading,\"$fl\",@0x6fff4c0b"
			for b in v2 v1 v3z-offload; do
				[ -f "$out/blob/$b" ] &&
					printf '.balign 8\n.incbin "%s"\n' "$out/blob/$b"
			done
		} >"$w/blobs-$fl.s"
		$CC -c "$w/blobs-$fl.s" -o "$out/dump/blobs-$fl.o" 2>/dev/null ||
			rm -f "$out/dump/blobs-$fl.o"
	done
fi
# (tests/dump/globals.sh's values: 4 bytes, 1 with device_image_scope.)
printf '[SYCL/device globals]\ndg_int=2|ABAAAAAAAAABAAAAAAAAAA\ndg_bool=2|ABAAAAAAAAQAAAAABAAAAA\n' \
	>"$w/globals.props"
"$WRAP" -o "$out/dump/globals.o" -kind=sycl -target=spir64 -format=spirv \
	-entries="$t/dispatch/dispatch.sym" -properties="$w/globals.props" \
	"$w/a.spv" 2>/dev/null || rm -f "$out/dump/globals.o"
