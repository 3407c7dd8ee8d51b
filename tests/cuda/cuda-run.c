// SPDX-License-Identifier: MIT
/*
 * What only the CUDA lowering has, through the dispatch API and the CUDA
 * plugin. Modes:
 *   info                  list the CUDA devices, "cc NN" of the first;
 *                         exits 77 when there is none
 *   main LIBRARY          local memory laid out per docs/formats.md
 *                         section 11 (an int,
 *                         a double4 on its 32-byte boundary, 200 bytes on
 *                         128), more than 48 KiB of it, the twin or the
 *                         plain kernel by the global offset, a twin with
 *                         local memory and a spec-constant buffer
 *   multigpu LIBRARY      one kernel on two GPUs, and a buffer of one used
 *                         by the other; exits 77 with one GPU
 *   nodevice PLUGIN TEXT  the plugin binds with no platform and says TEXT,
 *                         devimg shows no CUDA device, OpenCL still works
 *   record LIBRARY        launches for the recording driver (fake-driver.c),
 *                         which runs no kernel: cuda.sh checks its record;
 *                         here only that every call succeeds
 *   link PLUGIN CALLER HELPER
 *                         the plugin alone: compile the two PTX files,
 *                         link them, run link_caller (and its twin); the
 *                         caller alone fails to link naming the helper;
 *                         no objects or one not compiled is -EINVAL. On a
 *                         GPU the kernel's results are checked too
 *   nolink PLUGIN CALLER  on a driver without cuLink*: link is -ENOTSUP
 * LIBRARY holds the kernels of cuda.cu and spec-off.cu (with spec.props).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#include "plugins/devimg_plugin.h"
#include "tests/runner.h"

/* The i-th CUDA device of ctx, or NULL. */
static struct devimg_device *cuda_device(struct devimg_ctx *ctx, unsigned i)
{
	unsigned n = devimg_device_count(ctx), j;

	for (j = 0; j < n; j++) {
		struct devimg_device *dev = devimg_device_get(ctx, j);

		if (!strcmp(devimg_device_backend(dev), "cuda") && i-- == 0)
			return dev;
	}
	return NULL;
}

static unsigned cuda_count(struct devimg_ctx *ctx)
{
	unsigned n = 0;

	while (cuda_device(ctx, n))
		n++;
	return n;
}

/* Where docs/formats.md section 11 puts local arguments: min(size, 128)
 * alignment. */
static int test_local_layout(struct env *e)
{
	static const size_t sizes[3] = { sizeof(int), 4 * sizeof(double), 200 };
	static const unsigned want[3] = { 0, 32, 128 };
	struct devimg_buf *bo, *bi, *bd;
	struct devimg_kernel *k;
	unsigned offs[3], i;
	size_t g = 2, l = 2;
	double d[4];
	int iv[2], sum = 0, err;

	for (i = 0; i < 200; i++)
		sum += (unsigned char)(i * 7);
	err = devimg_kernel_new(e->dev, "local_layout", &k);
	CHECK(err == 0, "kernel_new(local_layout): %d", err);
	CHECK(devimg_kernel_arg_count(k) == 6, "local_layout has %u args",
	      devimg_kernel_arg_count(k));
	CHECK(!devimg_buf_new(e->dev, sizeof(offs), &bo) &&
	      !devimg_buf_new(e->dev, sizeof(iv), &bi) &&
	      !devimg_buf_new(e->dev, sizeof(d), &bd), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, bo) &&
	      !devimg_kernel_set_arg_buf(k, 1, bi) &&
	      !devimg_kernel_set_arg_buf(k, 2, bd), "buffer args");
	for (i = 0; i < 3; i++)
		CHECK(!devimg_kernel_set_arg_local(k, 3 + i, sizes[i]),
		      "local arg %u", 3 + i);
	err = devimg_launch(e->q, k, 1, NULL, &g, &l);
	CHECK(err == 0, "launch local_layout: %d", err);
	CHECK(!devimg_buf_read(e->q, bo, 0, sizeof(offs), offs) &&
	      !devimg_buf_read(e->q, bi, 0, sizeof(iv), iv) &&
	      !devimg_buf_read(e->q, bd, 0, sizeof(d), d), "read");
	for (i = 0; i < 3; i++)
		CHECK(offs[i] == want[i],
		      "local argument %u (%zu bytes) at offset %u, want %u",
		      3 + i, sizes[i], offs[i], want[i]);
	CHECK(offs[1] % 32 == 0, "the double4 is not 32-byte aligned: %u",
	      offs[1]);
	CHECK(iv[0] == 12345 && iv[1] == sum, "int local %d (want 12345), bytes sum %d (want %d)",
	      iv[0], iv[1], sum);
	CHECK(d[0] == 1.5 && d[1] == -2.25 && d[2] == 1e100 && d[3] == 0.125,
	      "double4 local gave %g %g %g %g", d[0], d[1], d[2], d[3]);
	devimg_kernel_unref(k);
	devimg_buf_unref(bo);
	devimg_buf_unref(bi);
	devimg_buf_unref(bd);
	printf("ok local memory: int at 0, double4 at 32, 200 bytes at 128, values round-trip\n");
	return 0;
}

