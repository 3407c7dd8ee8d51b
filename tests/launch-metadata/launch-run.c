// SPDX-License-Identifier: MIT
/*
 * Launch metadata end to end: opens a library of wrapped images, makes a
 * context, runs kernels on its first device and checks the results on the
 * host. The same on PoCL (launch-metadata.sh, SPIR-V or SPIR bitcode from
 * the .cl kernels, elim-spec's in SPIR-V from elim-spec-native.spvasm) and
 * on a GPU through the CUDA plugin (launch-metadata-cuda.sh, PTX from the
 * .cu kernels of the same names and arguments). Modes:
 *  "args"     argument tables: an array of 100 ints by value (wrapped
 *             and flattened), an array of two buffers, a struct holding
 *             an int and two buffers, a pointer with local memory, and
 *             the errors a bad table gives;
 *  "elim"     a kernel whose second argument was eliminated, launched
 *             with the original numbering (one by one and by table);
 *  "elimspec" the same in an image with spec constants, argv[3]
 *             "emulated" (the default: the loader's buffer is the last
 *             argument) or "native" (a SPIR-V image, no buffer);
 *  "wg"       a required work-group size used when none is given, the
 *             same given explicitly, a conflicting one refused;
 *  "probe"    prints "LACK <id> <name>" and "HAVE <id> <name>": an
 *             aspect the device is known to lack and one it has (beyond
 *             its type), for the scripts to write device requirements
 *             with; argv[3], "cpu" (the default) or "gpu", is the device
 *             type it must report;
 *  "pick"     the kernel "which" is in an image that needs the lacking
 *             aspect and one that needs the present one: the second runs;
 *  "nopick"   only the first: -ENOEXEC naming the missing aspect (argv[3])
 *             and the image's target (argv[4], spir64_x86_64 if not given).
 * Exits 77 when there is no device.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>
#include "tests/runner.h"

#define CHECK_MSG(sub)							\
	CHECK(strstr(devimg_last_error(), (sub)),			\
	      "the message lacks \"%s\"", (sub))

#define ACC_GLOBAL (DEVIMG_ACCESS_GLOBAL_BUFFER | 1 << DEVIMG_PARAM_DIMS_SHIFT)
#define ACC_LOCAL (DEVIMG_ACCESS_LOCAL | 1 << DEVIMG_PARAM_DIMS_SHIFT)

static int new_buf(struct env *e, size_t size, const void *init,
		   struct devimg_buf **b)
{
	CHECK(!devimg_buf_new(e->dev, size, b), "buf_new(%zu)", size);
	if (init)
		CHECK(!devimg_buf_write(e->q, *b, 0, size, init), "buf_write");
	return 0;
}

static int run1(struct env *e, struct devimg_kernel *k, size_t global,
		const size_t *local)
{
	int err = devimg_launch(e->q, k, 1, NULL, &global, local);

	CHECK(err == 0, "launch: %d", err);
	CHECK(!devimg_queue_finish(e->q), "finish");
	return 0;
}

/* ---- args ---- */

enum { N = 100 };

/* The closure of a kernel that captures int a[100] and a buffer. */
struct array_capture {
	int a[N];
	struct devimg_buf *out;
};

static int check_array_out(struct env *e, struct devimg_buf *b,
			   const struct array_capture *cap, const char *what)
{
	int out[N], i;

	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
	for (i = 0; i < N; i++)
		CHECK(out[i] == cap->a[i] * 3 + 1, "%s: out[%d] = %d, want %d",
		      what, i, out[i], cap->a[i] * 3 + 1);
	return 0;
}

