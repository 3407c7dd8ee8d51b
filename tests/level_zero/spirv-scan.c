// SPDX-License-Identifier: MIT
/*
 * One pass over a SPIR-V module in its logical layout (entry points and
 * decorations, then types and constants, then functions), collecting the
 * kernels' parameters, the specialization constants, the imports, the
 * exports and the variables the host may reach by name.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/level_zero/spirv-scan.h"

#define SPV_MAGIC 0x07230203u
#define HEADER_WORDS 5
#define MAX_BOUND (1u << 20)

enum {
	OP_ENTRY_POINT = 15,
	OP_TYPE_BOOL = 20,
	OP_TYPE_INT = 21,
	OP_TYPE_FLOAT = 22,
	OP_TYPE_VECTOR = 23,
	OP_TYPE_ARRAY = 28,
	OP_TYPE_POINTER = 32,
	OP_CONSTANT = 43,
	OP_SPEC_CONSTANT_TRUE = 48,
	OP_SPEC_CONSTANT_FALSE = 49,
	OP_SPEC_CONSTANT = 50,
	OP_FUNCTION = 54,
	OP_FUNCTION_PARAMETER = 55,
	OP_FUNCTION_END = 56,
	OP_VARIABLE = 59,
	OP_DECORATE = 71,
};

enum {
	DECORATION_SPEC_ID = 1,
	DECORATION_LINKAGE_ATTRIBUTES = 41,
	LINKAGE_EXPORT = 0,
	LINKAGE_IMPORT = 1,
	STORAGE_WORKGROUP = 4,
	STORAGE_CROSS_WORKGROUP = 5,
	/* SPV_INTEL_global_variable_host_access: access, then the name */
	DECORATION_HOST_ACCESS_INTEL = 6188,
	EXECUTION_MODEL_KERNEL = 6,
};

/* What one id is, as far as the scan cares. */
struct id_facts {
	uint32_t size;		/* bytes of a type; 0: unknown */
	uint32_t spec_id;	/* SpecId + 1; 0: none */
	bool pointer;
	bool local;		/* a Workgroup pointer */
	uint32_t pointee;	/* a pointer's type */
	uint32_t value;		/* an OpConstant's low word */
	char *name;		/* a variable's HostAccessINTEL/export name */
};

struct spec_candidate {
	uint32_t id, type;
	uint64_t value;
};

struct scan {
	const uint32_t *words;
	size_t nwords;
	uint32_t bound;
	struct id_facts *ids;
	uint32_t *entry_fn;	/* kernel i is function entry_fn[i] */
	struct spec_candidate *cands;
	uint32_t ncands;
	long current;		/* kernel of the parameters; -1: none */
	struct spv_module *m;
	char *err;
	size_t errsize;
};

static int fail(struct scan *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct scan *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, s->errsize, fmt, ap);
	va_end(ap);
	return -1;
}

/* A NUL-terminated literal string in w[at..count); *next: word after it. */
static const char *literal(const uint32_t *w, uint32_t count, uint32_t at,
			   uint32_t *next)
{
	const char *p = (const char *)(w + at);
	size_t max = (size_t)(count - at) * 4;
	size_t len;

	if (at >= count)
		return NULL;
	len = strnlen(p, max);
	if (len == max)
		return NULL;
	*next = at + (uint32_t)(len / 4 + 1);
	return p;
}

static bool id_ok(const struct scan *s, uint32_t id)
{
	return id > 0 && id < s->bound;
}

static int add_entry(struct scan *s, const uint32_t *w, uint32_t count)
{
	struct spv_module *m = s->m;
	struct spv_kernel *k;
	const char *name;
	uint32_t next, *fn;

	if (count < 4 || w[1] != EXECUTION_MODEL_KERNEL)
		return 0;
	name = literal(w, count, 3, &next);
	if (!name)
		return fail(s, "OpEntryPoint: unterminated name");
	k = realloc(m->kernels, (m->nkernels + 1) * sizeof(*k));
	if (k)
		m->kernels = k;
	fn = k ? realloc(s->entry_fn, (m->nkernels + 1) * sizeof(*fn)) : NULL;
	if (fn)
		s->entry_fn = fn;
	if (!fn)
		return fail(s, "out of memory");
	k += m->nkernels;
	memset(k, 0, sizeof(*k));
	k->name = strdup(name);
	if (!k->name)
		return fail(s, "out of memory");
	fn[m->nkernels++] = w[2];
	return 0;
}

