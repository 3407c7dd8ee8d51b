#!/bin/sh
# The plugin interface as installed: make install into a scratch DESTDIR,
# build tests/plugins/fake-plugin.c out of the tree with only what
# `pkg-config --cflags libdevimg` gives (<devimg/devimg_plugin.h>), and
# list its device through the installed libdevimg and devimg-ls, found by
# DEVIMG_PLUGIN_PATH. Every plugin the build made (OpenCL, Level Zero,
# CUDA, as configure found them) is installed in the folder the plugindir
# variable of libdevimg.pc names.
. "$top_srcdir/tests/lib.sh"

command -v pkg-config >/dev/null 2>&1 || skip tools "no pkg-config"
dest=$scratch/dest
${MAKE:-make} -C "$top_builddir" install DESTDIR="$dest" \
	>"$scratch/install.log" 2>&1 ||
	fail "make install failed: $(tail -20 "$scratch/install.log")"

pc=$(find "$dest" -name libdevimg.pc)
[ -n "$pc" ] || fail "no libdevimg.pc installed under $dest"
PKG_CONFIG_PATH=${pc%/*}
PKG_CONFIG_LIBDIR=${pc%/*}
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
var() {
	PKG_CONFIG_SYSROOT_DIR= pkg-config --variable="$1" libdevimg ||
		fail "pkg-config --variable=$1 libdevimg failed"
}
includedir=$(var includedir)
libdir=$(var libdir)
plugindir=$(var plugindir)
[ -n "$plugindir" ] || fail "libdevimg.pc has no plugindir"

# The header installed is the tree's, where the Cflags point.
cmp "$dest$includedir/devimg/devimg_plugin.h" \
	"$top_srcdir/plugins/devimg_plugin.h" ||
	fail "devimg/devimg_plugin.h not installed as plugins/devimg_plugin.h"
cflags=$(pkg-config --cflags libdevimg) || fail "pkg-config --cflags failed"
case " $cflags " in
*" -I$dest$includedir "*) ;;
*) fail "Cflags '$cflags' do not name $dest$includedir" ;;
esac
# Every plugin this build made (which ones depends on configure) is
# installed in plugindir; the test says which.
built=
for p in "$top_builddir"/plugins/.libs/devimg-*.so; do
	[ -f "$p" ] || continue
	[ -f "$dest$plugindir/${p##*/}" ] ||
		fail "${p##*/} not installed in plugindir $plugindir"
	built="$built ${p##*/}"
done
echo "# plugins built and installed in $plugindir:${built:- none}"

# A plugin out of the tree: no -I of the tree, the installed header only.
mkdir -p "$scratch/oot"
# shellcheck disable=SC2086 # Cflags are words
${CC:-cc} -std=c11 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
	-DDEVIMG_FAKE_INSTALLED $cflags -o "$scratch/oot/devimg-fake.so" \
	"$top_srcdir/tests/plugins/fake-plugin.c" 2>"$scratch/cc.err" ||
	fail "the plugin does not build against the installed header: $(cat "$scratch/cc.err")"

ls=$(find "$dest" -name devimg-ls -type f)
[ -n "$ls" ] || fail "no devimg-ls installed"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
LD_LIBRARY_PATH=$dest$libdir DEVIMG_PLUGIN_PATH=$scratch/oot \
DEVIMG_TEST_FAKE=device "$ls" -v >"$scratch/out" 2>"$scratch/err" ||
	fail "devimg-ls failed: $(cat "$scratch/err")"
grep -q "^  fake: $scratch/oot/devimg-fake.so$" "$scratch/out" ||
	fail "the plugin was not bound: $(cat "$scratch/out" "$scratch/err")"
grep -q "^\[[a-z_]*:[0-9]*\] cpu, devimg fake device, 1, formats: spirv," \
	"$scratch/out" ||
	fail "its device was not listed: $(cat "$scratch/out")"
