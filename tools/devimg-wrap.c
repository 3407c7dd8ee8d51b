// SPDX-License-Identifier: MIT
/*
 * devimg-wrap: device images, entry lists and property sets in, an ELF
 * relocatable object that registers them with __sycl_register_lib() out.
 *
 * -form=blob writes LLVM's form instead of DPC++'s descriptor: one
 * OffloadBinary registered with __sycl_register_lib(blob, size), as
 * llvm-offload-wrapper --kind=sycl writes it (wrapper/object-blob.c).
 *
 * The command line follows DPC++'s clang-offload-wrapper: per-image options
 * (-kind, -target, -format, -compile-opts, -link-opts, -entries,
 * -properties, and -arch of the blob form) set a value that holds for
 * every image after it until it is given again; an image file may be
 * followed by one manifest file; in batch mode every input is a file
 * table whose rows name each image's files, and the per-image options
 * before a table apply to every row of it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "util/errmsg.h"
#include "wrapper/wrap.h"
#include "wrapper/wrap-syclbin.h"

#define PROG WRAP_PROG

/*
 * A command-line error: one line, as wrap_fail(), and exit status 2 (1 is
 * for a failure of the work: an input, the output). The three tools share
 * this convention (their man pages, EXIT STATUS).
 */
static int usage_error;
#define usage_fail(...) (usage_error = 1, wrap_fail(__VA_ARGS__))

enum opt_id {
	OPT_INPUT,
	OPT_OUTPUT,
	OPT_KIND,
	OPT_TARGET,
	OPT_FORMAT,
	OPT_COMPILE_OPTS,
	OPT_LINK_OPTS,
	OPT_ENTRIES,
	OPT_PROPERTIES,
	OPT_HOST,
	OPT_BATCH,
	OPT_EMIT_REG_FUNCS,
	OPT_DESC_NAME,
	OPT_OMP_NOTES,
	OPT_IMAGE_VERSION,
	OPT_PREVIEW,
	OPT_SYM_PROP,
	OPT_SYCLBIN,
	OPT_VERBOSE,
	OPT_HELP,
	OPT_VERSION,
	OPT_COMPRESS,
	OPT_COMPRESS_LEVEL,
	OPT_COMPRESS_THRESHOLD,
	OPT_WERROR,
	OPT_NO_WARNINGS,
	OPT_FORM,
	OPT_ARCH,
};

enum arg_kind {
	ARG_NONE,	/* -v */
	ARG_REQUIRED,	/* -target=x or -target x */
	ARG_OPTIONAL,	/* -batch or -batch=false */
};

