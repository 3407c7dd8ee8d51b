// SPDX-License-Identifier: MIT
/*
 * The dispatch API end to end: opens a library of wrapped images, makes a
 * context, runs kernels on its first device and checks them against the
 * host. Modes: "main" (vadd, global offsets, local-memory reduction,
 * spec constants, program cache, missing kernel), "nocompat"
 * (only images for another backend), "broken" (a failing build),
 * "threads" (threads launching their own kernels on their own queues),
 * "shared" (threads launching one kernel object while it is changed),
 * "pick" (one kernel in images for several targets: the value the launch
 * writes says which image was chosen), "vadd" (that test alone).
 * A third argument says how spec_k's spec constants must reach the device:
 * "emulated" (the default: SPIR bitcode or PTX, a buffer argument) or
 * "native" (SPIR-V with SpecIds on a device that takes SPIR-V).
 * Exits 77 when there is no device.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>
#include "tests/runner.h"
#include "tests/dispatch/checks.h"

static int test_vadd(struct env *e)
{
	enum { N = 1000 };
	float a[N], b[N], c[N];
	struct devimg_buf *ba, *bb, *bc;
	struct devimg_kernel *k;
	size_t g = N;
	unsigned builds;
	int i, err;

	for (i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(N - i);
	}
	err = devimg_kernel_new(e->dev, "vadd", &k);
	CHECK(err == 0, "kernel_new(vadd): %d", err);
	CHECK(devimg_kernel_arg_count(k) == 3, "vadd has %u args",
	      devimg_kernel_arg_count(k));
	CHECK(!devimg_buf_new(e->dev, sizeof(a), &ba) &&
	      !devimg_buf_new(e->dev, sizeof(b), &bb) &&
	      !devimg_buf_new(e->dev, sizeof(c), &bc), "buf_new");
	CHECK(!devimg_buf_write(e->q, ba, 0, sizeof(a), a) &&
	      !devimg_buf_write(e->q, bb, 0, sizeof(b), b), "buf_write");
	CHECK(devimg_buf_write(e->q, ba, 4, sizeof(a), a) == -EINVAL,
	      "write past the end");
	CHECK(devimg_launch(e->q, k, 1, NULL, &g, NULL) == -EINVAL,
	      "launch with unset arguments");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, ba) &&
	      !devimg_kernel_set_arg_buf(k, 1, bb) &&
	      !devimg_kernel_set_arg_buf(k, 2, bc), "set_arg_buf");
	CHECK(devimg_kernel_set_arg_buf(k, 3, bc) == -EINVAL, "arg 3");
	{
		/* Ranges that wrap size_t are refused before the driver. */
		const size_t max3[3] = { SIZE_MAX, SIZE_MAX, SIZE_MAX };
		const size_t off[1] = { SIZE_MAX }, two[1] = { 2 };
		const size_t g3[1] = { 4 }, l3[1] = { 3 }, l0[1] = { 0 };

		CHECK(devimg_launch(e->q, k, 3, NULL, max3, NULL) == -EINVAL &&
		      strstr(devimg_last_error(), "dimension 1"),
		      "SIZE_MAX work-items in 3 dimensions: %s",
		      devimg_last_error());
		CHECK(devimg_launch(e->q, k, 1, off, two, NULL) < 0,
		      "offset + size past SIZE_MAX launched");
		CHECK(devimg_launch(e->q, k, 1, NULL, g3, l3) == -EINVAL &&
		      strstr(devimg_last_error(), "not a multiple"),
		      "local size 3 of 4: %s", devimg_last_error());
		CHECK(devimg_launch(e->q, k, 1, NULL, g3, l0) == -EINVAL &&
		      strstr(devimg_last_error(),
			     "not a multiple of local size 0"),
		      "local size 0: %s", devimg_last_error());
	}
	err = devimg_launch(e->q, k, 1, NULL, &g, NULL);
	CHECK(err == 0, "launch: %d", err);
	CHECK(!devimg_queue_finish(e->q), "finish");
	CHECK(!devimg_buf_read(e->q, bc, 0, sizeof(c), c), "read");
	for (i = 0; i < N; i++)
		CHECK(c[i] == a[i] + b[i], "c[%d] = %g, want %g", i, c[i],
		      a[i] + b[i]);
	/* A second kernel object comes from the program cache. */
	builds = devimg_ctx_stat_builds(e->ctx);
	devimg_kernel_unref(k);
	err = devimg_kernel_new(e->dev, "vadd", &k);
	CHECK(err == 0, "kernel_new(vadd) again: %d", err);
	CHECK(devimg_ctx_stat_builds(e->ctx) == builds,
	      "vadd rebuilt: %u builds, was %u",
	      devimg_ctx_stat_builds(e->ctx), builds);
	devimg_kernel_unref(k);
	devimg_buf_unref(ba);
	devimg_buf_unref(bb);
	CHECK(devimg_buf_unref(bc) == NULL, "buf_unref did not free");
	printf("ok vadd, buffer bounds, unset args, program cache\n");
	return 0;
}