static int big_run(struct env *e, struct devimg_kernel *k,
		   struct devimg_buf *b, unsigned words)
{
	enum { G = 1024, L = 256 };
	size_t g = G, l = L;
	unsigned t, i;
	int *out, err;

	out = calloc(G, sizeof(*out));
	CHECK(out, "calloc");
	CHECK(!devimg_kernel_set_arg(k, 1, sizeof(words), &words) &&
	      !devimg_kernel_set_arg_local(k, 2, words * sizeof(int)),
	      "args for %u words", words);
	err = devimg_launch(e->q, k, 1, NULL, &g, &l);
	CHECK(err == 0, "launch big_shared with %zu bytes of local memory: %d",
	      words * sizeof(int), err);
	CHECK(!devimg_buf_read(e->q, b, 0, G * sizeof(*out), out), "read");
	for (t = 0; t < G; t++) {
		int want = 0;

		for (i = t % L; i < words; i += L)
			want += (int)((words - 1 - i) * 3 + t / L);
		CHECK(out[t] == want, "%u words: thread %u summed %d, want %d",
		      words, t, out[t], want);
	}
	free(out);
	return 0;
}

/* More than the 48 KiB a kernel gets without opting in, and too much. */
static int test_big_shared(struct env *e)
{
	struct devimg_device_caps caps = { .size = sizeof(caps) };
	struct devimg_kernel *k;
	struct devimg_buf *b;
	size_t g = 1024, l = 256;
	int err;

	CHECK(!devimg_device_caps(e->dev, &caps), "caps");
	if (caps.cuda_cc < 70) {
		printf("skip big local memory: compute capability %u.%u opts in to less than 64 KiB\n",
		       caps.cuda_cc / 10, caps.cuda_cc % 10);
		return 0;
	}
	err = devimg_kernel_new(e->dev, "big_shared", &k);
	CHECK(err == 0, "kernel_new(big_shared): %d", err);
	CHECK(!devimg_buf_new(e->dev, 1024 * sizeof(int), &b), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b), "arg 0");
	if (big_run(e, k, b, 256) || big_run(e, k, b, 12 * 1024) ||
	    big_run(e, k, b, 16 * 1024))
		return -1;
	CHECK(!devimg_kernel_set_arg_local(k, 2, 1024 * 1024), "1 MiB local");
	err = devimg_launch(e->q, k, 1, NULL, &g, &l);
	CHECK(err == -ENOMEM, "1 MiB of local memory: %d, want -ENOMEM", err);
	CHECK(strstr(devimg_last_error(), "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"),
	      "message does not name the limit: %s", devimg_last_error());
	if (big_run(e, k, b, 16 * 1024))
		return -1;
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok local memory: 48 KiB and 64 KiB (opted in), 1 MiB refused with the limit named\n");
	return 0;
}

/* Launch which (dims, offset) and check which of the pair ran. */
static int which_run(struct env *e, struct devimg_kernel *k,
		     struct devimg_buf *b, unsigned dims, const size_t *offset,
		     unsigned want, unsigned ox, unsigned oy, unsigned oz)
{
	static const size_t glob[3] = { 1, 1, 1 };
	unsigned out[4] = { 0, 0, 0, 0 };
	int err;

	CHECK(!devimg_buf_write(e->q, b, 0, sizeof(out), out), "zero");
	err = devimg_launch(e->q, k, dims, offset, glob, NULL);
	CHECK(err == 0, "launch which in %u dims: %d", dims, err);
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
	CHECK(out[0] == want, "%u dims, offset %zu,%zu,%zu: kernel %u ran, want %u (1 plain, 2 twin)",
	      dims, offset ? offset[0] : 0, offset && dims > 1 ? offset[1] : 0,
	      offset && dims > 2 ? offset[2] : 0, out[0], want);
	if (want == 2)
		CHECK(out[1] == ox && out[2] == oy && out[3] == oz,
		      "twin got offset %u,%u,%u, want %u,%u,%u", out[1],
		      out[2], out[3], ox, oy, oz);
	return 0;
}

static int test_twin(struct env *e)
{
	static const size_t zero[3] = { 0, 0, 0 }, x5[1] = { 5 },
		z9[3] = { 0, 0, 9 }, xy[2] = { 7, 8 }, off4[1] = { 4 };
	struct devimg_kernel *k;
	struct devimg_buf *b;
	unsigned out[8], i;
	size_t g = 8;
	int err;

	err = devimg_kernel_new(e->dev, "which", &k);
	CHECK(err == 0, "kernel_new(which): %d", err);
	CHECK(devimg_kernel_arg_count(k) == 1,
	      "which has %u args: the twin's offset is not the user's",
	      devimg_kernel_arg_count(k));
	CHECK(!devimg_buf_new(e->dev, sizeof(out), &b), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b), "arg 0");
	if (which_run(e, k, b, 1, NULL, 1, 0, 0, 0) ||
	    which_run(e, k, b, 3, zero, 1, 0, 0, 0) ||
	    which_run(e, k, b, 1, x5, 2, 5, 0, 0) ||
	    which_run(e, k, b, 2, xy, 2, 7, 8, 0) ||
	    which_run(e, k, b, 3, z9, 2, 0, 0, 9) ||
	    which_run(e, k, b, 1, NULL, 1, 0, 0, 0))
		return -1;
	devimg_kernel_unref(k);

	/* No twin: the plain kernel runs, and the offset is not its business. */
	err = devimg_kernel_new(e->dev, "notwin", &k);
	CHECK(err == 0, "kernel_new(notwin): %d", err);
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b), "arg 0");
	err = devimg_launch(e->q, k, 1, off4, &g, NULL);
	CHECK(err == 0, "launch notwin with an offset: %d", err);
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
	for (i = 0; i < 8; i++)
		CHECK(out[i] == i + 7, "notwin out[%u] = %u, want %u", i,
		      out[i], i + 7);
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok global offset: the twin when non-zero (missing dimensions 0), else the plain kernel\n");
	return 0;
}

