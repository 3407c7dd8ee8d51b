// SPDX-License-Identifier: MIT
/*
 * devimg-dump's readers beyond the .devimg index (fuzz-reader.c has that
 * one): the container views of wrapper/dump-offload.c (a SYCLBIN in each
 * form as the images DPC++'s runtime makes of it, a bare OffloadBinary's
 * entries and decoded "symbols", the blobs of an ELF file's
 * SHT_LLVM_OFFLOADING sections and the images a constructor registers
 * from them), the binary descriptors wrapper/dump-descriptor.c finds by
 * their structure and follows through relocations, and then devimg-dump
 * itself (dump_run(), text and JSON) over the same file, which merges
 * those views with the index's, decodes launch metadata and device
 * globals and prints every value. The input is a file (a memfd, named
 * /proc/self/fd/N, as the tool maps its operands); standard output goes
 * to /dev/null and standard error is kept.
 *
 * Oracles, besides the sanitizers: every error is one line naming the
 * file, and so is every problem a view lists; what a view shows lies
 * in the file where the file holds it: a SYCLBIN's images, the images of
 * descriptors (their strings NUL-terminated in it), the registered images
 * of uncompressed blobs, each at its bin_offset; an OffloadBinary file's
 * entries are those offload_binary_parse_at() reads, byte for byte; the
 * descriptor search, given the bytes of the images it found as listed
 * already, finds none; devimg-dump exits 0 or 1, 1 exactly when it wrote
 * to standard error, each line "devimg-dump: <file>...".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "wrapper/dump.h"
#include "wrapper/dump-descriptor.h"
#include "wrapper/dump-offload.h"
#include "wrapper/json.h"
#include "props/offload-binary.h"
#include "wrapper/index-reader.h"
#include "props/syclbin.h"
#include "util/errmsg.h"

static const unsigned char *lo;
static size_t len;
static char path[64];
static FILE *null_out;
static volatile unsigned sink;

/* The input as a regular file named path; -1 when it cannot be made. */
static int input_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	size_t done = 0;
	ssize_t n;

	if (fd < 0) {
		fd = memfd_create("fuzz.elf", MFD_CLOEXEC);
		FUZZ_ASSERT(fd >= 0, "memfd_create: %s", strerror(errno));
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		null_out = fopen("/dev/null", "w");
		FUZZ_ASSERT(null_out, "/dev/null: %s", strerror(errno));
	}
	FUZZ_ASSERT(ftruncate(fd, 0) == 0, "ftruncate: %s", strerror(errno));
	while (done < size) {
		n = pwrite(fd, data + done, size - done, (off_t)done);
		FUZZ_ASSERT(n > 0, "pwrite: %s", strerror(errno));
		done += (size_t)n;
	}
	return 0;
}

static void touch(const void *p, uint64_t n)
{
	const unsigned char *b = p;
	unsigned s = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		s += b[i];
	sink += s;
}

static void check_err(int r, const struct errmsg *err, const char *name)
{
	FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM || r == -E2BIG ||
		    r == -EOPNOTSUPP || r == -EOVERFLOW || r == -EFBIG,
		    "error %d: %s", r, err->msg);
	fuzz_check_msg(err->msg, sizeof(err->msg), name);
}

/* A string of the model: NUL-terminated, inside the input when in is set. */
static void check_string(const char *s, int in, const char *what)
{
	const unsigned char *b = (const unsigned char *)s;

	FUZZ_ASSERT(s, "%s is NULL", what);
	if (in)
		FUZZ_ASSERT(b >= lo && b < lo + len &&
			    memchr(b, '\0', (size_t)(lo + len - b)),
			    "%s is not a string of the input", what);
	touch(s, strlen(s) + 1);
}

/*
 * An image of a view: with offsets, its bytes are the file's at
 * bin_offset unless DUMP_NOT_IN_FILE; in: its bytes and strings point
 * into the input.
 */
