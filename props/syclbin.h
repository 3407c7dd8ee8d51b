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
 * Bounds (docs/limits.md): the reader's work and memory are linear in the
 * input, whatever its headers or entries share. A metadata range named by
 * several headers or entries is parsed once (struct syclbin_meta) and
 * every user borrows it; two metadata ranges are equal or disjoint;
 * abstract modules own disjoint ranges of IR module and native image
 * headers, as DPC++'s writers lay them out; the images the runtime makes
 * (one per IR module and native image of each module) are counted from
 * the headers and refused past DEVIMG_LIMIT_IMAGES before any is made.
 * Byte ranges of images may be shared or overlap: they are borrowed.
 *
 * Error contract as props.h: 0 or a negative errno, one line in err naming
 * the input and the field; nothing allocated for the caller on failure.
 */
#ifndef DEVIMG_SYCLBIN_H
#define DEVIMG_SYCLBIN_H

#include <stddef.h>
#include <stdint.h>

#include "props/offload-binary.h"
#include "props/props.h"

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

/*
 * One metadata range of the input, parsed once however many headers or
 * entries name it. Its users borrow it; it lives as long as the result.
 */
struct syclbin_meta {
	const char *text;		/* borrowed from the input */
	size_t len;
	struct props *props;
	/* private: what the reader derived from it, once each */
	const struct props_set *kernels;
	uint32_t ir_type;
	char *target[2];		/* [native]: NULL until needed */
	const char *target_first[2];	/* in target's buffer */
	const char *arch[2];
};

/* An IR module or a native device code image. */
struct syclbin_image {
	const unsigned char *data;	/* borrowed from the input */
	size_t size;
	/*
	 * Its metadata: the text as stored and parsed (borrowed, shared with
	 * every header or entry naming the same range), and its index in
	 * struct syclbin's metas.
	 */
	const char *meta_text;
	size_t meta_len;
	const struct props *meta;
	size_t meta_id;
	/*
	 * From the metadata: IR "type" (0 SPIR-V, 1 PTX, 2 AMDGCN; UINT32_MAX
	 * when absent), and "target" / "arch" (byte arrays) as NUL-terminated
	 * strings, "" when absent; target_first is the target's first
	 * '-'-separated component ("nvptx64" of "nvptx64-nvidia-cuda"), all of
	 * it when it has no '-'. Borrowed: images of one metadata range share
	 * them.
	 */
	uint32_t ir_type;
	const char *target;
	const char *arch;
	const char *target_first;
};

struct syclbin_module {
	const char *meta_text;		/* borrowed */
	size_t meta_len;
	const struct props *meta;	/* borrowed, maybe shared */
	size_t meta_id;			/* its index in struct syclbin's metas */
	struct syclbin_image *ir;	/* borrowed slices of one array */
	size_t nir;
	struct syclbin_image *native;
	size_t nnative;
	const struct props_set *kernels;	/* private */
};

struct syclbin {
	enum syclbin_form form;
	unsigned version;		/* 1 for bare and envelope, 2 */
	const struct props *global;
	uint32_t state;			/* global "state"; 0 when absent */
	int has_state;
	struct syclbin_module *modules;
	size_t nmodules;
	/*
	 * Every distinct metadata range, parsed once: users that build
	 * something per module metadata build it once per meta_id.
	 */
	struct syclbin_meta *metas;
	size_t nmetas;
	size_t nimages;			/* IR modules and native images */
	struct syclbin_image *images;	/* private */
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
 * not a UINT32 of 0, 1 or 2 is refused, and so are (-EINVAL) metadata
 * ranges that overlap without being equal, abstract modules that share
 * an IR module or native image header, and more than DEVIMG_LIMIT_IMAGES
 * images.
 */
int syclbin_parse(const void *buf, size_t len, const char *fname,
		  struct syclbin **out, struct errmsg *err);
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
		  size_t *size, struct errmsg *err);

#ifdef __cplusplus
}
#endif
#endif /* DEVIMG_SYCLBIN_H */