/* Local memory, a spec-constant buffer and the twin's offset together. */
static int test_spec_twin(struct env *e)
{
	enum { N = 16 };
	static const size_t off3[1] = { 3 };
	struct devimg_kernel *k;
	struct devimg_buf *b;
	size_t g = 8, l = 4;
	int out[N], v = 40, i, err;

	err = devimg_kernel_new(e->dev, "spec_off", &k);
	CHECK(err == 0, "kernel_new(spec_off): %d", err);
	CHECK(devimg_kernel_arg_count(k) == 2,
	      "spec_off: %u user arguments, want 2", devimg_kernel_arg_count(k));
	CHECK(!devimg_buf_new(e->dev, sizeof(out), &b), "buf_new");
	memset(out, 0, sizeof(out));
	CHECK(!devimg_buf_write(e->q, b, 0, sizeof(out), out), "zero");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b) &&
	      !devimg_kernel_set_arg_local(k, 1, l * sizeof(int)), "args");
	CHECK(!devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v),
	      "set ScalarSpec");
	err = devimg_launch(e->q, k, 1, off3, &g, &l);
	CHECK(err == 0, "launch spec_off with an offset: %d", err);
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
	for (i = 0; i < N; i++) {
		int want = i >= 3 && i < 11 ? v + i : 0;

		CHECK(out[i] == want, "offset 3: out[%d] = %d, want %d", i,
		      out[i], want);
	}
	v = -100;
	CHECK(!devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v),
	      "set ScalarSpec again");
	err = devimg_launch(e->q, k, 1, NULL, &g, &l);
	CHECK(err == 0, "launch spec_off: %d", err);
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
	for (i = 0; i < N; i++) {
		int want = i < 8 ? v + i : i < 11 ? 40 + i : 0;

		CHECK(out[i] == want, "no offset: out[%d] = %d, want %d", i,
		      out[i], want);
	}
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok twin with local memory and a spec-constant buffer before the offset\n");
	return 0;
}

/* Rejections: a grid that does not divide, a wrong argument size. */
static int test_refusals(struct env *e)
{
	struct devimg_kernel *k;
	struct devimg_buf *b;
	size_t g = 10, l = 4;
	char c = 1;
	int err;

	err = devimg_kernel_new(e->dev, "scale", &k);
	CHECK(err == 0, "kernel_new(scale): %d", err);
	CHECK(!devimg_buf_new(e->dev, 16 * sizeof(float), &b), "buf_new");
	CHECK(devimg_kernel_set_arg(k, 1, sizeof(c), &c) == -EINVAL,
	      "a 1-byte value for a float parameter");
	CHECK(strstr(devimg_last_error(), "4 bytes"),
	      "message lacks the parameter size: %s", devimg_last_error());
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b) &&
	      !devimg_kernel_set_arg(k, 1, sizeof(float), &(float){ 2 }),
	      "args");
	err = devimg_launch(e->q, k, 1, NULL, &g, &l);
	CHECK(err == -EINVAL, "global 10 in groups of 4: %d", err);
	CHECK(strstr(devimg_last_error(), "multiple"),
	      "message: %s", devimg_last_error());
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok refusals: argument size, indivisible global size\n");
	return 0;
}

static int scale_check(struct devimg_queue *q, struct devimg_buf *b,
		       unsigned n, float f, const char *what)
{
	float *x = calloc(n, sizeof(*x));
	unsigned i;

	CHECK(x, "calloc");
	CHECK(!devimg_buf_read(q, b, 0, n * sizeof(*x), x), "read");
	for (i = 0; i < n; i++)
		CHECK(x[i] == (float)i * f + (float)i, "%s: x[%u] = %g, want %g",
		      what, i, x[i], (float)i * f + (float)i);
	free(x);
	return 0;
}

