// SPDX-License-Identifier: MIT
/*
 * contract-run MODE LIBRARY: the dispatch API on the Level Zero plugin.
 * Opens LIBRARY (wrapped images), makes a context with the devices that
 * DEVIMG_DEVICE_SELECTOR keeps (the first must be a Level Zero device) and
 * drives kernels of the dispatch suite on that device. The recording
 * driver does not run kernels, so what a launch did is checked by the
 * shell test in the driver's call log; this program checks results, error
 * codes and messages. Modes:
 *
 *   kernels   vadd (suggested group size), off1..off3 (global offsets,
 *             and a launch without offset after one; kernel and buffer
 *             released with their launches pending), reduce (local
 *             memory, given group size), a group size that does not
 *             divide, buffer round trips
 *   spec      native spec constants: defaults, overrides, changes, cache
 *   nooffset  a driver without the global-offset extension
 *   broken    a build failure (an import nothing resolves) whose log
 *             reaches devimg_last_error()
 *   native    vadd from a native image
 *   threads   threads with their own queues and kernels, one build
 *   nodriver  no Level Zero driver: the plugin binds with no device and
 *             says why (PLUGIN is the plugin file, LIBRARY unused)
 *   opencl    no Level Zero driver (level_zero:* keeps no device, seen
 *             in a child process: the library reads the selector once),
 *             and the OpenCL device still runs vadd from LIBRARY
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <devimg/devimg.h>

#include "plugins/devimg_plugin.h"
#include "tests/runner.h"
#include "tests/dispatch/checks.h"

/* A context of the devices selector keeps (NULL: the environment's). */
static int ctx_open(struct env *e, const char *selector)
{
	int err;

	if (selector)
		setenv("DEVIMG_DEVICE_SELECTOR", selector, 1);
	err = devimg_ctx_new(&e->ctx);
	CHECK(err == 0, "ctx_new(%s): %d", getenv("DEVIMG_DEVICE_SELECTOR"),
	      err);
	return 0;
}

static int env_open(struct env *e, const char *backend)
{
	unsigned n = devimg_device_count(e->ctx);
	int err;

	CHECK(n >= 1, "no device in the context");
	e->dev = devimg_device_get(e->ctx, 0);
	CHECK(!strcmp(devimg_device_backend(e->dev), backend),
	      "device 0 is of backend %s, want %s",
	      devimg_device_backend(e->dev), backend);
	printf("device: %s (%s)\n", devimg_device_name(e->dev), backend);
	err = devimg_queue_new(e->dev, &e->q);
	CHECK(err == 0, "queue_new: %d", err);
	return 0;
}

/*
 * vadd's three buffers (bufs), made holding n floats each of a, b and c,
 * set as its arguments; its argument count checked first.
 */
static int vadd_args(struct env *e, struct devimg_kernel *k, const float *a,
		     const float *b, const float *c, size_t n,
		     struct devimg_buf *bufs[3])
{
	size_t size = n * sizeof(*a);

	CHECK(devimg_kernel_arg_count(k) == 3,
	      "vadd has %u arguments, numKernelArgs says 3",
	      devimg_kernel_arg_count(k));
	if (runner_buf_with(e, a, size, &bufs[0]) ||
	    runner_buf_with(e, b, size, &bufs[1]) ||
	    runner_buf_with(e, c, size, &bufs[2]))
		return -1;
	CHECK(!devimg_kernel_set_arg_buf(k, 0, bufs[0]) &&
	      !devimg_kernel_set_arg_buf(k, 1, bufs[1]) &&
	      !devimg_kernel_set_arg_buf(k, 2, bufs[2]), "set_arg_buf");
	return 0;
}