static int test_array(struct env *e)
{
	struct devimg_param_desc wrapped[] = {
		{ DEVIMG_PARAM_STD_LAYOUT, sizeof(int) * N,
		  offsetof(struct array_capture, a) },
		{ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL,
		  offsetof(struct array_capture, out) },
	};
	struct devimg_param_desc flat[1 + N];
	struct array_capture cap;
	struct devimg_kernel *k;
	struct devimg_buf *b;
	int i;

	for (i = 0; i < N; i++)
		cap.a[i] = i * i - 50 * i + 7;
	if (new_buf(e, sizeof(int) * N, NULL, &b))
		return -1;
	cap.out = b;

	CHECK(!devimg_kernel_new(e->dev, "array_wrapped", &k), "array_wrapped");
	CHECK(!devimg_kernel_set_args(k, wrapped, 2, &cap, sizeof(cap)),
	      "set_args(array_wrapped)");
	if (run1(e, k, N, NULL) || check_array_out(e, b, &cap, "wrapped"))
		return -1;
	devimg_kernel_unref(k);

	/* Flattened: the buffer first, then one entry per element. */
	flat[0] = (struct devimg_param_desc){ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL,
		offsetof(struct array_capture, out) };
	for (i = 0; i < N; i++)
		flat[1 + i] = (struct devimg_param_desc){
			DEVIMG_PARAM_STD_LAYOUT, sizeof(int),
			(int)(offsetof(struct array_capture, a) +
			      sizeof(int) * (size_t)i) };
	for (i = 0; i < N; i++)
		cap.a[i] = 1000 - 7 * i;
	CHECK(!devimg_kernel_new(e->dev, "array_flat", &k), "array_flat");
	CHECK(devimg_kernel_arg_count(k) == 1 + N, "array_flat has %u args",
	      devimg_kernel_arg_count(k));
	CHECK(!devimg_kernel_set_args(k, flat, 1 + N, &cap, sizeof(cap)),
	      "set_args(array_flat)");
	if (run1(e, k, N, NULL) || check_array_out(e, b, &cap, "flat"))
		return -1;
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok an array of 100 ints by value: one wrapped entry, and 100 flattened entries\n");
	return 0;
}

static int test_buffer_array(struct env *e)
{
	struct { struct devimg_buf *bufs[2]; } cap;
	struct devimg_param_desc params[] = {
		{ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL, 0 },
		{ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL, sizeof(cap.bufs[0]) },
	};
	struct devimg_kernel *k;
	int in[64], out[64], i;

	for (i = 0; i < 64; i++)
		in[i] = i - 20;
	if (new_buf(e, sizeof(in), in, &cap.bufs[0]) ||
	    new_buf(e, sizeof(out), NULL, &cap.bufs[1]))
		return -1;
	CHECK(!devimg_kernel_new(e->dev, "two_buffers", &k), "two_buffers");
	CHECK(!devimg_kernel_set_args(k, params, 2, &cap, sizeof(cap)),
	      "set_args(two_buffers)");
	if (run1(e, k, 64, NULL))
		return -1;
	CHECK(!devimg_buf_read(e->q, cap.bufs[1], 0, sizeof(out), out), "read");
	for (i = 0; i < 64; i++)
		CHECK(out[i] == in[i] * in[i], "out[%d] = %d, want %d", i,
		      out[i], in[i] * in[i]);
	devimg_kernel_unref(k);
	devimg_buf_unref(cap.bufs[0]);
	devimg_buf_unref(cap.bufs[1]);
	printf("ok an array of two buffers\n");
	return 0;
}

struct fields_capture {
	char pad[3];		/* the struct does not start the closure */
	struct {
		int scale;
		struct devimg_buf *in;
		struct devimg_buf *out;
	} s;
};

