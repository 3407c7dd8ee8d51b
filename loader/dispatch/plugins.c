// SPDX-License-Identifier: MIT
/*
 * Plugin discovery and binding, and the traced calls into plugins.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "account.h"
#include "escape.h"
#include "libdevimg-internal.h"
#include "paths.h"
#include "plugins.h"
#include "selector.h"

struct devimg_plugin {
	char *file;
	void *handle;
	int trace;
	struct devimg_plugin_ops ops;
};

/*
 * What discovery found, in order: a trace line, or a file to open and
 * start. Files are opened and started when a plugin past those bound is
 * asked for (devimg_plugins_get()), one at a time, or all that remain
 * (devimg_plugins_count()), their inits at once, one thread each; then
 * the notes are gone through in order, so that traces and devices keep
 * the order of the files.
 */
struct note {
	char *text;			/* a trace line, or NULL */
	char *file;			/* a file to open, or NULL */
	struct devimg_plugin *p;	/* a plugin to start, or NULL */
	devimg_plugin_init_fn init;
	int rc;				/* what init returned; 1: not run */
	bool beside;			/* starts at once with the others */
	bool threaded;
	pthread_t thread;
	char msg[1024];			/* the plugin's message after init */
};

struct devimg_plugins {
	/* Held while binding, and to read what is bound. */
	pthread_mutex_t lock;
	unsigned count;
	unsigned capacity;
	struct devimg_plugin **list;
	/* File names seen so far, to let earlier folders shadow later ones. */
	unsigned nseen;
	char **seen;
	int trace;
	/* While discovering: the selector (NULL: every plugin). */
	struct devimg_selector *sel;
	/* What discovery found; those before next are gone through. */
	unsigned nnotes;
	unsigned next;
	struct note *notes;
	/* What became of each folder and file, under lock (account.h). */
	struct account account;
};

/* Every function pointer of the table, to check a plugin filled them all. */
#define DEVIMG_PLUGIN_OP_NAMES(X)                                             \
	X(last_error) X(fini) X(platform_list) X(platform_info)                \
	X(device_list) X(device_info) X(context_create) X(context_release)     \
	X(queue_create) X(queue_finish) X(queue_release) X(mem_create)         \
	X(mem_write) X(mem_read) X(mem_release) X(program_create_il)           \
	X(program_create_binary) X(program_set_spec_const) X(program_build)   \
	X(program_build_log) X(program_binary) X(program_release)              \
	X(kernel_create) X(kernel_arg_count) X(kernel_set_arg_value)           \
	X(kernel_set_arg_mem) X(kernel_set_arg_local) X(kernel_release)        \
	X(launch)
/*
 * Optional operations, appended after the minimum table: absent when the
 * plugin's size stops before them or when NULL; the loader then answers
 * -ENOTSUP itself (absent_op()).
 */
#define DEVIMG_PLUGIN_OPTIONAL_OP_NAMES(X)                                    \
	X(program_compile) X(program_link) X(global_info) X(global_write)      \
	X(global_read) X(mem_address)

/* A table must reach at least this far: through launch, the last required. */
#define DEVIMG_PLUGIN_OPS_MIN DEVIMG_PLUGIN_OPS_MIN_SIZE

#define COUNT_OP(name) + 1
_Static_assert(offsetof(struct devimg_plugin_ops, last_error) +
		       (0 DEVIMG_PLUGIN_OP_NAMES(COUNT_OP)) *
			       sizeof(void (*)(void)) ==
		       DEVIMG_PLUGIN_OPS_MIN,
	       "DEVIMG_PLUGIN_OP_NAMES must list every required operation");
_Static_assert(DEVIMG_PLUGIN_OPS_MIN +
		       (0 DEVIMG_PLUGIN_OPTIONAL_OP_NAMES(COUNT_OP)) *
			       sizeof(void (*)(void)) ==
		       sizeof(struct devimg_plugin_ops),
	       "DEVIMG_PLUGIN_OPTIONAL_OP_NAMES must list the appended ones");
#undef COUNT_OP

/* A trace line of level wanted (1 or 2) goes to the log at this priority. */
#define TRACE_PRIORITY(wanted) \
	((wanted) >= 2 ? DEVIMG_LOG_DEBUG : DEVIMG_LOG_INFO)

/* The longest trace line; longer ones are cut between two escapes. */
#define TRACE_MAX 4096

