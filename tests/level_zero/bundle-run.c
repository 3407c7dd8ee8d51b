// SPDX-License-Identifier: MIT
/*
 * bundle-run MODE LIBRARY...: kernel bundles and device image linking
 * through libdevimg on the Level Zero plugin and the recording driver
 * (tests/level_zero/bundle.sh). Opens the wrapped libraries, makes a
 * context with the devices DEVIMG_DEVICE_SELECTOR keeps (the first must
 * be a Level Zero device) and runs one group of cases. The driver does
 * not run kernels: this program checks results, error codes, messages
 * and build counts; the shell checks the driver's log. Each launch passes
 * a distinct value argument, so the shell can tell the launches apart.
 * Modes:
 *
 *   spec        spec_k (native spec constants): values set on an input
 *               bundle, built (launch with add 1) and compiled + linked
 *               (add 2); kernels of the bundle build nothing and have
 *               fixed constants; devimg_kernel_new() builds the module's
 *               defaults (add 3), which a bundle without values shares
 *   link        caller_k (importing helper, exported by an image of
 *               another library): devimg_kernel_new() (v 6), an object
 *               bundle linked with the registry's helper (v 7), an object
 *               bundle holding the helper too (v 8), a build: the one
 *               program devimg_kernel_new() linked, nothing made again
 *   unresolved  caller_k without the helper's library: -ENOEXEC naming
 *               the symbol, from devimg_kernel_new() and the bundles
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <devimg/devimg.h>

#include "tests/runner.h"

static struct env env;

#define FILTER_SIZE sizeof(struct devimg_bundle_filter)

static int new_bundle(enum devimg_bundle_state state, const char *kernel,
		      struct devimg_bundle **b)
{
	struct devimg_bundle_filter f = { .size = sizeof(f), .kernel = kernel };
	int err = devimg_bundle_new(env.ctx, state, &f, b);

	CHECK(err == 0, "devimg_bundle_new(%s, %s): %d",
	      devimg_bundle_state_name(state), kernel ? kernel : "(all)", err);
	return 0;
}

/*
 * Launch k over global items (groups of local) with a buffer of 4 ints
 * as argument 0 and val as argument 1; builds must not change.
 */
static int launch(struct devimg_kernel *k, int val, size_t global,
		  size_t local)
{
	unsigned builds = devimg_ctx_stat_builds(env.ctx);
	struct devimg_buf *b;
	int err;

	CHECK(devimg_kernel_arg_count(k) == 2, "%u arguments, want 2",
	      devimg_kernel_arg_count(k));
	err = devimg_buf_new(env.dev, 4 * sizeof(int), &b);
	CHECK(err == 0, "devimg_buf_new: %d", err);
	err = devimg_kernel_set_arg_buf(k, 0, b);
	if (err == 0)
		err = devimg_kernel_set_arg(k, 1, sizeof(val), &val);
	if (err == 0)
		err = devimg_launch(env.q, k, 1, NULL, &global,
				    local ? &local : NULL);
	if (err == 0)
		err = devimg_queue_finish(env.q);
	devimg_buf_unref(b);
	CHECK(err == 0, "launch with %d: %d", val, err);
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds,
	      "the launch with %d made %u programs", val,
	      devimg_ctx_stat_builds(env.ctx) - builds);
	return 0;
}

/* A kernel of an executable bundle builds nothing and launches. */
static int bundle_launch(struct devimg_bundle *exe, const char *name,
			 int val, size_t global, size_t local)
{
	unsigned builds = devimg_ctx_stat_builds(env.ctx);
	struct devimg_kernel *k;
	int err;

	err = devimg_bundle_kernel_new(exe, env.dev, name, NULL, NULL, &k);
	CHECK(err == 0, "devimg_bundle_kernel_new(%s): %d", name, err);
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds,
	      "devimg_bundle_kernel_new(%s) made %u programs", name,
	      devimg_ctx_stat_builds(env.ctx) - builds);
	err = launch(k, val, global, local);
	devimg_kernel_unref(k);
	return err;
}

/* ---- spec ---- */