static int test_struct(struct env *e)
{
	struct devimg_param_desc params[] = {
		{ DEVIMG_PARAM_STD_LAYOUT, sizeof(int),
		  offsetof(struct fields_capture, s.scale) },
		{ DEVIMG_PARAM_ACCESSOR, DEVIMG_ACCESS_CONSTANT_BUFFER |
		  1 << DEVIMG_PARAM_DIMS_SHIFT,
		  offsetof(struct fields_capture, s.in) },
		{ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL,
		  offsetof(struct fields_capture, s.out) },
	};
	struct fields_capture cap = { .s.scale = -7 };
	struct devimg_kernel *k;
	int in[32], out[32], i;

	for (i = 0; i < 32; i++)
		in[i] = 3 * i + 1;
	if (new_buf(e, sizeof(in), in, &cap.s.in) ||
	    new_buf(e, sizeof(out), NULL, &cap.s.out))
		return -1;
	CHECK(!devimg_kernel_new(e->dev, "struct_fields", &k), "struct_fields");
	CHECK(!devimg_kernel_set_args(k, params, 3, &cap, sizeof(cap)),
	      "set_args(struct_fields)");
	if (run1(e, k, 32, NULL))
		return -1;
	CHECK(!devimg_buf_read(e->q, cap.s.out, 0, sizeof(out), out), "read");
	for (i = 0; i < 32; i++)
		CHECK(out[i] == in[i] * -7, "out[%d] = %d, want %d", i, out[i],
		      in[i] * -7);

	/* A changed closure, set again: the new int and buffers are used. */
	cap.s.scale = 5;
	devimg_buf_unref(cap.s.in);
	for (i = 0; i < 32; i++)
		in[i] = 100 - i;
	if (new_buf(e, sizeof(in), in, &cap.s.in))
		return -1;
	CHECK(!devimg_kernel_set_args(k, params, 3, &cap, sizeof(cap)),
	      "set_args again");
	/* The kernel holds its own references to the buffers. */
	devimg_buf_unref(cap.s.in);
	if (run1(e, k, 32, NULL))
		return -1;
	CHECK(!devimg_buf_read(e->q, cap.s.out, 0, sizeof(out), out), "read");
	for (i = 0; i < 32; i++)
		CHECK(out[i] == (100 - i) * 5, "again: out[%d] = %d, want %d",
		      i, out[i], (100 - i) * 5);
	devimg_kernel_unref(k);
	devimg_buf_unref(cap.s.out);
	printf("ok a struct holding an int and two buffers, set twice\n");
	return 0;
}

/* A pointer, local memory of two kinds, and the spec-constant entry. */
static int test_local(struct env *e)
{
	enum { L = 8, G = 64 };
	struct {
		struct devimg_buf *in;
		size_t scratch;
		size_t total;
		struct devimg_buf *out;
	} cap = { .scratch = L * sizeof(int), .total = sizeof(int) };
	struct devimg_param_desc params[] = {
		{ DEVIMG_PARAM_POINTER, sizeof(void *), 0 },
		{ DEVIMG_PARAM_ACCESSOR, ACC_LOCAL, sizeof(void *) },
		{ DEVIMG_PARAM_WORK_GROUP_MEMORY, 0,
		  sizeof(void *) + sizeof(size_t) },
		{ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL,
		  sizeof(void *) + 2 * sizeof(size_t) },
		{ DEVIMG_PARAM_SPEC_CONST_BUFFER, 0, 0 },
	};
	struct devimg_kernel *k;
	int in[G], out[G / L], want, i, j;
	size_t l = L;

	for (i = 0; i < G; i++)
		in[i] = (i % 5) * 11 - i;
	if (new_buf(e, sizeof(in), in, &cap.in) ||
	    new_buf(e, sizeof(out), NULL, &cap.out))
		return -1;
	CHECK(!devimg_kernel_new(e->dev, "group_sums", &k), "group_sums");
	CHECK(!devimg_kernel_set_args(k, params, 5, &cap, sizeof(cap)),
	      "set_args(group_sums)");
	if (run1(e, k, G, &l))
		return -1;
	CHECK(!devimg_buf_read(e->q, cap.out, 0, sizeof(out), out), "read");
	for (i = 0; i < G / L; i++) {
		for (want = 0, j = 0; j < L; j++)
			want += in[i * L + j];
		CHECK(out[i] == want, "group %d: %d, want %d", i, out[i], want);
	}
	devimg_kernel_unref(k);
	devimg_buf_unref(cap.in);
	devimg_buf_unref(cap.out);
	printf("ok a pointer, a local accessor, work-group memory, the spec-constant entry\n");
	return 0;
}

