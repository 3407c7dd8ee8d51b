#!/bin/sh
# devimg-dump reads regular files only, within a size limit: a device, a
# FIFO, a socket, a directory, a /proc file or a huge sparse file, as an
# ELF input, a --props input or an --extract input, is a one-line error
# naming the file and its kind (not "empty file", not a hang), exit 1,
# nothing on stdout and nothing extracted. Every case runs: perl makes
# the socket (the test skips without perl) and a failing truncate fails.
. "$top_srcdir/tests/lib.sh"

dump=$top_builddir/devimg-dump
[ -x "$dump" ] || skip build "devimg-dump is not built"

cd "$scratch"
mkdir adir img
mkfifo fifo
set -- /proc/self/status 'not a regular file (proc file system)' \
	/dev/zero 'not a regular file (character device)' \
	/dev/null 'not a regular file (character device)' \
	fifo 'not a regular file (FIFO)' \
	adir 'Is a directory'
# A UNIX socket, from perl (perl-base, Essential on Debian, holds
# IO::Socket::UNIX); a sparse 100 GiB file, from coreutils' truncate.
command -v perl >/dev/null 2>&1 || skip tools "perl not found (it makes the socket)"
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => $ARGV[0])
	or die "cannot bind $ARGV[0]: $!\n"' sock 2>sock.err ||
	fail "perl cannot make a UNIX socket: $(cat sock.err)"
[ -S sock ] || fail "perl made no socket sock"
set -- "$@" sock 'not a regular file (socket)'
truncate -s 100G huge 2>huge.err ||
	fail "truncate -s 100G (a sparse file) failed: $(cat huge.err)"
set -- "$@" huge 'too large (107374182400 bytes, at most'
printf '[S]\nx=1|2\n' >ok.props
while [ $# -gt 0 ]; do
	f=$1 why=$2
	shift 2
	for mode in "" --json --props "--props --json" "--extract img"; do
		# shellcheck disable=SC2086
		expect_fail "^devimg-dump: $f: cannot read: $why" \
			timeout 10 "$dump" $mode "$f"
		case $mode in
		*--json*) failed_file_json "$scratch/out" "$scratch/err" "$f" ;;
		*) [ ! -s "$scratch/out" ] ||
			fail "$mode $f: stdout: $(cat "$scratch/out")" ;;
		esac
	done
	# After a good input, the bad one still fails the run.
	expect_fail "^devimg-dump: $f: cannot read: $why" \
		timeout 10 "$dump" --props ok.props "$f"
done
[ -z "$(ls -A img)" ] || fail "extracted: $(ls -A img)"
exit 0
