/* SPDX-License-Identifier: MIT */
/*
 * libdevimg-props: property sets and the text inputs of the offload wrapper.
 *
 * The in-memory model of property sets (shared by devimg-wrap, devimg-dump
 * and libdevimg), the readers and writer of the sycl-post-link text formats
 * (.props, .sym, file tables), the LSB-first base64 codec of byte arrays and
 * the decoders of specialization-constant descriptors and default values
 * and of launch metadata (eliminated arguments, work-group sizes, aspects).
 *
 * Error contract: every function that can fail returns 0 or a negative errno
 * value (-EINVAL for malformed input, -ENOMEM, -ERANGE for numbers out of
 * range, or the errno of a failed system call) and, when given a non-NULL
 * struct errmsg (util/errmsg.h), leaves there one line naming the place (file, line and
 * column; or set and property for in-memory data), the text seen and what
 * was expected. Nothing is allocated for the caller on failure.
 *
 * This library does no I/O beyond reading and writing these text formats
 * (the tools' input files are opened by util/input.h).
 */
#ifndef DEVIMG_PROPS_H
#define DEVIMG_PROPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Property value types, numbered as in the binary descriptor. */
enum props_type {
	PROPS_UNKNOWN = 0,
	PROPS_UINT32 = 1,
	PROPS_BYTE_ARRAY = 2,
	PROPS_STRING = 3,
};

/* Size of the bit-count header in front of every byte array. */
#define PROPS_BYTES_HEADER 8u

/* Set names with a meaning to the runtime. */
#define PROPS_SET_SPEC_CONSTS "SYCL/specialization constants"
#define PROPS_SET_SPEC_DEFAULTS "SYCL/specialization constants default values"
#define PROPS_SPEC_DEFAULTS_PROP "all"
#define PROPS_SET_KERNEL_PARAM_OPT "SYCL/kernel param opt"
#define PROPS_SET_PROGRAM_METADATA "SYCL/program metadata"
#define PROPS_SET_DEVICE_REQS "SYCL/device requirements"
#define PROPS_SET_EXPORTED_SYMBOLS "SYCL/exported symbols"
#define PROPS_SET_IMPORTED_SYMBOLS "SYCL/imported symbols"
#define PROPS_SET_DEVICE_GLOBALS "SYCL/device globals"

/* SpecId of a descriptor that only pads a composite. */
#define PROPS_SPEC_PADDING_ID 0xffffffffu

struct errmsg;		/* util/errmsg.h: the one error carrier */

/*
 * One property. Which value fields are meaningful depends on type:
 *  UINT32:     u32.
 *  BYTE_ARRAY: data/size hold the whole buffer as the descriptor carries
 *              it: the 8-byte little-endian bit count, then the payload
 *              (size >= 8, always validated by the readers).
 *  STRING:     data is NUL-terminated, size is its length without the NUL.
 */
struct props_prop {
	char *name;
	enum props_type type;
	uint32_t u32;
	unsigned char *data;
	size_t size;
	size_t line;	/* .props line of the value read; 0 when not read */
};

struct props_set {
	char *name;
	struct props_prop *props;
	size_t nprops;
	size_t cap;
};

/* Property sets, in file order. */
struct props {
	struct props_set *sets;
	size_t nsets;
	size_t cap;
};

/* ---- model ---- */

struct props *props_new(void);
void props_free(struct props *p);

/*
 * Append a set (names are copied); returns the set or NULL on ENOMEM. The
 * pointer is valid until the next props_add_set() on p.
 */
struct props_set *props_add_set(struct props *p, const char *name);
/* Append properties to a set; name and value are copied. */
int props_add_u32(struct props_set *s, const char *name, uint32_t v);
/* bytes: the payload only; the header for nbits is prepended. */
int props_add_bytes(struct props_set *s, const char *name, const void *bytes,
		    uint64_t nbits);
int props_add_string(struct props_set *s, const char *name, const char *str);

/* Borrowed lookups; NULL when absent. First match in file order. */
const struct props_set *props_find_set(const struct props *p, const char *name);
const struct props_prop *props_set_find(const struct props_set *s,
					const char *name);

/* Deep comparison (names, types, values, order; not lines): 1 equal. */
int props_equal(const struct props *a, const struct props *b);

/* ---- .props text ---- */

/*
 * Parse .props text of len bytes (need not be NUL-terminated) exactly as
 * DPC++'s PropertySetRegistry::read does (docs/formats.md section 2);
 * fname only names the input in errors. Lines end in "\n" or "\r\n";
 * empty lines are skipped; the first NUL ends the text. A set named again
 * is merged into the first; a property named again in a set keeps its
 * first place and takes the last value. Types are 1 (UINT32, kept modulo
 * 2^32) and 2 (BYTE_ARRAY, cut to its bit count); anything else, an empty
 * name, type or value, a set name without ']', and a file with no set
 * are errors. The model never holds PROPS_STRING.
 */
