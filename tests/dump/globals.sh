#!/bin/sh
# devimg-dump decodes the "SYCL/device globals" set (docs/formats.md
# section 6) wherever it shows property sets: in a wrapped object and in a
# .props file, as text ("size N, image scope yes|no") and as JSON ("size",
# "image_scope"). The values are sycl-post-link's: the first two are the
# .prop lines its own device-globals test prints (completed with zero
# padding), the third has padding bytes a5 5a ff, which are not read. A
# value of another length or with a flag other than 0 or 1 is shown raw
# with the reason, and the dump still succeeds, as for launch metadata.
. "$top_srcdir/tests/lib.sh"
wrap=$top_builddir/devimg-wrap
dump=$top_builddir/devimg-dump
[ -x "$wrap" ] && [ -x "$dump" ] || skip build "devimg-wrap or devimg-dump is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
cd "$scratch"

# wrap_globals OBJECT PROPS: a SPIR-V-looking image with one kernel.
wrap_globals() {
	printf '\003\002\043\007\000\005\001\000spirv-ish body' >i.spv
	echo kernel_a >k.sym
	"$wrap" -o "$1" -kind=sycl -target=spir64 -format=spirv \
		-entries=k.sym -properties="$2" i.spv ||
		fail "devimg-wrap $1 failed"
}

cat >g.props <<'PROPS'
[SYCL/device globals]
6da74a122db9f35d____ZL7dg_int1=2|ABAAAAAAAAABAAAAAAAAAA
9d329ad59055e972____ZL8dg_bool3=2|ABAAAAAAAAQAAAAABAAAAA
dda2bad52c45c432____ZL6dg_big=2|ABAAAAAAAAAABAAABUqW/D
PROPS
wrap_globals g.o g.props

cat >want <<'TEXT'
    [SYCL/device globals]
      6da74a122db9f35d____ZL7dg_int1 = size 4, image scope no
      9d329ad59055e972____ZL8dg_bool3 = size 1, image scope yes
      dda2bad52c45c432____ZL6dg_big = size 256, image scope yes
TEXT
"$dump" g.o >text || fail "devimg-dump g.o failed"
grep -A3 '^    \[SYCL/device globals\]$' text >got || fail "no set in: $(cat text)"
cmp -s want got || fail "object text: $(diff want got)"
"$dump" --props g.props >text || fail "devimg-dump --props g.props failed"
grep -A3 '^    \[SYCL/device globals\]$' text >got || fail "no set in: $(cat text)"
cmp -s want got || fail "--props text: $(diff want got)"

"$dump" --json g.o >g.json &&
	one_file_json g.json || fail "devimg-dump --json g.o failed"
got=$(jq -c '.images[0].property_sets[] | select(.name == "SYCL/device globals")
	| .properties | map([.name, .size, .image_scope])' g.json) ||
	fail "g.json: $(cat g.json)"
[ "$got" = '[["6da74a122db9f35d____ZL7dg_int1",4,false],["9d329ad59055e972____ZL8dg_bool3",1,true],["dda2bad52c45c432____ZL6dg_big",256,true]]' ] ||
	fail "JSON globals: $got"

# A 12-byte payload (bit count 96, consistent) and a flag of 2.
cat >bad.props <<'PROPS'
[SYCL/device globals]
long=2|gBAAAAAAAAABAAAAAAAAAAAAAAA
flag=2|ABAAAAAAAAABAAAACAAAAA
PROPS
wrap_globals bad.o bad.props
"$dump" bad.o >text || fail "devimg-dump bad.o failed"
grep -qx "      long = 0400000000000000 00000000 (96 bits) \[cannot decode: set 'SYCL/device globals' property 'long': device global value: length: saw 20 bytes, expected 16 (8-byte bit count, uint32 size, uint8 device_image_scope, 3 padding bytes)\]" text ||
	fail "long value: $(cat text)"
grep -qx "      flag = 0400000002000000 (64 bits) \[cannot decode: set 'SYCL/device globals' property 'flag': device global value: device_image_scope flag: saw 2, expected 0 or 1\]" text ||
	fail "flag value: $(cat text)"
"$dump" --json bad.o >bad.json &&
	one_file_json bad.json || fail "devimg-dump --json bad.o failed"
got=$(jq -r '.images[0].property_sets[] | select(.name == "SYCL/device globals")
	| .properties[1] | [has("size"), .decode_error] | @tsv' bad.json)
[ "$got" = "false	set 'SYCL/device globals' property 'flag': device global value: device_image_scope flag: saw 2, expected 0 or 1" ] ||
	fail "JSON decode_error: $got"
exit 0
