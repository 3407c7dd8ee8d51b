// SPDX-License-Identifier: MIT
/*
 * dlopen() and dlclose() three wrapped libraries that share kernel names,
 * in all 6 orders of opening times all 6 orders of closing, and check
 * every lookup after every step against a model: which images define a
 * name, in registration order. Usage: prog-dlopen <folder of libA/B/C.so>
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#define NLIBS 3
#define MAXIMGS 16

struct lib {
	const char *name;
	const char *names[2][6];	/* entries of image 0 and 1 */
	void *handle;
};

static struct lib libs[NLIBS] = {
	{ "A", { { "k_all", "k_ab", "k_ac", "k_a" }, { "k_all", "k_a" } } },
	{ "B", { { "k_all", "k_ab", "k_bc", "k_b" }, { "k_all" } } },
	{ "C", { { "k_all", "k_ac", "k_bc", "k_c" }, { "k_all", "k_c" } } },
};

static const char *universe[] = {
	"k_all", "k_ab", "k_ac", "k_bc", "k_a", "k_b", "k_c", "marker_A0",
	"marker_C1", "k_none",
};

static const int perms[6][NLIBS] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
	{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
};

static const char *folder;
static int open_order[NLIBS];	/* libraries in registration order */
static int nopen;
static unsigned long checks;

#define CHECK(cond, ...)						\
	do {								\
		checks++;						\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			exit(1);					\
		}							\
	} while (0)

static int defines(const struct lib *l, int img, const char *name)
{
	int i;

	if (strncmp(name, "marker_", 7) == 0)
		return name[7] == l->name[0] && name[8] == '0' + img &&
		       !name[9];
	for (i = 0; i < 6 && l->names[img][i]; i++) {
		if (strcmp(l->names[img][i], name) == 0)
			return 1;
	}
	return 0;
}

/* "A0" for the image whose entries hold marker_A0. */
static void marker_of(const struct devimg_image *img, char out[3])
{
	size_t i;

	strcpy(out, "??");
	for (i = 0; i < devimg_image_entry_count(img); i++) {
		const char *e = devimg_image_entry_name(img, i);

		if (strncmp(e, "marker_", 7) == 0) {
			out[0] = e[7];
			out[1] = e[8];
		}
	}
}

static void check_name(const char *name)
{
	struct devimg_image *imgs[MAXIMGS];
	char want[MAXIMGS][3], got[3];
	size_t n = 0, k = 0, i;
	int o, m, r;

	for (o = 0; o < nopen; o++) {
		const struct lib *l = &libs[open_order[o]];

		for (m = 0; m < 2; m++) {
			if (defines(l, m, name))
				snprintf(want[k++], 3, "%s%d", l->name, m);
		}
	}
	r = devimg_registry_find_kernel(name, imgs, MAXIMGS, &n);
	CHECK(r == (k ? 0 : -ENOENT), "%s: find returned %d", name, r);
	CHECK(n == k, "%s: %zu images, expected %zu", name, n, k);
	for (i = 0; i < n; i++) {
		marker_of(imgs[i], got);
		CHECK(strcmp(got, want[i]) == 0, "%s: image %zu is %s, expected %s",
		      name, i, got, want[i]);
		CHECK(devimg_image_is_registered(imgs[i]), "%s: unregistered",
		      name);
		devimg_image_unref(imgs[i]);
	}
}

static void check_all(void)
{
	size_t i, n;

	for (i = 0; i < sizeof(universe) / sizeof(universe[0]); i++)
		check_name(universe[i]);
	CHECK(devimg_registry_images(NULL, 0, &n) == 0, "images");
	CHECK(n == 2 * (size_t)nopen, "%zu images registered, expected %d", n,
	      2 * nopen);
	CHECK(devimg_registry_status() == 0, "registry status %d",
	      devimg_registry_status());
}

static void open_lib(int i)
{
	int (*saw)(void);
	char path[4096];

	snprintf(path, sizeof(path), "%s/lib%s.so", folder, libs[i].name);
	libs[i].handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	CHECK(libs[i].handle, "dlopen %s: %s", path, dlerror());
	*(void **)&saw = dlsym(libs[i].handle, "fixture_lib_ctor_saw_images");
	CHECK(saw && saw(), "lib%s: its constructor did not see its images",
	      libs[i].name);
	open_order[nopen++] = i;
}

static void close_lib(int i)
{
	int o, k = 0;

	CHECK(dlclose(libs[i].handle) == 0, "dlclose: %s", dlerror());
	libs[i].handle = NULL;
	for (o = 0; o < nopen; o++) {
		if (open_order[o] != i)
			open_order[k++] = open_order[o];
	}
	nopen = k;
}

/* With all three open: DPC++'s choices among the six k_all images. */
static void check_selection(void)
{
	static const struct devimg_device_caps cpu = {
		sizeof(cpu), DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 1, 1, 0
	};
	static const struct devimg_device_caps cuda = {
		sizeof(cuda), DEVIMG_BACKEND_CUDA, DEVIMG_DEVICE_GPU, 0, 0, 80
	};
	struct devimg_image *imgs[MAXIMGS];
	char got[3];
	size_t n, chosen, i;

	CHECK(devimg_registry_find_kernel("k_all", imgs, MAXIMGS, &n) == 0,
	      "k_all");
	CHECK(devimg_select_image(&cpu, imgs, n, &chosen, NULL) == 0, "cpu");
	marker_of(imgs[chosen], got);
	CHECK(got[0] == libs[open_order[2]].name[0] && got[1] == '0',
	      "opencl cpu chose %s, expected the last spir64 image", got);
	CHECK(devimg_select_image(&cuda, imgs, n, &chosen, NULL) == 0, "cuda");
	marker_of(imgs[chosen], got);
	CHECK(got[0] == libs[open_order[0]].name[0] && got[1] == '1',
	      "cuda chose %s, expected the first nvptx64 image", got);
	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
}

/* A reference taken before dlclose() keeps the copied metadata. */
static void check_reference_survives_dlclose(void)
{
	struct devimg_image *img;
	const void *bytes;
	void *copy;
	size_t n;

	open_lib(0);
	CHECK(devimg_registry_find_kernel("marker_A0", &img, 1, &n) == 0,
	      "marker_A0");
	CHECK(devimg_image_bin_copy(img, &copy, &n) == 0, "bin copy");
	CHECK(n > 4 && memcmp(copy, "\003\002\043\007", 4) == 0, "SPIR-V");
	free(copy);
	close_lib(0);
	CHECK(!devimg_image_is_registered(img), "still registered");
	CHECK(devimg_image_bin(img, &bytes, &n) == -ESTALE, "bin not stale");
	CHECK(strcmp(devimg_image_target(img), "spir64") == 0, "target");
	CHECK(strcmp(devimg_image_entry_name(img, 4), "marker_A0") == 0,
	      "entry");
	CHECK(devimg_image_unref(img) == NULL, "not freed");
}

int main(int argc, char **argv)
{
	int p, q, s;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FOLDER\n", argv[0]);
		return 2;
	}
	folder = argv[1];
	check_all();
	check_reference_survives_dlclose();
	for (p = 0; p < 6; p++) {
		for (q = 0; q < 6; q++) {
			for (s = 0; s < NLIBS; s++) {
				open_lib(perms[p][s]);
				check_all();
			}
			check_selection();
			for (s = 0; s < NLIBS; s++) {
				close_lib(perms[q][s]);
				check_all();
			}
		}
	}
	printf("ok: 36 open/close orders, %lu checks\n", checks);
	return 0;
}
