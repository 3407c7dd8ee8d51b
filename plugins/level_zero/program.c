// SPDX-License-Identifier: MIT
/*
 * Programs: modules from SPIR-V or native binaries. Level Zero takes the
 * build flags and the specialization constants at zeModuleCreate(), so a
 * program keeps its input and the constants set on it until
 * program_build() creates the module; the module's build log stays with
 * the program for program_build_log() and build errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "level_zero.h"

/*
 * A constant's value is read by the driver at the width of the constant's
 * type in the module; keep at least 8 bytes, zero-filled, so that a value
 * given short is never read past its end.
 */
#define CONST_SLOT 8

static const char *format_name(ze_module_format_t format)
{
	return format == ZE_MODULE_FORMAT_IL_SPIRV ? "SPIR-V" : "native";
}

static int program_new(struct devimg_plugin_context *ctx,
		       struct devimg_plugin_device *device,
		       ze_module_format_t format, const void *bytes,
		       size_t size, struct devimg_plugin_program **out)
{
	struct devimg_plugin_program *prog;

	if (!ctx || !device || !bytes || !size || !out)
		return plugin_error(-EINVAL, "program_create: NULL or empty argument");
	if (device->info.platform != ctx->platform)
		return plugin_error(-EINVAL, "program_create: \"%s\" is not of the context's driver",
				    device->name);
	prog = calloc(1, sizeof(*prog));
	if (prog)
		prog->bytes = malloc(size);
	if (!prog || !prog->bytes) {
		free(prog);
		return plugin_error(-ENOMEM, "out of memory for a %zu-byte %s program",
				    size, format_name(format));
	}
	memcpy(prog->bytes, bytes, size);
	prog->size = size;
	prog->ctx = ctx;
	prog->device = device;
	prog->format = format;
	*out = prog;
	return 0;
}

int lz_program_create_il(struct devimg_plugin_context *ctx,
			 struct devimg_plugin_device *device, const void *il,
			 size_t size, struct devimg_plugin_program **out)
{
	return program_new(ctx, device, ZE_MODULE_FORMAT_IL_SPIRV, il, size,
			   out);
}

int lz_program_create_binary(struct devimg_plugin_context *ctx,
			     struct devimg_plugin_device *device,
			     enum devimg_plugin_binary_kind kind,
			     const void *binary, size_t size,
			     struct devimg_plugin_program **out)
{
	if (kind == DEVIMG_PLUGIN_BINARY_SPIR)
		return plugin_error(-ENOTSUP,
				    "Level Zero takes no SPIR 1.2 bitcode: \"%s\" builds SPIR-V (program_create_il) and its native binaries",
				    device ? device->name : "?");
	if (kind != DEVIMG_PLUGIN_BINARY_NATIVE)
		return plugin_error(-EINVAL, "program_create_binary: unknown kind %d",
				    (int)kind);
	return program_new(ctx, device, ZE_MODULE_FORMAT_NATIVE, binary, size,
			   out);
}

/* Record a new constant; slot is the program's from then on. */
static int const_add(struct devimg_plugin_program *prog, uint32_t id,
		     void *slot)
{
	uint32_t n = prog->nconsts;
	uint32_t *ids;
	void **values;

	ids = realloc(prog->const_ids, (n + 1) * sizeof(*ids));
	if (ids)
		prog->const_ids = ids;
	values = ids ? realloc(prog->const_values,
			       (n + 1) * sizeof(*values)) : NULL;
	if (!values) {
		free(slot);
		return plugin_error(-ENOMEM, "out of memory for a spec constant");
	}
	prog->const_values = values;
	ids[n] = id;
	values[n] = slot;
	prog->nconsts = n + 1;
	return 0;
}

int lz_program_set_spec_const(struct devimg_plugin_program *prog,
			      uint32_t id, size_t size, const void *value)
{
	void *slot;
	uint32_t i;

	if (!prog || !size || !value)
		return plugin_error(-EINVAL, "program_set_spec_const: NULL or empty argument");
	if (prog->format != ZE_MODULE_FORMAT_IL_SPIRV)
		return plugin_error(-ENOTSUP,
				    "SpecId %u: a native binary for \"%s\" has no specialization constants to set",
				    (unsigned)id, prog->device->name);
	if (prog->module)
		return plugin_error(-EINVAL,
				    "SpecId %u: the program is built; constants go to zeModuleCreate",
				    (unsigned)id);
	slot = calloc(1, size > CONST_SLOT ? size : CONST_SLOT);
	if (!slot)
		return plugin_error(-ENOMEM, "out of memory for SpecId %u",
				    (unsigned)id);
	memcpy(slot, value, size);
	for (i = 0; i < prog->nconsts; i++) {
		if (prog->const_ids[i] == id) {
			free(prog->const_values[i]);
			prog->const_values[i] = slot;
			return 0;
		}
	}
	return const_add(prog, id, slot);
}

