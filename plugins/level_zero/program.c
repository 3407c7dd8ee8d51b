// SPDX-License-Identifier: MIT
/*
 * Programs: modules from SPIR-V or native binaries. Level Zero takes the
 * build flags and the specialization constants at zeModuleCreate(), so a
 * program keeps its input and the constants set on it until
 * program_build() or program_compile() creates the module; the module's
 * build log stays with the program for program_build_log() and build
 * errors. Level Zero has no separate compile: a compiled program is a
 * module that may import functions, and program_link() makes a program
 * of the objects' modules, linked with zeModuleDynamicLink(), holding a
 * reference to each (struct lz_group says how long they live).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/level_zero/level_zero.h"

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
	if (prog->state != LZ_PROGRAM_NEW)
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

/* The text of prog's build log then its link log; NULL when both empty. */
static int logs_text(const struct devimg_plugin_program *prog, char **out)
{
	char *build = NULL, *link = NULL;
	size_t n;
	int rc = 0;

	*out = NULL;
	if (prog->log)
		rc = log_text(prog->log, &build);
	if (rc == 0 && prog->link_log)
		rc = log_text(prog->link_log, &link);
	if (rc < 0 || !build || !link) {
		*out = build ? build : link;
		if (rc < 0) {
			free(*out);
			*out = NULL;
		}
		return rc;
	}
	n = strlen(build);
	*out = realloc(build, n + strlen(link) + 1);
	if (!*out) {
		free(build);
		free(link);
		return plugin_error(-ENOMEM, "out of memory for a build log");
	}
	strcpy(*out + n, link);
	free(link);
	return 0;
}

/*
 * After the message of a failed build or link (rc): the log under its
 * heading. Whatever the driver says, a failed build is a build failure.
 */
static int with_log(int rc, const char *heading, char *log)
{
	if (log && log[0]) {
		plugin_error_appendf("\n%s:\n", heading);
		plugin_error_append(log);
	}
	free(log);
	return rc == -ENOMEM ? rc : -ENOEXEC;
}

static void drop_logs(struct devimg_plugin_program *prog)
{
	if (prog->log)
		zeModuleBuildLogDestroy(prog->log);
	if (prog->link_log)
		zeModuleBuildLogDestroy(prog->link_log);
	prog->log = NULL;
	prog->link_log = NULL;
}

/* ---- modules and their groups ---- */

static void group_destroy(struct devimg_plugin_context *ctx,
			  struct lz_group *g)
{
	struct lz_module *m, *next;

	lz_context_drain(ctx);
	for (m = g->first; m; m = next) {
		next = m->next;
		zeModuleDestroy(m->id);
		free(m);
	}
	free(g);
}

static void module_unref(struct devimg_plugin_context *ctx,
			 struct lz_module *m)
{
	struct lz_group *g;
	unsigned left;

	pthread_mutex_lock(&ctx->link_lock);
	g = m->group;
	left = --g->refs;
	pthread_mutex_unlock(&ctx->link_lock);
	/* No reference is left to reach g by: no lock needed. */
	if (!left)
		group_destroy(ctx, g);
}

/*
 * One group of the groups of modules[0..n) (link_lock held), with a
 * reference more for each module: a program linked of them holds them.
 */
static void groups_merge(struct lz_module *const *modules, unsigned n)
{
	struct lz_group *into = modules[0]->group, *g;
	struct lz_module *m, **tail;
	unsigned i;

	for (i = 1; i < n; i++) {
		g = modules[i]->group;
		if (g == into)
			continue;
		for (tail = &into->first; *tail; tail = &(*tail)->next)
			;
		*tail = g->first;
		for (m = g->first; m; m = m->next)
			m->group = into;
		into->refs += g->refs;
		free(g);
	}
	into->refs += n;
}

/* zeModuleCreate() from prog's input, the options and its constants. */
static int module_create(struct devimg_plugin_program *prog,
			 const char *options, const char *op,
			 ze_module_handle_t *out)
{
	ze_module_constants_t consts = { 0 };
	ze_module_desc_t desc = {
		.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
	};
	ze_result_t res;
	char *log = NULL;
	int rc;

	if (!prog)
		return plugin_error(-EINVAL, "%s: NULL program", op);
	if (prog->state != LZ_PROGRAM_NEW)
		return plugin_error(-EINVAL, "%s: \"%s\" program already %s",
				    op, prog->device->name,
				    prog->state == LZ_PROGRAM_COMPILED ?
				    "compiled" : "built");
	drop_logs(prog);
	consts.numConstants = prog->nconsts;
	consts.pConstantIds = prog->const_ids;
	consts.pConstantValues = (const void **)prog->const_values;
	desc.format = prog->format;
	desc.inputSize = prog->size;
	desc.pInputModule = prog->bytes;
	desc.pBuildFlags = options;
	desc.pConstants = &consts;
	*out = NULL;
	res = zeModuleCreate(prog->ctx->id, prog->device->id, &desc, out,
			     &prog->log);
	if (res == ZE_RESULT_SUCCESS)
		return 0;
	*out = NULL;
	logs_text(prog, &log);
	rc = lz_fail(res,
		     "zeModuleCreate(%s, %zu bytes, build flags \"%s\", %u spec constants) for \"%s\"",
		     format_name(prog->format), prog->size, options,
		     (unsigned)prog->nconsts, prog->device->name);
	return with_log(rc, "build log", log);
}

