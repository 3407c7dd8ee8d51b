#!/bin/sh
# Broken input never crashes devimg-dump and never yields partial output:
# each case is one line "devimg-dump: FILE: ...: reason" on stderr, nothing
# on stdout and a non-zero exit. Cases: files that are missing, empty, not
# ELF, truncated or of the wrong class or type; a corrupted index (magic,
# version, sizes, counts, offsets, strings); wrong relocations; property
# values that do not decode; an image address outside the file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dump/fixture.sh"

fixture_obj a
fixture_main
cd "$scratch"
$CC -no-pie main.c a.o -o exe 2>link.err ||
	fail "cannot link a non-PIE executable (the objects are this test's own): $(cat link.err)"

# check_fail FILE PATTERN: text and JSON dumps of FILE fail as described.
check_fail() {
	for mode in --json ""; do
		# shellcheck disable=SC2086
		expect_fail "^devimg-dump: $1: .*$2" "$dump" $mode "$1"
		if [ -n "$mode" ]; then
			failed_file_json "$scratch/out" "$scratch/err" "$1"
		else
			[ ! -s "$scratch/out" ] || fail "$1: stdout: $(cat "$scratch/out")"
		fi
	done
}

# broken FROM TO OFFSET HEXBYTES...: TO is FROM with bytes overwritten.
broken() {
	cp "$1" "$2"
	bf=$2
	shift 2
	patch "$bf" "$@"
}

dv=$(section_off a.o .devimg)	# the blob; image 0 at +40, image 1 at +96
img0=$((dv + 40))

# Files that are no wrapped ELF at all.
check_fail nope.o "open: No such file or directory"
mkdir folder.o
check_fail folder.o "Is a directory"
: >empty.o
check_fail empty.o "empty file"
echo "just text" >text.o
check_fail text.o "not an ELF file"
for n in 16 63 64 200 1000 $((dv + 20)) $(($(wc -c <a.o) - 1)); do
	head -c $n a.o >cut$n.o
	check_fail cut$n.o ""
done
head -c 2000 exe >cut-exe
check_fail cut-exe "truncated"
broken a.o class.o 4 01
check_fail class.o "EI_CLASS"
broken a.o core.o 16 04 00
check_fail core.o "e_type: 4, expected ET_REL, ET_EXEC or ET_DYN"

# The index header.
broken a.o magic.o "$dv" 44 45 56 49 4d 47 58 32
check_fail magic.o "blob at 0x0: magic: expected \"DEVIMGX1\""
broken a.o version.o $((dv + 8)) 02
check_fail version.o "version: 2, this reader knows 1"
broken a.o hsize.o $((dv + 12)) 08
check_fail hsize.o "header_size: 8"
# shellcheck disable=SC2046
broken a.o size.o $((dv + 16)) $(le64 0x7ffffff8)
check_fail size.o "size: 0x7ffffff8, expected a multiple of 8"
broken a.o size8.o $((dv + 16)) 31
check_fail size8.o "size: 0x331, expected a multiple of 8"
broken a.o nimages.o $((dv + 26)) ff ff
check_fail nimages.o "images_off: .* exceeds the blob's size"
broken a.o isize.o $((dv + 32)) 08
check_fail isize.o "image_size: 8, expected at least 56"

# Image records: strings, tables, counts.
broken a.o target.o $((img0 + 20)) 00 ff 00 00
check_fail target.o "image 0 (file index 0): target_off: 0xff00 is outside"
broken a.o target4.o $((img0 + 20)) 04 00 00 00
check_fail target4.o "target_off: 0x4 is outside"
# The blob's last 8 bytes end the last string: without them, no NUL.
size=$(printf '%d' "0x$(section_hex a.o .devimg size)")
broken a.o nonul.o $((dv + size - 8)) 41 41 41 41 41 41 41 41
check_fail nonul.o "is not NUL-terminated inside the blob"
broken a.o entries.o $((img0 + 44)) 00 00 00 10
check_fail entries.o "entries_off: .* exceeds the blob's size"
broken a.o propsets.o $((img0 + 48)) 00 00 01 00
check_fail propsets.o "propsets_off: 0x10000 "
broken a.o manifest.o $((dv + 96 + 36)) ff ff 00 00
check_fail manifest.o "image 1 (file index 1): manifest_off: "
# shellcheck disable=SC2046
broken a.o binsize.o $((img0 + 8)) $(le64 0x100000)
check_fail binsize.o "bin_size: 1048576 is larger than the file"
broken a.o binsize2.o $((img0 + 8)) 00 01
check_fail binsize2.o "bin_rel: symbol '.*' + 0 (256 bytes) is outside section"

# Property values.
vs=$((dv + $(symbol_value a.o v_struct)))
broken a.o bits.o $vs 64
check_fail bits.o "set 'SYCL/specialization constants' property '9d329ad59055e972____ZL12StructSpecId'"
broken a.o tuple.o $((vs + 16)) 00
check_fail tuple.o "9d329ad59055e972____ZL12StructSpecId"
pm=$((dv + $(symbol_value a.o props_misc)))
broken a.o u32.o $((pm + 20)) 01
check_fail u32.o "property 'optLevel': size: UINT32 value 4294967298 does not fit 32 bits"

# Relocations of the relocatable object (first entry: image 0's bin_rel).
rl=$(section_off a.o .rela.devimg)
broken a.o rtype.o $((rl + 8)) 01 00 00 00
check_fail rtype.o "bin_rel: relocation type 1 is not supported (expected R_"
broken a.o roff.o "$rl" 00 10
check_fail roff.o "bin_rel: no relocation at section offset 0x28"
broken a.o rsym.o $((rl + 12)) ff ff 00 00
check_fail rsym.o "bin_rel: symbol index 65535 out of range"

broken a.o machine.o 18 f3 00
check_fail machine.o "e_machine 243: relocatable objects of this machine are not supported"

# A linked file whose bin_rel leads nowhere.
dx=$(section_off exe .devimg)
# shellcheck disable=SC2046
broken exe binrel-exe $((dx + 40)) $(le64 0x70000000000)
check_fail binrel-exe "which no section or segment of the file holds"

# A broken file among good ones: the good ones are shown, exit status 1.
if "$dump" a.o magic.o exe >both 2>both.err; then
	fail "a broken file among others must fail"
fi
[ "$(grep -c 'device images$' both)" -eq 2 ] || fail "good files: $(cat both)"
[ "$(wc -l <both.err)" -eq 1 ] || fail "errors: $(cat both.err)"
"$dump" --json a.o magic.o >both.json 2>/dev/null && fail "json: exit 0"
[ "$(jq -r '[.files[] | .file + (if .error then "!" else "" end)] | join(" ")' both.json)" = "a.o magic.o!" ] ||
	fail "json of a broken file among others: $(cat both.json)"

# Usage errors exit 2.
"$dump" >/dev/null 2>&1 && fail "no FILE: exit 0"
rc=0
"$dump" --bogus a.o >/dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "unknown option: exit status $rc, not 2"
exit 0
