// SPDX-License-Identifier: MIT
/*
 * devimg-wrap: device images, entry lists and property sets in, an ELF
 * relocatable object that registers them with __sycl_register_lib() out.
 *
 * The command line follows DPC++'s clang-offload-wrapper: per-image options
 * (-kind, -target, -format, -compile-opts, -link-opts, -entries,
 * -properties) set a value that holds for every image after it until it is
 * given again; an image file may be followed by one manifest file; in batch
 * mode every input is a file table whose rows name each image's files, and
 * the per-image options before a table apply to every row of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "compress.h"
#include "ompnotes.h"
#include "devimg_limits.h"
#include "outfile.h"
#include "props.h"
#include "symprop.h"
#include "writer.h"
#include "wrap-syclbin.h"

#define PROG "devimg-wrap"

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
};

enum arg_kind {
	ARG_NONE,	/* -v */
	ARG_REQUIRED,	/* -target=x or -target x */
	ARG_OPTIONAL,	/* -batch or -batch=table */
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
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One command-line item, in order. */
struct event {
	enum opt_id id;
	const char *text;	/* the argument as given, for messages */
	const char *value;
	int per_image;
};

/* Values that hold for every image after them, until given again. */
struct image_opts {
	int kind;	/* -1: not given */
	int format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	const char *entries;
	const char *props;
};

struct cli {
	struct event *events;
	size_t nevents;
	const char *output;
	const char *host;
	int verbose;
	int batch;
	int image_version;	/* 0: not given */
	const char *version_opt;	/* the option that set it */
	const char *symprop;	/* --sym-prop-bc-files table */
	int syclbin;	/* -1: an ELF object; else the SYCLBIN state */
	size_t ninputs;
	struct image_opts cur;
	const char *group[2];	/* image [manifest] waiting for its options */
	size_t ngroup;
	struct wrap_set set;
	struct wrap_compress compress;
	int omp_notes;		/* -add-omp-offload-notes */
};

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* A props library message names its place; add the file only if not. */
static int fail_props(const char *fname, const struct props_error *err,
		      const char *where)
{
	size_t n = strlen(fname);

	if (!strncmp(err->msg, fname, n) && err->msg[n] == ':')
		return fail("%s%s", err->msg, where);
	return fail("%s: %s%s", fname, err->msg, where);
}

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o <file> [-host=<triple>] [-v] -kind=sycl\n"
	      "         [per-image options] <image> [<manifest>] ...\n"
	      "       " PROG " -o <file> [-host=<triple>] -kind=sycl [per-image options]\n"
	      "         -batch <table>\n"
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
	      "An image file may be followed by its manifest file.\n"
	      "\n"
	      "Other options:\n"
	      "  -o <file>               the object to write\n"
	      "  -host=<triple>          x86_64-linux-gnu (default) or aarch64-linux-gnu\n"
	      "  -syclbin=<state>        write a SYCLBIN file in state input, object or\n"
	      "                          executable instead of an object\n"
	      "  -batch                  every input is a file table\n"
	      "                          [Code|Symbols|Properties|Manifest]; -batch=<table>\n"
	      "                          names one directly\n"
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
	      "  -h, -help, --help       print this help and exit\n"
	      "  -version, --version     print the version and exit\n"
	      "A value follows '=' or comes as the next argument; two leading\n"
	      "dashes work as one; \"--\" ends the options.\n", f);
}

/* ---- files ---- */

/*
 * An input refused by props_input_open(): one that cannot be opened says
 * "PATH: reason" as devimg-wrap always said, the rest as the props
 * library words it ("PATH: cannot read: not a regular file (FIFO)").
 */
static int fail_input(const char *path, int r, const struct props_error *err,
		      const char *where)
{
	size_t n = strlen(path);

	if (!strncmp(err->msg, path, n) &&
	    !strncmp(err->msg + n, ": cannot open: ", 15))
		return fail("%s: %s%s", path, strerror(-r), where);
	return fail_props(path, err, where);
}

/*
 * Read a whole text input (entries, properties, table, manifest), at most
 * DEVIMG_LIMIT_TEXT_FILE bytes; where names the table row that gave its
 * name ("" on the command line).
 */
static int read_whole(const char *path, char **text, size_t *len,
		      const char *where)
{
	struct props_error err = { "" };
	int r;

	r = props_input_read(path, DEVIMG_LIMIT_TEXT_FILE, text, len, &err);
	return r < 0 ? fail_input(path, r, &err, where) : 0;
}

/*
 * An image must be a regular file of at most DEVIMG_LIMIT_IMAGE_FILE
 * bytes; only its size is read now.
 */
