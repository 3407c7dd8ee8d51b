// SPDX-License-Identifier: MIT
/*
 * devimg-wrap's warnings (lint.h).
 *
 * Magic numbers, as the runtimes and tools that read images take them:
 * SPIR-V 0x07230203 (either byte order), LLVM bitcode "BC" 0xC0DE and
 * its wrapper 0x0B17C0DE, ELF, the CUDA fatbin 0xBA55ED50, and PTX text
 * (".version" and ".target" in its first KiB). A SPIR-V module's
 * OpEntryPoint instructions come after its capabilities, extensions,
 * extended instruction sets and memory model, before anything else
 * (the SPIR-V specification's logical layout), so only that preamble is
 * read, an instruction at a time.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "util/escape.h"
#include "wrapper/lint.h"
#include "wrapper/wrap.h"
#include "util/le.h"

int wrap_warn(struct wrap_warnings *w, const char *fmt, ...)
{
	char **lines = realloc(w->lines, (w->n + 1) * sizeof(*lines));
	va_list ap;
	int n;

	if (!lines)
		return -1;
	w->lines = lines;
	va_start(ap, fmt);
	n = vasprintf(&lines[w->n], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	w->n++;
	return 0;
}

void wrap_warnings_print(const struct wrap_warnings *w, int as_errors)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		fprintf(stderr, WRAP_PROG ": %s: %s%s\n",
			as_errors ? "error" : "warning", w->lines[i],
			as_errors ? " [-Werror]" : "");
}

void wrap_warnings_fini(struct wrap_warnings *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->lines[i]);
	free(w->lines);
	w->lines = NULL;
	w->n = 0;
}

/* ---- reading an image's start ---- */

/* The image's bytes: from memory when it has them, else from its file. */
struct src {
	FILE *f;
	const unsigned char *mem;
	uint64_t size, pos;
};

/* Read n bytes; 1 when there are fewer left, -1 on a read error. */
static int src_read(struct src *s, void *buf, size_t n)
{
	if (s->mem) {
		if (s->size - s->pos < n)
			return 1;
		memcpy(buf, s->mem + s->pos, n);
		s->pos += n;
		return 0;
	}
	if (fread(buf, 1, n, s->f) == n)
		return 0;
	return ferror(s->f) ? -1 : 1;
}

enum magic {
	MAGIC_UNKNOWN,
	MAGIC_SPIRV,
	MAGIC_SPIRV_SWAPPED,
	MAGIC_BITCODE,
	MAGIC_BITCODE_WRAPPER,
	MAGIC_ELF,
	MAGIC_FATBIN,
	MAGIC_PTX,
};

static const struct {
	const char *what;
	const char *format;	/* the -format that fits */
} magics[] = {
	[MAGIC_UNKNOWN] = { "of no format devimg-wrap knows", NULL },
	[MAGIC_SPIRV] = { "SPIR-V", "-format=spirv" },
	[MAGIC_SPIRV_SWAPPED] = { "SPIR-V", "-format=spirv" },
	[MAGIC_BITCODE] = { "LLVM bitcode", "-format=llvmbc" },
	[MAGIC_BITCODE_WRAPPER] = { "LLVM bitcode", "-format=llvmbc" },
	[MAGIC_ELF] = { "an ELF file", "-format=native" },
	[MAGIC_FATBIN] = { "a CUDA fatbin", "-format=native" },
	[MAGIC_PTX] = { "PTX text", "-format=native or none" },
};

static enum magic magic_of(const unsigned char *head, size_t n)
{
	if (n >= 4 && get_le32(head) == 0x07230203)
		return MAGIC_SPIRV;
	if (n >= 4 && get_le32(head) == 0x03022307)
		return MAGIC_SPIRV_SWAPPED;
	if (n >= 4 && !memcmp(head, "BC\xc0\xde", 4))
		return MAGIC_BITCODE;
	if (n >= 4 && get_le32(head) == 0x0b17c0de)
		return MAGIC_BITCODE_WRAPPER;
	if (n >= 4 && !memcmp(head, "\x7f" "ELF", 4))
		return MAGIC_ELF;
	if (n >= 4 && get_le32(head) == 0xba55ed50)
		return MAGIC_FATBIN;
	if (!memchr(head, 0, n) && memmem(head, n, ".version", 8) &&
	    memmem(head, n, ".target", 7))
		return MAGIC_PTX;
	return MAGIC_UNKNOWN;
}

