#!/bin/sh
# The size limits of the files the tools read (docs/limits.md), each at
# the limit and one byte past it, on sparse files: DEVIMG_LIMIT_TEXT_FILE
# (1 GiB: a .sym, read whole), DEVIMG_LIMIT_IMAGE_FILE (16 GiB: an image,
# copied into the object) and DEVIMG_LIMIT_OBJECT_FILE (64 GiB: what
# devimg-dump maps). One byte past: "too large" with both sizes, before
# anything is read or written. At the limit the size is let through and
# the next step fails on its own: the .sym's first byte (a NUL), the
# object's write (past a file size limit set here), the ELF magic.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
mkdir dst
echo old >dst/keep.o
rand_file a.bin 100
G=1073741824

truncate -s $G at.sym && truncate -s $((G + 1)) past.sym ||
	fail "cannot make sparse files in $scratch"
wrap_fails "at.sym:1:1: NUL byte in text" \
	-o dst/w.o -kind=sycl -entries=at.sym a.bin
wrap_fails "past.sym: cannot read: too large (1073741825 bytes, at most 1073741824)" \
	-o dst/w.o -kind=sycl -entries=past.sym a.bin
rm -f at.sym past.sym

truncate -s $((16 * G)) at.bin || fail "cannot make a 16 GiB sparse file"
(
	trap '' XFSZ
	ulimit -f 4096
	exec "$WRAP" -o dst/w.o -kind=sycl at.bin
) >out 2>err && fail "a 16 GiB image was written under a 2 MiB file limit"
grep -q "^devimg-wrap: dst/w.o: File too large$" err ||
	fail "16 GiB image: $(cat err)"
[ "$(ls -A dst)" = keep.o ] || fail "a failed write left $(ls -A dst)"
truncate -s $((16 * G + 1)) at.bin
wrap_fails "at.bin: cannot read: too large (17179869185 bytes, at most 17179869184)" \
	-o dst/w.o -kind=sycl at.bin
rm -f at.bin

truncate -s $((64 * G)) big.o || fail "cannot make a 64 GiB sparse file"
expect_fail "big.o: not an ELF file" "$top_builddir/devimg-dump" big.o
truncate -s $((64 * G + 1)) big.o
expect_fail "big.o: cannot read: too large (68719476737 bytes, at most 68719476736)" \
	"$top_builddir/devimg-dump" big.o
rm -f big.o
[ "$(ls -A dst)" = keep.o ] || fail "a refused command wrote $(ls -A dst)"
echo PASS
