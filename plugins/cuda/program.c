// SPDX-License-Identifier: MIT
/*
 * Programs: PTX, cubin or fatbin images, loaded as modules of the device's
 * primary context at build time through the JIT, whose error and info
 * logs become the build log.
 *
 * Build options: -O0 to -O4 set the JIT's optimization level and
 * -lineinfo asks for line information (both for PTX only); the JIT has no
 * equivalent of other options, which the build log then lists as ignored.
 * Linking (cuLink*) takes the compile options of each object for that
 * input and the link options for the whole link, mapped the same way.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cuda/cuda-plugin.h"

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

/* A program of a copy of the size bytes at image, of a kind known. */
static int program_new(struct devimg_plugin_device *device, CUcontext primary,
		       const void *image, size_t size, const char *kind,
		       struct devimg_plugin_program **out)
{
	struct devimg_plugin_program *prog;

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
	memcpy(prog->image, image, size);
	prog->image[size] = '\0';
	prog->size = size;
	prog->kind = kind;
	prog->device = device;
	prog->ctx = primary;
	*out = prog;
	return 0;
}

int cu_program_create_binary(struct devimg_plugin_context *ctx,
			     struct devimg_plugin_device *device,
			     enum devimg_plugin_binary_kind kind,
			     const void *binary, size_t size,
			     struct devimg_plugin_program **out)
{
	const unsigned char *p = binary;
	CUcontext primary;
	const char *what;

	if (!ctx || !device || !binary || !size || !out)
		return plugin_error(-EINVAL, "program_create_binary: NULL or empty argument");
	if (kind == DEVIMG_PLUGIN_BINARY_SPIR)
		return plugin_error(-ENOTSUP,
				    "CUDA device \"%s\" takes no SPIR bitcode, only PTX, cubin or fatbin",
				    device->name);
	if (kind != DEVIMG_PLUGIN_BINARY_NATIVE)
		return plugin_error(-EINVAL, "program_create_binary: unknown kind %d",
				    (int)kind);
	primary = cu_primary_of(ctx, device);
	if (!primary)
		return plugin_error(-EINVAL, "program_create_binary: \"%s\" is not a device of the context",
				    device->name);
	what = image_kind(p, size);
	if (!what)
		return plugin_error(-ENOEXEC,
				    "a %zu-byte image for \"%s\" is neither PTX text, nor a cubin (ELF), nor a fatbin: it starts with %02x %02x %02x %02x",
				    size, device->name, p[0], size > 1 ? p[1] : 0,
				    size > 2 ? p[2] : 0, size > 3 ? p[3] : 0);
	return program_new(device, primary, binary, size, what, out);
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

/* Room for the JIT's info and error logs, asked for through o. */
static int jit_logs(struct jit_options *o, char **info, char **error)
{
	*info = calloc(1, JIT_LOG_SIZE);
	*error = calloc(1, JIT_LOG_SIZE);
	if (!*info || !*error) {
		free(*info);
		free(*error);
		return plugin_error(-ENOMEM, "out of memory for JIT logs");
	}
	add_option(o, CU_JIT_INFO_LOG_BUFFER, (uintptr_t)*info);
	add_option(o, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, JIT_LOG_SIZE);
	add_option(o, CU_JIT_ERROR_LOG_BUFFER, (uintptr_t)*error);
	add_option(o, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JIT_LOG_SIZE);
	return 0;
}

/*
 * After a failed JIT call whose message rc is: -ENOEXEC unless the JIT
 * ran out of memory (which is no bad image), with its log appended.
 */
static int jit_failed(int rc, char *info, char *error)
{
	info[JIT_LOG_SIZE - 1] = '\0';
	error[JIT_LOG_SIZE - 1] = '\0';
	if (error[0] || info[0]) {
		plugin_error_append("\nJIT log:\n");
		plugin_error_append(error[0] ? error : info);
	}
	return rc == -ENOMEM ? rc : -ENOEXEC;
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
	if (rc == 0)
		rc = jit_logs(&o, &info, &error);
	if (rc < 0)
		return rc;
	map_options(options, !strcmp(prog->kind, "PTX"), &o);

	err = cu.cuModuleLoadDataEx(&module, prog->image, o.n, o.keys,
				    o.values);
	info[JIT_LOG_SIZE - 1] = '\0';
	error[JIT_LOG_SIZE - 1] = '\0';
	free(prog->log);
	prog->log = make_log(o.ignored, info, error);
	if (err == CUDA_SUCCESS)
		prog->module = module;
	else
		rc = jit_failed(cu_fail(err,
					"cuModuleLoadDataEx(%zu bytes of %s) for \"%s\" (%s) with options \"%s\"",
					prog->size, prog->kind,
					prog->device->name,
					prog->device->version, options),
				info, error);
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
	free(prog->options);
	free(prog);
}

/* ---- separate compilation and linking ---- */

/* The JIT input type of an image kind; -1 for one the linker cannot take. */
static int input_type(const char *kind)
{
	if (!strcmp(kind, "PTX"))
		return CU_JIT_INPUT_PTX;
	if (!strcmp(kind, "cubin"))
		return CU_JIT_INPUT_CUBIN;
	if (!strcmp(kind, "fatbin"))
		return CU_JIT_INPUT_FATBINARY;
	return -1;
}

/*
 * The JIT compiles and links in one step, at cuLinkAddData and
 * cuLinkComplete: compiling keeps the image, which the JIT checks then,
 * and the options, which apply to this object alone.
 */
int cu_program_compile(struct devimg_plugin_program *prog,
		       const char *options)
{
	if (!prog)
		return plugin_error(-EINVAL, "program_compile: NULL program");
	if (prog->module || prog->options)
		return plugin_error(-EINVAL, "program_compile: the program for \"%s\" is %s already",
				    prog->device->name,
				    prog->module ? "built" : "compiled");
	if (input_type(prog->kind) < 0)
		return plugin_error(-ENOTSUP,
				    "the CUDA JIT links PTX, cubin and fatbin images, not %s",
				    prog->kind);
	prog->options = strdup(options ? options : "");
	if (!prog->options)
		return plugin_error(-ENOMEM, "out of memory for compile options");
	return 0;
}

/* Objects that can be linked for device of ctx, on a driver that links. */
static int link_check(struct devimg_plugin_context *ctx,
		      struct devimg_plugin_device *device, unsigned n,
		      struct devimg_plugin_program *const *progs,
		      struct devimg_plugin_program **out, CUcontext *primary)
{
	unsigned i;