static int test_vadd(struct env *e)
{
	enum { N = 1000 };
	float a[N], b[N], c[N];
	struct devimg_buf *bufs[3];
	struct devimg_kernel *k;
	size_t g = N, l = 64;
	int i, err;

	for (i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(N - i);
		c[i] = -1.0f;
	}
	err = devimg_kernel_new(e->dev, "vadd", &k);
	CHECK(err == 0, "kernel_new(vadd): %d", err);
	if (vadd_args(e, k, a, b, c, N, bufs))
		return -1;
	err = devimg_launch(e->q, k, 1, NULL, &g, NULL);
	CHECK(err == 0, "launch vadd: %d", err);
	CHECK(!devimg_queue_finish(e->q), "finish");
	if (runner_buf_holds(e, bufs[0], a, sizeof(a)) ||
	    runner_buf_holds(e, bufs[2], c, sizeof(c)))
		return -1;
	err = devimg_launch(e->q, k, 1, NULL, &g, &l);
	CHECK(err == -EINVAL, "global 1000 in groups of 64: %d", err);
	CHECK(strstr(devimg_last_error(), "not a multiple") &&
	      strstr(devimg_last_error(), "1000") &&
	      strstr(devimg_last_error(), "64"),
	      "message: %s", devimg_last_error());
	devimg_kernel_unref(k);
	devimg_buf_unref(bufs[0]);
	devimg_buf_unref(bufs[1]);
	devimg_buf_unref(bufs[2]);
	printf("ok vadd: 3 arguments, suggested group size, copies, bad group size\n");
	return 0;
}

/*
 * offN at offset {3, 2, 1}, global {5, 4, 3}, w = 8, h = 6, then without
 * offset; released with both launches pending.
 */
static int test_offset(struct env *e, unsigned dims)
{
	static const size_t glob[3] = { 5, 4, 3 };
	struct dispatch_offset o;
	int err;

	if (dispatch_offset_launch(e, &o, dims, RUNNER_COPIES))
		return -1;
	free(o.out);
	/* The offset is the kernel's state: it must not stick. */
	err = devimg_launch(e->q, o.k, dims, NULL, glob, NULL);
	CHECK(err == 0, "launch %s without offset: %d", o.name, err);
	/*
	 * Released while their launches are pending: those run first. The
	 * kernel holds the buffer: unref the kernel first and it goes first;
	 * the buffer first and the buffer goes first, with the kernel.
	 */
	if (dims == 1) {
		devimg_kernel_unref(o.k);
		devimg_buf_unref(o.b);
	} else {
		devimg_buf_unref(o.b);
		devimg_kernel_unref(o.k);
	}
	CHECK(!devimg_queue_finish(e->q), "finish");
	printf("ok global offset in %u dimension%s\n", dims,
	       dims > 1 ? "s" : "");
	return 0;
}

static int run_kernels(struct env *e)
{
	unsigned dims;

	if (test_vadd(e) || dispatch_reduce(e, RUNNER_COPIES))
		return -1;
	for (dims = 1; dims <= 3; dims++)
		if (test_offset(e, dims))
			return -1;
	return 0;
}

/*
 * Native spec constants: each new set of values is a module built with
 * them (the shell checks which), a set seen before comes from the cache.
 */
static int run_spec(struct env *e)
{
	return dispatch_spec(e, 1, RUNNER_COPIES);
}

static int run_nooffset(struct env *e)
{
	static const size_t off[2] = { 0, 2 }, zero[2] = { 0, 0 };
	static const size_t glob[2] = { 5, 4 };
	unsigned w = 8;
	struct devimg_kernel *k;
	struct devimg_buf *b;
	int err;

	err = devimg_kernel_new(e->dev, "off2", &k);
	CHECK(err == 0, "kernel_new(off2): %d", err);
	CHECK(!devimg_buf_new(e->dev, 256, &b), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b) &&
	      !devimg_kernel_set_arg(k, 1, sizeof(w), &w), "args");
	err = devimg_launch(e->q, k, 2, off, glob, NULL);
	CHECK(err == -ENOTSUP, "launch with offset 0x2: %d", err);
	CHECK(strstr(devimg_last_error(), "ZE_experimental_global_offset") &&
	      strstr(devimg_last_error(), "off2") &&
	      strstr(devimg_last_error(), "0x2x0"),
	      "message: %s", devimg_last_error());
	printf("ok no extension: %s\n", devimg_last_error());
	CHECK(!devimg_launch(e->q, k, 2, zero, glob, NULL),
	      "launch with a zero offset");
	CHECK(!devimg_launch(e->q, k, 2, NULL, glob, NULL),
	      "launch without offset");
	CHECK(!devimg_queue_finish(e->q), "finish");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok zero offsets need no extension\n");
	return 0;
}

