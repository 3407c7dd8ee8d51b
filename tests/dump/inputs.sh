#!/bin/sh
# devimg-dump reads regular files only, within a size limit: a device, a
# FIFO, a socket, a directory, a /proc file or a huge sparse file, as an
# ELF input, a --props input or an --extract input, is a one-line error
# naming the file and its kind (not "empty file", not a hang), exit 1,
# nothing on stdout and nothing extracted.
. "$top_srcdir/tests/lib.sh"

dump=$top_builddir/devimg-dump
[ -x "$dump" ] || skip "devimg-dump is not built"

cd "$scratch"
mkdir adir img
mkfifo fifo
set -- /proc/self/status 'not a regular file (proc file system)' \
	/dev/zero 'not a regular file (character device)' \
	/dev/null 'not a regular file (character device)' \
	fifo 'not a regular file (FIFO)' \
	adir 'Is a directory'
if command -v python3 >/dev/null 2>&1 &&
	python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' sock 2>/dev/null; then
	set -- "$@" sock 'not a regular file (socket)'
else
	echo "note: no socket case (python3 cannot make one)"
fi
if truncate -s 100G huge 2>/dev/null; then
	set -- "$@" huge 'too large (107374182400 bytes, at most'
else
	echo "note: no huge sparse file here"
fi
printf '[S]\nx=1|2\n' >ok.props
while [ $# -gt 0 ]; do
	f=$1 why=$2
	shift 2
	for mode in "" --json --props "--props --json" "--extract img"; do
		# shellcheck disable=SC2086
		expect_fail "^devimg-dump: $f: cannot read: $why" \
			timeout 10 "$dump" $mode "$f"
		[ ! -s "$scratch/out" ] ||
			fail "$mode $f: stdout: $(cat "$scratch/out")"
	done
	# After a good input, the bad one still fails the run.
	expect_fail "^devimg-dump: $f: cannot read: $why" \
		timeout 10 "$dump" --props ok.props "$f"
done
[ -z "$(ls -A img)" ] || fail "extracted: $(ls -A img)"
exit 0