static const struct option_spec {
	const char *name;
	enum opt_id id;
	enum arg_kind arg;
	int per_image;	/* closes the image group before it */
} option_specs[] = {
	{ "o", OPT_OUTPUT, ARG_REQUIRED, 0 },
	{ "kind", OPT_KIND, ARG_REQUIRED, 1 },
	{ "target", OPT_TARGET, ARG_REQUIRED, 1 },
	{ "format", OPT_FORMAT, ARG_REQUIRED, 1 },
	{ "compile-opts", OPT_COMPILE_OPTS, ARG_REQUIRED, 1 },
	{ "link-opts", OPT_LINK_OPTS, ARG_REQUIRED, 1 },
	{ "entries", OPT_ENTRIES, ARG_REQUIRED, 1 },
	{ "properties", OPT_PROPERTIES, ARG_REQUIRED, 1 },
	{ "host", OPT_HOST, ARG_REQUIRED, 0 },
	{ "batch", OPT_BATCH, ARG_OPTIONAL, 0 },
	{ "emit-reg-funcs", OPT_EMIT_REG_FUNCS, ARG_OPTIONAL, 0 },
	{ "desc-name", OPT_DESC_NAME, ARG_REQUIRED, 0 },
	{ "add-omp-offload-notes", OPT_OMP_NOTES, ARG_NONE, 0 },
	{ "image-version", OPT_IMAGE_VERSION, ARG_REQUIRED, 0 },
	{ "fpreview-breaking-changes", OPT_PREVIEW, ARG_NONE, 0 },
	{ "sym-prop-bc-files", OPT_SYM_PROP, ARG_REQUIRED, 0 },
	{ "syclbin", OPT_SYCLBIN, ARG_REQUIRED, 0 },
	{ "v", OPT_VERBOSE, ARG_NONE, 0 },
	{ "verbose", OPT_VERBOSE, ARG_NONE, 0 },
	{ "help", OPT_HELP, ARG_NONE, 0 },
	{ "h", OPT_HELP, ARG_NONE, 0 },
	{ "version", OPT_VERSION, ARG_NONE, 0 },
	{ "offload-compress", OPT_COMPRESS, ARG_OPTIONAL, 0 },
	{ "offload-compression-level", OPT_COMPRESS_LEVEL, ARG_REQUIRED, 0 },
	{ "offload-compression-threshold", OPT_COMPRESS_THRESHOLD,
	  ARG_REQUIRED, 0 },
	{ "Werror", OPT_WERROR, ARG_NONE, 0 },
	{ "w", OPT_NO_WARNINGS, ARG_NONE, 0 },
	{ "form", OPT_FORM, ARG_REQUIRED, 0 },
	{ "arch", OPT_ARCH, ARG_REQUIRED, 1 },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One command-line item, in order. */
struct event {
	enum opt_id id;
	const char *text;	/* the argument as given, for messages */
	const char *value;
	int per_image;
};

/* The command line as read; the job is what it asks for. */
struct cli {
	struct event *events;
	size_t nevents;
	const char *host;
	const char *form_opt;	/* the last -form given, for messages */
	const char *arch_opt;	/* the first non-empty -arch, for messages */
	int batch;	/* every input is a file table (the last -batch) */
	size_t ninputs;
	struct wrap_image_opts cur;
	const char *group[2];	/* image [manifest] waiting for its options */
	size_t ngroup;
	struct wrap_job job;
};

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o <file> [-host=<triple>] [-v] -kind=sycl\n"
	      "         [per-image options] <image> [<manifest>] ...\n"
	      "       " PROG " -o <file> [-host=<triple>] -kind=sycl [per-image options]\n"
	      "         -batch <table> ...\n"
	      "\n"
	      "Wrap device images into an ELF relocatable object that registers them\n"
	      "with __sycl_register_lib() when the program or library is loaded.\n"
	      "\n"
	      "Per-image options hold for every image after them, until given again:\n"
	      "  -kind=sycl              offload kind (required); -kind=host images are\n"
	      "                          carried as bytes only, not registered;\n"
	      "                          -kind=openmp and -kind=hip images are registered\n"
	      "                          with __tgt_register_lib()\n"
	      "  -target=<spec>          device target, e.g. spir64, nvptx64 (default: \"\")\n"
	      "  -format=<f>             none, native, spirv or llvmbc (default: none)\n"
	      "  -compile-opts=<s>       options for the runtime's program build\n"
	      "  -link-opts=<s>          options for the runtime's program link\n"
	      "  -entries=<file>         kernel names, one a line (\"\": none)\n"
	      "  -properties=<file>      property sets (.props text; \"\": none)\n"
	      "  -arch=<name>            the image's \"arch\" string in the blob form,\n"
	      "                          e.g. sm_90, gfx90a (default: \"\"); at most 64\n"
	      "                          letters, digits and _ . + - : (-form=blob only)\n"
	      "An image file may be followed by its manifest file.\n"
	      "\n"
	      "Other options:\n"
	      "  -o <file>               the object to write\n"
	      "  -host=<triple>          x86_64-linux-gnu (default) or aarch64-linux-gnu\n"
	      "  -form=<form>            what registers the images: descriptor (default),\n"
	      "                          DPC++'s binary descriptor, which DPC++'s runtime\n"
	      "                          needs; or blob, LLVM's: one OffloadBinary\n"
	      "                          (version 2) in .llvm.offloading, registered with\n"
	      "                          __sycl_register_lib(blob, size), kernel names and\n"
	      "                          property sets inside it (SYCL images only; no\n"
	      "                          manifest, compile or link options)\n"
	      "  -syclbin=<state>        write a SYCLBIN file in state input, object or\n"
	      "                          executable instead of an object\n"
	      "  -batch[=true|false]     every input is a file table\n"
	      "                          [Code|Symbols|Properties|Manifest] (or not)\n"
	      "  -o -                    write the object to standard output\n"
	      "  -emit-reg-funcs=0       no constructor, destructor or .tgtimg section\n"
	      "  -desc-name=<name>       the descriptor becomes the global symbol\n"
	      "                          .sycl_offloading.<name>\n"
	      "  -image-version=<2|3>    device image structure to write (default 2); 3\n"
	      "                          has no manifest pointers\n"
	      "  -fpreview-breaking-changes  the same as -image-version=3\n"
	      "  -add-omp-offload-notes  add LLVMOMPOFFLOAD ELF notes to OpenMP images\n"
	      "  -offload-compress       store each image whose format is none and whose\n"
	      "                          size reaches the threshold as one zstd frame\n"
	      "                          (format 4, compressed)\n"
	      "  -offload-compression-level=<n>\n"
	      "                          zstd level (default: 10)\n"
	      "  -offload-compression-threshold=<n>\n"
	      "                          smallest image compressed, bytes (default: 512)\n"
	      "  -sym-prop-bc-files=<table>  entries and property sets of the SYCL\n"
	      "                          images from the objects that the table's\n"
	      "                          SymAndProps column lists, image by image\n"
	      "  -v, -verbose            say what is written, on stderr\n"
	      "  -Werror                 warnings are errors: nothing is written\n"
	      "  -w                      no warnings\n"
	      "  -h, -help, --help       print this help and exit\n"
	      "  -version, --version     print the version and exit\n"
	      "A value follows '=' or comes as the next argument; two leading\n"
	      "dashes work as one; \"--\" ends the options.\n"
	      "\n"
	      "Warnings, on stderr once the output is written (exit status 0): a SYCL\n"
	      "image without -entries, a manifest that looks like a kernel list, a\n"
	      "-format that the file's magic number contradicts, listed kernels that\n"
	      "are not entry points of a SPIR-V module.\n", f);
}