static int run_broken(struct env *e)
{
	struct devimg_kernel *k = NULL;
	const char *msg;
	int err;

	err = devimg_kernel_new(e->dev, "broken_k", &k);
	msg = devimg_last_error();
	CHECK(err == -ENOEXEC && !k, "broken build: %d", err);
	CHECK(strstr(msg, "zeModuleDynamicLink(1 module) to resolve the imports of zeModuleCreate(SPIR-V") &&
	      strstr(msg, "ZE_RESULT_ERROR_MODULE_LINK_FAILURE (0x70000005)"),
	      "the failed call is not named: %s", msg);
	CHECK(strstr(msg, "build log:\n") &&
	      strstr(strstr(msg, "build log:\n"),
		     "error: undefined reference to 'devimg_dispatch_missing'"),
	      "build log missing from: %s", msg);
	printf("ok build failure: -ENOEXEC with the build log: %s\n", msg);
	return 0;
}

static int run_native(struct env *e)
{
	float a[16] = { 1 }, b[16] = { 2 }, c[16] = { 3 };
	struct devimg_buf *bufs[3];
	struct devimg_kernel *k;
	size_t g = 16;
	int err;

	err = devimg_kernel_new(e->dev, "vadd", &k);
	CHECK(err == 0, "kernel_new(vadd) from a native image: %d", err);
	if (vadd_args(e, k, a, b, c, 16, bufs))
		return -1;
	CHECK(!devimg_launch(e->q, k, 1, NULL, &g, NULL), "launch");
	CHECK(!devimg_queue_finish(e->q), "finish");
	devimg_kernel_unref(k);
	devimg_buf_unref(bufs[0]);
	devimg_buf_unref(bufs[1]);
	devimg_buf_unref(bufs[2]);
	printf("ok vadd from a native binary\n");
	return 0;
}

/*
 * Four threads on their own queues, 10 launches each: the recording
 * driver runs no kernel, so each round checks a copy round trip.
 */
static int run_threads(struct env *e)
{
	return runner_threads(e, 4, 10, 256, RUNNER_COPIES);
}

/* The plugin bound as the loader binds it: no platform, and why. */
static int plugin_says_why(const char *file)
{
	static const char want[] =
		"zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001): no Level Zero driver";
	struct devimg_plugin_ops ops = {
		.abi_version = DEVIMG_PLUGIN_ABI_VERSION,
		.size = sizeof(ops),
	};
	devimg_plugin_init_fn init;
	unsigned count = 99;
	void *h;
	int rc;

	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	CHECK(h, "dlopen: %s", dlerror());
	init = (devimg_plugin_init_fn)dlsym(h, DEVIMG_PLUGIN_ENTRY);
	CHECK(init, "no %s in %s", DEVIMG_PLUGIN_ENTRY, file);
	rc = init(DEVIMG_PLUGIN_ABI_VERSION, &ops);
	CHECK(rc == 0, "init: %d: %s", rc, ops.last_error());
	CHECK(!strcmp(ops.backend, "level_zero"), "backend %s", ops.backend);
	CHECK(!strcmp(ops.last_error(), want), "message \"%s\", want \"%s\"",
	      ops.last_error(), want);
	CHECK(ops.platform_list(0, NULL, &count) == 0 && count == 0,
	      "%u platforms", count);
	printf("ok plugin without driver: 0 platforms: %s\n", ops.last_error());
	ops.fini();
	/* Stays mapped, as the loader keeps bound plugins. */
	return 0;
}

