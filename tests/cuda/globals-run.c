// SPDX-License-Identifier: MIT
/*
 * globals-run LIBRARY: device globals end to end on the first CUDA device
 * through libdevimg. LIBRARY carries globals.ptx (devimg_test_counter
 * with device_image_scope, initialized 5 6 7 8; devimg_test_ptr without
 * it; bump_counter, bump_ptr) and globals-b.ptx (devimg_test_ptr again;
 * bump_ptr_b), with their "SYCL/device globals" properties. The counter's
 * initializer is read, values written are seen by kernels that add to
 * them and read back after, and both images' kernels add to the one value
 * behind devimg_test_ptr. Exits 77 without a CUDA device.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "devimg/devimg.h"

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fprintf(stderr, " [devimg: %s]\n", devimg_last_error()); \
			return -1;					\
		}							\
	} while (0)

/* A host variable a SYCL integration footer would tie to the counter. */
static uint32_t host_counter[4];

/* Launch the one-work-item kernel name on q. */
static int run(struct devimg_device *dev, struct devimg_queue *q,
	       const char *name)
{
	const size_t one = 1;
	struct devimg_kernel *k;
	int err;

	err = devimg_kernel_new(dev, name, &k);
	CHECK(err == 0, "kernel_new(%s): %d", name, err);
	err = devimg_launch(q, k, 1, NULL, &one, &one);
	devimg_kernel_unref(k);
	CHECK(err == 0, "launch(%s): %d", name, err);
	return 0;
}

/* The global id, which the properties say has size bytes and scope. */
static int find(const char *id, size_t size, int scope,
		const struct devimg_global **g)
{
	int err = devimg_global_find(id, g);

	CHECK(err == 0, "global_find(%s): %d", id, err);
	CHECK(devimg_global_size(*g) == size &&
	      devimg_global_image_scope(*g) == scope,
	      "%s: size %zu, image scope %d", id, devimg_global_size(*g),
	      devimg_global_image_scope(*g));
	CHECK(!strcmp(devimg_global_id(*g), id), "id %s", devimg_global_id(*g));
	return 0;
}

/*
 * The counter's unique id as a SYCL compiler makes it; its PTX name,
 * devimg_test_counter, comes from the image's "@global_id_mapping".
 */
#define COUNTER_ID "6da74a122db9f35d____devimg_test_counter"

static int image_scope(struct devimg_device *dev, struct devimg_queue *q)
{
	const struct devimg_global *g, *h;
	uint32_t v[4] = { 0 }, w = 41;
	int err;

	if (find(COUNTER_ID, 16, 1, &g))
		return -1;
	err = devimg_global_bind_host(host_counter, COUNTER_ID);
	CHECK(err == 0, "bind_host: %d", err);
	err = devimg_global_find_host(host_counter, &h);
	CHECK(err == 0 && h == g, "find_host: %d", err);
	err = devimg_global_read(q, g, 0, sizeof(v), v);
	CHECK(err == 0 && v[0] == 5 && v[1] == 6 && v[2] == 7 && v[3] == 8,
	      "initial value: %d, %u %u %u %u", err, v[0], v[1], v[2], v[3]);
	err = devimg_global_write(q, g, 0, sizeof(w), &w);
	CHECK(err == 0, "write: %d", err);
	if (run(dev, q, "bump_counter") || run(dev, q, "bump_counter"))
		return -1;
	err = devimg_global_read(q, g, 0, 8, v);
	CHECK(err == 0 && v[0] == 43 && v[1] == 6, "after two bumps: %d, %u %u",
	      err, v[0], v[1]);
	err = devimg_global_write(q, g, 12, 8, v);
	CHECK(err == -EINVAL, "a write past the counter: %d", err);
	printf("ok devimg_test_counter: initializer, write, two launches, read\n");
	return 0;
}

static int shared_pointer(struct devimg_device *dev, struct devimg_queue *q)
{
	const struct devimg_global *g;
	uint32_t v = 100;
	int err;

	if (find("devimg_test_ptr", 4, 0, &g))
		return -1;
	err = devimg_global_write(q, g, 0, sizeof(v), &v);
	CHECK(err == 0, "write: %d", err);
	if (run(dev, q, "bump_ptr") || run(dev, q, "bump_ptr_b") ||
	    run(dev, q, "bump_ptr"))
		return -1;
	v = 0;
	err = devimg_global_read(q, g, 0, sizeof(v), &v);
	CHECK(err == 0 && v == 112, "after bumps in both images: %d, %u", err,
	      v);
	printf("ok devimg_test_ptr: one value behind both images' variables\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct devimg_device *dev = NULL;
	struct devimg_queue *q = NULL;
	struct devimg_ctx *ctx;
	unsigned i;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBRARY\n", argv[0]);
		return 2;
	}
	if (!dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
		fprintf(stderr, "FAIL: %s\n", dlerror());
		return 1;
	}
	if (devimg_ctx_new(&ctx)) {
		fprintf(stderr, "FAIL: ctx_new: %s\n", devimg_last_error());
		return 1;
	}
	for (i = 0; (dev = devimg_device_get(ctx, i)); i++)
		if (!strcmp(devimg_device_backend(dev), "cuda"))
			break;
	if (!dev) {
		printf("SKIP [cuda-device]: no CUDA device\n");
		devimg_ctx_unref(ctx);
		return 77;
	}
	printf("device: %s\n", devimg_device_name(dev));
	if (devimg_queue_new(dev, &q))
		fprintf(stderr, "FAIL: queue_new: %s\n", devimg_last_error());
	else if (image_scope(dev, q) == 0 && shared_pointer(dev, q) == 0)
		rc = 0;
	if (q)
		devimg_queue_unref(q);
	devimg_ctx_unref(ctx);
	return rc;
}
