/* SPDX-License-Identifier: MIT */
/*
 * What the recording driver needs to know about a SPIR-V module: its
 * kernels with their parameters, its specialization constants, the
 * symbols it imports and exports (OpDecorate LinkageAttributes) and its
 * program-scope CrossWorkgroup variables that a HostAccessINTEL
 * decoration or an export names. Not a validator: it reads what it needs
 * and rejects only what it cannot read.
 */
#ifndef DEVIMG_TEST_SPIRV_SCAN_H
#define DEVIMG_TEST_SPIRV_SCAN_H

#include <stddef.h>
#include <stdint.h>

enum spv_param_kind {
	SPV_PARAM_VALUE,	/* passed by value; size 0 when not checked */
	SPV_PARAM_GLOBAL,	/* a pointer the host passes (not local) */
	SPV_PARAM_LOCAL,	/* a Workgroup pointer: size only */
};

struct spv_param {
	enum spv_param_kind kind;
	uint32_t size;
};

struct spv_kernel {
	char *name;
	uint32_t nparams;
	struct spv_param *params;
};

struct spv_spec {
	uint32_t spec_id;
	uint32_t size;		/* bytes of its scalar type */
	uint64_t value;		/* its default */
};

/* A variable the host may reach: its name and the bytes of its type. */
struct spv_global {
	char *name;
	uint32_t size;
};

struct spv_module {
	uint32_t nkernels;
	struct spv_kernel *kernels;
	uint32_t nspecs;
	struct spv_spec *specs;
	uint32_t nimports;
	char **imports;
	uint32_t nexports;
	char **exports;
	uint32_t nglobals;
	struct spv_global *globals;
};

/*
 * Read size bytes of little-endian SPIR-V into m. Returns 0, or -1 with a
 * one-line reason in err.
 */
int spv_scan(const void *bytes, size_t size, struct spv_module *m,
	     char *err, size_t errsize);
void spv_module_free(struct spv_module *m);
const struct spv_kernel *spv_find_kernel(const struct spv_module *m,
					 const char *name);
/* Whether m exports the symbol name. */
int spv_exports(const struct spv_module *m, const char *name);
const struct spv_spec *spv_find_spec(const struct spv_module *m,
				     uint32_t spec_id);

#endif
