#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Wrapper benchmark (`make bench-wrap`, part of `make bench`): 16 device
# images of 4 MiB each wrapped into one ELF object by
#   1. devimg-wrap,
#   2. `ld -r -b binary` (the floor: copy bytes into an object, no descriptor),
#   3. the LLVM path: clang-offload-wrapper then `clang -c -O2`, or, where
#      clang-offload-wrapper is not installed (Debian's LLVM 15 lacks it),
#      `clang -c -O2` of the module it would write, made here untimed: a
#      lower bound of the real path, so its ratio is conservative.
# Each command runs once to warm up, then BENCH_RUNS times, interleaved;
# reported: median wall time, largest peak RSS, ratios against the targets.
# A benchmark reports and does not gate: exit 0 on MISS, 1 when a command
# fails or devimg-wrap's output is wrong, 77 when a tool it needs is missing.
#
# Environment (the bench-wrap make target sets the first five):
#   top_builddir  build tree holding devimg-wrap and bench/runstat (.)
#   CC            compiler for the input generator (cc)
#   CLANG         clang for the LLVM path ("no" or unset: the newest of
#                 clang-23 ... clang-15, clang on PATH)
#   LD            linker for the `ld -r -b binary` row (ld)
#   OBJCOPY, READELF                         (objcopy, readelf)
#   LLVM_AS       llvm-as for the LLVM module (llvm-as beside CLANG)
#   CLANG_OFFLOAD_WRAPPER  the real wrapper, if any (PATH: that of
#                 CLANG's release, clang-offload-wrapper)
#   BENCH_RUNS    timed runs per command (5)
#   BENCH_DIR     scratch folder, kept between runs for its inputs
#                 ($top_builddir/bench/wrap)
#
# Lists of paths are split on purpose (BENCH_DIR has no blanks or globs) and
# the run_* functions are called by name.
# shellcheck disable=SC2086,SC2317
set -eu

: "${top_builddir:=.}"
: "${CC:=cc}"
: "${LD:=ld}"
: "${OBJCOPY:=objcopy}"
: "${READELF:=readelf}"
: "${BENCH_RUNS:=5}"
: "${BENCH_DIR:=$top_builddir/bench/wrap}"

NIMAGES=16
IMAGE_MIB=4
IMAGE_SIZE=$((IMAGE_MIB * 1024 * 1024))

WRAP=$top_builddir/devimg-wrap
RUNSTAT=$top_builddir/bench/runstat
S=$BENCH_DIR

die() {
	echo "bench/wrap.sh: $*" >&2
	exit 1
}

# skip CAPABILITY WHY: as tests/lib.sh's.
skip() {
	echo "SKIP [$1]: bench/wrap.sh: $2"
	exit 77
}

case $BENCH_RUNS in
''|*[!0-9]*|0) die "BENCH_RUNS must be a positive integer, not '$BENCH_RUNS'" ;;
esac
case $S in
*[[:space:]*?[]*) die "BENCH_DIR must not contain blanks or *?[: '$S'" ;;
esac
[ -x "$WRAP" ] || skip build "$WRAP not built (make devimg-wrap)"
[ -x "$RUNSTAT" ] || skip build "$RUNSTAT not built (make bench/runstat)"
if [ "$(head -c 2 "$WRAP")" = '#!' ]; then
	echo "note: $WRAP is a libtool wrapper script; its time is counted"
fi

mkdir -p "$S/in"

# Inputs and the LLVM module are made by one small C program: random bytes
# from splitmix64 seeded by the image number, and the IR text with every
# byte that is not plain printable ASCII as \XX, both at disk speed.
gen_src() {
	cat <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int images(const char *dir, int n, long size)
{
	static uint64_t buf[1 << 13];
	char path[4096];
	uint64_t s;
	long left;
	int i;
	size_t j, k;
	FILE *f;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/image-%02d.bin", dir, i);
		f = fopen(path, "wb");
		if (!f)
			return perror(path), 1;
		s = 0x6465766967ull + (uint64_t)i;
		for (left = size; left > 0; left -= (long)k) {
			k = sizeof(buf) < (size_t)left ? sizeof(buf) : (size_t)left;
			for (j = 0; j < sizeof(buf) / 8; j++)
				buf[j] = splitmix64(&s);
			if (fwrite(buf, 1, k, f) != k)
				return perror(path), 1;
		}
		if (fclose(f))
			return perror(path), 1;
	}
	return 0;
}

