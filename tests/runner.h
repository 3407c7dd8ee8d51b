/* SPDX-License-Identifier: MIT */
/*
 * What the end-to-end runners (tests/dispatch for OpenCL and CUDA,
 * tests/cuda, tests/launch-metadata, tests/level_zero, tests/bundle,
 * tests/containers, tests/compress, tests/loader's prog-offload-run,
 * tests/plugins' globals-pocl) share: CHECK(), which reports a failed condition with
 * its place, a message and devimg_last_error(), marks the run failed and
 * returns -1 from the test function; the context, device and queue a test
 * runs on, how they are opened and closed; buffers filled and read back;
 * and the checks more than one backend's runner makes (threads on their
 * own queues, a bundle kernel's fixed spec constants). Header only, so
 * that each runner's build lists its one source: include once, from the
 * runner's main file; what a runner does not call is not compiled in.
 */
#ifndef DEVIMG_TESTS_RUNNER_H
#define DEVIMG_TESTS_RUNNER_H

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

/* Set by a failed CHECK(); main() returns it. */
static int failed;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fprintf(stderr, " [last error: %s]\n",		\
				devimg_last_error());			\
			failed = 1;					\
			return -1;					\
		}							\
	} while (0)

struct env {
	struct devimg_ctx *ctx;
	struct devimg_device *dev;
	struct devimg_queue *q;
};

/*
 * The context's device 0 (of backend, unless NULL) and a queue on it, the
 * device named on stdout. 0; 77, the context released, when there is no
 * device at all; 1, with a message, on an error or a device of another
 * backend.
 */
static inline int runner_device(struct env *e, const char *backend)
{
	int err;

	e->dev = devimg_device_get(e->ctx, 0);
	if (!e->dev) {
		printf("SKIP [%s]: no device in the context\n",
		       backend && !strcmp(backend, "cuda") ? "cuda-device" :
		       "opencl-device");
		devimg_ctx_unref(e->ctx);
		return 77;
	}
	printf("device: %s (%s)\n", devimg_device_name(e->dev),
	       devimg_device_backend(e->dev));
	if (backend && strcmp(devimg_device_backend(e->dev), backend)) {
		fprintf(stderr, "FAIL: device 0 is not a %s device\n", backend);
		devimg_ctx_unref(e->ctx);
		return 1;
	}
	err = devimg_queue_new(e->dev, &e->q);
	if (err < 0) {
		fprintf(stderr, "FAIL: devimg_queue_new: %d %s\n", err,
			devimg_last_error());
		devimg_ctx_unref(e->ctx);
		return 1;
	}
	return 0;
}

/* A new context and runner_device() on it. */
static inline int runner_open(struct env *e, const char *backend)
{
	int err = devimg_ctx_new(&e->ctx);

	if (err < 0) {
		fprintf(stderr, "FAIL: devimg_ctx_new: %d %s\n", err,
			devimg_last_error());
		return 1;
	}
	return runner_device(e, backend);
}

/*
 * Open library (its constructors register the images it carries) and make
 * a context: 0; 1, with a message, when either fails.
 */
static inline int runner_ctx(struct env *e, const char *library, void **lib)
{
	int err;

	*lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
	if (!*lib) {
		fprintf(stderr, "FAIL: %s\n", dlerror());
		return 1;
	}
	err = devimg_ctx_new(&e->ctx);
	if (err) {
		fprintf(stderr, "FAIL: ctx_new: %s: %s\n", devimg_strerror(err),
			devimg_last_error());
		return 1;
	}
	return 0;
}

/*
 * Release the queue (if any) and the context, whose last reference that
 * must be: 0; -1, the run failed, when the context outlives it.
 */
static inline int runner_close(struct env *e)
{
	devimg_queue_unref(e->q);
	if (devimg_ctx_unref(e->ctx) != NULL) {
		fprintf(stderr, "FAIL: the context outlived its last reference\n");
		failed = 1;
		return -1;
	}
	return 0;
}

/* A new buffer of size bytes holding data. */
static inline int runner_buf_with(struct env *e, const void *data,
				  size_t size, struct devimg_buf **b)
{
	CHECK(!devimg_buf_new(e->dev, size, b), "buf_new(%zu)", size);
	CHECK(!devimg_buf_write(e->q, *b, 0, size, data), "buf_write(%zu)",
	      size);
	return 0;
}

/* The buffer holds size bytes equal to data (a copy round trip). */
static inline int runner_buf_holds(struct env *e, struct devimg_buf *b,
				   const void *data, size_t size)
{
	void *back = malloc(size);
	int same;

	CHECK(back, "malloc");
	if (devimg_buf_read(e->q, b, 0, size, back)) {
		free(back);
		CHECK(0, "buf_read(%zu)", size);
	}
	same = !memcmp(back, data, size);
	free(back);
	CHECK(same, "the buffer does not hold what was written");
	return 0;
}

/* ---- threads on their own queues ---- */

enum { RUNNER_THREADS_MAX = 8, RUNNER_TN_MAX = 512 };

