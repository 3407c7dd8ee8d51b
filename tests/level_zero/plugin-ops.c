// SPDX-License-Identifier: MIT
/*
 * plugin-ops PLUGIN KERNELS.spv SPEC.spv: the Level Zero plugin's
 * operations called directly, as the loader calls them, on the recording
 * driver: what the device reports, programs from SPIR-V and from the
 * native binary the first build gives back, spec constants set, reset and
 * copied, build logs, the errors of each operation with the vendor call
 * and result they name, copies, and messages per thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/level_zero/plugin-check.h"

struct state {
	struct devimg_plugin_platform *pl;
	struct devimg_plugin_device *dev;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_queue *q;
	unsigned char *spv;
	size_t spv_size;
	unsigned char *spec;
	size_t spec_size;
};

static int check_platform(struct state *s)
{
	const struct devimg_plugin_platform_info *pi;
	unsigned n = 0;

	CHECK(!ops.platform_list(1, &s->pl, &n) && n == 1, "%u platforms", n);
	pi = ops.platform_info(s->pl);
	CHECK(!strcmp(pi->name, "Level Zero driver 0"), "name %s", pi->name);
	CHECK(!strcmp(pi->version, "Level Zero 1.4, driver 1.2.3"),
	      "version %s", pi->version);
	CHECK(!strcmp(pi->vendor, "Intel(R) Corporation"), "vendor %s",
	      pi->vendor);
	CHECK(!ops.device_list(s->pl, 1, &s->dev, &n) && n == 1,
	      "%u devices", n);
	return 0;
}

static int check_device(struct state *s)
{
	const struct devimg_plugin_device_info *di = ops.device_info(s->dev);

	CHECK(di->size == sizeof(*di), "info size %zu", di->size);
	CHECK(!strncmp(di->name, "Recording GPU (", 15), "name %s", di->name);
	CHECK(!strcmp(di->backend, "level_zero"), "backend %s", di->backend);
	CHECK(di->platform == s->pl, "platform");
	CHECK(di->type == DEVIMG_PLUGIN_DEVICE_GPU, "type %d", di->type);
	CHECK(!strcmp(di->vendor, "Intel(R) Corporation"), "vendor %s",
	      di->vendor);
	CHECK(!strcmp(di->version, "Level Zero 1.4"), "version %s",
	      di->version);
	CHECK(!strcmp(di->driver_version, "1.2.3"), "driver %s",
	      di->driver_version);
	CHECK(di->formats == (DEVIMG_PLUGIN_FORMAT_SPIRV |
			      DEVIMG_PLUGIN_FORMAT_NATIVE),
	      "formats %#x", di->formats);
	CHECK(di->caps == (DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS |
			   DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET),
	      "caps %#x", di->caps);
	CHECK(di->max_compute_units == 32, "%u compute units",
	      di->max_compute_units);
	CHECK(di->max_work_group_size == 256 &&
	      di->max_work_item_sizes[0] == 256 &&
	      di->max_work_item_sizes[1] == 256 &&
	      di->max_work_item_sizes[2] == 64,
	      "group sizes %zu (%zu, %zu, %zu)", di->max_work_group_size,
	      di->max_work_item_sizes[0], di->max_work_item_sizes[1],
	      di->max_work_item_sizes[2]);
	CHECK(di->local_mem_size == 65536, "local memory %llu",
	      (unsigned long long)di->local_mem_size);
	CHECK(di->global_mem_size == 1ull << 30, "global memory %llu",
	      (unsigned long long)di->global_mem_size);
	CHECK(di->address_bits == 64 && di->cc_major == 0, "address bits");
	/* Aspects: the type's, the module flags the driver gives. */