/* The same kernel on two GPUs at once, then one GPU on the other's buffer. */
static int test_multigpu(struct devimg_ctx *ctx)
{
	enum { N = 4096 };
	struct devimg_device *dev[2];
	struct devimg_queue *q[2] = { NULL, NULL };
	struct devimg_kernel *k[2] = { NULL, NULL };
	struct devimg_buf *b[2] = { NULL, NULL };
	float *x, f[2] = { 2, 3 };
	size_t g = N;
	unsigned d, i;

	x = calloc(N, sizeof(*x));
	CHECK(x, "calloc");
	for (i = 0; i < N; i++)
		x[i] = (float)i;
	for (d = 0; d < 2; d++) {
		dev[d] = cuda_device(ctx, d);
		printf("GPU %u: %s\n", d, devimg_device_name(dev[d]));
		CHECK(!devimg_queue_new(dev[d], &q[d]) &&
		      !devimg_kernel_new(dev[d], "scale", &k[d]) &&
		      !devimg_buf_new(dev[d], N * sizeof(float), &b[d]),
		      "setup on GPU %u", d);
		CHECK(!devimg_buf_write(q[d], b[d], 0, N * sizeof(float), x) &&
		      !devimg_kernel_set_arg_buf(k[d], 0, b[d]) &&
		      !devimg_kernel_set_arg(k[d], 1, sizeof(float), &f[d]),
		      "args on GPU %u", d);
	}
	/* Both in flight before either is waited for. */
	for (d = 0; d < 2; d++)
		CHECK(!devimg_launch(q[d], k[d], 1, NULL, &g, NULL),
		      "launch on GPU %u", d);
	for (d = 0; d < 2; d++)
		if (scale_check(q[d], b[d], N, f[d], d ? "GPU 1" : "GPU 0"))
			return -1;

	/* GPU 1 on the buffer made for GPU 0: buffers are the context's. */
	CHECK(!devimg_buf_write(q[0], b[0], 0, N * sizeof(float), x),
	      "rewrite");
	CHECK(!devimg_kernel_set_arg_buf(k[1], 0, b[0]) &&
	      !devimg_launch(q[1], k[1], 1, NULL, &g, NULL) &&
	      !devimg_queue_finish(q[1]), "GPU 1 on GPU 0's buffer");
	if (scale_check(q[0], b[0], N, f[1], "GPU 1 on GPU 0's buffer"))
		return -1;
	for (d = 0; d < 2; d++) {
		devimg_kernel_unref(k[d]);
		devimg_buf_unref(b[d]);
		devimg_queue_unref(q[d]);
	}
	free(x);
	printf("ok one kernel on two GPUs, and a buffer shared between them\n");
	return 0;
}

/* The plugin file, opened and initialised into ops, without devimg. */
static int plugin_open(const char *file, struct devimg_plugin_ops *ops,
		       void **handle)
{
	devimg_plugin_init_fn init;
	void *h;
	int rc;

	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	CHECK(h, "dlopen %s: %s", file, dlerror());
	init = (devimg_plugin_init_fn)dlsym(h, DEVIMG_PLUGIN_ENTRY);
	CHECK(init, "no %s in %s", DEVIMG_PLUGIN_ENTRY, file);
	memset(ops, 0, sizeof(*ops));
	ops->abi_version = DEVIMG_PLUGIN_ABI_VERSION;
	ops->size = sizeof(*ops);
	rc = init(DEVIMG_PLUGIN_ABI_VERSION, ops);
	CHECK(rc == 0, "init: %d (%s)", rc,
	      ops->last_error ? ops->last_error() : "");
	*handle = h;
	return 0;
}

/* The plugin alone: bound, no platform, and why. */
static int nodevice_plugin(const char *file, const char *expect)
{
	struct devimg_plugin_ops ops;
	unsigned count = 99;
	void *h;

	if (plugin_open(file, &ops, &h))
		return -1;
	CHECK(strstr(ops.last_error(), expect),
	      "init's message \"%s\" does not say \"%s\"", ops.last_error(),
	      expect);
	printf("plugin: %s\n", ops.last_error());
	CHECK(ops.platform_list(0, NULL, &count) == 0 && count == 0,
	      "%u platforms", count);
	CHECK(strstr(ops.last_error(), expect),
	      "platform_list's message \"%s\" does not say \"%s\"",
	      ops.last_error(), expect);
	ops.fini();
	dlclose(h);
	return 0;
}

/* Through devimg: no CUDA device, and an OpenCL device still works. */
static int nodevice_dispatch(void)
{
	static const char text[] = "devimg";
	struct devimg_device *dev = NULL;
	struct devimg_queue *q;
	struct devimg_buf *b;
	struct devimg_ctx *ctx;
	char back[sizeof(text)];
	unsigned i, n;
	int err;

	err = devimg_ctx_new(&ctx);
	CHECK(err == 0, "ctx_new: %d", err);
	CHECK(cuda_count(ctx) == 0, "%u CUDA devices", cuda_count(ctx));
	n = devimg_device_count(ctx);
	for (i = 0; i < n && !dev; i++)
		if (!strcmp(devimg_device_backend(devimg_device_get(ctx, i)),
			    "opencl"))
			dev = devimg_device_get(ctx, i);
	if (!dev) {
		printf("no OpenCL device beside: nothing more to check\n");
		devimg_ctx_unref(ctx);
		return 0;
	}
	CHECK(!devimg_queue_new(dev, &q) &&
	      !devimg_buf_new(dev, sizeof(text), &b) &&
	      !devimg_buf_write(q, b, 0, sizeof(text), text) &&
	      !devimg_buf_read(q, b, 0, sizeof(back), back) &&
	      !memcmp(text, back, sizeof(text)),
	      "a buffer round trip on %s", devimg_device_name(dev));
	devimg_buf_unref(b);
	devimg_queue_unref(q);
	printf("ok OpenCL device %s still works\n", devimg_device_name(dev));
	CHECK(devimg_ctx_unref(ctx) == NULL, "the context outlived its reference");
	return 0;
}

