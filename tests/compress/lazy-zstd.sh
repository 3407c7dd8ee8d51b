#!/bin/sh
# libdevimg reaches libzstd only through props/unzstd.c, which loads it on
# the first compressed image: the library itself does not name it, so a
# program that never meets a compressed image does not load it. Checked
# twice: statically (no NEEDED libzstd, no ZSTD_ symbol) and at run time,
# by a program built here that reads /proc/self/maps: libzstd.so.1 is not
# mapped at start, nor once a library holding a plain and a compressed
# image is registered, nor after the plain image's bytes are read; it is
# mapped once the compressed image's bytes are read (expanded), and they
# are the input's.
. "$top_srcdir/tests/lib.sh"

so=$top_builddir/loader/.libs/libdevimg.so
[ -f "$so" ] || skip build "libdevimg.so not built"
command -v readelf >/dev/null || skip tools "readelf not found"
command -v nm >/dev/null || skip tools "nm not found"
readelf -d "$so" >"$scratch/dyn" 2>"$scratch/err" ||
	fail "readelf -d $so exited $?: $(cat "$scratch/err")"
grep -q '(NEEDED)' "$scratch/dyn" || fail "readelf shows no NEEDED: $(cat "$scratch/dyn")"
if grep '(NEEDED)' "$scratch/dyn" | grep -q zstd; then
	fail "libdevimg.so links libzstd: $(grep '(NEEDED)' "$scratch/dyn")"
fi
# The expander is the only place that names the library. nm's own failure
# is a failure, not a pass.
nm -D "$so" >"$scratch/syms" 2>"$scratch/err" ||
	fail "nm -D $so exited $?: $(cat "$scratch/err")"
grep -q ' T devimg_' "$scratch/syms" ||
	fail "nm -D $so lists no devimg_ function: $(head -n 5 "$scratch/syms")"
if grep -q ' U ZSTD_' "$scratch/syms"; then
	fail "libdevimg.so calls libzstd directly: $(grep ZSTD_ "$scratch/syms")"
fi
echo "ok: libdevimg.so does not link libzstd"

# ---- run time: loaded on the first compressed image, not before ----

WRAP=$top_builddir/devimg-wrap
[ -x "$WRAP" ] || fail "devimg-wrap is not built"
[ -e /usr/lib/x86_64-linux-gnu/libzstd.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libzstd.so.1 ] ||
	[ -e /usr/lib64/libzstd.so.1 ] || [ -e /usr/lib/libzstd.so.1 ] ||
	skip tools "libzstd.so.1 is not installed"
cd "$scratch"
# Two images: plain (under the 512-byte threshold), then compressed.
awk 'BEGIN { for (i = 0; i < 600; i++) printf "w%d ", (i * 7919) % 1000 }' >big
printf 'small' >small
"$WRAP" -o z.o -kind=sycl -offload-compress -target=spir64 small \
	-target=spir64 big 2>wrap.err ||
	fail "devimg-wrap -offload-compress exited $?: $(cat wrap.err)"
${CC:-cc} -shared -o libz.so z.o 2>link.err ||
	fail "cannot link devimg-wrap's output into libz.so: $(cat link.err)"

cat >lazy.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

/* 1 when libzstd.so.1 is mapped into this process. */
static int zstd_mapped(void)
{
	char line[4096];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f) {
		perror("/proc/self/maps");
		exit(1);
	}
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "/libzstd.so"))
			found = 1;
	fclose(f);
	return found;
}

#define EXPECT(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "FAIL: " __VA_ARGS__); \
			fputc('\n', stderr); \
			return 1; \
		} \
	} while (0)

int main(int argc, char **argv)
{
	struct devimg_image *imgs[2];
	const void *bytes;
	size_t n = 0, size;
	void *lib;
	int err;

	EXPECT(argc == 3, "usage: lazy LIBRARY EXPANDED-SIZE");
	EXPECT(!zstd_mapped(), "libzstd is mapped at start");
	lib = dlopen(argv[1], RTLD_NOW);
	EXPECT(lib, "dlopen: %s", dlerror());
	err = devimg_registry_images(imgs, 2, &n);
	EXPECT(err == 0 && n == 2, "registry_images: %d, %zu images", err, n);
	EXPECT(devimg_image_format(imgs[0]) != DEVIMG_FORMAT_COMPRESSED &&
		       devimg_image_format(imgs[1]) == DEVIMG_FORMAT_COMPRESSED,
	       "formats %d %d: want a plain image, then a compressed one",
	       (int)devimg_image_format(imgs[0]), (int)devimg_image_format(imgs[1]));
	EXPECT(!zstd_mapped(), "libzstd is mapped once the library is registered");
	printf("ok: not mapped at start nor after registration\n");

	err = devimg_image_bin(imgs[0], &bytes, &size);
	EXPECT(err == 0 && size == 5, "image 0: %d, %zu bytes", err, size);
	EXPECT(!zstd_mapped(), "libzstd is mapped after reading the plain image");
	printf("ok: not mapped after reading the plain image\n");

	err = devimg_image_bin(imgs[1], &bytes, &size);
	EXPECT(err == 0, "image 1: %s: %s", devimg_strerror(err), devimg_last_error());
	EXPECT(size == strtoul(argv[2], NULL, 10) &&
		       size > devimg_image_bin_size(imgs[1]),
	       "image 1 expands to %zu bytes (%zu stored), want %s", size,
	       devimg_image_bin_size(imgs[1]), argv[2]);
	EXPECT(zstd_mapped(), "libzstd is not mapped after expanding image 1");
	printf("ok: mapped once the compressed image is expanded (%zu -> %zu bytes)\n",
	       devimg_image_bin_size(imgs[1]), size);
	devimg_image_unref(imgs[0]);
	devimg_image_unref(imgs[1]);
	dlclose(lib);
	return 0;
}
C
# The build's flags (tests/loader/build-flags.sh, written by make check):
# a sanitizer build of libdevimg needs a sanitized program.
. "$top_builddir/tests/loader/build-flags.sh" ||
	fail "no tests/loader/build-flags.sh in the build tree"
# Not libzstd itself, which the program must not link.
ldflags=$(printf ' %s ' "$LOADER_LDFLAGS" | sed 's/ -lzstd / /g')
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -D_GNU_SOURCE $LOADER_CFLAGS -I"$top_srcdir" -I"$top_srcdir/include" \
	-o lazy lazy.c -L"$LOADER_LIBDIR" -Wl,-rpath,"$LOADER_LIBDIR" \
	-ldevimg -ldl $ldflags 2>cc.err ||
	fail "cannot build the test's program against devimg.h and libdevimg: $(cat cc.err)"
rc=0
./lazy "$scratch/libz.so" "$(wc -c <big)" >lazy.out 2>lazy.err || rc=$?
cat lazy.out
[ "$rc" -eq 0 ] || fail "lazy exited $rc: $(cat lazy.err)"