static void trace(int level, int wanted, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Through the log (devimg_set_log_fn() sees it), every argument escaped:
 * names, paths and messages come from outside.
 */
static void trace(int level, int wanted, const char *fmt, ...)
{
	char buf[TRACE_MAX];
	va_list ap;

	if (level < wanted)
		return;
	va_start(ap, fmt);
	props_vsnprintf_esc(buf, sizeof(buf), NULL, fmt, ap);
	va_end(ap);
	devimg_trace_text(TRACE_PRIORITY(wanted), __FILE__, __LINE__, __func__,
			  buf);
}

/* The file name of a path, for the account and backend_of_file(). */
static const char *base_name(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? slash + 1 : file;
}

/* The trace level the log priority asks for (DEVIMG_TRACE, log.c). */
static int trace_level(void)
{
	int priority = devimg_get_log_priority();

	if (priority >= DEVIMG_LOG_DEBUG)
		return 2;
	return priority >= DEVIMG_LOG_INFO ? 1 : 0;
}

void devimg_plugins_config_env(struct devimg_plugins_config *cfg)
{
	const char *only = devimg_env(DEVIMG_ENV_PLUGIN_PATH_ONLY);

	cfg->search_path = devimg_env(DEVIMG_ENV_PLUGIN_PATH);
	/* "1" (any value but "" and "0"): the installed folder left out */
	cfg->plugindir = only && *only && strcmp(only, "0") ? NULL : PLUGINDIR;
	cfg->selector = devimg_env(DEVIMG_ENV_DEVICE_SELECTOR);
	cfg->trace = trace_level();
}

static const char *missing_op(const struct devimg_plugin_ops *ops)
{
#define CHECK_OP(name)      \
	if (!ops->name)     \
		return #name;
	DEVIMG_PLUGIN_OP_NAMES(CHECK_OP)
#undef CHECK_OP
	return NULL;
}

static bool seen_before(struct devimg_plugins *ps, const char *name)
{
	unsigned i;

	for (i = 0; i < ps->nseen; i++)
		if (!strcmp(ps->seen[i], name))
			return true;
	return false;
}

static int remember(struct devimg_plugins *ps, const char *name)
{
	char **seen = realloc(ps->seen, (ps->nseen + 1) * sizeof(*seen));

	if (!seen)
		return -ENOMEM;
	ps->seen = seen;
	seen[ps->nseen] = strdup(name);
	if (!seen[ps->nseen])
		return -ENOMEM;
	ps->nseen++;
	return 0;
}

static int add(struct devimg_plugins *ps, struct devimg_plugin *p)
{
	if (ps->count == ps->capacity) {
		unsigned cap = ps->capacity ? 2 * ps->capacity : 4;
		struct devimg_plugin **list;

		list = realloc(ps->list, cap * sizeof(*list));
		if (!list)
			return -ENOMEM;
		ps->list = list;
		ps->capacity = cap;
	}
	ps->list[ps->count++] = p;
	return 0;
}

static void plugin_free(struct devimg_plugin *p, bool initialised)
{
	if (initialised)
		p->ops.fini();
	if (p->handle)
		dlclose(p->handle);
	free(p->file);
	free(p);
}

const char *devimg_plugin_type_name(enum devimg_plugin_device_type type)
{
	switch (type) {
	case DEVIMG_PLUGIN_DEVICE_CPU:
		return "cpu";
	case DEVIMG_PLUGIN_DEVICE_GPU:
		return "gpu";
	case DEVIMG_PLUGIN_DEVICE_ACCELERATOR:
		return "accelerator";
	default:
		return "other";
	}
}

static void trace_device(struct devimg_plugin *p, unsigned platform,
			 unsigned index,
			 const struct devimg_plugin_device_info *di)
{
	trace(p->trace, 1,
	      "plugins: %s: platform %u device %u \"%s\" %s, formats:%s%s%s%s, native:%s%s",
	      p->ops.backend, platform, index, di->name,
	      devimg_plugin_type_name(di->type),
	      di->formats & DEVIMG_PLUGIN_FORMAT_SPIRV ? " spirv" : "",
	      di->formats & DEVIMG_PLUGIN_FORMAT_SPIR ? " spir" : "",
	      di->formats & DEVIMG_PLUGIN_FORMAT_PTX ? " ptx" : "",
	      di->formats & DEVIMG_PLUGIN_FORMAT_NATIVE ? " native" : "",
	      di->caps & DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET ? " global-offset" : "",
	      di->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS ? " spec-constants" : "");
}

/*
 * Level 1: what a freshly bound plugin offers; why: its message just after
 * init, which says why init found nothing (no driver...).
 */
static void trace_devices(struct devimg_plugin *p, const char *why)
{
	struct devimg_plugin_platform *pl[16];
	struct devimg_plugin_device *dev[64];
	unsigned npl = 0, ndev, i, j;

	if (p->trace < 1)
		return;
	if (p->ops.platform_list(16, pl, &npl) < 0)
		return;
	if (!npl && why[0])
		trace(p->trace, 1, "plugins: %s: 0 platforms: %s",
		      p->ops.backend, why);
	else
		trace(p->trace, 1, "plugins: %s: %u platform(s)",
		      p->ops.backend, npl);
	for (i = 0; i < npl && i < 16; i++) {
		const struct devimg_plugin_platform_info *pi =
			p->ops.platform_info(pl[i]);

		trace(p->trace, 1, "plugins: %s: platform %u \"%s\" (%s)",
		      p->ops.backend, i, pi->name, pi->version);
		if (p->ops.device_list(pl[i], 64, dev, &ndev) < 0)
			continue;
		for (j = 0; j < ndev && j < 64; j++)
			trace_device(p, i, j, p->ops.device_info(dev[j]));
	}
}

/* The name of the first required operation a table of size bytes lacks. */
static const char *first_op_beyond(size_t size)
{
#define OP_BEYOND(name)                                                   \
	if (offsetof(struct devimg_plugin_ops, name) +                   \
		    sizeof(((struct devimg_plugin_ops *)0)->name) > size)  \
		return #name;
	OP_BEYOND(abi_version) OP_BEYOND(size) OP_BEYOND(backend)
	DEVIMG_PLUGIN_OP_NAMES(OP_BEYOND)
#undef OP_BEYOND
	return "program_compile";
}

/*
 * Operations past the size the plugin gave are absent, whatever the bytes
 * there hold: NULL from here on.
 */
static void clear_beyond(struct devimg_plugin_ops *ops)
{
	if (ops->size < sizeof(*ops))
		memset((char *)ops + ops->size, 0, sizeof(*ops) - ops->size);
}

/* Whether a table that init filled but we reject still has a usable fini. */
static bool can_fini(const struct devimg_plugin_ops *ops)
{
	return ops->abi_version == DEVIMG_PLUGIN_ABI_VERSION &&
	       ops->size >= offsetof(struct devimg_plugin_ops, fini) +
				    sizeof(ops->fini) &&
	       ops->fini;
}

/*
 * A bound plugin in the account when it reports no platform, with its
 * message after init (no driver...); the devices of the others are the
 * context's to tell.
 */
static void account_bound(struct devimg_plugins *ps, struct devimg_plugin *p,
			  const char *why)
{
	unsigned npl = 0;

	if (p->ops.platform_list(0, NULL, &npl) < 0 || npl)
		return;
	account_add(&ps->account, "%s: no platform%s%s", p->ops.backend,
		    why[0] ? ": " : "", why);
}

/* Check what init filled; a reason to skip the plugin, or NULL. */
static const char *check_ops(struct devimg_plugins *ps,
			     const struct devimg_plugin_ops *ops, char *why,
			     size_t size)
{
	const char *missing;
	unsigned i;

	if (ops->abi_version != DEVIMG_PLUGIN_ABI_VERSION) {
		snprintf(why, size, "ABI version %u, the loader speaks %u",
			 ops->abi_version, DEVIMG_PLUGIN_ABI_VERSION);
		return why;
	}
	if (ops->size < DEVIMG_PLUGIN_OPS_MIN) {
		snprintf(why, size, "operation table of %zu bytes stops before %s, at least %zu expected",
			 ops->size, first_op_beyond(ops->size),
			 (size_t)DEVIMG_PLUGIN_OPS_MIN);
		return why;
	}
	if (ops->size > sizeof(*ops)) {
		snprintf(why, size, "operation table of %zu bytes, more than the %zu offered",
			 ops->size, sizeof(*ops));
		return why;
	}
	missing = missing_op(ops);
	if (missing || !ops->backend || !ops->backend[0]) {
		snprintf(why, size, "no %s in its operation table",
			 missing ? missing : "backend name");
		return why;
	}
	for (i = 0; i < ps->count; i++) {
		if (!strcmp(ps->list[i]->ops.backend, ops->backend)) {
			snprintf(why, size, "backend %s already bound from %s",
				 ops->backend, ps->list[i]->file);
			return why;
		}
	}
	return NULL;
}

/* msg: the plugin's message, read on the thread that ran init. */
static const char *init_failure(int rc, const char *msg, char *why,
				size_t size)
{
	snprintf(why, size, "%s failed: %s (%d)%s%s", DEVIMG_PLUGIN_ENTRY,
		 strerror(-rc), rc, msg[0] ? ": " : "", msg);
	return why;
}

/*
 * A bound plugin stays mapped until exit, fini() or not: vendor libraries
 * (ICD loaders and the drivers they open, CUDA) start threads and register
 * exit handlers that do not survive being unmapped.
 */
static void keep_mapped(const char *file)
{
	void *handle = dlopen(file, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);

	if (handle)
		dlclose(handle);
}

static void note_text(struct devimg_plugins *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct note *note_new(struct devimg_plugins *ps)
{
	/* A few per folder: one more each time. */
	struct note *n = realloc(ps->notes, (ps->nnotes + 1) * sizeof(*n));

	if (!n)
		return NULL;
	ps->notes = n;
	n += ps->nnotes++;
	memset(n, 0, sizeof(*n));
	n->rc = 1;
	return n;
}

/*
 * A level-1 trace line, kept in n to be emitted in its turn; escaped as by
 * trace(). Out of memory, the line is lost.
 */
static void note_vset(struct devimg_plugins *ps, struct note *n,
		      const char *fmt, va_list ap)
{
	char buf[TRACE_MAX];

	if (ps->trace < 1)
		return;
	props_vsnprintf_esc(buf, sizeof(buf), NULL, fmt, ap);
	free(n->text);
	n->text = strdup(buf);
}

static void note_set(struct devimg_plugins *ps, struct note *n,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note_set(struct devimg_plugins *ps, struct note *n,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note_vset(ps, n, fmt, ap);
	va_end(ap);
}

/* The same line in a note of its own. */
static void note_text(struct devimg_plugins *ps, const char *fmt, ...)
{
	struct note *n;
	va_list ap;

	if (ps->trace < 1 || !(n = note_new(ps)))
		return;
	va_start(ap, fmt);
	note_vset(ps, n, fmt, ap);
	va_end(ap);
}

/* A file to open and start in its turn. Returns 0 or -ENOMEM. */
static int note_file(struct devimg_plugins *ps, const char *file)
{
	char *copy = strdup(file);
	struct note *n = copy ? note_new(ps) : NULL;

	if (!n) {
		free(copy);
		return -ENOMEM;
	}
	n->file = copy;
	return 0;
}

/*
 * Open the file of n and find its entry point, to start it: n->p, or a
 * line in n->text saying why not. Returns 0 whether it is to start or
 * was skipped, -ENOMEM only.
 */
static int open_file(struct devimg_plugins *ps, struct note *n)
{
	struct devimg_plugin *p;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->file = n->file;
	n->file = NULL;
	p->trace = ps->trace;
	p->handle = dlopen(p->file, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle) {
		const char *why = dlerror();

		note_set(ps, n, "plugins: skipping %s: cannot load: %s",
			 p->file, why);
		account_add(&ps->account, "%s cannot load: %s",
			    base_name(p->file), why);
		goto skip;
	}
	n->init = (devimg_plugin_init_fn)dlsym(p->handle,
					       DEVIMG_PLUGIN_ENTRY);
	if (!n->init) {
		note_set(ps, n, "plugins: skipping %s: no %s: %s", p->file,
			 DEVIMG_PLUGIN_ENTRY, dlerror());
		account_add(&ps->account, "%s skipped: no %s",
			    base_name(p->file), DEVIMG_PLUGIN_ENTRY);
		goto skip;
	}
	n->p = p;
	return 0;
skip:
	plugin_free(p, false);
	return 0;
}

/* Run one plugin's init; on its own thread when there are several. */
static void *start(void *arg)
{
	struct note *n = arg;
	struct devimg_plugin_ops *ops = &n->p->ops;
	const char *msg = NULL;
	bool talks;

	ops->abi_version = DEVIMG_PLUGIN_ABI_VERSION;
	ops->size = sizeof(*ops);
	n->rc = n->init(DEVIMG_PLUGIN_ABI_VERSION, ops);
	/* Plugin messages are per thread: read it on this one. */
	if (n->rc < 0)
		talks = n->rc != -EPROTO;
	else
		talks = ops->abi_version == DEVIMG_PLUGIN_ABI_VERSION &&
			ops->size >= DEVIMG_PLUGIN_OPS_MIN;
	if (talks && ops->last_error)
		msg = ops->last_error();
	snprintf(n->msg, sizeof(n->msg), "%s", msg ? msg : "");
	return NULL;
}

/*
 * start() on a thread of its own. A vendor library may give the thread a
 * signal stack of its own (LLVM, in PoCL, does): the thread's first one
 * is put back before it ends, as whoever made that one (a sanitizer)
 * frees it then.
 */
static void *start_on_thread(void *arg)
{
	stack_t first, now;
	bool saved = sigaltstack(NULL, &first) == 0;

	start(arg);
	if (saved && sigaltstack(NULL, &now) == 0 && now.ss_sp != first.ss_sp)
		sigaltstack(&first, NULL);
	return NULL;
}

/* The backend a plugin's file name says: "opencl" for devimg-opencl.so. */
static void backend_of_name(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);
	size_t pre = strlen(DEVIMG_PLUGIN_PREFIX);
	size_t suf = strlen(DEVIMG_PLUGIN_SUFFIX);

	if (n < pre + suf)
		n = pre + suf;
	snprintf(buf, size, "%.*s", (int)(n - pre - suf), name + pre);
}

/* The same for a path. */
static void backend_of_file(const char *file, char *buf, size_t size)
{
	backend_of_name(base_name(file), buf, size);
}

/*
 * Whether the plugin of note i starts beside the others: its file is named
 * for a backend of the selector grammar that no earlier file names. Any
 * other file (a second copy of a backend's plugin, say) may start the
 * same vendor library as one of them, which need not bear two starts at
 * once (PoCL 3 does not): it starts alone, after them.
 */
static bool starts_beside(const struct devimg_plugins *ps, unsigned i)
{
	char name[256], other[256];
	unsigned j;

	backend_of_file(ps->notes[i].p->file, name, sizeof(name));
	if (!devimg_selector_known_backend(name))
		return false;
	for (j = 0; j < i; j++) {
		const char *file = ps->notes[j].p ? ps->notes[j].p->file :
						    ps->notes[j].file;

		if (!file)
			continue;
		backend_of_file(file, other, sizeof(other));
		if (!strcasecmp(name, other))
			return false;
	}
	return true;
}

/* How long the probe of can_thread() may take, in milliseconds. */
#define PROBE_MS 250

struct probe {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	int refs;		/* the caller's and the probe thread's */
};

static void probe_unref(struct probe *pr)
{
	bool last;

	pthread_mutex_lock(&pr->lock);
	last = --pr->refs == 0;
	pthread_mutex_unlock(&pr->lock);
	if (!last)
		return;
	pthread_mutex_destroy(&pr->lock);
	pthread_cond_destroy(&pr->cond);
	free(pr);
}

static void *probe_run(void *arg)
{
	struct probe *pr = arg;
	Dl_info info;

	/* dladdr() takes the dynamic linker's lock, as dlopen() does. */
	dladdr(pr, &info);
	pthread_mutex_lock(&pr->lock);
	pr->done = true;
	pthread_cond_signal(&pr->cond);
	pthread_mutex_unlock(&pr->lock);
	probe_unref(pr);
	return NULL;
}

/*
 * Keep this library mapped until exit, as a program may dlclose() it:
 * the probe thread runs its code after can_thread() gave up on it, and
 * the process's plugin set lives here (devimg_plugins_keep_loader()).
 */
static void keep_self_mapped(void)
{
	static const char anchor;
	Dl_info info;

	if (dladdr(&anchor, &info) && info.dli_fname)
		keep_mapped(info.dli_fname);
}

/*
 * Whether inits may run on other threads: not while this thread holds the
 * dynamic linker's lock, inside a dlopen() (a constructor of a library
 * being opened called devimg_ctx_new()): vendor libraries open libraries
 * as they start, and would wait for this thread, which waits for them. A
 * thread tries to take the lock; one that cannot within PROBE_MS is left
 * to finish once the lock is free.
 */
static bool can_thread(void)
{
	struct probe *pr = calloc(1, sizeof(*pr));
	struct timespec until;
	pthread_t thread;
	bool done;
	int rc;

	if (!pr)
		return false;
	pthread_mutex_init(&pr->lock, NULL);
	pthread_cond_init(&pr->cond, NULL);
	pr->refs = 2;
	rc = pthread_create(&thread, NULL, probe_run, pr);
	if (rc != 0) {
		pr->refs = 1;
		probe_unref(pr);
		return false;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += PROBE_MS * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&pr->lock);
	while (!pr->done &&
	       pthread_cond_timedwait(&pr->cond, &pr->lock, &until) == 0)
		;
	done = pr->done;
	pthread_mutex_unlock(&pr->lock);
	if (done) {
		pthread_join(thread, NULL);
	} else {
		keep_self_mapped();
		pthread_detach(thread);
	}
	probe_unref(pr);
	return done;
}

/*
 * Start the plugins of notes [from, to). Those that start beside the
 * others each run init in a thread of their own, all joined here (one
 * alone, or all inside a dlopen(), runs on the calling thread); then the
 * rest, one after the other.
 */
static void start_range(struct devimg_plugins *ps, unsigned from,
			unsigned to)
{
	unsigned i, nbeside = 0;

	for (i = from; i < to; i++) {
		struct note *n = &ps->notes[i];

		n->beside = n->p && starts_beside(ps, i);
		nbeside += n->beside;
	}
	if (nbeside > 1 && !can_thread())
		nbeside = 0;
	for (i = from; i < to; i++) {
		struct note *n = &ps->notes[i];

		if (!n->beside)
			continue;
		if (nbeside > 1 &&
		    pthread_create(&n->thread, NULL, start_on_thread, n) == 0)
			n->threaded = true;
		else
			start(n);
	}
	for (i = from; i < to; i++)
		if (ps->notes[i].threaded)
			pthread_join(ps->notes[i].thread, NULL);
	for (i = from; i < to; i++)
		if (ps->notes[i].p && !ps->notes[i].beside)
			start(&ps->notes[i]);
}

/*
 * The selector leaves files unopened by their names: say when a plugin's
 * backend is not the one its name says.
 */
static void check_name(struct devimg_plugin *p)
{
	char named[256];

	backend_of_file(p->file, named, sizeof(named));
	if (strcasecmp(named, p->ops.backend))
		trace(p->trace, 1, "plugins: %s gives backend %s, not the %s of its name: bound whatever DEVIMG_DEVICE_SELECTOR names",
		      p->file, p->ops.backend, named);
}

/*
 * Bind a started plugin, or skip it with its reason. Returns 0 whether
 * it was bound or skipped, -ENOMEM only.
 */
static int bind_started(struct devimg_plugins *ps, struct note *n)
{
	struct devimg_plugin *p = n->p;
	const char *skip;
	char why[sizeof(n->msg) + 128];

	n->p = NULL;
	skip = n->rc < 0 ? init_failure(n->rc, n->msg, why, sizeof(why)) :
			   check_ops(ps, &p->ops, why, sizeof(why));
	if (skip) {
		trace(ps->trace, 1, "plugins: skipping %s: %s", p->file, skip);
		account_add(&ps->account, "%s skipped: %s", base_name(p->file),
			    skip);
		plugin_free(p, n->rc == 0 && can_fini(&p->ops));
		return 0;
	}
	clear_beyond(&p->ops);
	if (add(ps, p) < 0) {
		plugin_free(p, true);
		return -ENOMEM;
	}
	keep_mapped(p->file);
	trace(ps->trace, 1, "plugins: bound %s from %s (ABI %u)",
	      p->ops.backend, p->file, p->ops.abi_version);
	check_name(p);
	trace_devices(p, n->msg);
	account_bound(ps, p, n->msg);
	return 0;
}

/* Go through notes [from, to) in order: emit the lines, bind the plugins. */
static int bind_range(struct devimg_plugins *ps, unsigned from, unsigned to)
{
	unsigned i;
	int rc = 0;

	for (i = from; i < to && rc == 0; i++) {
		struct note *n = &ps->notes[i];

		if (n->text)
			devimg_trace_text(TRACE_PRIORITY(1), __FILE__, __LINE__,
					  __func__, n->text);
		if (n->p)
			rc = bind_started(ps, n);
	}
	return rc;
}

/* Free the notes, and the plugins left in them (out of memory). */
static void notes_free(struct devimg_plugins *ps)
{
	unsigned i;

	for (i = 0; i < ps->nnotes; i++) {
		struct note *n = &ps->notes[i];

		free(n->text);
		free(n->file);
		if (n->p)
			plugin_free(n->p, n->rc == 0 && can_fini(&n->p->ops));
	}
	free(ps->notes);
	ps->notes = NULL;
	ps->nnotes = 0;
}

static int is_plugin_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	size_t pre = strlen(DEVIMG_PLUGIN_PREFIX);
	size_t suf = strlen(DEVIMG_PLUGIN_SUFFIX);

	return n > pre + suf &&
	       !strncmp(d->d_name, DEVIMG_PLUGIN_PREFIX, pre) &&
	       !strcmp(d->d_name + n - suf, DEVIMG_PLUGIN_SUFFIX);
}

static int bind_entry(struct devimg_plugins *ps, const char *dir,
		      const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char backend[256];
	char *file;
	int rc;

	file = malloc(n);
	if (!file)
		return -ENOMEM;
	snprintf(file, n, "%s/%s", dir, name);
	if (seen_before(ps, name)) {
		note_text(ps, "plugins: skipping %s: shadowed by a %s found earlier",
			  file, name);
		account_add(&ps->account, "%s in %s shadowed", name, dir);
		free(file);
		return 0;
	}
	rc = remember(ps, name);
	backend_of_name(name, backend, sizeof(backend));
	if (rc == 0 && !devimg_selector_may_keep_backend(ps->sel, backend)) {
		note_text(ps, "plugins: skipping %s: DEVIMG_DEVICE_SELECTOR names no %s device",
			  file, backend);
		account_add(&ps->account, "%s not opened: DEVIMG_DEVICE_SELECTOR names no %s device",
			    name, backend);
	} else if (rc == 0) {
		rc = note_file(ps, file);
	}
	free(file);
	return rc;
}

static int search_dir(struct devimg_plugins *ps, const char *dir)
{
	struct dirent **names;
	int i, n, rc = 0;

	n = scandir(dir, &names, is_plugin_name, alphasort);
	if (n < 0) {
		rc = errno;
		note_text(ps, "plugins: cannot search %s: %s", dir,
			  strerror(rc));
		account_add(&ps->account, "cannot search %s: %s", dir,
			    strerror(rc));
		return rc == ENOMEM ? -ENOMEM : 0;
	}
	note_text(ps, "plugins: searching %s: %d candidate(s)", dir, n);
	account_add(&ps->account, "searched %s: %d plugin file%s", dir, n,
		    n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		if (rc == 0)
			rc = bind_entry(ps, dir, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return rc;
}

static int search_path(struct devimg_plugins *ps, const char *path)
{
	char *copy, *dir, *save = NULL;
	int rc = 0;

	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	for (dir = strtok_r(copy, ":", &save); dir && rc == 0;
	     dir = strtok_r(NULL, ":", &save))
		rc = search_dir(ps, dir);
	free(copy);
	return rc;
}

/*
 * Open, start and bind the files of notes [ps->next, to), under ps->lock;
 * the last time, say how many are bound. Out of memory, the plugins not
 * bound yet are left out.
 */
static void advance(struct devimg_plugins *ps, unsigned to)
{
	unsigned i;
	int rc = 0;

	for (i = ps->next; i < to && rc == 0; i++)
		if (ps->notes[i].file)
			rc = open_file(ps, &ps->notes[i]);
	if (rc == 0) {
		start_range(ps, ps->next, to);
		rc = bind_range(ps, ps->next, to);
	}
	if (rc < 0) {
		trace(ps->trace, 1, "plugins: out of memory, %u bound, the rest left out",
		      ps->count);
		to = ps->nnotes;
	}
	if (ps->next < to && to == ps->nnotes && rc == 0)
		trace(ps->trace, 1, "plugins: %u bound", ps->count);
	ps->next = to;
}

int devimg_plugins_load(const struct devimg_plugins_config *cfg,
			struct devimg_plugins **out)
{
	struct devimg_plugins *ps;
	int rc = 0;

	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	pthread_mutex_init(&ps->lock, NULL);
	ps->trace = cfg->trace;
	/* A selector outside the grammar opens all: devimg_ctx_new() says. */
	if (cfg->selector &&
	    devimg_selector_parse(cfg->selector, &ps->sel, NULL) == -ENOMEM)
		rc = -ENOMEM;
	if (rc == 0 && cfg->search_path && cfg->search_path[0])
		rc = search_path(ps, cfg->search_path);
	if (rc == 0 && cfg->plugindir && cfg->plugindir[0]) {
		rc = search_dir(ps, cfg->plugindir);
	} else if (rc == 0) {
		note_text(ps, "plugins: the installed folder %s left out "
			  "(DEVIMG_PLUGIN_PATH_ONLY)", PLUGINDIR);
		account_add(&ps->account, "the installed folder %s left out (DEVIMG_PLUGIN_PATH_ONLY)",
			    PLUGINDIR);
	}
	devimg_selector_free(ps->sel);
	ps->sel = NULL;
	if (rc < 0) {
		devimg_plugins_free(ps);
		return rc;
	}
	*out = ps;
	return 0;
}

void devimg_plugins_keep_loader(void)
{
	keep_self_mapped();
}

void devimg_plugins_free(struct devimg_plugins *ps)
{
	unsigned i;

	if (!ps)
		return;
	notes_free(ps);
	for (i = ps->count; i-- > 0;)
		plugin_free(ps->list[i], true);
	for (i = 0; i < ps->nseen; i++)
		free(ps->seen[i]);
	free(ps->seen);
	free(ps->list);
	pthread_mutex_destroy(&ps->lock);
	free(ps);
}

unsigned devimg_plugins_count(struct devimg_plugins *ps)
{
	unsigned n;

	if (!ps)
		return 0;
	pthread_mutex_lock(&ps->lock);
	advance(ps, ps->nnotes);
	n = ps->count;
	pthread_mutex_unlock(&ps->lock);
	return n;
}

struct devimg_plugin *devimg_plugins_get(struct devimg_plugins *ps,
					 unsigned i)
{
	struct devimg_plugin *p;

	if (!ps)
		return NULL;
	pthread_mutex_lock(&ps->lock);
	while (ps->count <= i && ps->next < ps->nnotes)
		advance(ps, ps->next + 1);
	p = i < ps->count ? ps->list[i] : NULL;
	pthread_mutex_unlock(&ps->lock);
	return p;
}

struct devimg_plugin *devimg_plugins_find(struct devimg_plugins *ps,
					  const char *backend)
{
	struct devimg_plugin *p;
	unsigned i;

	for (i = 0; (p = devimg_plugins_get(ps, i)); i++)
		if (!strcmp(p->ops.backend, backend))
			return p;
	return NULL;
}

void devimg_plugins_account(struct devimg_plugins *ps, struct account *out)
{
	if (!ps) {
		out->len = 0;
		out->text[0] = '\0';
		return;
	}
	pthread_mutex_lock(&ps->lock);
	advance(ps, ps->nnotes);
	*out = ps->account;
	if (ps->count == 0)
		account_add(out, "no plugin bound");
	pthread_mutex_unlock(&ps->lock);
}

const char *devimg_plugin_backend(const struct devimg_plugin *p)
{
	return p->ops.backend;
}

const char *devimg_plugin_file(const struct devimg_plugin *p)
{
	return p->file;
}

static _Thread_local const char *last_text;

/*
 * The loader's own message when the calling thread's last call was to an
 * optional operation the plugin lacks; it stands for the plugin's message
 * until that thread next asks for one.
 */
static _Thread_local char absent_text[512];
static _Thread_local const struct devimg_plugin *absent_from;

static int absent_op(struct devimg_plugin *p, const char *op)
{
	props_snprintf_esc(absent_text, sizeof(absent_text), NULL,
			   "the %s plugin (%s) has no %s operation",
			   p->ops.backend, p->file, op);
	absent_from = p;
	return -ENOTSUP;
}

static const char *message_of(const struct devimg_plugin *p)
{
	return absent_from == p ? absent_text : p->ops.last_error();
}

const char *devimg_plugin_last_error(const struct devimg_plugin *p)
{
	last_text = message_of(p);
	absent_from = NULL;
	return last_text;
}

const char *devimg_plugin_last_text(void)
{
	return last_text;
}

bool devimg_plugin_can_link(const struct devimg_plugin *p)
{
	return p->ops.program_compile && p->ops.program_link;
}

int devimg_plugin_need_link(struct devimg_plugin *p)
{
	if (!p->ops.program_compile)
		return absent_op(p, "program_compile");
	if (!p->ops.program_link)
		return absent_op(p, "program_link");
	return 0;
}

/* ---- level 2: one line per call ---- */

#define TRACING(p) ((p)->trace >= 2)
/* An out-parameter handle, printable once the call succeeded. */
#define OUT(rc, out) ((rc) == 0 && (out) ? (const void *)*(out) : NULL)

static void trace_call(struct devimg_plugin *p, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void trace_call(struct devimg_plugin *p, int rc, const char *fmt, ...)
{
	char buf[TRACE_MAX];
	size_t n;
	va_list ap;

	n = props_snprintf_esc(buf, sizeof(buf), NULL, "%s: ", p->ops.backend);
	va_start(ap, fmt);
	if (n < sizeof(buf))
		n += props_vsnprintf_esc(buf + n, sizeof(buf) - n, NULL, fmt,
					 ap);
	va_end(ap);
	if (n < sizeof(buf) && rc < 0)
		props_snprintf_esc(buf + n, sizeof(buf) - n, NULL,
				   " = %d (%s): %s", rc, strerror(-rc),
				   message_of(p));
	else if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " = %d", rc);
	devimg_trace_text(DEVIMG_LOG_DEBUG, __FILE__, __LINE__, __func__, buf);
}

static void trace_void(struct devimg_plugin *p, const char *op,
		       const void *handle)
{
	trace(p->trace, 2, "%s: %s(%p)", p->ops.backend, op, handle);
}

int devimg_plugin_platform_list(struct devimg_plugin *p, unsigned capacity,
				struct devimg_plugin_platform **platforms,
				unsigned *count)
{
	int rc = p->ops.platform_list(capacity, platforms, count);

	if (TRACING(p))
		trace_call(p, rc, "platform_list(capacity=%u) -> count=%u",
			   capacity, rc == 0 && count ? *count : 0);
	return rc;
}

const struct devimg_plugin_platform_info *devimg_plugin_platform_info(
	struct devimg_plugin *p, struct devimg_plugin_platform *platform)
{
	const struct devimg_plugin_platform_info *info;

	info = p->ops.platform_info(platform);
	if (TRACING(p))
		trace(p->trace, 2, "%s: platform_info(%p) -> \"%s\"",
		      p->ops.backend, (void *)platform,
		      info ? info->name : "(null)");
	return info;
}

int devimg_plugin_device_list(struct devimg_plugin *p,
			      struct devimg_plugin_platform *platform,
			      unsigned capacity,
			      struct devimg_plugin_device **devices,
			      unsigned *count)
{
	int rc = p->ops.device_list(platform, capacity, devices, count);

	if (TRACING(p))
		trace_call(p, rc,
			   "device_list(platform=%p, capacity=%u) -> count=%u",
			   (void *)platform, capacity,
			   rc == 0 && count ? *count : 0);
	return rc;
}

const struct devimg_plugin_device_info *devimg_plugin_device_info(
	struct devimg_plugin *p, struct devimg_plugin_device *device)
{
	const struct devimg_plugin_device_info *info;

	info = p->ops.device_info(device);
	if (TRACING(p))
		trace(p->trace, 2, "%s: device_info(%p) -> \"%s\"",
		      p->ops.backend, (void *)device,
		      info ? info->name : "(null)");
	return info;
}

int devimg_plugin_context_create(struct devimg_plugin *p, unsigned n,
				 struct devimg_plugin_device *const *devices,
				 struct devimg_plugin_context **out)
{
	int rc = p->ops.context_create(n, devices, out);

	if (TRACING(p))
		trace_call(p, rc, "context_create(n=%u, devices[0]=%p) -> %p",
			   n, devices && n ? (void *)devices[0] : NULL,
			   OUT(rc, out));
	return rc;
}

void devimg_plugin_context_release(struct devimg_plugin *p,
				   struct devimg_plugin_context *ctx)
{
	trace_void(p, "context_release", ctx);
	p->ops.context_release(ctx);
}

int devimg_plugin_queue_create(struct devimg_plugin *p,
			       struct devimg_plugin_context *ctx,
			       struct devimg_plugin_device *device,
			       struct devimg_plugin_queue **out)
{
	int rc = p->ops.queue_create(ctx, device, out);

	if (TRACING(p))
		trace_call(p, rc, "queue_create(ctx=%p, device=%p) -> %p",
			   (void *)ctx, (void *)device, OUT(rc, out));
	return rc;
}

int devimg_plugin_queue_finish(struct devimg_plugin *p,
			       struct devimg_plugin_queue *q)
{
	int rc = p->ops.queue_finish(q);

	if (TRACING(p))
		trace_call(p, rc, "queue_finish(%p)", (void *)q);
	return rc;
}

void devimg_plugin_queue_release(struct devimg_plugin *p,
				 struct devimg_plugin_queue *q)
{
	trace_void(p, "queue_release", q);
	p->ops.queue_release(q);
}

int devimg_plugin_mem_create(struct devimg_plugin *p,
			     struct devimg_plugin_context *ctx, unsigned flags,
			     size_t size, struct devimg_plugin_mem **out)
{
	int rc = p->ops.mem_create(ctx, flags, size, out);

	if (TRACING(p))
		trace_call(p, rc, "mem_create(ctx=%p, flags=%#x, size=%zu) -> %p",
			   (void *)ctx, flags, size, OUT(rc, out));
	return rc;
}

int devimg_plugin_mem_write(struct devimg_plugin *p,
			    struct devimg_plugin_queue *q,
			    struct devimg_plugin_mem *mem, int blocking,
			    size_t offset, size_t n, const void *src)
{
	int rc = p->ops.mem_write(q, mem, blocking, offset, n, src);

	if (TRACING(p))
		trace_call(p, rc,
			   "mem_write(q=%p, mem=%p, blocking=%d, offset=%zu, n=%zu, src=%p)",
			   (void *)q, (void *)mem, blocking, offset, n, src);
	return rc;
}

int devimg_plugin_mem_read(struct devimg_plugin *p,
			   struct devimg_plugin_queue *q,
			   struct devimg_plugin_mem *mem, int blocking,
			   size_t offset, size_t n, void *dst)
{
	int rc = p->ops.mem_read(q, mem, blocking, offset, n, dst);

	if (TRACING(p))
		trace_call(p, rc,
			   "mem_read(q=%p, mem=%p, blocking=%d, offset=%zu, n=%zu, dst=%p)",
			   (void *)q, (void *)mem, blocking, offset, n, dst);
	return rc;
}

void devimg_plugin_mem_release(struct devimg_plugin *p,
			       struct devimg_plugin_mem *mem)
{
	trace_void(p, "mem_release", mem);
	p->ops.mem_release(mem);
}

int devimg_plugin_program_create_il(struct devimg_plugin *p,
				    struct devimg_plugin_context *ctx,
				    struct devimg_plugin_device *device,
				    const void *il, size_t size,
				    struct devimg_plugin_program **out)
{
	int rc = p->ops.program_create_il(ctx, device, il, size, out);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_create_il(ctx=%p, device=%p, size=%zu) -> %p",
			   (void *)ctx, (void *)device, size, OUT(rc, out));
	return rc;
}

int devimg_plugin_program_create_binary(struct devimg_plugin *p,
					struct devimg_plugin_context *ctx,
					struct devimg_plugin_device *device,
					enum devimg_plugin_binary_kind kind,
					const void *binary, size_t size,
					struct devimg_plugin_program **out)
{
	int rc = p->ops.program_create_binary(ctx, device, kind, binary, size,
					      out);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_create_binary(ctx=%p, device=%p, kind=%s, size=%zu) -> %p",
			   (void *)ctx, (void *)device,
			   kind == DEVIMG_PLUGIN_BINARY_SPIR ? "spir" : "native",
			   size, OUT(rc, out));
	return rc;
}

int devimg_plugin_program_set_spec_const(struct devimg_plugin *p,
					 struct devimg_plugin_program *prog,
					 uint32_t id, size_t size,
					 const void *value)
{
	int rc = p->ops.program_set_spec_const(prog, id, size, value);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_set_spec_const(prog=%p, id=%" PRIu32 ", size=%zu)",
			   (void *)prog, id, size);
	return rc;
}

