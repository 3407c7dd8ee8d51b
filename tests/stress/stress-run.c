// SPDX-License-Identifier: MIT
/*
 * stress-run DIR NLIBS THREADS ROUNDS: THREADS threads, each for ROUNDS
 * rounds, open a random library DIR/libstress<n>.so (n < NLIBS), create
 * its own kernel own_<n> and the kernel shared_k that every library
 * defines, launch both on the first device on their own queue, check what
 * they wrote, and close the library; one more thread opens and closes
 * random libraries all along without using them. A library's images are
 * registered when its reference count leaves 0 and unregistered when it
 * gets back to 0, so registration, unregistration, lookups, builds and
 * launches overlap in every order. own_<n> must compute library n's
 * values; shared_k those of some library (whichever image was chosen),
 * or fail with -ESTALE when that library was closed while the kernel was
 * being built. Exits 77 when there is no device.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#define N 64
#define SHARED_STRIDE 100000

static const char *dir;
static unsigned nlibs, rounds;
static struct devimg_device *dev;
static atomic_uint launches, stale, failures;
static atomic_bool done;

static void failf(unsigned t, const char *what, int err)
{
	fprintf(stderr, "FAIL thread %u: %s: %s [%s]\n", t, what,
		devimg_strerror(err), devimg_last_error());
	atomic_fetch_add(&failures, 1);
}

static void *open_lib(unsigned n, unsigned t)
{
	char path[4096];
	void *h;

	snprintf(path, sizeof(path), "%s/libstress%u.so", dir, n);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "FAIL thread %u: %s\n", t, dlerror());
		atomic_fetch_add(&failures, 1);
	}
	return h;
}

/* Launch k over N items into b and read the result into out. */
static int run(struct devimg_queue *q, struct devimg_kernel *k,
	       struct devimg_buf *b, int out[N], unsigned t)
{
	size_t g = N;
	int err;

	memset(out, 0xff, N * sizeof(*out));
	err = devimg_kernel_set_arg_buf(k, 0, b);
	if (!err)
		err = devimg_launch(q, k, 1, NULL, &g, NULL);
	if (!err)
		err = devimg_buf_read(q, b, 0, N * sizeof(*out), out);
	if (err)
		failf(t, "launch", err);
	else
		atomic_fetch_add(&launches, 1);
	return err;
}

static void check_own(unsigned t, unsigned n, int x, const int out[N])
{
	int i;

	for (i = 0; i < N; i++)
		if (out[i] != x * 3 + i * (int)n) {
			fprintf(stderr, "FAIL thread %u: own_%u[%d] = %d, want %d\n",
				t, n, i, out[i], x * 3 + i * (int)n);
			atomic_fetch_add(&failures, 1);
			return;
		}
}

static void check_shared(unsigned t, const int out[N])
{
	int m = out[0] / SHARED_STRIDE, i;

	if (out[0] < 0 || (unsigned)m >= nlibs) {
		fprintf(stderr, "FAIL thread %u: shared_k wrote %d\n", t,
			out[0]);
		atomic_fetch_add(&failures, 1);
		return;
	}
	for (i = 0; i < N; i++)
		if (out[i] != m * SHARED_STRIDE + i) {
			fprintf(stderr, "FAIL thread %u: shared_k[%d] = %d, library %d wrote %d\n",
				t, i, out[i], m, m * SHARED_STRIDE + i);
			atomic_fetch_add(&failures, 1);
			return;
		}
}

static void round_once(unsigned t, unsigned *seed, struct devimg_queue *q,
		       struct devimg_buf *b)
{
	unsigned n = (unsigned)rand_r(seed) % nlibs;
	int x = rand_r(seed) % 1000, out[N], err;
	struct devimg_kernel *k;
	char name[32];
	void *h;

	h = open_lib(n, t);
	if (!h)
		return;
	snprintf(name, sizeof(name), "own_%u", n);
	err = devimg_kernel_new(dev, name, &k);
	if (err) {
		failf(t, name, err);
	} else {
		err = devimg_kernel_set_arg(k, 1, sizeof(x), &x);
		if (err)
			failf(t, "set_arg", err);
		else if (!run(q, k, b, out, t))
			check_own(t, n, x, out);
		devimg_kernel_unref(k);
	}
	err = devimg_kernel_new(dev, "shared_k", &k);
	if (err == -ESTALE) {
		atomic_fetch_add(&stale, 1);
	} else if (err) {
		failf(t, "shared_k", err);
	} else {
		if (!run(q, k, b, out, t))
			check_shared(t, out);
		devimg_kernel_unref(k);
	}
	dlclose(h);
}

static void *worker(void *arg)
{
	unsigned t = (unsigned)(uintptr_t)arg, seed = 0x5eed + t, r;
	struct devimg_queue *q = NULL;
	struct devimg_buf *b = NULL;
	int err;

	err = devimg_queue_new(dev, &q);
	if (!err)
		err = devimg_buf_new(dev, N * sizeof(int), &b);
	if (err) {
		failf(t, "queue or buffer", err);
		goto out;
	}
	for (r = 0; r < rounds; r++)
		round_once(t, &seed, q, b);
out:
	devimg_buf_unref(b);
	devimg_queue_unref(q);
	return NULL;
}

/* Opens and closes random libraries until the workers are done. */
static void *churn(void *arg)
{
	unsigned seed = 0xc0ffee, opened = 0;
	void *h;

	(void)arg;
	while (!atomic_load(&done)) {
		h = open_lib((unsigned)rand_r(&seed) % nlibs, 999);
		if (!h)
			break;
		dlclose(h);
		opened++;
	}
	return (void *)(uintptr_t)opened;
}

int main(int argc, char **argv)
{
	struct devimg_ctx *ctx = NULL;
	pthread_t *th, ch;
	unsigned nthreads, i;
	void *churned = NULL;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DIR NLIBS THREADS ROUNDS\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	nlibs = (unsigned)strtoul(argv[2], NULL, 10);
	nthreads = (unsigned)strtoul(argv[3], NULL, 10);
	rounds = (unsigned)strtoul(argv[4], NULL, 10);
	if (!nlibs || !nthreads)
		return 2;
	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "FAIL: ctx_new: %s: %s\n", devimg_strerror(err),
			devimg_last_error());
		return 1;
	}
	if (devimg_device_count(ctx) == 0) {
		printf("SKIP [opencl-device]: no device in the context\n");
		devimg_ctx_unref(ctx);
		return 77;
	}
	dev = devimg_device_get(ctx, 0);
	printf("device: %s (%s)\n", devimg_device_name(dev),
	       devimg_device_backend(dev));
	th = calloc(nthreads, sizeof(*th));
	if (!th || pthread_create(&ch, NULL, churn, NULL))
		return 1;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)i))
			return 1;
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	atomic_store(&done, true);
	pthread_join(ch, &churned);
	free(th);
	printf("%u launches checked, %u shared_k lookups lost their image (-ESTALE), %u builds, %u libraries opened by the churn thread, %u failures\n",
	       atomic_load(&launches), atomic_load(&stale),
	       devimg_ctx_stat_builds(ctx), (unsigned)(uintptr_t)churned,
	       atomic_load(&failures));
	devimg_ctx_unref(ctx);
	return atomic_load(&failures) ? 1 : 0;
}