int props_parse(const char *text, size_t len, const char *fname,
		struct props **out, struct errmsg *err);
/* Read path as input_read() does, DEVIMG_LIMIT_TEXT_FILE bytes at most. */
int props_read_file(const char *path, struct props **out,
		    struct errmsg *err);

/*
 * What the reader takes but changes or drops, as DPC++'s reader does: a
 * property given again (the last value wins, in the first one's place), a
 * set opened again (merged into the first), a number past 32 bits (cut to
 * its low 32), a type with leading zeros or past 32 bits, text after a
 * set's ']', a byte array longer than its bit count (cut to it), a NUL
 * byte (the text ends there), the name '_'. line is 1-based; msg is one
 * line without the place.
 */
typedef void (*props_note_fn)(void *ctx, size_t line, const char *msg);

/* props_parse() and props_read_file() that report each such finding. */
int props_parse_noted(const char *text, size_t len, const char *fname,
		      struct props **out, struct errmsg *err,
		      props_note_fn note, void *ctx);
int props_read_file_noted(const char *path, struct props **out,
			  struct errmsg *err, props_note_fn note,
			  void *ctx);
/*
 * Write .props text as DPC++'s PropertySetRegistry::write does. Round trip:
 * props_parse() of the output gives back an equal model, and the output
 * is byte-exact for canonical text (what that writer writes: each set and
 * each property name once, no leading zeros, no blank lines, "\n" line
 * ends). -EINVAL (nothing written) for a model the reader could not read
 * back the same: no set, empty names, a set name with '\n' or NUL, a
 * property name with '=', '\n' or NUL or a leading '[', a set name twice,
 * a property name twice in a set, a type other than UINT32 and
 * BYTE_ARRAY, a byte array whose header does not match its payload;
 * -EIO when writing fails.
 */
int props_write(const struct props *p, FILE *f);

/*
 * One set's properties as props_write() writes them, without the set's
 * "[name]" line: the text a container keeps under the set's name (an
 * OffloadBinary string, docs/formats.md section 3). The same checks, for
 * this set; an empty text for a set without properties.
 */
int props_write_set_text(const struct props_set *s, FILE *f);
/*
 * Read such a text back as a model of one set named set_name, its lines
 * read as props_parse() reads a set's (fname and the line numbers name
 * them in errors); a line starting with '[' is an error. An empty text
 * is a set without properties.
 */
int props_parse_set_text(const char *text, size_t len, const char *fname,
			 const char *set_name, struct props **out,
			 struct errmsg *err);

/* ---- byte arrays ---- */

/* Characters needed to encode n bytes (no padding); SIZE_MAX if too many. */
size_t props_b64_encoded_len(size_t n);
/* Bytes that len characters decode to; -EINVAL when len % 4 == 1. */
int props_b64_decoded_len(size_t len, size_t *n);
/* Encode n bytes into out (props_b64_encoded_len(n) chars, no NUL added). */
void props_b64_encode(const void *in, size_t n, char *out);
/*
 * Decode len characters into out (props_b64_decoded_len bytes). On a
 * character outside the alphabet, returns -EINVAL and sets *bad_pos to its
 * index (when bad_pos is non-NULL); on len % 4 == 1, -EINVAL with *bad_pos
 * set to len. Bits past the last whole byte are ignored.
 */
int props_b64_decode(const char *in, size_t len, unsigned char *out,
		     size_t *bad_pos);

/*
 * Validate a byte-array buffer (header plus payload) and return its payload.
 * where names the property in errors ("set 'X' property 'Y'").
 */
int props_bytes_payload(const void *buf, uint64_t size, const char *where,
			const unsigned char **payload, uint64_t *nbits,
			struct errmsg *err);

/* ---- .sym and file tables ---- */

struct props_names {
	char **names;
	size_t n;
};

/* One name per line, in order; empty lines skipped. */
int props_sym_parse(const char *text, size_t len, const char *fname,
		    struct props_names *out, struct errmsg *err);
int props_sym_read_file(const char *path, struct props_names *out,
			struct errmsg *err);
void props_names_fini(struct props_names *names);

enum props_column {
	PROPS_COL_CODE,
	PROPS_COL_SYMBOLS,
	PROPS_COL_PROPERTIES,
	PROPS_COL_MANIFEST,
	PROPS_COL_SYM_AND_PROPS,	/* devimg-wrap --sym-prop-bc-files */
	PROPS_NCOLS,
};

/* Cells of one row indexed by column; NULL for columns the table lacks. */
struct props_table_row {
	char *cell[PROPS_NCOLS];
	unsigned line;
};

struct props_table {
	struct props_table_row *rows;
	size_t nrows;
	size_t ncols;		/* of the header, read or not; 0: empty table */
	int has[PROPS_NCOLS];
};

/*
 * First line "[Code|Symbols|...]" (any subset, any order, no repeats). A
 * text with no line but empty ones is an empty table (no header, no
 * rows), as LLVM's SimpleTable reads it.
 */