int devimg_plugin_program_build(struct devimg_plugin *p,
				struct devimg_plugin_program *prog,
				const char *options)
{
	int rc = p->ops.program_build(prog, options);

	if (TRACING(p))
		trace_call(p, rc, "program_build(prog=%p, options=\"%s\")",
			   (void *)prog, options ? options : "");
	return rc;
}

int devimg_plugin_program_build_log(struct devimg_plugin *p,
				    struct devimg_plugin_program *prog,
				    char *buf, size_t capacity, size_t *len)
{
	int rc = p->ops.program_build_log(prog, buf, capacity, len);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_build_log(prog=%p, capacity=%zu) -> len=%zu",
			   (void *)prog, capacity, rc == 0 && len ? *len : 0);
	return rc;
}

int devimg_plugin_program_binary(struct devimg_plugin *p,
				 struct devimg_plugin_program *prog, void *buf,
				 size_t capacity, size_t *len)
{
	int rc = p->ops.program_binary(prog, buf, capacity, len);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_binary(prog=%p, capacity=%zu) -> len=%zu",
			   (void *)prog, capacity, rc == 0 && len ? *len : 0);
	return rc;
}

int devimg_plugin_program_compile(struct devimg_plugin *p,
				  struct devimg_plugin_program *prog,
				  const char *options)
{
	int rc = p->ops.program_compile ?
		p->ops.program_compile(prog, options) :
		absent_op(p, "program_compile");

	if (TRACING(p))
		trace_call(p, rc, "program_compile(prog=%p, options=\"%s\")",
			   (void *)prog, options ? options : "");
	return rc;
}

