// SPDX-License-Identifier: MIT
/*
 * opencl-run [--spirv] KERNELS BROKEN: through the plugin loader and the
 * OpenCL plugin, on a CPU device that takes SPIR 1.2 bitcode (KERNELS.bc,
 * BROKEN.bc) or, with --spirv, SPIR-V (KERNELS.spv, BROKEN.spv), PoCL
 * first: build kernels.cl's image (as SPIR, or from IL), run a vector add
 * at a non-zero global offset and a local-memory reduction, compare with
 * the host; check that a failing build reports CL_BUILD_PROGRAM_FAILURE
 * with its options and log, that errors carry OpenCL's names, what the
 * device refuses (the other format, specialization constants the program
 * cannot take), that the built native binary can be loaded back and run,
 * and how separate compilation of the image and linking behave. Exit 77
 * when there is no such device.
 *
 * opencl-run --link HELPER.spv CALLER.spv: on a device that takes SPIR-V,
 * compile both modules separately, link them (CALLER's kernel imports
 * HELPER's function) and run the kernel. Exit 77 when there is no such
 * device or its driver cannot compile separately.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/backend/plugins.h"
#include "tests/slurp.h"

#define SKIP 77

struct run {
	struct devimg_plugins *plugins;
	struct devimg_plugin *p;
	struct devimg_plugin_device *dev;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_queue *q;
	bool il;		/* the images are SPIR-V, not SPIR bitcode */
	const char *what;	/* "SPIR-V" or "SPIR" */
	const char *options;	/* what the plugin puts before build options */
};

