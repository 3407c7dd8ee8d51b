#!/bin/sh
# What devimg-wrap writes, devimg-dump reads back as given: targets,
# formats, options, manifests, sizes, entries from the .sym files, property
# sets as --props decodes the .props files (spec constants with padding,
# defaults, uint32, an empty set). The same from the object, a
# non-PIE executable, a PIE, a stripped PIE, a shared library and an
# aarch64 object; two wrapped objects in one binary continue the index;
# --extract gives the images back byte for byte.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

command -v strip >/dev/null 2>&1 || skip tools "strip not found"
wrap=$top_builddir/devimg-wrap
[ -x "$wrap" ] || skip build "devimg-wrap is not built"
cd "$scratch"

# Inputs. Byte arrays are LSB-first base64 (docs/formats.md section 2).
printf '\003\002\043\007\000\005\001\000spirv-ish body' >i0.spv
printf '//\n// test\n.version 7.0\n.target sm_80\n' >i1.ptx
printf 'manifest "text"\n' >i1.manifest
printf 'BC\300\336\065\024\000\000bitcode-ish' >i2.bc
printf 'kernel_a\nkernel_b\n' >k0.sym
printf 'ptx_kernel\n' >k1.sym
printf '_ZTS6kernel\n_ZTS7kernel2\n_ZTS7kernel3\n' >k2.sym
# Struct {0,0,8}, bool {1,0,1}, composite {2,0,4} pad {-1,4,4} {3,8,8};
# defaults 14000000 63000000 | 01 | 07000000 00000000 0100000000000000.
# reqd_work_group_size {4, 1, 1}.
cat >p0.props <<'PROPS'
[SYCL/specialization constants]
9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA
9d329ad59055e972____ZL9CompositeId=2|gEAAAAAAAAgAAAAAAAAAAQAAAAw/////EAAAAQAAAAwAAAAAIAAAAgAAAAA
[SYCL/specialization constants default values]
all=2|IDAAAAAAAAAFAAAAjBAAAEwBAAAAAAAAAEAAAAAAAAAA
[SYCL/kernel param opt]
kernel_a=2|DAAAAAAAAAQB
[SYCL/misc properties]
optLevel=1|2
PROPS
cat >p2.props <<'PROPS'
[Empty]
[SYCL/devicelib req mask]
DeviceLibReqMask=1|4294967295
[SYCL/program metadata]
_ZTS6kernel@reqd_work_group_size=2|gBAAAAAAAAABAAAABAAAAEAAAAA
PROPS

"$wrap" -o w1.o -kind=sycl \
	-target=spir64 -format=spirv '-compile-opts=-O2 -g' \
	-entries=k0.sym -properties=p0.props i0.spv \
	-target=nvptx64 -format=native -compile-opts= -link-opts=-cl-opt \
	-entries=k1.sym -properties= i1.ptx i1.manifest ||
	fail "devimg-wrap w1.o failed"
"$wrap" -o w2.o -kind=sycl -target=spir64_x86_64 -format=llvmbc \
	'-compile-opts=-DX="a b" \q' -entries=k2.sym -properties=p2.props \
	i2.bc || fail "devimg-wrap w2.o failed"

# want_image INDEX TARGET FORMAT COPTS LOPTS MANIFEST|- IMAGE SYM PROPS|-
want_image() {
	if [ "$6" = - ]; then man=null; else man=$(jq -Rs . "$6"); fi
	if [ "$9" = - ]; then
		sets='[]'
	else
		sets=$("$dump" --props --json "$9" | jq -c .files[0].property_sets) ||
			fail "--props $9"
	fi
	jq -n --argjson index "$1" --arg target "$2" --arg format "$3" \
		--arg copts "$4" --arg lopts "$5" --argjson manifest "$man" \
		--argjson size "$(wc -c <"$7")" \
		--argjson entries "$(jq -Rsc 'split("\n") | map(select(. != ""))' "$8")" \
		--argjson sets "$sets" \
		'{index: $index, version: 2, kind: "sycl", format: $format,
		  target: $target, compile_options: $copts, link_options: $lopts,
		  manifest: $manifest, size: $size, entries: $entries,
		  property_sets: $sets}'
}

