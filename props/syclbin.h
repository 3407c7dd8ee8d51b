/* SPDX-License-Identifier: MIT */
/*
 * SYCLBIN: DPC++'s file of separately compiled device code
 * (sycl_ext_oneapi_syclbin), loaded at run time as a kernel bundle.
 * docs/formats.md ("SYCLBIN") gives the byte layout. Three forms read:
 *
 *   bare:      a "SYBI" file (magic 0x53594249 little-endian, version 1):
 *              a file header, abstract-module, IR-module and native-image
 *              header tables, a metadata byte table, a binary byte table;
 *   envelope:  an OffloadBinary (version 1 or 2 header) whose first entry
 *              has image kind 7 (IMG_SYCLBIN) and holds a bare SYCLBIN;
 *              what DPC++'s runtime and its kernel_bundle writer use;
 *   version 2: a multi-entry OffloadBinary, every entry image kind 7,
 *              string "role" = global_metadata | am_metadata | ir | native
 *              and "am_index" grouping them into abstract modules.
 *
 * Metadata blobs are .props text (props_parse()); the global one holds
 * [SYCLBIN/global metadata] state=1|N (0 input, 1 object, 2 executable).
 *
 * Error contract as props.h: 0 or a negative errno, one line in err naming
 * the input and the field; nothing allocated for the caller on failure.
 */
#ifndef DEVIMG_SYCLBIN_H
#define DEVIMG_SYCLBIN_H

#include <stddef.h>
#include <stdint.h>

#include "offload-binary.h"
#include "props.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SYCLBIN_MAGIC 0x53594249u	/* "IBYS" in file order */
#define SYCLBIN_BARE_VERSION 1u
/* The OffloadBinary image kind of SYCLBIN entries (DPC++'s IMG_SYCLBIN). */
#define OFFLOAD_IMAGE_SYCLBIN 7u

#define SYCLBIN_SET_GLOBAL "SYCLBIN/global metadata"
#define SYCLBIN_SET_IR "SYCLBIN/ir module metadata"
#define SYCLBIN_SET_NATIVE "SYCLBIN/native device code image metadata"
#define SYCLBIN_SET_KERNEL_NAMES "SYCL/kernel names"

enum syclbin_form {
	SYCLBIN_FORM_BARE = 1,
	SYCLBIN_FORM_ENVELOPE = 2,
	SYCLBIN_FORM_V2 = 3,
};

/* An IR module or a native device code image. */
struct syclbin_image {
	const unsigned char *data;	/* borrowed from the input */
	size_t size;
	/* Its metadata: the text as stored (borrowed) and parsed. */
	const char *meta_text;
	size_t meta_len;
	struct props *meta;
	/*
	 * From the metadata: IR "type" (0 SPIR-V, 1 PTX, 2 AMDGCN; UINT32_MAX
	 * when absent), and "target" / "arch" (byte arrays) as NUL-terminated
	 * copies, "" when absent.
	 */
	uint32_t ir_type;
	char *target;
	char *arch;
};

struct syclbin_module {
	const char *meta_text;		/* borrowed */
	size_t meta_len;
	struct props *meta;
	struct syclbin_image *ir;
	size_t nir;
	struct syclbin_image *native;
	size_t nnative;
};

struct syclbin {
	enum syclbin_form form;
	unsigned version;		/* 1 for bare and envelope, 2 */
	struct props *global;
	uint32_t state;			/* global "state"; 0 when absent */
	int has_state;
	struct syclbin_module *modules;
	size_t nmodules;
	struct offload_binary *ob;	/* private */
};

/*
 * 1 when buf starts as a SYCLBIN in one of the three forms (a bare one by
 * its magic; an OffloadBinary whose first entry's image kind is 7, read
 * from its header without validating the rest), else 0.
 */
int syclbin_is(const void *buf, size_t len);

/*
 * Parse buf (which must outlive the result). Every size and offset is
 * checked; metadata must parse as .props text; a global "state" that is
 * not a UINT32 of 0, 1 or 2 is refused.
 */
int syclbin_parse(const void *buf, size_t len, const char *fname,
		  struct syclbin **out, struct props_error *err);
void syclbin_free(struct syclbin *sb);

/* The "SYCL/kernel names" of a module, in order (borrowed names). */
size_t syclbin_module_kernel_count(const struct syclbin_module *m);
const char *syclbin_module_kernel(const struct syclbin_module *m, size_t i);

/* What the writer takes: one image of a module. */
struct syclbin_image_in {
	int native;		/* 0: IR module (SPIR-V), 1: native */
	const char *target;	/* triple, e.g. "spir64-unknown-unknown" */
	const char *arch;	/* native only; may be "" */
	const void *data;
	size_t size;
};

struct syclbin_module_in {
	const struct props *meta;	/* may be NULL: no sets */
	const struct syclbin_image_in *images;
	size_t nimages;
};

/*
 * Write a SYCLBIN of n modules in state (0 to 2) into a malloc'ed buffer,
 * in form SYCLBIN_FORM_ENVELOPE (as DPC++'s runtime writes it: an
 * OffloadBinary version 2 with one entry of image kind 7, offload kind
 * SYCL, holding the bare file), SYCLBIN_FORM_BARE, or SYCLBIN_FORM_V2.
 * IR images get [SYCLBIN/ir module metadata] type=1|0 and target; native
 * ones [SYCLBIN/native device code image metadata] arch and target.
 * -EINVAL for a bad state or form, or metadata props_write() refuses.
 */
int syclbin_write(uint32_t state, const struct syclbin_module_in *mods,
		  size_t n, enum syclbin_form form, unsigned char **out,
		  size_t *size, struct props_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DEVIMG_SYCLBIN_H */
