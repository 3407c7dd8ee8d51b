#!/bin/bash
# Build the Debian packages of this tree and check them; for CI, not part
# of make check (it takes a full build and test run).
#
#   tests/pkg/deb-build.sh [OUTDIR]
#
# Copies the tree (git's tracked and untracked, not ignored, files; or the
# whole folder of an unpacked tarball) into a scratch folder, so nothing
# is generated in the source tree, runs dpkg-buildpackage -us -uc -b there
# (DEB_BUILD_OPTIONS is passed on: nocheck skips make check), then:
#  - lintian on the .changes: no errors (warnings are shown);
#  - the changelog's version is configure.ac's;
#  - each package holds what it should (the SONAME, headers, .pc, man
#    pages with one page or link per function, the tools, one plugin each);
#  - unpacked together, a program compiled with their pkg-config file
#    links and runs, the tools print their version, devimg-ls binds the
#    packaged plugins.
# The packages, .changes and lintian output are copied to OUTDIR if given.
# Exit 77 when dpkg-buildpackage is not installed (Debian: dpkg-dev,
# debhelper, dh-autoreconf, lintian).
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
outdir=${1:-}

skip() {
	echo "SKIP [$1]: $2"
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

section() {
	printf '\n==== %s ====\n' "$*"
}

command -v dpkg-buildpackage >/dev/null 2>&1 ||
	skip tools "dpkg-buildpackage not found (Debian: dpkg-dev debhelper)"
command -v dpkg-parsechangelog >/dev/null 2>&1 ||
	skip tools "dpkg-parsechangelog not found (Debian: dpkg-dev)"
[ -f "$src/debian/control" ] || fail "no debian/ in $src"

work=$(mktemp -d "${TMPDIR:-/tmp}/devimg-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
upstream=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' \
	"$src/configure.ac")
[ "$version" = "$upstream" ] ||
	fail "debian/changelog is at $version, configure.ac at $upstream: add a changelog entry (dch -v $upstream)"

section "copy of the tree in $work/devimg-$version"
tree=$work/devimg-$version
mkdir -p "$tree"
# Build folders (a config.status at their top, like CI's _ci) stay out.
builddirs=$(cd "$src" && for d in */; do
	[ -f "$d/config.status" ] && printf '%s\n' "${d%/}"
done || true)
# And so does OUTDIR when it is inside the tree.
if [ -n "$outdir" ]; then
	out_abs=$(realpath -m "$outdir")
	case $out_abs in
	"$src"/*) builddirs="$builddirs ${out_abs#"$src"/}" ;;
	esac
fi
in_builddir() {
	local d
	for d in $builddirs; do
		case $1 in "$d"/*) return 0 ;; esac
	done
	return 1
}
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$src" ls-files -z -c -o --exclude-standard |
		while IFS= read -r -d '' f; do
			# Tracked files deleted in the working tree are not copied.
			[ -e "$src/$f" ] || [ -L "$src/$f" ] || continue
			in_builddir "$f" && continue
			printf '%s\0' "$f"
		done |
		tar -C "$src" --null -T - -cf - | tar -C "$tree" -xf -
else
	excludes=()
	for d in $builddirs; do
		excludes+=("--exclude=./$d")
	done
	tar -C "$src" "${excludes[@]}" -cf - . | tar -C "$tree" -xf -
	[ -z "$builddirs" ] || echo "left out: $builddirs"
fi
echo "$(find "$tree" -type f | wc -l) files"

section "dpkg-buildpackage -us -uc -b"
case " ${DEB_BUILD_OPTIONS:-} " in
*" parallel="*) ;;
*) export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc)" ;;
esac
echo "DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS"
(cd "$tree" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 || {
	tail -150 "$work/build.log"
	if [ -n "$outdir" ]; then
		mkdir -p "$outdir" && cp "$work/build.log" "$outdir"/
	fi
	fail "dpkg-buildpackage failed (the end of its log is above; with OUTDIR, the whole log is there)"
}
grep -E '^((SKIP|FAIL|ERROR|XPASS): |# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR)|dpkg-genchanges|dpkg-gensymbols)' \
	"$work/build.log" || true
changes=$(ls "$work"/devimg_"$version"_*.changes)

section "lintian"
lintian_rc=0
TMPDIR=$work lintian --fail-on error --display-info --tag-display-limit 0 "$changes" \
	>"$work/lintian.txt" 2>&1 || lintian_rc=$?
cat "$work/lintian.txt"
[ "$lintian_rc" -eq 0 ] || fail "lintian reports errors"
echo "lintian: $(grep -c '^E:' "$work/lintian.txt" || true) errors, $(grep -c '^W:' "$work/lintian.txt" || true) warnings, $(grep -c '^I:' "$work/lintian.txt" || true) notes"

section "contents"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
deb() {
	echo "$work/${1}_${version}_$arch.deb"
}
for p in libdevimg0 libdevimg-dev devimg-tools devimg-plugin-opencl \
	devimg-plugin-level-zero devimg-plugin-cuda; do
	[ -f "$(deb "$p")" ] || fail "package $p was not built"
	echo "--- $p: $(dpkg-deb -f "$(deb "$p")" Depends)"
	dpkg-deb -c "$(deb "$p")" |
		awk '$6 !~ /\/$/ && $6 !~ /usr\/share\/doc\// {
			line = substr($6, 2)
			if ($7 == "->") line = line " -> " $8
			print "  " line
		}'
done

has() {
	dpkg-deb -c "$(deb "$1")" | awk '{ print $6 }' >"$work/list"
	grep -qx "./$2" "$work/list" || fail "$1 lacks /$2"
}
soname=$(objdump -p "$tree"/loader/.libs/libdevimg.so | sed -n 's/ *SONAME *//p')
[ "$soname" = libdevimg.so.0 ] ||
	fail "the SONAME is $soname: rename libdevimg0 (and its symbols file)"
has libdevimg0 "usr/lib/$triplet/$soname"
has libdevimg-dev "usr/lib/$triplet/libdevimg.so"
has libdevimg-dev "usr/lib/$triplet/pkgconfig/libdevimg.pc"
has libdevimg-dev usr/include/devimg/devimg.h
has libdevimg-dev usr/include/devimg/descriptor.h
has libdevimg-dev usr/share/man/man3/devimg.3.gz
# the documents the tools cite, dump-json.md among them; README beside
has libdevimg-dev usr/share/doc/devimg/docs/dump-json.md
has libdevimg-dev usr/share/doc/devimg/docs/formats.md
has libdevimg-dev usr/share/doc/devimg/README.md
for t in wrap dump ls; do
	has devimg-tools "usr/bin/devimg-$t"
	has devimg-tools "usr/share/man/man1/devimg-$t.1.gz"
done
has devimg-plugin-opencl "usr/lib/$triplet/devimg/plugins/devimg-opencl.so"
has devimg-plugin-level-zero "usr/lib/$triplet/devimg/plugins/devimg-level_zero.so"
has devimg-plugin-cuda "usr/lib/$triplet/devimg/plugins/devimg-cuda.so"

section "unpacked together"
root=$work/root
mkdir -p "$root"
for f in "$work"/*.deb; do
	dpkg-deb -x "$f" "$root"
done
libdir=$root/usr/lib/$triplet
plugindir=$libdir/devimg/plugins

# Every public function's man page is there, as a page or a link.
man3=$root/usr/share/man/man3
n=0
for fn in $(sed -n 's/^ \([^ @]*\)@.*/\1/p' "$src/debian/libdevimg0.symbols"); do
	case $fn in DEVIMG_*) continue ;; esac
	[ -e "$man3/$fn.3.gz" ] || fail "no man page for $fn in libdevimg-dev"
	n=$((n + 1))
done
echo "man pages: $n functions"
LC_ALL=C.UTF-8 MANPATH=$root/usr/share/man man -w devimg_ctx_ref >/dev/null 2>&1 ||
	echo "note: man -w cannot resolve devimg_ctx_ref here (no man-db?)"

# A program built against the packaged headers, .pc and library.
cat >"$work/smoke.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <devimg/devimg.h>

int main(void)
{
	size_t n = 99;

	if (devimg_registry_images(NULL, 0, &n) || n != 0)
		return 1;
	printf("smoke: libdevimg from the packages: -ENOENT is \"%s\"\n",
	       devimg_strerror(-ENOENT));
	return devimg_registry_status();
}
EOF
pcflags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$libdir/pkgconfig \
	pkg-config --cflags --libs libdevimg) || fail "pkg-config libdevimg fails"