	if (!ctx || !device || !progs || !out || !n)
		return plugin_error(-EINVAL, "program_link: NULL argument or %u objects",
				    n);
	*primary = cu_primary_of(ctx, device);
	if (!*primary)
		return plugin_error(-EINVAL, "program_link: \"%s\" is not a device of the context",
				    device->name);
	for (i = 0; i < n; i++) {
		if (!progs[i])
			return plugin_error(-EINVAL, "program_link: object %u of %u is NULL",
					    i, n);
		if (!progs[i]->options)
			return plugin_error(-EINVAL,
					    "program_link: object %u of %u (%zu bytes of %s) is not compiled: program_compile() makes it an object",
					    i, n, progs[i]->size, progs[i]->kind);
		if (progs[i]->ctx != *primary)
			return plugin_error(-EINVAL,
					    "program_link: object %u was made for \"%s\", the link is for \"%s\"",
					    i, progs[i]->device->name,
					    device->name);
	}
	if (!cu.cuLinkCreate || !cu.cuLinkAddData || !cu.cuLinkComplete ||
	    !cu.cuLinkDestroy)
		return plugin_error(-ENOTSUP,
				    "the CUDA driver has no cuLinkCreate_v2, cuLinkAddData_v2, cuLinkComplete and cuLinkDestroy: it cannot link programs for \"%s\"",
				    device->name);
	return 0;
}

/* Append "image<i>: 'x' 'y'" to the ignored options of a link. */
static void note_ignored(char *buf, size_t size, unsigned i,
			 const char *ignored)
{
	size_t used = strlen(buf);

	if (ignored[0] && used < size)
		snprintf(buf + used, size - used, "%simage%u: %s",
			 used ? " " : "", i, ignored);
}

/* Object i as the link's input "image<i>", with its compile options. */
static CUresult add_input(CUlinkState state, unsigned i,
			  struct devimg_plugin_program *obj, char *ignored,
			  size_t size)
{
	struct jit_options o = { .n = 0 };
	int type = input_type(obj->kind);
	char name[24];

	map_options(obj->options, type == CU_JIT_INPUT_PTX, &o);
	note_ignored(ignored, size, i, o.ignored);
	snprintf(name, sizeof(name), "image%u", i);
	/* PTX goes with the NUL after it, which the JIT reads up to. */
	return cu.cuLinkAddData(state, type, obj->image,
				obj->size + (type == CU_JIT_INPUT_PTX), name,
				o.n, o.keys, o.values);
}

/*
 * The linked cubin belongs to the link state: the new program keeps a
 * copy, which program_binary() gives back and which loads again as it is.
 */
static int load_linked(struct devimg_plugin_device *device, CUcontext primary,
		       const void *cubin, size_t size, unsigned n,
		       struct devimg_plugin_program **out)
{
	const char *kind = image_kind(cubin, size);
	struct devimg_plugin_program *prog;
	CUresult err;
	int rc;

