// SPDX-License-Identifier: MIT
/*
 * A plugin of no vendor API, in the way DEVIMG_TEST_FAKE says:
 *   fail (or unset)  init fails with -ENODEV and a message
 *   abi              init claims ABI version 99
 *   partial          init succeeds with operations missing
 *   device           a whole table: one platform, one CPU device
 *                    "devimg fake device"; programs are made of SPIR-V
 *                    but never built
 *   nodevice         the same, its platform listing no device
 *   nocontext        the same, context_create failing with a message
 *   short            the same, its size the minimum
 *                    (DEVIMG_PLUGIN_OPS_MIN_SIZE): no optional operation,
 *                    though the bytes past that size hold them
 *   tiny             the same, its table stopping before launch
 *   globals          a whole table whose programs hold variables in
 *                    memory (device globals, see below) and whose
 *                    buffers are host memory, kernels still refused
 *   globals-short    the same, its table stopping before global_info:
 *                    programs are made, device globals are unreachable
 * With DEVIMG_TEST_FAKE_MARKS=DIR (not empty), init first writes
 * DIR/BACKEND.started, BACKEND being what the file's name says
 * (devimg-BACKEND.so), and the plugin gives that backend; with
 * DEVIMG_TEST_FAKE_WAIT=N too, init then waits, up to 30 s, until N such
 * files are there (the inits of N copies under several names run at
 * once), and fails if they are not.
 * Built in the tree against plugins/devimg_plugin.h, and by
 * tests/pkg/plugin-sdk.sh out of the tree against the installed header
 * (DEVIMG_FAKE_INSTALLED).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* dladdr() */
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef DEVIMG_FAKE_INSTALLED
#include <devimg/devimg_plugin.h>
#else
#include "plugins/devimg_plugin.h"
#endif

/* Handles are the addresses of these; nothing is ever allocated. */
static char platform, device, context, queue, program;

static const struct devimg_plugin_platform_info platform_info = {
	.size = sizeof(platform_info),
	.name = "devimg fake platform",
	.vendor = "devimg",
	.version = "1",
};

static const struct devimg_plugin_device_info device_info = {
	.size = sizeof(device_info),
	.name = "devimg fake device",
	.vendor = "devimg",
	.version = "1",
	.driver_version = "1",
	.backend = "fake",
	.platform = (struct devimg_plugin_platform *)&platform,
	.type = DEVIMG_PLUGIN_DEVICE_CPU,
	.formats = DEVIMG_PLUGIN_FORMAT_SPIRV,
	.max_compute_units = 1,
	.max_work_group_size = 1,
	.max_work_item_sizes = { 1, 1, 1 },
	.address_bits = 64,
};

static const char *message = "";
/* Modes nodevice and nocontext. */
static int no_devices, no_context;

static const char *fake_last_error(void)
{
	return message;
}

static int fake_error(const char *op)
{
	message = op;
	return -ENOTSUP;
}

static void fake_fini(void)
{
}

static int fake_platform_list(unsigned capacity,
			      struct devimg_plugin_platform **platforms,
			      unsigned *count)
{
	if (capacity)
		platforms[0] = (struct devimg_plugin_platform *)&platform;
	*count = 1;
	return 0;
}

static const struct devimg_plugin_platform_info *fake_platform_info(
	struct devimg_plugin_platform *pl)
{
	(void)pl;
	return &platform_info;
}

static int fake_device_list(struct devimg_plugin_platform *pl,
			    unsigned capacity,
			    struct devimg_plugin_device **devices,
			    unsigned *count)
{
	(void)pl;
	*count = no_devices ? 0 : 1;
	if (capacity && !no_devices)
		devices[0] = (struct devimg_plugin_device *)&device;
	return 0;
}

static const struct devimg_plugin_device_info *fake_device_info(
	struct devimg_plugin_device *dev)
{
	(void)dev;
	return &device_info;
}

static int fake_context_create(unsigned n,
			       struct devimg_plugin_device *const *devices,
			       struct devimg_plugin_context **out)
{
	(void)n;
	(void)devices;
	if (no_context) {
		message = "fake vendor library makes no context";
		return -ENODEV;
	}
	*out = (struct devimg_plugin_context *)&context;
	return 0;
}