/*
 * What a thread's launches of vadd are checked by: RUNNER_SUMS, c = a + b
 * read back (a device that runs kernels); RUNNER_COPIES, a copied back
 * unchanged after each launch (a driver that records launches only).
 */
enum runner_check { RUNNER_SUMS, RUNNER_COPIES };

struct runner_worker {
	struct env *e;
	enum runner_check check;
	int id, rounds, n;
	int ok;
};

/* Each thread: its own queue, vadd kernel and buffers; many launches. */
static inline void *runner_worker_run(void *arg)
{
	struct devimg_buf *ba = NULL, *bb = NULL, *bc = NULL;
	struct runner_worker *w = arg;
	struct devimg_kernel *k = NULL;
	struct devimg_queue *q = NULL;
	float a[RUNNER_TN_MAX], b[RUNNER_TN_MAX], c[RUNNER_TN_MAX];
	size_t g = (size_t)w->n, size = g * sizeof(float);
	int r, i;

	w->ok = 0;
	if (devimg_queue_new(w->e->dev, &q) ||
	    devimg_kernel_new(w->e->dev, "vadd", &k) ||
	    devimg_buf_new(w->e->dev, size, &ba) ||
	    devimg_buf_new(w->e->dev, size, &bb) ||
	    devimg_buf_new(w->e->dev, size, &bc) ||
	    devimg_kernel_set_arg_buf(k, 0, ba) ||
	    devimg_kernel_set_arg_buf(k, 1, bb) ||
	    devimg_kernel_set_arg_buf(k, 2, bc))
		goto out;
	for (r = 0; r < w->rounds; r++) {
		for (i = 0; i < w->n; i++) {
			a[i] = (float)(w->id * 100000 + r * 1000 + i);
			b[i] = (float)w->id;
		}
		if (w->check == RUNNER_COPIES) {
			if (devimg_buf_write(q, ba, 0, size, a) ||
			    devimg_launch(q, k, 1, NULL, &g, NULL) ||
			    devimg_buf_read(q, ba, 0, size, c) ||
			    memcmp(a, c, size))
				goto out;
			continue;
		}
		if (devimg_buf_write(q, ba, 0, size, a) ||
		    devimg_buf_write(q, bb, 0, size, b) ||
		    devimg_launch(q, k, 1, NULL, &g, NULL) ||
		    devimg_buf_read(q, bc, 0, size, c))
			goto out;
		for (i = 0; i < w->n; i++)
			if (c[i] != a[i] + b[i])
				goto out;
	}
	w->ok = 1;
out:
	devimg_kernel_unref(k);
	devimg_buf_unref(ba);
	devimg_buf_unref(bb);
	devimg_buf_unref(bc);
	devimg_queue_unref(q);
	return NULL;
}

/*
 * threads threads (at most RUNNER_THREADS_MAX), each launching vadd over
 * n work-items (at most RUNNER_TN_MAX) rounds times on its own queue,
 * checked by check; all of them together build the program once.
 */
static inline int runner_threads(struct env *e, int threads, int rounds,
				 int n, enum runner_check check)
{
	unsigned builds = devimg_ctx_stat_builds(e->ctx);
	struct runner_worker w[RUNNER_THREADS_MAX];
	pthread_t t[RUNNER_THREADS_MAX];
	int i;

	CHECK(threads > 0 && threads <= RUNNER_THREADS_MAX && n > 0 &&
	      n <= RUNNER_TN_MAX, "%d threads of %d work-items", threads, n);
	for (i = 0; i < threads; i++) {
		w[i].e = e;
		w[i].check = check;
		w[i].id = i;
		w[i].rounds = rounds;
		w[i].n = n;
		CHECK(!pthread_create(&t[i], NULL, runner_worker_run, &w[i]),
		      "pthread_create");
	}
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < threads; i++)
		CHECK(w[i].ok, "thread %d failed", i);
	CHECK(devimg_ctx_stat_builds(e->ctx) == builds + 1,
	      "%u builds for %d threads, want 1",
	      devimg_ctx_stat_builds(e->ctx) - builds, threads);
	printf("ok %d threads x %d launches on their own queues, one build\n",
	       threads, rounds);
	return 0;
}

/* ---- bundles ---- */

/*
 * A kernel of an executable bundle has fixed spec constants: setting one
 * is -EINVAL, the message says so and names the constant.
 */
static inline int runner_check_fixed(struct env *e, struct devimg_bundle *exe)
{
	struct devimg_kernel *k;
	int err, one = 1;

	err = devimg_bundle_kernel_new(exe, e->dev, "spec_k", NULL, NULL, &k);
	CHECK(err == 0, "spec_k from the bundle: %d", err);
	err = devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(one), &one);
	devimg_kernel_unref(k);
	CHECK(err == -EINVAL && strstr(devimg_last_error(), "fixed") &&
	      strstr(devimg_last_error(), "ScalarSpec"),
	      "spec constant on a bundle's kernel: %d", err);
	printf("ok fixed: %s\n", devimg_last_error());
	return 0;
}

#endif