/* The text of a build log handle; NULL for an empty one. */
static int log_text(ze_module_build_log_handle_t log, char **out)
{
	size_t size = 0;
	ze_result_t res;
	char *text;

	*out = NULL;
	res = zeModuleBuildLogGetString(log, &size, NULL);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeModuleBuildLogGetString");
	if (size == 0)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return plugin_error(-ENOMEM, "out of memory for a %zu-byte build log",
				    size);
	res = zeModuleBuildLogGetString(log, &size, text);
	if (res != ZE_RESULT_SUCCESS) {
		free(text);
		return lz_fail(res, "zeModuleBuildLogGetString");
	}
	text[size] = '\0';
	*out = text;
	return 0;
}

static int build_failed(struct devimg_plugin_program *prog, ze_result_t res,
			const char *options)
{
	char *log = NULL;
	int rc;

	if (prog->log)
		log_text(prog->log, &log);
	rc = lz_fail(res,
		     "zeModuleCreate(%s, %zu bytes, build flags \"%s\", %u spec constants) for \"%s\"",
		     format_name(prog->format), prog->size, options,
		     (unsigned)prog->nconsts, prog->device->name);
	if (log && log[0]) {
		plugin_error_append("\nbuild log:\n");
		plugin_error_append(log);
	}
	free(log);
	/* Whatever the driver says, a failed build is a build failure. */
	return rc == -ENOMEM ? rc : -ENOEXEC;
}

int lz_program_build(struct devimg_plugin_program *prog, const char *options)
{
	ze_module_constants_t consts = { 0 };
	ze_module_desc_t desc = {
		.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
	};
	ze_result_t res;

	if (!prog)
		return plugin_error(-EINVAL, "program_build: NULL program");
	if (prog->module)
		return plugin_error(-EINVAL, "program_build: \"%s\" program already built",
				    prog->device->name);
	if (prog->log) {
		zeModuleBuildLogDestroy(prog->log);
		prog->log = NULL;
	}
	if (!options)
		options = "";
	consts.numConstants = prog->nconsts;
	consts.pConstantIds = prog->const_ids;
	consts.pConstantValues = (const void **)prog->const_values;
	desc.format = prog->format;
	desc.inputSize = prog->size;
	desc.pInputModule = prog->bytes;
	desc.pBuildFlags = options;
	desc.pConstants = &consts;
	res = zeModuleCreate(prog->ctx->id, prog->device->id, &desc,
			     &prog->module, &prog->log);
	if (res != ZE_RESULT_SUCCESS) {
		prog->module = NULL;
		return build_failed(prog, res, options);
	}
	free(prog->bytes);
	prog->bytes = NULL;
	return 0;
}

int lz_program_build_log(struct devimg_plugin_program *prog, char *buf,
			 size_t capacity, size_t *len)
{
	char *log = NULL;
	size_t n;
	int rc;

	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_build_log: NULL argument");
	if (prog->log) {
		rc = log_text(prog->log, &log);
		if (rc < 0)
			return rc;
	}
	n = (log ? strlen(log) : 0) + 1;
	if (capacity) {
		size_t copy = n < capacity ? n : capacity;

		memcpy(buf, log ? log : "", copy - 1);
		buf[copy - 1] = '\0';
	}
	*len = n;
	free(log);
	return 0;
}

int lz_program_binary(struct devimg_plugin_program *prog, void *buf,
		      size_t capacity, size_t *len)
{
	size_t size = 0;
	ze_result_t res;

	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_binary: NULL argument");
	if (!prog->module)
		return plugin_error(-ENOEXEC,
				    "no binary for \"%s\": the program is not built",
				    prog->device->name);
	res = zeModuleGetNativeBinary(prog->module, &size, NULL);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeModuleGetNativeBinary");
	if (size && capacity >= size) {
		res = zeModuleGetNativeBinary(prog->module, &size, buf);
		if (res != ZE_RESULT_SUCCESS)
			return lz_fail(res, "zeModuleGetNativeBinary(%zu bytes)",
				       size);
	}
	*len = size;
	return 0;
}

void lz_program_release(struct devimg_plugin_program *prog)
{
	uint32_t i;

	if (!prog)
		return;
	if (prog->module) {
		lz_context_drain(prog->ctx);
		zeModuleDestroy(prog->module);
	}
	if (prog->log)
		zeModuleBuildLogDestroy(prog->log);
	for (i = 0; i < prog->nconsts; i++)
		free(prog->const_values[i]);
	free(prog->const_values);
	free(prog->const_ids);
	free(prog->bytes);
	free(prog);
}
