#!/bin/sh
# Plugin discovery: plugins whose vendor library is missing, whose init
# fails, that speak another ABI, lack operations, repeat a backend or are
# shadowed are skipped with a trace line, never an error; level 2 traces
# calls; DEVIMG_DEVICE_SELECTOR filters devices and reports bad terms.
. "$top_srcdir/tests/lib.sh"

fake=$top_builddir/tests/plugins/.libs/devimg-fake.so
opencl=$top_builddir/plugins/.libs/devimg-opencl.so
[ -f "$fake" ] || fail "$fake not built"
list=$top_builddir/tests/plugins/plugin-list

# A plugin linked against a vendor library that is gone at run time.
mkdir -p "$scratch/vendor" "$scratch/plugins" "$scratch/shadow" "$scratch/dup"
cat >"$scratch/vendor.c" <<'SRC'
int devimg_test_vendor_call(void) { return 0; }
SRC
cat >"$scratch/vanished.c" <<'SRC'
int devimg_test_vendor_call(void);
int devimg_plugin_init(unsigned abi, void *ops) { (void)abi; (void)ops; return devimg_test_vendor_call(); }
SRC
${CC:-cc} -shared -fPIC -o "$scratch/vendor/libdevimg-test-vanished.so" "$scratch/vendor.c" ||
	fail "cannot build the fake vendor library"
${CC:-cc} -shared -fPIC -Wl,--no-as-needed -o "$scratch/plugins/devimg-vanished.so" \
	"$scratch/vanished.c" -L"$scratch/vendor" -ldevimg-test-vanished ||
	fail "cannot build the plugin of the vanished vendor"
rm -f "$scratch/vendor/libdevimg-test-vanished.so"
# Files that are not plugins by name are not even tried.
cp "$scratch/plugins/devimg-vanished.so" "$scratch/plugins/libdevimg-other.so"

# run MODE PATH [LEVEL [ARG]]: plugin-list with DEVIMG_TEST_FAKE=MODE,
# trace level LEVEL (1). Its failure (an exit, a signal) fails the test
# with its stderr, and so does a line of its output that is neither a
# bound plugin ("backend FILE"), a device ("backend:N type name") nor an
# operation's answer ("backend: op = rc: message").
run() {
	run_rc=0
	DEVIMG_TEST_FAKE=$1 DEVIMG_PLUGIN_PATH=$2 DEVIMG_TRACE=${3:-1} \
		"$list" ${4:-} >"$scratch/out" 2>"$scratch/err" || run_rc=$?
	[ "$run_rc" -le 128 ] ||
		fail "plugin-list died of signal $((run_rc - 128)): $(cat "$scratch/err")"
	[ "$run_rc" -eq 0 ] ||
		fail "plugin-list exited $run_rc: $(cat "$scratch/err")"
	! grep -Evq '^([a-z_]+ .*/devimg-[a-z0-9_]+\.so|[a-z_]+:[0-9]+ (cpu|gpu|accelerator|unknown) .*|[a-z_]+: program_(compile|link) = -?[0-9]+: .*)$' \
		"$scratch/out" ||
		fail "plugin-list printed what does not parse: $(cat "$scratch/out" "$scratch/err")"
}
expect_trace() {
	grep -q -- "$1" "$scratch/err" ||
		fail "no trace line matching '$1' in: $(cat "$scratch/err")"
}
expect_bound() {
	grep -q -- "$1" "$scratch/out" ||
		fail "'$1' not bound: $(cat "$scratch/out") $(cat "$scratch/err")"
}
expect_not_bound() {
	! grep -q -- "$1" "$scratch/out" ||
		fail "'$1' bound: $(cat "$scratch/out")"
}

path=$scratch/plugins:$top_builddir/tests/plugins/.libs
run fail "$path"
expect_trace "^libdevimg: plugins: skipping $scratch/plugins/devimg-vanished.so: cannot load: libdevimg-test-vanished.so: cannot open shared object file"
expect_trace "^libdevimg: plugins: skipping .*/devimg-fake.so: devimg_plugin_init failed: No such device (-19): fake vendor library reports no devices"
! grep -q "libdevimg-other" "$scratch/err" || fail "a file not named devimg-*.so was tried"
expect_not_bound fake
expect_not_bound vanished

# The installed folder (paths.h, from the configured prefix): searched
# last, or left out with DEVIMG_PLUGIN_PATH_ONLY=1, the suite's setting.
plugindir=$(sed -n 's/^#define PLUGINDIR "\(.*\)"$/\1/p' "$top_builddir/paths.h")
[ -n "$plugindir" ] || fail "no PLUGINDIR in $top_builddir/paths.h"
[ "$DEVIMG_PLUGIN_PATH_ONLY" = 1 ] || fail "the suite does not set DEVIMG_PLUGIN_PATH_ONLY=1"
expect_trace "^libdevimg: plugins: the installed folder $plugindir left out (DEVIMG_PLUGIN_PATH_ONLY)$"
! grep -q "search[a-z]* $plugindir" "$scratch/err" ||
	fail "the installed folder was searched: $(cat "$scratch/err")"