/* Set up kernel name on e->dev with buffers for its first nbuf args. */
static int record_kernel(struct env *e, const char *name, unsigned nbuf,
			 struct devimg_kernel **k, struct devimg_buf **b)
{
	unsigned i;

	CHECK(!devimg_kernel_new(e->dev, name, k), "kernel_new(%s)", name);
	CHECK(!devimg_buf_new(e->dev, 64 * 1024, b), "buf_new");
	for (i = 0; i < nbuf; i++)
		CHECK(!devimg_kernel_set_arg_buf(*k, i, *b), "%s arg %u", name, i);
	return 0;
}

static void *record_thread(void *arg)
{
	struct env *e = arg;
	struct devimg_queue *q = NULL;
	struct devimg_kernel *k = NULL;
	struct devimg_buf *b = NULL;
	size_t g = 64;
	float f = 1;
	intptr_t bad = 1;

	if (!devimg_queue_new(e->dev, &q) &&
	    !devimg_kernel_new(e->dev, "scale", &k) &&
	    !devimg_buf_new(e->dev, g * sizeof(float), &b) &&
	    !devimg_kernel_set_arg_buf(k, 0, b) &&
	    !devimg_kernel_set_arg(k, 1, sizeof(f), &f) &&
	    !devimg_launch(q, k, 1, NULL, &g, NULL) &&
	    !devimg_queue_finish(q))
		bad = 0;
	else
		fprintf(stderr, "thread: %s\n", devimg_last_error());
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	devimg_queue_unref(q);
	return (void *)bad;
}

/*
 * What cuda.sh then finds in the record, launch by launch: local offsets
 * and shared bytes, the twin with its offset or the plain kernel, the
 * opt-in above 48 KiB, the block picked, contexts current on new threads.
 */
static int test_record(struct env *e)
{
	static const size_t two = 2, x5[1] = { 5 }, z9[3] = { 0, 0, 9 },
		one[3] = { 1, 1, 1 }, off3[1] = { 3 }, box[3] = { 5, 4, 3 };
	struct devimg_kernel *k;
	struct devimg_buf *b;
	size_t g, l;
	unsigned words = 16 * 1024;
	float f = 2;
	int v = 40, err;
	pthread_t t[2];
	void *bad;
	unsigned i;

	if (record_kernel(e, "local_layout", 3, &k, &b))
		return -1;
	CHECK(!devimg_kernel_set_arg_local(k, 3, sizeof(int)) &&
	      !devimg_kernel_set_arg_local(k, 4, 4 * sizeof(double)) &&
	      !devimg_kernel_set_arg_local(k, 5, 200), "local args");
	CHECK(!devimg_launch(e->q, k, 1, NULL, &two, &two), "local_layout");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);

	if (record_kernel(e, "which", 1, &k, &b))
		return -1;
	CHECK(!devimg_launch(e->q, k, 1, NULL, one, NULL) &&
	      !devimg_launch(e->q, k, 1, x5, one, NULL) &&
	      !devimg_launch(e->q, k, 3, z9, one, NULL), "which");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);

	if (record_kernel(e, "big_shared", 1, &k, &b))
		return -1;
	g = 1024;
	l = 256;
	CHECK(!devimg_kernel_set_arg(k, 1, sizeof(words), &words) &&
	      !devimg_kernel_set_arg_local(k, 2, words * sizeof(int)) &&
	      !devimg_launch(e->q, k, 1, NULL, &g, &l), "big_shared");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);

	if (record_kernel(e, "spec_off", 1, &k, &b))
		return -1;
	g = 8;
	l = 4;
	CHECK(!devimg_kernel_set_arg_local(k, 1, l * sizeof(int)) &&
	      !devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v) &&
	      !devimg_launch(e->q, k, 1, off3, &g, &l), "spec_off");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);

	/*
	 * The plugin keeps the shape of the last launch: the same global
	 * size with and without local sizes, each launched twice, in an
	 * order no stale shape can pass (cuda.sh reads them in order).
	 */
	if (record_kernel(e, "scale", 1, &k, &b))
		return -1;
	g = 1000;
	CHECK(!devimg_kernel_set_arg(k, 1, sizeof(f), &f) &&
	      !devimg_launch(e->q, k, 1, NULL, &g, NULL) &&
	      !devimg_launch(e->q, k, 1, NULL, &g, NULL), "scale");
	for (i = 0; i < 4; i++) {
		l = i < 2 ? 100 : 200;
		CHECK(!devimg_launch(e->q, k, 1, NULL, &g, &l) &&
		      !devimg_launch(e->q, k, 1, NULL, &g, &l),
		      "scale in work-groups of %zu", l);
		if (i == 1)
			CHECK(!devimg_launch(e->q, k, 1, NULL, &g, NULL),
			      "scale without a local size");
	}
	devimg_kernel_unref(k);
	devimg_buf_unref(b);

	if (record_kernel(e, "notwin", 1, &k, &b))
		return -1;
	CHECK(!devimg_launch(e->q, k, 3, one, box, NULL), "notwin");
	err = devimg_queue_finish(e->q);
	CHECK(err == 0, "finish: %d", err);
	devimg_kernel_unref(k);
	devimg_buf_unref(b);

	/* New threads have no current context: the plugin makes it so. */
	for (i = 0; i < 2; i++)
		CHECK(!pthread_create(&t[i], NULL, record_thread, e),
		      "pthread_create");
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], &bad);
		CHECK(!bad, "thread %u failed", i);
	}
	printf("ok every call to the recording driver succeeded\n");
	return 0;
}