/*
 * A module whose imports nothing resolves is created, and then gives no
 * kernel (ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED). A build links it
 * with itself to fail there instead, with the symbols in the log.
 */
static int module_check_imports(struct devimg_plugin_program *prog,
				ze_module_handle_t id, const char *options)
{
	ze_module_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MODULE_PROPERTIES,
	};
	ze_result_t res;
	char *log = NULL;
	int rc;

	res = zeModuleGetProperties(id, &props);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeModuleGetProperties of the module built for \"%s\"",
			       prog->device->name);
	if (!(props.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS))
		return 0;
	res = zeModuleDynamicLink(1, &id, &prog->link_log);
	if (res == ZE_RESULT_SUCCESS)
		return 0;
	logs_text(prog, &log);
	rc = lz_fail(res,
		     "zeModuleDynamicLink(1 module) to resolve the imports of zeModuleCreate(%s, %zu bytes, build flags \"%s\", %u spec constants) for \"%s\"",
		     format_name(prog->format), prog->size, options,
		     (unsigned)prog->nconsts, prog->device->name);
	return with_log(rc, "build log", log);
}

/* From now on prog holds module id, and no more its input. */
static int program_hold(struct devimg_plugin_program *prog,
			ze_module_handle_t id, enum lz_program_state state)
{
	struct lz_module *m = calloc(1, sizeof(*m));
	struct lz_group *g = m ? calloc(1, sizeof(*g)) : NULL;

	if (!g) {
		free(m);
		zeModuleDestroy(id);
		return plugin_error(-ENOMEM, "out of memory for a module");
	}
	m->id = id;
	m->group = g;
	g->first = m;
	g->refs = 1;
	prog->own = m;
	prog->modules = &prog->own;
	prog->nmodules = 1;
	prog->state = state;
	free(prog->bytes);
	prog->bytes = NULL;
	return 0;
}

int lz_program_build(struct devimg_plugin_program *prog, const char *options)
{
	ze_module_handle_t id;
	int rc;

	if (!options)
		options = "";
	rc = module_create(prog, options, "program_build", &id);
	if (rc < 0)
		return rc;
	rc = module_check_imports(prog, id, options);
	if (rc < 0) {
		zeModuleDestroy(id);
		return rc;
	}
	return program_hold(prog, id, LZ_PROGRAM_BUILT);
}

int lz_program_compile(struct devimg_plugin_program *prog,
		       const char *options)
{
	ze_module_handle_t id;
	int rc;

	if (!options)
		options = "";
	rc = module_create(prog, options, "program_compile", &id);
	if (rc < 0)
		return rc;
	return program_hold(prog, id, LZ_PROGRAM_COMPILED);
}

static const char *state_name(enum lz_program_state state)
{
	switch (state) {
	case LZ_PROGRAM_NEW:
		return "not compiled";
	case LZ_PROGRAM_BUILT:
		return "built, not compiled";
	case LZ_PROGRAM_LINKED:
		return "linked, not compiled";
	default:
		return "compiled";
	}
}

static int check_objects(struct devimg_plugin_context *ctx,
			 struct devimg_plugin_device *device, unsigned n,
			 struct devimg_plugin_program *const *progs)
{
	unsigned i, j;

	if (!ctx || !device || !n || !progs)
		return plugin_error(-EINVAL, "program_link: NULL argument or no objects (n = %u)",
				    n);
	for (i = 0; i < n; i++) {
		const struct devimg_plugin_program *p = progs[i];

		if (!p)
			return plugin_error(-EINVAL, "program_link: object %u is NULL",
					    i);
		if (p->ctx != ctx || p->device != device)
			return plugin_error(-EINVAL,
					    "program_link: object %u is for \"%s\" of another context or device than \"%s\"",
					    i, p->device->name, device->name);
		if (p->state != LZ_PROGRAM_COMPILED)
			return plugin_error(-EINVAL,
					    "program_link: object %u is %s: program_link takes programs made by program_compile",
					    i, state_name(p->state));
		for (j = 0; j < i; j++)
			if (progs[j] == p)
				return plugin_error(-EINVAL,
						    "program_link: object %u is object %u again",
						    i, j);
	}
	return 0;
}