int props_table_parse(const char *text, size_t len, const char *fname,
		      struct props_table *out, struct errmsg *err);
int props_table_read_file(const char *path, struct props_table *out,
			  struct errmsg *err);
void props_table_fini(struct props_table *t);

/* ---- specialization constants ---- */

struct props_spec_desc {
	uint32_t id;
	uint32_t offset;
	uint32_t size;
};

struct props_spec_const {
	const char *name;		/* borrowed from the caller */
	struct props_spec_desc *descs;	/* in property order */
	size_t ndescs;
	uint32_t size;		/* bytes of the user's value: max(offset + size) */
	uint32_t first_id;	/* smallest non-padding SpecId */
	uint32_t blob_offset;	/* place in the default blob and emulated buffer */
};

/*
 * Decode one property of PROPS_SET_SPEC_CONSTS (buf/size as in the
 * descriptor). Rejects a payload that is not whole {id, offset, size}
 * tuples (or holds none, or whose bit count is not 96 per tuple), zero-size
 * leaves, offset overflow and overlapping leaves.
 */
int props_spec_decode(const char *name, const void *buf, uint64_t size,
		      struct props_spec_const *out, struct errmsg *err);
void props_spec_const_fini(struct props_spec_const *c);

/*
 * Assign blob_offset as the running sum of sizes in the order of consts
 * (the order of the set's properties, which DPC++'s runtime keeps: not
 * SpecId order), and check the defaults blob (defaults/defaults_size: the
 * "all" byte array, header included; NULL when the image has none) is
 * exactly as long as the sum. Returns the total size in *total; nothing
 * changes on failure.
 */
int props_spec_layout(struct props_spec_const *consts, size_t n,
		      const void *defaults, uint64_t defaults_size,
		      uint32_t *total, struct errmsg *err);

/* ---- launch metadata (docs/launch-metadata.md) ---- */

/* Properties of PROPS_SET_DEVICE_REQS (one set for the whole image). */
#define PROPS_REQ_ASPECTS "aspects"
#define PROPS_REQ_SUB_GROUP_SIZE "reqd_sub_group_size"
/* uint64 per dimension; the uint32 "reqd_work_group_size" came first */
#define PROPS_REQ_WORK_GROUP_SIZE_64 "reqd_work_group_size_uint64_t"
#define PROPS_REQ_WORK_GROUP_SIZE_32 "reqd_work_group_size"
#define PROPS_REQ_WORK_GROUP_NUM_DIM "work_group_num_dim"
/* Suffixes of PROPS_SET_PROGRAM_METADATA names: "<kernel>@..." */
#define PROPS_META_REQD_WORK_GROUP_SIZE "@reqd_work_group_size"
#define PROPS_META_MAX_WORK_GROUP_SIZE "@max_work_group_size"
#define PROPS_META_WORK_GROUP_NUM_DIM "@work_group_num_dim"
/* "<unique id>@global_id_mapping": a device global's name in the module */
#define PROPS_META_GLOBAL_ID_MAPPING "@global_id_mapping"

/*
 * A PROPS_SET_KERNEL_PARAM_OPT property (named by its kernel): *nargs is
 * the kernel's argument count before elimination (the bit count) and
 * *mask the payload, where argument i was eliminated when
 * props_arg_eliminated(*mask, i): bit i % 8 of byte i / 8, least
 * significant first (DPC++'s createKernelArgMask).
 */
int props_param_opt_decode(const void *buf, uint64_t size, const char *where,
			   const unsigned char **mask, uint64_t *nargs,
			   struct errmsg *err);

static inline int props_arg_eliminated(const unsigned char *mask, uint64_t i)
{
	return mask[i / 8] >> (i % 8) & 1;
}

/*
 * The payload of a byte array as little-endian unsigned integers of
 * elem_bytes (4 or 8) each: *n is how many there are, the first up to max
 * go to vals (may be NULL when max is 0). -EINVAL when the bit count is not
 * a whole number of integers.
 */
int props_uint_list(const void *buf, uint64_t size, unsigned elem_bytes,
		    const char *where, uint64_t *vals, size_t max, size_t *n,
		    struct errmsg *err);

/*
 * A work-group size: 0 to 3 non-zero integers of elem_bytes, dimension 0
 * first. out[] gets all three, 1 past *dims. No integers at all (*dims 0)
 * is no requirement, as DPC++'s runtime reads it.
 */
int props_work_group_size(const void *buf, uint64_t size, unsigned elem_bytes,
			  const char *where, uint64_t out[3], unsigned *dims,
			  struct errmsg *err);

/*
 * The name of a DPC++ aspect (the values of sycl::aspect in aspects.def,
 * "fp64" for 6); NULL for an id without a name here.
 */
const char *props_aspect_name(uint32_t id);

#ifdef __cplusplus
}
#endif
#endif
