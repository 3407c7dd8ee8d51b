#!/bin/sh
# Every file devimg-wrap reads (image, manifest, -entries, -properties,
# batch table and the files its rows name) must be a regular file within
# its size limit: a device, FIFO, socket, directory, /proc file or huge
# sparse file is a one-line error naming the file and its kind, never a
# hang, an endless read or a 0-byte image; exit status 1, no output left.
# Every case runs: perl makes the socket (the test skips without perl)
# and a failing truncate fails.
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
# A UNIX socket, from perl (perl-base, Essential on Debian, holds
# IO::Socket::UNIX); a sparse 100 GiB file, from coreutils' truncate.
command -v perl >/dev/null 2>&1 || skip tools "perl not found (it makes the socket)"
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => $ARGV[0])
	or die "cannot bind $ARGV[0]: $!\n"' in/sock 2>in/sock.err ||
	fail "perl cannot make a UNIX socket: $(cat in/sock.err)"
[ -S in/sock ] || fail "perl made no socket in/sock"
set -- "$@" in/sock 'not a regular file (socket)'
truncate -s 100G in/huge 2>in/huge.err ||
	fail "truncate -s 100G (a sparse file) failed: $(cat in/huge.err)"
set -- "$@" in/huge 'too large (107374182400 bytes, at most'

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