/* Launch offN with offset/global in dims dimensions, check every cell. */
static int test_offset(struct env *e, unsigned dims)
{
	static const size_t off[3] = { 3, 2, 1 };
	struct dispatch_offset o;
	size_t x, y, z;

	if (dispatch_offset_launch(e, &o, dims, RUNNER_SUMS))
		return -1;
	CHECK(!devimg_queue_finish(e->q), "finish");
	CHECK(!devimg_buf_read(e->q, o.b, 0, o.total * sizeof(*o.out), o.out),
	      "read");
	for (z = 0; z < o.ext[2]; z++)
		for (y = 0; y < o.ext[1]; y++)
			for (x = 0; x < o.ext[0]; x++) {
				int in = x >= off[0] &&
					(dims < 2 || y >= off[1]) &&
					(dims < 3 || z >= off[2]);
				int want = in ? (int)(z * 1000000 + y * 1000 +
						      x) + 1 : 0;
				int got = o.out[(z * o.ext[1] + y) * o.ext[0] +
						x];

				CHECK(got == want, "%s (%zu,%zu,%zu) = %d, want %d",
				      o.name, x, y, z, got, want);
			}
	devimg_kernel_unref(o.k);
	devimg_buf_unref(o.b);
	free(o.out);
	printf("ok global offset in %u dimension%s\n", dims,
	       dims > 1 ? "s" : "");
	return 0;
}

static int test_missing(struct env *e)
{
	struct devimg_kernel *k = NULL;
	int err = devimg_kernel_new(e->dev, "no_such_kernel_xyz", &k);

	CHECK(err == -ENOENT && !k, "missing kernel: %d", err);
	CHECK(strstr(devimg_last_error(), "no_such_kernel_xyz"),
	      "message lacks the name: %s", devimg_last_error());
	printf("ok missing kernel: -ENOENT, named\n");
	return 0;
}

static int test_nocompat(struct env *e)
{
	struct devimg_kernel *k = NULL;
	int err = devimg_kernel_new(e->dev, "ptx_only", &k);

	CHECK(err == -ENOEXEC && !k, "no compatible image: %d", err);
	CHECK(strstr(devimg_last_error(), "ptx_only") &&
	      strstr(devimg_last_error(), "nvptx64"),
	      "message lacks the kernel or the rejection: %s",
	      devimg_last_error());
	printf("ok no compatible image: -ENOEXEC: %s\n", devimg_last_error());
	return 0;
}

static int test_broken(struct env *e)
{
	struct devimg_kernel *k = NULL;
	int err = devimg_kernel_new(e->dev, "broken_k", &k);

	CHECK(err == -ENOEXEC && !k, "broken build: %d", err);
	CHECK(strstr(devimg_last_error(), "devimg_dispatch_missing"),
	      "build log missing from: %s", devimg_last_error());
	printf("ok build failure: -ENOEXEC with the build log\n");
	return 0;
}

/* Run the one-argument kernel name and return what it wrote. */
static int pick_run(struct env *e, const char *name, int *value)
{
	struct devimg_kernel *k;
	struct devimg_buf *b;
	size_t g = 1;

	*value = -1;
	CHECK(!devimg_kernel_new(e->dev, name, &k), "kernel_new(%s)", name);
	CHECK(!devimg_buf_new(e->dev, sizeof(*value), &b), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b) &&
	      !devimg_launch(e->q, k, 1, NULL, &g, NULL) &&
	      !devimg_buf_read(e->q, b, 0, sizeof(*value), value),
	      "run %s", name);
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	return 0;
}

/*
 * "which" is in a spir64, a spir64_gen and a spir64_x86_64 image (values
 * 1, 2, 3): a CPU takes its own target. "last" is in two spir64 images
 * and one spir64_fpga image (10, 20, 30): the last generic one is taken.
 */
static int test_pick(struct env *e)
{
	struct devimg_device_caps caps = { .size = sizeof(caps) };
	int v;

	CHECK(!devimg_device_caps(e->dev, &caps) &&
	      caps.type == DEVIMG_DEVICE_CPU, "pick expects a CPU device");
	if (pick_run(e, "which", &v))
		return -1;
	CHECK(v == 3, "which: image %d ran, want 3 (spir64_x86_64)", v);
	if (pick_run(e, "last", &v))
		return -1;
	CHECK(v == 20, "last: image %d ran, want 20 (the last spir64)", v);
	printf("ok image choice: the CPU's own target first, else the last spir64\n");
	return 0;
}

/* Six threads on their own queues, 25 launches each, sums read back. */
static int test_threads(struct env *e)
{
	return runner_threads(e, 6, 25, 512, RUNNER_SUMS);
}

enum { SHARED_N = 256, SHARED_THREADS = 4, SHARED_LAUNCHES = 200 };

struct shared {
	struct env *e;
	struct devimg_kernel *k;
	atomic_uint failures;
};

