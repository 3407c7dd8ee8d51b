// SPDX-License-Identifier: MIT
/*
 * Programs: PTX, cubin or fatbin images, loaded as modules of the device's
 * primary context at build time through the JIT, whose error and info
 * logs become the build log.
 *
 * Build options: -O0 to -O4 set the JIT's optimization level and
 * -lineinfo asks for line information (both for PTX only); the JIT has no
 * equivalent of other options, which the build log then lists as ignored.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda-plugin.h"

/* Bytes of each JIT log kept; the driver cuts longer ones. */
#define JIT_LOG_SIZE 8192

/* What kind of image the bytes are, or NULL when none the driver takes. */
static const char *image_kind(const unsigned char *p, size_t size)
{
	size_t i = 0;

	if (size >= 4 && !memcmp(p, "\x7f" "ELF", 4))
		return "cubin";
	/* A fatbin starts with its magic 0xba55ed50, little-endian. */
	if (size >= 4 && !memcmp(p, "\x50\xed\x55\xba", 4))
		return "fatbin";
	while (i < size && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
			    p[i] == '\r'))
		i++;
	if (i < size && (p[i] == '/' || p[i] == '.'))
		return "PTX";
	return NULL;
}

int cu_program_create_il(struct devimg_plugin_context *ctx,
			 struct devimg_plugin_device *device, const void *il,
			 size_t size, struct devimg_plugin_program **out)
{
	return plugin_error(-ENOTSUP,
			    "CUDA device \"%s\" takes PTX, cubin or fatbin images, not SPIR-V",
			    device ? device->name : "?");
}

int cu_program_create_binary(struct devimg_plugin_context *ctx,
			     struct devimg_plugin_device *device,
			     enum devimg_plugin_binary_kind kind,
			     const void *binary, size_t size,
			     struct devimg_plugin_program **out)
{
	const unsigned char *p = binary;
	struct devimg_plugin_program *prog;
	CUcontext primary = NULL;
	const char *what;
	unsigned i;

	if (!ctx || !device || !binary || !size || !out)
		return plugin_error(-EINVAL, "program_create_binary: NULL or empty argument");
	if (kind == DEVIMG_PLUGIN_BINARY_SPIR)
		return plugin_error(-ENOTSUP,
				    "CUDA device \"%s\" takes no SPIR bitcode, only PTX, cubin or fatbin",
				    device->name);
	if (kind != DEVIMG_PLUGIN_BINARY_NATIVE)
		return plugin_error(-EINVAL, "program_create_binary: unknown kind %d",
				    (int)kind);
	for (i = 0; i < ctx->n; i++)
		if (ctx->devices[i] == device)
			primary = ctx->primary[i];
	if (!primary)
		return plugin_error(-EINVAL, "program_create_binary: \"%s\" is not a device of the context",
				    device->name);
	what = image_kind(p, size);
	if (!what)
		return plugin_error(-ENOEXEC,
				    "a %zu-byte image for \"%s\" is neither PTX text, nor a cubin (ELF), nor a fatbin: it starts with %02x %02x %02x %02x",
				    size, device->name, p[0], size > 1 ? p[1] : 0,
				    size > 2 ? p[2] : 0, size > 3 ? p[3] : 0);
	if (size == SIZE_MAX)
		return plugin_error(-ENOMEM, "image too large");
	prog = calloc(1, sizeof(*prog));
	if (prog)
		prog->image = malloc(size + 1);
	if (!prog || !prog->image) {
		free(prog);
		return plugin_error(-ENOMEM, "out of memory for a %zu-byte image",
				    size);
	}
	/* The JIT reads PTX up to its NUL, which images need not carry. */
	memcpy(prog->image, binary, size);
	prog->image[size] = '\0';
	prog->size = size;
	prog->kind = what;
	prog->device = device;
	prog->ctx = primary;
	*out = prog;
	return 0;
}

int cu_program_set_spec_const(struct devimg_plugin_program *prog,
			      uint32_t id, size_t size, const void *value)
{
	return plugin_error(-ENOTSUP,
			    "CUDA has no native specialization constants (SpecId %u): devimg passes them in a buffer argument",
			    (unsigned)id);
}

struct jit_options {
	int keys[6];
	void *values[6];
	unsigned n;
	char ignored[512];	/* "'-x' '-y'" for the build log */
};

static void add_option(struct jit_options *o, int key, uintptr_t value)
{
	o->keys[o->n] = key;
	o->values[o->n] = (void *)value;
	o->n++;
}

