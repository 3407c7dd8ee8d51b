#!/bin/sh
# The plugin folder follows the prefix: configure a build of this tree
# with one prefix and compile the plugin loader, configure it again with
# another and make the same object: it is rebuilt (paths.h, made from the
# Makefile, changed), and holds the new folder, not the old one. (With
# the folder a -D flag of the Makefile, the second make did nothing and
# the library kept searching the first prefix's folder.)
. "$top_srcdir/tests/lib.sh"

obj=loader/backend/libdevimg_plugins_la-plugins.lo
# The distributed files, copied: the source tree may be configured in
# place (the README's ./configure), and then no other build can use it.
make -s -C "$top_builddir" distdir distdir="$scratch/src" \
	top_distdir="$scratch/src" >"$scratch/distdir.log" 2>&1 ||
	fail "make distdir: $(tail -n 5 "$scratch/distdir.log")"
top_srcdir=$scratch/src
cd "$scratch"
mkdir b
cd b
folders() {
	strings -a loader/backend/.libs/libdevimg_plugins_la-plugins.o |
		grep "^$scratch/p[12]/" | sort -u | tr '\n' ' '
}
"$top_srcdir/configure" -C --prefix="$scratch/p1" >cfg1.log 2>&1 ||
	fail "configure --prefix=$scratch/p1: $(tail -n 5 cfg1.log)"
make paths.h $obj >make1.log 2>&1 || fail "make $obj: $(tail -n 5 make1.log)"
[ "$(folders)" = "$scratch/p1/lib/devimg/plugins " ] ||
	fail "first prefix: the object names '$(folders)'"
"$top_srcdir/configure" -C --prefix="$scratch/p2" >cfg2.log 2>&1 ||
	fail "configure --prefix=$scratch/p2: $(tail -n 5 cfg2.log)"
make $obj >make2.log 2>&1 || fail "make $obj again: $(tail -n 5 make2.log)"
grep -q "plugins.lo" make2.log || fail "not rebuilt: $(cat make2.log)"
[ "$(folders)" = "$scratch/p2/lib/devimg/plugins " ] ||
	fail "second prefix: the object names '$(folders)'"
# and nothing more when nothing changed
make $obj >make3.log 2>&1 || fail "make $obj a third time"
! grep -q "plugins.lo" make3.log || fail "rebuilt for nothing: $(cat make3.log)"
echo PASS
