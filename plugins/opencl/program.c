// SPDX-License-Identifier: MIT
/*
 * Programs: creation from SPIR-V, SPIR 1.2 bitcode or native binaries,
 * specialization constants, build with its log, or separate compilation
 * and linking, and the built binary.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/opencl/opencl.h"

/* What the cl_khr_spir extension asks for when building SPIR bitcode. */
#define SPIR_BUILD_OPTIONS "-x spir -spir-std=1.2"

static int program_new(cl_program id, struct devimg_plugin_device *device,
		       bool spir, bool from_il,
		       struct devimg_plugin_program **out)
{
	struct devimg_plugin_program *prog = calloc(1, sizeof(*prog));

	if (!prog) {
		clReleaseProgram(id);
		return plugin_error(-ENOMEM, "out of memory for a program");
	}
	prog->id = id;
	prog->device = device;
	prog->spir = spir;
	prog->from_il = from_il;
	*out = prog;
	return 0;
}

/* A SPIR-V magic number, in either byte order, and room for the header. */
static bool is_spirv(const void *il, size_t size)
{
	const unsigned char *b = il;

	return size >= 20 &&
	       ((b[0] == 0x03 && b[1] == 0x02 && b[2] == 0x23 && b[3] == 0x07) ||
		(b[0] == 0x07 && b[1] == 0x23 && b[2] == 0x02 && b[3] == 0x03));
}

int ocl_program_create_il(struct devimg_plugin_context *ctx,
			  struct devimg_plugin_device *device, const void *il,
			  size_t size, struct devimg_plugin_program **out)
{
	cl_program id;
	cl_int err;

	if (!ctx || !device || !il || !size || !out)
		return plugin_error(-EINVAL, "program_create_il: NULL or empty argument");
	if (!device->create_with_il)
		return plugin_error(-ENOTSUP,
				    "device \"%s\" (%s) does not take SPIR-V: no OpenCL 2.1 IL version and no cl_khr_il_program",
				    device->name, device->version);
	/*
	 * Drivers differ on bytes that are not SPIR-V (PoCL refuses them
	 * here, rusticl at the build): refused alike, before the driver.
	 */
	if (!is_spirv(il, size))
		return plugin_error(-EINVAL,
				    "program_create_il(%zu bytes) for \"%s\": not a SPIR-V module (no magic number 0x07230203 and 5-word header)",
				    size, device->name);
	id = device->create_with_il((cl_context)ctx, il, size, &err);
	if (err != CL_SUCCESS)
		return ocl_fail(err,
				"clCreateProgramWithIL(%zu bytes of SPIR-V) for \"%s\"",
				size, device->name);
	return program_new(id, device, false, true, out);
}

int ocl_program_create_binary(struct devimg_plugin_context *ctx,
			      struct devimg_plugin_device *device,
			      enum devimg_plugin_binary_kind kind,
			      const void *binary, size_t size,
			      struct devimg_plugin_program **out)
{
	const unsigned char *bytes = binary;
	const char *what = kind == DEVIMG_PLUGIN_BINARY_SPIR ? "SPIR" : "native";
	cl_int err, status = CL_SUCCESS;
	cl_program id;

	if (!ctx || !device || !binary || !size || !out)
		return plugin_error(-EINVAL, "program_create_binary: NULL or empty argument");
	if (kind != DEVIMG_PLUGIN_BINARY_NATIVE &&
	    kind != DEVIMG_PLUGIN_BINARY_SPIR)
		return plugin_error(-EINVAL, "program_create_binary: unknown kind %d",
				    (int)kind);
	if (kind == DEVIMG_PLUGIN_BINARY_SPIR &&
	    !(device->info.formats & DEVIMG_PLUGIN_FORMAT_SPIR))
		return plugin_error(-ENOTSUP,
				    "device \"%s\" does not offer cl_khr_spir: no SPIR 1.2 bitcode",
				    device->name);
	id = clCreateProgramWithBinary((cl_context)ctx, 1, &device->id, &size,
				       &bytes, &status, &err);
	if (err == CL_SUCCESS && status != CL_SUCCESS)
		err = status;
	if (err != CL_SUCCESS) {
		if (id)
			clReleaseProgram(id);
		return ocl_fail(err,
				"clCreateProgramWithBinary(%zu bytes, %s) for \"%s\"",
				size, what, device->name);
	}
	return program_new(id, device, kind == DEVIMG_PLUGIN_BINARY_SPIR, false,
			   out);
}

int ocl_program_set_spec_const(struct devimg_plugin_program *prog,
			       uint32_t id, size_t size, const void *value)
{
	cl_int err;

	if (!prog || !size || !value)
		return plugin_error(-EINVAL, "program_set_spec_const: NULL or empty argument");
	if (!prog->from_il || !prog->device->set_spec_const)
		return plugin_error(-ENOTSUP,
				    "no native specialization constants for this program on \"%s\" (%s)",
				    prog->device->name,
				    prog->from_il ? "device below OpenCL 2.2" :
				    "program not made from SPIR-V");
	err = prog->device->set_spec_const(prog->id, id, size, value);
	if (err != CL_SUCCESS)
		return ocl_fail(err,
				"clSetProgramSpecializationConstant(SpecId %u, %zu bytes)",
				(unsigned)id, size);
	return 0;
}