/* Whether -format=format contradicts what the file is. */
static int format_contradicts(int format, enum magic m)
{
	switch (format) {
	case DEVIMG_FORMAT_SPIRV:
		return m != MAGIC_SPIRV && m != MAGIC_SPIRV_SWAPPED;
	case DEVIMG_FORMAT_LLVMBC:
		return m != MAGIC_BITCODE && m != MAGIC_BITCODE_WRAPPER;
	case DEVIMG_FORMAT_NATIVE:
		/* Intermediate forms are not a device's own binary. */
		return m == MAGIC_SPIRV || m == MAGIC_SPIRV_SWAPPED ||
		       m == MAGIC_BITCODE || m == MAGIC_BITCODE_WRAPPER;
	default:
		return 0;	/* none: the runtime looks at the magic */
	}
}

static const char *format_name(int format)
{
	switch (format) {
	case DEVIMG_FORMAT_NATIVE:
		return "native";
	case DEVIMG_FORMAT_SPIRV:
		return "spirv";
	case DEVIMG_FORMAT_LLVMBC:
		return "llvmbc";
	default:
		return "none";
	}
}

/* ---- SPIR-V entry points ---- */

#define SPV_OP_EXTENSION 10
#define SPV_OP_EXT_INST_IMPORT 11
#define SPV_OP_MEMORY_MODEL 14
#define SPV_OP_ENTRY_POINT 15
#define SPV_OP_CAPABILITY 17

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *s, const char *name, size_t len)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n] = strndup(name, len);
	return s->v[s->n] ? (int)(s->n++, 0) : -1;
}

