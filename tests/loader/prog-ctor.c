// SPDX-License-Identifier: MIT
/*
 * Linked at build time with two wrapped objects: their images are
 * registered before any constructor of the program runs and before main,
 * the bytes are those of the input file, and the properties wrapped from
 * the .props text decode into the spec-constant model.
 * Usage: prog-ctor <image 0 file>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#define STRUCT_ID "9d329ad59055e972____ZL12StructSpecId"
#define BOOL_ID "9d329ad59055e972____ZL10BoolSpecId"

static size_t seen_in_ctor;

static void __attribute__((constructor)) user_ctor(void)
{
	devimg_registry_images(NULL, 0, &seen_in_ctor);
}

#define CHECK(cond, what)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL line %d: %s\n", __LINE__,	\
				what);					\
			exit(1);					\
		}							\
	} while (0)

static void check_bytes(struct devimg_image *img, const char *path)
{
	char want[4096];
	const void *bytes;
	size_t size, n;
	FILE *f = fopen(path, "rb");

	CHECK(f, "cannot open the image file");
	n = fread(want, 1, sizeof(want), f);
	fclose(f);
	CHECK(devimg_image_bin(img, &bytes, &size) == 0, "bin");
	CHECK(size == n && memcmp(bytes, want, n) == 0, "bytes differ");
}

static void check_spec_consts(struct devimg_image *img)
{
	static const unsigned char defaults[] = { 0x14, 0, 0, 0, 0x63, 0, 0, 0,
						  1 };
	const struct devimg_spec_const_info *c;
	const struct devimg_spec_native *list;
	struct devimg_spec_values *v;
	const void *blob;
	unsigned char yes = 1;
	size_t n, size;

	CHECK(devimg_image_spec_consts(img, &c, &n, &blob, &size) == 0,
	      "spec consts");
	CHECK(n == 2 && strcmp(c[0].name, STRUCT_ID) == 0 &&
	      strcmp(c[1].name, BOOL_ID) == 0, "spec const names");
	CHECK(size == sizeof(defaults) &&
	      memcmp(blob, defaults, size) == 0, "defaults blob");
	CHECK(devimg_spec_values_new(img, &v) == 0, "values");
	CHECK(devimg_spec_values_set(v, BOOL_ID, 1, &yes) == 0, "set");
	CHECK(devimg_spec_values_native(v, &list, &n) == 0 && n == 1 &&
	      list[0].id == 1, "native list");
	devimg_spec_values_unref(v);
}

int main(int argc, char **argv)
{
	struct devimg_image *imgs[4];
	size_t n;

	CHECK(argc == 2, "usage: prog-ctor IMAGE");
	CHECK(seen_in_ctor == 3, "images not registered before constructors");
	CHECK(devimg_registry_status() == 0, "registry status");
	CHECK(devimg_registry_find_kernel("k_shared", imgs, 4, &n) == 0 &&
	      n == 2, "k_shared");
	CHECK(strcmp(devimg_image_target(imgs[0]), "spir64") == 0,
	      "first registered first");
	CHECK(strcmp(devimg_image_target(imgs[1]), "nvptx64") == 0,
	      "second object second");
	check_bytes(imgs[0], argv[1]);
	check_spec_consts(imgs[0]);
	devimg_image_unref(imgs[0]);
	devimg_image_unref(imgs[1]);
	CHECK(devimg_registry_find_kernel("k_third", imgs, 4, &n) == 0 &&
	      n == 1, "k_third");
	CHECK(strcmp(devimg_image_compile_opts(imgs[0]), "-O3") == 0,
	      "compile options");
	devimg_image_unref(imgs[0]);
	printf("ok: %zu images registered before constructors\n",
	       seen_in_ctor);
	return 0;
}
