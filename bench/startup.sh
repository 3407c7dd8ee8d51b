#!/bin/sh
# make bench-startup: what a wrapped object adds to a program's start-up.
#
# For each kernel count N (1,000, 10,000 and 100,000), one image (a few
# bytes of SPIR-V header) with N kernel names as DPC++ mangles them is
# wrapped by devimg-wrap twice: in the DPC++ descriptor form (the default)
# and in the blob form (-form=blob: one OffloadBinary in .llvm.offloading,
# registered by __sycl_register_lib(blob, size)). Each object is linked
# into bench/startup-main.c, a program that returns at once, as a PIE
# against the shared libdevimg; the baseline is the same program linked
# with no object (it loads libdevimg too, so only the object's cost is
# measured). Every program is first run once with --check, which reads the
# registry back (all N names, the first and the last found), so that what
# is timed is a program that really registers its kernels; that first read
# of the registry, which indexes the names registration left for later,
# is timed there and shown as "first read" (not part of the start-up).
#
# Then bench/registry-spawn times whole processes (fork, exec, ld.so's
# relocations, the constructors' registration, exit and the destructors'
# unregistration) of the baseline and the six programs, round-robin with
# the order reversed every other round, and reports what each adds to the
# baseline: the median of the paired differences of each round.
# Relocations are counted from `readelf -rW` (every dynamic relocation
# ld.so applies, .rela.dyn and .rela.plt), against the baseline's.
#
# Target, at every N: the blob form adds at most 0.3 ms and at most 10
# relocations. The descriptor form is shown beside it: one pointer per
# name, so one relocation per name, and time growing with N.
#
# Environment: top_srcdir, top_builddir, CC, CFLAGS (from make);
# BENCH_STARTUP_KERNELS (the counts, "1000 10000 100000"),
# BENCH_STARTUP_ROUNDS (400).
set -eu

counts=${BENCH_STARTUP_KERNELS:-1000 10000 100000}
rounds=${BENCH_STARTUP_ROUNDS:-400}
wrap=$top_builddir/devimg-wrap
libdir=$top_builddir/loader/.libs
out=$top_builddir/bench/startup

[ -x "$wrap" ] || { echo "bench-startup: $wrap is not built" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/gen"
cd "$out"

name() {
	echo "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_0_$1"
}

build() {
	prog=$1
	shift
	# shellcheck disable=SC2086
	$CC -std=c11 ${CFLAGS:-} -fPIE -pie -I"$top_srcdir/include" \
		-o "$prog" "$top_srcdir/bench/startup-main.c" "$@" \
		-L"$libdir" -Wl,-rpath,"$libdir" -ldevimg
}

relocs() {
	readelf -rW "$1" | awk '/^ *[0-9a-f]+ +[0-9a-f]+ +R_/ { n++ } END { print n + 0 }'
}

# shellcheck disable=SC2086
$CC -std=c11 ${CFLAGS:-} -o registry-spawn "$top_srcdir/bench/registry-spawn.c"
build startup-none
./startup-none --check 0 - - >/dev/null
progs=./startup-none
{
	printf '\003\002\043\007\000\000\001\000'
	printf 'image of the start-up bench\n'
} >gen/img.spv
for n in $counts; do
	awk -v n="$n" 'BEGIN {
		for (k = 0; k < n; k++)
			printf "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_0_%d\n", k
	}' >"gen/k$n.sym"
	for form in descriptor blob; do
		"$wrap" -o "gen/$form$n.o" -form="$form" -kind=sycl \
			-target=spir64 -format=spirv -entries="gen/k$n.sym" \
			gen/img.spv
		build "startup-$form$n" "gen/$form$n.o"
		"./startup-$form$n" --check "$n" "$(name 0)" \
			"$(name $((n - 1)))" >"check-$form$n.txt"
		progs="$progs ./startup-$form$n"
	done
done

base_relocs=$(relocs startup-none)
echo "== start-up: fork + exec + load + registration + exit, $rounds rounds of each program, paired with the program without an object"
# shellcheck disable=SC2086
./registry-spawn "$rounds" $progs >spawn.txt
printf '%-8s %-10s %11s %8s %10s %9s %-17s %s\n' kernels form relocations \
	added 'median us' 'added us' '(quartiles)' 'first read us'
while read -r prog med _ added q1 q3; do
	prog=${prog#./startup-}
	r=$(relocs "startup-$prog")
	if [ "$prog" = none ]; then
		printf '%-8s %-10s %11s %8s %10s\n' - none "$r" - "${med#*=}"
		continue
	fi
	form=${prog%%[0-9]*}
	n=${prog#"$form"}
	read_us=$(sed -n 's/.*first read \([0-9.]*\) us/\1/p' "check-$prog.txt")
	printf '%-8s %-10s %11s %8s %10s %9s %-17s %s\n' "$n" "$form" "$r" \
		"+$((r - base_relocs))" "${med#*=}" "${added#*=}" \
		"(${q1#*=}..${q3#*=})" "$read_us"
	if [ "$form" = blob ]; then
		verdict=$(awk -v a="${added#*=}" -v r="$((r - base_relocs))" \
			'BEGIN { print (a <= 300 && r <= 10) ? "ok" : "MISS" }')
		echo "$n $verdict ${added#*=} $((r - base_relocs))" >>targets.txt
	fi
done <spawn.txt
while read -r n verdict added r; do
	echo "target ($n kernels): blob form adds <= 300 us and <= 10 relocations: +$added us, +$r relocations: $verdict"
done <targets.txt
exit 0
