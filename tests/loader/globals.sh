#!/bin/sh
# Device globals of a wrapped shared library, registered by its
# constructor: the "SYCL/device globals" values are the .prop lines of
# sycl-post-link's own device-globals test (completed with zero padding);
# a host variable tied before the library is opened finds its global once
# it is; after dlclose() the record a caller holds is still readable while
# looking the id up fails. A value of the wrong length is logged with the
# image and the property named, and leaves that global out.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/loader/lib-loader.sh"

cd "$scratch"
spirv_image g.spv
sym g.sym kernel_a
cat >g.props <<'PROPS'
[SYCL/device globals]
6da74a122db9f35d____ZL7dg_int1=2|ABAAAAAAAAABAAAAAAAAAA
9d329ad59055e972____ZL8dg_bool3=2|ABAAAAAAAAQAAAAABAAAAA
long=2|gBAAAAAAAAABAAAAAAAAAAAAAAA
PROPS
wrap g-wrap.o -target=spir64 -format=spirv -entries=g.sym \
	-properties=g.props g.spv
# shellcheck disable=SC2086
$CC -std=c11 $LOADER_CFLAGS -fPIC -shared -o libg.so g-wrap.o \
	-L"$LOADER_LIBDIR" -Wl,-rpath,"$LOADER_LIBDIR" -ldevimg \
	$LOADER_LDFLAGS || fail "cannot link libg.so"
build_prog prog-globals "$lsrc/prog-globals.c"

./prog-globals ./libg.so \
	6da74a122db9f35d____ZL7dg_int1 9d329ad59055e972____ZL8dg_bool3 \
	long >out 2>err || fail "prog-globals: $(cat err)"
cat >want <<'OUT'
6da74a122db9f35d____ZL7dg_int1 size 4 scope 0
9d329ad59055e972____ZL8dg_bool3 size 1 scope 1
long: no registered image defines device global 'long'
host variable: 6da74a122db9f35d____ZL7dg_int1
after dlclose: 6da74a122db9f35d____ZL7dg_int1 size 4
6da74a122db9f35d____ZL7dg_int1: no registered image defines device global '6da74a122db9f35d____ZL7dg_int1'
host variable: host address 0x[0-9a-f]* is tied to device global '6da74a122db9f35d____ZL7dg_int1', which no registered image defines
OUT
i=0
while read -r line; do
	i=$((i + 1))
	got=$(sed -n "${i}p" out)
	printf '%s\n' "$got" | grep -qx "$line" ||
		fail "line $i: '$got', expected '$line'; all: $(cat out)"
done <want
[ "$(wc -l <out)" -eq "$i" ] || fail "more output than expected: $(cat out)"
grep -q "image [0-9]* (index 0): set 'SYCL/device globals' property 'long': " err ||
	fail "the bad value was not logged: $(cat err)"
