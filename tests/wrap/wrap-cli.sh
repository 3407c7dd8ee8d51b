#!/bin/sh
# The command line as DPC++'s clang-offload-wrapper reads it: per-image
# options hold until given again (-entries= and -properties= with an empty
# value drop them), an image may be followed by its manifest, options in
# "-opt=value", "-opt value" and "--opt=value" form; --help, --version, -v;
# the host triple picks the machine.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

build_registrar
build_mkprops
cd "$scratch"

rand_file a.bin 100
rand_file b.bin 200
rand_file c.bin 300
rand_file d.bin 400
sym_file a.sym ka1 ka2
gen_props 3 p
printf 'the manifest\n' >a.mnf

"$WRAP" --help >help.out || fail "--help failed"
grep -q '^Usage: devimg-wrap' help.out || fail "--help: $(cat help.out)"
"$WRAP" --version >version.out || fail "--version failed"
grep -q '^devimg-wrap (devimg) [0-9]' version.out ||
	fail "--version: $(cat version.out)"

# Persistence: b.bin inherits everything but the format it changes; c.bin
# drops entries and properties; -v between an image and its manifest does
# not separate them (it is not a per-image option).
"$WRAP" -o w.o -kind sycl -target=spir64 --format=spirv \
	-compile-opts "-g -O0" -link-opts=-lm -entries=a.sym -properties=p.props \
	a.bin -v a.mnf \
	-format=native b.bin \
	-entries= -properties= -target nvptx64 c.bin \
	2>verbose.out || fail "devimg-wrap failed: $(cat verbose.out)"
grep -q '^devimg-wrap: image 2: c.bin' verbose.out ||
	fail "-v does not say what it wrote: $(cat verbose.out)"
grep -q '__CLANG_OFFLOAD_BUNDLE__sycl-nvptx64  offset' verbose.out ||
	fail "-v does not list the sections: $(cat verbose.out)"
expect_reset
expect 0 a.bin spirv spir64 "-g -O0" -lm a.sym p.pjson a.mnf
expect 1 b.bin native spir64 "-g -O0" -lm a.sym p.pjson -
expect 2 c.bin native nvptx64 "-g -O0" -lm - - -
run_linked persist "-no-pie" w.o

# Without -target and -format: "" and none.
"$WRAP" -o w2.o -kind=sycl d.bin || fail "defaults failed"
expect_reset
expect 0 d.bin none "" "" "" - - -
run_linked defaults "-no-pie" w2.o

# Hosts.
machine() {
	readelf -h "$1" | sed -n 's/^ *Machine: *//p'
}
for h in x86_64 x86_64-linux-gnu x86_64-pc-linux-gnu \
	x86_64-unknown-linux-gnu; do
	"$WRAP" -o h.o -host=$h -kind=sycl a.bin || fail "-host=$h failed"
	machine h.o | grep -q 'X86-64' || fail "-host=$h: $(machine h.o)"
done
"$WRAP" -o x.o -kind=sycl a.bin || fail "no -host failed"
machine x.o | grep -q 'X86-64' || fail "default host: $(machine x.o)"
"$WRAP" -o arm.o -host aarch64-linux-gnu -kind=sycl a.bin ||
	fail "-host=aarch64-linux-gnu failed"
machine arm.o | grep -q 'AArch64' || fail "aarch64: $(machine arm.o)"
elflint arm.o

# The output gets the permissions a new file would get.
umask 022
"$WRAP" -o mode.o -kind=sycl a.bin || fail "mode.o"
[ "$(stat -c %a mode.o)" = 644 ] || fail "mode $(stat -c %a mode.o)"
echo PASS
