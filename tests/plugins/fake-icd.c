// SPDX-License-Identifier: MIT
/*
 * A fake OpenCL driver, loaded by the ICD loader (ocl-icd) through an
 * .icd file that OCL_ICD_VENDORS names: one platform "devimg fake OpenCL"
 * with one GPU device "devimg fake GPU" (OpenCL 1.2, cl_khr_il_program,
 * cl_intel_global_variable_access, cl_intel_global_variable_pointers).
 *
 * Programs come from SPIR-V only. Their variables are what the OpenCL
 * SPIR-V environment gives cl_intel_global_variable_access: each
 * CrossWorkgroup OpVariable named by a HostAccessINTEL decoration (looked
 * up first) or by an Export LinkageAttributes decoration. Its bytes live
 * in host memory, sized from the variable's type (integers, floats,
 * vectors, arrays, structs without padding, pointers of 8 bytes), zero or
 * the OpConstant it is initialised with; HostAccessINTEL's access mode
 * (6188, SPV_INTEL_global_variable_host_access, or 6147 as
 * SPV_INTEL_global_variable_decorations numbers it) says what the host
 * may do. Commands run at once, in order; events are not made.
 *
 * The entry points the OpenCL plugin calls to enumerate, make contexts,
 * queues and programs, build them and reach their variables are real.
 * The other object constructors the plugin calls (buffers, kernels,
 * programs from binaries, links) return NULL with CL_INVALID_OPERATION;
 * every other slot of the dispatch table returns CL_INVALID_OPERATION as
 * a cl_int, right for the entry points that return one (all the plugin
 * calls), not for other constructors.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static struct _cl_icd_dispatch dispatch;

struct _cl_platform_id {
	const struct _cl_icd_dispatch *dispatch;
};

struct _cl_device_id {
	const struct _cl_icd_dispatch *dispatch;
};

/* How contexts, queues and programs begin: the loader reads dispatch. */
struct object {
	const struct _cl_icd_dispatch *dispatch;
	unsigned refs;
};

struct _cl_context {
	struct object o;
};

struct _cl_command_queue {
	struct object o;
	cl_context ctx;
};

/* Host access, as bits. */
#define HOST_READ 1u
#define HOST_WRITE 2u

struct variable {
	const char *access_name;	/* HostAccessINTEL's, or NULL */
	const char *export_name;	/* LinkageAttributes Export's, or NULL */
	unsigned access;
	size_t size;
	unsigned char *bytes;
};

struct _cl_program {
	struct object o;
	cl_context ctx;
	bool built;
	uint32_t *words;		/* the SPIR-V; names point into it */
	size_t nwords;
	unsigned nvars;
	struct variable *vars;
};

static struct _cl_platform_id platform = { &dispatch };
static struct _cl_device_id device = { &dispatch };

#define PLATFORM_EXTENSIONS "cl_khr_icd cl_khr_il_program"
#define DEVICE_EXTENSIONS \
	"cl_khr_il_program cl_intel_global_variable_access " \
	"cl_intel_global_variable_pointers"

/* ---- info queries ---- */

static cl_int info(const void *v, size_t n, size_t size, void *value,
		   size_t *ret)
{
	if (value && size < n)
		return CL_INVALID_VALUE;
	if (value)
		memcpy(value, v, n);
	if (ret)
		*ret = n;
	return CL_SUCCESS;
}

static cl_int info_string(const char *s, size_t size, void *value,
			  size_t *ret)
{
	return info(s, strlen(s) + 1, size, value, ret);
}

/* What a clGet*Info query answers: a value of size bytes, or a string. */
struct property {
	cl_uint what;
	const void *value;
	size_t size;		/* 0: value is a string */
};

#define STRING(what, s) { what, s, 0 }
#define VALUE(what, v) { what, &v, sizeof(v) }

