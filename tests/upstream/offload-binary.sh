#!/bin/sh
# OffloadBinary files as llvm-offload-binary-22 (version 1) and -23
# (version 2) write them, holding SPIR-V that clang-N's SPIR-V backend
# made from vadd.cl: devimg-dump lists every entry with the fields
# llvm-objdump-N --offloading prints, the same values, its symbols as a
# list, and --extract writes the bytes llvm-offload-binary-N extracts.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/upstream/lib-upstream.sh"

cd "$scratch"
for n in 22 23; do
	need_tools "clang-$n" "llvm-offload-binary-$n" "llvm-objdump-$n"
done

for n in 22 23; do
	"clang-$n" --target=spirv64 -cl-std=CL2.0 -O2 -c "$usrc/vadd.cl" \
		-o "vadd$n.spv" || fail "clang-$n cannot make SPIR-V"
	"llvm-offload-binary-$n" -o "ob$n.bin" \
		--image="file=vadd$n.spv,triple=spirv64-unknown-unknown,arch=generic,kind=sycl,symbols=vadd" ||
		fail "llvm-offload-binary-$n failed"

	# The fields both print; llvm-objdump-22 has no "image size".
	"llvm-objdump-$n" --offloading "ob$n.bin" >"objdump$n.txt" ||
		fail "llvm-objdump-$n --offloading failed"
	"$DUMP" "ob$n.bin" >"dump$n.txt" || fail "devimg-dump ob$n.bin failed"
	fields='^(OFFLOADING IMAGE|kind|arch|triple|producer|image size) '
	grep -E "$fields" "objdump$n.txt" >"want$n" || true
	grep -E "$fields" "dump$n.txt" >"got$n" || true
	if [ "$n" = 22 ]; then
		grep -v '^image size ' "got$n" >"got$n.v1" || true
		mv "got$n.v1" "got$n"
	fi
	[ -s "want$n" ] || fail "llvm-objdump-$n printed no image: $(cat "objdump$n.txt")"
	diff -u "want$n" "got$n" ||
		fail "devimg-dump and llvm-objdump-$n disagree on ob$n.bin"
	grep -Eq '^symbols +vadd$' "dump$n.txt" ||
		fail "devimg-dump shows no symbols list vadd: $(cat "dump$n.txt")"

	# JSON: the same entry, its symbols a list.
	"$DUMP" --json "ob$n.bin" >"dump$n.json" &&
	one_file_json "dump$n.json" ||
		fail "devimg-dump --json ob$n.bin failed"
	kind=$(sed -n 's/^kind *//p' "want$n")
	jq -e --arg kind "$kind" '.offloading | length == 1 and
		.[0].kind == $kind and .[0].producer == "sycl" and
		.[0].symbols == ["vadd"] and
		.[0].strings.triple == "spirv64-unknown-unknown" and
		.[0].strings.arch == "generic"' "dump$n.json" >/dev/null ||
		fail "devimg-dump --json ob$n.bin: $(cat "dump$n.json")"

	# --extract: the bytes llvm-offload-binary-N extracts.
	mkdir "up$n" "ours$n"
	(cd "up$n" && "llvm-offload-binary-$n" "../ob$n.bin" \
		--image=file=image.spv,triple=spirv64-unknown-unknown,arch=generic) ||
		fail "llvm-offload-binary-$n cannot extract"
	"$DUMP" --extract "ours$n" "ob$n.bin" >/dev/null ||
		fail "devimg-dump --extract ob$n.bin failed"
	set -- "ours$n"/*
	[ $# -eq 1 ] || fail "devimg-dump extracted $# files: $*"
	cmp "up$n/image.spv" "$1" ||
		fail "devimg-dump extracted other bytes than llvm-offload-binary-$n"
	cmp "vadd$n.spv" "$1" || fail "the extracted image is not vadd$n.spv"
done
echo "llvm-offload-binary 22 and 23: listed and extracted as upstream does"
