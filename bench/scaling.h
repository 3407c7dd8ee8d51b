/* SPDX-License-Identifier: MIT */
/*
 * The launch scaling benchmarks' measurement (bench/launch-threads.sh):
 * T threads launch an empty kernel at once, each with its own queue and
 * its own kernel object, through devimg and through the raw driver, and
 * their combined throughput is compared.
 *
 * A pool of T worker threads is made per thread count; each makes, in its
 * own thread, a devimg queue, kernel and buffer on devimg device t % G and
 * the raw driver's queue and kernel on the same device (the backend's
 * ops). A run releases all workers at one barrier and lasts from the
 * first one's start to the last one's end, each timing itself; each
 * worker makes its launches in one of two shapes:
 *  - "burst": bursts of SCALING_BURST launches, each followed by a wait
 *    for the queue (the pattern of a program that waits on each step);
 *  - "stream": all its launches, then one wait (the queue saturated).
 * each with no local size and with an explicit local size of 1. A
 * repetition runs raw then devimg (devimg then raw every other one), and
 * the ratio of a configuration is the median of its repetitions' paired
 * throughput ratios devimg/raw, which cancels the drifts of a shared
 * machine; the quartiles are printed beside it. "ok" when the median
 * ratio is at least the target, "MISS" otherwise.
 */
#ifndef DEVIMG_BENCH_SCALING_H
#define DEVIMG_BENCH_SCALING_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <devimg/devimg.h>

#define SCALING_BURST 100u
#define SCALING_MAX_THREADS 64u
#define SCALING_MAX_DEVICES 8u

/* What a backend does for the raw side, in the worker's thread. */
struct scaling_ops {
	/* The raw queue and kernel on device dev (0..G-1): *state. 0 or -1. */
	int (*setup)(void *bench, unsigned dev, void **state);
	/*
	 * Before each raw run (may be NULL): what the thread needs again
	 * after devimg's calls, e.g. its CUDA context made current.
	 */
	int (*enter)(void *state);
	/* One launch of global size 1; local: NULL or {1}. 0 or -1. */
	int (*launch)(void *state, const size_t *local);
	/* Wait for everything launched on the queue. 0 or -1. */
	int (*wait)(void *state);
	void (*teardown)(void *state);
};

enum scaling_shape { SCALING_BURSTS, SCALING_STREAM };

struct scaling_worker {
	pthread_t thread;
	struct scaling_pool *pool;
	unsigned dev;
	void *raw;
	struct devimg_queue *q;
	struct devimg_kernel *k;
	struct devimg_buf *buf;
	double t0, t1;		/* the last run's start and end, here */
	int failed;
};

struct scaling_pool {
	const struct scaling_ops *ops;
	void *bench;
	struct devimg_device **devs;
	unsigned nthreads;
	pthread_barrier_t start, done;
	/* What the next run does; set by the main thread between runs. */
	int quit, raw, shape;
	const size_t *local;
	unsigned launches;
	struct scaling_worker w[SCALING_MAX_THREADS];
};

static double scaling_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int scaling_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int scaling_devimg_setup(struct scaling_worker *w)
{
	struct devimg_device *dev = w->pool->devs[w->dev];
	int err;

	if ((err = devimg_queue_new(dev, &w->q)) ||
	    (err = devimg_kernel_new(dev, "empty", &w->k)) ||
	    (err = devimg_buf_new(dev, sizeof(int), &w->buf)) ||
	    (err = devimg_kernel_set_arg_buf(w->k, 0, w->buf))) {
		fprintf(stderr, "launch-threads: devimg setup on %s: %s: %s\n",
			devimg_device_name(dev), devimg_strerror(err),
			devimg_last_error());
		return -1;
	}
	return 0;
}

/* One worker's part of a run: 0, or -1 on a failed call. */
static int scaling_work(struct scaling_worker *w)
{
	const struct scaling_pool *p = w->pool;
	static const size_t g = 1;
	unsigned i, per = p->shape == SCALING_BURSTS ? SCALING_BURST :
						       p->launches;

	if (p->raw && p->ops->enter && p->ops->enter(w->raw) < 0)
		return -1;
	for (i = 0; i < p->launches; i++) {
		if (p->raw ? p->ops->launch(w->raw, p->local) :
			     devimg_launch(w->q, w->k, 1, NULL, &g, p->local))
			return -1;
		if ((i + 1) % per && i + 1 < p->launches)
			continue;
		if (p->raw ? p->ops->wait(w->raw) : devimg_queue_finish(w->q))
			return -1;
	}
	return 0;
}

static void *scaling_thread(void *arg)
{
	struct scaling_worker *w = arg;
	struct scaling_pool *p = w->pool;

	w->failed = p->ops->setup(p->bench, w->dev, &w->raw) < 0 ||
		    scaling_devimg_setup(w) < 0;
	pthread_barrier_wait(&p->done);
	for (;;) {
		pthread_barrier_wait(&p->start);
		if (p->quit)
			break;
		w->t0 = scaling_now();
		if (!w->failed && scaling_work(w) < 0) {
			fprintf(stderr, "launch-threads: a %s launch failed: %s\n",
				p->raw ? "raw" : "devimg", devimg_last_error());
			w->failed = 1;
		}
		w->t1 = scaling_now();
		pthread_barrier_wait(&p->done);
	}
	devimg_kernel_unref(w->k);
	devimg_buf_unref(w->buf);
	devimg_queue_unref(w->q);
	if (w->raw)
		p->ops->teardown(w->raw);
	return NULL;
}

static int scaling_failed(const struct scaling_pool *p)
{
	unsigned t;

	for (t = 0; t < p->nthreads; t++)
		if (p->w[t].failed)
			return 1;
	return 0;
}