static void check_image(const struct reader_image *img, int offsets, int in)
{
	size_t i, j;

	check_string(img->target, in, "target");
	check_string(img->compile_opts, 0, "compile options");
	check_string(img->link_opts, 0, "link options");
	if (img->manifest)
		touch(img->manifest, img->manifest_size);
	touch(img->bin, img->bin_size);
	if (offsets && img->bin_offset != DUMP_NOT_IN_FILE) {
		FUZZ_ASSERT(img->bin_offset <= len &&
			    img->bin_size <= len - img->bin_offset,
			    "image %u: %llu bytes at %llu, past the file",
			    img->index, (unsigned long long)img->bin_size,
			    (unsigned long long)img->bin_offset);
		FUZZ_ASSERT(!img->bin_size ||
			    !memcmp(img->bin, lo + img->bin_offset,
				    img->bin_size),
			    "image %u: not the file's bytes at %llu",
			    img->index, (unsigned long long)img->bin_offset);
		if (in)
			FUZZ_ASSERT(img->bin == lo + img->bin_offset,
				    "image %u: bin_offset", img->index);
	}
	for (i = 0; i < img->nentries; i++)
		check_string(img->entries[i], in, "entry");
	for (i = 0; i < img->npropsets; i++) {
		check_string(img->propsets[i].name, in, "set name");
		for (j = 0; j < img->propsets[i].nprops; j++) {
			const struct devimg_prop *p =
				&img->propsets[i].props[j];

			check_string(p->name, in, "property name");
			if (p->type == 2)
				touch(p->value, p->size);
		}
	}
}

static void check_file(const struct devimg_file *f, int offsets, int in)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nimages; i++) {
		FUZZ_ASSERT(f->images[i].index == i, "image %zu: index %u", i,
			    f->images[i].index);
		check_image(&f->images[i], offsets, in);
	}
}

static void check_problems(const struct dump_container *c)
{
	const char *p;
	size_t i;

	for (i = 0; (p = dump_container_problem(c, i)); i++)
		fuzz_check_msg(p, strlen(p) + 1, path);
}

static void show(const struct dump_container *c)
{
	struct json_writer w;

	dump_container_text(null_out, c);
	json_init(&w, null_out);
	json_object_begin(&w);
	dump_container_json(&w, c);
	json_object_end(&w);
	FUZZ_ASSERT(json_finish(&w) == 0, "JSON");
}

/* A bare OffloadBinary file: its entries are the blobs', in order. */
static void check_entries(const struct devimg_file *f)
{
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	size_t off = 0, k = 0, j;

	FUZZ_ASSERT(f, "an OffloadBinary file without entries");
	while (off < len) {
		FUZZ_ASSERT(offload_binary_parse_at(lo, len, &off, "fuzz", &ob,
						    &err) == 0,
			    "the view reads what the reader does not: %s",
			    err.msg);
		for (j = 0; j < ob->nentries; j++, k++) {
			const struct offload_entry *e = &ob->entries[j];

			FUZZ_ASSERT(k < f->nimages, "entry %zu not shown", k);
			FUZZ_ASSERT(f->images[k].bin_size == e->image_size &&
				    (!e->image_size ||
				     !memcmp(f->images[k].bin, e->image,
					     e->image_size)),
				    "entry %zu: bytes differ", k);
		}
		offload_binary_free(ob);
	}
	FUZZ_ASSERT(k == f->nimages, "%zu entries shown of %zu", f->nimages,
		    k);
}

/* 1 when the input is a container devimg-dump reads as one. */
static int containers(void)
{
	struct dump_container *c = NULL;
	struct errmsg err = { 0 };
	const struct devimg_file *f;
	int r;

	r = dump_container_open(path, &c, &err);
	if (r < 0) {
		FUZZ_ASSERT(!c, "output on failure");
		check_err(r, &err, path);
		return 1;
	}
	if (r == 0) {
		FUZZ_ASSERT(!c, "output for no container");
		return 0;
	}
	f = dump_container_images(c);
	check_file(f, 1, 0);
	if (!f)
		check_entries(dump_container_entries(c));
	check_file(dump_container_entries(c), 0, 0);
	check_problems(c);
	show(c);
	dump_container_close(c);
	return 1;
}

