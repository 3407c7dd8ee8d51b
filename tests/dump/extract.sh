#!/bin/sh
# devimg-dump --extract writes every image byte-identical, named
# FILE.INDEX.TARGET.EXT, from objects and linked files; a missing folder or
# a broken file is a one-line error that leaves no file behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

command -v objcopy >/dev/null 2>&1 || skip tools "objcopy not found"
fixture_obj a
fixture_obj b
fixture_main
cd "$scratch"
$CC -fPIE -pie main.c a.o b.o -o app 2>link.err ||
	fail "cannot link a PIE (the objects are this test's own): $(cat link.err)"

# The images as the assembler laid them out, to compare with.
# Image sections are named for kind and target, as devimg-wrap names them.
ref() {
	objcopy -O binary "--only-section=__CLANG_OFFLOAD_BUNDLE__sycl-$2" \
		"$1.o" "$3" || fail "objcopy $1.o"
}
ref a spir64 a0.ref
ref a nvptx64 a1.ref
ref b spir64_x86_64 b0.ref
ref b 'a/b c' b1.ref

mkdir img
"$dump" --extract img app >names || fail "--extract failed"
cat >want <<'NAMES'
img/app.0.spir64.spv
img/app.1.nvptx64.ptx
img/app.2.spir64_x86_64.bc
img/app.3.a_b_c.bin
NAMES
cmp -s want names || fail "printed names: $(cat names)"
cmp img/app.0.spir64.spv a0.ref || fail "image 0 differs"
cmp img/app.1.nvptx64.ptx a1.ref || fail "image 1 differs"
cmp img/app.2.spir64_x86_64.bc b0.ref || fail "image 2 differs"
cmp img/app.3.a_b_c.bin b1.ref || fail "image 3 differs"
[ "$(ls -A img | wc -l)" -eq 4 ] || fail "stray files: $(ls -A img)"

# From the relocatable object too, and the folder given with a slash.
mkdir img2
"$dump" --extract img2/ "$scratch/a.o" >/dev/null || fail "--extract a.o"
cmp img2/a.o.0.spir64.spv a0.ref || fail "a.o image 0 differs"
cmp img2/a.o.1.nvptx64.ptx a1.ref || fail "a.o image 1 differs"

# Errors: no folder, not a folder, a broken input; nothing is written.
expect_fail "devimg-dump: nope: --extract: No such file or directory" \
	"$dump" --extract nope app
expect_fail "devimg-dump: app: --extract: Not a directory" \
	"$dump" --extract app a.o
head -c 300 app >cut.elf
mkdir img3
expect_fail "devimg-dump: cut.elf: " "$dump" --extract img3 cut.elf
[ -z "$(ls -A img3)" ] || fail "files left: $(ls -A img3)"
expect_fail "cannot be combined" "$dump" --extract img3 --json app
exit 0