static int fake_queue_create(struct devimg_plugin_context *ctx,
			     struct devimg_plugin_device *dev,
			     struct devimg_plugin_queue **out)
{
	(void)ctx;
	(void)dev;
	*out = (struct devimg_plugin_queue *)&queue;
	return 0;
}

static int fake_queue_finish(struct devimg_plugin_queue *q)
{
	(void)q;
	return 0;
}

/* A program of any SPIR-V, so that what comes after can be reached. */
static int fake_program_create_il(struct devimg_plugin_context *ctx,
				  struct devimg_plugin_device *dev,
				  const void *il, size_t size,
				  struct devimg_plugin_program **out)
{
	(void)ctx;
	(void)dev;
	(void)il;
	(void)size;
	*out = (struct devimg_plugin_program *)&program;
	return 0;
}

/* Releases of handles that are never allocated. */
#define FAKE_RELEASE(name, type)            \
	static void fake_##name(type *h)    \
	{                                   \
		(void)h;                    \
	}
FAKE_RELEASE(context_release, struct devimg_plugin_context)
FAKE_RELEASE(queue_release, struct devimg_plugin_queue)
FAKE_RELEASE(mem_release, struct devimg_plugin_mem)
FAKE_RELEASE(program_release, struct devimg_plugin_program)
FAKE_RELEASE(kernel_release, struct devimg_plugin_kernel)
#undef FAKE_RELEASE

/*
 * Everything else fails as a backend that cannot do it: -ENOTSUP and a
 * message naming the operation, its arguments unused.
 */
