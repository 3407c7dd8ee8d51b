// SPDX-License-Identifier: MIT
/*
 * link-ops PLUGIN CALLER.spv HELPER.spv: the Level Zero plugin's
 * program_compile and program_link called directly on the recording
 * driver. The caller imports "helper", which the helper exports; both
 * have a kernel "twin" (1 and 3 arguments). The shell script reads the
 * driver's log for what reached zeModuleCreate and zeModuleDynamicLink
 * and which module each kernel came from.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests/level_zero/plugin-check.h"

struct state {
	struct devimg_plugin_device *dev;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_queue *q;
	struct devimg_plugin_mem *mem;
	unsigned char *caller_spv, *helper_spv;
	size_t caller_size, helper_size;
	/* objects: helper (module 1), caller (2), helper again (3) */
	struct devimg_plugin_program *helper, *caller, *helper2;
};

static int compile(struct state *s, const unsigned char *spv, size_t size,
		   const char *options, struct devimg_plugin_program **out)
{
	CHECK(!ops.program_create_il(s->ctx, s->dev, spv, size, out),
	      "create_il");
	CHECK(!ops.program_compile(*out, options), "compile");
	return 0;
}

/*
 * Compiled with the options and the spec constants set before; then it
 * is an object for program_link only.
 */
static int check_compile(struct state *s)
{
	struct devimg_plugin_kernel *k;
	uint32_t scale = 42;
	size_t len = 0;
	char log[128];

	if (compile(s, s->helper_spv, s->helper_size, "-helper", &s->helper))
		return -1;
	CHECK(!ops.program_create_il(s->ctx, s->dev, s->caller_spv,
				     s->caller_size, &s->caller), "create_il");
	CHECK(!ops.program_set_spec_const(s->caller, 0, sizeof(scale),
					  &scale), "SpecId 0");
	CHECK(!ops.program_compile(s->caller, "-caller"), "compile caller");
	if (compile(s, s->helper_spv, s->helper_size, NULL, &s->helper2))
		return -1;
	CHECK(!ops.program_build_log(s->caller, log, sizeof(log), &len) &&
	      strstr(log, "2 kernel(s) built, 1 import(s) to link"),
	      "compile log \"%s\"", log);
	CHECK_ERR(ops.program_compile(s->caller, ""), -EINVAL,
		  "program_compile", "already compiled");
	CHECK_ERR(ops.program_build(s->caller, ""), -EINVAL,
		  "program_build", "already compiled");
	CHECK_ERR(ops.program_set_spec_const(s->caller, 0, 4, &scale),
		  -EINVAL, "constants go to zeModuleCreate");
	CHECK_ERR(ops.kernel_create(s->caller, "caller_k", &k), -EINVAL,
		  "compiled, not built", "program_link");
	CHECK_ERR(ops.program_binary(s->caller, NULL, 0, &len), -ENOEXEC,
		  "not built");
	printf("ok compile: options, spec constants, an object for program_link only\n");
	return 0;
}

/* What program_link refuses, and what a refused link leaves alone. */
static int check_link_errors(struct state *s)
{
	struct devimg_plugin_program *fresh, *built, *out = NULL;
	struct devimg_plugin_program *in[3] = { s->caller, s->helper };

	CHECK_ERR(ops.program_link(s->ctx, s->dev, 0, in, NULL, &out),
		  -EINVAL, "no objects (n = 0)");
	CHECK_ERR(ops.program_link(s->ctx, s->dev, 1, in, NULL, &out),
		  -ENOEXEC, "zeModuleDynamicLink(1 module(s)) for \"",
		  "ZE_RESULT_ERROR_MODULE_LINK_FAILURE (0x70000005)",
		  "\nlink log:\nerror: undefined reference to 'helper'");
	in[2] = s->helper2;
	CHECK_ERR(ops.program_link(s->ctx, s->dev, 3, in, NULL, &out),
		  -ENOEXEC, "ZE_RESULT_ERROR_MODULE_LINK_FAILURE",
		  "'helper' in module 2: ambiguous");
	in[1] = s->caller;
	CHECK_ERR(ops.program_link(s->ctx, s->dev, 2, in, NULL, &out),
		  -EINVAL, "object 1 is object 0 again");
	CHECK(!ops.program_create_il(s->ctx, s->dev, s->helper_spv,
				     s->helper_size, &fresh), "create_il");
	in[1] = fresh;
	CHECK_ERR(ops.program_link(s->ctx, s->dev, 2, in, NULL, &out),
		  -EINVAL, "object 1 is not compiled");
	CHECK(!ops.program_build(fresh, ""), "build");
	built = fresh;
	CHECK_ERR(ops.program_link(s->ctx, s->dev, 2, in, NULL, &out),
		  -EINVAL, "object 1 is built, not compiled");
	ops.program_release(built);
	CHECK(!out, "out written by a failed link");
	printf("ok link errors: n = 0, unresolved, ambiguous, twice, not compiled\n");
	return 0;
}

/* kernel_create(name) on prog gives a kernel of nargs arguments. */
static int check_kernel(struct devimg_plugin_program *prog, const char *name,
			unsigned nargs)
{
	struct devimg_plugin_kernel *k;
	unsigned n = 0;

	CHECK(!ops.kernel_create(prog, name, &k), "kernel_create(%s)", name);
	CHECK(!ops.kernel_arg_count(k, &n) && n == nargs,
	      "%s: %u arguments, want %u", name, n, nargs);
	ops.kernel_release(k);
	return 0;
}

