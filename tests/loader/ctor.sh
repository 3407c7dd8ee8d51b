#!/bin/sh
# A program linked at build time with wrapped objects: registration runs
# in their priority-1 constructors, before the program's constructors and
# main, with libdevimg as a shared library and linked statically (where
# nothing of libdevimg was initialized by a constructor first).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/loader/lib-loader.sh"

cd "$scratch"
spirv_image one.spv
ptx_image two.ptx
spirv_image three.spv
sym one.sym k_one k_shared
sym two.sym k_shared k_two
sym three.sym k_third
cat >one.props <<'PROPS'
[SYCL/specialization constants]
9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA
[SYCL/specialization constants default values]
all=2|IBAAAAAAAAAFAAAAjBAAAEA
PROPS
wrap w1.o -target=spir64 -format=spirv -entries=one.sym \
	-properties=one.props one.spv
wrap w2.o -target=nvptx64 -format=none -entries=two.sym two.ptx \
	-target=spir64_x86_64 -format=spirv -compile-opts=-O3 \
	-entries=three.sym three.spv

build_prog prog-ctor "$lsrc/prog-ctor.c" w1.o w2.o
./prog-ctor one.spv || fail "prog-ctor (shared libdevimg)"

DEVIMG_TRACE=1 ./prog-ctor one.spv 2>trace.err >/dev/null ||
	fail "prog-ctor with DEVIMG_TRACE=1"
[ "$(grep -c '^libdevimg: registered descriptor' trace.err)" -eq 2 ] ||
	fail "DEVIMG_TRACE=1 did not log both registrations: $(cat trace.err)"
[ "$(grep -c '^libdevimg: unregistered descriptor' trace.err)" -eq 2 ] ||
	fail "DEVIMG_TRACE=1 did not log both unregistrations: $(cat trace.err)"

internal=$top_builddir/loader/.libs/libdevimg-internal.a
props=$top_builddir/props/.libs/libdevimg-props.a
if [ -f "$internal" ] && [ -f "$props" ]; then
	# shellcheck disable=SC2086
	$CC -std=c11 $LOADER_CFLAGS -I"$top_srcdir" -I"$top_srcdir/include" \
		-o prog-ctor-static "$lsrc/prog-ctor.c" w1.o w2.o \
		"$internal" "$props" -ldl $LOADER_LDFLAGS ||
		fail "cannot link prog-ctor with libdevimg-internal.a"
	./prog-ctor-static one.spv || fail "prog-ctor (static libdevimg)"
else
	echo "note: no static libdevimg-internal.a; static link not tried"
fi