for only in 0 ''; do
	DEVIMG_PLUGIN_PATH_ONLY=$only
	run fail "$path"
	expect_trace "^libdevimg: plugins: \(searching\|cannot search\) $plugindir"
	! grep -q "left out" "$scratch/err" || fail "left out with '$only'"
done
DEVIMG_PLUGIN_PATH_ONLY=1

run abi "$path"
expect_trace "skipping .*/devimg-fake.so: ABI version 99, the loader speaks 1"
run partial "$path"
expect_trace "skipping .*/devimg-fake.so: no platform_list in its operation table"
expect_not_bound fake

# The table's rule: below the minimum size the plugin is refused, naming
# the first operation it lacks; at the minimum it binds, and the optional
# operations past it are -ENOTSUP from the loader, which names them.
run tiny "$path"
expect_trace "skipping .*/devimg-fake.so: operation table of [0-9]* bytes stops before launch, at least [0-9]* expected"
expect_not_bound fake
run short "$path" 1 --link
expect_bound "^fake $top_builddir/tests/plugins/.libs/devimg-fake.so"
fake_file=$top_builddir/tests/plugins/.libs/devimg-fake.so
expect_bound "^fake: program_compile = -95: the fake plugin ($fake_file) has no program_compile operation$"
expect_bound "^fake: program_link = -95: the fake plugin ($fake_file) has no program_link operation$"
# Level 2 traces the loader's answer like a plugin's.
run short "$path" 2 --link
expect_trace "^libdevimg: fake: program_compile(prog=(nil), options=\"\") = -95 (Operation not supported): the fake plugin ($fake_file) has no program_compile operation$"
# The whole table: the plugin's own answers.
run device "$path" 1 --link
expect_bound "^fake: program_compile = -95: fake: no program_compile$"
expect_bound "^fake: program_link = -95: fake: no program_link$"

# An earlier folder's file shadows the same name in a later folder.
cp "$fake" "$scratch/shadow/devimg-fake.so"
run fail "$scratch/shadow:$top_builddir/tests/plugins/.libs"
expect_trace "skipping $top_builddir/tests/plugins/.libs/devimg-fake.so: shadowed by a devimg-fake.so found earlier"

# Missing folders are traced, not fatal; nothing quiet without tracing.
run fail "$scratch/nowhere" 0
[ ! -s "$scratch/err" ] || fail "trace output at level 0: $(cat "$scratch/err")"
run fail "$scratch/nowhere"
expect_trace "cannot search $scratch/nowhere: No such file or directory"

[ -f "$opencl" ] || skip opencl "OpenCL plugin not built; the rest needs it"

# The real plugin binds beside the skipped ones; a second file with the
# same backend is skipped.
mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export POCL_CACHE_DIR LSAN_OPTIONS
cp "$opencl" "$scratch/dup/devimg-opencl2.so"
run fail "$path:$top_builddir/plugins/.libs:$scratch/dup"
expect_bound "^opencl $top_builddir/plugins/.libs/devimg-opencl.so"
expect_trace "bound opencl from $top_builddir/plugins/.libs/devimg-opencl.so (ABI 1)"
expect_trace "skipping $scratch/dup/devimg-opencl2.so: backend opencl already bound"

# Level 2: every call through the loader, with arguments and results.
run fail "$top_builddir/plugins/.libs" 2 --devices
expect_trace "^libdevimg: opencl: platform_list(capacity=8) -> count=[0-9]* = 0"
if grep -q "opencl: platform_list.*count=0 = 0" "$scratch/err"; then
	skip opencl-device "no OpenCL platform for the device listing"
fi
expect_trace "^libdevimg: opencl: device_list(platform=0x[0-9a-f]*, capacity=32) -> count=[0-9]* = 0"

# The selector filters what the listing shows, and names bad terms.
grep -q "^opencl:[0-9]* cpu " "$scratch/out" || skip opencl-device "no OpenCL CPU device"
select_devices() {
	DEVIMG_DEVICE_SELECTOR=$1
	export DEVIMG_DEVICE_SELECTOR
	run fail "$top_builddir/plugins/.libs" 0 --devices
	unset DEVIMG_DEVICE_SELECTOR
}
select_devices 'opencl:*;!opencl:cpu'
! grep -q "^opencl:[0-9]* cpu " "$scratch/out" || fail "!opencl:cpu kept a CPU: $(cat "$scratch/out")"
select_devices 'cuda:*'
! grep -q "^opencl:" "$scratch/out" || fail "cuda:* kept an OpenCL device"
select_devices 'OPENCL:CPU'
grep -q "^opencl:[0-9]* cpu " "$scratch/out" || fail "OPENCL:CPU lost the CPU"
expect_fail "DEVIMG_DEVICE_SELECTOR: column 8: unknown device 'cpux'" \
	env DEVIMG_DEVICE_SELECTOR='opencl:cpux' "$list"
