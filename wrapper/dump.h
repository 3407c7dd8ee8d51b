/* SPDX-License-Identifier: MIT */
/*
 * devimg-dump's work, for tools/devimg-dump.c: the command line fills a
 * struct dump_job; dump_run() shows, extracts or decodes each file.
 */
#ifndef DEVIMG_WRAPPER_DUMP_H
#define DEVIMG_WRAPPER_DUMP_H

#include <stddef.h>

#define DUMP_PROG "devimg-dump"

enum dump_mode {
	DUMP_TEXT,
	DUMP_JSON,
	DUMP_EXTRACT,
};

/* Names --extract wrote in this run: a hash set of strings. */
struct dump_names {
	char **slot;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

/*
 * The shape of --json (docs/dump-json.md): 2 is {"format_version",
 * "files": [...]} whatever the number of files, failed files listed with
 * their "error", bytes that are not UTF-8 as \uDCxx.
 */
#define DUMP_JSON_FORMAT_VERSION 2

struct dump_job {
	enum dump_mode mode;
	int props;		/* operands are .props files */
	int check;		/* --check: lint .props files */
	const char *dir;	/* --extract */
	int raw;		/* --raw: compressed images as stored */
	struct dump_names written;
	/* Why the last file failed, as said on stderr (--json lists it). */
	char error[1280];
};

/*
 * Each of the n files as the job says, messages on stderr: 0 when every
 * one was read and standard output written, else 1 (the exit status).
 */
int dump_run(char **files, int n, struct dump_job *o);
void dump_job_fini(struct dump_job *o);

#endif