#define ASPECT(n) DEVIMG_PLUGIN_ASPECT_BIT(DEVIMG_PLUGIN_ASPECT_##n)
	CHECK(di->aspects == (ASPECT(GPU) | ASPECT(FP64) | ASPECT(ATOMIC64) |
			      ASPECT(ONLINE_COMPILER) | ASPECT(ONLINE_LINKER)),
	      "aspects %#llx", (unsigned long long)di->aspects);
	CHECK(di->aspects_known == (di->aspects | ASPECT(CPU) |
				    ASPECT(ACCELERATOR) | ASPECT(FP16)),
	      "aspects known %#llx", (unsigned long long)di->aspects_known);
#undef ASPECT
	CHECK(di->nsub_group_sizes == 3 && di->sub_group_sizes[0] == 8 &&
	      di->sub_group_sizes[1] == 16 && di->sub_group_sizes[2] == 32,
	      "sub-group sizes: %u", di->nsub_group_sizes);
	printf("ok device info: %s, %s %s\n", di->name, di->version,
	       di->driver_version);
	return 0;
}

static int check_copies(struct state *s)
{
	unsigned char src[64], dst[64] = { 0 };
	struct devimg_plugin_mem *mem;
	size_t i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 3 + 1);
	CHECK(!ops.mem_create(s->ctx, 0, sizeof(src), &mem), "mem_create");
	CHECK(!ops.mem_write(s->q, mem, 0, 0, sizeof(src), src), "write");
	CHECK(!ops.mem_read(s->q, mem, 0, 0, sizeof(dst), dst), "read");
	CHECK(!ops.queue_finish(s->q), "finish");
	CHECK(!memcmp(src, dst, sizeof(src)), "non-blocking round trip");
	CHECK(!ops.mem_write(s->q, mem, 1, 16, 8, src) &&
	      !ops.mem_read(s->q, mem, 1, 16, 8, dst + 32) &&
	      !memcmp(src, dst + 32, 8), "blocking round trip at an offset");
	CHECK_ERR(ops.mem_write(s->q, mem, 1, 60, 8, src), -EINVAL,
		  "bytes 60..68 outside the 64-byte buffer");
	CHECK_ERR(ops.mem_create(s->ctx, 3, 8, &mem), -EINVAL, "flags 0x3");
	ops.mem_release(mem);
	printf("ok copies: non-blocking until finish, blocking, bounds\n");
	return 0;
}

/* SPIR-V, built; its native binary, built again; their errors. */
static int check_programs(struct state *s,
			  struct devimg_plugin_program **native)
{
	struct devimg_plugin_program *il;
	unsigned char *bin;
	char log[128];
	size_t len = 0;
	uint32_t one = 1;

	CHECK_ERR(ops.program_create_binary(s->ctx, s->dev,
					    DEVIMG_PLUGIN_BINARY_SPIR, s->spv,
					    s->spv_size, &il),
		  -ENOTSUP, "no SPIR 1.2 bitcode");
	CHECK(!ops.program_create_il(s->ctx, s->dev, s->spv, s->spv_size,
				     &il), "create_il");
	CHECK_ERR(ops.program_binary(il, NULL, 0, &len), -ENOEXEC,
		  "not built");
	CHECK(!ops.program_build_log(il, log, sizeof(log), &len) && len == 1 &&
	      !log[0], "log before the build");
	CHECK(!ops.program_build(il, "-ze-opt-level=1"), "build");
	CHECK_ERR(ops.program_build(il, NULL), -EINVAL, "already built");
	CHECK_ERR(ops.program_set_spec_const(il, 1, 4, &one), -EINVAL,
		  "constants go to zeModuleCreate");
	CHECK(!ops.program_build_log(il, log, sizeof(log), &len) &&
	      strstr(log, "5 kernel(s) built") && len == strlen(log) + 1,
	      "build log \"%s\" (%zu)", log, len);
	CHECK(!ops.program_build_log(il, log, 4, &len) && !strcmp(log, "ze-") &&
	      len > 4, "truncated log \"%s\"", log);
	CHECK(!ops.program_binary(il, NULL, 0, &len) &&
	      len == 8 + s->spv_size, "binary of %zu bytes", len);
	bin = malloc(len);
	CHECK(bin, "malloc");
	CHECK(!ops.program_binary(il, bin, len, &len) &&
	      !memcmp(bin, "ZERECNAT", 8) &&
	      !memcmp(bin + 8, s->spv, s->spv_size), "binary bytes");
	ops.program_release(il);
	CHECK(!ops.program_create_binary(s->ctx, s->dev,
					 DEVIMG_PLUGIN_BINARY_NATIVE, bin,
					 len, native), "create_binary");
	free(bin);
	CHECK_ERR(ops.program_set_spec_const(*native, 1, 4, &one), -ENOTSUP,
		  "native binary");
	CHECK(!ops.program_build(*native, ""), "build native");
	printf("ok programs: SPIR refused, SPIR-V built, log, native binary round trip\n");
	return 0;
}