struct bad_capture {
	int x;
	struct devimg_buf *b;
};

/* Bad tables change nothing and say which entry. */
static int test_bad_tables(struct env *e)
{
	struct bad_capture cap = { 1, NULL };
	struct devimg_param_desc p[2];
	struct devimg_kernel *k;
	int err;

	CHECK(!devimg_kernel_new(e->dev, "struct_fields", &k), "struct_fields");
	p[0] = (struct devimg_param_desc){ DEVIMG_PARAM_STD_LAYOUT, 4, 0 };
	p[1] = (struct devimg_param_desc){ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL,
					   offsetof(struct bad_capture, b) };
	err = devimg_kernel_set_args(k, p, 2, &cap, sizeof(cap));
	CHECK(err == -EINVAL, "NULL buffer: %d", err);
	CHECK_MSG("parameter 1 (accessor): NULL buffer at offset 8");
	p[1].offset = (int)sizeof(cap) - 4;
	err = devimg_kernel_set_args(k, p, 2, &cap, sizeof(cap));
	CHECK(err == -EINVAL, "offset past the end: %d", err);
	CHECK_MSG("8 bytes at offset 12 leave the captured object of 16 bytes");
	p[1] = (struct devimg_param_desc){ DEVIMG_PARAM_SAMPLER, 8, 8 };
	err = devimg_kernel_set_args(k, p, 2, &cap, sizeof(cap));
	CHECK(err == -ENOTSUP, "sampler: %d", err);
	CHECK_MSG("parameter 1: kind 2 (sampler) is not supported");
	p[1] = (struct devimg_param_desc){ DEVIMG_PARAM_ACCESSOR,
		2017 | 2 << DEVIMG_PARAM_DIMS_SHIFT, 8 };
	err = devimg_kernel_set_args(k, p, 2, &cap, sizeof(cap));
	CHECK(err == -ENOTSUP, "image accessor: %d", err);
	CHECK_MSG("target 2017 is not supported");
	p[0] = (struct devimg_param_desc){ DEVIMG_PARAM_SPEC_CONST_BUFFER, 0,
					   0 };
	err = devimg_kernel_set_args(k, p, 2, &cap, sizeof(cap));
	CHECK(err == -EINVAL, "spec buffer first: %d", err);
	CHECK_MSG("the spec-constant buffer can only be the last");
	/* Nothing was set by the failed calls. */
	{
		size_t g = 1;

		err = devimg_launch(e->q, k, 1, NULL, &g, NULL);
		CHECK(err == -EINVAL, "launch after failed tables: %d", err);
		CHECK_MSG("argument 0 of kernel 'struct_fields' is not set");
	}
	devimg_kernel_unref(k);
	printf("ok bad tables: refused whole, the entry named\n");
	return 0;
}

static int mode_args(struct env *e)
{
	if (test_array(e) || test_buffer_array(e) || test_struct(e) ||
	    test_local(e) || test_bad_tables(e))
		return -1;
	return 0;
}

/* ---- elim ---- */

static int elim_check(struct env *e, struct devimg_kernel *k,
		      struct devimg_buf *b, int want)
{
	int out = 0;

	if (run1(e, k, 1, NULL))
		return -1;
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), &out), "read");
	CHECK(out == want, "elim wrote %d, want %d", out, want);
	return 0;
}

/* The closure of elim(out, unused, a, b), before elimination. */
struct elim_capture {
	struct devimg_buf *out;
	int unused, a, b;
};