/* Launch the shared kernel on a queue of its own; 0 or 1 (failed). */
static void *shared_launcher(void *arg)
{
	struct shared *s = arg;
	struct devimg_queue *q;
	size_t g = SHARED_N;
	unsigned i;

	if (devimg_queue_new(s->e->dev, &q)) {
		atomic_fetch_add(&s->failures, 1);
		return NULL;
	}
	for (i = 0; i < SHARED_LAUNCHES; i++)
		if (devimg_launch(q, s->k, 1, NULL, &g, NULL)) {
			fprintf(stderr, "launch %u: %s\n", i,
				devimg_last_error());
			atomic_fetch_add(&s->failures, 1);
			break;
		}
	if (devimg_queue_finish(q))
		atomic_fetch_add(&s->failures, 1);
	devimg_queue_unref(q);
	return NULL;
}

/*
 * One kernel object launched by threads on their own queues while the
 * main thread sets its arguments again and again (to the same buffers):
 * no launch may fail or see an argument unset, and the sums are right.
 */
static int test_shared(struct env *e)
{
	float a[SHARED_N], b[SHARED_N], c[SHARED_N];
	struct devimg_buf *ba, *bb, *bc;
	struct shared s = { .e = e };
	pthread_t t[SHARED_THREADS];
	unsigned i, j;

	for (i = 0; i < SHARED_N; i++) {
		a[i] = (float)i;
		b[i] = (float)(3 * i + 1);
	}
	atomic_init(&s.failures, 0);
	CHECK(!devimg_kernel_new(e->dev, "vadd", &s.k), "kernel_new(vadd)");
	CHECK(!devimg_buf_new(e->dev, sizeof(a), &ba) &&
	      !devimg_buf_new(e->dev, sizeof(b), &bb) &&
	      !devimg_buf_new(e->dev, sizeof(c), &bc), "buf_new");
	CHECK(!devimg_buf_write(e->q, ba, 0, sizeof(a), a) &&
	      !devimg_buf_write(e->q, bb, 0, sizeof(b), b) &&
	      !devimg_queue_finish(e->q), "buf_write");
	CHECK(!devimg_kernel_set_arg_buf(s.k, 0, ba) &&
	      !devimg_kernel_set_arg_buf(s.k, 1, bb) &&
	      !devimg_kernel_set_arg_buf(s.k, 2, bc), "set_arg_buf");
	for (i = 0; i < SHARED_THREADS; i++)
		CHECK(!pthread_create(&t[i], NULL, shared_launcher, &s),
		      "pthread_create");
	for (j = 0; j < 2 * SHARED_LAUNCHES; j++)
		if (devimg_kernel_set_arg_buf(s.k, j % 2, j % 2 ? bb : ba))
			atomic_fetch_add(&s.failures, 1);
	for (i = 0; i < SHARED_THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(atomic_load(&s.failures) == 0, "%u shared launches failed",
	      atomic_load(&s.failures));
	CHECK(!devimg_buf_read(e->q, bc, 0, sizeof(c), c), "buf_read");
	for (i = 0; i < SHARED_N; i++)
		CHECK(c[i] == a[i] + b[i], "c[%u] = %g, want %g", i, c[i],
		      a[i] + b[i]);
	devimg_kernel_unref(s.k);
	devimg_buf_unref(ba);
	devimg_buf_unref(bb);
	devimg_buf_unref(bc);
	printf("ok %u threads launched one kernel %u times each while its arguments were set again\n",
	       SHARED_THREADS, SHARED_LAUNCHES);
	return 0;
}

int main(int argc, char **argv)
{
	struct devimg_device_caps caps = { .size = sizeof(caps) };
	struct env e = { 0 };
	unsigned dims;
	int err, native = 0;
	void *lib;

	if (argc == 4 && !strcmp(argv[3], "native"))
		native = 1;
	else if (argc != 3 && (argc != 4 || strcmp(argv[3], "emulated"))) {
		fprintf(stderr, "usage: %s main|vadd|nocompat|broken|threads|shared|pick LIBRARY [emulated|native]\n",
			argv[0]);
		return 2;
	}
	if (runner_ctx(&e, argv[2], &lib))
		return 1;
	err = runner_device(&e, NULL);
	if (err)
		return err;
	if (native && (devimg_device_caps(e.dev, &caps) || !caps.spirv)) {
		fprintf(stderr, "FAIL: native spec constants expected, but the device does not take SPIR-V\n");
		return 1;
	}
	if (!strcmp(argv[1], "main")) {
		if (!test_vadd(&e) && !dispatch_reduce(&e, RUNNER_SUMS) &&
		    !dispatch_spec(&e, native, RUNNER_SUMS))
			for (dims = 1; dims <= 3; dims++)
				if (test_offset(&e, dims))
					break;
		test_missing(&e);
	} else if (!strcmp(argv[1], "nocompat")) {
		test_nocompat(&e);
	} else if (!strcmp(argv[1], "threads")) {
		test_threads(&e);
	} else if (!strcmp(argv[1], "shared")) {
		test_shared(&e);
	} else if (!strcmp(argv[1], "vadd")) {
		test_vadd(&e);
	} else if (!strcmp(argv[1], "pick")) {
		test_pick(&e);
	} else if (!strcmp(argv[1], "broken")) {
		test_broken(&e);
	} else {
		fprintf(stderr, "unknown mode %s\n", argv[1]);
		return 2;
	}
	runner_close(&e);
	return failed;
}