/*
 * Constants are copied when set, a SpecId set again takes the new value,
 * and all reach zeModuleCreate (the shell reads them in the driver's log).
 */
static int check_spec_constants(struct state *s)
{
	struct devimg_plugin_program *p;
	int v = 1;
	unsigned char c = 200;

	CHECK(!ops.program_create_il(s->ctx, s->dev, s->spec, s->spec_size,
				     &p), "create_il(spec)");
	CHECK(!ops.program_set_spec_const(p, 0, sizeof(v), &v), "SpecId 0");
	v = 5;
	CHECK(!ops.program_set_spec_const(p, 2, sizeof(v), &v), "SpecId 2");
	v = -7;
	CHECK(!ops.program_set_spec_const(p, 0, sizeof(v), &v),
	      "SpecId 0 again");
	CHECK(!ops.program_set_spec_const(p, 1, sizeof(c), &c), "SpecId 1");
	v = 99;
	c = 1;
	CHECK_ERR(ops.program_set_spec_const(p, 3, 0, &v), -EINVAL, "empty");
	CHECK(!ops.program_build(p, "-spec"), "build with constants");
	ops.program_release(p);
	printf("ok spec constants: copied, replaced, passed at zeModuleCreate\n");
	return 0;
}

static int check_bad_binary(struct state *s)
{
	struct devimg_plugin_program *p;

	CHECK(!ops.program_create_binary(s->ctx, s->dev,
					 DEVIMG_PLUGIN_BINARY_NATIVE, "ELF?",
					 4, &p), "create_binary");
	CHECK_ERR(ops.program_build(p, "-g"), -ENOEXEC,
		  "zeModuleCreate(native, 4 bytes, build flags \"-g\", 0 spec constants)",
		  "ZE_RESULT_ERROR_INVALID_NATIVE_BINARY (0x7800000f)",
		  "build log:\nerror: not a binary of this driver");
	ops.program_release(p);
	printf("ok a foreign native binary: -ENOEXEC, log\n");
	return 0;
}