static int run_spec(void)
{
	struct { char c; int i; } sv = { 'x', 7 };
	struct devimg_bundle *in, *exe, *obj, *exe2, *in0, *exe0;
	struct devimg_kernel *k;
	int err, v = 42;
	unsigned builds;

	if (new_bundle(DEVIMG_BUNDLE_INPUT, "spec_k", &in) < 0)
		return -1;
	CHECK(devimg_bundle_image_count(in) == 1 &&
	      devimg_bundle_image_device(in, 0) == env.dev &&
	      devimg_bundle_image_format(in, 0) == DEVIMG_FORMAT_SPIRV,
	      "input bundle: %zu images, format %d",
	      devimg_bundle_image_count(in),
	      (int)devimg_bundle_image_format(in, 0));
	CHECK(devimg_ctx_stat_builds(env.ctx) == 0,
	      "an input bundle made %u programs",
	      devimg_ctx_stat_builds(env.ctx));
	err = devimg_bundle_set_spec_const(in, "ScalarSpec", sizeof(v), &v);
	CHECK(err == 0, "set ScalarSpec: %d", err);
	err = devimg_bundle_set_spec_const(in, "StructSpec", sizeof(sv), &sv);
	CHECK(err == 0, "set StructSpec: %d", err);
	err = devimg_bundle_set_spec_const(in, "ScalarSpec", 2, &v);
	CHECK(err == -EINVAL && strstr(devimg_last_error(), "2 bytes given"),
	      "wrong size: %d", err);
	err = devimg_bundle_set_spec_const(in, "NoSuchSpec", sizeof(v), &v);
	CHECK(err == -ENOENT && strstr(devimg_last_error(), "NoSuchSpec"),
	      "unknown constant: %d", err);

	/* Built: one module with the values. */
	builds = devimg_ctx_stat_builds(env.ctx);
	err = devimg_bundle_build(in, NULL, &exe);
	CHECK(err == 0, "devimg_bundle_build: %d", err);
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds + 1,
	      "the build made %u programs, want 1",
	      devimg_ctx_stat_builds(env.ctx) - builds);
	CHECK(devimg_bundle_state(exe) == DEVIMG_BUNDLE_EXECUTABLE &&
	      devimg_bundle_image_count(exe) == 1 &&
	      devimg_bundle_image_linked(exe, 0) == 1,
	      "executable: %zu images, linked from %zu",
	      devimg_bundle_image_count(exe),
	      devimg_bundle_image_linked(exe, 0));
	if (bundle_launch(exe, "spec_k", 1, 1, 0) < 0 ||
	    runner_check_fixed(&env, exe) < 0)
		return -1;
	err = devimg_bundle_set_spec_const(exe, "ScalarSpec", sizeof(v), &v);
	CHECK(err == -EINVAL, "spec constant on an executable bundle: %d",
	      err);
	printf("ok built: ScalarSpec 42, StructSpec {'x', 7}, one build, a launch that builds nothing\n");

	/* Compiled (a module with the new values), then linked alone. */
	v = 5;
	err = devimg_bundle_set_spec_const(in, "ScalarSpec", sizeof(v), &v);
	CHECK(err == 0, "set ScalarSpec again: %d", err);
	builds = devimg_ctx_stat_builds(env.ctx);
	err = devimg_bundle_compile(in, NULL, &obj);
	CHECK(err == 0 && devimg_bundle_state(obj) == DEVIMG_BUNDLE_OBJECT,
	      "compile: %d", err);
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds + 1,
	      "the compile made %u programs, want 1",
	      devimg_ctx_stat_builds(env.ctx) - builds);
	err = devimg_bundle_link(&obj, 1, NULL, &exe2);
	CHECK(err == 0 && devimg_bundle_image_linked(exe2, 0) == 1,
	      "link: %d, linked from %zu", err,
	      devimg_bundle_image_linked(exe2, 0));
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds + 2,
	      "compile and link made %u programs, want 2",
	      devimg_ctx_stat_builds(env.ctx) - builds);
	if (bundle_launch(exe2, "spec_k", 2, 1, 0) < 0 ||
	    runner_check_fixed(&env, exe2) < 0)
		return -1;
	printf("ok compiled and linked: ScalarSpec 5, a launch that builds nothing\n");

	/* devimg_kernel_new(): the module's defaults, not the bundle's. */
	builds = devimg_ctx_stat_builds(env.ctx);
	err = devimg_kernel_new(env.dev, "spec_k", &k);
	CHECK(err == 0, "devimg_kernel_new(spec_k): %d", err);
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds + 1,
	      "devimg_kernel_new made %u programs, want 1",
	      devimg_ctx_stat_builds(env.ctx) - builds);
	err = launch(k, 3, 1, 0);
	devimg_kernel_unref(k);
	if (err < 0)
		return -1;
	/* A bundle whose values were never set: that very program. */
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "spec_k", &in0) < 0)
		return -1;
	err = devimg_bundle_build(in0, NULL, &exe0);
	CHECK(err == 0, "build without values: %d", err);
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds + 1,
	      "a bundle without values made %u programs, want 0",
	      devimg_ctx_stat_builds(env.ctx) - builds - 1);
	printf("ok defaults: devimg_kernel_new() builds them, a bundle without values shares that program\n");
	devimg_bundle_unref(exe0);
	devimg_bundle_unref(in0);
	devimg_bundle_unref(exe2);
	devimg_bundle_unref(obj);
	devimg_bundle_unref(exe);
	devimg_bundle_unref(in);
	return 0;
}

