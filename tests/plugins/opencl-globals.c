// SPDX-License-Identifier: MIT
/*
 * opencl-globals PLUGIN fake GLOBALS.spv: the OpenCL plugin's device-global
 * operations, called through its table (PLUGIN, the built module, opened
 * here as the loader opens it), on the fake driver's "devimg fake GPU"
 * (tests/plugins/fake-icd.c, which OCL_ICD_VENDORS names): GLOBALS.spv
 * (globals.ll) defines the variables; read initial values, write and read
 * back, blocking or not, at offsets; an unknown name, a range past the end
 * or overflowing, what host access forbids, mem_address, and an entry
 * point the fake does not implement.
 *
 * opencl-globals PLUGIN other IMAGE: on the first device of PoCL, which
 * does not offer cl_intel_global_variable_access, that takes IMAGE's
 * format (.spv: SPIR-V, else SPIR bitcode): build IMAGE, then
 * each variable operation gives -ENOTSUP and the message naming the
 * extension and the device.
 *
 * Exit 77 when the plugin finds no such device.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/devimg_plugin.h"
#include "tests/slurp.h"

#define SKIP 77
#define FAKE_DEVICE "devimg fake GPU"
#define UID(name) "9f3c1a7e52d04b68____ZL" name

static struct devimg_plugin_ops ops;
static int failures;

static void check(bool good, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void check(bool good, const char *fmt, ...)
{
	va_list ap;

	fputs(good ? "ok - " : "FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!good) {
		printf("\n  plugin says: %s", ops.last_error());
		failures++;
	}
	putchar('\n');
}

/* rc is want and the message holds every one of the NULL-ended words. */
static void check_error(int rc, int want, const char *what, ...)
{
	const char *msg = ops.last_error(), *word;
	bool good = rc == want;
	va_list ap;

	va_start(ap, what);
	while ((word = va_arg(ap, const char *)))
		good = good && strstr(msg, word);
	va_end(ap);
	check(good, "%s: %d (%s)", what, rc, msg);
}

/*
 * The fake's device, or else a device of PoCL (which has no
 * cl_intel_global_variable_access), that takes format.
 */
static struct devimg_plugin_device *find_device(bool fake, unsigned format)
{
	struct devimg_plugin_platform *pl[8];
	struct devimg_plugin_device *dev[16];
	const struct devimg_plugin_device_info *di;
	unsigned npl = 0, ndev, i, j;

	if (ops.platform_list(8, pl, &npl) < 0)
		return NULL;
	for (i = 0; i < npl && i < 8; i++) {
		if (!fake && !strstr(ops.platform_info(pl[i])->name,
				     "Portable Computing Language"))
			continue;
		if (ops.device_list(pl[i], 16, dev, &ndev) < 0)
			continue;
		for (j = 0; j < ndev && j < 16; j++) {
			di = ops.device_info(dev[j]);
			if ((!fake || strcmp(di->name, FAKE_DEVICE) == 0) &&
			    (di->formats & format))
				return dev[j];
		}
	}
	return NULL;
}

static void fake_reads_and_writes(struct devimg_plugin_queue *q,
				  struct devimg_plugin_program *prog)
{
	uint64_t table[4] = { 0 }, part[2] = { 0x1111, 0x2222 };
	uint64_t zeros[4] = { 0 }, want[4] = { 0, 0x1111, 0x2222, 0 };
	int32_t v = 0;
	size_t size = 0;
	int rc;