static void offloading(void)
{
	struct dump_container *c = NULL;
	struct errmsg err = { 0 };
	int r;

	r = dump_offloading_open(path, &c, &err);
	if (r < 0) {
		FUZZ_ASSERT(!c, "output on failure");
		check_err(r, &err, path);
		return;
	}
	if (!c)
		return;
	check_file(dump_container_entries(c), 0, 0);
	check_file(dump_container_registered(c), 1, 0);
	check_problems(c);
	show(c);
	dump_container_close(c);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void descriptors(const uint8_t *data, size_t size)
{
	struct dump_descriptors *d = NULL, *again = NULL;
	struct errmsg err = { 0 };
	const struct devimg_file *f;
	uint64_t *known;
	size_t i;
	int r;

	r = dump_descriptors_open_mem(data, size, "fuzz.elf", NULL, 0, &d,
				      &err);
	if (r < 0) {
		check_err(r, &err, "fuzz.elf: ");
		return;
	}
	f = dump_descriptors_images(d);
	check_file(f, 1, 1);
	for (i = 0; f && i < f->nimages; i++)
		FUZZ_ASSERT(f->images[i].found &&
			    !strcmp(f->images[i].found, "descriptor"),
			    "image %zu: found", i);
	/* Images whose bytes were listed already are left out. */
	if (f && f->nimages) {
		known = malloc(f->nimages * sizeof(*known));
		FUZZ_ASSERT(known, "out of memory");
		for (i = 0; i < f->nimages; i++)
			known[i] = f->images[i].bin_offset;
		qsort(known, f->nimages, sizeof(*known), u64_cmp);
		r = dump_descriptors_open_mem(data, size, "fuzz.elf", known,
					      f->nimages, &again, &err);
		FUZZ_ASSERT(r == 0, "the second search failed: %s", err.msg);
		f = dump_descriptors_images(again);
		FUZZ_ASSERT(!f || !f->nimages,
			    "%zu images found again, listed already",
			    f->nimages);
		dump_descriptors_close(again);
		free(known);
	}
	dump_descriptors_close(d);
}

/* devimg-dump PATH (or --json): status 1 exactly when stderr says why. */
static void run_tool(enum dump_mode mode)
{
	struct dump_job job = { .mode = mode };
	char *files[] = { path }, *text = NULL, *line, *nl;
	FILE *out = stdout, *errs = stderr, *f;
	size_t tlen = 0, lines = 0;
	char prefix[96];
	int status;

	f = open_memstream(&text, &tlen);
	FUZZ_ASSERT(f, "open_memstream");
	fflush(stdout);
	stdout = null_out;
	stderr = f;
	status = dump_run(files, 1, &job);
	fflush(null_out);
	stdout = out;
	stderr = errs;
	fclose(f);
	dump_job_fini(&job);
	FUZZ_ASSERT(status == 0 || status == 1, "status %d", status);
	snprintf(prefix, sizeof(prefix), DUMP_PROG ": %s", path);
	for (line = text; line && *line; line = nl + 1, lines++) {
		nl = strchr(line, '\n');
		FUZZ_ASSERT(nl, "standard error ends without a newline");
		*nl = '\0';
		FUZZ_ASSERT(!strncmp(line, prefix, strlen(prefix)),
			    "a line of standard error does not name the file: %s",
			    line);
	}
	FUZZ_ASSERT(!status == !lines, "status %d with %zu lines on stderr",
		    status, lines);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	input_file(data, size);
	lo = data;
	len = size;
	if (!containers())
		offloading();
	descriptors(size ? data : (const uint8_t *)"", size);
	run_tool(size % 2 ? DUMP_JSON : DUMP_TEXT);
	return 0;
}
