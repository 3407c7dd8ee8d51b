#!/bin/sh
# Every file devimg-wrap reads (image, manifest, -entries, -properties,
# batch table and the files its rows name) must be a regular file within
# its size limit: a device, FIFO, socket, directory, /proc file or huge
# sparse file is a one-line error naming the file and its kind, never a
# hang, an endless read or a 0-byte image; exit status 1, no output left.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
mkdir in dst adir
rand_file in/a.bin 100
sym_file in/a.sym k
printf '[S]\nx=1|2\n' >in/p.props
echo old >dst/keep.o
mkfifo in/fifo
# Nothing must wait on the FIFO: a writer that gives up makes a
# blocking reader of old see end of file instead of hanging forever.

# Special files: name, then the kind the error must give.
set -- /proc/self/status 'not a regular file (proc file system)' \
	/dev/zero 'not a regular file (character device)' \
	/dev/null 'not a regular file (character device)' \
	in/fifo 'not a regular file (FIFO)' \
	adir 'Is a directory'
if command -v python3 >/dev/null 2>&1 &&
	python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' in/sock 2>/dev/null; then
	set -- "$@" in/sock 'not a regular file (socket)'
else
	echo "note: no socket case (python3 cannot make one)"
fi
if truncate -s 100G in/huge 2>/dev/null; then
	set -- "$@" in/huge 'too large (107374182400 bytes, at most'
else
	echo "note: no huge sparse file here"
fi

o="-o dst/w.o"
k=-kind=sycl
while [ $# -gt 0 ]; do
	f=$1 why=$2
	shift 2
	echo "# $f"
	# shellcheck disable=SC2086
	{
	wrap_fails "$f: cannot read: $why" $o $k "$f"
	wrap_fails "$f: cannot read: $why" $o $k in/a.bin "$f"
	wrap_fails "$f: cannot read: $why" $o $k -entries="$f" in/a.bin
	wrap_fails "$f: cannot read: $why" $o $k -properties="$f" in/a.bin
	wrap_fails "$f: cannot read: $why" $o $k -batch "$f"
	for col in Code Symbols Properties Manifest; do
		if [ $col = Code ]; then
			printf '[Code]\n%s\n' "$f" >in/t.txt
		else
			printf '[Code|%s]\nin/a.bin|%s\n' $col "$f" >in/t.txt
		fi
		wrap_fails "$f: cannot read: $why.*(in/t.txt:2)" $o $k \
			-batch in/t.txt
	done
	}
done
echo PASS