/* Append a copy of name to the list *names of *n. */
static int add_name(struct scan *s, char ***names, uint32_t *n,
		    const char *name)
{
	char **v = realloc(*names, (*n + 1) * sizeof(*v));

	if (!v)
		return fail(s, "out of memory");
	*names = v;
	v[*n] = strdup(name);
	if (!v[*n])
		return fail(s, "out of memory");
	++*n;
	return 0;
}

/* Name id, unless a HostAccessINTEL name (first) named it already. */
static int set_name(struct scan *s, uint32_t id, const char *name,
		    bool host_access)
{
	struct id_facts *f = &s->ids[id];

	if (f->name && !host_access)
		return 0;
	free(f->name);
	f->name = strdup(name);
	return f->name ? 0 : fail(s, "out of memory");
}

static int decorate(struct scan *s, const uint32_t *w, uint32_t count)
{
	const char *name;
	uint32_t next;

	if (count < 3 || !id_ok(s, w[1]))
		return fail(s, "OpDecorate: bad operands");
	if (w[2] == DECORATION_SPEC_ID && count >= 4) {
		s->ids[w[1]].spec_id = w[3] + 1;
	} else if (w[2] == DECORATION_HOST_ACCESS_INTEL) {
		name = literal(w, count, 4, &next);
		if (!name)
			return fail(s, "HostAccessINTEL: bad operands");
		return set_name(s, w[1], name, true);
	} else if (w[2] == DECORATION_LINKAGE_ATTRIBUTES) {
		name = literal(w, count, 3, &next);
		if (!name || next >= count)
			return fail(s, "LinkageAttributes: bad operands");
		if (w[next] == LINKAGE_IMPORT)
			return add_name(s, &s->m->imports, &s->m->nimports,
					name);
		if (w[next] == LINKAGE_EXPORT)
			return set_name(s, w[1], name, false) < 0 ? -1 :
			       add_name(s, &s->m->exports, &s->m->nexports,
					name);
	}
	return 0;
}

static int spec_constant(struct scan *s, const uint32_t *w, uint32_t count,
			 uint16_t op)
{
	struct spec_candidate *c;

	if (count < 3 || !id_ok(s, w[2]))
		return fail(s, "OpSpecConstant: bad operands");
	c = realloc(s->cands, (s->ncands + 1) * sizeof(*c));
	if (!c)
		return fail(s, "out of memory");
	s->cands = c;
	c += s->ncands++;
	c->type = w[1];
	c->id = w[2];
	if (op == OP_SPEC_CONSTANT)
		c->value = (count > 3 ? w[3] : 0) |
			   (count > 4 ? (uint64_t)w[4] << 32 : 0);
	else
		c->value = op == OP_SPEC_CONSTANT_TRUE;
	return 0;
}

static int type(struct scan *s, const uint32_t *w, uint32_t count,
		uint16_t op)
{
	struct id_facts *t;

	if (count < 2 || !id_ok(s, w[1]))
		return fail(s, "type %u: bad result id", op);
	t = &s->ids[w[1]];
	switch (op) {
	case OP_TYPE_BOOL:
		t->size = 1;
		break;
	case OP_TYPE_INT:
	case OP_TYPE_FLOAT:
		t->size = count > 2 ? w[2] / 8 : 0;
		break;
	case OP_TYPE_VECTOR:
		if (count > 3 && id_ok(s, w[2]))
			t->size = s->ids[w[2]].size * (w[3] == 3 ? 4 : w[3]);
		break;
	case OP_TYPE_POINTER:
		t->pointer = true;
		t->local = count > 2 && w[2] == STORAGE_WORKGROUP;
		t->pointee = count > 3 && id_ok(s, w[3]) ? w[3] : 0;
		t->size = 8;
		break;
	case OP_TYPE_ARRAY:
		if (count < 4 || !id_ok(s, w[2]) || !id_ok(s, w[3]))
			return fail(s, "OpTypeArray: bad operands");
		if (s->ids[w[3]].value &&
		    s->ids[w[2]].size > UINT32_MAX / s->ids[w[3]].value)
			return fail(s, "OpTypeArray %u: size overflows", w[1]);
		t->size = s->ids[w[2]].size * s->ids[w[3]].value;
		break;
	}
	return 0;
}