/* Map build options to JIT options; list the ones without a mapping. */
static void map_options(const char *options, bool ptx, struct jit_options *o)
{
	const char *p = options;
	size_t used = 0;
	bool opt_level = false, line_info = false;

	o->ignored[0] = '\0';
	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		len = strcspn(p, " \t\n");
		if (!len)
			break;
		if (ptx && !opt_level && len == 3 && p[0] == '-' &&
		    p[1] == 'O' && p[2] >= '0' && p[2] <= '4') {
			opt_level = true;
			add_option(o, CU_JIT_OPTIMIZATION_LEVEL,
				   (uintptr_t)(p[2] - '0'));
		} else if (ptx && !line_info && len == 9 &&
			   !strncmp(p, "-lineinfo", 9)) {
			line_info = true;
			add_option(o, CU_JIT_GENERATE_LINE_INFO, 1);
		} else if (used < sizeof(o->ignored)) {
			used += (size_t)snprintf(o->ignored + used,
						 sizeof(o->ignored) - used,
						 "%s'%.*s'", used ? " " : "",
						 (int)len, p);
		}
		p += len;
	}
}

/* The build log: ignored options, then the JIT's info and error logs. */
static char *make_log(const char *ignored, const char *info,
		      const char *error)
{
	size_t n = strlen(ignored) + strlen(info) + strlen(error) + 64;
	char *log = malloc(n);

	if (!log)
		return NULL;
	snprintf(log, n, "%s%s%s%s%s%s", ignored[0] ? "options ignored: " : "",
		 ignored, ignored[0] ? "\n" : "", info,
		 info[0] && error[0] ? "\n" : "", error);
	return log;
}

int cu_program_build(struct devimg_plugin_program *prog,
		     const char *options)
{
	struct jit_options o = { .n = 0 };
	char *info = NULL, *error = NULL;
	CUmodule module = NULL;
	CUresult err;
	int rc;

	if (!prog)
		return plugin_error(-EINVAL, "program_build: NULL program");
	if (prog->module)
		return plugin_error(-EINVAL, "program_build: the program for \"%s\" is built already",
				    prog->device->name);
	if (!options)
		options = "";
	rc = cu_make_current(prog->ctx, "a module");
	if (rc < 0)
		return rc;
	info = calloc(1, JIT_LOG_SIZE);
	error = calloc(1, JIT_LOG_SIZE);
	if (!info || !error) {
		free(info);
		free(error);
		return plugin_error(-ENOMEM, "out of memory for JIT logs");
	}
	add_option(&o, CU_JIT_INFO_LOG_BUFFER, (uintptr_t)info);
	add_option(&o, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, JIT_LOG_SIZE);
	add_option(&o, CU_JIT_ERROR_LOG_BUFFER, (uintptr_t)error);
	add_option(&o, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JIT_LOG_SIZE);
	map_options(options, !strcmp(prog->kind, "PTX"), &o);

	err = cu.cuModuleLoadDataEx(&module, prog->image, o.n, o.keys,
				    o.values);
	info[JIT_LOG_SIZE - 1] = '\0';
	error[JIT_LOG_SIZE - 1] = '\0';
	free(prog->log);
	prog->log = make_log(o.ignored, info, error);
	if (err == CUDA_SUCCESS) {
		prog->module = module;
	} else {
		rc = cu_fail(err,
			     "cuModuleLoadDataEx(%zu bytes of %s) for \"%s\" (%s) with options \"%s\"",
			     prog->size, prog->kind, prog->device->name,
			     prog->device->version, options);
		/* A JIT that fails for want of memory is no bad image. */
		if (rc != -ENOMEM)
			rc = -ENOEXEC;
		if (error[0] || info[0]) {
			plugin_error_append("\nJIT log:\n");
			plugin_error_append(error[0] ? error : info);
		}
	}
	free(info);
	free(error);
	if (rc == 0 && !prog->log)
		rc = plugin_error(-ENOMEM, "out of memory for a build log");
	return rc;
}

int cu_program_build_log(struct devimg_plugin_program *prog, char *buf,
			 size_t capacity, size_t *len)
{
	const char *log;
	size_t n;

	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_build_log: NULL argument");
	log = prog->log ? prog->log : "";
	n = strlen(log) + 1;
	if (capacity) {
		size_t copy = n < capacity ? n : capacity;

		memcpy(buf, log, copy);
		buf[copy - 1] = '\0';
	}
	*len = n;
	return 0;
}

/* The image the module was loaded from: it loads again as it is. */
int cu_program_binary(struct devimg_plugin_program *prog, void *buf,
		      size_t capacity, size_t *len)
{
	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_binary: NULL argument");
	if (!prog->module)
		return plugin_error(-ENOEXEC,
				    "no binary for \"%s\": the program is not built",
				    prog->device->name);
	if (capacity >= prog->size)
		memcpy(buf, prog->image, prog->size);
	*len = prog->size;
	return 0;
}

void cu_program_release(struct devimg_plugin_program *prog)
{
	if (!prog)
		return;
	if (prog->module && cu_make_current(prog->ctx, "a module's release") == 0)
		cu.cuModuleUnload(prog->module);
	free(prog->image);
	free(prog->log);
	free(prog);
}