/* ---- the command line ---- */

static int parse_kind(const char *text, const char *v, int *kind)
{
	static const struct {
		const char *name;
		int kind;
	} kinds[] = {
		{ "sycl", DEVIMG_KIND_SYCL },
		{ "host", DEVIMG_KIND_HOST },
		{ "openmp", DEVIMG_KIND_OPENMP },
		{ "hip", DEVIMG_KIND_HIP },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (!strcmp(v, kinds[i].name)) {
			*kind = kinds[i].kind;
			return 0;
		}
	}
	/* DPC++'s wrapper: "offload model not set" for its images. */
	if (!strcmp(v, "unknown"))
		return usage_fail("%s: offload kind 'unknown' sets no offload model (expected sycl, openmp, hip or host)",
				 text);
	return usage_fail("%s: unknown offload kind '%s' (expected sycl, openmp, hip or host)",
			 text, v);
}

static int parse_format(const char *text, const char *v, int *format)
{
	static const char *const names[] = {
		[DEVIMG_FORMAT_NONE] = "none",
		[DEVIMG_FORMAT_NATIVE] = "native",
		[DEVIMG_FORMAT_SPIRV] = "spirv",
		[DEVIMG_FORMAT_LLVMBC] = "llvmbc",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(v, names[i])) {
			*format = i;
			return 0;
		}
	}
	return usage_fail("%s: unknown image format '%s' (expected none, native, spirv or llvmbc)",
			 text, v);
}

static int arch_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || (ch && strchr("_.+-:", ch));
}