static int constant(struct scan *s, const uint32_t *w, uint32_t count)
{
	if (count < 4 || !id_ok(s, w[2]))
		return fail(s, "OpConstant: bad operands");
	s->ids[w[2]].value = w[3];
	return 0;
}

/* A named CrossWorkgroup variable (program scope, as SPIR-V has it). */
static int variable(struct scan *s, const uint32_t *w, uint32_t count)
{
	struct spv_module *m = s->m;
	struct spv_global *g;
	const struct id_facts *v, *t;

	if (count < 4 || !id_ok(s, w[1]) || !id_ok(s, w[2]))
		return fail(s, "OpVariable: bad operands");
	v = &s->ids[w[2]];
	t = &s->ids[w[1]];
	if (w[3] != STORAGE_CROSS_WORKGROUP || !v->name || !t->pointee)
		return 0;
	g = realloc(m->globals, (m->nglobals + 1) * sizeof(*g));
	if (!g)
		return fail(s, "out of memory");
	m->globals = g;
	g += m->nglobals;
	g->name = strdup(v->name);
	if (!g->name)
		return fail(s, "out of memory");
	g->size = s->ids[t->pointee].size;
	m->nglobals++;
	return 0;
}

static int function(struct scan *s, const uint32_t *w, uint32_t count)
{
	uint32_t i;

	if (count < 3)
		return fail(s, "OpFunction: bad operands");
	s->current = -1;
	for (i = 0; i < s->m->nkernels; i++)
		if (s->entry_fn[i] == w[2])
			s->current = i;
	return 0;
}

static int parameter(struct scan *s, const uint32_t *w, uint32_t count)
{
	struct spv_kernel *k;
	struct spv_param *p;
	struct id_facts *t;

	if (s->current < 0)
		return 0;
	if (count < 3 || !id_ok(s, w[1]))
		return fail(s, "OpFunctionParameter: bad operands");
	k = &s->m->kernels[s->current];
	p = realloc(k->params, (k->nparams + 1) * sizeof(*p));
	if (!p)
		return fail(s, "out of memory");
	k->params = p;
	t = &s->ids[w[1]];
	p += k->nparams++;
	p->kind = !t->pointer ? SPV_PARAM_VALUE :
		  t->local ? SPV_PARAM_LOCAL : SPV_PARAM_GLOBAL;
	p->size = t->size;
	return 0;
}

static int instruction(struct scan *s, const uint32_t *w, uint32_t count)
{
	uint16_t op = w[0] & 0xffff;

	switch (op) {
	case OP_ENTRY_POINT:
		return add_entry(s, w, count);
	case OP_DECORATE:
		return decorate(s, w, count);
	case OP_TYPE_BOOL:
	case OP_TYPE_INT:
	case OP_TYPE_FLOAT:
	case OP_TYPE_VECTOR:
	case OP_TYPE_POINTER:
	case OP_TYPE_ARRAY:
		return type(s, w, count, op);
	case OP_CONSTANT:
		return constant(s, w, count);
	case OP_VARIABLE:
		return variable(s, w, count);
	case OP_SPEC_CONSTANT_TRUE:
	case OP_SPEC_CONSTANT_FALSE:
	case OP_SPEC_CONSTANT:
		return spec_constant(s, w, count, op);
	case OP_FUNCTION:
		return function(s, w, count);
	case OP_FUNCTION_PARAMETER:
		return parameter(s, w, count);
	case OP_FUNCTION_END:
		s->current = -1;
		return 0;
	default:
		return 0;
	}
}

