// SPDX-License-Identifier: MIT
/*
 * Kernel bundles end to end: bundle-run MODE [EXPECT] LIB... opens the
 * wrapped libraries, then runs one group of cases on the first device
 * DEVIMG_DEVICE_SELECTOR keeps (tests/bundle/bundle.sh on PoCL,
 * bundle-cuda.sh on a GPU), with bundles of that device only, so that
 * the images and programs counted are its own however many devices the
 * context has (two GPUs: cuda:* keeps both). The libraries carry off1 (out[i] = i + 1),
 * which (two images writing 1 and 2), spec_k (spec constants, native or
 * emulated) and link_caller (out[i] = devimg_link_helper(i) = 3i + 1,
 * the helper in another library's image). EXPECT, for link: run or
 * notsup; for spec (optional): native or emulated, which counts the
 * programs made per set of values. Exits 77 when there is no device.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runner.h"

static struct env env;

/* Launch k over n items with out (n ints) as argument 0; read it back. */
static int run_out(struct devimg_kernel *k, int *out, size_t n)
{
	struct devimg_buf *b;
	int err;

	memset(out, 0, n * sizeof(*out));
	err = devimg_buf_new(env.dev, n * sizeof(*out), &b);
	CHECK(err == 0, "devimg_buf_new: %d", err);
	err = devimg_buf_write(env.q, b, 0, n * sizeof(*out), out);
	if (err == 0)
		err = devimg_kernel_set_arg_buf(k, 0, b);
	if (err == 0)
		err = devimg_launch(env.q, k, 1, NULL, &n, NULL);
	if (err == 0)
		err = devimg_queue_finish(env.q);
	if (err == 0)
		err = devimg_buf_read(env.q, b, 0, n * sizeof(*out), out);
	devimg_buf_unref(b);
	CHECK(err == 0, "launch: %d", err);
	return 0;
}

static int check_off1(struct devimg_kernel *k)
{
	int out[64];
	size_t i;

	if (run_out(k, out, 64) < 0)
		return -1;
	for (i = 0; i < 64; i++)
		CHECK(out[i] == (int)i + 1, "off1: out[%zu] = %d", i, out[i]);
	return 0;
}

static int new_bundle(enum devimg_bundle_state state, const char *kernel,
		      struct devimg_bundle **b)
{
	struct devimg_bundle_filter f = {
		.size = sizeof(f),
		.kernel = kernel,
		.devs = &env.dev,
		.ndevs = 1,
	};
	int err = devimg_bundle_new(env.ctx, state, &f, b);

	CHECK(err == 0, "devimg_bundle_new(%s, %s): %d",
	      devimg_bundle_state_name(state), kernel, err);
	return 0;
}

static bool has_name(const struct devimg_bundle *b, const char *name)
{
	size_t n = devimg_bundle_kernel_count(b), i;

	for (i = 0; i < n; i++)
		if (!strcmp(devimg_bundle_kernel_name(b, i), name))
			return true;
	return false;
}

/* A bundle of one descriptor: libbase's four images, nothing else. */
static int test_desc(struct devimg_image *img)
{
	struct devimg_bundle_filter f = {
		.size = sizeof(f),
		.desc = devimg_image_descriptor(img),
		.devs = &env.dev,
		.ndevs = 1,
	};
	struct devimg_bundle *b;
	size_t i;
	int err;

	err = devimg_bundle_new(env.ctx, DEVIMG_BUNDLE_INPUT, &f, &b);
	CHECK(err == 0, "bundle of a descriptor: %d", err);
	CHECK(devimg_bundle_image_count(b) == 4, "%zu images, 4 expected",
	      devimg_bundle_image_count(b));
	for (i = 0; i < 4; i++)
		CHECK(devimg_image_descriptor(devimg_bundle_image(b, i)) ==
		      f.desc, "image %zu of another descriptor", i);
	CHECK(devimg_bundle_kernel_count(b) == 7 &&
	      !devimg_bundle_kernel_name(b, 7),
	      "%zu kernel names, 7 expected (5 + which + spec_k)",
	      devimg_bundle_kernel_count(b));
	devimg_bundle_unref(b);
	return 0;
}