static int check_image(const char *path, uint64_t *size, const char *where)
{
	struct props_error err = { "" };
	int fd;

	fd = props_input_open(path, DEVIMG_LIMIT_IMAGE_FILE, size, &err);
	if (fd < 0)
		return fail_input(path, fd, &err, where);
	close(fd);
	return 0;
}

/*
 * A set name as a message shows it: control characters and quotes as
 * escapes, cut after 64 bytes.
 */
static const char *quote_name(char *out, size_t outlen, const char *s)
{
	size_t i, o = 0;

	for (i = 0; s[i] && i < 64 && o + 8 < outlen; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == '\\' || c == '\'')
			o += snprintf(out + o, outlen - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	if (s[i] && o + 4 < outlen)
		o += snprintf(out + o, outlen - o, "...");
	out[o] = '\0';
	return out;
}

/*
 * What libdevimg checks at load time (loader/registry/descriptor.c), checked here so
 * that no object is written that it would refuse: counts of entries, of
 * property sets and of properties in a set, and byte-array sizes.
 */
static int check_limits(const struct wrap_image *img, const char *entries,
			const char *props, const char *where)
{
	char q[320];
	size_t i, j;

	if (img->has_entries && img->entries.n > DEVIMG_LIMIT_ENTRIES)
		return fail("%s: %zu kernel names, more than the %u of an image that libdevimg accepts%s",
			    entries, img->entries.n, DEVIMG_LIMIT_ENTRIES,
			    where);
	if (!img->props)
		return 0;
	if (img->props->nsets > DEVIMG_LIMIT_PROPS)
		return fail("%s: %zu property sets, more than the %u of an image that libdevimg accepts%s",
			    props, img->props->nsets, DEVIMG_LIMIT_PROPS,
			    where);
	for (i = 0; i < img->props->nsets; i++) {
		const struct props_set *set = &img->props->sets[i];

		if (set->nprops > DEVIMG_LIMIT_PROPS)
			return fail("%s: set '%s': %zu properties, more than the %u of a set that libdevimg accepts%s",
				    props, quote_name(q, sizeof(q), set->name),
				    set->nprops, DEVIMG_LIMIT_PROPS, where);
		for (j = 0; j < set->nprops; j++) {
			const struct props_prop *p = &set->props[j];

			if (p->type == PROPS_BYTE_ARRAY &&
			    (uint64_t)p->size > DEVIMG_LIMIT_BYTE_ARRAY)
				return fail("%s: set '%s': property %zu: byte array of %zu bytes, more than the %llu that libdevimg accepts%s",
					    props,
					    quote_name(q, sizeof(q), set->name),
					    j, p->size,
					    (unsigned long long)DEVIMG_LIMIT_BYTE_ARRAY,
					    where);
		}
	}
	return 0;
}

/* ---- one image ---- */

static int load_manifest(struct wrap_image *img, const char *path,
			 const char *where)
{
	char *text;
	size_t len;

	if (read_whole(path, &text, &len, where))
		return -1;
	img->has_manifest = 1;
	img->manifest = (unsigned char *)text;
	img->manifest_size = len;
	return 0;
}

/* What a per-image text file holds: kernel names or property sets. */
enum text_kind { TEXT_ENTRIES, TEXT_PROPS };

static int load_text(struct wrap_image *img, const char *path,
		     const char *where, enum text_kind kind)
{
	struct props_error err = { "" };
	char *text;
	size_t len;
	int r;

	if (read_whole(path, &text, &len, where))
		return -1;
	if (kind == TEXT_ENTRIES)
		r = props_sym_parse(text, len, path, &img->entries, &err);
	else
		r = props_parse(text, len, path, &img->props, &err);
	free(text);
	if (r)
		return fail_props(path, &err, where);
	if (kind == TEXT_ENTRIES)
		img->has_entries = 1;
	return 0;
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/*
 * Add one image. entries, props and manifest: NULL or "" for none. where
 * says which table row it comes from ("" on the command line).
 */
static int add_image(struct cli *c, const struct image_opts *o,
		     const char *path, const char *manifest,
		     const char *entries, const char *props, const char *where)
{
	struct wrap_image *img;

	if (c->set.nimages >= WRAP_MAX_IMAGES)
		return fail("%s: too many images (at most %u)%s", path,
			    WRAP_MAX_IMAGES, where);
	img = wrap_set_add(&c->set);
	if (!img)
		return fail("%s: %s", path, strerror(ENOMEM));
	img->kind = o->kind;
	img->format = o->format;
	img->path = strdup(path);
	img->target = dup_or_empty(o->target);
	img->compile_opts = dup_or_empty(o->compile_opts);
	img->link_opts = dup_or_empty(o->link_opts);
	if (!img->path || !img->target || !img->compile_opts ||
	    !img->link_opts)
		return fail("%s: %s", path, strerror(ENOMEM));
	if (check_image(path, &img->size, where))
		return -1;
	if (manifest && *manifest && load_manifest(img, manifest, where))
		return -1;
	if (entries && *entries && load_text(img, entries, where, TEXT_ENTRIES))
		return -1;
	if (props && *props && load_text(img, props, where, TEXT_PROPS))
		return -1;
	return check_limits(img, entries, props, where);
}

/* ---- batch tables ---- */

static int add_row(struct cli *c, const char *table,
		   const struct props_table_row *row)
{
	char where[64 + 4096];
	const char *code = row->cell[PROPS_COL_CODE];

	snprintf(where, sizeof(where), " (%s:%u)", table, row->line);
	if (!code || !*code)
		return fail("%s:%u: image file name missing", table,
			    row->line);
	return add_image(c, &c->cur, code, row->cell[PROPS_COL_MANIFEST],
			 row->cell[PROPS_COL_SYMBOLS],
			 row->cell[PROPS_COL_PROPERTIES], where);
}

static int add_table(struct cli *c, const char *table)
{
	struct props_table t = { 0 };
	struct props_error err = { "" };
	char *text;
	size_t len, i;
	int r;

	if (read_whole(table, &text, &len, ""))
		return -1;
	r = props_table_parse(text, len, table, &t, &err);
	free(text);
	if (r)
		return fail_props(table, &err, "");
	/* A table without rows adds no image, as in DPC++. */
	if (!t.has[PROPS_COL_CODE])
		r = fail("%s:1: the table has no Code column", table);
	for (i = 0; !r && i < t.nrows; i++)
		r = add_row(c, table, &t.rows[i]);
	props_table_fini(&t);
	return r;
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
		return fail("%s: offload kind 'unknown' sets no offload model (expected sycl, openmp, hip or host)",
			    text);
	return fail("%s: unknown offload kind '%s' (expected sycl, openmp, hip or host)",
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
	return fail("%s: unknown image format '%s' (expected none, native, spirv or llvmbc)",
		    text, v);
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
		return fail("%s: unknown option (see --help)", arg);
	ev->id = o->id;
	ev->per_image = o->per_image;
	ev->value = eq ? eq + 1 : NULL;
	if (o->arg == ARG_NONE && eq)
		return fail("%s: option takes no value", arg);
	if (o->arg == ARG_REQUIRED && !eq) {
		if (*i + 1 >= argc)
			return fail("%s: missing value", arg);
		ev->value = argv[++*i];
	}
	return 0;
}

static int collect_events(struct cli *c, int argc, char **argv)
{
	int i, only_inputs = 0;

	c->events = calloc(argc, sizeof(*c->events));
	if (!c->events)
		return fail("%s", strerror(ENOMEM));
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
		return fail("%s: '%s' is not an integer from %lld to %lld",
			    text, v, lo, hi);
	return 0;
}

/* -offload-compress takes no value or a boolean one, as LLVM's flags. */
static int parse_bool(const char *text, const char *v, int *out)
{
	static const char *const yes[] = { "true", "TRUE", "True", "1" };
	static const char *const no[] = { "false", "FALSE", "False", "0" };
	size_t i;

	if (!v) {
		*out = 1;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcmp(v, yes[i]) || !strcmp(v, no[i])) {
			*out = !strcmp(v, yes[i]);
			return 0;
		}
	}
	return fail("%s: '%s' is not a boolean (0, 1, true or false)",
		    text, v);
}

static int compress_option(struct cli *c, const struct event *ev)
{
	long long v;

	switch (ev->id) {
	case OPT_COMPRESS:
		return parse_bool(ev->text, ev->value, &c->compress.enabled);
	case OPT_COMPRESS_LEVEL:
		if (parse_int(ev->text, ev->value, INT_MIN, INT_MAX, &v))
			return -1;
		c->compress.level = (int)v;
		return 0;
	case OPT_COMPRESS_THRESHOLD:
		if (parse_int(ev->text, ev->value, INT_MIN, INT_MAX, &v))
			return -1;
		c->compress.threshold = v;
		return 0;
	default:
		return 0;
	}
}

static int set_image_version(struct cli *c, const struct event *ev, int v)
{
	if (c->image_version && c->image_version != v)
		return fail("%s: conflicts with %s", ev->text, c->version_opt);
	c->image_version = v;
	c->version_opt = ev->text;
	return 0;
}

static int wrap_option(struct cli *c, const struct event *ev)
{
	int on = 1;

	switch (ev->id) {
	case OPT_EMIT_REG_FUNCS:
		if (parse_bool(ev->text, ev->value, &on))
			return -1;
		c->set.no_reg_funcs = !on;
		return 0;
	case OPT_DESC_NAME:
		if (!*ev->value)
			return fail("%s: the descriptor name is empty",
				    ev->text);
		c->set.desc_name = ev->value;
		return 0;
	case OPT_IMAGE_VERSION:
		if (strcmp(ev->value, "2") && strcmp(ev->value, "3"))
			return fail("%s: unknown image version '%s' (expected 2 or 3)",
				    ev->text, ev->value);
		return set_image_version(c, ev, ev->value[0] - '0');
	case OPT_PREVIEW:
		return set_image_version(c, ev, 3);
	case OPT_OMP_NOTES:
		c->omp_notes = 1;
		return 0;
	default:
		return 0;
	}
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
			c->output = ev->value;
			break;
		case OPT_HOST:
			c->host = ev->value;
			break;
		case OPT_VERBOSE:
			c->verbose = 1;
			break;
		case OPT_SYCLBIN:
			c->syclbin = wrap_syclbin_state(ev->value);
			if (c->syclbin < 0)
				return fail("%s: unknown SYCLBIN state '%s' (expected input, object or executable)",
					    ev->text, ev->value);
			break;
		case OPT_BATCH:
			c->batch = 1;
			if (ev->value)
				c->ninputs++;
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
			c->symprop = ev->value;
			break;
		default:
			break;
		}
	}
	if (c->syclbin >= 0 && c->compress.enabled)
		return fail("-syclbin: -offload-compress does not apply to SYCLBIN files (their modules are stored as they are)");
	c->set.image_version = c->image_version;
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
		return fail("%s: no offload kind given before it (-kind=sycl)",
			    image);
	if (c->batch)
		return add_table(c, image);
	r = add_image(c, &c->cur, image, c->group[1], c->cur.entries,
		      c->cur.props, "");
	c->group[1] = NULL;
	return r;
}