int devimg_plugin_program_link(struct devimg_plugin *p,
			       struct devimg_plugin_context *ctx,
			       struct devimg_plugin_device *device, unsigned n,
			       struct devimg_plugin_program *const *progs,
			       const char *options,
			       struct devimg_plugin_program **out)
{
	int rc = p->ops.program_link ?
		p->ops.program_link(ctx, device, n, progs, options, out) :
		absent_op(p, "program_link");

	if (TRACING(p))
		trace_call(p, rc,
			   "program_link(ctx=%p, device=%p, n=%u, options=\"%s\") -> %p",
			   (void *)ctx, (void *)device, n,
			   options ? options : "", OUT(rc, out));
	return rc;
}

int devimg_plugin_global_info(struct devimg_plugin *p,
			      struct devimg_plugin_program *prog,
			      const char *name, size_t *size)
{
	int rc = p->ops.global_info ? p->ops.global_info(prog, name, size) :
				      absent_op(p, "global_info");

	if (TRACING(p))
		trace_call(p, rc, "global_info(prog=%p, name=\"%s\") -> size=%zu",
			   (void *)prog, name, rc == 0 && size ? *size : 0);
	return rc;
}

int devimg_plugin_global_write(struct devimg_plugin *p,
			       struct devimg_plugin_queue *q,
			       struct devimg_plugin_program *prog,
			       const char *name, size_t off, size_t n,
			       const void *src, int blocking)
{
	int rc = p->ops.global_write ?
		p->ops.global_write(q, prog, name, off, n, src, blocking) :
		absent_op(p, "global_write");

	if (TRACING(p))
		trace_call(p, rc,
			   "global_write(q=%p, prog=%p, name=\"%s\", off=%zu, n=%zu, src=%p, blocking=%d)",
			   (void *)q, (void *)prog, name, off, n, src,
			   blocking);
	return rc;
}