/*
 * Without devices in the filter, a bundle is for every device of the
 * context: off1's image for each that takes it, the test's device among
 * them.
 */
static int test_all_devices(void)
{
	struct devimg_bundle_filter f = { .size = sizeof(f), .kernel = "off1" };
	unsigned ndev = devimg_device_count(env.ctx);
	struct devimg_bundle *b;
	size_t n, i, mine = 0;
	int err;

	err = devimg_bundle_new(env.ctx, DEVIMG_BUNDLE_INPUT, &f, &b);
	CHECK(err == 0, "bundle of every device: %d", err);
	n = devimg_bundle_image_count(b);
	for (i = 0; i < n; i++)
		mine += devimg_bundle_image_device(b, i) == env.dev;
	CHECK(n >= 1 && n <= ndev && mine == 1,
	      "bundle of every device: %zu images of off1 (%zu on the test's device) for %u devices",
	      n, mine, ndev);
	printf("all devices: %zu of %u devices take off1\n", n, ndev);
	devimg_bundle_unref(b);
	return 0;
}

/* Build once, launch many times: no further build. */
static int test_build(void)
{
	struct devimg_bundle *in, *exe;
	struct devimg_kernel *k, *k2;
	unsigned before, built;
	size_t i;
	int err;

	if (new_bundle(DEVIMG_BUNDLE_INPUT, "off1", &in) < 0)
		return -1;
	CHECK(devimg_bundle_state(in) == DEVIMG_BUNDLE_INPUT, "state");
	CHECK(devimg_bundle_image_count(in) == 1, "%zu images for off1",
	      devimg_bundle_image_count(in));
	CHECK(devimg_bundle_image_device(in, 0) == env.dev, "device");
	CHECK(has_name(in, "off1") && has_name(in, "vadd"), "kernel names");
	CHECK(devimg_bundle_has_kernel(in, "off1", env.dev) == 1 &&
	      devimg_bundle_has_kernel(in, "which", NULL) == 0, "has_kernel");
	if (test_all_devices() < 0)
		return -1;
	printf("input bundle: image target %s, format %d\n",
	       devimg_image_target(devimg_bundle_image(in, 0)),
	       (int)devimg_bundle_image_format(in, 0));
	before = devimg_ctx_stat_builds(env.ctx);
	err = devimg_bundle_build(in, NULL, &exe);
	CHECK(err == 0, "devimg_bundle_build: %d", err);
	built = devimg_ctx_stat_builds(env.ctx);
	CHECK(built == before + 1, "build made %u programs", built - before);
	CHECK(devimg_bundle_state(exe) == DEVIMG_BUNDLE_EXECUTABLE &&
	      devimg_bundle_image_linked(exe, 0) == 1, "executable");
	err = devimg_bundle_kernel_new(exe, env.dev, "off1", NULL, NULL, &k);
	CHECK(err == 0, "devimg_bundle_kernel_new: %d", err);
	for (i = 0; i < 20; i++)
		if (check_off1(k) < 0)
			return -1;
	err = devimg_kernel_new(env.dev, "off1", &k2);
	CHECK(err == 0, "devimg_kernel_new: %d", err);
	CHECK(devimg_ctx_stat_builds(env.ctx) == built,
	      "%u programs made after the build, 0 expected",
	      devimg_ctx_stat_builds(env.ctx) - built);
	printf("build: 1 build, 20 launches and a devimg_kernel_new(): no further build\n");
	if (test_desc(devimg_kernel_image(k)) < 0)
		return -1;
	devimg_kernel_unref(k2);
	devimg_kernel_unref(k);
	devimg_bundle_unref(exe);
	devimg_bundle_unref(in);
	return 0;
}