/*
 * An -arch name as LLVM's tools write one (sm_90, gfx90a, gfx90a:xnack+):
 * at most WRAP_ARCH_MAX bytes of letters, digits and _ . + - :, or empty
 * (none). Messages quote the value escaped, since it may hold any byte.
 */
static int parse_arch(const char *text, const char *v)
{
	int nlen = (int)strcspn(text, "=");
	size_t i, n = strlen(v);
	struct quote q, qc;

	if (n > WRAP_ARCH_MAX)
		return usage_fail("%.*s: '%s': %zu bytes, more than the %u of an arch name",
				 nlen, text, quote_text(&q, v, n), n,
				 WRAP_ARCH_MAX);
	for (i = 0; i < n; i++)
		if (!arch_char(v[i]))
			return usage_fail("%.*s: '%s': byte %zu, '%s', is not allowed in an arch name (letters, digits, '_', '.', '+', '-' and ':' are)",
					 nlen, text, quote_text(&q, v, n),
					 i + 1, quote_text(&qc, v + i, 1));
	return 0;
}

static const struct option_spec *find_option(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(option_specs); i++)
		if (strlen(option_specs[i].name) == len &&
		    !strncmp(option_specs[i].name, name, len))
			return &option_specs[i];
	return NULL;
}

/* Split "-name[=value]" (one or two dashes); *i advances past a value. */
static int parse_option(char **argv, int argc, int *i, struct event *ev)
{
	const char *arg = argv[*i];
	const char *name = arg + (arg[1] == '-' ? 2 : 1);
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option_spec *o = find_option(name, len);

	ev->text = arg;
	if (!o)
		return usage_fail("%s: unknown option (see --help)", arg);
	ev->id = o->id;
	ev->per_image = o->per_image;
	ev->value = eq ? eq + 1 : NULL;
	if (o->arg == ARG_NONE && eq)
		return usage_fail("%s: option takes no value", arg);
	if (o->arg == ARG_REQUIRED && !eq) {
		if (*i + 1 >= argc)
			return usage_fail("%s: missing value", arg);
		ev->value = argv[++*i];
	}
	return 0;
}

static int collect_events(struct cli *c, int argc, char **argv)
{
	int i, only_inputs = 0;

	c->events = calloc(argc, sizeof(*c->events));
	if (!c->events)
		return wrap_fail("%s", strerror(ENOMEM));
	for (i = 1; i < argc; i++) {
		struct event *ev = &c->events[c->nevents];
		const char *a = argv[i];

		if (!only_inputs && !strcmp(a, "--")) {
			only_inputs = 1;
			continue;
		}
		if (only_inputs || a[0] != '-' || a[1] == '\0') {
			*ev = (struct event){ OPT_INPUT, a, a, 0 };
		} else if (parse_option(argv, argc, &i, ev)) {
			return -1;
		}
		c->nevents++;
	}
	return 0;
}

/* A decimal int, as the offload wrapper's integer options take. */
static int parse_int(const char *text, const char *v, long long lo,
		     long long hi, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(v, &end, 10);
	if (!*v || *end || errno || *out < lo || *out > hi)
		return usage_fail("%s: '%s' is not an integer from %lld to %lld",
				 text, v, lo, hi);
	return 0;
}

/*
 * A boolean value as LLVM's cl::opt<bool> parser takes it: none or "" is
 * true, then true, TRUE, True, 1 and false, FALSE, False, 0; -1 for
 * anything else.
 */