static int info(void)
{
	struct devimg_device_caps caps = { .size = sizeof(caps) };
	struct devimg_device *dev;
	struct devimg_ctx *ctx;
	unsigned i;
	int err;

	err = devimg_ctx_new(&ctx);
	CHECK(err == 0, "ctx_new: %d", err);
	for (i = 0; (dev = cuda_device(ctx, i)); i++) {
		devimg_device_caps(dev, &caps);
		printf("CUDA device %u: %s, compute capability %u.%u\n", i,
		       devimg_device_name(dev), caps.cuda_cc / 10,
		       caps.cuda_cc % 10);
		if (i == 0)
			printf("cc %u\n", caps.cuda_cc);
	}
	devimg_ctx_unref(ctx);
	return i ? 0 : 77;
}

/* ---- separate compilation and linking, through the plugin alone ---- */

struct link_env {
	struct devimg_plugin_ops ops;
	void *handle;
	struct devimg_plugin_device *dev;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_queue *q;
};

static int link_env_open(struct link_env *e, const char *file)
{
	struct devimg_plugin_platform *pl;
	unsigned n = 0;
	int rc;

	if (plugin_open(file, &e->ops, &e->handle))
		return -1;
	rc = e->ops.platform_list(1, &pl, &n);
	if (rc == 0 && n == 0) {
		printf("SKIP [cuda-device]: no CUDA platform: %s\n", e->ops.last_error());
		return 77;
	}
	CHECK(rc == 0 && e->ops.device_list(pl, 1, &e->dev, &n) == 0 && n,
	      "no CUDA device: %s", e->ops.last_error());
	rc = e->ops.context_create(1, &e->dev, &e->ctx);
	if (rc == 0)
		rc = e->ops.queue_create(e->ctx, e->dev, &e->q);
	CHECK(rc == 0, "context or queue: %d %s", rc, e->ops.last_error());
	CHECK(e->ops.program_compile && e->ops.program_link,
	      "the plugin fills no program_compile or program_link");
	return 0;
}

static void link_release(struct link_env *e,
			 struct devimg_plugin_program *prog)
{
	if (prog && e->ops.program_release)
		e->ops.program_release(prog);
}

static void link_env_close(struct link_env *e)
{
	if (e->q)
		e->ops.queue_release(e->q);
	if (e->ctx)
		e->ops.context_release(e->ctx);
	if (e->ops.fini)
		e->ops.fini();
	if (e->handle)
		dlclose(e->handle);
}

/* A program of the PTX file path on e->dev, not yet built. */
static int ptx_program(struct link_env *e, const char *path,
		       struct devimg_plugin_program **out)
{
	char *text = NULL;
	long size = -1;
	FILE *f;
	int rc;

	f = fopen(path, "rb");
	CHECK(f, "cannot open %s", path);
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (text = malloc((size_t)size)) &&
	    fread(text, 1, (size_t)size, f) != (size_t)size)
		size = -1;
	fclose(f);
	if (!text || size <= 0) {
		free(text);
		CHECK(0, "cannot read %s", path);
	}
	rc = e->ops.program_create_binary(e->ctx, e->dev,
					  DEVIMG_PLUGIN_BINARY_NATIVE, text,
					  (size_t)size, out);
	free(text);
	CHECK(rc == 0, "program_create_binary(%s): %d %s", path, rc,
	      e->ops.last_error());
	return 0;
}

/* The program's build log, in a static buffer. */
static const char *link_log(struct link_env *e,
			    struct devimg_plugin_program *prog)
{
	static char log[4096];
	size_t len;

	if (e->ops.program_build_log(prog, log, sizeof(log), &len))
		return "(no log)";
	return log;
}

