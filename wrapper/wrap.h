/* SPDX-License-Identifier: MIT */
/*
 * devimg-wrap's work, for tools/devimg-wrap.c: the command line fills a
 * struct wrap_job and adds images (or batch tables) to it with the
 * per-image options then in force; wrap_job_write() finishes and writes
 * the output. Every refusal is one line on stderr, "devimg-wrap: ...",
 * and -1.
 */
#ifndef DEVIMG_WRAPPER_WRAP_H
#define DEVIMG_WRAPPER_WRAP_H

#include "wrapper/compress.h"
#include "wrapper/lint.h"
#include "wrapper/object-writer.h"

#define WRAP_PROG "devimg-wrap"

struct errmsg;

/* Values that hold for every image after them, until given again. */
struct wrap_image_opts {
	int kind;	/* -1: not given */
	int format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	const char *entries;
	const char *props;
	const char *arch;	/* -arch, the blob form's "arch" string */
};

/* What the command line asks for. */
struct wrap_job {
	const char *output;	/* "-": standard output */
	int verbose;
	int image_version;	/* 0: not given */
	const char *version_opt;	/* the option that set it */
	const char *symprop;	/* --sym-prop-bc-files table */
	int syclbin;	/* -1: an ELF object; else the SYCLBIN state */
	struct wrap_set set;
	struct wrap_compress compress;
	int omp_notes;		/* -add-omp-offload-notes */
	int werror;		/* -Werror: a warning writes nothing */
	int no_warnings;	/* -w */
	struct wrap_warnings warnings;
};

/* "devimg-wrap: " and the message on stderr; returns -1. */
int wrap_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A props library message names its place; add the file only if not. */
int wrap_fail_props(const char *fname, const struct errmsg *err,
		    const char *where);

/*
 * Add one image. entries, props and manifest: NULL or "" for none. where
 * says which table row it comes from ("" on the command line).
 */
int wrap_add_image(struct wrap_job *c, const struct wrap_image_opts *o,
		   const char *path, const char *manifest, const char *entries,
		   const char *props, const char *where);
/* Add every row of a batch table, each with the options o. */
int wrap_add_table(struct wrap_job *c, const struct wrap_image_opts *o,
		   const char *table);
/*
 * With the images added: apply --sym-prop-bc-files and the OpenMP notes,
 * check, print the plan with -v, and write the output atomically; then
 * the warnings (lint.h), one line each, unless -w. With -Werror a warning
 * is an error: printed as one, nothing written, -1.
 */
int wrap_job_write(struct wrap_job *c);
void wrap_job_fini(struct wrap_job *c);

#endif