static int bool_value(const char *v)
{
	static const char *const yes[] = { "", "true", "TRUE", "True", "1" };
	static const char *const no[] = { "false", "FALSE", "False", "0" };
	size_t i;

	if (!v)
		return 1;
	for (i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcmp(v, yes[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcmp(v, no[i]))
			return 0;
	return -1;
}

/* -offload-compress and -emit-reg-funcs: no value or a boolean one. */
static int parse_bool(const char *text, const char *v, int *out)
{
	int b = bool_value(v);

	if (b < 0)
		return usage_fail("%s: '%s' is not a boolean (0, 1, true or false)",
				 text, v);
	*out = b;
	return 0;
}

/*
 * -batch is a boolean, as in clang-offload-wrapper: the tables are inputs
 * of their own, and "-batch=t.txt" is refused with the way to say it.
 */
static int parse_batch(const struct event *ev, int *batch)
{
	int b = bool_value(ev->value);

	if (b < 0)
		return usage_fail("%s: '%s' is not a boolean (0, 1, true or false); a table follows -batch as an input: -batch %s",
				 ev->text, ev->value, ev->value);
	*batch = b;
	return 0;
}

static int compress_option(struct cli *c, const struct event *ev)
{
	long long v;

	switch (ev->id) {
	case OPT_COMPRESS:
		return parse_bool(ev->text, ev->value, &c->job.compress.enabled);
	case OPT_COMPRESS_LEVEL:
		if (parse_int(ev->text, ev->value, INT_MIN, INT_MAX, &v))
			return -1;
		c->job.compress.level = (int)v;
		return 0;
	case OPT_COMPRESS_THRESHOLD:
		if (parse_int(ev->text, ev->value, INT_MIN, INT_MAX, &v))
			return -1;
		c->job.compress.threshold = v;
		return 0;
	default:
		return 0;
	}
}

static int set_image_version(struct cli *c, const struct event *ev, int v)
{
	if (c->job.image_version && c->job.image_version != v)
		return usage_fail("%s: conflicts with %s", ev->text,
				 c->job.version_opt);
	c->job.image_version = v;
	c->job.version_opt = ev->text;
	return 0;
}

static int wrap_option(struct cli *c, const struct event *ev)
{
	int on = 1;

	switch (ev->id) {
	case OPT_EMIT_REG_FUNCS:
		if (parse_bool(ev->text, ev->value, &on))
			return -1;
		c->job.set.no_reg_funcs = !on;
		return 0;
	case OPT_DESC_NAME:
		if (!*ev->value)
			return usage_fail("%s: the descriptor name is empty",
					 ev->text);
		c->job.set.desc_name = ev->value;
		return 0;
	case OPT_IMAGE_VERSION:
		if (strcmp(ev->value, "2") && strcmp(ev->value, "3"))
			return usage_fail("%s: unknown image version '%s' (expected 2 or 3)",
					 ev->text, ev->value);
		return set_image_version(c, ev, ev->value[0] - '0');
	case OPT_PREVIEW:
		return set_image_version(c, ev, 3);
	case OPT_OMP_NOTES:
		c->job.omp_notes = 1;
		return 0;
	default:
		return 0;
	}
}

static int parse_form(struct cli *c, const struct event *ev)
{
	if (!strcmp(ev->value, "descriptor")) {
		c->job.set.form = WRAP_FORM_DESCRIPTOR;
		c->form_opt = ev->text;
	} else if (!strcmp(ev->value, "blob")) {
		c->job.set.form = WRAP_FORM_BLOB;
		c->form_opt = ev->text;
	} else {
		return usage_fail("%s: unknown form '%s' (expected descriptor or blob)",
				 ev->text, ev->value);
	}
	return 0;
}

/*
 * What only the blob form has, refused without it: an -arch (the
 * SYCLBIN writer takes a native image's arch from its property sets).
 */
static int check_arch(const struct cli *c)
{
	if (!c->arch_opt)
		return 0;
	if (c->job.syclbin >= 0)
		return usage_fail("%s: conflicts with -syclbin (a SYCLBIN file takes a native image's arch from its compile_target property; use -form=blob)",
				 c->arch_opt);
	return usage_fail("%s: conflicts with %s (the DPC++ descriptor has no arch field; use -form=blob)",
			 c->arch_opt,
			 c->form_opt ? c->form_opt : "the default -form=descriptor");
}

/*
 * What only the descriptor form has, refused with -form=blob; what only
 * the blob form has, refused without it.
 */
static int check_form(const struct cli *c)
{
	const struct wrap_job *j = &c->job;

	if (j->set.form != WRAP_FORM_BLOB)
		return check_arch(c);
	if (j->syclbin >= 0)
		return usage_fail("%s: conflicts with -syclbin (a SYCLBIN file is no object)",
				 c->form_opt);
	if (j->set.desc_name)
		return usage_fail("%s: conflicts with -desc-name (the blob form has no descriptor)",
				 c->form_opt);
	if (j->image_version)
		return usage_fail("%s: conflicts with %s (the blob form has no device image structures)",
				 c->form_opt, j->version_opt);
	if (j->compress.enabled)
		return usage_fail("%s: conflicts with -offload-compress (an OffloadBinary has no image kind for a compressed image)",
				 c->form_opt);
	if (j->omp_notes)
		return usage_fail("%s: conflicts with -add-omp-offload-notes (the blob form holds SYCL images only)",
				 c->form_opt);
	return 0;
}

/* Options that are not about images; the first pass settles them. */
static int global_options(struct cli *c, int *exit_now)
{
	size_t i;

	for (i = 0; i < c->nevents; i++) {
		const struct event *ev = &c->events[i];

		switch (ev->id) {
		case OPT_HELP:
			usage(stdout);
			*exit_now = 1;
			return 0;
		case OPT_VERSION:
			printf("%s (%s) %s\n", PROG, PACKAGE_NAME,
			       PACKAGE_VERSION);
			*exit_now = 1;
			return 0;
		case OPT_OUTPUT:
			c->job.output = ev->value;
			break;
		case OPT_HOST:
			c->host = ev->value;
			break;
		case OPT_VERBOSE:
			c->job.verbose = 1;
			break;
		case OPT_WERROR:
			c->job.werror = 1;
			break;
		case OPT_NO_WARNINGS:
			c->job.no_warnings = 1;
			break;
		case OPT_SYCLBIN:
			c->job.syclbin = wrap_syclbin_state(ev->value);
			if (c->job.syclbin < 0)
				return usage_fail("%s: unknown SYCLBIN state '%s' (expected input, object or executable)",
						 ev->text, ev->value);
			break;
		case OPT_BATCH:
			if (parse_batch(ev, &c->batch))
				return -1;
			break;
		case OPT_INPUT:
			c->ninputs++;
			break;
		case OPT_COMPRESS:
		case OPT_COMPRESS_LEVEL:
		case OPT_COMPRESS_THRESHOLD:
			if (compress_option(c, ev))
				return -1;
			break;
		case OPT_EMIT_REG_FUNCS:
		case OPT_DESC_NAME:
		case OPT_OMP_NOTES:
		case OPT_IMAGE_VERSION:
		case OPT_PREVIEW:
			if (wrap_option(c, ev))
				return -1;
			break;
		case OPT_SYM_PROP:
			c->job.symprop = ev->value;
			break;
		case OPT_FORM:
			if (parse_form(c, ev))
				return -1;
			break;
		case OPT_ARCH:
			/* Checked here, before any input is read. */
			if (parse_arch(ev->text, ev->value))
				return -1;
			if (*ev->value && !c->arch_opt)
				c->arch_opt = ev->text;
			break;
		default:
			break;
		}
	}
	if (check_form(c))
		return -1;
	if (c->job.syclbin >= 0 && c->job.compress.enabled)
		return usage_fail("-syclbin: -offload-compress does not apply to SYCLBIN files (their modules are stored as they are)");
	c->job.set.image_version = c->job.image_version;
	return 0;
}

static int flush_group(struct cli *c)
{
	const char *image = c->group[0];
	int r;

	if (!c->ngroup)
		return 0;
	c->ngroup = 0;
	if (c->cur.kind < 0)
		return usage_fail("%s: no offload kind given before it (-kind=sycl)",
				 image);
	if (c->batch)
		return wrap_add_table(&c->job, &c->cur, image);
	r = wrap_add_image(&c->job, &c->cur, image, c->group[1],
			   c->cur.entries, c->cur.props, "");
	c->group[1] = NULL;
	return r;
}

static int add_input(struct cli *c, const char *path)
{
	if (!strcmp(path, "-"))
		return usage_fail("-: reading from standard input is not supported");
	if (c->batch) {
		/* Each input is a table, read with the options before it. */
		c->group[0] = path;
		c->ngroup = 1;
		return flush_group(c);
	}
	if (c->ngroup == 2)
		return usage_fail("%s: too many inputs for one image: an image takes at most one manifest file (give a per-image option such as -target= between images)",
				 path);
	c->group[c->ngroup++] = path;
	return 0;
}

static int image_option(struct cli *c, const struct event *ev)
{
	struct wrap_image_opts *o = &c->cur;

	switch (ev->id) {
	case OPT_KIND:
		return parse_kind(ev->text, ev->value, &o->kind);
	case OPT_FORMAT:
		return parse_format(ev->text, ev->value, &o->format);
	case OPT_TARGET:
		o->target = ev->value;
		break;
	case OPT_COMPILE_OPTS:
		o->compile_opts = ev->value;
		break;
	case OPT_LINK_OPTS:
		o->link_opts = ev->value;
		break;
	case OPT_ENTRIES:
		o->entries = ev->value;
		break;
	case OPT_PROPERTIES:
		o->props = ev->value;
		break;
	case OPT_ARCH:
		o->arch = ev->value;
		break;
	default:
		break;
	}
	return 0;
}

static int is_input(const struct event *ev)
{
	return ev->id == OPT_INPUT;
}

/*
 * A per-image option holds for the images after it: after the last input
 * (the table, with -batch) it would hold for none.
 */
static int check_trailing(const struct cli *c)
{
	size_t i = c->nevents;

	while (i > 0 && !is_input(&c->events[i - 1]))
		i--;
	for (; i < c->nevents; i++)
		if (c->events[i].per_image)
			return usage_fail("%s: after the last input, this option applies to no image (give it before the %s it is for)",
					 c->events[i].text,
					 c->batch ? "table" : "image");
	return 0;
}

/* The second pass: images in order, each with the options before it. */
static int sequence_images(struct cli *c)
{
	size_t i;

	if (check_trailing(c))
		return -1;
	c->cur.kind = -1;
	for (i = 0; i < c->nevents; i++) {
		const struct event *ev = &c->events[i];

		if (is_input(ev)) {
			if (add_input(c, ev->value))
				return -1;
			continue;
		}
		if (ev->per_image && (flush_group(c) || image_option(c, ev)))
			return -1;
	}
	return flush_group(c);
}

static int check_command(struct cli *c)
{
	if (!c->job.output)
		return usage_fail("no output file given (-o <file>)");
	if (!c->ninputs)
		return usage_fail("no input images given (see --help)");
	if (c->host) {
		c->job.set.mach = wrap_machine_from_triple(c->host);
		if (!c->job.set.mach)
			return usage_fail("-host=%s: unsupported host (x86_64 or aarch64 Linux: devimg-wrap writes ELF only)",
					 c->host);
	} else {
		c->job.set.mach = wrap_machine_default();
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cli c = { .job.syclbin = -1 };
	int exit_now = 0, r;

	c.job.compress.level = WRAP_COMPRESS_LEVEL;
	c.job.compress.threshold = WRAP_COMPRESS_THRESHOLD;
	r = collect_events(&c, argc, argv);
	if (!r)
		r = global_options(&c, &exit_now);
	if (!r && exit_now)
		goto out;
	if (!r)
		r = check_command(&c);
	if (!r)
		r = sequence_images(&c);
	if (!r)
		r = wrap_job_write(&c.job);
out:
	wrap_job_fini(&c.job);
	free(c.events);
	if (fflush(stdout) != 0 && !r)
		r = wrap_fail("standard output: %s", strerror(errno));
	return !r ? 0 : usage_error ? 2 : 1;
}
