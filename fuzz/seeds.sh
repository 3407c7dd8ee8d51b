#!/bin/sh
# seeds.sh OUTDIR: seed corpora of the fuzz harnesses, made from the test
# fixtures: OUTDIR/<harness>/ for props, bytes, sym, table, reader and
# descriptor. Needs top_srcdir and top_builddir (as make check sets them);
# the ELF seeds also need devimg-wrap and $CC, and are left out without.
set -eu
out=$1
: "${top_srcdir:?}" "${top_builddir:?}"
: "${CC:=cc}"
t=$top_srcdir/tests
for h in props bytes sym table reader descriptor introspect containers; do
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