static int add_input(struct cli *c, const char *path)
{
	if (!strcmp(path, "-"))
		return fail("-: reading from standard input is not supported");
	if (c->batch) {
		/* Each input is a table, read with the options before it. */
		c->group[0] = path;
		c->ngroup = 1;
		return flush_group(c);
	}
	if (c->ngroup == 2)
		return fail("%s: too many inputs for one image: an image takes at most one manifest file (give a per-image option such as -target= between images)",
			    path);
	c->group[c->ngroup++] = path;
	return 0;
}

static int image_option(struct cli *c, const struct event *ev)
{
	struct image_opts *o = &c->cur;

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
	default:
		break;
	}
	return 0;
}

static int is_input(const struct event *ev)
{
	return ev->id == OPT_INPUT || (ev->id == OPT_BATCH && ev->value);
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
			return fail("%s: after the last input, this option applies to no image (give it before the %s it is for)",
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
	if (!c->output)
		return fail("no output file given (-o <file>)");
	if (!c->ninputs)
		return fail("no input images given (see --help)");
	if (c->host) {
		c->set.mach = wrap_machine_from_triple(c->host);
		if (!c->set.mach)
			return fail("-host=%s: unsupported host (x86_64 or aarch64 Linux: devimg-wrap writes ELF only)",
				    c->host);
	} else {
		c->set.mach = wrap_machine_default();
	}
	return 0;
}

/* ---- output ---- */

/* Copy what fd holds, from its start, to standard output. */
static int copy_to_stdout(int fd)
{
	char buf[65536];
	ssize_t n, w, done;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return fail("standard output: %s", strerror(errno));
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail("standard output: %s", strerror(errno));
		if (n == 0)
			return 0;
		for (done = 0; done < n; done += w) {
			w = write(STDOUT_FILENO, buf + done, n - done);
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w <= 0)
				return fail("standard output: %s",
					    strerror(w < 0 ? errno : EIO));
		}
	}
}

