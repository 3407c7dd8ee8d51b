// SPDX-License-Identifier: MIT
/*
 * globals-pocl LIBRARY: device globals through the public API on an
 * OpenCL device without cl_intel_global_variable_access (PoCL). LIBRARY
 * carries globals-pocl.ll's image (SPIR bitcode or SPIR-V) with its
 * "SYCL/device globals" set: COUNTER_ID (16 bytes, device_image_scope)
 * and SHARED_ID (4 bytes, without). Both are found with their size and
 * scope; every read and write is -ENOTSUP, the message naming the
 * extension for the counter and the device address the OpenCL plugin
 * cannot give (mem_address) for the other; the image's kernel peek still
 * builds and runs, reading the counter's initializer on the device.
 * Exits 77 without a device; fails when device 0 is not OpenCL.
 */
#include <stdint.h>

#include "tests/runner.h"

#define COUNTER_ID "5b0e41c7a93d2f68____ZL7counter"
#define SHARED_ID "5b0e41c7a93d2f68____ZL6shared"

static struct env env;

/* The global id, which the properties say has size bytes and scope. */
static int find(const char *id, size_t size, int scope,
		const struct devimg_global **g)
{
	int err = devimg_global_find(id, g);

	CHECK(err == 0, "global_find(%s): %d", id, err);
	CHECK(!strcmp(devimg_global_id(*g), id), "id %s", devimg_global_id(*g));
	CHECK(devimg_global_size(*g) == size &&
	      devimg_global_image_scope(*g) == scope,
	      "%s: size %zu, image scope %d", id, devimg_global_size(*g),
	      devimg_global_image_scope(*g));
	printf("ok find %s: %zu bytes, image scope %d\n", id, size, scope);
	return 0;
}

/*
 * A write, then a read, of g: each -ENOTSUP, its message naming the
 * global and containing what, the host's value untouched.
 */
static int unsupported(const struct devimg_global *g, const char *what)
{
	static const char *const fn[] = { "global_write", "global_read" };
	const char *id = devimg_global_id(g), *msg;
	uint32_t v = 41;
	int err, i;

	for (i = 0; i < 2; i++) {
		err = i ? devimg_global_read(env.q, g, 0, sizeof(v), &v) :
			  devimg_global_write(env.q, g, 0, sizeof(v), &v);
		msg = devimg_last_error();
		CHECK(err == -ENOTSUP, "%s(%s): %d", fn[i], id, err);
		CHECK(strstr(msg, id) && strstr(msg, what),
		      "%s(%s): the message does not name %s", fn[i], id, what);
		CHECK(v == 41, "%s(%s) changed the host value to %u", fn[i],
		      id, v);
		printf("# %s: %s\n", fn[i], msg);
	}
	printf("ok %s: write and read -ENOTSUP naming %s\n", id, what);
	return 0;
}

/*
 * peek over 4 work-items: out[i] = counter[i] + 100 from the counter's
 * initializer 5 6 7 8; out[4] = 1 while shared's pointer is null.
 */
static int peek(void)
{
	const uint32_t want[5] = { 105, 106, 107, 108, 1 };
	uint32_t out[5] = { 0 };
	const size_t four = 4;
	struct devimg_kernel *k;
	struct devimg_buf *b;
	char before[256];
	int err;

	/*
	 * Building peek's program cannot give shared its address: that is
	 * logged, and kernel_new still succeeds, leaving the message alone.
	 */
	snprintf(before, sizeof(before), "%s", devimg_last_error());
	err = devimg_kernel_new(env.dev, "peek", &k);
	CHECK(err == 0, "kernel_new(peek): %d", err);
	CHECK(!strcmp(devimg_last_error(), before),
	      "kernel_new(peek) succeeded but set the message \"%s\"",
	      devimg_last_error());
	if (runner_buf_with(&env, out, sizeof(out), &b)) {
		devimg_kernel_unref(k);
		return -1;
	}
	err = devimg_kernel_set_arg_buf(k, 0, b);
	if (!err)
		err = devimg_launch(env.q, k, 1, NULL, &four, &four);
	if (!err)
		err = devimg_buf_read(env.q, b, 0, sizeof(out), out);
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	CHECK(err == 0, "peek over 4 work-items: %d", err);
	CHECK(!memcmp(out, want, sizeof(want)),
	      "peek gave %u %u %u %u %u, want 105 106 107 108 1", out[0],
	      out[1], out[2], out[3], out[4]);
	printf("ok peek: %u %u %u %u %u\n", out[0], out[1], out[2], out[3],
	       out[4]);
	return 0;
}

int main(int argc, char **argv)
{
	const struct devimg_global *counter, *shared;
	void *lib;
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBRARY\n", argv[0]);
		return 2;
	}
	r = runner_ctx(&env, argv[1], &lib);
	if (r == 0)
		r = runner_device(&env, "opencl");
	if (r)
		return r;
	if (find(COUNTER_ID, 16, 1, &counter) == 0 &&
	    find(SHARED_ID, 4, 0, &shared) == 0 && peek() == 0 &&
	    unsupported(counter, "cl_intel_global_variable_access") == 0)
		unsupported(shared, "mem_address");
	runner_close(&env);
	return failed;
}
