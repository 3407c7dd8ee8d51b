// SPDX-License-Identifier: MIT
/*
 * Eight threads look kernels up, read what they get (copied names, the
 * image bytes through devimg_image_bin_copy(), property sets, selection)
 * while the main thread opens and closes three wrapped libraries at
 * random. Every image a lookup returns must define the name; nothing may
 * crash or race (run under TSan by make check-tsan).
 * Usage: prog-threads <folder of libA/B/C.so> [rounds]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#define NTHREADS 8
#define NLIBS 3
#define MAXIMGS 16

static const char *const lib_names[NLIBS] = { "A", "B", "C" };
static const char *const universe[] = {
	"k_all", "k_ab", "k_ac", "k_bc", "k_a", "k_b", "k_c", "k_none",
};

static atomic_int stop;
static atomic_int failed;

struct worker {
	pthread_t thread;
	unsigned seed;
	unsigned long lookups;
	unsigned long found;
	unsigned long stale;
};

static void fail(const char *what, const char *name)
{
	fprintf(stderr, "FAIL: %s (%s)\n", what, name);
	atomic_store(&failed, 1);
}

static int image_defines(const struct devimg_image *img, const char *name)
{
	size_t i;

	for (i = 0; i < devimg_image_entry_count(img); i++) {
		if (strcmp(devimg_image_entry_name(img, i), name) == 0)
			return 1;
	}
	return 0;
}

static void read_image(struct worker *w, struct devimg_image *img,
		       const char *name)
{
	const struct devimg_propset_info *sets;
	size_t size, nsets;
	void *bytes;
	int r;

	if (!image_defines(img, name))
		fail("image does not define the name it was found by", name);
	r = devimg_image_bin_copy(img, &bytes, &size);
	if (r == 0) {
		if (size < 4 || (memcmp(bytes, "\003\002\043\007", 4) != 0 &&
				 memcmp(bytes, "//", 2) != 0))
			fail("image bytes lack their magic", name);
		free(bytes);
	} else if (r == -ESTALE) {
		w->stale++;
	} else {
		fail("devimg_image_bin_copy", name);
	}
	r = devimg_image_propsets(img, &sets, &nsets);
	if (r != 0 && r != -ESTALE)
		fail("devimg_image_propsets", name);
}

static void lookup_once(struct worker *w)
{
	static const struct devimg_device_caps cpu = {
		sizeof(cpu), DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 1, 1, 0
	};
	const char *name = universe[rand_r(&w->seed) %
				    (sizeof(universe) / sizeof(universe[0]))];
	struct devimg_image *imgs[MAXIMGS];
	size_t n, i, chosen;
	int r;

	r = devimg_registry_find_kernel(name, imgs, MAXIMGS, &n);
	w->lookups++;
	if (r == -ENOENT)
		return;
	if (r != 0 || n > 6) {
		fail("lookup result", name);
		return;
	}
	w->found += n;
	for (i = 0; i < n; i++)
		read_image(w, imgs[i], name);
	r = devimg_select_image(&cpu, imgs, n, &chosen, NULL);
	if (r != 0 && r != -ENOEXEC)
		fail("devimg_select_image", name);
	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
}

static void *lookup_thread(void *arg)
{
	struct worker *w = arg;
	size_t n;

	while (!atomic_load(&stop) && !atomic_load(&failed)) {
		lookup_once(w);
		if (w->lookups % 64 == 0 &&
		    devimg_registry_images(NULL, 0, &n) == 0 && n > 6)
			fail("more images than three libraries hold", "-");
	}
	return NULL;
}

static void *open_lib(const char *folder, int i)
{
	char path[4096];
	void *h;

	snprintf(path, sizeof(path), "%s/lib%s.so", folder, lib_names[i]);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		exit(1);
	}
	return h;
}

static void churn(const char *folder, unsigned long rounds)
{
	void *handles[NLIBS] = { NULL };
	unsigned seed = 12345;
	unsigned long r;
	int i;

	for (r = 0; r < rounds && !atomic_load(&failed); r++) {
		i = (int)(rand_r(&seed) % NLIBS);
		if (handles[i]) {
			dlclose(handles[i]);
			handles[i] = NULL;
		} else {
			handles[i] = open_lib(folder, i);
		}
	}
	for (i = 0; i < NLIBS; i++) {
		if (handles[i])
			dlclose(handles[i]);
	}
}

int main(int argc, char **argv)
{
	struct worker w[NTHREADS];
	unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 10) : 2000;
	unsigned long lookups = 0, found = 0, stale = 0;
	size_t n;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FOLDER [ROUNDS]\n", argv[0]);
		return 2;
	}
	memset(w, 0, sizeof(w));
	for (i = 0; i < NTHREADS; i++) {
		w[i].seed = (unsigned)i + 1;
		if (pthread_create(&w[i].thread, NULL, lookup_thread, &w[i])) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	}
	churn(argv[1], rounds);
	atomic_store(&stop, 1);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(w[i].thread, NULL);
		lookups += w[i].lookups;
		found += w[i].found;
		stale += w[i].stale;
	}
	if (devimg_registry_images(NULL, 0, &n) != 0 || n != 0)
		fail("images left after closing every library", "-");
	if (atomic_load(&failed))
		return 1;
	printf("ok: %lu dlopen/dlclose, %d threads, %lu lookups, %lu images seen, %lu unloaded under a reader\n",
	       rounds, NTHREADS, lookups, found, stale);
	return 0;
}