int devimg_plugin_global_read(struct devimg_plugin *p,
			      struct devimg_plugin_queue *q,
			      struct devimg_plugin_program *prog,
			      const char *name, size_t off, size_t n, void *dst,
			      int blocking)
{
	int rc = p->ops.global_read ?
		p->ops.global_read(q, prog, name, off, n, dst, blocking) :
		absent_op(p, "global_read");

	if (TRACING(p))
		trace_call(p, rc,
			   "global_read(q=%p, prog=%p, name=\"%s\", off=%zu, n=%zu, dst=%p, blocking=%d)",
			   (void *)q, (void *)prog, name, off, n, dst,
			   blocking);
	return rc;
}

int devimg_plugin_mem_address(struct devimg_plugin *p,
			      struct devimg_plugin_mem *mem, uint64_t *addr)
{
	int rc = p->ops.mem_address ? p->ops.mem_address(mem, addr) :
				      absent_op(p, "mem_address");

	if (TRACING(p))
		trace_call(p, rc, "mem_address(mem=%p) -> %#" PRIx64,
			   (void *)mem, rc == 0 && addr ? *addr : 0);
	return rc;
}

void devimg_plugin_program_release(struct devimg_plugin *p,
				   struct devimg_plugin_program *prog)
{
	trace_void(p, "program_release", prog);
	p->ops.program_release(prog);
}

