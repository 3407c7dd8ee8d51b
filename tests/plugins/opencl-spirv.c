// SPDX-License-Identifier: MIT
/*
 * opencl-spirv FILL.spv: the OpenCL plugin's SPIR-V path on the first
 * device that takes SPIR-V. fill.spvasm writes out[i] = base + i, base
 * being the specialization constant with SpecId 7 (default 42). Build it
 * as is, then with SpecId 7 set natively when the device can (OpenCL 2.2),
 * else check that setting it is refused. Exit 77 without such a device.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "loader/backend/plugins.h"
#include "tests/slurp.h"

#define SKIP 77
#define N 64u

struct run {
	struct devimg_plugin *p;
	struct devimg_plugin_device *dev;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_queue *q;
	const void *il;
	size_t size;
};

static int fail(struct run *r, const char *what)
{
	printf("FAIL: %s\n  plugin says: %s\n", what,
	       devimg_plugin_last_error(r->p));
	return -1;
}

static int pick_device(struct run *r)
{
	struct devimg_plugin_platform *pl[8];
	struct devimg_plugin_device *dev[32];
	unsigned npl, ndev, i, j;

	if (devimg_plugin_platform_list(r->p, 8, pl, &npl) < 0)
		return fail(r, "platform_list");
	for (i = 0; i < npl && i < 8 && !r->dev; i++) {
		if (devimg_plugin_device_list(r->p, pl[i], 32, dev, &ndev) < 0)
			return fail(r, "device_list");
		for (j = 0; j < ndev && j < 32 && !r->dev; j++)
			if (devimg_plugin_device_info(r->p, dev[j])->formats &
			    DEVIMG_PLUGIN_FORMAT_SPIRV)
				r->dev = dev[j];
	}
	if (!r->dev) {
		printf("SKIP [spirv]: no OpenCL device takes SPIR-V\n");
		return SKIP;
	}
	printf("# device: %s (%s)\n",
	       devimg_plugin_device_info(r->p, r->dev)->name,
	       devimg_plugin_device_info(r->p, r->dev)->version);
	return 0;
}

/* Build fill, with SpecId 7 = *base when base is not NULL; check out[]. */
static int fill(struct run *r, const uint32_t *base)
{
	struct devimg_plugin_program *prog = NULL;
	struct devimg_plugin_kernel *k = NULL;
	struct devimg_plugin_mem *mem = NULL;
	uint32_t out[N], want = base ? *base : 42;
	size_t global = N;
	unsigned i;
	int rc = -1;

	if (devimg_plugin_program_create_il(r->p, r->ctx, r->dev, r->il,
					    r->size, &prog) < 0)
		return fail(r, "program_create_il");
	if (base && devimg_plugin_program_set_spec_const(r->p, prog, 7,
							 sizeof(*base),
							 base) < 0) {
		fail(r, "program_set_spec_const");
		goto out;
	}
	if (devimg_plugin_program_build(r->p, prog, NULL) < 0 ||
	    devimg_plugin_kernel_create(r->p, prog, "fill", &k) < 0 ||
	    devimg_plugin_mem_create(r->p, r->ctx, 0, sizeof(out), &mem) < 0 ||
	    devimg_plugin_kernel_set_arg_mem(r->p, k, 0, mem) < 0 ||
	    devimg_plugin_launch(r->p, r->q, k, 1, NULL, &global, NULL) < 0 ||
	    devimg_plugin_mem_read(r->p, r->q, mem, 1, 0, sizeof(out), out) < 0) {
		fail(r, "build and run fill");
		goto out;
	}
	for (i = 0; i < N; i++) {
		if (out[i] != want + i) {
			printf("FAIL: out[%u] = %u, expected %u\n", i,
			       (unsigned)out[i], (unsigned)(want + i));
			goto out;
		}
	}
	rc = 0;
out:
	devimg_plugin_mem_release(r->p, mem);
	devimg_plugin_kernel_release(r->p, k);
	devimg_plugin_program_release(r->p, prog);
	return rc;
}

static int run_all(struct run *r)
{
	const struct devimg_plugin_device_info *di =
		devimg_plugin_device_info(r->p, r->dev);
	struct devimg_plugin_program *prog = NULL;
	uint32_t base = 1000;
	int rc;

	if (fill(r, NULL) < 0)
		return -1;
	printf("ok - SPIR-V built from IL, default spec constant 42\n");
	if (di->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS) {
		if (fill(r, &base) < 0)
			return -1;
		printf("ok - SpecId 7 set natively to 1000\n");
		return 0;
	}
	if (devimg_plugin_program_create_il(r->p, r->ctx, r->dev, r->il,
					    r->size, &prog) < 0)
		return fail(r, "program_create_il");
	rc = devimg_plugin_program_set_spec_const(r->p, prog, 7, sizeof(base),
						  &base);
	devimg_plugin_program_release(r->p, prog);
	if (rc != -ENOTSUP)
		return fail(r, "set_spec_const without the capability");
	printf("ok - no native spec constants below OpenCL 2.2: -ENOTSUP\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct devimg_plugins_config cfg;
	struct devimg_plugins *ps = NULL;
	struct run r = { .p = NULL };
	void *il = NULL;
	int rc = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILL.spv\n", argv[0]);
		return 2;
	}
	devimg_plugins_config_env(&cfg);
	il = read_file(argv[1], &r.size);
	r.il = il;
	if (!il || devimg_plugins_load(&cfg, &ps) < 0) {
		printf("FAIL: cannot read %s or load plugins\n", argv[1]);
		goto out;
	}
	r.p = devimg_plugins_find(ps, "opencl");
	if (!r.p) {
		printf("FAIL: the OpenCL plugin did not bind\n");
		goto out;
	}
	rc = pick_device(&r);
	if (rc == 0 &&
	    (devimg_plugin_context_create(r.p, 1, &r.dev, &r.ctx) < 0 ||
	     devimg_plugin_queue_create(r.p, r.ctx, r.dev, &r.q) < 0))
		rc = fail(&r, "context or queue");
	if (rc == 0)
		rc = run_all(&r);
	if (r.q)
		devimg_plugin_queue_release(r.p, r.q);
	if (r.ctx)
		devimg_plugin_context_release(r.p, r.ctx);
out:
	devimg_plugins_free(ps);
	free(il);
	if (rc == SKIP)
		return SKIP;
	return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