static int check_kernel(struct state *s, struct devimg_plugin_program *prog)
{
	struct devimg_plugin_kernel *k;
	size_t g[3] = { 64, 1, 1 }, l[3] = { 16, 1, 1 };
	int scale = 2;
	unsigned n = 0;

	CHECK_ERR(ops.kernel_create(prog, "nope", &k), -ENOENT,
		  "zeKernelCreate(\"nope\")",
		  "ZE_RESULT_ERROR_INVALID_KERNEL_NAME (0x78000011)");
	CHECK(!ops.kernel_create(prog, "reduce", &k), "kernel_create");
	CHECK(!ops.kernel_arg_count(k, &n) && n == 4, "%u arguments", n);
	CHECK_ERR(ops.kernel_set_arg_value(k, 1, 2, &scale), -EINVAL,
		  "zeKernelSetArgumentValue(reduce, argument 1, value of 2 bytes)",
		  "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE");
	CHECK_ERR(ops.kernel_set_arg_value(k, 9, 4, &scale), -EINVAL,
		  "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX");
	CHECK_ERR(ops.kernel_set_arg_local(k, 0, 16), -EINVAL,
		  "argument 0, local memory of 16 bytes");
	CHECK(!ops.kernel_set_arg_value(k, 1, 4, &scale) &&
	      !ops.kernel_set_arg_local(k, 2, 64), "arguments 1 and 2");
	CHECK_ERR(ops.launch(s->q, k, 1, NULL, g, l), -EINVAL,
		  "zeCommandListAppendLaunchKernel(reduce, 4x1x1 groups)",
		  "ZE_RESULT_ERROR_INVALID_ARGUMENT");
	CHECK_ERR(ops.launch(s->q, k, 4, NULL, g, l), -EINVAL, "4 dimensions");
	g[0] = 0;
	CHECK_ERR(ops.launch(s->q, k, 1, NULL, g, l), -EINVAL,
		  "global size 0");
	g[0] = 60;
	CHECK_ERR(ops.launch(s->q, k, 1, NULL, g, l), -EINVAL,
		  "global size 60 is not a multiple of the given work-group size 16");
	g[0] = 1024;
	l[0] = 512;
	CHECK_ERR(ops.launch(s->q, k, 1, NULL, g, l), -EINVAL,
		  "zeKernelSetGroupSize(reduce, 512x1x1)",
		  "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION");
	ops.kernel_release(k);
	printf("ok kernels: names, argument checks, launch checks\n");
	return 0;
}

/* A failure in one thread leaves the others' messages alone. */
static void *other_thread(void *arg)
{
	struct devimg_plugin_kernel *k;
	static char seen[256];

	ops.kernel_create(arg, "from_thread", &k);
	snprintf(seen, sizeof(seen), "%s", ops.last_error());
	return seen;
}

static int check_threads(struct devimg_plugin_program *prog)
{
	struct devimg_plugin_kernel *k;
	char mine[256];
	pthread_t t;
	void *seen;

	ops.kernel_create(prog, "from_main", &k);
	snprintf(mine, sizeof(mine), "%s", ops.last_error());
	CHECK(strstr(mine, "from_main"), "message %s", mine);
	CHECK(!pthread_create(&t, NULL, other_thread, prog) &&
	      !pthread_join(t, &seen), "thread");
	CHECK(strstr(seen, "from_thread") && !strstr(seen, "from_main"),
	      "the thread saw \"%s\"", (char *)seen);
	CHECK(!strcmp(ops.last_error(), mine), "main now sees \"%s\"",
	      ops.last_error());
	printf("ok messages are per thread\n");
	return 0;
}

static int run(struct state *s)
{
	struct devimg_plugin_program *native = NULL;
	int rc;

	if (check_platform(s) || check_device(s))
		return -1;
	CHECK(!ops.context_create(1, &s->dev, &s->ctx), "context_create");
	CHECK(!ops.queue_create(s->ctx, s->dev, &s->q), "queue_create");
	rc = check_copies(s);
	if (rc == 0)
		rc = check_programs(s, &native);
	if (rc == 0)
		rc = check_spec_constants(s);
	if (rc == 0)
		rc = check_bad_binary(s);
	if (rc == 0)
		rc = check_kernel(s, native);
	if (rc == 0)
		rc = check_threads(native);
	ops.program_release(native);
	ops.queue_release(s->q);
	ops.context_release(s->ctx);
	return rc;
}

int main(int argc, char **argv)
{
	struct state s = { 0 };
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: %s PLUGIN KERNELS.spv SPEC.spv\n",
			argv[0]);
		return 2;
	}
	if (read_file(argv[2], &s.spv, &s.spv_size) ||
	    read_file(argv[3], &s.spec, &s.spec_size) ||
	    plugin_open(argv[1]))
		return 1;
	rc = run(&s);
	ops.fini();
	free(s.spv);
	free(s.spec);
	return rc || failed;
}
