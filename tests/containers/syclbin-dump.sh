#!/bin/sh
# devimg-wrap --syclbin writes what devimg-dump then shows as the images
# DPC++'s runtime makes of a SYCLBIN; a SYCLBIN laid out independently as
# the runtime writes it (mk-syclbin), bare and in its envelope, shows the
# same; images extract byte for byte; bad files and command lines are
# one-line errors.
. "$top_srcdir/tests/lib.sh"
dump=$top_builddir/devimg-dump
wrap=$top_builddir/devimg-wrap
mk=$top_builddir/tests/containers/mk-syclbin
[ -x "$dump" ] && [ -x "$wrap" ] || skip build "devimg-dump or devimg-wrap not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
cd "$scratch"

printf '\003\002\043\007 some SPIR-V' >k.spv
printf '\177ELF native' >k.bin
printf 'vadd\nvscale\n' >k.sym
cat >k.props <<'PROPS'
[SYCL/device requirements]
aspects=2|AAAAAAAAAAA
[SYCL/misc properties]
optLevel=1|2
PROPS
printf '[SYCL/device requirements]\ncompile_target=2|oAAAAAAAAAwct9FOwA\n' >n.props

"$wrap" -kind=sycl -syclbin=object -o a.syclbin \
	-format=spirv -target=spir64 -entries=k.sym -properties=k.props k.spv \
	-format=native -target=nvptx64-nvidia-cuda -entries=k.sym \
	-properties=n.props k.bin || fail "devimg-wrap --syclbin failed"
# the envelope DPC++'s runtime reads: OffloadBinary version 2, kind 7
[ "$(od -An -tx1 -N8 a.syclbin | tr -d ' ')" = 10ff10ad02000000 ] ||
	fail "not an OffloadBinary version 2: $(od -An -tx1 -N8 a.syclbin)"
[ "$(od -An -tu2 -j32 -N4 a.syclbin | tr -s ' ')" = " 7 8" ] ||
	fail "entry kinds: $(od -An -tu2 -j32 -N4 a.syclbin)"

"$dump" a.syclbin | grep -v 'bytes at file offset' >text ||
	fail "dump a.syclbin failed"
cat >want <<'TEXT'
a.syclbin: 2 device images
image 0:
  kind:            sycl
  format:          spirv
  version:         2
  target:          "spir64"
  compile options: ""
  link options:    ""
  manifest:        none
  entries:         2
    vadd
    vscale
  property sets:   3
    [SYCL/device requirements]
      aspects = none
    [SYCL/misc properties]
      optLevel = 2
    [SYCL/kernel names]
      vadd = 1
      vscale = 1
image 1:
  kind:            sycl
  format:          native
  version:         2
  target:          "nvptx64"
  compile options: ""
  link options:    ""
  manifest:        none
  entries:         2
    vadd
    vscale
  property sets:   2
    [SYCL/device requirements]
      compile_target = 736d5f3830 (40 bits)
    [SYCL/kernel names]
      vadd = 1
      vscale = 1
a.syclbin: SYCLBIN version 1 (OffloadBinary envelope), state object, 2 abstract modules
TEXT
cmp -s want text || fail "text: $(diff want text)"

"$dump" --json a.syclbin >a.json &&
	one_file_json a.json || fail "--json failed"
[ "$(jq -c .syclbin a.json)" = \
  '{"version":1,"form":"envelope","state":"object","abstract_modules":2}' ] ||
	fail "syclbin JSON: $(jq -c .syclbin a.json)"
[ "$(jq -c '[.images[] | [.format, .target, .size, .entries]]' a.json)" = \
  '[["spirv","spir64",16,["vadd","vscale"]],["native","nvptx64",11,["vadd","vscale"]]]' ] ||
	fail "images JSON: $(jq -c '.images' a.json)"

mkdir x
"$dump" --extract x a.syclbin >/dev/null || fail "--extract failed"
cmp k.spv x/a.syclbin.0.spir64.spv || fail "IR module bytes differ"
cmp k.bin x/a.syclbin.1.nvptx64.bin || fail "native image bytes differ"

# The same images from the independent writer, bare and in the envelope.
"$wrap" -kind=sycl -syclbin=executable -o w.syclbin -format=spirv \
	-target=spir64 -entries=k.sym k.spv -format=native \
	-target=nvptx64-nvidia-cuda -entries= -properties=n.props k.bin ||
	fail "devimg-wrap --syclbin failed"