static int mode_elim(struct env *e)
{
	struct devimg_param_desc params[] = {
		{ DEVIMG_PARAM_ACCESSOR, ACC_GLOBAL,
		  offsetof(struct elim_capture, out) },
		{ DEVIMG_PARAM_STD_LAYOUT, sizeof(int),
		  offsetof(struct elim_capture, unused) },
		{ DEVIMG_PARAM_STD_LAYOUT, sizeof(int),
		  offsetof(struct elim_capture, a) },
		{ DEVIMG_PARAM_STD_LAYOUT, sizeof(int),
		  offsetof(struct elim_capture, b) },
	};
	struct elim_capture cap;
	const unsigned char *mask;
	struct devimg_kernel *k;
	struct devimg_buf *b;
	size_t nargs;
	int v, err;

	if (new_buf(e, sizeof(int), NULL, &b))
		return -1;
	CHECK(!devimg_kernel_new(e->dev, "elim", &k), "elim");
	CHECK(!devimg_image_kernel_arg_mask(devimg_kernel_image(k), "elim",
					    &mask, &nargs) &&
	      nargs == 4 && mask[0] == 0x02, "the image's mask");
	CHECK(devimg_kernel_arg_count(k) == 4,
	      "elim: %u arguments, want the original 4",
	      devimg_kernel_arg_count(k));
	/* Eliminated argument 1 need not be set... */
	v = 7;
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b) &&
	      !devimg_kernel_set_arg(k, 2, sizeof(v), &v), "args 0, 2");
	v = 5;
	CHECK(!devimg_kernel_set_arg(k, 3, sizeof(v), &v), "arg 3");
	if (elim_check(e, k, b, 705))
		return -1;
	/* ...and is accepted and dropped when it is, whatever its size. */
	v = 999;
	CHECK(!devimg_kernel_set_arg(k, 1, sizeof(v), &v), "arg 1");
	CHECK(!devimg_kernel_set_arg(k, 1, 2, &v), "arg 1, 2 bytes");
	v = -3;
	CHECK(!devimg_kernel_set_arg(k, 3, sizeof(v), &v), "arg 3 again");
	if (elim_check(e, k, b, 697))
		return -1;
	err = devimg_kernel_set_arg(k, 4, sizeof(v), &v);
	CHECK(err == -EINVAL, "argument 4: %d", err);
	CHECK_MSG("kernel 'elim' has 4 arguments, no argument 4");
	/* The same from a table in the original numbering. */
	cap.out = b;
	cap.unused = 12345;
	cap.a = 42;
	cap.b = 9;
	CHECK(!devimg_kernel_set_args(k, params, 4, &cap, sizeof(cap)),
	      "set_args(elim)");
	if (elim_check(e, k, b, 4209))
		return -1;
	devimg_kernel_unref(k);
	devimg_buf_unref(b);

	k = NULL;
	err = devimg_kernel_new(e->dev, "bad_mask", &k);
	CHECK(err == -EINVAL && !k, "a mask that does not fit: %d", err);
	CHECK_MSG("kernel 'bad_mask': 'SYCL/kernel param opt' of image 0 keeps 2 of 3 arguments, the built kernel has 1");
	printf("ok eliminated argument 1: original numbering, accepted and dropped\n");
	return 0;
}

/*
 * With emulated spec constants (Off, default 1000) the loader's buffer is
 * the kernels' last argument, whether the mask counts it or not. With
 * native ones (a SPIR-V image) there is no buffer: setting Off builds the
 * program again, and the arguments set carry over in the original
 * numbering.
 */
static int elim_spec_run(struct env *e, const char *name, int mul,
			 bool native)
{
	enum devimg_image_format fmt;
	struct devimg_kernel *k;
	struct devimg_buf *b;
	int a = 7, off = 50;

	if (new_buf(e, sizeof(int), NULL, &b))
		return -1;
	CHECK(!devimg_kernel_new(e->dev, name, &k), "%s", name);
	if (native)
		CHECK(!devimg_image_guess_format(devimg_kernel_image(k), &fmt) &&
		      fmt == DEVIMG_FORMAT_SPIRV,
		      "%s: native spec constants want a SPIR-V image", name);
	CHECK(devimg_kernel_arg_count(k) == 3,
	      "%s: %u arguments, want 3 (out, unused, a)", name,
	      devimg_kernel_arg_count(k));
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b) &&
	      !devimg_kernel_set_arg(k, 2, sizeof(a), &a), "args");
	if (elim_check(e, k, b, 7 * mul + 1000))
		return -1;
	CHECK(!devimg_kernel_set_spec_const(k, "Off", sizeof(off), &off),
	      "set Off");
	CHECK(!devimg_kernel_set_arg(k, 1, sizeof(a), &a), "arg 1");
	if (elim_check(e, k, b, 7 * mul + 50))
		return -1;
	CHECK(devimg_kernel_set_arg(k, 3, sizeof(a), &a) == -EINVAL,
	      "%s: argument 3 %s", name,
	      native ? "does not exist" : "is the loader's");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	return 0;
}