static struct devimg_plugin_program *linked_new(
	struct devimg_plugin_context *ctx, struct devimg_plugin_device *device,
	unsigned n, struct devimg_plugin_program *const *progs)
{
	struct devimg_plugin_program *prog = calloc(1, sizeof(*prog));
	unsigned i;

	if (prog)
		prog->modules = calloc(n, sizeof(*prog->modules));
	if (!prog || !prog->modules) {
		free(prog);
		return NULL;
	}
	prog->ctx = ctx;
	prog->device = device;
	prog->format = progs[0]->format;
	prog->nmodules = n;
	for (i = 0; i < n; i++)
		prog->modules[i] = progs[i]->own;
	return prog;
}

/*
 * Link the modules of prog (link_lock held: Level Zero forbids linking
 * the same module from two threads at once); on success prog holds them.
 */
static ze_result_t link_modules(struct devimg_plugin_program *prog)
{
	ze_module_handle_t *ids;
	ze_result_t res;
	unsigned i;

	ids = calloc(prog->nmodules, sizeof(*ids));
	if (!ids)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	for (i = 0; i < prog->nmodules; i++)
		ids[i] = prog->modules[i]->id;
	res = zeModuleDynamicLink(prog->nmodules, ids, &prog->link_log);
	if (res == ZE_RESULT_SUCCESS)
		groups_merge(prog->modules, prog->nmodules);
	free(ids);
	return res;
}

int lz_program_link(struct devimg_plugin_context *ctx,
		    struct devimg_plugin_device *device, unsigned n,
		    struct devimg_plugin_program *const *progs,
		    const char *options, struct devimg_plugin_program **out)
{
	struct devimg_plugin_program *prog;
	ze_result_t res;
	char *log = NULL;
	int rc;

	(void)options;	/* zeModuleDynamicLink takes none */
	rc = check_objects(ctx, device, n, progs);
	if (rc < 0)
		return rc;
	if (!out)
		return plugin_error(-EINVAL, "program_link: NULL out");
	prog = linked_new(ctx, device, n, progs);
	if (!prog)
		return plugin_error(-ENOMEM, "out of memory for a program of %u objects",
				    n);
	pthread_mutex_lock(&ctx->link_lock);
	res = link_modules(prog);
	pthread_mutex_unlock(&ctx->link_lock);
	if (res == ZE_RESULT_SUCCESS) {
		prog->state = LZ_PROGRAM_LINKED;
		*out = prog;
		return 0;
	}
	logs_text(prog, &log);
	rc = lz_fail(res, "zeModuleDynamicLink(%u module(s)) for \"%s\"", n,
		     device->name);
	rc = with_log(rc, "link log", log);
	drop_logs(prog);
	free(prog->modules);
	free(prog);
	return rc;
}

int lz_program_build_log(struct devimg_plugin_program *prog, char *buf,
			 size_t capacity, size_t *len)
{
	char *log = NULL;
	size_t n;
	int rc;

	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_build_log: NULL argument");
	rc = logs_text(prog, &log);
	if (rc < 0)
		return rc;
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
	ze_module_handle_t id;
	size_t size = 0;
	ze_result_t res;

	if (!prog || !len || (capacity && !buf))
		return plugin_error(-EINVAL, "program_binary: NULL argument");
	if (prog->state == LZ_PROGRAM_LINKED)
		return plugin_error(-ENOTSUP,
				    "no binary for \"%s\": a linked program is %u Level Zero modules, each with its own binary",
				    prog->device->name, prog->nmodules);
	if (prog->state != LZ_PROGRAM_BUILT)
		return plugin_error(-ENOEXEC,
				    "no binary for \"%s\": the program is not built",
				    prog->device->name);
	id = prog->modules[0]->id;
	res = zeModuleGetNativeBinary(id, &size, NULL);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeModuleGetNativeBinary");
	if (size && capacity >= size) {
		res = zeModuleGetNativeBinary(id, &size, buf);
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
	for (i = 0; i < prog->nmodules; i++)
		module_unref(prog->ctx, prog->modules[i]);
	if (prog->modules != &prog->own)
		free(prog->modules);
	drop_logs(prog);
	for (i = 0; i < prog->nconsts; i++)
		free(prog->const_values[i]);
	free(prog->const_values);
	free(prog->const_ids);
	free(prog->bytes);
	free(prog);
}