	rc = program_new(device, primary, cubin, size, kind ? kind : "cubin",
			 &prog);
	if (rc < 0)
		return rc;
	err = cu.cuModuleLoadDataEx(&prog->module, prog->image, 0, NULL, NULL);
	if (err != CUDA_SUCCESS) {
		prog->module = NULL;
		rc = cu_fail(err, "cuModuleLoadDataEx(the %zu-byte %s linked from %u objects) for \"%s\"",
			     size, prog->kind, n, device->name);
		cu_program_release(prog);
		return rc == -ENOMEM ? rc : -ENOEXEC;
	}
	*out = prog;
	return 0;
}

int cu_program_link(struct devimg_plugin_context *ctx,
		    struct devimg_plugin_device *device, unsigned n,
		    struct devimg_plugin_program *const *progs,
		    const char *options, struct devimg_plugin_program **out)
{
	struct devimg_plugin_program *prog = NULL;
	struct jit_options o = { .n = 0 };
	char *info = NULL, *error = NULL;
	CUlinkState state = NULL;
	char ignored[1024];
	CUcontext primary = NULL;
	void *cubin = NULL;
	size_t size = 0;
	CUresult err;
	unsigned i;
	int rc;

	rc = link_check(ctx, device, n, progs, out, &primary);
	if (rc == 0)
		rc = cu_make_current(primary, "a link");
	if (rc == 0)
		rc = jit_logs(&o, &info, &error);
	if (rc < 0)
		return rc;
	if (!options)
		options = "";
	map_options(options, true, &o);
	snprintf(ignored, sizeof(ignored), "%s", o.ignored);

	err = cu.cuLinkCreate(o.n, o.keys, o.values, &state);
	if (err != CUDA_SUCCESS) {
		state = NULL;
		rc = cu_fail(err, "cuLinkCreate_v2 for \"%s\" (%s) with options \"%s\"",
			     device->name, device->version, options);
		goto out;
	}
	for (i = 0; i < n; i++) {
		err = add_input(state, i, progs[i], ignored, sizeof(ignored));
		if (err != CUDA_SUCCESS) {
			rc = jit_failed(cu_fail(err,
						"cuLinkAddData_v2(image%u, %zu bytes of %s, options \"%s\") for \"%s\" (%s)",
						i, progs[i]->size,
						progs[i]->kind,
						progs[i]->options,
						device->name,
						device->version),
					info, error);
			goto out;
		}
	}
	err = cu.cuLinkComplete(state, &cubin, &size);
	if (err != CUDA_SUCCESS) {
		rc = jit_failed(cu_fail(err,
					"cuLinkComplete(%u object%s) for \"%s\" (%s) with options \"%s\"",
					n, n == 1 ? "" : "s", device->name, device->version,
					options),
				info, error);
		goto out;
	}
	rc = load_linked(device, primary, cubin, size, n, &prog);
	if (rc < 0)
		goto out;
	info[JIT_LOG_SIZE - 1] = '\0';
	error[JIT_LOG_SIZE - 1] = '\0';
	prog->log = make_log(ignored, info, error);
	if (!prog->log) {
		cu_program_release(prog);
		rc = plugin_error(-ENOMEM, "out of memory for a build log");
		goto out;
	}
	*out = prog;
out:
	if (state)
		cu.cuLinkDestroy(state);
	free(info);
	free(error);
	return rc;
}
