#!/bin/sh
# Every failure is one line "devimg-wrap: <file>[:line:col]: <reason>" on
# stderr, exit status 1, and leaves no output and no temporary file; an
# existing output stays as it was. An unreadable input (Permission
# denied) is tried only when not root, which says so.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
mkdir in dst adir
rand_file in/a.bin 100
sym_file in/a.sym k
printf '[S]\nfoo\n' >in/noeq.props
printf 'x=1|2\n' >in/noset.props
printf '[S]\nx=2|@@@\n' >in/b64.props
printf '[S]\nx=9|1\n' >in/type.props
printf '[Code]\nin/nosuch.bin\n' >in/rowmissing.txt
printf 'in/a.bin\n' >in/nohead.txt
printf '[Code||Symbols]\nin/a.bin||\n' >in/badcol.txt
printf '[Symbols]\nin/a.sym\n' >in/nocode.txt
printf '[Code|Symbols]\nin/a.bin\n' >in/cells.txt
printf '[Code|Symbols]\n|in/a.sym\n' >in/emptycode.txt
printf '[Code]\n' >in/norows.txt
echo old >dst/keep.o

o="-o dst/w.o"
k=-kind=sycl
# shellcheck disable=SC2086
{
wrap_fails 'in/nosuch.bin: No such file or directory' $o $k in/nosuch.bin
wrap_fails 'adir: cannot read: Is a directory' $o $k adir
wrap_fails 'in/nosuch.sym: No such file or directory' $o $k \
	-entries=in/nosuch.sym in/a.bin
wrap_fails 'adir: cannot read: Is a directory' $o $k -entries=adir in/a.bin
wrap_fails 'in/nosuch.props: No such file or directory' $o $k \
	-properties=in/nosuch.props in/a.bin
wrap_fails 'in/nosuch.mnf: No such file or directory' $o $k \
	in/a.bin in/nosuch.mnf
wrap_fails "in/noeq.props:2:1: missing '='" $o $k \
	-properties=in/noeq.props in/a.bin
wrap_fails 'in/noset.props:1:1: ' $o $k -properties=in/noset.props in/a.bin
wrap_fails 'in/b64.props:2:5: ' $o $k -properties=in/b64.props in/a.bin
wrap_fails 'in/type.props:2:3: ' $o $k -properties=in/type.props in/a.bin
wrap_fails 'in/nohead.txt:1:1: ' $o $k -batch in/nohead.txt
wrap_fails 'in/badcol.txt:1:7: ' $o $k -batch in/badcol.txt
wrap_fails 'in/nocode.txt:1: .*no Code column' $o $k -batch in/nocode.txt
wrap_fails 'in/cells.txt:2:1: ' $o $k -batch in/cells.txt
wrap_fails 'in/emptycode.txt:2: image file name missing' $o $k \
	-batch in/emptycode.txt
wrap_fails 'in/nosuch.bin: No such file or directory (in/rowmissing.txt:2)' \
	$o $k -batch in/rowmissing.txt
wrap_fails 'in/nosuch.txt: No such file or directory' $o $k \
	-batch in/nosuch.txt
wrap_fails "in/a.sym:1:1: missing table header" $o $k \
	-batch in/norows.txt in/a.sym
wrap_usage_fails "-emit-reg-funcs=no: 'no' is not a boolean" $o $k \
	-emit-reg-funcs=no in/a.bin
wrap_usage_fails "-desc-name=: the descriptor name is empty" $o $k -desc-name= \
	in/a.bin
wrap_usage_fails "-image-version=4: unknown image version '4'" $o $k \
	-image-version=4 in/a.bin
wrap_usage_fails "-fpreview-breaking-changes: conflicts with -image-version=2" \
	$o $k -image-version=2 -fpreview-breaking-changes in/a.bin
wrap_fails "in/a.bin: a manifest cannot go into a version 3 image (given -fpreview-breaking-changes)" \
	$o $k -fpreview-breaking-changes in/a.bin in/a.sym
wrap_usage_fails "-kind=unknown: offload kind 'unknown' sets no offload model" $o \
	-kind=unknown in/a.bin
wrap_usage_fails "-format=spv: unknown image format 'spv'" $o $k -format=spv \
	in/a.bin
wrap_usage_fails "-kind=cuda: unknown offload kind 'cuda'" $o -kind=cuda in/a.bin
wrap_usage_fails "in/a.bin: no offload kind given" $o in/a.bin
wrap_usage_fails "-host=x86_64-pc-windows-msvc: unsupported host (x86_64 or aarch64 Linux: devimg-wrap writes ELF only)" $o $k \
	-host=x86_64-pc-windows-msvc in/a.bin
wrap_usage_fails "-host=riscv64-linux-gnu: unsupported host" $o $k \
	-host=riscv64-linux-gnu in/a.bin
wrap_fails "dst/nodir/w.o: cannot create a temporary file" \
	-o dst/nodir/w.o $k in/a.bin
wrap_usage_fails "no input images given" $o $k
wrap_usage_fails "no output file given" $k in/a.bin
wrap_usage_fails "-frobnicate: unknown option" $o $k -frobnicate in/a.bin
wrap_usage_fails "-o: missing value" $k in/a.bin -o
wrap_usage_fails "in/a.bin: too many inputs for one image" $o $k \
	in/a.bin in/a.sym in/a.bin
}
# The output is a directory: rename fails after the object was written.
mkdir dst/dir.o
expect_fail '^devimg-wrap: dst/dir.o: ' "$WRAP" -o dst/dir.o -kind=sycl in/a.bin
[ "$(ls -A dst | sort | tr '\n' ' ')" = "dir.o keep.o " ] ||
	fail "left behind: $(ls -A dst)"
# A file it may not read (root may read any: the case needs another user).
if [ "$(id -u)" != 0 ]; then
	rand_file in/locked.bin 10
	chmod 000 in/locked.bin
	wrap_fails 'in/locked.bin: Permission denied' -o dst/w.o -kind=sycl \
		in/locked.bin
else
	echo "# not as root: an unreadable input (mode 000), which root reads, is not tried"
fi
echo PASS