static int fail(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct run *r, const char *fmt, ...)
{
	va_list ap;

	fputs("FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (r->p)
		printf("\n  plugin says: %s", devimg_plugin_last_error(r->p));
	putchar('\n');
	return -1;
}

static void ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void ok(const char *fmt, ...)
{
	va_list ap;

	fputs("ok - ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* A device for format (SPIR bitcode, SPIR-V): a CPU of PoCL if any. */
static int pick_device(struct run *r, unsigned format)
{
	struct devimg_plugin_platform *pl[8];
	struct devimg_plugin_device *dev[32];
	unsigned npl, ndev, i, j, total = 0;
	int best = -1;

	if (devimg_plugin_platform_list(r->p, 8, pl, &npl) < 0)
		return fail(r, "platform_list");
	if (npl == 0) {
		printf("SKIP [opencl-device]: no OpenCL platform\n");
		return SKIP;
	}
	for (i = 0; i < npl && i < 8; i++) {
		const char *name = devimg_plugin_platform_info(r->p, pl[i])->name;

		if (devimg_plugin_device_list(r->p, pl[i], 32, dev, &ndev) < 0)
			return fail(r, "device_list");
		total += ndev;
		for (j = 0; j < ndev && j < 32; j++) {
			const struct devimg_plugin_device_info *di =
				devimg_plugin_device_info(r->p, dev[j]);
			int score = strstr(name, "Portable Computing Language") ? 2 : 0;

			if (!(di->formats & format))
				continue;
			score += di->type == DEVIMG_PLUGIN_DEVICE_CPU;
			if (score > best) {
				best = score;
				r->dev = dev[j];
			}
		}
	}
	if (total == 0) {
		/* PoCL hides its devices when it cannot create its cache. */
		printf("SKIP [opencl-device]: OpenCL platforms without devices (PoCL: is POCL_CACHE_DIR or $XDG_CACHE_HOME writable?)\n");
		return SKIP;
	}
	if (!r->dev) {
		printf("SKIP [%s]: no OpenCL device %s\n",
		       format == DEVIMG_PLUGIN_FORMAT_SPIR ? "spir" : "spirv",
		       format == DEVIMG_PLUGIN_FORMAT_SPIR ?
		       "offers cl_khr_spir" : "takes SPIR-V");
		return SKIP;
	}
	printf("# device: %s (%s)\n", devimg_plugin_device_info(r->p, r->dev)->name,
	       devimg_plugin_device_info(r->p, r->dev)->version);
	return 0;
}

/* A program from the test's image format: SPIR-V as IL, else SPIR. */
static int create(struct run *r, const void *bin, size_t size,
		  struct devimg_plugin_program **prog)
{
	if (r->il)
		return devimg_plugin_program_create_il(r->p, r->ctx, r->dev, bin,
						       size, prog);
	return devimg_plugin_program_create_binary(r->p, r->ctx, r->dev,
						   DEVIMG_PLUGIN_BINARY_SPIR,
						   bin, size, prog);
}

/* Build a native binary (native) or an image of the test's format. */
static int build(struct run *r, bool native, const void *bin, size_t size,
		 struct devimg_plugin_program **prog)
{
	int rc;

	if (native)
		rc = devimg_plugin_program_create_binary(r->p, r->ctx, r->dev,
							 DEVIMG_PLUGIN_BINARY_NATIVE,
							 bin, size, prog);
	else
		rc = create(r, bin, size, prog);
	if (rc < 0)
		return fail(r, "program from %s", native ? "a native binary" :
			    r->what);
	if (devimg_plugin_program_build(r->p, *prog, "") < 0)
		return fail(r, "program_build");
	return 0;
}

static struct devimg_plugin_mem *buffer(struct run *r, size_t size,
					const void *init)
{
	struct devimg_plugin_mem *mem = NULL;

	if (devimg_plugin_mem_create(r->p, r->ctx, 0, size, &mem) < 0)
		return NULL;
	if (init && devimg_plugin_mem_write(r->p, r->q, mem, 1, 0, size,
					    init) < 0) {
		devimg_plugin_mem_release(r->p, mem);
		return NULL;
	}
	return mem;
}

#define VADD_N 1024u

/* c[i] = a[i] + b[i] for i in [offset, offset + count); -1 elsewhere. */
static int vector_add(struct run *r, struct devimg_plugin_program *prog,
		      size_t offset, size_t count)
{
	static float a[VADD_N], b[VADD_N], c[VADD_N];
	struct devimg_plugin_mem *ma = NULL, *mb = NULL, *mc = NULL;
	struct devimg_plugin_kernel *k = NULL;
	unsigned nargs = 0, i;
	int rc = -1;

	for (i = 0; i < VADD_N; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i + 1.0f;
		c[i] = -1.0f;
	}
	if (devimg_plugin_kernel_create(r->p, prog, "vadd", &k) < 0)
		return fail(r, "kernel_create(vadd)");
	if (devimg_plugin_kernel_arg_count(r->p, k, &nargs) < 0 || nargs != 3) {
		fail(r, "vadd has %u arguments, 3 expected", nargs);
		goto out;
	}
	ma = buffer(r, sizeof(a), a);
	mb = buffer(r, sizeof(b), b);
	mc = buffer(r, sizeof(c), c);
	if (!ma || !mb || !mc) {
		fail(r, "buffers");
		goto out;
	}
	if (devimg_plugin_kernel_set_arg_mem(r->p, k, 0, ma) < 0 ||
	    devimg_plugin_kernel_set_arg_mem(r->p, k, 1, mb) < 0 ||
	    devimg_plugin_kernel_set_arg_mem(r->p, k, 2, mc) < 0 ||
	    devimg_plugin_launch(r->p, r->q, k, 1, &offset, &count, NULL) < 0 ||
	    devimg_plugin_mem_read(r->p, r->q, mc, 1, 0, sizeof(c), c) < 0 ||
	    devimg_plugin_queue_finish(r->p, r->q) < 0) {
		fail(r, "vadd launch");
		goto out;
	}
	for (i = 0; i < VADD_N; i++) {
		bool inside = i >= offset && i < offset + count;
		float want = inside ? a[i] + b[i] : -1.0f;

		if (c[i] != want) {
			fail(r, "vadd: c[%u] = %g, expected %g", i, (double)c[i],
			     (double)want);
			goto out;
		}
	}
	rc = 0;
out:
	devimg_plugin_mem_release(r->p, ma);
	devimg_plugin_mem_release(r->p, mb);
	devimg_plugin_mem_release(r->p, mc);
	devimg_plugin_kernel_release(r->p, k);
	return rc;
}

#define RED_N 4096u
#define RED_LOCAL 64u

static int reduction(struct run *r, struct devimg_plugin_program *prog)
{
	static int in[RED_N], out[RED_N / RED_LOCAL];
	struct devimg_plugin_mem *min = NULL, *mout = NULL;
	struct devimg_plugin_kernel *k = NULL;
	size_t global = RED_N, local = RED_LOCAL;
	unsigned i, g;
	int rc = -1;

	for (i = 0; i < RED_N; i++)
		in[i] = (int)(i * 7919u % 1001u) - 500;
	if (devimg_plugin_kernel_create(r->p, prog, "reduce", &k) < 0)
		return fail(r, "kernel_create(reduce)");
	min = buffer(r, sizeof(in), in);
	mout = buffer(r, sizeof(out), NULL);
	if (!min || !mout) {
		fail(r, "buffers");
		goto out;
	}
	if (devimg_plugin_kernel_set_arg_mem(r->p, k, 0, min) < 0 ||
	    devimg_plugin_kernel_set_arg_mem(r->p, k, 1, mout) < 0 ||
	    devimg_plugin_kernel_set_arg_local(r->p, k, 2,
					       RED_LOCAL * sizeof(int)) < 0 ||
	    devimg_plugin_launch(r->p, r->q, k, 1, NULL, &global, &local) < 0 ||
	    devimg_plugin_mem_read(r->p, r->q, mout, 1, 0, sizeof(out), out) < 0) {
		fail(r, "reduce launch");
		goto out;
	}
	for (g = 0; g < RED_N / RED_LOCAL; g++) {
		int want = 0;

		for (i = 0; i < RED_LOCAL; i++)
			want += in[g * RED_LOCAL + i];
		if (out[g] != want) {
			fail(r, "reduce: group %u gave %d, expected %d", g,
			     out[g], want);
			goto out;
		}
	}
	rc = 0;
out:
	devimg_plugin_mem_release(r->p, min);
	devimg_plugin_mem_release(r->p, mout);
	devimg_plugin_kernel_release(r->p, k);
	return rc;
}

static int build_failure(struct run *r, const char *path)
{
	struct devimg_plugin_program *prog = NULL;
	char log[4096], options[128];
	size_t size, len = 0;
	void *bc = read_file(path, &size);
	const char *msg;
	int rc = -1;

	if (!bc)
		return fail(r, "cannot read %s", path);
	if (create(r, bc, size, &prog) < 0) {
		fail(r, "program from %s (broken)", r->what);
		goto out;
	}
	/* The options as given to clBuildProgram, whole. */
	snprintf(options, sizeof(options), "with options \"%s-DDEVIMG_TEST\"",
		 r->options);
	rc = devimg_plugin_program_build(r->p, prog, "-DDEVIMG_TEST");
	msg = devimg_plugin_last_error(r->p);
	if (rc != -ENOEXEC || !strstr(msg, "CL_BUILD_PROGRAM_FAILURE (-11)") ||
	    !strstr(msg, options) ||
	    !strstr(msg, "devimg_no_such_function")) {
		rc = fail(r, "broken build: rc %d, message lacks the error name, options or log", rc);
		goto out;
	}
	printf("# build failure message:\n#   %s\n", msg);
	if (devimg_plugin_program_build_log(r->p, prog, log, sizeof(log),
					    &len) < 0 ||
	    !strstr(log, "devimg_no_such_function")) {
		rc = fail(r, "build log lacks the missing symbol: %s", log);
		goto out;
	}
	rc = 0;
out:
	devimg_plugin_program_release(r->p, prog);
	free(bc);
	return rc;
}

static int error_names(struct run *r, struct devimg_plugin_program *prog)
{
	struct devimg_plugin_kernel *k = NULL;
	size_t global = 16;
	int rc;

	rc = devimg_plugin_kernel_create(r->p, prog, "no_such_kernel", &k);
	if (rc != -ENOENT ||
	    !strstr(devimg_plugin_last_error(r->p), "CL_INVALID_KERNEL_NAME"))
		return fail(r, "kernel_create(no_such_kernel) = %d", rc);
	if (devimg_plugin_kernel_create(r->p, prog, "vadd", &k) < 0)
		return fail(r, "kernel_create(vadd)");
	rc = devimg_plugin_launch(r->p, r->q, k, 1, NULL, &global, NULL);
	devimg_plugin_kernel_release(r->p, k);
	if (rc != -EINVAL ||
	    !strstr(devimg_plugin_last_error(r->p), "CL_INVALID_KERNEL_ARGS") ||
	    !strstr(devimg_plugin_last_error(r->p), "vadd"))
		return fail(r, "launch without arguments = %d", rc);
	return 0;
}

/*
 * What the device refuses: the SPIR-family format it does not take, and
 * specialization constants the program cannot take: none on a SPIR
 * program (-ENOTSUP), none natively from IL below OpenCL 2.2 (-ENOTSUP),
 * and no SpecId 0 in kernels.cl's SPIR-V (-EINVAL: CL_INVALID_SPEC_ID, as
 * the specification says, or CL_INVALID_VALUE, as rusticl answers).
 */
static int unsupported(struct run *r, struct devimg_plugin_program *prog)
{
	const struct devimg_plugin_device_info *di =
		devimg_plugin_device_info(r->p, r->dev);
	static const unsigned char spirv[] = { 0x03, 0x02, 0x23, 0x07 };
	static const unsigned char spir[] = { 'B', 'C', 0xc0, 0xde };
	struct devimg_plugin_program *other = NULL;
	int value = 1, rc;

	if (!r->il && !(di->formats & DEVIMG_PLUGIN_FORMAT_SPIRV)) {
		rc = devimg_plugin_program_create_il(r->p, r->ctx, r->dev, spirv,
						     sizeof(spirv), &other);
		if (rc != -ENOTSUP || other)
			return fail(r, "program_create_il without SPIR-V = %d",
				    rc);
		ok("SPIR-V refused with -ENOTSUP: device has no IL version");
	}
	if (r->il && !(di->formats & DEVIMG_PLUGIN_FORMAT_SPIR)) {
		rc = devimg_plugin_program_create_binary(r->p, r->ctx, r->dev,
							 DEVIMG_PLUGIN_BINARY_SPIR,
							 spir, sizeof(spir),
							 &other);
		if (rc != -ENOTSUP || other ||
		    !strstr(devimg_plugin_last_error(r->p), "cl_khr_spir"))
			return fail(r, "program_create_binary(SPIR) without cl_khr_spir = %d",
				    rc);
		ok("SPIR bitcode refused with -ENOTSUP: device lacks cl_khr_spir");
	}
	rc = devimg_plugin_program_set_spec_const(r->p, prog, 0, sizeof(value),
						  &value);
	if (!r->il) {
		if (rc != -ENOTSUP)
			return fail(r, "program_set_spec_const on bitcode = %d",
				    rc);
		ok("spec constants on a bitcode program: -ENOTSUP");
	} else if (!(di->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS)) {
		if (rc != -ENOTSUP)
			return fail(r, "program_set_spec_const below OpenCL 2.2 = %d",
				    rc);
		ok("spec constants on SPIR-V without native ones: -ENOTSUP");
	} else {
		const char *msg = devimg_plugin_last_error(r->p);

		/* PoCL says CL_INVALID_SPEC_ID, Mesa's rusticl CL_INVALID_VALUE. */
		if (rc != -EINVAL || (!strstr(msg, "CL_INVALID_SPEC_ID") &&
				      !strstr(msg, "CL_INVALID_VALUE")))
			return fail(r, "program_set_spec_const(SpecId 0) on SPIR-V without it = %d: %s",
				    rc, msg);
		ok("unknown SpecId on a SPIR-V program: -EINVAL, CL_INVALID_SPEC_ID or CL_INVALID_VALUE");
	}
	return 0;
}

/* Link one compiled object alone and run its vadd. */
static int link_and_run(struct run *r, struct devimg_plugin_program *obj)
{
	struct devimg_plugin_program *linked = NULL;
	int rc;

	if (devimg_plugin_program_link(r->p, r->ctx, r->dev, 1, &obj, "",
				       &linked) < 0)
		return fail(r, "program_link of a compiled %s program", r->what);
	rc = vector_add(r, linked, 0, VADD_N);
	devimg_plugin_program_release(r->p, linked);
	return rc;
}

/*
 * Separate compilation of the image: PoCL 3 cannot for SPIR bitcode
 * (clCompileProgram gives CL_INVALID_OPERATION), which must read as
 * -ENOTSUP naming the device and the call; a driver that can must link
 * the object and run it. Either way, program_link refuses what
 * program_compile did not make.
 */
static int separate_compile(struct run *r, const void *bc, size_t size,
			    struct devimg_plugin_program *built)
{
	const char *name = devimg_plugin_device_info(r->p, r->dev)->name;
	struct devimg_plugin_program *obj = NULL, *linked = NULL;
	const char *msg;
	int rc;

	if (!devimg_plugin_can_link(r->p))
		return fail(r, "the OpenCL plugin has no program_compile/link");
	if (create(r, bc, size, &obj) < 0)
		return fail(r, "program from %s", r->what);
	rc = devimg_plugin_program_link(r->p, r->ctx, r->dev, 1, &obj, "",
					&linked);
	if (rc != -EINVAL || linked) {
		rc = fail(r, "program_link of an uncompiled program = %d", rc);
		goto out;
	}
	ok("program_link of an uncompiled program: -EINVAL");
	rc = devimg_plugin_program_link(r->p, r->ctx, r->dev, 1, &built, "",
					&linked);
	if (rc != -EINVAL || linked) {
		rc = fail(r, "program_link of a built program = %d", rc);
		goto out;
	}
	rc = devimg_plugin_program_link(r->p, r->ctx, r->dev, 0, &obj, "",
					&linked);
	if (rc != -EINVAL || linked) {
		rc = fail(r, "program_link of no objects = %d", rc);
		goto out;
	}
	ok("program_link of a built program or of n == 0: -EINVAL");

	rc = devimg_plugin_program_compile(r->p, obj, "-DDEVIMG_TEST");
	msg = devimg_plugin_last_error(r->p);
	if (rc == 0) {
		rc = link_and_run(r, obj);
		if (rc == 0)
			ok("%s compiled, linked alone, vadd matches the host",
			   r->what);
		goto out;
	}
	if (rc != -ENOTSUP || !strstr(msg, "clCompileProgram") ||
	    !strstr(msg, name) || strchr(msg, '\n')) {
		rc = fail(r, "program_compile(%s) = %d, expected 0 or -ENOTSUP with a one-line message naming the device and clCompileProgram",
			  r->what, rc);
		goto out;
	}
	printf("# compile refused:\n#   %s\n", msg);
	ok("program_compile(%s) where the driver cannot: -ENOTSUP naming the device and clCompileProgram",
	   r->what);
	rc = 0;
out:
	devimg_plugin_program_release(r->p, obj);
	return rc;
}

/* A native binary is no object to compile. */
static int native_compile(struct run *r, const void *bin, size_t len)
{
	struct devimg_plugin_program *native = NULL;
	int rc;

	if (devimg_plugin_program_create_binary(r->p, r->ctx, r->dev,
						DEVIMG_PLUGIN_BINARY_NATIVE,
						bin, len, &native) < 0)
		return fail(r, "program_create_binary(NATIVE)");
	rc = devimg_plugin_program_compile(r->p, native, "");
	if (rc != -ENOTSUP ||
	    !strstr(devimg_plugin_last_error(r->p), "native binary"))
		rc = fail(r, "program_compile of a native binary = %d", rc);
	else
		rc = 0;
	devimg_plugin_program_release(r->p, native);
	return rc;
}

static int native_round_trip(struct run *r, struct devimg_plugin_program *prog)
{
	struct devimg_plugin_program *native = NULL;
	size_t len = 0;
	void *bin;
	int rc = -1;

	if (devimg_plugin_program_binary(r->p, prog, NULL, 0, &len) < 0 ||
	    len == 0)
		return fail(r, "program_binary size");
	bin = malloc(len);
	if (!bin)
		return fail(r, "out of memory");
	if (devimg_plugin_program_binary(r->p, prog, bin, len, &len) < 0) {
		fail(r, "program_binary");
		goto out;
	}
	printf("# native binary: %zu bytes\n", len);
	if (build(r, true, bin, len, &native) == 0)
		rc = vector_add(r, native, 0, VADD_N);
	if (rc == 0)
		rc = native_compile(r, bin, len);
out:
	devimg_plugin_program_release(r->p, native);
	free(bin);
	return rc;
}

static int run_all(struct run *r, const char *kernels, const char *broken)
{
	struct devimg_plugin_program *prog = NULL;
	size_t size;
	void *bc;
	int rc = -1;

	bc = read_file(kernels, &size);
	if (!bc)
		return fail(r, "cannot read %s", kernels);
	if (build(r, false, bc, size, &prog) < 0)
		goto out;
	if (r->il)
		ok("SPIR-V built from IL");
	else
		ok("SPIR 1.2 bitcode built (-x spir -spir-std=1.2)");
	if (vector_add(r, prog, 256, 512) < 0)
		goto out;
	ok("vadd at global offset 256 matches the host");
	if (reduction(r, prog) < 0)
		goto out;
	ok("local-memory reduction matches the host");
	if (build_failure(r, broken) < 0)
		goto out;
	ok("failed build: -ENOEXEC, CL_BUILD_PROGRAM_FAILURE, options and log in the message");
	if (error_names(r, prog) < 0)
		goto out;
	ok("errors carry CL_INVALID_KERNEL_NAME / CL_INVALID_KERNEL_ARGS");
	if (unsupported(r, prog) < 0)
		goto out;
	if (native_round_trip(r, prog) < 0)
		goto out;
	ok("native binary from the build loads back and runs; program_compile of it: -ENOTSUP");
	if (separate_compile(r, bc, size, prog) < 0)
		goto out;
	rc = 0;
out:
	devimg_plugin_program_release(r->p, prog);
	free(bc);
	return rc;
}

/* A program from the SPIR-V in path, compiled separately. */
static int compile_spirv(struct run *r, const char *path,
			 struct devimg_plugin_program **prog)
{
	size_t size;
	void *il = read_file(path, &size);
	int rc;

	if (!il)
		return fail(r, "cannot read %s", path);
	rc = devimg_plugin_program_create_il(r->p, r->ctx, r->dev, il, size,
					     prog);
	free(il);
	if (rc < 0)
		return fail(r, "program_create_il(%s)", path);
	rc = devimg_plugin_program_compile(r->p, *prog, "");
	if (rc == -ENOTSUP) {
		printf("SKIP [spirv]: the device compiles no SPIR-V apart: %s\n",
		       devimg_plugin_last_error(r->p));
		return SKIP;
	}
	if (rc < 0)
		return fail(r, "program_compile(%s)", path);
	return 0;
}

#define LINK_N 256u

/* caller(p): p[i] = helper(i) = 3 * i + 1, helper from the other object. */
static int run_caller(struct run *r, struct devimg_plugin_program *prog)
{
	static uint32_t out[LINK_N];
	struct devimg_plugin_kernel *k = NULL;
	struct devimg_plugin_mem *mem;
	size_t global = LINK_N;
	unsigned i;
	int rc = -1;

	mem = buffer(r, sizeof(out), NULL);
	if (!mem)
		return fail(r, "buffer");
	if (devimg_plugin_kernel_create(r->p, prog, "caller", &k) < 0 ||
	    devimg_plugin_kernel_set_arg_mem(r->p, k, 0, mem) < 0 ||
	    devimg_plugin_launch(r->p, r->q, k, 1, NULL, &global, NULL) < 0 ||
	    devimg_plugin_mem_read(r->p, r->q, mem, 1, 0, sizeof(out),
				   out) < 0) {
		fail(r, "caller launch");
		goto out;
	}
	for (i = 0; i < LINK_N; i++) {
		if (out[i] != 3 * i + 1) {
			fail(r, "caller: p[%u] = %u, expected %u", i, out[i],
			     3 * i + 1);
			goto out;
		}
	}
	rc = 0;
out:
	devimg_plugin_kernel_release(r->p, k);
	devimg_plugin_mem_release(r->p, mem);
	return rc;
}

/* A linked program has a log and a binary, as a built one does. */
static int linked_like_built(struct run *r, struct devimg_plugin_program *prog)
{
	size_t len = 0;

	if (devimg_plugin_program_build_log(r->p, prog, NULL, 0, &len) < 0 ||
	    len == 0)
		return fail(r, "program_build_log on the linked program");
	if (devimg_plugin_program_binary(r->p, prog, NULL, 0, &len) < 0 ||
	    len == 0)
		return fail(r, "program_binary on the linked program");
	printf("# linked native binary: %zu bytes\n", len);
	return 0;
}

static int link_spirv(struct run *r, const char *helper_path,
		      const char *caller_path)
{
	struct devimg_plugin_program *objs[2] = { NULL, NULL }, *linked = NULL;
	int rc;

	rc = compile_spirv(r, helper_path, &objs[0]);
	if (rc == 0)
		rc = compile_spirv(r, caller_path, &objs[1]);
	if (rc)
		goto out;
	ok("both SPIR-V modules compiled separately");
	rc = devimg_plugin_program_build(r->p, objs[1], "");
	if (rc != -EINVAL) {
		rc = fail(r, "program_build after program_compile = %d", rc);
		goto out;
	}
	ok("program_build after program_compile: -EINVAL");
	rc = devimg_plugin_program_link(r->p, r->ctx, r->dev, 1, &objs[1], "",
					&linked);
	if (rc != -ENOEXEC || linked ||
	    !strstr(devimg_plugin_last_error(r->p), "clLinkProgram")) {
		rc = fail(r, "program_link of the caller alone = %d, expected -ENOEXEC (helper unresolved)",
			  rc);
		goto out;
	}
	printf("# unresolved link:\n#   %s\n", devimg_plugin_last_error(r->p));
	ok("program_link with helper unresolved: -ENOEXEC from clLinkProgram");
	if (devimg_plugin_program_link(r->p, r->ctx, r->dev, 2, objs, "",
				       &linked) < 0) {
		rc = fail(r, "program_link(helper, caller)");
		goto out;
	}
	/* The objects are the caller's to release; the link stands alone. */
	devimg_plugin_program_release(r->p, objs[0]);
	devimg_plugin_program_release(r->p, objs[1]);
	objs[0] = objs[1] = NULL;
	rc = linked_like_built(r, linked);
	if (rc == 0)
		rc = run_caller(r, linked);
	if (rc == 0)
		ok("linked program: caller() calls helper(), p[i] = 3 * i + 1");
out:
	devimg_plugin_program_release(r->p, linked);
	devimg_plugin_program_release(r->p, objs[0]);
	devimg_plugin_program_release(r->p, objs[1]);
	return rc;
}

static int setup(struct run *r, unsigned format)
{
	struct devimg_plugins_config cfg;
	int rc;

	devimg_plugins_config_env(&cfg);
	if (devimg_plugins_load(&cfg, &r->plugins) < 0)
		return fail(r, "devimg_plugins_load");
	r->p = devimg_plugins_find(r->plugins, "opencl");
	if (!r->p)
		return fail(r, "the OpenCL plugin did not bind (run with DEVIMG_TRACE=1)");
	rc = pick_device(r, format);
	if (rc)
		return rc;
	if (devimg_plugin_context_create(r->p, 1, &r->dev, &r->ctx) < 0)
		return fail(r, "context_create");
	if (devimg_plugin_queue_create(r->p, r->ctx, r->dev, &r->q) < 0)
		return fail(r, "queue_create");
	return 0;
}

int main(int argc, char **argv)
{
	struct run r = { .plugins = NULL, .what = "SPIR",
			 .options = "-x spir -spir-std=1.2 " };
	bool link = argc == 4 && strcmp(argv[1], "--link") == 0;
	const char *self = argv[0];
	int rc;

	if (argc == 4 && strcmp(argv[1], "--spirv") == 0) {
		r.il = true;
		r.what = "SPIR-V";
		r.options = "";
		argv++;
		argc--;
	}
	if (argc != 3 && !link) {
		fprintf(stderr, "usage: %s KERNELS.bc BROKEN.bc\n"
			"       %s --spirv KERNELS.spv BROKEN.spv\n"
			"       %s --link HELPER.spv CALLER.spv\n", self, self,
			self);
		return 2;
	}
	rc = setup(&r, link || r.il ? DEVIMG_PLUGIN_FORMAT_SPIRV :
		   DEVIMG_PLUGIN_FORMAT_SPIR);
	if (rc == 0 && link)
		rc = link_spirv(&r, argv[2], argv[3]);
	else if (rc == 0)
		rc = run_all(&r, argv[1], argv[2]);
	if (r.q)
		devimg_plugin_queue_release(r.p, r.q);
	if (r.ctx)
		devimg_plugin_context_release(r.p, r.ctx);
	devimg_plugins_free(r.plugins);
	if (rc == SKIP)
		return SKIP;
	return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