static void names_fini(struct names *s)
{
	while (s->n)
		free(s->v[--s->n]);
	free(s->v);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names of the module's OpEntryPoint instructions, the 5-word header
 * read already. 0; 1 when the preamble holds no OpMemoryModel, which
 * every module has (a cut file, or bytes that only start like SPIR-V: no
 * warning can be trusted); -1 on a read error or out of memory.
 */
static int entry_points(struct src *s, int swapped, struct names *out)
{
	uint32_t word, *ins = NULL;
	size_t cap = 0;
	int r, model = 0;

	for (;;) {
		unsigned op, count;
		size_t len, max;

		r = src_read(s, &word, 4);
		if (r)
			break;
		if (swapped)
			word = __builtin_bswap32(word);
		op = word & 0xffff;
		count = word >> 16;
		if (op != SPV_OP_CAPABILITY && op != SPV_OP_EXTENSION &&
		    op != SPV_OP_EXT_INST_IMPORT && op != SPV_OP_MEMORY_MODEL &&
		    op != SPV_OP_ENTRY_POINT)
			break;
		if (count == 0) {
			r = 1;
			break;
		}
		if (count - 1 > cap) {
			uint32_t *grown = realloc(ins, (count - 1) * 4);

			if (!grown) {
				r = -1;
				break;
			}
			ins = grown;
			cap = count - 1;
		}
		r = src_read(s, ins, (count - 1) * 4);
		if (r)
			break;
		model |= op == SPV_OP_MEMORY_MODEL;
		/* Execution model, function id, then the name. */
		if (op != SPV_OP_ENTRY_POINT || count < 4)
			continue;
		max = (count - 3) * 4;
		if (swapped) {
			size_t i;

			for (i = 2; i < count - 1; i++)
				ins[i] = __builtin_bswap32(ins[i]);
		}
		len = strnlen((const char *)&ins[2], max);
		if (names_add(out, (const char *)&ins[2], len)) {
			r = -1;
			break;
		}
	}
	free(ins);
	if (r < 0)
		return -1;
	return model ? 0 : 1;
}

/* Quote a name for a warning: escaped, cut after 200 bytes. */
static const char *quoted(char *buf, size_t size, const char *name)
{
	esc_snprintf(buf, size, NULL, "'%.200s%s'", name,
		     strlen(name) > 200 ? "..." : "");
	return buf;
}

/* Kernels of img's list that are not entry points of its module. */
static int check_entry_points(const struct wrap_image *img, struct src *s,
			      int swapped, struct wrap_warnings *w)
{
	struct names eps = { 0 };
	char q[3][512];
	size_t i, missing = 0, shown = 0;
	const char *list = img->entries_path ? img->entries_path :
					       "its kernel list";
	int r;

	r = entry_points(s, swapped, &eps);
	if (r) {
		names_fini(&eps);
		return r < 0 ? -1 : 0;
	}
	qsort(eps.v, eps.n, sizeof(*eps.v), cmp_name);
	for (i = 0; i < img->entries.n; i++) {
		const char *k = img->entries.names[i];

		if (bsearch(&k, eps.v, eps.n, sizeof(*eps.v), cmp_name))
			continue;
		if (shown < 3)
			quoted(q[shown++], sizeof(q[0]), k);
		missing++;
	}
	names_fini(&eps);
	if (!missing)
		return 0;
	return wrap_warn(w, "%s: %zu kernel%s of %s %s not an OpEntryPoint of the SPIR-V module: %s%s%s%s%s%s%s",
			 img->path, missing, missing == 1 ? "" : "s", list,
			 missing == 1 ? "is" : "are", q[0],
			 shown > 1 ? ", " : "", shown > 1 ? q[1] : "",
			 shown > 2 ? ", " : "", shown > 2 ? q[2] : "",
			 missing > shown ? " and more" : "",
			 img->where ? img->where : "");
}

/* ---- one image ---- */

/* Whether a manifest's bytes look like a kernel list: names, a line each. */
static int looks_like_names(const unsigned char *p, size_t n)
{
	size_t i, names = 0;
	int start = 1;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (c == '\n' || c == '\r') {
			start = 1;
			continue;
		}
		if (start) {
			if (!(c == '_' || c == '$' || (c >= 'A' && c <= 'Z') ||
			      (c >= 'a' && c <= 'z')))
				return 0;
			names++;
			start = 0;
			continue;
		}
		if (!(c == '_' || c == '$' || c == '.' ||
		      (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
		      (c >= 'a' && c <= 'z')))
			return 0;
	}
	return names > 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int lint_image(const struct wrap_image *img, struct wrap_warnings *w)
{
	const char *where = img->where ? img->where : "";
	unsigned char head[1024];
	struct src s = { NULL, img->data, img->size, 0 };
	size_t got = 0;
	enum magic m;
	int r = 0;

	if (img->kind == DEVIMG_KIND_HOST)
		return 0;
	if (img->kind == DEVIMG_KIND_SYCL && !img->has_entries &&
	    !img->no_entries_asked &&
	    wrap_warn(w, "%s: a SYCL image without a kernel list (-entries=FILE): no kernel of it can be found at run time (-entries=\"\" says it has none)%s",
		      img->path, where))
		return -1;
	if (img->manifest_path &&
	    (ends_with(img->manifest_path, ".sym") ||
	     looks_like_names(img->manifest, img->manifest_size)) &&
	    wrap_warn(w, "%s: taken as the manifest of %s, but it looks like a kernel list (give it as -entries=%s)%s",
		      img->manifest_path, img->path, img->manifest_path,
		      where))
		return -1;
	if (!s.mem) {
		s.f = fopen(img->path, "rb");
		if (!s.f) {
			fprintf(stderr, WRAP_PROG ": %s: %s%s\n", img->path,
				strerror(errno), where);
			return -1;
		}
	}
	/* The magic number: the first 4 bytes; PTX: the first KiB. */
	got = s.mem ? (s.size < sizeof(head) ? s.size : sizeof(head)) :
		      fread(head, 1, sizeof(head), s.f);
	if (s.mem)
		memcpy(head, s.mem, got);
	m = magic_of(head, got);
	if (format_contradicts(img->format, m))
		r = wrap_warn(w, "%s: -format=%s, but the file is %s%s%s%s%s",
			      img->path, format_name(img->format),
			      magics[m].what, magics[m].format ? " (" : "",
			      magics[m].format ? magics[m].format : "",
			      magics[m].format ? ")" : "", where);
	if (!r && img->kind == DEVIMG_KIND_SYCL && img->has_entries &&
	    img->entries.n && got >= 20 &&
	    (m == MAGIC_SPIRV || m == MAGIC_SPIRV_SWAPPED)) {
		/* Back to the first instruction, past the 5-word header. */
		if (s.mem)
			s.pos = 20;
		else if (fseek(s.f, 20, SEEK_SET))
			r = -1;
		if (!r)
			r = check_entry_points(img, &s, m == MAGIC_SPIRV_SWAPPED,
					       w);
	}
	if (s.f) {
		if (r < 0 || ferror(s.f))
			fprintf(stderr, WRAP_PROG ": %s: %s%s\n", img->path,
				ferror(s.f) ? "cannot read" : strerror(ENOMEM),
				where);
		fclose(s.f);
	} else if (r < 0) {
		fprintf(stderr, WRAP_PROG ": %s: %s%s\n", img->path,
			strerror(ENOMEM), where);
	}
	return r < 0 ? -1 : 0;
}

int wrap_lint(const struct wrap_set *set, struct wrap_warnings *w)
{
	size_t i;

	for (i = 0; i < set->nimages; i++)
		if (lint_image(&set->images[i], w))
			return -1;
	return 0;
}