	rc = ops.global_info(prog, UID("7counter"), &size);
	check(rc == 0 && size == 4, "global_info(counter): %d, %zu bytes", rc,
	      size);
	rc = ops.global_info(prog, UID("5table"), &size);
	check(rc == 0 && size == 32, "global_info(table): %d, %zu bytes", rc,
	      size);
	rc = ops.global_read(q, prog, UID("7counter"), 0, 4, &v, 1);
	check(rc == 0 && v == 42, "counter reads its initial 42: %d, %d", rc,
	      (int)v);
	v = -17;
	rc = ops.global_write(q, prog, UID("7counter"), 0, 4, &v, 1);
	v = 0;
	if (rc == 0)
		rc = ops.global_read(q, prog, UID("7counter"), 0, 4, &v, 1);
	check(rc == 0 && v == -17, "counter written and read back: %d, %d",
	      rc, (int)v);
	rc = ops.global_read(q, prog, UID("5table"), 0, sizeof(table), table,
			     1);
	check(rc == 0 && !memcmp(table, zeros, sizeof(zeros)),
	      "table reads zero: %d", rc);
	rc = ops.global_write(q, prog, UID("5table"), 8, sizeof(part), part,
			      0);
	if (rc == 0)
		rc = ops.queue_finish(q);
	if (rc == 0)
		rc = ops.global_read(q, prog, UID("5table"), 0, sizeof(table),
				     table, 0);
	if (rc == 0)
		rc = ops.queue_finish(q);
	check(rc == 0 && !memcmp(table, want, sizeof(want)),
	      "table: 16 bytes at offset 8, not blocking, read back: %d, %#llx %#llx %#llx %#llx",
	      rc, (unsigned long long)table[0], (unsigned long long)table[1],
	      (unsigned long long)table[2], (unsigned long long)table[3]);
	rc = ops.global_read(q, prog, UID("5table"), 12, 4, &v, 1);
	check(rc == 0 && v == 0, "table: 4 bytes at offset 12: %d, %d", rc,
	      (int)v);
	rc = ops.global_read(q, prog, "plain", 0, 4, &v, 1);
	check(rc == 0 && v == 5, "plain by its Export name: %d, %d", rc,
	      (int)v);
}

static void fake_refusals(struct devimg_plugin_queue *q,
			  struct devimg_plugin_program *prog)
{
	struct devimg_plugin_kernel *k = NULL;
	char buf[40] = { 0 };
	int32_t v = 1;
	size_t size = 0;
	uint64_t addr = 0;

	check_error(ops.global_write(q, prog, UID("7missing"), 0, 4, &v, 1),
		    -ENOENT, "write to an unknown name", UID("7missing"),
		    "CL_INVALID_ARG_VALUE", FAKE_DEVICE, NULL);
	check_error(ops.global_read(q, prog, UID("7missing"), 0, 4, &v, 1),
		    -ENOENT, "read of an unknown name", UID("7missing"),
		    "CL_INVALID_ARG_VALUE", NULL);
	check_error(ops.global_info(prog, UID("7missing"), &size), -ENOENT,
		    "global_info of an unknown name", UID("7missing"), NULL);
	check_error(ops.global_read(q, prog, UID("5table"), 24, 16, buf, 1),
		    -EINVAL, "read of 16 bytes at offset 24 of 32",
		    "offset 24, 16 bytes", "CL_INVALID_VALUE", NULL);
	check_error(ops.global_write(q, prog, UID("7counter"), 1, 4, &v, 1),
		    -EINVAL, "write of 4 bytes at offset 1 of 4",
		    "CL_INVALID_VALUE", NULL);
	check_error(ops.global_write(q, prog, UID("7counter"), SIZE_MAX, 2,
				     &v, 1),
		    -EINVAL, "offset + size overflowing", "overflows", NULL);
	check_error(ops.global_write(q, prog, UID("6config"), 0, 4, &v, 1),
		    -EACCES, "write to a host_access read variable",
		    UID("6config"), "CL_INVALID_OPERATION", NULL);
	v = 0;
	check(ops.global_read(q, prog, UID("6config"), 0, 4, &v, 1) == 0 &&
	      v == 7, "read of the host_access read variable: %d", (int)v);
	check_error(ops.global_read(q, prog, UID("7scratch"), 0, 4, &v, 1),
		    -EACCES, "read of a host_access none variable",
		    "CL_INVALID_OPERATION", NULL);
	check_error(ops.global_write(q, prog, UID("7scratch"), 0, 4, &v, 1),
		    -EACCES, "write to a host_access none variable",
		    "CL_INVALID_OPERATION", NULL);
	check_error(ops.mem_address(NULL, &addr), -ENOTSUP,
		    "mem_address", "cl_mem", NULL);
	/* What the fake does not implement says so. */
	check_error(ops.kernel_create(prog, "touch", &k), -ENOTSUP,
		    "kernel_create on the fake", "CL_INVALID_OPERATION", NULL);
}