int devimg_plugin_kernel_create(struct devimg_plugin *p,
				struct devimg_plugin_program *prog,
				const char *name,
				struct devimg_plugin_kernel **out)
{
	int rc = p->ops.kernel_create(prog, name, out);

	if (TRACING(p))
		trace_call(p, rc, "kernel_create(prog=%p, name=\"%s\") -> %p",
			   (void *)prog, name ? name : "(null)", OUT(rc, out));
	return rc;
}

int devimg_plugin_kernel_arg_count(struct devimg_plugin *p,
				   struct devimg_plugin_kernel *k,
				   unsigned *count)
{
	int rc = p->ops.kernel_arg_count(k, count);

	if (TRACING(p))
		trace_call(p, rc, "kernel_arg_count(%p) -> %u", (void *)k,
			   rc == 0 && count ? *count : 0);
	return rc;
}

int devimg_plugin_kernel_set_arg_value(struct devimg_plugin *p,
				       struct devimg_plugin_kernel *k,
				       unsigned index, size_t size,
				       const void *value)
{
	int rc = p->ops.kernel_set_arg_value(k, index, size, value);

	if (TRACING(p))
		trace_call(p, rc,
			   "kernel_set_arg_value(%p, index=%u, size=%zu, value=%p)",
			   (void *)k, index, size, value);
	return rc;
}

