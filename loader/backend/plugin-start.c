// SPDX-License-Identifier: MIT
/*
 * Starting plugins: open a noted file and find its entry point, run the
 * inits, several at once on threads of their own when the dynamic
 * linker's lock allows (the probe), and keep what was started mapped
 * until exit; freeing a plugin closes it again.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "loader/backend/account.h"
#include "loader/backend/plugin-private.h"
#include "loader/backend/plugins.h"
#include "loader/backend/device-selector.h"

void plugin_free(struct devimg_plugin *p, bool initialised)
{
	if (initialised)
		p->ops.fini();
	if (p->handle)
		dlclose(p->handle);
	free(p->file);
	free(p);
}

/*
 * A bound plugin stays mapped until exit, fini() or not: vendor libraries
 * (ICD loaders and the drivers they open, CUDA) start threads and register
 * exit handlers that do not survive being unmapped.
 */
void plugin_keep_mapped(const char *file)
{
	void *handle = dlopen(file, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);

	if (handle)
		dlclose(handle);
}

int plugin_open(struct devimg_plugins *ps, struct plugin_note *n)
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

		plugin_note_set(ps, n, "plugins: skipping %s: cannot load: %s",
				p->file, why);
		account_add(&ps->account, "%s cannot load: %s",
			    plugin_base_name(p->file), why);
		goto skip;
	}
	n->init = (devimg_plugin_init_fn)dlsym(p->handle,
					       DEVIMG_PLUGIN_ENTRY);
	if (!n->init) {
		plugin_note_set(ps, n, "plugins: skipping %s: no %s: %s",
				p->file, DEVIMG_PLUGIN_ENTRY, dlerror());
		account_add(&ps->account, "%s skipped: no %s",
			    plugin_base_name(p->file), DEVIMG_PLUGIN_ENTRY);
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
	struct plugin_note *n = arg;
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

	plugin_backend_of_file(ps->notes[i].p->file, name, sizeof(name));
	if (!devimg_selector_known_backend(name))
		return false;
	for (j = 0; j < i; j++) {
		const char *file = ps->notes[j].p ? ps->notes[j].p->file :
						    ps->notes[j].file;

		if (!file)
			continue;
		plugin_backend_of_file(file, other, sizeof(other));
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
		plugin_keep_mapped(info.dli_fname);
}

void devimg_plugins_keep_loader(void)
{
	keep_self_mapped();
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
 * Those that start beside the others each run init in a thread of their
 * own, all joined here (one alone, or all inside a dlopen(), runs on the
 * calling thread); then the rest, one after the other.
 */
void plugin_start_range(struct devimg_plugins *ps, unsigned from,
			unsigned to)
{
	unsigned i, nbeside = 0;

	for (i = from; i < to; i++) {
		struct plugin_note *n = &ps->notes[i];

		n->beside = n->p && starts_beside(ps, i);
		nbeside += n->beside;
	}
	if (nbeside > 1 && !can_thread())
		nbeside = 0;
	for (i = from; i < to; i++) {
		struct plugin_note *n = &ps->notes[i];

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