/* Each operation on a device without the extension: -ENOTSUP, named. */
static void other_refusals(struct devimg_plugin_queue *q,
			   struct devimg_plugin_program *prog,
			   const char *device)
{
	int32_t v = 1;
	size_t size = 0;

	check_error(ops.global_write(q, prog, UID("7counter"), 0, 4, &v, 1),
		    -ENOTSUP, "global_write", "cl_intel_global_variable_access",
		    device, UID("7counter"), NULL);
	printf("# %s\n", ops.last_error());
	check_error(ops.global_read(q, prog, UID("7counter"), 0, 4, &v, 1),
		    -ENOTSUP, "global_read", "cl_intel_global_variable_access",
		    device, NULL);
	check_error(ops.global_info(prog, UID("7counter"), &size), -ENOTSUP,
		    "global_info", "cl_intel_global_variable_pointers", device,
		    NULL);
}

static int run(bool fake, const char *image)
{
	bool il = strlen(image) > 4 && !strcmp(image + strlen(image) - 4, ".spv");
	unsigned format = il ? DEVIMG_PLUGIN_FORMAT_SPIRV :
			       DEVIMG_PLUGIN_FORMAT_SPIR;
	struct devimg_plugin_device *dev = find_device(fake, format);
	struct devimg_plugin_context *ctx = NULL;
	struct devimg_plugin_queue *q = NULL;
	struct devimg_plugin_program *prog = NULL;
	const char *name;
	size_t size;
	void *bytes;
	int rc;

	if (!dev) {
		printf("SKIP [%s]: no OpenCL device %s that takes %s\n",
		       fake ? "opencl-device" : il ? "spirv" : "spir",
		       fake ? "\"" FAKE_DEVICE "\" (the ICD loader did not load the fake driver)" :
		       "of PoCL",
		       il ? "SPIR-V" : "SPIR");
		return SKIP;
	}
	name = ops.device_info(dev)->name;
	printf("# device: %s (%s)\n", name, ops.device_info(dev)->version);
	bytes = slurp(image, &size);
	if (!bytes) {
		check(false, "cannot read %s", image);
		return 1;
	}
	rc = ops.context_create(1, &dev, &ctx);
	if (rc == 0)
		rc = ops.queue_create(ctx, dev, &q);
	if (rc == 0)
		rc = il ? ops.program_create_il(ctx, dev, bytes, size, &prog) :
			  ops.program_create_binary(ctx, dev,
						    DEVIMG_PLUGIN_BINARY_SPIR,
						    bytes, size, &prog);
	if (rc == 0)
		rc = ops.program_build(prog, "");
	check(rc == 0, "program of %s built on \"%s\"", image, name);
	if (rc == 0 && fake) {
		fake_reads_and_writes(q, prog);
		fake_refusals(q, prog);
	} else if (rc == 0) {
		other_refusals(q, prog, name);
	}
	ops.program_release(prog);
	ops.queue_release(q);
	ops.context_release(ctx);
	free(bytes);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	devimg_plugin_init_fn init;
	void *module;
	int rc;

	if (argc != 4 || (strcmp(argv[2], "fake") && strcmp(argv[2], "other"))) {
		fprintf(stderr, "usage: opencl-globals PLUGIN fake|other IMAGE\n");
		return 2;
	}
	module = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	init = module ? (devimg_plugin_init_fn)(uintptr_t)dlsym(module,
							       "devimg_plugin_init") :
			NULL;
	if (!init) {
		printf("FAIL: cannot open %s: %s\n", argv[1], dlerror());
		return 1;
	}
	ops.abi_version = DEVIMG_PLUGIN_ABI_VERSION;
	ops.size = sizeof(ops);
	rc = init(DEVIMG_PLUGIN_ABI_VERSION, &ops);
	if (rc < 0) {
		printf("FAIL: devimg_plugin_init: %d (%s)\n", rc,
		       ops.last_error ? ops.last_error() : "?");
		return 1;
	}
	if (ops.size < sizeof(ops) || !ops.global_write || !ops.global_read ||
	    !ops.global_info || !ops.mem_address) {
		printf("FAIL: the plugin's table (%zu bytes) has no device-global operations\n",
		       ops.size);
		ops.fini();
		return 1;
	}
	rc = run(strcmp(argv[2], "fake") == 0, argv[3]);
	ops.fini();
	/*
	 * Not dlclose()d: that would unload the ICD loader with it, whose
	 * state LeakSanitizer would then report.
	 */
	return rc;
}