int devimg_plugin_kernel_set_arg_mem(struct devimg_plugin *p,
				     struct devimg_plugin_kernel *k,
				     unsigned index,
				     struct devimg_plugin_mem *mem)
{
	int rc = p->ops.kernel_set_arg_mem(k, index, mem);

	if (TRACING(p))
		trace_call(p, rc, "kernel_set_arg_mem(%p, index=%u, mem=%p)",
			   (void *)k, index, (void *)mem);
	return rc;
}

int devimg_plugin_kernel_set_arg_local(struct devimg_plugin *p,
				       struct devimg_plugin_kernel *k,
				       unsigned index, size_t size)
{
	int rc = p->ops.kernel_set_arg_local(k, index, size);

	if (TRACING(p))
		trace_call(p, rc, "kernel_set_arg_local(%p, index=%u, size=%zu)",
			   (void *)k, index, size);
	return rc;
}

void devimg_plugin_kernel_release(struct devimg_plugin *p,
				  struct devimg_plugin_kernel *k)
{
	trace_void(p, "kernel_release", k);
	p->ops.kernel_release(k);
}

static void format_range(char *buf, size_t size, unsigned dims,
			 const size_t *v)
{
	size_t used = 0;
	unsigned i;

	if (!v) {
		snprintf(buf, size, "NULL");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < dims && i < 3 && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%zu",
					 i ? "," : "{", v[i]);
	if (used < size)
		snprintf(buf + used, size - used, "}");
}

