// SPDX-License-Identifier: MIT
/*
 * Plugin discovery, start and binding (plugins.h); the traced calls into
 * bound plugins are plugin-calls.c's.
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

#include "loader/backend/account.h"
#include "util/escape.h"
#include "loader/libdevimg-internal.h"
#include "paths.h"
#include "loader/backend/plugin-ops.h"
#include "loader/backend/plugin-private.h"
#include "loader/backend/plugins.h"
#include "loader/backend/device-selector.h"

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

/*
 * Every function pointer of the table (plugin-ops.h): X(name, ...) for the
 * required ones, to check a plugin filled them all, and for the optional
 * ones appended after them: absent when the plugin's size stops before
 * them or when NULL; the loader then answers -ENOTSUP itself
 * (absent_op()).
 */
#define SKIP_OP(...)
#define DEVIMG_PLUGIN_OP_NAMES(X) DEVIMG_PLUGIN_OPS(X, SKIP_OP)
#define DEVIMG_PLUGIN_OPTIONAL_OP_NAMES(X) DEVIMG_PLUGIN_OPS(SKIP_OP, X)

/* A table must reach at least this far: through launch, the last required. */
#define DEVIMG_PLUGIN_OPS_MIN DEVIMG_PLUGIN_OPS_MIN_SIZE

#define COUNT_OP(...) + 1
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
#define CHECK_OP(name, ...) \
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
	plugin_trace(p->trace, 1,
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
		plugin_trace(p->trace, 1, "plugins: %s: 0 platforms: %s",
		      p->ops.backend, why);
	else
		plugin_trace(p->trace, 1, "plugins: %s: %u platform(s)",
		      p->ops.backend, npl);
	for (i = 0; i < npl && i < 16; i++) {
		const struct devimg_plugin_platform_info *pi =
			p->ops.platform_info(pl[i]);

		plugin_trace(p->trace, 1, "plugins: %s: platform %u \"%s\" (%s)",
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
#define OP_BEYOND(name, ...)                                              \
	if (offsetof(struct devimg_plugin_ops, name) +                   \
		    sizeof(((struct devimg_plugin_ops *)0)->name) > size)  \
		return #name;
	OP_BEYOND(abi_version, ) OP_BEYOND(size, ) OP_BEYOND(backend, )
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
 * plugin_trace(). Out of memory, the line is lost.
 */
static void note_vset(struct devimg_plugins *ps, struct note *n,
		      const char *fmt, va_list ap)
{
	char buf[TRACE_MAX];

	if (ps->trace < 1)
		return;
	esc_vsnprintf(buf, sizeof(buf), NULL, fmt, ap);
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
		plugin_trace(p->trace, 1, "plugins: %s gives backend %s, not the %s of its name: bound whatever DEVIMG_DEVICE_SELECTOR names",
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
		plugin_trace(ps->trace, 1, "plugins: skipping %s: %s", p->file, skip);
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
	plugin_trace(ps->trace, 1, "plugins: bound %s from %s (ABI %u)",
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
		plugin_trace(ps->trace, 1, "plugins: out of memory, %u bound, the rest left out",
		      ps->count);
		to = ps->nnotes;
	}
	if (ps->next < to && to == ps->nnotes && rc == 0)
		plugin_trace(ps->trace, 1, "plugins: %u bound", ps->count);
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