static int test_join(void)
{
	struct devimg_bundle *a, *b, *j, *jj, *exe, *mixed[2], *exes[2];
	struct devimg_kernel *k;
	int err;

	if (new_bundle(DEVIMG_BUNDLE_INPUT, "off1", &a) < 0 ||
	    new_bundle(DEVIMG_BUNDLE_INPUT, "which", &b) < 0)
		return -1;
	err = devimg_bundle_join((struct devimg_bundle *[]){ a, b }, 2, &j);
	CHECK(err == 0, "join: %d", err);
	CHECK(devimg_bundle_image_count(j) ==
	      devimg_bundle_image_count(a) + devimg_bundle_image_count(b),
	      "join has %zu images", devimg_bundle_image_count(j));
	CHECK(devimg_bundle_has_kernel(j, "off1", env.dev) &&
	      devimg_bundle_has_kernel(j, "which", env.dev), "joined kernels");
	err = devimg_bundle_join((struct devimg_bundle *[]){ a, j }, 2, &jj);
	CHECK(err == 0 && devimg_bundle_image_count(jj) ==
	      devimg_bundle_image_count(j), "join dedup: %d", err);
	devimg_bundle_unref(jj);
	err = devimg_bundle_build(j, NULL, &exe);
	CHECK(err == 0, "build of the join: %d", err);
	err = devimg_bundle_kernel_new(exe, env.dev, "off1", NULL, NULL, &k);
	CHECK(err == 0, "kernel of the joined build: %d", err);
	if (check_off1(k) < 0)
		return -1;
	devimg_kernel_unref(k);
	exes[0] = exe;
	exes[1] = exe;
	err = devimg_bundle_join(exes, 2, &jj);
	CHECK(err == 0 && devimg_bundle_state(jj) == DEVIMG_BUNDLE_EXECUTABLE,
	      "join of executables: %d", err);
	devimg_bundle_unref(jj);
	mixed[0] = a;
	mixed[1] = exe;
	err = devimg_bundle_join(mixed, 2, &jj);
	CHECK(err == -EINVAL &&
	      strstr(devimg_last_error(), "bundle 1 is in state executable, bundle 0 in state input"),
	      "join of input and executable: %d", err);
	err = devimg_bundle_join(mixed, 0, &jj);
	CHECK(err == -EINVAL && strstr(devimg_last_error(), "no bundle"),
	      "join of nothing: %d", err);
	printf("join: union, duplicates once, states checked\n");
	devimg_bundle_unref(exe);
	devimg_bundle_unref(j);
	devimg_bundle_unref(b);
	devimg_bundle_unref(a);
	return 0;
}

struct pick {
	int answer;
	size_t seen;
};

static int pick_image(void *data, const struct devimg_device *dev,
		      const char *kernel, struct devimg_image *const *imgs,
		      size_t n)
{
	struct pick *p = data;

	p->seen = n;
	return dev == env.dev && !strcmp(kernel, "which") && imgs[0] ?
		p->answer : -EFAULT;
}

static int which_value(struct devimg_bundle *exe, struct pick *p, int *val)
{
	struct devimg_kernel *k;
	int err, out[1];

	err = devimg_bundle_kernel_new(exe, env.dev, "which",
				       p ? pick_image : NULL, p, &k);
	if (err < 0)
		return err;
	err = run_out(k, out, 1);
	devimg_kernel_unref(k);
	*val = out[0];
	return err;
}

static int test_selector(void)
{
	struct devimg_bundle *exe;
	struct pick p = { .answer = 1 };
	int err, val = 0;

	if (new_bundle(DEVIMG_BUNDLE_EXECUTABLE, "which", &exe) < 0)
		return -1;
	CHECK(devimg_bundle_image_count(exe) == 2, "%zu images of which",
	      devimg_bundle_image_count(exe));
	err = which_value(exe, NULL, &val);
	CHECK(err == 0 && val == 1, "default choice: %d, value %d", err, val);
	err = which_value(exe, &p, &val);
	CHECK(err == 0 && val == 2 && p.seen == 2,
	      "selector's choice: %d, value %d, %zu offered", err, val, p.seen);
	p.answer = 2;
	err = which_value(exe, &p, &val);
	CHECK(err == -EINVAL &&
	      strstr(devimg_last_error(), "chose image 2 of 2"),
	      "selector out of range: %d", err);
	p.answer = -EPERM;
	err = which_value(exe, &p, &val);
	CHECK(err == -EPERM && strstr(devimg_last_error(), "refused"),
	      "selector refusing: %d", err);
	printf("selector: default image writes 1, the selector's second writes 2\n");
	devimg_bundle_unref(exe);
	return 0;
}