static const struct property platform_properties[] = {
	STRING(CL_PLATFORM_PROFILE, "FULL_PROFILE"),
	STRING(CL_PLATFORM_VERSION, "OpenCL 1.2 devimg-fake"),
	STRING(CL_PLATFORM_NAME, "devimg fake OpenCL"),
	STRING(CL_PLATFORM_VENDOR, "devimg"),
	STRING(CL_PLATFORM_EXTENSIONS, PLATFORM_EXTENSIONS),
	STRING(CL_PLATFORM_ICD_SUFFIX_KHR, "FAKE"),
};

static const cl_device_type gpu = CL_DEVICE_TYPE_GPU;
static const cl_uint one = 1, three = 3, address_bits = 64;
static const cl_bool yes = CL_TRUE;
static const size_t group_size = 256, item_sizes[3] = { 256, 256, 256 };
static const cl_ulong local_mem = 65536, global_mem = 1u << 30;
static const cl_command_queue_properties no_queue_properties;
static const cl_platform_id the_platform = &platform;

static const struct property device_properties[] = {
	STRING(CL_DEVICE_NAME, "devimg fake GPU"),
	STRING(CL_DEVICE_VENDOR, "devimg"),
	STRING(CL_DEVICE_VERSION, "OpenCL 1.2 devimg-fake"),
	STRING(CL_DRIVER_VERSION, "1.0"),
	STRING(CL_DEVICE_EXTENSIONS, DEVICE_EXTENSIONS),
	STRING(CL_DEVICE_IL_VERSION_KHR, "SPIR-V_1.0"),
	VALUE(CL_DEVICE_TYPE, gpu),
	VALUE(CL_DEVICE_MAX_COMPUTE_UNITS, one),
	VALUE(CL_DEVICE_ADDRESS_BITS, address_bits),
	VALUE(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, three),
	VALUE(CL_DEVICE_MAX_WORK_ITEM_SIZES, item_sizes),
	VALUE(CL_DEVICE_MAX_WORK_GROUP_SIZE, group_size),
	VALUE(CL_DEVICE_LOCAL_MEM_SIZE, local_mem),
	VALUE(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem),
	VALUE(CL_DEVICE_COMPILER_AVAILABLE, yes),
	VALUE(CL_DEVICE_LINKER_AVAILABLE, yes),
	VALUE(CL_DEVICE_AVAILABLE, yes),
	VALUE(CL_DEVICE_QUEUE_PROPERTIES, no_queue_properties),
	VALUE(CL_DEVICE_PLATFORM, the_platform),
};

static cl_int lookup(const struct property *table, size_t n, cl_uint what,
		     size_t size, void *value, size_t *ret)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (table[i].what != what)
			continue;
		if (!table[i].size)
			return info_string(table[i].value, size, value, ret);
		return info(table[i].value, table[i].size, size, value, ret);
	}
	return CL_INVALID_VALUE;
}

#define LOOKUP(table, what, size, value, ret) \
	lookup(table, sizeof(table) / sizeof(table[0]), what, size, value, ret)

static cl_int CL_API_CALL platform_info(cl_platform_id pl,
					cl_platform_info what, size_t size,
					void *value, size_t *ret)
{
	if (pl != &platform)
		return CL_INVALID_PLATFORM;
	return LOOKUP(platform_properties, what, size, value, ret);
}

static cl_int CL_API_CALL device_info(cl_device_id dev, cl_device_info what,
				      size_t size, void *value, size_t *ret)
{
	if (dev != &device)
		return CL_INVALID_DEVICE;
	return LOOKUP(device_properties, what, size, value, ret);
}

static cl_int CL_API_CALL device_ids(cl_platform_id pl, cl_device_type type,
				     cl_uint n, cl_device_id *out,
				     cl_uint *count)
{
	bool match = type == CL_DEVICE_TYPE_ALL ||
		     (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));

	if (pl != &platform)
		return CL_INVALID_PLATFORM;
	if ((!out && !count) || (out && !n))
		return CL_INVALID_VALUE;
	if (count)
		*count = match;
	if (!match)
		return CL_DEVICE_NOT_FOUND;
	if (out)
		out[0] = &device;
	return CL_SUCCESS;
}

/* ---- contexts and queues ---- */