/* spec: "emulated" (NULL too) or "native". */
static int mode_elim_spec(struct env *e, const char *spec)
{
	bool native = spec && !strcmp(spec, "native");

	CHECK(!spec || native || !strcmp(spec, "emulated"),
	      "elimspec: spec constants '%s', want emulated or native", spec);
	if (elim_spec_run(e, "elim_spec", 1, native) ||
	    elim_spec_run(e, "elim_spec_short", 2, native))
		return -1;
	if (native)
		printf("ok eliminated arguments with native spec constants, kept over a rebuild\n");
	else
		printf("ok eliminated arguments with the spec-constant buffer, counted in the mask or not\n");
	return 0;
}

/* ---- wg ---- */

static int mode_wg(struct env *e)
{
	size_t g[2] = { 20, 4 }, l[2] = { 5, 2 }, bad[2] = { 4, 2 };
	size_t sz[3];
	unsigned dims;
	int out[80], i, err;
	struct devimg_kernel *k;
	struct devimg_buf *b;

	if (new_buf(e, sizeof(out), NULL, &b))
		return -1;
	CHECK(!devimg_kernel_new(e->dev, "wg", &k), "wg");
	CHECK(!devimg_image_reqd_work_group_size(devimg_kernel_image(k), "wg",
						 &dims, sz) &&
	      dims == 2 && sz[0] == 5 && sz[1] == 2 && sz[2] == 1,
	      "the image's required size");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b), "arg 0");
	err = devimg_launch(e->q, k, 2, NULL, g, NULL);
	CHECK(err == 0, "launch without a local size: %d", err);
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
	for (i = 0; i < 80; i++)
		CHECK(out[i] == 502, "out[%d] = %d: local size %dx%d, want 5x2",
		      i, out[i], out[i] / 100, out[i] % 100);
	memset(out, 0, sizeof(out));
	CHECK(!devimg_buf_write(e->q, b, 0, sizeof(out), out), "zero");
	err = devimg_launch(e->q, k, 2, NULL, g, l);
	CHECK(err == 0, "launch with the required local size: %d", err);
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
	for (i = 0; i < 80; i++)
		CHECK(out[i] == 502, "explicit: out[%d] = %d", i, out[i]);
	err = devimg_launch(e->q, k, 2, NULL, g, bad);
	CHECK(err == -EINVAL, "a conflicting local size: %d", err);
	CHECK_MSG("kernel 'wg' requires work-group size 5x2 (SYCL/program metadata), the launch asks for 4x2");
	g[0] = 20;
	err = devimg_launch(e->q, k, 1, NULL, g, NULL);
	CHECK(err == -EINVAL, "1-dimensional launch: %d", err);
	CHECK_MSG("requires work-group size 5x2, which a 1-dimensional launch cannot have");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok required work-group size 5x2: used without a local size, a conflicting one refused\n");
	return 0;
}

/* ---- aspects ---- */

static int known(const struct devimg_device_features *f, unsigned a)
{
	return f->aspects_known >> a & 1;
}

static int has(const struct devimg_device_features *f, unsigned a)
{
	return known(f, a) && (f->aspects >> a & 1);
}