struct spec_struct {
	char c;
	int i;
};

/* spec_k(out, add, spec): out = { ScalarSpec + add, c, i }. */
static int full_spec(struct devimg_bundle *exe, int add, const int *want)
{
	struct devimg_kernel *k;
	struct devimg_buf *b;
	int err, out[3] = { 0 };
	size_t one = 1;

	err = devimg_bundle_kernel_new(exe, env.dev, "spec_k", NULL, NULL, &k);
	CHECK(err == 0, "spec_k: %d", err);
	err = devimg_buf_new(env.dev, sizeof(out), &b);
	CHECK(err == 0, "buffer: %d", err);
	err = devimg_kernel_set_arg_buf(k, 0, b);
	if (err == 0)
		err = devimg_kernel_set_arg(k, 1, sizeof(add), &add);
	if (err == 0)
		err = devimg_launch(env.q, k, 1, NULL, &one, NULL);
	if (err == 0)
		err = devimg_buf_read(env.q, b, 0, sizeof(out), out);
	devimg_buf_unref(b);
	devimg_kernel_unref(k);
	CHECK(err == 0, "spec_k launch: %d", err);
	CHECK(out[0] == want[0] && out[1] == want[1] && out[2] == want[2],
	      "spec_k wrote {%d, %d, %d}, {%d, %d, %d} expected", out[0],
	      out[1], out[2], want[0], want[1], want[2]);
	return 0;
}

/* The programs made since *mark was taken; takes it again. */
static unsigned made_since(unsigned *mark)
{
	unsigned now = devimg_ctx_stat_builds(env.ctx), n = now - *mark;

	*mark = now;
	return n;
}

/*
 * expect "native": the values are built into the program, so each new
 * set of values makes one, and unchanged values find it again;
 * "emulated": the values go with the kernel, no program per value;
 * "": programs not counted (bundle-cuda.sh).
 */