/*
 * "-o -": the writer needs a regular file it can seek in, so the object
 * is made in an unnamed temporary file first; nothing reaches standard
 * output unless it was all written.
 */
/* The object, or the SYCLBIN file, to fd. */
static int write_to(struct cli *c, int fd, const char *name,
		    struct wrap_error *err)
{
	if (c->syclbin >= 0)
		return wrap_write_syclbin(&c->set, (uint32_t)c->syclbin, fd,
					  name, err);
	return wrap_write_object(&c->set, fd, name,
				 c->verbose ? stderr : NULL, err);
}

static int write_stdout(struct cli *c)
{
	struct wrap_error err = { "" };
	FILE *tmp = tmpfile();
	int r;

	if (!tmp)
		return fail("-o -: cannot create a temporary file: %s",
			    strerror(errno));
	r = write_to(c, fileno(tmp), "-", &err);
	if (r)
		r = fail("%s", err.msg);
	else
		r = copy_to_stdout(fileno(tmp));
	fclose(tmp);
	return r;
}

static int write_output(struct cli *c)
{
	struct wrap_error err = { "" };
	struct out_file out;
	int r;

	if (wrap_compress_images(&c->set, &c->compress,
				 c->verbose ? stderr : NULL, &err))
		return fail("%s", err.msg);
	if (!strcmp(c->output, "-"))
		return write_stdout(c);
	out_catch_signals();
	if (out_open(&out, c->output, err.msg, sizeof(err.msg)))
		return fail("%s", err.msg);
	r = write_to(c, out.fd, c->output, &err);
	if (r) {
		out_abort(&out);
		return fail("%s", err.msg);
	}
	if (out_commit(&out, err.msg, sizeof(err.msg)))
		return fail("%s", err.msg);
	return 0;
}

