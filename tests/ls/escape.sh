#!/bin/sh
# Names from the environment and from drivers reach devimg-ls's output,
# its errors and the DEVIMG_TRACE lines escaped: a DEVIMG_DEVICE_SELECTOR
# and a plugin folder whose names hold ESC [ 2 J and a forged "\nFAIL"
# line show as \x1b[2J\x0aFAIL, never as the raw bytes; --json gives the
# folder back as it is.
. "$top_srcdir/tests/lib.sh"

LS=$top_builddir/devimg-ls
[ -x "$LS" ] || skip build "devimg-ls is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
esc=$(printf '\033')
evil=$(printf '\033[2J\nFAIL')
shown='\\x1b\[2J\\x0aFAIL'
unset DEVIMG_DEVICE_SELECTOR DEVIMG_TRACE || :
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

# clean FILE: no raw ESC, no line of the name's own.
clean() {
	! grep -q "$esc" "$1" || fail "raw ESC in $1: $(od -c "$1" | head)"
	! grep -q '^FAIL' "$1" || fail "a forged line in $1: $(cat "$1")"
}

DEVIMG_DEVICE_SELECTOR=$evil DEVIMG_PLUGIN_PATH=$scratch \
	expect_fail "DEVIMG_DEVICE_SELECTOR: .*'$shown'" "$LS"
clean "$scratch/err"

plugin=$top_builddir/plugins/.libs/devimg-opencl.so
[ -f "$plugin" ] || skip opencl "OpenCL plugin not built"
dir=$scratch/p$evil
mkdir "$dir"
ln -s "$plugin" "$dir/devimg-opencl.so"
mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$dir
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH

DEVIMG_TRACE=2 "$LS" -v >"$scratch/out" 2>"$scratch/trace" ||
	fail "devimg-ls -v exited $?: $(cat "$scratch/trace")"
cat "$scratch/out"
grep -q "^  opencl: .*/p${shown}/devimg-opencl\.so\$" "$scratch/out" ||
	fail "-v does not show the escaped folder: $(cat "$scratch/out")"
clean "$scratch/out"
grep -q "^libdevimg: plugins: bound opencl from .*/p${shown}/devimg-opencl\.so" \
	"$scratch/trace" || fail "trace: $(cat "$scratch/trace")"
clean "$scratch/trace"

"$LS" --json -v >"$scratch/json" 2>/dev/null || fail "--json failed"
[ "$(jq -r '.plugins[0].file' "$scratch/json")" = "$dir/devimg-opencl.so" ] ||
	fail "--json: the folder is not given back: $(cat "$scratch/json")"
clean "$scratch/json"
# A byte that is not UTF-8: the JSON must still be UTF-8 (iconv refuses
# what is not).
bad=$scratch/q$(printf '\377\302\233')
mkdir "$bad"
ln -s "$plugin" "$bad/devimg-opencl.so"
DEVIMG_PLUGIN_PATH=$bad "$LS" --json -v >"$scratch/json2" 2>/dev/null ||
	fail "--json failed"
iconv -f UTF-8 -t UTF-8 "$scratch/json2" >/dev/null ||
	fail "--json is not UTF-8: $(od -c "$scratch/json2" | head)"
# Kept without loss: 0xff as \udcff (docs/dump-json.md), which jq reads
# as U+FFFD; the C1 control escaped.
grep -qF '/q\udcff\u009b/' "$scratch/json2" ||
	fail "--json does not keep the folder's bytes as \\udcff\\u009b: $(cat "$scratch/json2")"
jq -e '.format_version == 1 and (.plugins[0].file | contains("/q\ufffd\u009b/"))' \
	"$scratch/json2" >/dev/null ||
	fail "--json: $(cat "$scratch/json2")"
echo "ok: $(grep -c . "$scratch/trace") trace lines, all escaped"