static int test_spec(const char *expect)
{
	struct devimg_bundle *in, *in2, *in0, *exe, *obj, *exe2;
	struct devimg_kernel *k;
	struct spec_struct s = { .c = 'x', .i = 7 };
	int err, v = 42, bad = 0;
	int want[3] = { 43, 'x', 7 }, defaults[3] = { 8, 3, 100 };
	bool count = *expect, native = !strcmp(expect, "native");
	unsigned per_value = native ? 1 : 0, mark, n;

	CHECK(!count || native || !strcmp(expect, "emulated"),
	      "spec: want native or emulated, not '%s'", expect);
	mark = devimg_ctx_stat_builds(env.ctx);
	/* No value set: the module's defaults, devimg_kernel_new()'s program. */
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "spec_k", &in0) < 0)
		return -1;
	err = devimg_bundle_build(in0, NULL, &exe);
	CHECK(err == 0, "build with the defaults: %d", err);
	if (full_spec(exe, 1, defaults) < 0)
		return -1;
	devimg_bundle_unref(exe);
	err = devimg_kernel_new(env.dev, "spec_k", &k);
	CHECK(err == 0, "devimg_kernel_new(spec_k): %d", err);
	devimg_kernel_unref(k);
	n = made_since(&mark);
	CHECK(!count || n == 1,
	      "defaults: %u programs made by a build and devimg_kernel_new(), 1 expected",
	      n);
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "spec_k", &in) < 0)
		return -1;
	err = devimg_bundle_set_spec_const(in, "ScalarSpec", sizeof(v), &v);
	CHECK(err == 0, "set ScalarSpec: %d", err);
	err = devimg_bundle_set_spec_const(in, "StructSpec", sizeof(s), &s);
	CHECK(err == 0, "set StructSpec: %d", err);
	err = devimg_bundle_set_spec_const(in, "ScalarSpec", 2, &v);
	CHECK(err == -EINVAL && strstr(devimg_last_error(), "2 bytes given"),
	      "wrong size: %d", err);
	err = devimg_bundle_set_spec_const(in, "NoSuchSpec", 4, &bad);
	CHECK(err == -ENOENT && strstr(devimg_last_error(), "NoSuchSpec"),
	      "unknown constant: %d", err);
	err = devimg_bundle_build(in, NULL, &exe);
	CHECK(err == 0, "build: %d", err);
	if (full_spec(exe, 1, want) < 0 || runner_check_fixed(&env, exe) < 0)
		return -1;
	n = made_since(&mark);
	CHECK(!count || n == per_value,
	      "build with new values made %u programs, %u expected (%s)", n,
	      per_value, expect);
	/* The same values again, from another bundle: nothing new. */
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "spec_k", &in2) < 0)
		return -1;
	err = devimg_bundle_set_spec_const(in2, "ScalarSpec", sizeof(v), &v);
	if (err == 0)
		err = devimg_bundle_set_spec_const(in2, "StructSpec", sizeof(s),
						   &s);
	CHECK(err == 0, "set the same values: %d", err);
	err = devimg_bundle_build(in2, NULL, &exe2);
	CHECK(err == 0, "build with the same values: %d", err);
	if (full_spec(exe2, 1, want) < 0)
		return -1;
	devimg_bundle_unref(exe2);
	devimg_bundle_unref(in2);
	n = made_since(&mark);
	CHECK(!count || n == 0,
	      "build with unchanged values made %u programs, 0 expected", n);
	err = devimg_bundle_set_spec_const(exe, "ScalarSpec", sizeof(v), &v);
	CHECK(err == -EINVAL &&
	      strstr(devimg_last_error(), "state executable, input expected"),
	      "spec constant on an executable bundle: %d", err);
	devimg_bundle_unref(exe);
	/* A changed value: built once, then found again. */
	v = 5;
	want[0] = 6;
	err = devimg_bundle_set_spec_const(in, "ScalarSpec", sizeof(v), &v);
	CHECK(err == 0, "set ScalarSpec again: %d", err);
	err = devimg_bundle_build(in, NULL, &exe);
	CHECK(err == 0, "build with a changed value: %d", err);
	if (full_spec(exe, 1, want) < 0)
		return -1;
	devimg_bundle_unref(exe);
	err = devimg_bundle_build(in, NULL, &exe);
	CHECK(err == 0, "build again: %d", err);
	if (full_spec(exe, 1, want) < 0)
		return -1;
	n = made_since(&mark);
	CHECK(!count || n == per_value,
	      "two builds with a changed value made %u programs, %u expected (%s)",
	      n, per_value, expect);
	/* compile, then link: the values go along. */
	err = devimg_bundle_compile(in, NULL, &obj);
	CHECK(err == 0 && devimg_bundle_state(obj) == DEVIMG_BUNDLE_OBJECT,
	      "compile: %d", err);
	err = devimg_bundle_link(&obj, 1, NULL, &exe2);
	CHECK(err == 0, "link: %d", err);
	if (full_spec(exe2, 1, want) < 0)
		return -1;
	n = made_since(&mark);
	CHECK(!native || n == 2,
	      "compile + link with a changed value made %u programs, 2 expected (an object and the linked program)",
	      n);
	devimg_bundle_unref(exe2);
	devimg_bundle_unref(obj);
	err = devimg_bundle_compile(in, NULL, &obj);
	CHECK(err == 0, "compile again: %d", err);
	err = devimg_bundle_link(&obj, 1, NULL, &exe2);
	CHECK(err == 0, "link again: %d", err);
	if (full_spec(exe2, 1, want) < 0)
		return -1;
	n = made_since(&mark);
	CHECK(!native || n == 0,
	      "compile + link again made %u programs, 0 expected", n);
	printf("spec: values set on the input bundle reach the kernel, through build and through compile + link%s\n",
	       !count ? "" : native ?
	       "; native: one program per set of values, found again when unchanged" :
	       "; emulated: no program per value");
	devimg_bundle_unref(exe2);
	devimg_bundle_unref(obj);
	devimg_bundle_unref(exe);
	devimg_bundle_unref(in);
	devimg_bundle_unref(in0);
	return 0;
}

