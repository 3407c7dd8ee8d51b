/* SPDX-License-Identifier: MIT */
/*
 * What the files of devimg-dump's work share; dump.h is what the programs
 * see. dump.c reads each file and hands it to a view: dump-text.c or
 * dump-json.c shows it, dump-extract.c writes its images out. The values
 * both listings decode come from dump-decode.c.
 */
#ifndef DEVIMG_WRAPPER_DUMP_PRIVATE_H
#define DEVIMG_WRAPPER_DUMP_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wrapper/dump.h"
#include "wrapper/dump-offload.h"
#include "wrapper/index-reader.h"
#include "wrapper/json.h"
#include "props/props.h"
#include "util/errmsg.h"

#define PROG DUMP_PROG

/* ---- dump-decode.c ---- */

/* The name of an image kind or format; NULL for a number without one. */
const char *dump_kind_name(unsigned kind);
const char *dump_format_name(unsigned format);
/* The bytes of a byte array's payload, its last one maybe partial. */
size_t dump_payload_len(const struct devimg_prop *p);

/* Launch metadata (docs/launch-metadata.md). */
enum meta_kind {
	META_NONE,
	META_ARG_MASK,		/* SYCL/kernel param opt */
	META_WG_SIZE,		/* work-group sizes: a tuple */
	META_ASPECTS,		/* uint32 aspect ids */
	META_UINTS,		/* other uint32 lists */
};

/* A property's launch metadata, decoded (or why it could not be). */
struct meta_view {
	enum meta_kind kind;
	unsigned elem_bytes;	/* META_WG_SIZE, META_ASPECTS, META_UINTS */
	size_t n;		/* how many integers */
	unsigned dims;		/* META_WG_SIZE */
	uint64_t wg[3];
	const unsigned char *mask;	/* META_ARG_MASK */
	uint64_t nargs;
	struct errmsg err;	/* msg non-empty: not decodable */
};

/* p of set, decoded into m: META_NONE when p is not launch metadata. */
void dump_meta_decode(const char *set, const struct devimg_prop *p,
		      struct meta_view *m);
/* Integer i of a validated list (the payload after the header). */
uint64_t dump_meta_uint(const struct devimg_prop *p, unsigned elem_bytes,
			size_t i);

/* Why a compressed image has no real size, for a props_unzstd status. */
const char *dump_unzstd_why(int status);
/*
 * The content size recorded in a compressed image's frame: 0 and *real,
 * or -1 and *why (static text).
 */
int dump_unzstd_real_size(const struct reader_image *img, uint64_t *real,
			  const char **why);

/* ---- dump-text.c ---- */

/* An ELF file's images, or "no device images". */
void dump_text_file(FILE *f, const struct devimg_file *df);
/* A .props file: its name, the number of sets, then the sets. */
void dump_text_props(FILE *f, const char *path,
		     const struct devimg_propset *sets, size_t n);

/* ---- dump-json.c (docs/dump-json.md) ---- */

/* The document around the files: {"format_version", "files": [ ... ]}. */
void dump_json_begin(struct json_writer *w);
/* Closes the document; json_finish()'s result. */
int dump_json_end(struct json_writer *w);
/* A file's images, and dc's view of it when not NULL. */
void dump_json_file(struct json_writer *w, const struct devimg_file *df,
		    const struct dump_container *dc);
/* A .props file's sets. */
void dump_json_props(struct json_writer *w, const char *path,
		     const struct devimg_propset *sets, size_t n);
/* A file that failed: its name and why. */
void dump_json_failed(struct json_writer *w, const char *path,
		      const char *error);

/* ---- dump-extract.c ---- */

/* Each of df's images into o->dir, its path on stdout: 0 or -errno. */
int dump_extract_file(const struct devimg_file *df, struct dump_job *o);

#endif