/* Launch link_caller over 8 items from offset (NULL: none); check out. */
static int link_run(struct link_env *e, struct devimg_plugin_program *prog,
		    const size_t *offset)
{
	enum { N = 16 };
	struct devimg_plugin_kernel *k;
	struct devimg_plugin_mem *m;
	size_t g = 8, l = 8, from = offset ? offset[0] : 0, i;
	unsigned count = 0;
	int out[N], rc;

	memset(out, 0, sizeof(out));
	rc = e->ops.kernel_create(prog, "link_caller", &k);
	CHECK(rc == 0, "kernel_create(link_caller) on the linked program: %d %s",
	      rc, e->ops.last_error());
	rc = e->ops.kernel_arg_count(k, &count);
	CHECK(rc == 0 && count == 1, "link_caller: %d, %u arguments", rc, count);
	rc = e->ops.mem_create(e->ctx, 0, sizeof(out), &m);
	CHECK(rc == 0, "mem_create: %d", rc);
	rc = e->ops.mem_write(e->q, m, 1, 0, sizeof(out), out);
	if (rc == 0)
		rc = e->ops.kernel_set_arg_mem(k, 0, m);
	if (rc == 0)
		rc = e->ops.launch(e->q, k, 1, offset, &g, &l);
	if (rc == 0)
		rc = e->ops.queue_finish(e->q);
	if (rc == 0)
		rc = e->ops.mem_read(e->q, m, 1, 0, sizeof(out), out);
	CHECK(rc == 0, "launch of link_caller from %zu: %d %s", from, rc,
	      e->ops.last_error());
	e->ops.kernel_release(k);
	e->ops.mem_release(m);
	/* The recording driver runs no kernel: nothing is written. */
	if (getenv("DEVIMG_FAKE_CUDA_LOG"))
		return 0;
	for (i = 0; i < N; i++) {
		int want = i >= from && i < from + g ? (int)i * 3 + 1 : 0;

		CHECK(out[i] == want, "out[%zu] = %d, want %d", i, out[i], want);
	}
	return 0;
}

/* The linked program's binary, made a program again and built. */
static int link_reload(struct link_env *e, struct devimg_plugin_program *linked,
		       struct devimg_plugin_program **out)
{
	size_t len = 0;
	char *bin;
	int rc;

	rc = e->ops.program_binary(linked, NULL, 0, &len);
	CHECK(rc == 0 && len > 4, "program_binary of the linked program: %d, %zu bytes",
	      rc, len);
	bin = malloc(len);
	CHECK(bin, "malloc");
	rc = e->ops.program_binary(linked, bin, len, &len);
	if (rc == 0)
		rc = e->ops.program_create_binary(e->ctx, e->dev,
						  DEVIMG_PLUGIN_BINARY_NATIVE,
						  bin, len, out);
	printf("the linked binary: %zu bytes, %s\n", len,
	       memcmp(bin, "\x7f" "ELF", 4) ? "not ELF" : "a cubin (ELF)");
	free(bin);
	if (rc == 0) {
		rc = e->ops.program_build(*out, NULL);
		if (rc < 0) {
			e->ops.program_release(*out);
			*out = NULL;
		}
	}
	CHECK(rc == 0, "the linked binary made a program again: %d %s", rc,
	      e->ops.last_error());
	return 0;
}

static int link_refusals(struct link_env *e,
			 struct devimg_plugin_program *caller,
			 struct devimg_plugin_program *helper)
{
	struct devimg_plugin_program *objs[2] = { caller, helper }, *p;
	int rc;

	rc = e->ops.program_link(e->ctx, e->dev, 0, objs, NULL, &p);
	CHECK(rc == -EINVAL, "link of 0 objects: %d, want -EINVAL", rc);
	rc = e->ops.program_link(e->ctx, e->dev, 2, objs, NULL, &p);
	CHECK(rc == -EINVAL && strstr(e->ops.last_error(), "not compiled"),
	      "link of objects not compiled: %d (%s), want -EINVAL", rc,
	      e->ops.last_error());
	printf("ok link of no objects and of uncompiled ones: -EINVAL (%s)\n",
	       e->ops.last_error());
	return 0;
}