static int build_log(cl_program id, cl_device_id device, char **out)
{
	size_t size;
	cl_int err;
	char *log;

	err = clGetProgramBuildInfo(id, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
				    &size);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetProgramBuildInfo(BUILD_LOG)");
	log = malloc(size + 1);
	if (!log)
		return plugin_error(-ENOMEM, "out of memory for a build log");
	err = clGetProgramBuildInfo(id, device, CL_PROGRAM_BUILD_LOG, size, log,
				    NULL);
	if (err != CL_SUCCESS) {
		free(log);
		return ocl_fail(err, "clGetProgramBuildInfo(BUILD_LOG)");
	}
	log[size] = '\0';
	*out = log;
	return 0;
}

/*
 * The message of a failed clBuildProgram, clCompileProgram or
 * clLinkProgram (call) on program id (none: no log): the device, the
 * options, the error and the log.
 */
static int build_failed(cl_program id, struct devimg_plugin_device *device,
			cl_int err, const char *call, const char *options)
{
	char *log = NULL;
	int rc;

	if (id)
		build_log(id, device->id, &log);
	rc = ocl_fail(err, "%s for \"%s\" with options \"%s\"", call,
		      device->name, options);
	if (log && log[0]) {
		plugin_error_append("\nbuild log:\n");
		plugin_error_append(log);
	}
	free(log);
	return rc;
}

/*
 * The options to compile or build prog with: "-x spir -spir-std=1.2"
 * first for SPIR bitcode, into *all (to free) then; never NULL.
 */
static int program_options(struct devimg_plugin_program *prog,
			   const char *options, char **all,
			   const char **out)
{
	size_t n;

	*all = NULL;
	if (!options)
		options = "";
	if (!prog->spir) {
		*out = options;
		return 0;
	}
	n = sizeof(SPIR_BUILD_OPTIONS) + 1 + strlen(options);
	*all = malloc(n);
	if (!*all)
		return plugin_error(-ENOMEM, "out of memory for build options");
	snprintf(*all, n, "%s%s%s", SPIR_BUILD_OPTIONS, options[0] ? " " : "",
		 options);
	*out = *all;
	return 0;
}

int ocl_program_build(struct devimg_plugin_program *prog,
		      const char *options)
{
	char *all;
	cl_int err;
	int rc;

	if (!prog)
		return plugin_error(-EINVAL, "program_build: NULL program");
	if (prog->state == OCL_PROGRAM_COMPILED)
		return plugin_error(-EINVAL,
				    "program_build on \"%s\": the program was compiled for program_link()",
				    prog->device->name);
	rc = program_options(prog, options, &all, &options);
	if (rc < 0)
		return rc;
	err = clBuildProgram(prog->id, 1, &prog->device->id, options, NULL,
			     NULL);
	if (err != CL_SUCCESS)
		rc = build_failed(prog->id, prog->device, err, "clBuildProgram",
				  options);
	else
		prog->state = OCL_PROGRAM_BUILT;
	free(all);
	return rc;
}

/* CL_DEVICE_LINKER_AVAILABLE, as read at init. */
static bool device_can_link(const struct devimg_plugin_device *device)
{
	return device->info.aspects &
	       DEVIMG_PLUGIN_ASPECT_BIT(DEVIMG_PLUGIN_ASPECT_ONLINE_LINKER);
}

/* What OpenCL says when a driver cannot compile or link separately. */
static bool cannot_separate(cl_int err)
{
	return err == CL_INVALID_OPERATION ||
	       err == CL_COMPILER_NOT_AVAILABLE ||
	       err == CL_LINKER_NOT_AVAILABLE;
}

int ocl_program_compile(struct devimg_plugin_program *prog,
			const char *options)
{
	const char *kind;
	char *all;
	cl_int err;
	int rc;

	if (!prog)
		return plugin_error(-EINVAL, "program_compile: NULL program");
	if (prog->state != OCL_PROGRAM_CREATED)
		return plugin_error(-EINVAL,
				    "program_compile on \"%s\": the program is already %s",
				    prog->device->name,
				    prog->state == OCL_PROGRAM_BUILT ? "built" :
				    "compiled");
	if (!prog->spir && !prog->from_il)
		return plugin_error(-ENOTSUP,
				    "device \"%s\": a native binary cannot be compiled separately, only SPIR-V or SPIR bitcode",
				    prog->device->name);
	if (!device_can_link(prog->device))
		return plugin_error(-ENOTSUP,
				    "device \"%s\": the OpenCL driver has no linker (CL_DEVICE_LINKER_AVAILABLE is false)",
				    prog->device->name);
	rc = program_options(prog, options, &all, &options);
	if (rc < 0)
		return rc;
	err = clCompileProgram(prog->id, 1, &prog->device->id, options, 0, NULL,
			       NULL, NULL, NULL);
	kind = prog->spir ? "SPIR" : "SPIR-V";
	if (err == CL_SUCCESS)
		prog->state = OCL_PROGRAM_COMPILED;
	else if (cannot_separate(err))
		rc = ocl_fail(err,
			      "device \"%s\": the OpenCL driver cannot compile this %s program separately: clCompileProgram",
			      prog->device->name, kind);
	else
		rc = build_failed(prog->id, prog->device, err,
				  "clCompileProgram", options);
	free(all);
	return rc;
}