static int run_nodriver(const char *plugin)
{
	struct env e = { 0 };

	if (plugin_says_why(plugin) || ctx_open(&e, "level_zero:*"))
		return -1;
	CHECK(devimg_device_count(e.ctx) == 0, "%u Level Zero devices",
	      devimg_device_count(e.ctx));
	CHECK(devimg_ctx_unref(e.ctx) == NULL, "ctx_unref");
	printf("ok level_zero:* selects no device\n");
	return 0;
}

/* In a child: 0 when level_zero:* keeps no device. */
static int no_level_zero_device(void)
{
	struct env e = { 0 };
	pid_t pid = fork();
	int status, rc;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (ctx_open(&e, "level_zero:*"))
			_exit(1);
		rc = devimg_device_count(e.ctx) != 0;
		devimg_ctx_unref(e.ctx);
		fflush(NULL);
		_exit(rc || failed);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int run_opencl(void)
{
	enum { N = 300 };
	float a[N], b[N], c[N];
	struct devimg_buf *ba, *bb, *bc;
	struct devimg_kernel *k;
	struct env e = { 0 };
	size_t g = N;
	int i;

	/* The library reads DEVIMG_DEVICE_SELECTOR once: each its process. */
	CHECK(no_level_zero_device() == 0, "a Level Zero device");
	if (ctx_open(&e, "opencl:*"))
		return -1;
	if (devimg_device_count(e.ctx) == 0) {
		devimg_ctx_unref(e.ctx);
		return 77;
	}
	if (env_open(&e, "opencl"))
		return -1;
	for (i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = (float)(2 * i + 1);
	}
	CHECK(!devimg_kernel_new(e.dev, "vadd", &k), "kernel_new(vadd)");
	if (runner_buf_with(&e, a, sizeof(a), &ba) ||
	    runner_buf_with(&e, b, sizeof(b), &bb))
		return -1;
	CHECK(!devimg_buf_new(e.dev, sizeof(c), &bc), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, ba) &&
	      !devimg_kernel_set_arg_buf(k, 1, bb) &&
	      !devimg_kernel_set_arg_buf(k, 2, bc), "args");
	CHECK(!devimg_launch(e.q, k, 1, NULL, &g, NULL), "launch");
	CHECK(!devimg_buf_read(e.q, bc, 0, sizeof(c), c), "read");
	for (i = 0; i < N; i++)
		CHECK(c[i] == a[i] + b[i], "c[%d] = %g, want %g", i, c[i],
		      a[i] + b[i]);
	devimg_kernel_unref(k);
	devimg_buf_unref(ba);
	devimg_buf_unref(bb);
	devimg_buf_unref(bc);
	printf("ok the OpenCL device runs vadd beside a driverless Level Zero\n");
	return runner_close(&e);
}

static int run_level_zero(const char *mode)
{
	struct env e = { 0 };
	int rc = -1;

	if (ctx_open(&e, NULL) || env_open(&e, "level_zero"))
		return -1;
	if (!strcmp(mode, "kernels"))
		rc = run_kernels(&e);
	else if (!strcmp(mode, "spec"))
		rc = run_spec(&e);
	else if (!strcmp(mode, "nooffset"))
		rc = run_nooffset(&e);
	else if (!strcmp(mode, "broken"))
		rc = run_broken(&e);
	else if (!strcmp(mode, "native"))
		rc = run_native(&e);
	else if (!strcmp(mode, "threads"))
		rc = run_threads(&e);
	else
		fprintf(stderr, "unknown mode %s\n", mode);
	if (runner_close(&e))
		rc = -1;
	return rc;
}

int main(int argc, char **argv)
{
	void *lib = NULL;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s MODE LIBRARY|PLUGIN\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "nodriver"))
		return run_nodriver(argv[2]) || failed;
	lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "FAIL: %s\n", dlerror());
		return 1;
	}
	if (!strcmp(argv[1], "opencl"))
		rc = run_opencl();
	else
		rc = run_level_zero(argv[1]);
	if (rc == 77) {
		printf("SKIP [opencl-device]: no OpenCL device\n");
		return 77;
	}
	return rc || failed;
}