/* The trace line of a launch, out of the launch's way. */
static __attribute__((noinline, cold)) void
trace_launch(struct devimg_plugin *p, int rc, struct devimg_plugin_queue *q,
	     struct devimg_plugin_kernel *k, unsigned dims,
	     const size_t *global_offset, const size_t *global_size,
	     const size_t *local_size)
{
	char off[80], glob[80], loc[80];

	format_range(off, sizeof(off), dims, global_offset);
	format_range(glob, sizeof(glob), dims, global_size);
	format_range(loc, sizeof(loc), dims, local_size);
	trace_call(p, rc,
		   "launch(q=%p, kernel=%p, dims=%u, offset=%s, global=%s, local=%s)",
		   (void *)q, (void *)k, dims, off, glob, loc);
}

const struct devimg_plugin_ops *devimg_plugin_untraced_ops(
	const struct devimg_plugin *p)
{
	return TRACING(p) ? NULL : &p->ops;
}

int devimg_plugin_launch(struct devimg_plugin *p,
			 struct devimg_plugin_queue *q,
			 struct devimg_plugin_kernel *k, unsigned dims,
			 const size_t *global_offset,
			 const size_t *global_size,
			 const size_t *local_size)
{
	int rc;

	/* Untraced: a tail call, the plugin returns to the caller. */
	if (!TRACING(p))
		return p->ops.launch(q, k, dims, global_offset, global_size,
				     local_size);
	rc = p->ops.launch(q, k, dims, global_offset, global_size, local_size);
	trace_launch(p, rc, q, k, dims, global_offset, global_size,
		     local_size);
	return rc;
}