/*
 * One run: launches per second of all threads together, from the first
 * thread's start to the last one's end as the threads saw them (not the
 * main thread, which may wake late); -1 on failure.
 */
static double scaling_run(struct scaling_pool *p, int raw)
{
	double t0, t1;
	unsigned t;

	p->raw = raw;
	pthread_barrier_wait(&p->start);
	pthread_barrier_wait(&p->done);
	if (scaling_failed(p))
		return -1;
	t0 = p->w[0].t0;
	t1 = p->w[0].t1;
	for (t = 1; t < p->nthreads; t++) {
		if (p->w[t].t0 < t0)
			t0 = p->w[t].t0;
		if (p->w[t].t1 > t1)
			t1 = p->w[t].t1;
	}
	return (double)p->nthreads * p->launches / (t1 - t0);
}

static int scaling_start(struct scaling_pool *p, unsigned nthreads,
			 unsigned ndevs)
{
	unsigned t;

	p->nthreads = nthreads;
	p->quit = 0;
	if (pthread_barrier_init(&p->start, NULL, nthreads + 1) ||
	    pthread_barrier_init(&p->done, NULL, nthreads + 1))
		return -1;
	for (t = 0; t < nthreads; t++) {
		p->w[t] = (struct scaling_worker){ .pool = p,
						   .dev = t % ndevs };
		if (pthread_create(&p->w[t].thread, NULL, scaling_thread,
				   &p->w[t])) {
			fprintf(stderr, "launch-threads: pthread_create failed\n");
			exit(1);
		}
	}
	pthread_barrier_wait(&p->done);
	return scaling_failed(p) ? -1 : 0;
}

static void scaling_stop(struct scaling_pool *p)
{
	unsigned t;

	p->quit = 1;
	pthread_barrier_wait(&p->start);
	for (t = 0; t < p->nthreads; t++)
		pthread_join(p->w[t].thread, NULL);
	pthread_barrier_destroy(&p->start);
	pthread_barrier_destroy(&p->done);
}

/*
 * Every configuration of nthreads threads over ndevs devices, reps paired
 * repetitions each (after one of warm-up); one line each, "ok" when the
 * median ratio is at least target. 0, 1 on a failure.
 */
static int scaling_measure(struct scaling_pool *p, unsigned nthreads,
			   unsigned ndevs, unsigned launches, unsigned reps,
			   double target, unsigned *misses)
{
	static const size_t one = 1;
	static const char *const shape_name[] = { "burst", "stream" };
	double *raw = calloc(3 * (size_t)reps, sizeof(double));
	double *dev = raw + reps, *ratio = dev + reps;
	int shape, loc, ret = 1;
	unsigned r, k;

	if (!raw)
		return 1;
	if (scaling_start(p, nthreads, ndevs) < 0)
		goto out;
	p->launches = launches;
	for (shape = SCALING_BURSTS; shape <= SCALING_STREAM; shape++) {
		for (loc = 0; loc < 2; loc++) {
			p->shape = shape;
			p->local = loc ? &one : NULL;
			if (scaling_run(p, 1) < 0 || scaling_run(p, 0) < 0)
				goto out;
			for (r = 0; r < reps; r++) {
				/* raw first in even repetitions */
				for (k = 0; k < 2; k++) {
					int is_raw = (r + k) % 2 == 0;
					double v = scaling_run(p, is_raw);

					if (v < 0)
						goto out;
					(is_raw ? raw : dev)[r] = v;
				}
				ratio[r] = dev[r] / raw[r];
			}
			qsort(raw, reps, sizeof(double), scaling_cmp);
			qsort(dev, reps, sizeof(double), scaling_cmp);
			qsort(ratio, reps, sizeof(double), scaling_cmp);
			printf("%7u %7u  %-6s %-5s %12.0f %12.0f   %.3f (%.3f..%.3f)  >= %.2f %s\n",
			       nthreads, ndevs, shape_name[shape],
			       loc ? "1" : "none", raw[reps / 2],
			       dev[reps / 2], ratio[reps / 2],
			       ratio[reps / 4], ratio[reps - 1 - reps / 4],
			       target, ratio[reps / 2] >= target ? "ok" :
								     "MISS");
			fflush(stdout);
			*misses += ratio[reps / 2] < target;
		}
	}
	ret = 0;
out:
	scaling_stop(p);
	free(raw);
	return ret;
}

/*
 * The table: scaling_measure() for each thread count of the
 * comma-separated list, then the verdict. 0, or 1 on a bad count or a
 * failure.
 */
static int scaling_table(struct scaling_pool *p, const char *list,
			 unsigned ndevs, unsigned launches, unsigned reps,
			 double target)
{
	char *copy = strdup(list), *tok, *save = NULL;
	unsigned misses = 0, t;
	int ret = 1;

	if (!copy)
		return 1;
	printf("launches per second of all threads together, %u launches of global size 1 a thread a run (bursts of %u, or one stream), median of paired runs\n",
	       launches, SCALING_BURST);
	printf("threads devices shape  local  raw launch/s  devimg launch/s  devimg/raw (quartiles)  target\n");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		t = (unsigned)strtoul(tok, NULL, 10);
		if (!t || t > SCALING_MAX_THREADS) {
			fprintf(stderr, "launch-threads: %s threads, expected 1 to %u\n",
				tok, SCALING_MAX_THREADS);
			goto out;
		}
		if (scaling_measure(p, t, ndevs, launches, reps, target,
				    &misses))
			goto out;
	}
	printf("target devimg/raw >= %.2f in every configuration: %s\n",
	       target, misses ? "MISS" : "ok");
	ret = 0;
out:
	free(copy);
	return ret;
}

#endif
