#!/bin/sh
# Which plugins start when: under a selector, the files named for a
# backend it names no device of are not opened (their init never runs);
# a context starts the others in order as far as the device asked for,
# and those left, when all are wanted, at once, each init on a thread of
# its own; they bind in file order. The plugins are copies of the fake plugin named for two
# backends, each writing a marker file when its init starts.
. "$top_srcdir/tests/lib.sh"

fake=$top_builddir/tests/plugins/.libs/devimg-fake.so
[ -f "$fake" ] || fail "$fake not built"
list=$top_builddir/tests/plugins/plugin-list
LS=$top_builddir/devimg-ls

mkdir -p "$scratch/plugins" "$scratch/marks"
cp "$fake" "$scratch/plugins/devimg-opencl.so"
cp "$fake" "$scratch/plugins/devimg-cuda.so"
DEVIMG_TEST_FAKE=device
DEVIMG_TEST_FAKE_MARKS=$scratch/marks
DEVIMG_PLUGIN_PATH=$scratch/plugins
export DEVIMG_TEST_FAKE DEVIMG_TEST_FAKE_MARKS DEVIMG_PLUGIN_PATH
unset DEVIMG_DEVICE_SELECTOR DEVIMG_TEST_FAKE_WAIT || :

# run [SELECTOR]: plugin-list at trace level 1, the markers cleared first.
run() {
	rm -f "$scratch/marks/"*
	if [ $# -gt 0 ]; then
		DEVIMG_DEVICE_SELECTOR=$1 DEVIMG_TRACE=1 "$list" \
			>"$scratch/out" 2>"$scratch/err"
	else
		DEVIMG_TRACE=1 "$list" >"$scratch/out" 2>"$scratch/err"
	fi || fail "plugin-list failed: $(cat "$scratch/err")"
}
expect_out() {
	[ "$(cat "$scratch/out")" = "$1" ] ||
		fail "bound: '$(cat "$scratch/out")', expected '$1'; trace: $(cat "$scratch/err")"
}
expect_started() {
	[ "$(cd "$scratch/marks" && ls)" = "$1" ] ||
		fail "inits started: '$(cd "$scratch/marks" && ls)', expected '$1'"
}
expect_trace() {
	grep -q -- "$1" "$scratch/err" ||
		fail "no trace line matching '$1' in: $(cat "$scratch/err")"
}
p=$scratch/plugins
both="cuda $p/devimg-cuda.so
opencl $p/devimg-opencl.so"

# A selector naming one backend: the other file is never opened.
run 'opencl:*'
expect_out "opencl $p/devimg-opencl.so"
expect_started "opencl.started"
expect_trace "^libdevimg: plugins: skipping $p/devimg-cuda.so: DEVIMG_DEVICE_SELECTOR names no cuda device$"
run 'CUDA:0;!cuda:cpu'
expect_out "cuda $p/devimg-cuda.so"
expect_started "cuda.started"
expect_trace "skipping $p/devimg-opencl.so: DEVIMG_DEVICE_SELECTOR names no opencl device$"
# Discarding terms alone: only a backend all of whose roots go is closed.
run '!cuda:*'
expect_out "opencl $p/devimg-opencl.so"
expect_started "opencl.started"
run '!cuda:0'
expect_out "$both"
# A plugin whose backend is not the one its file name says binds as
# before whatever the selector names, and the trace says so.
mkdir -p "$scratch/misnamed"
cp "$fake" "$scratch/misnamed/devimg-level_zero.so"
DEVIMG_TEST_FAKE_MARKS= DEVIMG_PLUGIN_PATH=$scratch/misnamed run 'level_zero:*'
expect_out "fake $scratch/misnamed/devimg-level_zero.so"
expect_trace "^libdevimg: plugins: $scratch/misnamed/devimg-level_zero.so gives backend fake, not the level_zero of its name: bound whatever DEVIMG_DEVICE_SELECTOR names$"
# "*" and no selector open every file.
run '*:gpu'
expect_out "$both"
run
expect_out "$both"
expect_started "cuda.started
opencl.started"

# The inits run at once: each waits (30 s at most) until both started,
# which fails the one that runs first if they run one after the other.
DEVIMG_TEST_FAKE_WAIT=2
export DEVIMG_TEST_FAKE_WAIT
run
expect_out "$both"
! grep -q "timed out" "$scratch/err" || fail "inits ran one after the other: $(cat "$scratch/err")"
# The traces keep the files' order.
grep "^libdevimg: plugins: bound" "$scratch/err" >"$scratch/bound"
[ "$(cat "$scratch/bound")" = "libdevimg: plugins: bound cuda from $p/devimg-cuda.so (ABI 1)
libdevimg: plugins: bound opencl from $p/devimg-opencl.so (ABI 1)" ] ||
	fail "bound lines out of order: $(cat "$scratch/err")"

# A context goes through the plugins only as far as the device asked
# for: its first device starts the first plugin alone, the second device
# the next plugin; counting the devices starts the rest.
unset DEVIMG_TEST_FAKE_WAIT
printf '#!/bin/sh\necho "$1:" $(cd "%s" && ls)\n' "$scratch/marks" \
	>"$scratch/marks.sh"
chmod +x "$scratch/marks.sh"
# first [SELECTOR] OP...: first-device's lines, what started after each.
first() {
	rm -f "$scratch/marks/"*
	FIRST_DEVICE_AFTER_EACH=$scratch/marks.sh DEVIMG_DEVICE_SELECTOR=$1
	export FIRST_DEVICE_AFTER_EACH DEVIMG_DEVICE_SELECTOR
	shift
	"$top_builddir/tests/plugins/first-device" "$@" >"$scratch/out" \
		2>"$scratch/err" || fail "first-device $*: $(cat "$scratch/err")"
	unset FIRST_DEVICE_AFTER_EACH DEVIMG_DEVICE_SELECTOR
}
expect_first() {
	[ "$(cat "$scratch/out")" = "$1" ] ||
		fail "first-device: '$(cat "$scratch/out")', expected '$1'"
}
first '' get:0 get:1 get:2 count
expect_first "new: cuda.started
get:0 cuda
get:0: cuda.started
get:1 opencl
get:1: cuda.started opencl.started
get:2 none
get:2: cuda.started opencl.started
count 2
count: cuda.started opencl.started"
first '' count get:1
expect_first "new: cuda.started
count 2
count: cuda.started opencl.started
get:1 opencl
get:1: cuda.started opencl.started"
# The first plugin keeps no device (the fake's is a CPU): on to the next.
first 'cuda:gpu;opencl:*' get:0 count
expect_first "new: cuda.started opencl.started
get:0 opencl
get:0: cuda.started opencl.started
count 1
count: cuda.started opencl.started"

# Inside a dlopen(), whose lock vendor libraries need to start (the
# fake's dladdr() takes it), the inits run one after the other: a
# library whose constructor makes a context still gets both devices.
unset DEVIMG_TEST_FAKE_WAIT
rm -f "$scratch/marks/"*
timeout 60 "$top_builddir/tests/plugins/open-module" \
	"$top_builddir/tests/plugins/.libs/ctx-in-ctor.so" >"$scratch/out" 2>"$scratch/err" ||
	fail "opening a library whose constructor makes a context: exit $?: $(cat "$scratch/out" "$scratch/err")"
[ "$(cat "$scratch/out")" = "ctor: 0 2
opened" ] || fail "context in a constructor: $(cat "$scratch/out" "$scratch/err")"
expect_started "cuda.started
opencl.started"
DEVIMG_TEST_FAKE_WAIT=2
export DEVIMG_TEST_FAKE_WAIT

# The API: devimg-ls lists the plugins in file order and a device of
# each; under a selector the other plugin's init never runs.
[ -x "$LS" ] || skip build "devimg-ls is not built"
# ls_plugins [SELECTOR]: the plugin lines and the count of device lines.
ls_plugins() {
	rm -f "$scratch/marks/"*
	if [ $# -gt 0 ]; then
		DEVIMG_DEVICE_SELECTOR=$1 "$LS" -v >"$scratch/out" 2>"$scratch/err"
	else
		"$LS" -v >"$scratch/out" 2>"$scratch/err"
	fi || fail "devimg-ls: $(cat "$scratch/err")"
	grep '^plugins: \|^  ' "$scratch/out" >"$scratch/ls"
	grep -c '^\[[a-z_]*:[0-9]*\] cpu, devimg fake device,' "$scratch/out" >>"$scratch/ls"
}
ls_plugins
[ "$(cat "$scratch/ls")" = "plugins: 2
  cuda: $p/devimg-cuda.so
  opencl: $p/devimg-opencl.so
2" ] || fail "devimg-ls: $(cat "$scratch/out" "$scratch/err")"
unset DEVIMG_TEST_FAKE_WAIT
ls_plugins 'cuda:*'
[ "$(cat "$scratch/ls")" = "plugins: 1
  cuda: $p/devimg-cuda.so
1" ] || fail "devimg-ls under cuda:*: $(cat "$scratch/out" "$scratch/err")"
expect_started "cuda.started"

# A selector outside the grammar opens every file; devimg_ctx_new()
# reports it.
rm -f "$scratch/marks/"*
! DEVIMG_DEVICE_SELECTOR='ocl:*' "$LS" >"$scratch/out" 2>"$scratch/err" ||
	fail "devimg-ls took DEVIMG_DEVICE_SELECTOR=ocl:*"
grep -q "unknown backend 'ocl'" "$scratch/err" ||
	fail "devimg-ls under ocl:*: $(cat "$scratch/err")"
expect_started "cuda.started
opencl.started"