/* What DPC++'s clang-offload-wrapper writes for -kind=sycl -format=native. */
static int module(int n, char **paths)
{
	static char esc[256][4];
	unsigned char buf[1 << 16];
	long size[256];
	size_t k, j;
	FILE *f;
	int i, c;

	if (n > 256)
		return fprintf(stderr, "too many images\n"), 1;
	for (c = 0; c < 256; c++) {
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			snprintf(esc[c], 4, "%c", c);
		else
			snprintf(esc[c], 4, "\\%02X", c);
	}
	printf("%%__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }\n"
	       "%%__tgt_device_image = type { i16, i8, i8, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr }\n"
	       "%%__tgt_bin_desc = type { i16, i16, ptr, ptr, ptr }\n\n");
	for (i = 0; i < n; i++) {
		printf("@.sycl_offloading.target.%d = internal unnamed_addr constant [7 x i8] c\"spir64\\00\"\n"
		       "@.sycl_offloading.opts.compile.%d = internal unnamed_addr constant [1 x i8] zeroinitializer\n"
		       "@.sycl_offloading.opts.link.%d = internal unnamed_addr constant [1 x i8] zeroinitializer\n",
		       i, i, i);
		f = fopen(paths[i], "rb");
		if (!f)
			return perror(paths[i]), 1;
		if (fseek(f, 0, SEEK_END) || (size[i] = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET))
			return perror(paths[i]), 1;
		printf("@.sycl_offloading.%d.data = internal unnamed_addr constant [%ld x i8] c\"",
		       i, size[i]);
		while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
			for (j = 0; j < k; j++)
				fputs(esc[buf[j]], stdout);
		if (ferror(f))
			return perror(paths[i]), 1;
		fclose(f);
		printf("\", section \"__CLANG_OFFLOAD_BUNDLE__sycl-spir64\"\n");
	}
	printf("@.sycl_offloading.device_images = internal unnamed_addr constant [%d x %%__tgt_device_image] [\n",
	       n);
	for (i = 0; i < n; i++)
		printf("  %%__tgt_device_image { i16 2, i8 4, i8 1, ptr @.sycl_offloading.target.%d, ptr @.sycl_offloading.opts.compile.%d, ptr @.sycl_offloading.opts.link.%d, ptr null, ptr null, ptr @.sycl_offloading.%d.data, ptr getelementptr inbounds ([%ld x i8], ptr @.sycl_offloading.%d.data, i64 1, i64 0), ptr null, ptr null, ptr null, ptr null }%s\n",
		       i, i, i, i, size[i], i, i + 1 < n ? "," : "");
	printf("]\n"
	       "@.sycl_offloading.descriptor = internal constant %%__tgt_bin_desc { i16 1, i16 %d, ptr @.sycl_offloading.device_images, ptr null, ptr null }\n"
	       "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @.sycl_offloading.descriptor_reg, ptr null }]\n"
	       "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @.sycl_offloading.descriptor_unreg, ptr null }]\n\n"
	       "declare void @__sycl_register_lib(ptr)\n"
	       "declare void @__sycl_unregister_lib(ptr)\n\n"
	       "define internal void @.sycl_offloading.descriptor_reg() section \".text.startup\" {\n"
	       "entry:\n  call void @__sycl_register_lib(ptr @.sycl_offloading.descriptor)\n  ret void\n}\n\n"
	       "define internal void @.sycl_offloading.descriptor_unreg() section \".text.startup\" {\n"
	       "entry:\n  call void @__sycl_unregister_lib(ptr @.sycl_offloading.descriptor)\n  ret void\n}\n",
	       n);
	return fflush(stdout) ? (perror("stdout"), 1) : 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && argv[1][0] == 'i')
		return images(argv[2], atoi(argv[3]), atol(argv[4]));
	if (argc >= 3 && argv[1][0] == 'm')
		return module(argc - 2, argv + 2);
	fprintf(stderr, "usage: gen images DIR N SIZE | gen module FILE...\n");
	return 2;
}
EOF
}

stamp="images=$NIMAGES size=$IMAGE_SIZE gen=2"
if [ ! -f "$S/in/stamp" ] || [ "$(cat "$S/in/stamp")" != "$stamp" ]; then
	echo "generating $NIMAGES inputs of $IMAGE_MIB MiB in $S/in"
	rm -f "$S/in/"* "$S/wrapper.bc"
	gen_src >"$S/gen.c"
	$CC -O2 -o "$S/gen" "$S/gen.c" || die "cannot build the input generator with $CC"
	"$S/gen" images "$S/in" "$NIMAGES" "$IMAGE_SIZE" || die "input generation failed"
	echo "$stamp" >"$S/in/stamp"
fi

images=
i=0
while [ "$i" -lt "$NIMAGES" ]; do
	images="$images $S/in/image-$(printf %02d "$i").bin"
	i=$((i + 1))
done