echo "pkg-config: $pcflags"
# shellcheck disable=SC2086
cc -o "$work/smoke" "$work/smoke.c" $pcflags || fail "cannot build against the packages"
LD_LIBRARY_PATH=$libdir "$work/smoke" || fail "the program built against the packages fails"

for t in wrap dump ls; do
	LD_LIBRARY_PATH=$libdir "$root/usr/bin/devimg-$t" --version ||
		fail "devimg-$t --version fails"
done
mkdir -p "$work/pocl"
POCL_CACHE_DIR=$work/pocl DEVIMG_TRACE=1 DEVIMG_PLUGIN_PATH=$plugindir \
	LD_LIBRARY_PATH=$libdir "$root/usr/bin/devimg-ls" -v \
	>"$work/ls.out" 2>"$work/ls.err" || fail "devimg-ls fails: $(cat "$work/ls.err")"
cat "$work/ls.out"
grep -q "bound opencl from $plugindir/devimg-opencl.so" "$work/ls.err" ||
	fail "devimg-ls did not bind the packaged OpenCL plugin: $(cat "$work/ls.err")"

if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	cp "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo \
		"$work/lintian.txt" "$work/build.log" "$outdir"/
	echo "packages in $outdir"
fi
echo "PASS: $(ls "$work"/*.deb | grep -vc -- '-dbgsym_') packages (and their -dbgsym) of devimg $version"