/* The SpecId-decorated spec constants, with their sizes and defaults. */
static int collect_specs(struct scan *s)
{
	struct spv_module *m = s->m;
	uint32_t i;

	m->specs = calloc(s->ncands ? s->ncands : 1, sizeof(*m->specs));
	if (!m->specs)
		return fail(s, "out of memory");
	for (i = 0; i < s->ncands; i++) {
		struct spec_candidate *c = &s->cands[i];
		struct spv_spec *sp = &m->specs[m->nspecs];

		if (!s->ids[c->id].spec_id)
			continue;
		sp->spec_id = s->ids[c->id].spec_id - 1;
		sp->size = id_ok(s, c->type) ? s->ids[c->type].size : 0;
		sp->value = c->value;
		m->nspecs++;
	}
	return 0;
}

static int walk(struct scan *s)
{
	size_t pos = HEADER_WORDS;

	while (pos < s->nwords) {
		uint32_t count = s->words[pos] >> 16;

		if (count == 0 || count > s->nwords - pos)
			return fail(s, "instruction at word %zu: word count %u",
				    pos, count);
		if (instruction(s, s->words + pos, count) < 0)
			return -1;
		pos += count;
	}
	return collect_specs(s);
}

int spv_scan(const void *bytes, size_t size, struct spv_module *m,
	     char *err, size_t errsize)
{
	struct scan s = { .m = m, .err = err, .errsize = errsize,
			  .current = -1 };
	uint32_t *words = NULL, i;
	int rc;

	memset(m, 0, sizeof(*m));
	if (size < HEADER_WORDS * 4 || size % 4)
		return fail(&s, "%zu bytes are no SPIR-V module", size);
	/* A copy: the caller's bytes need not be aligned. */
	words = malloc(size);
	if (!words)
		return fail(&s, "out of memory");
	memcpy(words, bytes, size);
	s.words = words;
	s.nwords = size / 4;
	s.bound = words[3];
	if (words[0] != SPV_MAGIC)
		rc = fail(&s, "magic 0x%08x is not little-endian SPIR-V",
			  words[0]);
	else if (s.bound == 0 || s.bound > MAX_BOUND)
		rc = fail(&s, "id bound %u", s.bound);
	else if (!(s.ids = calloc(s.bound, sizeof(*s.ids))))
		rc = fail(&s, "out of memory");
	else
		rc = walk(&s);
	for (i = 0; s.ids && i < s.bound; i++)
		free(s.ids[i].name);
	free(s.ids);
	free(s.entry_fn);
	free(s.cands);
	free(words);
	if (rc < 0)
		spv_module_free(m);
	return rc;
}

void spv_module_free(struct spv_module *m)
{
	uint32_t i;

	for (i = 0; i < m->nkernels; i++) {
		free(m->kernels[i].name);
		free(m->kernels[i].params);
	}
	for (i = 0; i < m->nimports; i++)
		free(m->imports[i]);
	for (i = 0; i < m->nexports; i++)
		free(m->exports[i]);
	for (i = 0; i < m->nglobals; i++)
		free(m->globals[i].name);
	free(m->globals);
	free(m->kernels);
	free(m->imports);
	free(m->exports);
	free(m->specs);
	memset(m, 0, sizeof(*m));
}

const struct spv_kernel *spv_find_kernel(const struct spv_module *m,
					 const char *name)
{
	uint32_t i;

	for (i = 0; i < m->nkernels; i++)
		if (!strcmp(m->kernels[i].name, name))
			return &m->kernels[i];
	return NULL;
}

int spv_exports(const struct spv_module *m, const char *name)
{
	uint32_t i;

	for (i = 0; i < m->nexports; i++)
		if (!strcmp(m->exports[i], name))
			return 1;
	return 0;
}

const struct spv_spec *spv_find_spec(const struct spv_module *m,
				     uint32_t spec_id)
{
	uint32_t i;

	for (i = 0; i < m->nspecs; i++)
		if (m->specs[i].spec_id == spec_id)
			return &m->specs[i];
	return NULL;
}