{
	want_image 0 spir64 spirv "-O2 -g" "" - i0.spv k0.sym p0.props
	want_image 1 nvptx64 native "" -cl-opt i1.manifest i1.ptx k1.sym -
	want_image 2 spir64_x86_64 llvmbc '-DX="a b" \q' "" - i2.bc k2.sym p2.props
} | jq -s -S '{images: .}' >want-all.json
jq -S '.images |= .[0:2]' want-all.json >want-w1.json
jq -S '.images |= (.[2:3] | map(.index = 0))' want-all.json >want-w2.json

# json FILE: devimg-dump --json FILE without the file name, keys sorted.
json() {
	"$dump" --json "$1" >"$1.json" &&
	one_file_json "$1.json" || fail "devimg-dump --json $1 failed"
	jq -S 'del(.file)' "$1.json"
}

# same WANT FILE: FILE's dump is WANT.
same() {
	json "$2" >"$2.got"
	cmp -s "$1" "$2.got" || fail "$2: $(diff "$1" "$2.got" | head -30)"
}

same want-w1.json w1.o
same want-w2.json w2.o

# The same images in an aarch64 object (R_AARCH64_PREL64).
"$wrap" -o w1-a64.o -host=aarch64-linux-gnu -kind=sycl \
	-target=spir64 -format=spirv '-compile-opts=-O2 -g' \
	-entries=k0.sym -properties=p0.props i0.spv \
	-target=nvptx64 -format=native -compile-opts= -link-opts=-cl-opt \
	-entries=k1.sym -properties= i1.ptx i1.manifest ||
	fail "devimg-wrap -host=aarch64-linux-gnu failed"
same want-w1.json w1-a64.o

# Linked: the wrappers' constructors call these.
cat >main.c <<'C'
void __sycl_register_lib(void *d);
void __sycl_unregister_lib(void *d);
void __sycl_register_lib(void *d) { (void)d; }
void __sycl_unregister_lib(void *d) { (void)d; }
int main(void) { return 0; }
C
$CC -no-pie main.c w1.o w2.o -o exe 2>link.err ||
	fail "cannot link devimg-wrap's output w1.o w2.o into a non-PIE executable: $(cat link.err)"
$CC -fPIE -pie main.c w1.o w2.o -o pie || fail "cannot link a PIE"
strip --strip-all -o stripped pie || fail "strip failed"
$CC -shared w1.o w2.o -o lib.so || fail "cannot link a shared library"
./exe || fail "the executable does not run"
for f in exe pie stripped lib.so; do
	same want-all.json $f
done

# Decoded values, spelled out rather than taken from --props.
check() {
	[ "$(jq -c "$1" exe.json)" = "$2" ] ||
		fail "exe: $1 is $(jq -c "$1" exe.json), expected $2"
}
sc='.images[0].property_sets[0].properties'
check "${sc}[0].descriptors" '[{"id":0,"offset":0,"size":8}]'
check "${sc}[1].descriptors" '[{"id":1,"offset":0,"size":1}]'
check "${sc}[2].descriptors" \
	'[{"id":2,"offset":0,"size":4},{"id":4294967295,"offset":4,"size":4},{"id":3,"offset":8,"size":8}]'
check '.images[0].property_sets[1].properties[0] | [.value, .bits]' \
	'["14000000630000000107000000000000000100000000000000",200]'
check '.images[0].property_sets[2].properties[0] | [.value, .bits, has("descriptors")]' \
	'["05",3,false]'
check '.images[0].property_sets[3].properties | map(.value)' '[2]'
check '.images[2].property_sets[0]' '{"name":"Empty","properties":[]}'
check '.images[2].property_sets[1].properties[0].value' 4294967295
# Launch metadata read back decoded from the linked file.
check '.images[0].property_sets[2].properties[0] | [.arguments, .eliminated]' \
	'[3,[0,2]]'
check '.images[2].property_sets[2].properties[0].work_group_size' '[4,1,1]'

mkdir img
"$dump" --extract img stripped >names || fail "--extract failed"
cmp img/stripped.0.spir64.spv i0.spv || fail "image 0 differs"
cmp img/stripped.1.nvptx64.ptx i1.ptx || fail "image 1 differs"
cmp img/stripped.2.spir64_x86_64.bc i2.bc || fail "image 2 differs"
[ "$(wc -l <names)" -eq 3 ] || fail "names: $(cat names)"
exit 0