/* Whether progs[i] can go into a link for device in ctx; -EINVAL if not. */
static int link_input(struct devimg_plugin_context *ctx,
		      struct devimg_plugin_device *device, unsigned i,
		      struct devimg_plugin_program *prog)
{
	cl_context owner = NULL;
	cl_int err;

	if (!prog)
		return plugin_error(-EINVAL, "program_link: object %u is NULL", i);
	if (prog->state != OCL_PROGRAM_COMPILED)
		return plugin_error(-EINVAL,
				    "program_link: object %u is %s, not made by program_compile()",
				    i, prog->state == OCL_PROGRAM_BUILT ?
				    "a built program" : "not compiled");
	if (prog->device != device)
		return plugin_error(-EINVAL,
				    "program_link: object %u is for device \"%s\", not \"%s\"",
				    i, prog->device->name, device->name);
	err = clGetProgramInfo(prog->id, CL_PROGRAM_CONTEXT, sizeof(owner),
			       &owner, NULL);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetProgramInfo(CONTEXT) of object %u", i);
	if (owner != (cl_context)ctx)
		return plugin_error(-EINVAL,
				    "program_link: object %u belongs to another context",
				    i);
	return 0;
}

int ocl_program_link(struct devimg_plugin_context *ctx,
		     struct devimg_plugin_device *device, unsigned n,
		     struct devimg_plugin_program *const *progs,
		     const char *options, struct devimg_plugin_program **out)
{
	cl_program *ids, id;
	char call[64];
	cl_int err;
	unsigned i;
	int rc;

	if (!ctx || !device || !n || !progs || !out)
		return plugin_error(-EINVAL,
				    "program_link: NULL argument or no objects (n = %u)",
				    n);
	if (!options)
		options = "";
	for (i = 0; i < n; i++) {
		rc = link_input(ctx, device, i, progs[i]);
		if (rc < 0)
			return rc;
	}
	ids = calloc(n, sizeof(*ids));
	if (!ids)
		return plugin_error(-ENOMEM, "out of memory for %u objects", n);
	for (i = 0; i < n; i++)
		ids[i] = progs[i]->id;
	id = clLinkProgram((cl_context)ctx, 1, &device->id, options, n, ids,
			   NULL, NULL, &err);
	free(ids);
	if (err == CL_SUCCESS) {
		rc = program_new(id, device, false, false, out);
		if (rc == 0)
			(*out)->state = OCL_PROGRAM_BUILT;
		return rc;
	}
	if (cannot_separate(err)) {
		rc = ocl_fail(err,
			      "device \"%s\": the OpenCL driver cannot link programs: clLinkProgram",
			      device->name);
	} else {
		snprintf(call, sizeof(call), "clLinkProgram(n = %u)", n);
		rc = build_failed(id, device, err, call, options);
	}
	if (id)
		clReleaseProgram(id);
	return rc;
}

int ocl_program_build_log(struct devimg_plugin_program *prog, char *buf,
			  size_t capacity, size_t *len)
{
	char *log = NULL;
	size_t n;
	int rc;

	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_build_log: NULL argument");
	rc = build_log(prog->id, prog->device->id, &log);
	if (rc < 0)
		return rc;
	n = strlen(log) + 1;
	if (capacity) {
		size_t copy = n < capacity ? n : capacity;

		memcpy(buf, log, copy);
		buf[copy - 1] = '\0';
	}
	*len = n;
	free(log);
	return 0;
}

int ocl_program_binary(struct devimg_plugin_program *prog, void *buf,
		       size_t capacity, size_t *len)
{
	unsigned char *bytes = buf;
	size_t size;
	cl_int err;

	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_binary: NULL argument");
	err = clGetProgramInfo(prog->id, CL_PROGRAM_BINARY_SIZES, sizeof(size),
			       &size, NULL);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetProgramInfo(BINARY_SIZES)");
	if (size == 0)
		return plugin_error(-ENOEXEC,
				    "no binary for \"%s\": the program is not built",
				    prog->device->name);
	if (capacity >= size) {
		err = clGetProgramInfo(prog->id, CL_PROGRAM_BINARIES,
				       sizeof(bytes), &bytes, NULL);
		if (err != CL_SUCCESS)
			return ocl_fail(err, "clGetProgramInfo(BINARIES)");
	}
	*len = size;
	return 0;
}

void ocl_program_release(struct devimg_plugin_program *prog)
{
	if (!prog)
		return;
	clReleaseProgram(prog->id);
	free(prog);
}