#define ASPECT_BIT(a) ((uint64_t)1 << DEVIMG_ASPECT_##a)
/* The USM aspects but usm_system_allocations. */
#define USM_ASPECTS (ASPECT_BIT(USM_DEVICE_ALLOCATIONS) |		\
		     ASPECT_BIT(USM_HOST_ALLOCATIONS) |			\
		     ASPECT_BIT(USM_SHARED_ALLOCATIONS) |		\
		     ASPECT_BIT(USM_ATOMIC_HOST_ALLOCATIONS) |		\
		     ASPECT_BIT(USM_ATOMIC_SHARED_ALLOCATIONS))

/*
 * type: "cpu" (PoCL) or "gpu" (CUDA), the device type it must report.
 * The OpenCL plugin knows the USM aspects absent on a device without
 * cl_intel_unified_shared_memory and leaves them all unknown on one with
 * it (PoCL 6); the CUDA plugin knows them. usm_system_allocations is
 * known wherever a device reports fine-grained system SVM, as PoCL's CPU
 * device does.
 */
static int mode_probe(struct env *e, const char *type)
{
	bool gpu = type && !strcmp(type, "gpu");
	unsigned self = gpu ? DEVIMG_ASPECT_GPU : DEVIMG_ASPECT_CPU;
	unsigned other = gpu ? DEVIMG_ASPECT_CPU : DEVIMG_ASPECT_GPU;
	const unsigned lack_pref[] = {
		DEVIMG_ASPECT_FP16, DEVIMG_ASPECT_ATOMIC64, DEVIMG_ASPECT_FP64,
		DEVIMG_ASPECT_IMAGE, other,
	};
	const unsigned has_pref[] = {
		DEVIMG_ASPECT_FP64, DEVIMG_ASPECT_ATOMIC64, DEVIMG_ASPECT_IMAGE,
		DEVIMG_ASPECT_ONLINE_COMPILER, DEVIMG_ASPECT_QUEUE_PROFILING,
		self,
	};
	struct devimg_device_features f = { .size = sizeof(f) };
	unsigned i;

	CHECK(!type || gpu || !strcmp(type, "cpu"),
	      "probe: device type '%s', want cpu or gpu", type);
	CHECK(!devimg_device_features(e->dev, &f), "features");
	CHECK(f.aspects_reported, "the %s plugin reports aspects",
	      devimg_device_backend(e->dev));
	CHECK(has(&f, self) && known(&f, other) && !has(&f, other) &&
	      !has(&f, DEVIMG_ASPECT_ACCELERATOR),
	      "a %s device: %s, not %s or accelerator",
	      devimg_aspect_name(self), devimg_aspect_name(self),
	      devimg_aspect_name(other));
	CHECK(known(&f, DEVIMG_ASPECT_FP16) && known(&f, DEVIMG_ASPECT_FP64) &&
	      known(&f, DEVIMG_ASPECT_ATOMIC64) &&
	      known(&f, DEVIMG_ASPECT_IMAGE) &&
	      known(&f, DEVIMG_ASPECT_ONLINE_COMPILER) &&
	      (known(&f, DEVIMG_ASPECT_USM_DEVICE_ALLOCATIONS) ||
	       (!gpu && !(f.aspects_known & USM_ASPECTS))),
	      "aspects the %s plugin determines: known %#llx",
	      devimg_device_backend(e->dev),
	      (unsigned long long)f.aspects_known);
	CHECK(f.max_work_group_size > 0 && f.max_work_item_sizes[0] > 0,
	      "work-group limits");
	for (i = 0; i < sizeof(lack_pref) / sizeof(lack_pref[0]); i++)
		if (known(&f, lack_pref[i]) && !has(&f, lack_pref[i]))
			break;
	CHECK(i < sizeof(lack_pref) / sizeof(lack_pref[0]), "nothing lacked");
	printf("LACK %u %s\n", lack_pref[i], devimg_aspect_name(lack_pref[i]));
	for (i = 0; i < sizeof(has_pref) / sizeof(has_pref[0]); i++)
		if (has(&f, has_pref[i]))
			break;
	CHECK(i < sizeof(has_pref) / sizeof(has_pref[0]), "nothing present");
	printf("HAVE %u %s\n", has_pref[i], devimg_aspect_name(has_pref[i]));
	return 0;
}