static int take_symprop(struct cli *c)
{
	char err[1024];

	if (wrap_symprop_apply(&c->set, c->symprop, err, sizeof(err)))
		return fail("%s", err);
	return 0;
}

/* Version 3 images have no manifest pointers: a manifest would be lost. */
static int check_version(const struct cli *c)
{
	size_t i;

	if (c->image_version < 3)
		return 0;
	for (i = 0; i < c->set.nimages; i++)
		if (c->set.images[i].has_manifest)
			return fail("%s: a manifest cannot go into a version 3 image (given %s)",
				    c->set.images[i].path, c->version_opt);
	return 0;
}

static void print_plan(const struct cli *c)
{
	size_t i;

	for (i = 0; i < c->set.nimages; i++) {
		const struct wrap_image *img = &c->set.images[i];

		fprintf(stderr, PROG ": image %zu: %s, %llu bytes, target '%s', compile options '%s', link options '%s'\n",
			i, img->path, (unsigned long long)img->size,
			img->target, img->compile_opts, img->link_opts);
	}
}

/*
 * As DPC++'s wrapper: an OpenMP image that cannot take the notes is
 * wrapped as it is, after a warning.
 */
static int add_omp_notes(struct cli *c)
{
	struct props_error perr = { "" };
	size_t i, len, out_len;
	unsigned char *out;
	char why[128];
	char *in;
	int r;

	for (i = 0; i < c->set.nimages; i++) {
		struct wrap_image *img = &c->set.images[i];

		if (img->kind != DEVIMG_KIND_OPENMP || img->data)
			continue;
		r = props_input_read(img->path, DEVIMG_LIMIT_IMAGE_FILE, &in,
				     &len, &perr);
		if (r < 0)
			return fail_input(img->path, r, &perr, "");
		r = omp_notes_add((unsigned char *)in, len, "devimg",
				  PACKAGE_VERSION, &out, &out_len, why,
				  sizeof(why));
		free(in);
		if (r < 0)
			return fail("%s: %s", img->path, strerror(ENOMEM));
		if (r > 0) {
			fprintf(stderr, PROG ": warning: %s %s, so notes cannot be added to it.\n",
				img->path, why);
			continue;
		}
		img->data = out;
		img->size = out_len;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cli c = { .syclbin = -1 };
	int exit_now = 0, r;

	c.compress.level = WRAP_COMPRESS_LEVEL;
	c.compress.threshold = WRAP_COMPRESS_THRESHOLD;
	r = collect_events(&c, argc, argv);
	if (!r)
		r = global_options(&c, &exit_now);
	if (!r && exit_now)
		goto out;
	if (!r)
		r = check_command(&c);
	if (!r)
		r = sequence_images(&c);
	if (!r && c.symprop)
		r = take_symprop(&c);
	if (!r && c.omp_notes)
		r = add_omp_notes(&c);
	if (!r)
		r = check_version(&c);
	if (!r && c.verbose)
		print_plan(&c);
	if (!r)
		r = write_output(&c);
out:
	wrap_set_fini(&c.set);
	free(c.events);
	if (fflush(stdout) != 0 && !r)
		r = fail("standard output: %s", strerror(errno));
	return r ? 1 : 0;
}