static int launch(struct state *s, struct devimg_plugin_kernel *k)
{
	size_t g = 4;
	uint32_t v = 7;

	CHECK(!ops.kernel_set_arg_mem(k, 0, s->mem) &&
	      !ops.kernel_set_arg_value(k, 1, sizeof(v), &v), "arguments");
	CHECK(!ops.launch(s->q, k, 1, NULL, &g, NULL), "launch");
	CHECK(!ops.queue_finish(s->q), "finish");
	return 0;
}

/*
 * Linked twice, in both orders: kernels from the first module that has
 * them, launched; the objects released before the programs linked of
 * them, whose kernels still launch and are still made.
 */
static int check_link(struct state *s)
{
	struct devimg_plugin_program *in[2] = { s->caller, s->helper };
	struct devimg_plugin_program *ab, *ba;
	struct devimg_plugin_kernel *k;
	size_t len = 0;
	char log[128];

	CHECK(!ops.program_link(s->ctx, s->dev, 2, in, "-link", &ab),
	      "link(caller, helper)");
	in[0] = s->helper;
	in[1] = s->caller;
	CHECK(!ops.program_link(s->ctx, s->dev, 2, in, "", &ba),
	      "link(helper, caller)");
	CHECK(!ops.program_build_log(ab, log, sizeof(log), &len) &&
	      strstr(log, "2 module(s) linked"), "link log \"%s\"", log);
	CHECK_ERR(ops.program_binary(ab, NULL, 0, &len), -ENOTSUP,
		  "a linked program is 2 Level Zero modules");
	CHECK_ERR(ops.kernel_create(ab, "nope", &k), -ENOENT,
		  "zeKernelCreate(\"nope\")", "in 2 linked modules",
		  "ZE_RESULT_ERROR_INVALID_KERNEL_NAME");
	if (check_kernel(ab, "twin", 1) || check_kernel(ba, "twin", 3) ||
	    check_kernel(ab, "fill", 2))
		return -1;
	CHECK(!ops.kernel_create(ab, "caller_k", &k), "kernel_create");
	if (launch(s, k))
		return -1;
	ops.program_release(s->caller);
	ops.program_release(s->helper);
	ops.program_release(s->helper2);
	s->caller = s->helper = s->helper2 = NULL;
	if (launch(s, k))
		return -1;
	ops.kernel_release(k);
	ops.program_release(ab);
	if (check_kernel(ba, "caller_k", 2))
		return -1;
	ops.program_release(ba);
	printf("ok link: kernels by module order, launches, objects released first\n");
	return 0;
}

/*
 * Level Zero links a module once: an object linked again keeps calling
 * the module it was first linked with, which must outlive the program
 * and the object it came from.
 */
static int check_relink(struct state *s)
{
	struct devimg_plugin_program *caller, *a, *b, *in[2], *p;
	struct devimg_plugin_kernel *k;

	if (compile(s, s->caller_spv, s->caller_size, "", &caller) ||
	    compile(s, s->helper_spv, s->helper_size, "-a", &a) ||
	    compile(s, s->helper_spv, s->helper_size, "-b", &b))
		return -1;
	in[0] = caller;
	in[1] = a;
	CHECK(!ops.program_link(s->ctx, s->dev, 2, in, NULL, &p), "link a");
	ops.program_release(p);
	ops.program_release(a);
	in[1] = b;
	CHECK(!ops.program_link(s->ctx, s->dev, 2, in, NULL, &p), "link b");
	ops.program_release(caller);
	CHECK(!ops.kernel_create(p, "caller_k", &k), "kernel_create");
	if (launch(s, k))
		return -1;
	ops.kernel_release(k);
	ops.program_release(b);
	ops.program_release(p);
	printf("ok linked again: the first link's helper outlives its program\n");
	return 0;
}

static int run(struct state *s)
{
	struct devimg_plugin_platform *pl;
	unsigned n = 0;
	int rc;

	CHECK(!ops.platform_list(1, &pl, &n) && n == 1, "%u platforms", n);
	CHECK(!ops.device_list(pl, 1, &s->dev, &n) && n == 1, "%u devices",
	      n);
	CHECK(!ops.context_create(1, &s->dev, &s->ctx), "context_create");
	CHECK(!ops.queue_create(s->ctx, s->dev, &s->q), "queue_create");
	CHECK(!ops.mem_create(s->ctx, 0, 16, &s->mem), "mem_create");
	rc = check_compile(s);
	if (rc == 0)
		rc = check_link_errors(s);
	if (rc == 0)
		rc = check_link(s);
	if (rc == 0)
		rc = check_relink(s);
	ops.program_release(s->caller);
	ops.program_release(s->helper);
	ops.program_release(s->helper2);
	ops.mem_release(s->mem);
	ops.queue_release(s->q);
	ops.context_release(s->ctx);
	return rc;
}

int main(int argc, char **argv)
{
	struct state s = { 0 };
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: %s PLUGIN CALLER.spv HELPER.spv\n",
			argv[0]);
		return 2;
	}
	if (read_file(argv[2], &s.caller_spv, &s.caller_size) ||
	    read_file(argv[3], &s.helper_spv, &s.helper_size) ||
	    plugin_open(argv[1]))
		return 1;
	rc = run(&s);
	ops.fini();
	free(s.caller_spv);
	free(s.helper_spv);
	return rc || failed;
}