static int mode_pick(struct env *e)
{
	struct devimg_kernel *k;
	struct devimg_buf *b;
	int v = -1;

	if (new_buf(e, sizeof(v), NULL, &b))
		return -1;
	CHECK(!devimg_kernel_new(e->dev, "which", &k), "which");
	CHECK(devimg_image_index(devimg_kernel_image(k)) == 1,
	      "image %u chosen, want 1", devimg_image_index(devimg_kernel_image(k)));
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b), "arg 0");
	if (run1(e, k, 1, NULL))
		return -1;
	CHECK(!devimg_buf_read(e->q, b, 0, sizeof(v), &v), "read");
	CHECK(v == 2, "image %d ran, want 2 (the first needs a lacking aspect)",
	      v);
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	printf("ok the image needing a lacking aspect is passed over\n");
	return 0;
}

/* target: of image 0 in the library, spir64_x86_64 when NULL. */
static int mode_nopick(struct env *e, const char *aspect, const char *target)
{
	struct devimg_kernel *k = NULL;
	char want[128];
	int err;

	err = devimg_kernel_new(e->dev, "which", &k);
	CHECK(err == -ENOEXEC && !k, "kernel_new: %d", err);
	CHECK_MSG("no image of kernel 'which' is compatible with device");
	snprintf(want, sizeof(want),
		 "image 0 (target %s): needs aspect %s, device lacks it",
		 target ? target : "spir64_x86_64", aspect);
	CHECK_MSG(want);
	printf("ok no image: %s\n", devimg_last_error());
	return 0;
}

static int run_mode(struct env *e, const char *mode, const char *arg,
		    const char *arg2)
{
	if (!strcmp(mode, "args"))
		return mode_args(e);
	if (!strcmp(mode, "elim"))
		return mode_elim(e);
	if (!strcmp(mode, "elimspec"))
		return mode_elim_spec(e, arg);
	if (!strcmp(mode, "wg"))
		return mode_wg(e);
	if (!strcmp(mode, "probe"))
		return mode_probe(e, arg);
	if (!strcmp(mode, "pick"))
		return mode_pick(e);
	if (!strcmp(mode, "nopick"))
		return mode_nopick(e, arg, arg2);
	fprintf(stderr, "unknown mode %s\n", mode);
	return -1;
}

/*
 * nopick takes an aspect and maybe a target, probe maybe a type, elimspec
 * maybe how spec constants are set.
 */
static bool usage_ok(int argc, char **argv)
{
	if (argc < 3)
		return false;
	if (!strcmp(argv[1], "nopick"))
		return argc == 4 || argc == 5;
	if (!strcmp(argv[1], "probe") || !strcmp(argv[1], "elimspec"))
		return argc == 3 || argc == 4;
	return argc == 3;
}

int main(int argc, char **argv)
{
	struct env e = { 0 };
	const char *mode;
	void *lib;
	int r = 0;

	if (!usage_ok(argc, argv)) {
		fprintf(stderr, "usage: %s args|elim|wg|pick LIBRARY | elimspec LIBRARY [emulated|native] | probe LIBRARY [cpu|gpu] | nopick LIBRARY ASPECT [TARGET]\n",
			argv[0]);
		return 2;
	}
	mode = argv[1];
	if (runner_ctx(&e, argv[2], &lib))
		return 1;
	r = runner_device(&e, NULL);
	if (r) {
		dlclose(lib);
		return r;
	}
	r = run_mode(&e, mode, argc > 3 ? argv[3] : NULL,
		     argc > 4 ? argv[4] : NULL);
	runner_close(&e);
	dlclose(lib);
	return failed || r ? 1 : 0;
}