/* ---- link ---- */

static int run_link(void)
{
	struct devimg_bundle *obj, *exe, *all, *exe2, *in, *exe3;
	struct devimg_kernel *k;
	unsigned builds;
	int err;

	/* devimg_kernel_new(): the helper found among registered images. */
	err = devimg_kernel_new(env.dev, "caller_k", &k);
	CHECK(err == 0, "devimg_kernel_new(caller_k): %d", err);
	builds = devimg_ctx_stat_builds(env.ctx);
	CHECK(builds == 3,
	      "devimg_kernel_new(caller_k) made %u programs, want 3 (2 objects, 1 link)",
	      builds);
	err = launch(k, 6, 4, 4);
	devimg_kernel_unref(k);
	if (err < 0)
		return -1;

	/* The caller's object, linked with the registry's helper. */
	if (new_bundle(DEVIMG_BUNDLE_OBJECT, "caller_k", &obj) < 0)
		return -1;
	CHECK(devimg_bundle_state(obj) == DEVIMG_BUNDLE_OBJECT &&
	      devimg_bundle_image_count(obj) == 1 &&
	      devimg_bundle_has_kernel(obj, "caller_k", env.dev) == 1,
	      "object bundle of caller_k: %zu images",
	      devimg_bundle_image_count(obj));
	err = devimg_bundle_link(&obj, 1, NULL, &exe);
	CHECK(err == 0, "devimg_bundle_link: %d", err);
	CHECK(devimg_bundle_state(exe) == DEVIMG_BUNDLE_EXECUTABLE &&
	      devimg_bundle_image_count(exe) == 1 &&
	      devimg_bundle_image_linked(exe, 0) == 2,
	      "executable: %zu images, image 0 linked from %zu",
	      devimg_bundle_image_count(exe),
	      devimg_bundle_image_linked(exe, 0));
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds,
	      "the object bundle and its link made %u programs, want 0",
	      devimg_ctx_stat_builds(env.ctx) - builds);
	if (bundle_launch(exe, "caller_k", 7, 4, 4) < 0)
		return -1;

	/* An object bundle of both images: the helper from the bundle. */
	if (new_bundle(DEVIMG_BUNDLE_OBJECT, NULL, &all) < 0)
		return -1;
	CHECK(devimg_bundle_image_count(all) == 2 &&
	      devimg_bundle_kernel_count(all) == 1,
	      "object bundle of both: %zu images, %zu kernel names",
	      devimg_bundle_image_count(all),
	      devimg_bundle_kernel_count(all));
	err = devimg_bundle_link(&all, 1, NULL, &exe2);
	CHECK(err == 0, "devimg_bundle_link of both: %d", err);
	CHECK(devimg_bundle_image_count(exe2) == 1 &&
	      devimg_bundle_image_linked(exe2, 0) == 2,
	      "executable of both: %zu images, image 0 linked from %zu",
	      devimg_bundle_image_count(exe2),
	      devimg_bundle_image_linked(exe2, 0));
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds,
	      "the bundle of both and its link made %u programs, want 0",
	      devimg_ctx_stat_builds(env.ctx) - builds);
	if (bundle_launch(exe2, "caller_k", 8, 4, 4) < 0)
		return -1;

	/* Built in one step: the program devimg_kernel_new() linked. */
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "caller_k", &in) < 0)
		return -1;
	err = devimg_bundle_build(in, NULL, &exe3);
	CHECK(err == 0 && devimg_bundle_image_linked(exe3, 0) == 2,
	      "devimg_bundle_build: %d, linked from %zu", err,
	      devimg_bundle_image_linked(exe3, 0));
	CHECK(devimg_ctx_stat_builds(env.ctx) == builds,
	      "devimg_bundle_build made %u programs, want 0",
	      devimg_ctx_stat_builds(env.ctx) - builds);
	printf("ok link: 2 objects and 1 link made by devimg_kernel_new(), the bundles' programs\n");
	devimg_bundle_unref(exe3);
	devimg_bundle_unref(in);
	devimg_bundle_unref(exe2);
	devimg_bundle_unref(all);
	devimg_bundle_unref(exe);
	devimg_bundle_unref(obj);
	return 0;
}