static cl_context CL_API_CALL context_create(
	const cl_context_properties *props, cl_uint n,
	const cl_device_id *devices,
	void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
	void *data, cl_int *err)
{
	struct _cl_context *ctx;
	cl_int e = CL_SUCCESS;
	cl_uint i;

	(void)notify;
	(void)data;
	for (i = 0; props && props[i]; i += 2)
		if (props[i] == CL_CONTEXT_PLATFORM &&
		    props[i + 1] != (cl_context_properties)&platform)
			e = CL_INVALID_PLATFORM;
	if (!n || !devices)
		e = CL_INVALID_VALUE;
	for (i = 0; e == CL_SUCCESS && i < n; i++)
		if (devices[i] != &device)
			e = CL_INVALID_DEVICE;
	ctx = e == CL_SUCCESS ? calloc(1, sizeof(*ctx)) : NULL;
	if (e == CL_SUCCESS && !ctx)
		e = CL_OUT_OF_HOST_MEMORY;
	if (ctx)
		ctx->o = (struct object){ &dispatch, 1 };
	if (err)
		*err = e;
	return ctx;
}

/* Drop a reference to o (NULL: invalid); free it, the last one gone. */
static cl_int release(struct object *o, cl_int invalid)
{
	if (!o)
		return invalid;
	if (--o->refs == 0)
		free(o);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL context_release(cl_context ctx)
{
	return release(ctx ? &ctx->o : NULL, CL_INVALID_CONTEXT);
}

static cl_command_queue CL_API_CALL queue_create(cl_context ctx,
						 cl_device_id dev,
						 cl_command_queue_properties p,
						 cl_int *err)
{
	struct _cl_command_queue *q = NULL;
	cl_int e = CL_SUCCESS;

	if (!ctx)
		e = CL_INVALID_CONTEXT;
	else if (dev != &device)
		e = CL_INVALID_DEVICE;
	else if (p)
		e = CL_INVALID_QUEUE_PROPERTIES;
	else if (!(q = calloc(1, sizeof(*q))))
		e = CL_OUT_OF_HOST_MEMORY;
	if (q) {
		q->o = (struct object){ &dispatch, 1 };
		q->ctx = ctx;
	}
	if (err)
		*err = e;
	return q;
}

static cl_int CL_API_CALL queue_finish(cl_command_queue q)
{
	return q ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

static cl_int CL_API_CALL queue_release(cl_command_queue q)
{
	return release(q ? &q->o : NULL, CL_INVALID_COMMAND_QUEUE);
}

/* ---- SPIR-V: the module's program-scope variables ---- */

enum {
	OP_DECORATE = 71,
	OP_TYPE_INT = 21,
	OP_TYPE_FLOAT = 22,
	OP_TYPE_VECTOR = 23,
	OP_TYPE_ARRAY = 28,
	OP_TYPE_STRUCT = 30,
	OP_TYPE_POINTER = 32,
	OP_CONSTANT = 43,
	OP_CONSTANT_COMPOSITE = 44,
	OP_VARIABLE = 59,
	DEC_LINKAGE = 41,
	DEC_HOST_ACCESS_OLD = 6147,	/* read, write, read_write, none */
	DEC_HOST_ACCESS = 6188,		/* none, read, write, read_write */
	STORAGE_CROSS_WORKGROUP = 5,
	LINKAGE_EXPORT = 0,
	MAX_BOUND = 1u << 20,
};

/* What the parse keeps of each id. */
struct id_info {
	size_t size;		/* a type's bytes; 0: unknown */
	uint32_t pointee;	/* a pointer type's */
	const uint32_t *value;	/* an OpConstant(Composite)'s operands */
	uint32_t nvalue;
	uint32_t type;		/* a constant's type */
	bool composite;
	int var;		/* index in vars + 1; 0: not a variable */
	uint32_t init;		/* a variable's initializer id */
};

/* A literal string at w[0..n) and the words it takes; false: unterminated. */
static bool literal(const uint32_t *w, uint32_t n, const char **s,
		    uint32_t *words)
{
	const char *c = (const char *)w;
	size_t len = strnlen(c, (size_t)n * 4);

	if (len == (size_t)n * 4)
		return false;
	*s = c;
	*words = (uint32_t)(len / 4 + 1);
	return true;
}

static size_t mul_or_zero(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? 0 : r;
}

/* One type-declaring instruction into ids (ops[0..n)). */
static void note_id(struct id_info *ids, uint32_t bound, uint32_t op,
		    const uint32_t *ops, uint32_t n)
{
	struct id_info *t;
	uint64_t len;
	size_t sum = 0, add;
	uint32_t i;

	if (n < 1 || ops[0] >= bound)
		return;
	t = &ids[ops[0]];
	switch (op) {
	case OP_TYPE_INT:
	case OP_TYPE_FLOAT:
		if (n >= 2)
			t->size = ops[1] / 8;
		break;
	case OP_TYPE_VECTOR:
		if (n >= 3 && ops[1] < bound)
			t->size = mul_or_zero(ids[ops[1]].size,
					      ops[2] == 3 ? 4 : ops[2]);
		break;
	case OP_TYPE_ARRAY:
		if (n >= 3 && ops[1] < bound && ops[2] < bound &&
		    ids[ops[2]].nvalue) {
			len = ids[ops[2]].value[0];
			if (ids[ops[2]].nvalue > 1)
				len |= (uint64_t)ids[ops[2]].value[1] << 32;
			if (len <= SIZE_MAX)
				t->size = mul_or_zero(ids[ops[1]].size,
						      (size_t)len);
		}
		break;
	case OP_TYPE_STRUCT:
		for (i = 1; i < n; i++) {
			add = ops[i] < bound ? ids[ops[i]].size : 0;
			if (!add || __builtin_add_overflow(sum, add, &sum)) {
				sum = 0;
				break;
			}
		}
		t->size = sum;
		break;
	case OP_TYPE_POINTER:
		if (n >= 3) {
			t->size = 8;
			t->pointee = ops[2];
		}
		break;
	}
}

/*
 * Constants and OpVariable, whose result id is their second operand:
 * CL_INVALID_VALUE when that id is out of bounds or already a variable.
 */
static cl_int note_value(cl_program prog, struct id_info *ids,
			 uint32_t bound, uint32_t op, const uint32_t *ops,
			 uint32_t n)
{
	struct variable *v;

	if (n < 2)
		return CL_SUCCESS;
	if (ops[1] >= bound || ids[ops[1]].var)
		return CL_INVALID_VALUE;
	if ((op == OP_CONSTANT || op == OP_CONSTANT_COMPOSITE) && n >= 3) {
		ids[ops[1]].type = ops[0];
		ids[ops[1]].value = ops + 2;
		ids[ops[1]].nvalue = n - 2;
		ids[ops[1]].composite = op == OP_CONSTANT_COMPOSITE;
		return CL_SUCCESS;
	}
	if (op != OP_VARIABLE || n < 3 || ops[2] != STORAGE_CROSS_WORKGROUP)
		return CL_SUCCESS;
	v = realloc(prog->vars, (prog->nvars + 1) * sizeof(*v));
	if (!v)
		return CL_OUT_OF_HOST_MEMORY;
	prog->vars = v;
	v = &prog->vars[prog->nvars++];
	memset(v, 0, sizeof(*v));
	v->access = HOST_READ | HOST_WRITE;
	if (ops[0] < bound && ids[ops[0]].pointee < bound)
		v->size = ids[ids[ops[0]].pointee].size;
	ids[ops[1]].var = (int)prog->nvars;
	ids[ops[1]].init = n >= 4 ? ops[3] : 0;
	return CL_SUCCESS;
}

static unsigned access_bits(uint32_t dec, uint32_t mode)
{
	static const unsigned old[] = { HOST_READ, HOST_WRITE,
					HOST_READ | HOST_WRITE, 0 };
	static const unsigned now[] = { 0, HOST_READ, HOST_WRITE,
					HOST_READ | HOST_WRITE };

	if (mode > 3)
		return 0;
	return dec == DEC_HOST_ACCESS ? now[mode] : old[mode];
}

/* The decorations naming variables: a second pass, once ids are known. */
static void note_decoration(cl_program prog, const struct id_info *ids,
			    uint32_t bound, const uint32_t *ops, uint32_t n)
{
	struct variable *v;
	const char *name;
	uint32_t used;

	if (n < 3 || ops[0] >= bound || !ids[ops[0]].var)
		return;
	v = &prog->vars[ids[ops[0]].var - 1];
	if (ops[1] == DEC_LINKAGE &&
	    literal(ops + 2, n - 2, &name, &used) && used < n - 2 &&
	    ops[2 + used] == LINKAGE_EXPORT)
		v->export_name = name;
	if ((ops[1] == DEC_HOST_ACCESS || ops[1] == DEC_HOST_ACCESS_OLD) &&
	    n >= 4 && literal(ops + 3, n - 3, &name, &used)) {
		v->access_name = name;
		v->access = access_bits(ops[1], ops[2]);
	}
}

/*
 * The bytes of constant id into dst (size bytes): an OpConstant's words,
 * an OpConstantComposite's constituents one after the other; what is not
 * a constant (OpConstantNull among them) stays zero.
 */
static void put_constant(const struct id_info *ids, uint32_t bound,
			 uint32_t id, unsigned char *dst, size_t size,
			 unsigned depth)
{
	const struct id_info *c = id < bound ? &ids[id] : NULL;
	size_t n, off = 0, part;
	uint32_t i;

	if (!c || !c->nvalue || depth > 8)
		return;
	if (!c->composite) {
		n = (size_t)c->nvalue * 4;
		memcpy(dst, c->value, n < size ? n : size);
		return;
	}
	for (i = 0; i < c->nvalue && off < size; i++) {
		if (c->value[i] >= bound)
			return;
		part = ids[c->value[i]].type < bound ?
		       ids[ids[c->value[i]].type].size : 0;
		if (!part || part > size - off)
			return;
		put_constant(ids, bound, c->value[i], dst + off, part,
			     depth + 1);
		off += part;
	}
}

/* Give each variable its bytes: zero, or its constant initializer. */
static cl_int allocate(cl_program prog, const struct id_info *ids,
		    uint32_t bound)
{
	struct variable *v;
	uint32_t id;

	for (id = 0; id < bound; id++) {
		if (!ids[id].var)
			continue;
		v = &prog->vars[ids[id].var - 1];
		v->bytes = calloc(1, v->size ? v->size : 1);
		if (!v->bytes)
			return CL_OUT_OF_HOST_MEMORY;
		put_constant(ids, bound, ids[id].init, v->bytes, v->size, 0);
	}
	return CL_SUCCESS;
}

/*
 * Find prog's variables: CL_SUCCESS, CL_INVALID_VALUE for a malformed
 * module (what is only unusual, such as a type of unknown size, is not).
 */
static cl_int parse(cl_program prog)
{
	const uint32_t *w = prog->words;
	struct id_info *ids;
	uint32_t bound, wc, op;
	size_t i;
	int pass;
	cl_int rc = CL_SUCCESS;

	if (prog->nwords < 5 || w[0] != 0x07230203u || w[3] == 0 ||
	    w[3] > MAX_BOUND)
		return CL_INVALID_VALUE;
	bound = w[3];
	for (i = 5; i < prog->nwords; i += wc) {
		wc = w[i] >> 16;
		if (wc == 0 || wc > prog->nwords - i)
			return CL_INVALID_VALUE;
	}
	ids = calloc(bound, sizeof(*ids));
	if (!ids)
		return CL_OUT_OF_HOST_MEMORY;
	for (pass = 0; pass < 2 && rc == CL_SUCCESS; pass++) {
		for (i = 5; i < prog->nwords && rc == CL_SUCCESS; i += wc) {
			wc = w[i] >> 16;
			op = w[i] & 0xffff;
			if (pass == 1 && op == OP_DECORATE)
				note_decoration(prog, ids, bound, w + i + 1,
						wc - 1);
			else if (pass == 0 && (op == OP_CONSTANT ||
					       op == OP_CONSTANT_COMPOSITE ||
					       op == OP_VARIABLE))
				rc = note_value(prog, ids, bound, op, w + i + 1,
						wc - 1);
			else if (pass == 0)
				note_id(ids, bound, op, w + i + 1, wc - 1);
		}
	}
	if (rc == CL_SUCCESS)
		rc = allocate(prog, ids, bound);
	free(ids);
	return rc;
}

/* ---- programs ---- */

static cl_int CL_API_CALL program_release(cl_program prog)
{
	unsigned i;

	if (!prog)
		return CL_INVALID_PROGRAM;
	if (--prog->o.refs)
		return CL_SUCCESS;
	for (i = 0; i < prog->nvars; i++)
		free(prog->vars[i].bytes);
	free(prog->vars);
	free(prog->words);
	free(prog);
	return CL_SUCCESS;
}

static cl_program CL_API_CALL program_create_il(cl_context ctx,
						const void *il, size_t size,
						cl_int *err)
{
	struct _cl_program *prog = NULL;
	cl_int e = CL_SUCCESS;

	if (!ctx)
		e = CL_INVALID_CONTEXT;
	else if (!il || !size || size % 4)
		e = CL_INVALID_VALUE;
	else if (!(prog = calloc(1, sizeof(*prog))))
		e = CL_OUT_OF_HOST_MEMORY;
	if (prog) {
		prog->o = (struct object){ &dispatch, 1 };
		prog->words = malloc(size);
		if (!prog->words)
			e = CL_OUT_OF_HOST_MEMORY;
	}
	if (e == CL_SUCCESS) {
		prog->ctx = ctx;
		prog->nwords = size / 4;
		memcpy(prog->words, il, size);
		e = parse(prog);
	}
	if (e != CL_SUCCESS && prog) {
		program_release(prog);
		prog = NULL;
	}
	if (err)
		*err = e;
	return prog;
}

static cl_int CL_API_CALL program_build(cl_program prog, cl_uint n,
					const cl_device_id *devices,
					const char *options,
					void (CL_CALLBACK *notify)(cl_program,
								   void *),
					void *data)
{
	(void)options;
	(void)data;
	if (!prog)
		return CL_INVALID_PROGRAM;
	if ((n && !devices) || (!n && devices) || (n && devices[0] != &device))
		return CL_INVALID_DEVICE;
	prog->built = true;
	if (notify)
		notify(prog, data);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL program_build_info(cl_program prog,
					     cl_device_id dev,
					     cl_program_build_info what,
					     size_t size, void *value,
					     size_t *ret)
{
	cl_build_status status;

	if (!prog)
		return CL_INVALID_PROGRAM;
	if (dev != &device)
		return CL_INVALID_DEVICE;
	switch (what) {
	case CL_PROGRAM_BUILD_LOG:
	case CL_PROGRAM_BUILD_OPTIONS:
		return info_string("", size, value, ret);
	case CL_PROGRAM_BUILD_STATUS:
		status = prog->built ? CL_BUILD_SUCCESS : CL_BUILD_NONE;
		return info(&status, sizeof(status), size, value, ret);
	default:
		return CL_INVALID_VALUE;
	}
}

static cl_int CL_API_CALL program_info(cl_program prog, cl_program_info what,
				       size_t size, void *value, size_t *ret)
{
	if (!prog)
		return CL_INVALID_PROGRAM;
	if (what == CL_PROGRAM_CONTEXT)
		return info(&prog->ctx, sizeof(prog->ctx), size, value, ret);
	if (what == CL_PROGRAM_REFERENCE_COUNT)
		return info(&prog->o.refs, sizeof(cl_uint), size, value, ret);
	return CL_INVALID_VALUE;
}

/* ---- cl_intel_global_variable_access and _pointers ---- */

/* The variable name of prog, as the SPIR-V environment looks it up. */
static struct variable *find_variable(cl_program prog, const char *name)
{
	unsigned i;

	for (i = 0; i < prog->nvars; i++)
		if (prog->vars[i].access_name &&
		    strcmp(prog->vars[i].access_name, name) == 0)
			return &prog->vars[i];
	for (i = 0; i < prog->nvars; i++)
		if (prog->vars[i].export_name &&
		    strcmp(prog->vars[i].export_name, name) == 0)
			return &prog->vars[i];
	return NULL;
}

/* The checks both extensions make of the program, the name and ptr. */
static cl_int program_variable(cl_program prog, const char *name,
			       const void *ptr, struct variable **out)
{
	if (!prog)
		return CL_INVALID_PROGRAM;
	if (!prog->built)
		return CL_INVALID_PROGRAM_EXECUTABLE;
	if (!name || !ptr)
		return CL_INVALID_VALUE;
	*out = find_variable(prog, name);
	return *out ? CL_SUCCESS : CL_INVALID_ARG_VALUE;
}

/*
 * Either command: the checks in the extension's order of errors, then the
 * copy between the host's ptr and the variable (into it for HOST_WRITE),
 * done at once whether blocking or not.
 */
static cl_int copy_variable(cl_command_queue q, cl_program prog,
			    const char *name, size_t size, size_t offset,
			    void *ptr, cl_uint nevents, const cl_event *events,
			    cl_event *event, unsigned need)
{
	struct variable *v = NULL;
	size_t end;
	cl_int err;

	if (!q)
		return CL_INVALID_COMMAND_QUEUE;
	if (prog && q->ctx != prog->ctx)
		return CL_INVALID_CONTEXT;
	if ((nevents && !events) || (!nevents && events))
		return CL_INVALID_EVENT_WAIT_LIST;
	err = program_variable(prog, name, ptr, &v);
	if (err != CL_SUCCESS)
		return err;
	if (__builtin_add_overflow(offset, size, &end) || end > v->size)
		return CL_INVALID_VALUE;
	if ((v->access & need) != need)
		return CL_INVALID_OPERATION;
	if (need == HOST_WRITE)
		memcpy(v->bytes + offset, ptr, size);
	else
		memcpy(ptr, v->bytes + offset, size);
	if (event)
		*event = NULL;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL write_variable(cl_command_queue q, cl_program prog,
					 const char *name, cl_bool blocking,
					 size_t size, size_t offset,
					 const void *ptr, cl_uint nevents,
					 const cl_event *events,
					 cl_event *event)
{
	(void)blocking;
	return copy_variable(q, prog, name, size, offset,
			     (void *)(uintptr_t)ptr, nevents, events, event,
			     HOST_WRITE);
}

static cl_int CL_API_CALL read_variable(cl_command_queue q, cl_program prog,
					const char *name, cl_bool blocking,
					size_t size, size_t offset, void *ptr,
					cl_uint nevents, const cl_event *events,
					cl_event *event)
{
	(void)blocking;
	return copy_variable(q, prog, name, size, offset, ptr, nevents,
			     events, event, HOST_READ);
}

static cl_int CL_API_CALL variable_pointer(cl_device_id dev, cl_program prog,
					   const char *name, size_t *size,
					   void **ptr)
{
	struct variable *v = NULL;
	cl_int err;

	if (dev != &device)
		return CL_INVALID_DEVICE;
	err = program_variable(prog, name, ptr, &v);
	if (err != CL_SUCCESS)
		return err;
	if (size)
		*size = v->size;
	*ptr = v->bytes;
	return CL_SUCCESS;
}

/* ---- entry points and the dispatch table ---- */

static pthread_once_t dispatch_once = PTHREAD_ONCE_INIT;
static void dispatch_init(void);

static cl_int CL_API_CALL platform_ids(cl_uint n, cl_platform_id *out,
				       cl_uint *count)
{
	pthread_once(&dispatch_once, dispatch_init);
	if ((!out && !count) || (out && !n))
		return CL_INVALID_VALUE;
	if (out)
		out[0] = &platform;
	if (count)
		*count = 1;
	return CL_SUCCESS;
}

static void *extension_function(const char *name)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} fns[] = {
#define FN(name, fn) { name, (void (*)(void))fn }
		FN("clCreateProgramWithILKHR", program_create_il),
		FN("clEnqueueWriteGlobalVariableINTEL", write_variable),
		FN("clEnqueueReadGlobalVariableINTEL", read_variable),
		FN("clGetDeviceGlobalVariablePointerINTEL", variable_pointer),
		FN("clIcdGetPlatformIDsKHR", platform_ids),
#undef FN
	};
	size_t i;

	for (i = 0; name && i < sizeof(fns) / sizeof(fns[0]); i++)
		if (strcmp(name, fns[i].name) == 0)
			return (void *)(uintptr_t)fns[i].fn;
	return NULL;
}

static void *CL_API_CALL extension_address_for(cl_platform_id pl,
					       const char *name)
{
	return pl == &platform ? extension_function(name) : NULL;
}

/* What every entry point the fake does not implement answers. */
static cl_int CL_API_CALL unsupported(void)
{
	return CL_INVALID_OPERATION;
}

/* And the constructors the plugin calls, through errcode_ret. */
static void *refused(cl_int *err)
{
	if (err)
		*err = CL_INVALID_OPERATION;
	return NULL;
}

static cl_mem CL_API_CALL no_buffer(cl_context ctx, cl_mem_flags flags,
				    size_t size, void *host, cl_int *err)
{
	(void)ctx;
	(void)flags;
	(void)size;
	(void)host;
	return refused(err);
}

static cl_kernel CL_API_CALL no_kernel(cl_program prog, const char *name,
				       cl_int *err)
{
	(void)prog;
	(void)name;
	return refused(err);
}

static cl_program CL_API_CALL no_binary(cl_context ctx, cl_uint n,
					const cl_device_id *devices,
					const size_t *sizes,
					const unsigned char **binaries,
					cl_int *status, cl_int *err)
{
	(void)ctx;
	(void)n;
	(void)devices;
	(void)sizes;
	(void)binaries;
	(void)status;
	return refused(err);
}

static cl_program CL_API_CALL no_link(cl_context ctx, cl_uint n,
				      const cl_device_id *devices,
				      const char *options, cl_uint ninputs,
				      const cl_program *inputs,
				      void (CL_CALLBACK *notify)(cl_program,
								 void *),
				      void *data, cl_int *err)
{
	(void)ctx;
	(void)n;
	(void)devices;
	(void)options;
	(void)ninputs;
	(void)inputs;
	(void)notify;
	(void)data;
	return refused(err);
}

/* What the fake implements; dispatch_init() fills the other slots. */
static struct _cl_icd_dispatch dispatch = {
	.clGetPlatformInfo = platform_info,
	.clGetDeviceIDs = device_ids,
	.clGetDeviceInfo = device_info,
	.clCreateContext = context_create,
	.clReleaseContext = context_release,
	.clCreateCommandQueue = queue_create,
	.clFinish = queue_finish,
	.clReleaseCommandQueue = queue_release,
	.clCreateProgramWithIL = program_create_il,
	.clBuildProgram = program_build,
	.clGetProgramBuildInfo = program_build_info,
	.clGetProgramInfo = program_info,
	.clReleaseProgram = program_release,
	.clGetExtensionFunctionAddressForPlatform = extension_address_for,
	.clCreateBuffer = no_buffer,
	.clCreateKernel = no_kernel,
	.clCreateProgramWithBinary = no_binary,
	.clLinkProgram = no_link,
};

static void dispatch_init(void)
{
	void (*stub)(void) = (void (*)(void))unsupported;
	void (*slot)(void);
	unsigned char *p = (unsigned char *)&dispatch;
	size_t i;

	/* Every slot is a function pointer: CL_INVALID_OPERATION. */
	for (i = 0; i + sizeof(slot) <= sizeof(dispatch); i += sizeof(slot)) {
		memcpy(&slot, p + i, sizeof(slot));
		if (!slot)
			memcpy(p + i, &stub, sizeof(stub));
	}
}

EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n,
						 cl_platform_id *out,
						 cl_uint *count)
{
	return platform_ids(n, out, count);
}

EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
	return extension_function(name);
}

/* ocl-icd wants it exported to recognise an ICD. */
EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id pl,
					    cl_platform_info what,
					    size_t size, void *value,
					    size_t *ret)
{
	return platform_info(pl, what, size, value, ret);
}
