# Objects laid out as LLVM's offload wrapper (llvm/lib/Frontend/Offloading/
# OffloadWrapper.cpp, wrapSYCLBinaries) and DPC++'s write them, from LLVM
# IR written here and compiled by llc: descriptors with images of version
# 2 or 3 and entries of 32 or 56 bytes, and OffloadBinary blobs (laid out
# byte by byte with printf, version 2 of the format) registered by
# __sycl_register_lib(blob, size) from a priority-101 constructor and
# unregistered through atexit. Sourced after tests/lib.sh.
# shellcheck shell=sh

LLC=
for c in llc-23 llc-22 llc-21 llc-20 llc-19 llc-18 llc-17 llc-16 llc-15 llc; do
	if command -v "$c" >/dev/null 2>&1; then
		LLC=$c
		break
	fi
done
[ -n "$LLC" ] || skip tools "no llc (15 or newer) to compile the wrapper IR"
case $(uname -m) in
x86_64) ir_triple=x86_64-unknown-linux-gnu ;;
aarch64) ir_triple=aarch64-unknown-linux-gnu ;;
*) skip arch "no wrapper IR for $(uname -m)" ;;
esac

# ir_bytes FILE: FILE's bytes as the body of an LLVM IR c"..." string.
ir_bytes() {
	od -An -v -tx1 "$1" | tr -d ' \n' | sed 's/\(..\)/\\\1/g'
}

# ir_string NAME TEXT: a NUL-ended private string constant.
ir_string() {
	printf '@%s = internal unnamed_addr constant [%d x i8] c"%s\\00"\n' \
		"$1" $((${#2} + 1)) "$2"
}

# llc_obj IN.ll OUT.o
llc_obj() {
	"$LLC" -filetype=obj -relocation-model=pic -o "$2" "$1" ||
		fail "$LLC could not compile $1"
}

ir_types() {
	cat <<EOF
target triple = "$ir_triple"

%struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }
%struct.old_entry = type { ptr, ptr, i64, i32, i32 }
%struct.image_v2 = type { i16, i8, i8, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr }
%__sycl.tgt_device_image = type { i16, i8, i8, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr }
%__sycl.tgt_bin_desc = type { i16, i16, ptr, ptr, ptr }
EOF
}

# ir_entries I LAYOUT NAMES: entry array I (56-byte LLVM or 32-byte old
# entries, LAYOUT llvm or old) naming the comma-separated NAMES.
ir_entries() {
	e_i=$1
	layout=$2
	e_n=0
	e_inits=
	old_ifs=$IFS
	IFS=,
	for name in $3; do
		ir_string ".offloading.entry_name.$e_i.$e_n" "$name" |
			sed 's/$/, section ".llvm.rodata.offloading"/'
		if [ "$layout" = llvm ]; then
			e="%struct.__tgt_offload_entry { i64 0, i16 1, i16 8, i32 0, ptr null, ptr @.offloading.entry_name.$e_i.$e_n, i64 0, i64 0, ptr null }"
		else
			e="%struct.old_entry { ptr null, ptr @.offloading.entry_name.$e_i.$e_n, i64 0, i32 0, i32 0 }"
		fi
		e_inits=${e_inits:+$e_inits, }$e
		e_n=$((e_n + 1))
	done
	IFS=$old_ifs
	if [ "$layout" = llvm ]; then
		e_ty=%struct.__tgt_offload_entry
	else
		e_ty=%struct.old_entry
	fi
	printf '@.sycl_offloading.entries_arr.%s = internal constant [%d x %s] [%s]\n' \
		"$e_i" "$e_n" "$e_ty" "$e_inits"
	entries_b="ptr @.sycl_offloading.entries_arr.$e_i"
	entries_e="ptr getelementptr ([$e_n x $e_ty], ptr @.sycl_offloading.entries_arr.$e_i, i64 0, i64 $e_n)"
}

# ir_descriptor OUT.ll VERSION ENTRIES IMAGE...: a descriptor of images of
# VERSION (2: 96 bytes; 3: 80, no manifest) with ENTRIES (llvm, old) and
# the constructor and destructor of priority 1 that register it. IMAGE is
# KIND:FORMAT:TARGET:FILE:NAME,NAME...[:VERSION], VERSION overriding the
# descriptor's for that image; images of several versions make the images
# array a structure of both layouts, one after the other without padding.
ir_descriptor() {
	out=$1
	dversion=$2
	layout=$3
	shift 3
	{
		ir_types
		i=0
		inits=
		tys=
		mixed=
		for spec in "$@"; do
			old_ifs=$IFS
			IFS=:
			# shellcheck disable=SC2086
			set -- $spec
			IFS=$old_ifs
			kind=$1 format=$2 target=$3 file=$4 names=$5
			version=${6:-$dversion}
			[ "$version" = "$dversion" ] || mixed=1
			size=$(wc -c <"$file")
			printf '@.sycl_offloading.%d.data = internal unnamed_addr constant [%d x i8] c"%s", section ".llvm.offloading"\n' \
				"$i" "$size" "$(ir_bytes "$file")"
			ir_string ".sycl_offloading.target.$i" "$target"
			ir_string ".sycl_offloading.opts.compile.$i" ""
			ir_string ".sycl_offloading.opts.link.$i" ""
			ir_entries "$i" "$layout" "$names"
			head="i16 $version, i8 $kind, i8 $format, ptr @.sycl_offloading.target.$i, ptr @.sycl_offloading.opts.compile.$i, ptr @.sycl_offloading.opts.link.$i"
			bin="ptr @.sycl_offloading.$i.data, ptr getelementptr ([$size x i8], ptr @.sycl_offloading.$i.data, i64 0, i64 $size)"
			if [ "$version" = 3 ]; then
				ty=%__sycl.tgt_device_image
				img="$ty { $head, $bin, $entries_b, $entries_e, ptr null, ptr null }"
			else
				ty=%struct.image_v2
				img="$ty { $head, ptr null, ptr null, $bin, $entries_b, $entries_e, ptr null, ptr null }"
			fi
			inits=${inits:+$inits, }$img
			tys=${tys:+$tys, }$ty
			i=$((i + 1))
		done
		printf 'declare void @__sycl_register_lib(ptr)\ndeclare void @__sycl_unregister_lib(ptr)\n'
		if [ -n "$mixed" ]; then
			printf '@.sycl_offloading.device_images = internal unnamed_addr constant { %s } { %s }\n' \
				"$tys" "$inits"
		else
			printf '@.sycl_offloading.device_images = internal unnamed_addr constant [%d x %s] [%s]\n' \
				"$i" "$ty" "$inits"
		fi
		cat <<EOF
@.sycl_offloading.descriptor = internal constant %__sycl.tgt_bin_desc { i16 1, i16 $i, ptr @.sycl_offloading.device_images, ptr null, ptr null }
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_reg, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_unreg, ptr null }]

define internal void @sycl.descriptor_reg() section ".text.startup" {
entry:
  call void @__sycl_register_lib(ptr @.sycl_offloading.descriptor)
  ret void
}

define internal void @sycl.descriptor_unreg() section ".text.startup" {
entry:
  call void @__sycl_unregister_lib(ptr @.sycl_offloading.descriptor)
  ret void
}
EOF
	} >"$out"
}