# Both wrappers: a per-image option before every image, or a second file in
# a row would be read as the first one's manifest.
wrap_args=
for f in $images; do
	wrap_args="$wrap_args -target=spir64 $f"
done

# ---- the LLVM path ---------------------------------------------------------
if [ -z "${CLANG:-}" ] || [ "$CLANG" = no ]; then
	CLANG=
	for v in 23 22 21 20 19 18 17 16 15 ''; do
		CLANG=$(command -v "clang${v:+-$v}") && break
	done
fi
if [ -z "${CLANG_OFFLOAD_WRAPPER:-}" ] && [ -n "$CLANG" ]; then
	v=$(basename "$CLANG" | sed -n 's/^clang-\([0-9]*\)$/\1/p')
	CLANG_OFFLOAD_WRAPPER=$(command -v "clang-offload-wrapper${v:+-$v}" ||
		command -v clang-offload-wrapper || true)
fi
llvm_mode=none
llvm_why="no clang (clang-23 ... clang-15, clang) found"
if [ -n "$CLANG" ] && ! triple=$($CLANG -dumpmachine 2>/dev/null); then
	llvm_why="$CLANG -dumpmachine failed"
	CLANG=
fi
if [ -n "$CLANG" ]; then
	if [ -n "$CLANG_OFFLOAD_WRAPPER" ]; then
		# DPC++'s command line, else upstream's (OpenMP only: -host only).
		for cow_args in \
		    "-host=$triple -kind=sycl -format=native$wrap_args" \
		    "-host=$triple$images"; do
			if "$CLANG_OFFLOAD_WRAPPER" -o "$S/cow.bc" $cow_args \
			    >"$S/llvm.log" 2>&1; then
				llvm_mode=real
				break
			fi
		done
		[ "$llvm_mode" = real ] ||
			llvm_why="$CLANG_OFFLOAD_WRAPPER failed: $(head -n 1 "$S/llvm.log")"
	fi
	if [ "$llvm_mode" = none ]; then
		: "${LLVM_AS:=$(dirname "$CLANG")/llvm-as$(basename "$CLANG" | sed 's/^clang//')}"
		[ -x "$LLVM_AS" ] || LLVM_AS=$(command -v llvm-as-15 || command -v llvm-as || true)
		if [ -z "$LLVM_AS" ]; then
			llvm_why="llvm-as not found"
		elif [ -f "$S/wrapper.bc" ]; then
			llvm_mode=module
		else
			echo "generating the equivalent wrapper module (untimed)"
			[ -x "$S/gen" ] || { gen_src >"$S/gen.c" && $CC -O2 -o "$S/gen" "$S/gen.c"; }
			{
				$CLANG -x c /dev/null -S -emit-llvm -o - |
					grep -E '^target (datalayout|triple)'
				"$S/gen" module $images
			} >"$S/wrapper.ll"
			if "$LLVM_AS" "$S/wrapper.ll" -o "$S/wrapper.bc.tmp" 2>"$S/llvm.log"; then
				mv "$S/wrapper.bc.tmp" "$S/wrapper.bc"
				llvm_mode=module
			else
				llvm_why="$LLVM_AS failed: $(head -n 1 "$S/llvm.log")"
			fi
			rm -f "$S/wrapper.ll" "$S/wrapper.bc.tmp"
		fi
	fi
fi
case $llvm_mode in
real)	llvm_label="LLVM path ($CLANG_OFFLOAD_WRAPPER, then $(basename "$CLANG") -c -O2)" ;;
module)	llvm_label="LLVM path (clang -c of the equivalent wrapper module; clang-offload-wrapper not installed)"
	[ -z "$CLANG_OFFLOAD_WRAPPER" ] ||
		llvm_label="LLVM path (clang -c of the equivalent wrapper module; $llvm_why)" ;;
*)	llvm_label="LLVM path: not measured, $llvm_why" ;;
esac

# ---- the commands ------------------------------------------------------------
run_devimg() {
	"$RUNSTAT" -o "$1" "$WRAP" -o "$S/out-devimg.o" -kind=sycl \
		-format=native $wrap_args
}

run_ld() {
	"$RUNSTAT" -o "$1" $LD -r -b binary -o "$S/out-ld.o" $images
}

run_llvm() {
	if [ "$llvm_mode" = real ]; then
		"$RUNSTAT" -o "$1" sh -c "\"\$0\" -o \"\$1\" $cow_args &&
			$CLANG -c -O2 \"\$1\" -o \"\$2\"" \
			"$CLANG_OFFLOAD_WRAPPER" "$S/cow.bc" "$S/out-llvm.o"
	else
		"$RUNSTAT" -o "$1" $CLANG -c -O2 "$S/wrapper.bc" -o "$S/out-llvm.o"
	fi
}