"$dump" --json w.syclbin | jq -c '.files[0] | .images | map(del(.index))' >w.img
for form in bare envelope; do
	"$mk" $form 2 $form.syclbin k.spv vadd,vscale k.bin \
		nvptx64-nvidia-cuda sm_80 || fail "mk-syclbin $form"
	"$dump" --json $form.syclbin >$form.json &&
	one_file_json $form.json || fail "dump $form failed"
	jq -c '.images | map(del(.index))' $form.json >$form.img
	# the fixture gives the native image the module's kernel names and
	# no device requirements; the IR module must match exactly
	[ "$(jq -c '.[0]' $form.img)" = "$(jq -c '.[0]' w.img)" ] ||
		fail "$form: IR module $(jq -c '.[0]' $form.img)"
	[ "$(jq -c '.[1] | [.format, .target, .size]' $form.img)" = \
	  '["native","nvptx64",11]' ] || fail "$form: native $(jq -c '.[1]' $form.img)"
	[ "$(jq -r .syclbin.state $form.json)" = executable ] ||
		fail "$form: state $(jq -c .syclbin $form.json)"
done
[ "$(jq -r .syclbin.form bare.json)" = bare ] || fail "bare form"

# Bad files.
head -c 100 a.syclbin >short.syclbin
expect_fail "short.syclbin: OffloadBinary Size" "$dump" short.syclbin
head -c 100 bare.syclbin >short-bare.syclbin
expect_fail "short-bare.syclbin: SYCLBIN header tables" "$dump" short-bare.syclbin
cp bare.syclbin v9.syclbin
printf '\011' | dd of=v9.syclbin bs=1 seek=4 conv=notrunc 2>/dev/null
expect_fail "v9.syclbin: SYCLBIN version 9 not supported" "$dump" v9.syclbin
cp bare.syclbin big.syclbin
printf '\377\377\377' | dd of=big.syclbin bs=1 seek=112 conv=notrunc 2>/dev/null
expect_fail "big.syclbin: SYCLBIN abstract module 0 IR module 0 bytes" \
	"$dump" big.syclbin

# Modules sharing one large metadata range 300 times: what they reference
# (330 MB, 660 MB) is refused, nothing printed; 16 times is read, every
# module showing the shared metadata's kernels.
"$mk" v2 300 300 100000 share-am,share-ir shared-v2.syclbin &&
	"$mk" many 300 300 share-ir,fat shared-bare.syclbin &&
	"$mk" v2 16 16 100000 share-am,share-ir v2-16.syclbin ||
	fail "mk-syclbin shared"
expect_fail "shared-v2.syclbin: OffloadBinary entry [0-9]*: the entries' \
images and strings, counted once for each entry naming them, come to more \
than 16 times the blob's [0-9]* bytes" "$dump" shared-v2.syclbin
[ ! -s "$scratch/out" ] || fail "shared-v2: output for a refused file"
expect_fail "shared-bare.syclbin: SYCLBIN abstract module [0-9]*: the \
metadata and images of the modules up to it, counted once for each module \
or image naming them, come to more than 16 times the file's [0-9]* bytes" \
	"$dump" shared-bare.syclbin
[ ! -s "$scratch/out" ] || fail "shared-bare: output for a refused file"
"$dump" --json v2-16.syclbin >v2-16.json &&
	one_file_json v2-16.json || fail "dump v2-16 failed"
[ "$(jq '[.images[] | .entries | length] | add' v2-16.json)" = 1600000 ] ||
	fail "v2-16: $(jq -c '[.images[] | .entries | length]' v2-16.json)"

# Bad command lines.
expect_fail "unknown SYCLBIN state 'linked'" \
	"$wrap" -kind=sycl -syclbin=linked -o z.syclbin -format=spirv k.spv
expect_fail "k.spv: --syclbin takes -format=spirv" \
	"$wrap" -kind=sycl -syclbin=input -o z.syclbin -format=llvmbc k.spv
expect_fail "k.spv: --syclbin: a SYCLBIN has no place" \
	"$wrap" -kind=sycl -syclbin=input -o z.syclbin -format=spirv \
	-compile-opts=-O3 k.spv
expect_fail "k.bin: --syclbin: a native image needs its -target" \
	"$wrap" -kind=sycl -syclbin=input -o z.syclbin -format=native k.bin
expect_fail "k.bin: --syclbin takes SYCL images only" \
	"$wrap" -kind=openmp -syclbin=input -o z.syclbin -target=x86_64 k.bin
[ ! -e z.syclbin ] || fail "a refused command wrote z.syclbin"

# No -target: an IR module for spir64.
"$wrap" -kind=sycl -syclbin=input -o t.syclbin -format=spirv k.spv ||
	fail "devimg-wrap --syclbin without -target failed"
"$dump" --json t.syclbin | jq -c '.files[0] | .images[0] | [.format, .target]' >t.img
[ "$(cat t.img)" = '["spirv","spir64"]' ] || fail "no -target: $(cat t.img)"
exit 0