# le N BYTES: N little-endian in BYTES bytes.
le() {
	le_n=$1
	le_k=$2
	while [ "$le_k" -gt 0 ]; do
		# shellcheck disable=SC2059
		printf "\\$(printf %03o $((le_n & 255)))"
		le_n=$((le_n >> 8))
		le_k=$((le_k - 1))
	done
}

# pad8 N: the zeros that bring N to a multiple of 8.
pad8() {
	pad_n=$(((8 - $1 % 8) % 8))
	while [ "$pad_n" -gt 0 ]; do
		printf '\000'
		pad_n=$((pad_n - 1))
	done
}

# mkblob OUT ENTRY...: an OffloadBinary (version 2) of one entry a
# ENTRY, IMAGE_KIND:OFFLOAD_KIND:TRIPLE:FILE:NAME,NAME..., with the
# strings "triple" and "symbols" (each name ended by a NUL): header (32
# bytes), entries (40 each), string entries (24 each: key, value, size),
# string table, then the images, each from a multiple of 8.
mkblob() {
	out=$1
	shift
	count=$#
	strtab=$((32 + 40 * count + 2 * 24 * count))
	# Pass 1: string table and image offsets.
	pos=$strtab
	for spec in "$@"; do
		triple=$(printf '%s' "$spec" | cut -d: -f3)
		syms=$(printf '%s' "$spec" | cut -d: -f5 | tr ',' ' ')
		symlen=0
		for s in $syms; do
			symlen=$((symlen + ${#s} + 1))
		done
		# "triple\0" value\0 "symbols\0" value
		pos=$((pos + 7 + ${#triple} + 1 + 8 + symlen))
	done
	images=$(((pos + 7) / 8 * 8))
	total=$images
	for spec in "$@"; do
		file=$(printf '%s' "$spec" | cut -d: -f4)
		size=$(wc -c <"$file")
		total=$((total + (size + 7) / 8 * 8))
	done
	{
		printf '\020\377\020\255'
		le 2 4
		le "$total" 8
		le 32 8
		le "$count" 8
		# Entries.
		spos=$strtab
		ipos=$images
		k=0
		for spec in "$@"; do
			ikind=$(printf '%s' "$spec" | cut -d: -f1)
			okind=$(printf '%s' "$spec" | cut -d: -f2)
			file=$(printf '%s' "$spec" | cut -d: -f4)
			size=$(wc -c <"$file")
			le "$ikind" 2
			le "$okind" 2
			le 0 4
			le $((32 + 40 * count + 48 * k)) 8
			le 2 8
			le "$ipos" 8
			le "$size" 8
			ipos=$((ipos + (size + 7) / 8 * 8))
			k=$((k + 1))
		done
		# String entries: key offset, value offset, value size.
		for spec in "$@"; do
			triple=$(printf '%s' "$spec" | cut -d: -f3)
			syms=$(printf '%s' "$spec" | cut -d: -f5 | tr ',' ' ')
			symlen=0
			for s in $syms; do
				symlen=$((symlen + ${#s} + 1))
			done
			le "$spos" 8
			le $((spos + 7)) 8
			le "${#triple}" 8
			spos=$((spos + 7 + ${#triple} + 1))
			le "$spos" 8
			le $((spos + 8)) 8
			le "$symlen" 8
			spos=$((spos + 8 + symlen))
		done
		for spec in "$@"; do
			triple=$(printf '%s' "$spec" | cut -d: -f3)
			syms=$(printf '%s' "$spec" | cut -d: -f5 | tr ',' ' ')
			printf 'triple\000%s\000symbols\000' "$triple"
			for s in $syms; do
				printf '%s\000' "$s"
			done
		done
		pad8 "$spos"
		for spec in "$@"; do
			file=$(printf '%s' "$spec" | cut -d: -f4)
			cat "$file"
			pad8 "$(wc -c <"$file")"
		done
	} >"$out"
	[ "$(wc -c <"$out")" -eq "$total" ] ||
		fail "mkblob: $out is $(wc -c <"$out") bytes, expected $total"
}

# ir_blob OUT.ll BLOB FORM: BLOB embedded 8-aligned in .llvm.offloading,
# registered as FORM says: "size" __sycl_register_lib(blob, size) from a
# priority-101 constructor, __sycl_unregister_lib(blob) through atexit;
# "end" __sycl_register_lib(start, end) from a priority-1 constructor,
# __sycl_unregister_lib(start, end) from a priority-1 destructor.
ir_blob() {
	size=$(wc -c <"$2")
	{
		ir_types
		printf '@.sycl_offloading.binary = internal unnamed_addr constant [%d x i8] c"%s", section ".llvm.offloading", align 8\n' \
			"$size" "$(ir_bytes "$2")"
		end="ptr getelementptr ([$size x i8], ptr @.sycl_offloading.binary, i64 0, i64 $size)"
		if [ "$3" = size ]; then
			cat <<EOF
declare void @__sycl_register_lib(ptr, i64)
declare void @__sycl_unregister_lib(ptr)
declare i32 @atexit(ptr)
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @sycl.descriptor_reg, ptr null }]

define internal void @sycl.descriptor_reg() section ".text.startup" {
entry:
  call void @__sycl_register_lib(ptr @.sycl_offloading.binary, i64 $size)
  %0 = call i32 @atexit(ptr @sycl.descriptor_unreg)
  ret void
}

define internal void @sycl.descriptor_unreg() section ".text.startup" {
entry:
  call void @__sycl_unregister_lib(ptr @.sycl_offloading.binary)
  ret void
}
EOF
		else
			cat <<EOF
declare void @__sycl_register_lib(ptr, ptr)
declare void @__sycl_unregister_lib(ptr, ptr)
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_reg, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_unreg, ptr null }]

define internal void @sycl.descriptor_reg() section ".text.startup" {
entry:
  call void @__sycl_register_lib(ptr @.sycl_offloading.binary, $end)
  ret void
}

define internal void @sycl.descriptor_unreg() section ".text.startup" {
entry:
  call void @__sycl_unregister_lib(ptr @.sycl_offloading.binary, $end)
  ret void
}
EOF
		fi
	} >"$1"
}