#define FAKE_NOTSUP(name, params)               \
	static int fake_##name params           \
	{                                       \
		return fake_error("fake: no " #name); \
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
FAKE_NOTSUP(mem_create, (struct devimg_plugin_context *ctx, unsigned flags,
			 size_t size, struct devimg_plugin_mem **out))
FAKE_NOTSUP(mem_write, (struct devimg_plugin_queue *q,
			struct devimg_plugin_mem *mem, int blocking,
			size_t offset, size_t n, const void *src))
FAKE_NOTSUP(mem_read, (struct devimg_plugin_queue *q,
		       struct devimg_plugin_mem *mem, int blocking,
		       size_t offset, size_t n, void *dst))
FAKE_NOTSUP(program_create_binary, (struct devimg_plugin_context *ctx,
				    struct devimg_plugin_device *dev,
				    enum devimg_plugin_binary_kind kind,
				    const void *binary, size_t size,
				    struct devimg_plugin_program **out))
FAKE_NOTSUP(program_set_spec_const, (struct devimg_plugin_program *prog,
				     uint32_t id, size_t size,
				     const void *value))
FAKE_NOTSUP(program_build, (struct devimg_plugin_program *prog,
			    const char *options))
FAKE_NOTSUP(program_build_log, (struct devimg_plugin_program *prog,
				char *buf, size_t capacity, size_t *len))
FAKE_NOTSUP(program_binary, (struct devimg_plugin_program *prog, void *buf,
			     size_t capacity, size_t *len))
FAKE_NOTSUP(program_compile, (struct devimg_plugin_program *prog,
			      const char *options))
FAKE_NOTSUP(program_link, (struct devimg_plugin_context *ctx,
			   struct devimg_plugin_device *dev, unsigned n,
			   struct devimg_plugin_program *const *progs,
			   const char *options,
			   struct devimg_plugin_program **out))
FAKE_NOTSUP(kernel_create, (struct devimg_plugin_program *prog,
			    const char *name,
			    struct devimg_plugin_kernel **out))
FAKE_NOTSUP(kernel_arg_count, (struct devimg_plugin_kernel *k,
			       unsigned *count))
FAKE_NOTSUP(kernel_set_arg_value, (struct devimg_plugin_kernel *k,
				   unsigned index, size_t size,
				   const void *value))
FAKE_NOTSUP(kernel_set_arg_mem, (struct devimg_plugin_kernel *k,
				 unsigned index,
				 struct devimg_plugin_mem *mem))
FAKE_NOTSUP(kernel_set_arg_local, (struct devimg_plugin_kernel *k,
				   unsigned index, size_t size))
FAKE_NOTSUP(launch, (struct devimg_plugin_queue *q,
		     struct devimg_plugin_kernel *k, unsigned dims,
		     const size_t *global_offset, const size_t *global_size,
		     const size_t *local_size))
#pragma GCC diagnostic pop
#undef FAKE_NOTSUP

/*
 * DEVIMG_TEST_FAKE=globals: programs made from SPIR-V hold one variable
 * per OpName whose target a MaxByteOffset decoration sizes (the fake's
 * own convention, enough for device globals), zero-filled at creation;
 * buffers are host memory, filled with 0xa5 at creation so that a zero
 * read back was written; a buffer's address is its host address. What
 * the loader did is read back through the exported devimg_fake_*().
 */
#define FAKE_VARS 8
#define FAKE_PROGS 64

struct fake_var {
	char name[64];
	size_t size;
	unsigned char *bytes;
};

struct fake_program {
	unsigned index;
	int built;
	unsigned nvars;
	struct fake_var vars[FAKE_VARS];
};

struct fake_mem {
	size_t size;
	unsigned char bytes[];
};

static struct fake_program *programs[FAKE_PROGS];
static unsigned nprograms, nmems, nbuilds;

static uint32_t word(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static struct fake_var *var_of_id(struct fake_program *fp, uint32_t *ids,
				  uint32_t id)
{
	unsigned i;

	for (i = 0; i < fp->nvars; i++)
		if (ids[i] == id)
			return &fp->vars[i];
	if (fp->nvars == FAKE_VARS)
		return NULL;
	ids[fp->nvars] = id;
	return &fp->vars[fp->nvars++];
}

/* OpName (5) names a variable, OpDecorate (71) MaxByteOffset (45) sizes it. */
static int parse_vars(struct fake_program *fp, const unsigned char *p,
		      size_t size)
{
	uint32_t ids[FAKE_VARS];
	size_t w = 5, nwords = size / 4;
	unsigned i;

	while (w < nwords) {
		uint32_t first = word(p + 4 * w), count = first >> 16;
		struct fake_var *v;

		if (count < 1 || count > nwords - w)
			return fake_error("fake: bad SPIR-V word count");
		if ((first & 0xffff) == 5 && count >= 3 &&
		    (v = var_of_id(fp, ids, word(p + 4 * (w + 1)))))
			memcpy(v->name, p + 4 * (w + 2),
			       (count - 2) * 4 < sizeof(v->name) - 1 ?
				       (count - 2) * 4 : sizeof(v->name) - 1);
		if ((first & 0xffff) == 71 && count == 4 &&
		    word(p + 4 * (w + 2)) == 45 &&
		    (v = var_of_id(fp, ids, word(p + 4 * (w + 1)))))
			v->size = word(p + 4 * (w + 3));
		w += count;
	}
	for (i = 0; i < fp->nvars; i++) {
		fp->vars[i].bytes = calloc(1, fp->vars[i].size + 1);
		if (!fp->vars[i].bytes)
			return -ENOMEM;
	}
	return 0;
}

static void gl_program_release(struct devimg_plugin_program *prog)
{
	struct fake_program *fp = (struct fake_program *)prog;
	unsigned i;

	programs[fp->index] = NULL;
	for (i = 0; i < fp->nvars; i++)
		free(fp->vars[i].bytes);
	free(fp);
}

static int gl_program_create_il(struct devimg_plugin_context *ctx,
				struct devimg_plugin_device *dev,
				const void *il, size_t size,
				struct devimg_plugin_program **out)
{
	struct fake_program *fp;
	int err;

	(void)ctx;
	(void)dev;
	if (nprograms == FAKE_PROGS)
		return fake_error("fake: too many programs");
	fp = calloc(1, sizeof(*fp));
	if (!fp)
		return -ENOMEM;
	fp->index = nprograms;
	programs[nprograms++] = fp;
	err = parse_vars(fp, il, size);
	if (err < 0) {
		gl_program_release((struct devimg_plugin_program *)fp);
		return err;
	}
	*out = (struct devimg_plugin_program *)fp;
	return 0;
}

static int gl_program_build(struct devimg_plugin_program *prog,
			    const char *options)
{
	(void)options;
	((struct fake_program *)prog)->built = 1;
	nbuilds++;
	return 0;
}

static struct fake_var *var_named(struct devimg_plugin_program *prog,
				  const char *name)
{
	struct fake_program *fp = (struct fake_program *)prog;
	unsigned i;

	for (i = 0; fp && i < fp->nvars; i++)
		if (!strcmp(fp->vars[i].name, name))
			return &fp->vars[i];
	return NULL;
}

static int gl_global_info(struct devimg_plugin_program *prog,
			  const char *name, size_t *size)
{
	struct fake_var *v = var_named(prog, name);

	if (!v) {
		message = "fake: no such variable";
		return -ENOENT;
	}
	*size = v->size;
	return 0;
}

/* The bytes off..off + n of variable name of a built program, or NULL. */
static unsigned char *var_bytes(struct devimg_plugin_program *prog,
				const char *name, size_t off, size_t n,
				int *err)
{
	struct fake_var *v = var_named(prog, name);

	*err = 0;
	if (!v || !((struct fake_program *)prog)->built) {
		message = "fake: no such variable in a built program";
		*err = -ENOENT;
	} else if (off > v->size || n > v->size - off) {
		message = "fake: past the variable";
		*err = -EINVAL;
	}
	return *err ? NULL : v->bytes + off;
}

static int gl_global_write(struct devimg_plugin_queue *q,
			   struct devimg_plugin_program *prog,
			   const char *name, size_t off, size_t n,
			   const void *src, int blocking)
{
	int err;
	unsigned char *dst = var_bytes(prog, name, off, n, &err);

	(void)q;
	(void)blocking;
	if (dst)
		memcpy(dst, src, n);
	return err;
}

static int gl_global_read(struct devimg_plugin_queue *q,
			  struct devimg_plugin_program *prog,
			  const char *name, size_t off, size_t n, void *dst,
			  int blocking)
{
	int err;
	unsigned char *src = var_bytes(prog, name, off, n, &err);

	(void)q;
	(void)blocking;
	if (src)
		memcpy(dst, src, n);
	return err;
}

static int gl_mem_create(struct devimg_plugin_context *ctx, unsigned flags,
			 size_t size, struct devimg_plugin_mem **out)
{
	struct fake_mem *m = malloc(sizeof(*m) + size);

	(void)ctx;
	(void)flags;
	if (!m)
		return -ENOMEM;
	m->size = size;
	memset(m->bytes, 0xa5, size);
	nmems++;
	*out = (struct devimg_plugin_mem *)m;
	return 0;
}

static void gl_mem_release(struct devimg_plugin_mem *mem)
{
	free(mem);
}

static int gl_mem_write(struct devimg_plugin_queue *q,
			struct devimg_plugin_mem *mem, int blocking,
			size_t offset, size_t n, const void *src)
{
	struct fake_mem *m = (struct fake_mem *)mem;

	(void)q;
	(void)blocking;
	if (offset > m->size || n > m->size - offset)
		return fake_error("fake: past the buffer");
	memcpy(m->bytes + offset, src, n);
	return 0;
}

static int gl_mem_read(struct devimg_plugin_queue *q,
		       struct devimg_plugin_mem *mem, int blocking,
		       size_t offset, size_t n, void *dst)
{
	struct fake_mem *m = (struct fake_mem *)mem;

	(void)q;
	(void)blocking;
	if (offset > m->size || n > m->size - offset)
		return fake_error("fake: past the buffer");
	memcpy(dst, m->bytes + offset, n);
	return 0;
}

static int gl_mem_address(struct devimg_plugin_mem *mem, uint64_t *addr)
{
	*addr = (uint64_t)(uintptr_t)((struct fake_mem *)mem)->bytes;
	return 0;
}

static void fake_globals_ops(struct devimg_plugin_ops *t)
{
	t->program_create_il = gl_program_create_il;
	t->program_build = gl_program_build;
	t->program_release = gl_program_release;
	t->mem_create = gl_mem_create;
	t->mem_write = gl_mem_write;
	t->mem_read = gl_mem_read;
	t->mem_release = gl_mem_release;
	t->global_info = gl_global_info;
	t->global_write = gl_global_write;
	t->global_read = gl_global_read;
	t->mem_address = gl_mem_address;
}

DEVIMG_PLUGIN_EXPORT int devimg_fake_program_var(unsigned index,
						 const char *name, void *buf,
						 size_t n);
DEVIMG_PLUGIN_EXPORT unsigned devimg_fake_count(const char *what);

/*
 * For the tests: n bytes of variable name of the index-th program made
 * (0, or -ENOENT: no such program alive or variable, -EINVAL: past it).
 */
DEVIMG_PLUGIN_EXPORT int devimg_fake_program_var(unsigned index,
						 const char *name, void *buf,
						 size_t n)
{
	struct fake_var *v;

	if (index >= FAKE_PROGS || !programs[index] ||
	    !(v = var_named((struct devimg_plugin_program *)programs[index],
			    name)))
		return -ENOENT;
	if (n > v->size)
		return -EINVAL;
	memcpy(buf, v->bytes, n);
	return 0;
}

/* For the tests: "programs" made, "builds" done, "mems" created. */
DEVIMG_PLUGIN_EXPORT unsigned devimg_fake_count(const char *what)
{
	if (!strcmp(what, "programs"))
		return nprograms;
	if (!strcmp(what, "builds"))
		return nbuilds;
	return nmems;
}

static const struct devimg_plugin_ops fake_ops = {
	.abi_version = DEVIMG_PLUGIN_ABI_VERSION,
	.size = sizeof(struct devimg_plugin_ops),
	.backend = "fake",
	.last_error = fake_last_error,
	.fini = fake_fini,
	.platform_list = fake_platform_list,
	.platform_info = fake_platform_info,
	.device_list = fake_device_list,
	.device_info = fake_device_info,
	.context_create = fake_context_create,
	.context_release = fake_context_release,
	.queue_create = fake_queue_create,
	.queue_finish = fake_queue_finish,
	.queue_release = fake_queue_release,
	.mem_create = fake_mem_create,
	.mem_write = fake_mem_write,
	.mem_read = fake_mem_read,
	.mem_release = fake_mem_release,
	.program_create_il = fake_program_create_il,
	.program_create_binary = fake_program_create_binary,
	.program_set_spec_const = fake_program_set_spec_const,
	.program_build = fake_program_build,
	.program_build_log = fake_program_build_log,
	.program_binary = fake_program_binary,
	.program_release = fake_program_release,
	.kernel_create = fake_kernel_create,
	.kernel_arg_count = fake_kernel_arg_count,
	.kernel_set_arg_value = fake_kernel_set_arg_value,
	.kernel_set_arg_mem = fake_kernel_set_arg_mem,
	.kernel_set_arg_local = fake_kernel_set_arg_local,
	.kernel_release = fake_kernel_release,
	.launch = fake_launch,
	.program_compile = fake_program_compile,
	.program_link = fake_program_link,
};

/* The handshake, the table cut to size bytes; copy bytes copied. */
static int install_table(unsigned abi_version, struct devimg_plugin_ops *ops,
			 const struct devimg_plugin_ops *table, size_t copy,
			 size_t size)
{
	if (abi_version != DEVIMG_PLUGIN_ABI_VERSION || ops->size < copy)
		return -EPROTO;
	memcpy(ops, table, copy);
	ops->size = size;
	return 0;
}

static int install(unsigned abi_version, struct devimg_plugin_ops *ops,
		   size_t copy, size_t size)
{
	return install_table(abi_version, ops, &fake_ops, copy, size);
}

/* fake_ops with the operations of fake-globals.c in place. */
static int install_globals(unsigned abi_version,
			   struct devimg_plugin_ops *ops, size_t size)
{
	static struct devimg_plugin_ops table;

	table = fake_ops;
	fake_globals_ops(&table);
	return install_table(abi_version, ops, &table, sizeof(table), size);
}

static int fake_init(unsigned abi_version, struct devimg_plugin_ops *ops)
{
	const char *mode = getenv("DEVIMG_TEST_FAKE");

	if (abi_version != DEVIMG_PLUGIN_ABI_VERSION)
		return -EPROTO;
	no_devices = mode && !strcmp(mode, "nodevice");
	no_context = mode && !strcmp(mode, "nocontext");
	if (mode && (!strcmp(mode, "device") || no_devices || no_context))
		return install(abi_version, ops, sizeof(*ops), sizeof(*ops));
	if (mode && !strcmp(mode, "globals"))
		return install_globals(abi_version, ops, sizeof(*ops));
	if (mode && !strcmp(mode, "globals-short"))
		return install_globals(abi_version, ops,
				       offsetof(struct devimg_plugin_ops,
						global_info));
	if (mode && !strcmp(mode, "short"))
		return install(abi_version, ops, sizeof(*ops),
			       DEVIMG_PLUGIN_OPS_MIN_SIZE);
	if (mode && !strcmp(mode, "tiny"))
		return install(abi_version, ops,
			       offsetof(struct devimg_plugin_ops, launch),
			       offsetof(struct devimg_plugin_ops, launch));
	ops->backend = "fake";
	ops->last_error = fake_last_error;
	ops->fini = fake_fini;
	if (mode && !strcmp(mode, "abi")) {
		ops->abi_version = 99;
		return 0;
	}
	if (mode && !strcmp(mode, "partial"))
		return 0;
	message = "fake vendor library reports no devices";
	return -ENODEV;
}

/* How long init waits for the others' marker files, in 10 ms steps. */
#define MARK_WAIT_STEPS 3000

static char named_backend[64];

/* The backend this file's name says into named_backend; false if none. */
static int name_backend(void)
{
	const char *base, *dot;
	Dl_info info;

	if (!dladdr(&platform, &info) || !info.dli_fname)
		return 0;
	base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	if (strncmp(base, "devimg-", 7))
		return 0;
	base += 7;
	dot = strstr(base, ".so");
	if (!dot || dot == base ||
	    (size_t)(dot - base) >= sizeof(named_backend))
		return 0;
	memcpy(named_backend, base, (size_t)(dot - base));
	named_backend[dot - base] = '\0';
	return 1;
}

static int count_marks(const char *dir)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return 0;
	while ((d = readdir(dp)))
		n += strstr(d->d_name, ".started") != NULL;
	closedir(dp);
	return n;
}

/* DEVIMG_TEST_FAKE_MARKS and DEVIMG_TEST_FAKE_WAIT, see the top. */
static int mark_and_wait(const char *dir)
{
	const char *wait = getenv("DEVIMG_TEST_FAKE_WAIT");
	struct timespec step = { 0, 10000000 };
	char path[4096];
	FILE *f;
	int i, want = wait ? atoi(wait) : 0;

	if (!name_backend()) {
		message = "fake: the file is not named devimg-BACKEND.so";
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s.started", dir, named_backend);
	f = fopen(path, "w");
	if (!f || fclose(f)) {
		message = "fake: cannot write the marker file";
		return -EIO;
	}
	for (i = 0; i < MARK_WAIT_STEPS; i++) {
		if (count_marks(dir) >= want)
			return 0;
		nanosleep(&step, NULL);
	}
	message = "fake: timed out waiting for the other plugins to start";
	return -ETIMEDOUT;
}

DEVIMG_PLUGIN_EXPORT int devimg_plugin_init(unsigned abi_version,
					    struct devimg_plugin_ops *ops)
{
	const char *marks = getenv("DEVIMG_TEST_FAKE_MARKS");
	int rc;

	if (!marks || !marks[0])
		return fake_init(abi_version, ops);
	rc = mark_and_wait(marks);
	if (rc < 0) {
		ops->last_error = fake_last_error;
		return rc;
	}
	rc = fake_init(abi_version, ops);
	if (rc == 0)
		ops->backend = named_backend;
	return rc;
}
