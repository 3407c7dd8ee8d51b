/* SPDX-License-Identifier: MIT */
/*
 * A kernel object, shared by the files that make it up: kernel.c (lookup,
 * program, spec constants, launches) and kernel-args.c (its recorded
 * arguments and DPC++'s argument tables). The locking rules are
 * kernel.c's.
 */
#ifndef DEVIMG_LOADER_KERNEL_PRIVATE_H
#define DEVIMG_LOADER_KERNEL_PRIVATE_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "loader/dispatch/dispatch.h"
#include "loader/program/program.h"

enum arg_kind { ARG_UNSET, ARG_VALUE, ARG_BUF, ARG_LOCAL };

struct kernel_arg {
	enum arg_kind kind;
	size_t size;
	void *value;
	struct devimg_buf *buf;
};

struct devimg_kernel {
	/*
	 * Resolved for launches, first, so that a steady launch reads the
	 * kernel's first 64 bytes: ready when every argument is set and the
	 * spec constants are on the device (the gate guards it and pk);
	 * offset_ok when the backend takes a global offset; launch, the
	 * plugin's own launch when untraced (else NULL: the traced wrapper).
	 */
	atomic_bool gate;
	bool ready;
	bool offset_ok;
	atomic_uint waiting;		/* gate_enter() calls waiting */
	unsigned reqd_dims;		/* 0: no required work-group size */
	struct devimg_device *dev;
	struct devimg_plugin_kernel *pk;
	int (*launch)(struct devimg_plugin_queue *q,
		      struct devimg_plugin_kernel *k, unsigned dims,
		      const size_t *global_offset, const size_t *global_size,
		      const size_t *local_size);
	size_t reqd[3];
	atomic_uint refcount;
	struct devimg_ctx *ctx;
	char *name;
	struct devimg_image *img;
	enum devimg_image_format fmt;
	char *options;
	pthread_mutex_t lock;
	unsigned nuser;			/* UINT_MAX: the backend cannot tell */
	size_t nargs_rec;
	struct kernel_arg *args;
	struct devimg_spec_values *spec;	/* NULL: no spec constants */
	bool native_spec;
	bool spec_dirty;
	struct devimg_plugin_mem *spec_mem;	/* emulated path */
	unsigned spec_index;
	/*
	 * Native path: the image's defaults (borrowed, the image is held).
	 * Values equal to them are the program built without values set, so
	 * they share its cache entry.
	 */
	const void *spec_defaults;
	size_t spec_defaults_size;
	/*
	 * Eliminated arguments: backend[i] is the plugin's index of argument
	 * i (original numbering), ELIMINATED when the image's kernel lacks it.
	 * NULL: nothing eliminated, the numbers are the same.
	 */
	unsigned *backend;
	struct link_plan plan;		/* n > 1: a linked program */
	bool spec_fixed;		/* from an executable bundle */
};

#define ELIMINATED UINT_MAX

/* Take the launch gate if it is free: whether it was taken. */
static inline bool gate_try(struct devimg_kernel *k)
{
	return !atomic_exchange_explicit(&k->gate, true, memory_order_acquire);
}

/*
 * Take the launch gate (k->lock held): its other holders then can only be
 * launches of a ready kernel, which leave it soon. While one waits, new
 * launches go to the lock instead (k->waiting), so a stream of them
 * cannot keep the gate from a state change.
 */
static inline void gate_enter(struct devimg_kernel *k)
{
	if (gate_try(k))
		return;
	atomic_fetch_add_explicit(&k->waiting, 1, memory_order_relaxed);
	while (!gate_try(k))
		while (atomic_load_explicit(&k->gate, memory_order_relaxed))
			sched_yield();
	atomic_fetch_sub_explicit(&k->waiting, 1, memory_order_relaxed);
}

static inline void gate_leave(struct devimg_kernel *k)
{
	atomic_store_explicit(&k->gate, false, memory_order_release);
}

/* ---- kernel-args.c ---- */

/* The first argument a launch needs that is not set; UINT_MAX: none. */
unsigned kernel_first_unset(const struct devimg_kernel *k);
/* Resolve k->ready after a state change (k->lock and the gate held). */
void kernel_update_ready(struct devimg_kernel *k);
/* Pass recorded argument i to the plugin kernel, unless eliminated. */
int kernel_apply_arg(struct devimg_kernel *k, unsigned i);
/* Free what a recorded argument holds and mark it unset. */
void kernel_arg_clear(struct kernel_arg *a);

#endif
