// SPDX-License-Identifier: MIT
/*
 * launch-args PLUGIN PTX: the CUDA plugin's own check that every argument
 * of a kernel is set before a launch, called directly as the loader calls
 * it, on the first device of the driver (the recording driver, or a GPU),
 * however many the driver has.
 * PTX is the test kernels' cuda.ptx: local_layout takes six parameters
 * (three buffers, three local arguments), which(out) one. A launch with any of them unset is refused with a
 * message naming the first unset one; once all are set, it runs; setting
 * one again keeps it runnable. Then the calling thread's context is
 * switched off behind the plugin's back (cuCtxSetCurrent(NULL), straight
 * to the driver): the next launch still runs (the recording driver, like
 * older drivers, refuses a launch whose context is not current, and the
 * plugin makes it current again).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/level_zero/plugin-check.h"

/* cuCtxSetCurrent(NULL) in the driver the plugin opened; 0 when done. */
static int switch_off(void)
{
	const char *file = getenv("DEVIMG_CUDA_DRIVER");
	int (*set_current)(void *);
	void *h;

	h = dlopen(file && *file ? file : "libcuda.so.1",
		   RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		return -1;
	*(void **)&set_current = dlsym(h, "cuCtxSetCurrent");
	if (!set_current || set_current(NULL) != 0)
		return -1;
	return 0;
}

static int check_kernel(struct devimg_plugin_program *prog,
			struct devimg_plugin_queue *q,
			struct devimg_plugin_mem *mem)
{
	static const size_t one = 1;
	struct devimg_plugin_kernel *k;

	CHECK(!ops.kernel_create(prog, "local_layout", &k),
	      "kernel_create(local_layout): %s", ops.last_error());
	CHECK_ERR(ops.launch(q, k, 1, NULL, &one, &one), -EINVAL,
		  "argument 0 of kernel local_layout is not set");
	/* An int, a double4 and 200 bytes of local memory, as the kernel uses. */
	CHECK(!ops.kernel_set_arg_mem(k, 0, mem) &&
	      !ops.kernel_set_arg_mem(k, 1, mem) &&
	      !ops.kernel_set_arg_mem(k, 2, mem) &&
	      !ops.kernel_set_arg_local(k, 4, 32) &&
	      !ops.kernel_set_arg_local(k, 5, 200),
	      "set_arg: %s", ops.last_error());
	CHECK_ERR(ops.launch(q, k, 1, NULL, &one, &one), -EINVAL,
		  "argument 3 of kernel local_layout is not set");
	CHECK(!ops.kernel_set_arg_local(k, 3, sizeof(int)),
	      "set_arg 3: %s", ops.last_error());
	CHECK(!ops.launch(q, k, 1, NULL, &one, &one),
	      "launch with every argument set: %s", ops.last_error());
	CHECK(!ops.kernel_set_arg_local(k, 3, sizeof(int)) &&
	      !ops.launch(q, k, 1, NULL, &one, &one),
	      "launch after setting argument 3 again: %s", ops.last_error());
	ops.kernel_release(k);
	CHECK(!ops.kernel_create(prog, "which", &k),
	      "kernel_create(which): %s", ops.last_error());
	CHECK_ERR(ops.launch(q, k, 1, NULL, &one, NULL), -EINVAL,
		  "argument 0 of kernel which is not set");
	CHECK(!ops.kernel_set_arg_mem(k, 0, mem) &&
	      !ops.launch(q, k, 1, NULL, &one, NULL),
	      "launch of which: %s", ops.last_error());
	CHECK(!switch_off(), "cannot reach the driver's cuCtxSetCurrent");
	CHECK(!ops.launch(q, k, 1, NULL, &one, NULL),
	      "launch after the context was switched off: %s",
	      ops.last_error());
	ops.kernel_release(k);
	CHECK(!ops.queue_finish(q), "queue_finish: %s", ops.last_error());
	return 0;
}

int main(int argc, char **argv)
{
	struct devimg_plugin_platform *pl;
	struct devimg_plugin_device *dev;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_queue *q;
	struct devimg_plugin_program *prog;
	struct devimg_plugin_mem *mem;
	unsigned char *image;
	size_t size;
	unsigned n = 0;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: launch-args PLUGIN PTX\n");
		return 2;
	}
	if (plugin_open(argv[1]) < 0 || read_file(argv[2], &image, &size) < 0)
		return 1;
	CHECK(!ops.platform_list(1, &pl, &n) && n == 1, "%u platforms", n);
	/* n is the driver's device count; the first one is taken. */
	CHECK(!ops.device_list(pl, 1, &dev, &n) && n >= 1, "%u devices", n);
	CHECK(!strcmp(ops.device_info(dev)->backend, "cuda"),
	      "device 0 is a %s device", ops.device_info(dev)->backend);
	printf("device 0 of %u: %s\n", n, ops.device_info(dev)->name);
	CHECK(!ops.context_create(1, &dev, &ctx), "context_create");
	CHECK(!ops.queue_create(ctx, dev, &q), "queue_create");
	rc = ops.program_create_binary(ctx, dev, DEVIMG_PLUGIN_BINARY_NATIVE,
				       image, size, &prog);
	free(image);
	CHECK(rc == 0, "program_create_binary: %s", ops.last_error());
	CHECK(!ops.program_build(prog, ""), "program_build: %s",
	      ops.last_error());
	CHECK(!ops.mem_create(ctx, 0, 64, &mem),
	      "mem_create: %s", ops.last_error());
	rc = check_kernel(prog, q, mem);
	ops.mem_release(mem);
	ops.program_release(prog);
	ops.queue_release(q);
	ops.context_release(ctx);
	ops.fini();
	if (rc == 0)
		printf("ok a launch with an argument unset is refused, naming it\n");
	return rc == 0 ? 0 : 1;
}