static int test_errors(void)
{
	struct devimg_bundle *in, *exe, *out = NULL;
	struct devimg_kernel *k;
	int err;

	if (new_bundle(DEVIMG_BUNDLE_INPUT, "off1", &in) < 0 ||
	    new_bundle(DEVIMG_BUNDLE_EXECUTABLE, "off1", &exe) < 0)
		return -1;
	err = devimg_bundle_link(NULL, 0, NULL, &out);
	CHECK(err == -EINVAL && strstr(devimg_last_error(), "no bundle"),
	      "link of nothing: %d", err);
	err = devimg_bundle_link(&in, 1, NULL, &out);
	CHECK(err == -EINVAL &&
	      strstr(devimg_last_error(), "state input, object expected"),
	      "link of an input bundle: %d", err);
	err = devimg_bundle_compile(exe, NULL, &out);
	CHECK(err == -EINVAL, "compile of an executable bundle: %d", err);
	err = devimg_bundle_kernel_new(exe, env.dev, "which", NULL, NULL, &k);
	CHECK(err == -ENOENT &&
	      strstr(devimg_last_error(), "kernel 'which' is not in the bundle"),
	      "a kernel not in the bundle: %d", err);
	err = devimg_bundle_kernel_new(in, env.dev, "off1", NULL, NULL, &k);
	CHECK(err == -EINVAL, "a kernel from an input bundle: %d", err);
	err = devimg_bundle_new(env.ctx, (enum devimg_bundle_state)7, NULL,
				&out);
	CHECK(err == -EINVAL, "state 7: %d", err);
	CHECK(out == NULL, "out written on failure");
	printf("errors: as documented\n");
	devimg_bundle_unref(exe);
	devimg_bundle_unref(in);
	return 0;
}

static int check_caller(struct devimg_kernel *k)
{
	int out[32];
	size_t i;

	if (run_out(k, out, 32) < 0)
		return -1;
	for (i = 0; i < 32; i++)
		CHECK(out[i] == 3 * (int)i + 1, "link_caller: out[%zu] = %d",
		      i, out[i]);
	return 0;
}

/*
 * expect "run": linked and run, each object and the linked program made
 * once; "notsup": the backend cannot link.
 */