static int test_link(const char *plugin, const char *caller_ptx,
		     const char *helper_ptx)
{
	static const size_t off4[1] = { 4 };
	struct devimg_plugin_program *caller = NULL, *helper = NULL;
	struct devimg_plugin_program *linked = NULL, *again = NULL, *p;
	struct devimg_plugin_program *reloaded = NULL;
	struct devimg_plugin_program *objs[2];
	struct link_env e = { .handle = NULL };
	const char *msg;
	int rc;

	rc = link_env_open(&e, plugin);
	if (rc)
		goto out;
	rc = -1;
	if (ptx_program(&e, caller_ptx, &caller) ||
	    ptx_program(&e, helper_ptx, &helper) ||
	    link_refusals(&e, caller, helper))
		goto out;
	CHECK(!e.ops.program_compile(caller, "-O3 -fno-such-option") &&
	      !e.ops.program_compile(helper, NULL),
	      "program_compile: %s", e.ops.last_error());
	CHECK(e.ops.program_compile(helper, "") == -EINVAL,
	      "a second program_compile succeeded");

	/* The caller alone: the helper is unresolved. */
	objs[0] = caller;
	rc = e.ops.program_link(e.ctx, e.dev, 1, objs, NULL, &p);
	msg = e.ops.last_error();
	CHECK(rc == -ENOEXEC && strstr(msg, "devimg_link_helper") &&
	      strstr(msg, "JIT log"),
	      "link of the caller alone: %d (%s), want -ENOEXEC naming devimg_link_helper with the JIT log",
	      rc, msg);
	printf("ok link of the caller alone: -ENOEXEC: %s\n", msg);

	objs[1] = helper;
	rc = e.ops.program_link(e.ctx, e.dev, 2, objs, "-O2", &linked);
	CHECK(rc == 0, "link of caller and helper: %d %s", rc,
	      e.ops.last_error());
	printf("build log of the link: %s\n", link_log(&e, linked));
	CHECK(strstr(link_log(&e, linked), "image0: '-fno-such-option'"),
	      "the link's build log does not list image0's ignored option");
	/* The objects stay the caller's: linked again, then released. */
	objs[0] = helper;
	objs[1] = caller;
	rc = e.ops.program_link(e.ctx, e.dev, 2, objs, NULL, &again);
	CHECK(rc == 0, "second link of the same objects: %d %s", rc,
	      e.ops.last_error());
	link_release(&e, caller);
	link_release(&e, helper);
	caller = helper = NULL;

	if (link_run(&e, linked, NULL) || link_run(&e, linked, off4) ||
	    link_run(&e, again, NULL) || link_reload(&e, linked, &reloaded) ||
	    link_run(&e, reloaded, NULL)) {
		rc = -1;
		goto out;
	}
	printf("ok caller and helper compiled, linked (twice), link_caller run with and without its offset, and from the linked binary\n");
	rc = 0;
out:
	link_release(&e, linked);
	link_release(&e, again);
	link_release(&e, reloaded);
	link_release(&e, caller);
	link_release(&e, helper);
	link_env_close(&e);
	return rc;
}

/* A driver without cuLink*: the plugin loads, compiles, cannot link. */
static int test_nolink(const char *plugin, const char *caller_ptx)
{
	struct devimg_plugin_program *caller = NULL, *p;
	struct link_env e = { .handle = NULL };
	int rc;

	rc = link_env_open(&e, plugin);
	if (rc == 0 && (rc = ptx_program(&e, caller_ptx, &caller)) == 0) {
		rc = e.ops.program_compile(caller, NULL);
		if (rc == 0)
			rc = e.ops.program_link(e.ctx, e.dev, 1, &caller, NULL,
						&p);
		if (rc == -ENOTSUP && strstr(e.ops.last_error(), "cuLinkCreate_v2")) {
			printf("ok link on a driver without cuLink*: -ENOTSUP: %s\n",
			       e.ops.last_error());
			rc = 0;
		} else {
			fprintf(stderr, "FAIL: link on a driver without cuLink*: %d (%s), want -ENOTSUP\n",
				rc, e.ops.last_error());
			failed = 1;
			rc = -1;
		}
	}
	link_release(&e, caller);
	link_env_close(&e);
	return rc;
}

static int usage(const char *prog)
{
	fprintf(stderr, "usage: %s info | main|multigpu|record LIBRARY | nodevice PLUGIN TEXT\n"
		"       | link PLUGIN CALLER.ptx HELPER.ptx | nolink PLUGIN CALLER.ptx\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	struct env e = { 0 };
	void *lib;
	int err;

	if (argc == 2 && !strcmp(argv[1], "info")) {
		err = info();
		return err < 0 ? 1 : err;
	}
	if (argc == 5 && !strcmp(argv[1], "link")) {
		err = test_link(argv[2], argv[3], argv[4]);
		return err == 77 ? 77 : failed;
	}
	if (argc == 4 && !strcmp(argv[1], "nolink")) {
		err = test_nolink(argv[2], argv[3]);
		return err == 77 ? 77 : failed;
	}
	if (argc == 4 && !strcmp(argv[1], "nodevice")) {
		if (!nodevice_plugin(argv[2], argv[3]))
			nodevice_dispatch();
		return failed;
	}
	if (argc != 3 || (strcmp(argv[1], "main") && strcmp(argv[1], "multigpu") &&
			  strcmp(argv[1], "record")))
		return usage(argv[0]);
	if (runner_ctx(&e, argv[2], &lib))
		return 1;
	if (!strcmp(argv[1], "multigpu")) {
		if (cuda_count(e.ctx) < 2) {
			printf("SKIP [cuda-multi]: one GPU (%u CUDA device)\n",
			       cuda_count(e.ctx));
			devimg_ctx_unref(e.ctx);
			return 77;
		}
		test_multigpu(e.ctx);
	} else {
		e.dev = cuda_device(e.ctx, 0);
		if (!e.dev) {
			printf("SKIP [cuda-device]: no CUDA device\n");
			devimg_ctx_unref(e.ctx);
			return 77;
		}
		printf("device: %s\n", devimg_device_name(e.dev));
		err = devimg_queue_new(e.dev, &e.q);
		if (err) {
			fprintf(stderr, "FAIL: queue_new: %s\n",
				devimg_last_error());
			return 1;
		}
		if (!strcmp(argv[1], "record"))
			test_record(&e);
		else if (!test_local_layout(&e) && !test_big_shared(&e) &&
			 !test_twin(&e) && !test_spec_twin(&e))
			test_refusals(&e);
	}
	runner_close(&e);
	return failed;
}