static int run_unresolved(void)
{
	static const char want[] = "imports 'helper', which no registered image compatible with";
	struct devimg_bundle *in, *obj, *out = NULL;
	struct devimg_kernel *k = NULL;
	int err;

	err = devimg_kernel_new(env.dev, "caller_k", &k);
	CHECK(err == -ENOEXEC && !k && strstr(devimg_last_error(), want),
	      "devimg_kernel_new(caller_k) without its helper: %d", err);
	printf("ok unresolved: %s\n", devimg_last_error());
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "caller_k", &in) < 0)
		return -1;
	err = devimg_bundle_build(in, NULL, &out);
	CHECK(err == -ENOEXEC && !out && strstr(devimg_last_error(), want),
	      "devimg_bundle_build without the helper: %d", err);
	if (new_bundle(DEVIMG_BUNDLE_OBJECT, "caller_k", &obj) < 0)
		return -1;
	err = devimg_bundle_link(&obj, 1, NULL, &out);
	CHECK(err == -ENOEXEC && !out && strstr(devimg_last_error(), want),
	      "devimg_bundle_link without the helper: %d", err);
	err = devimg_bundle_new(env.ctx, DEVIMG_BUNDLE_EXECUTABLE,
				&(struct devimg_bundle_filter){
					.size = FILTER_SIZE,
					.kernel = "caller_k" }, &out);
	CHECK(err == -ENOEXEC && !out && strstr(devimg_last_error(), want),
	      "executable bundle without the helper: %d", err);
	printf("ok unresolved: the same from devimg_bundle_build, _link and _new\n");
	devimg_bundle_unref(obj);
	devimg_bundle_unref(in);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode;
	int i, err, rc;

	if (argc < 3) {
		fprintf(stderr, "usage: %s MODE LIBRARY...\n", argv[0]);
		return 2;
	}
	mode = argv[1];
	for (i = 2; i < argc; i++)
		if (!dlopen(argv[i], RTLD_NOW | RTLD_LOCAL)) {
			fprintf(stderr, "FAIL: %s\n", dlerror());
			return 1;
		}
	err = runner_open(&env, "level_zero");
	if (err)
		return err == 77 ? 1 : err;
	if (!strcmp(mode, "spec"))
		rc = run_spec();
	else if (!strcmp(mode, "link"))
		rc = run_link();
	else if (!strcmp(mode, "unresolved"))
		rc = run_unresolved();
	else
		rc = (fprintf(stderr, "unknown mode %s\n", mode), -1);
	devimg_queue_unref(env.q);
	if (devimg_ctx_unref(env.ctx)) {
		fprintf(stderr, "FAIL: the context outlived its last reference\n");
		rc = -1;
	}
	return rc < 0 || failed ? 1 : 0;
}