tools="devimg ld"
[ "$llvm_mode" = none ] || tools="$tools llvm"

round=0
for t in $tools; do
	: >"$S/$t.runs"
done
while [ "$round" -le "$BENCH_RUNS" ]; do
	for t in $tools; do
		if ! "run_$t" "$S/stat" >"$S/$t.log" 2>&1; then
			cat "$S/$t.log" >&2
			die "$t failed (run $round), see above"
		fi
		# round 0 warms the page cache and the dynamic loader up
		[ "$round" -eq 0 ] ||
			sed -n 's/^wall_s=\([0-9.]*\) maxrss_kib=\([0-9]*\) .*/\1 \2/p' \
				"$S/stat" >>"$S/$t.runs"
	done
	round=$((round + 1))
done

median_ms() {
	cut -d ' ' -f 1 "$S/$1.runs" | sort -n | awk '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.1f", m * 1000 }'
}

peak_mib() {
	cut -d ' ' -f 2 "$S/$1.runs" | sort -n | tail -n 1 |
		awk '{ printf "%.1f", $1 / 1024 }'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { r = a / b; printf(r < 10 ? "%.2f" : "%.0f", r) }'
}

# ---- correctness, once: 16 image sections, each the input's bytes ----------
$READELF -SW "$S/out-devimg.o" >"$S/sections.txt"
nsec=$(sed -n 's/^ *\[ *[0-9]*\] //p' "$S/sections.txt" |
	awk -v want="$(printf %x "$IMAGE_SIZE")" \
	    '$1 ~ /^\.devimg\.image\.[0-9]+$/ { sub(/^0+/, "", $5) }
	     $1 ~ /^\.devimg\.image\.[0-9]+$/ && $5 == want { n++ }
	     END { print n + 0 }')
[ "$nsec" -eq "$NIMAGES" ] ||
	die "$S/out-devimg.o: $nsec .devimg.image.N sections of $IMAGE_SIZE bytes, expected $NIMAGES"
dump=
i=0
for f in $images; do
	dump="$dump --dump-section .devimg.image.$i=$S/dump-$i.bin"
	i=$((i + 1))
done
$OBJCOPY $dump "$S/out-devimg.o" "$S/dump.o"
i=0
for f in $images; do
	cmp -s "$f" "$S/dump-$i.bin" ||
		die "$S/out-devimg.o: .devimg.image.$i differs from $f"
	i=$((i + 1))
done
rm -f "$S"/dump-*.bin "$S/dump.o"

# ---- report ----------------------------------------------------------------
ld_ms=$(median_ms ld)
echo "wrapper benchmark: $NIMAGES images x $IMAGE_MIB MiB, 1 warm-up + $BENCH_RUNS timed runs each (interleaved)"
echo "devimg-wrap output checked: $NIMAGES .devimg.image.N sections of $IMAGE_MIB MiB, bytes equal to the inputs"
printf '%-18s %12s %14s %10s\n' command "wall ms" "peak RSS MiB" "vs ld"
for t in $tools; do
	case $t in
	devimg)	name=devimg-wrap ;;
	ld)	name="ld -r -b binary" ;;
	llvm)	name="LLVM path *" ;;
	esac
	printf '%-18s %12s %14s %9sx\n' "$name" "$(median_ms "$t")" \
		"$(peak_mib "$t")" "$(ratio "$(median_ms "$t")" "$ld_ms")"
done
case $llvm_mode in
none)	echo "$llvm_label" ;;
*)	echo "* $llvm_label" ;;
esac
echo

verdict() {
	if awk -v v="$1" -v op="$2" -v lim="$3" 'BEGIN {
		exit !(op == "<=" ? v <= lim : v >= lim) }'; then
		echo PASS
	else
		echo MISS
	fi
}

dw_ms=$(median_ms devimg)
r=$(ratio "$dw_ms" "$ld_ms")
echo "time vs ld -r -b binary: ${r}x (target <= 1.5x) $(verdict "$r" '<=' 1.5)"
if [ "$llvm_mode" = none ]; then
	echo "LLVM path / devimg-wrap: n/a (target >= 20x) SKIP: $llvm_why"
else
	r=$(ratio "$(median_ms llvm)" "$dw_ms")
	echo "LLVM path / devimg-wrap: ${r}x (target >= 20x) $(verdict "$r" '>=' 20)"
fi
rss=$(peak_mib devimg)
lim=$(awk -v m="$IMAGE_MIB" 'BEGIN { printf "%.1f", 1.1 * m + 16 }')
echo "peak RSS $rss MiB (target <= 1.1 x $IMAGE_MIB MiB + 16 MiB = $lim MiB) $(verdict "$rss" '<=' "$lim")"
exit 0