static int test_link(const char *expect)
{
	struct devimg_bundle *in, *exe, *obj, *exe2;
	struct devimg_kernel *k;
	unsigned mark, n;
	int err;

	mark = devimg_ctx_stat_builds(env.ctx);
	err = devimg_kernel_new(env.dev, "link_caller", &k);
	if (!strcmp(expect, "notsup")) {
		CHECK(err == -ENOTSUP &&
		      strstr(devimg_last_error(), "must be linked with them"),
		      "devimg_kernel_new(link_caller): %d", err);
		printf("link: %s\n", devimg_last_error());
		if (new_bundle(DEVIMG_BUNDLE_INPUT, "link_caller", &in) < 0)
			return -1;
		err = devimg_bundle_build(in, NULL, &exe);
		CHECK(err == -ENOTSUP &&
		      strstr(devimg_last_error(), "must be linked with them"),
		      "bundle build: %d", err);
		devimg_bundle_unref(in);
		return 0;
	}
	CHECK(err == 0, "devimg_kernel_new(link_caller): %d", err);
	if (check_caller(k) < 0)
		return -1;
	devimg_kernel_unref(k);
	n = made_since(&mark);
	CHECK(n == 3,
	      "devimg_kernel_new(link_caller) made %u programs, 3 expected (the caller's and the helper's objects, the linked program)",
	      n);
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "link_caller", &in) < 0)
		return -1;
	err = devimg_bundle_build(in, NULL, &exe);
	CHECK(err == 0 && devimg_bundle_image_linked(exe, 0) == 2,
	      "bundle build: %d, %zu images linked", err,
	      devimg_bundle_image_linked(exe, 0));
	n = made_since(&mark);
	CHECK(n == 0, "the bundle's build made %u programs, 0 expected", n);
	err = devimg_bundle_kernel_new(exe, env.dev, "link_caller", NULL, NULL,
				       &k);
	CHECK(err == 0, "link_caller from the bundle: %d", err);
	if (check_caller(k) < 0)
		return -1;
	devimg_kernel_unref(k);
	err = devimg_bundle_compile(in, "", &obj);
	CHECK(err == 0, "compile: %d", err);
	err = devimg_bundle_link(&obj, 1, "", &exe2);
	CHECK(err == 0 && devimg_bundle_image_linked(exe2, 0) == 2,
	      "link of the object: %d", err);
	err = devimg_bundle_kernel_new(exe2, env.dev, "link_caller", NULL,
				       NULL, &k);
	CHECK(err == 0, "link_caller from the linked bundle: %d", err);
	if (check_caller(k) < 0)
		return -1;
	devimg_kernel_unref(k);
	n = made_since(&mark);
	CHECK(n == 0, "compile + link made %u programs, 0 expected", n);
	printf("link: link_caller linked with the helper's image and run; 3 programs made once, then found by the bundle's build and by compile + link\n");
	devimg_bundle_unref(exe2);
	devimg_bundle_unref(obj);
	devimg_bundle_unref(exe);
	devimg_bundle_unref(in);
	return 0;
}

static int test_unresolved(void)
{
	struct devimg_bundle *in, *exe = NULL;
	struct devimg_kernel *k;
	int err = devimg_kernel_new(env.dev, "link_caller", &k);

	CHECK(err == -ENOEXEC &&
	      strstr(devimg_last_error(), "imports 'devimg_link_helper', which no registered image"),
	      "link_caller without its helper: %d", err);
	printf("unresolved: %s\n", devimg_last_error());
	if (new_bundle(DEVIMG_BUNDLE_INPUT, "link_caller", &in) < 0)
		return -1;
	err = devimg_bundle_build(in, NULL, &exe);
	CHECK(err == -ENOEXEC && !exe &&
	      strstr(devimg_last_error(), "imports 'devimg_link_helper', which no registered image"),
	      "bundle build of link_caller without its helper: %d", err);
	printf("unresolved: the bundle's build too\n");
	devimg_bundle_unref(in);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode, *expect = "";
	int i, err, rc;

	if (argc < 2) {
		fprintf(stderr, "usage: bundle-run MODE [EXPECT] LIB...\n");
		return 2;
	}
	mode = argv[1];
	i = 2;
	if ((!strcmp(mode, "link") && argc > 2) ||
	    (!strcmp(mode, "spec") && argc > 2 &&
	     (!strcmp(argv[2], "native") || !strcmp(argv[2], "emulated"))))
		expect = argv[i++];
	for (; i < argc; i++)
		if (!dlopen(argv[i], RTLD_NOW)) {
			fprintf(stderr, "cannot open %s: %s\n", argv[i],
				dlerror());
			return 1;
		}
	err = runner_open(&env, NULL);
	if (err)
		return err;
	if (!strcmp(mode, "build"))
		rc = test_build();
	else if (!strcmp(mode, "join"))
		rc = test_join();
	else if (!strcmp(mode, "selector"))
		rc = test_selector();
	else if (!strcmp(mode, "spec"))
		rc = test_spec(expect);
	else if (!strcmp(mode, "errors"))
		rc = test_errors();
	else if (!strcmp(mode, "link"))
		rc = test_link(expect);
	else if (!strcmp(mode, "unresolved"))
		rc = test_unresolved();
	else
		rc = (fprintf(stderr, "unknown mode %s\n", mode), -1);
	devimg_queue_unref(env.q);
	devimg_ctx_unref(env.ctx);
	return rc < 0 || failed ? 1 : 0;
}
