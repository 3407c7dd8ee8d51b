// SPDX-License-Identifier: MIT
/*
 * The registry benchmark's program, linked with the generated wrapped
 * objects (or none, for the baseline) and with
 * -Wl,--wrap=__sycl_register_lib, so that every registration the wrapped
 * objects' constructors make goes through timed_register() below: the
 * time measured is exactly that of the __sycl_register_lib() calls,
 * clock_gettime(CLOCK_MONOTONIC) around each.
 *
 *   registry-main NIMAGES NKERNELS   report registration and lookups
 *   registry-main --start            return at once (start-up timing)
 *
 * Registration only queues descriptors; the first read of the registry
 * validates, copies and indexes their names. That first read is timed
 * too, and reported beside registration, so the deferred work is seen.
 *
 * Kernel names are generated the same way by bench/registry.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <devimg/devimg.h>

#define BATCHES 2001
#define PER_BATCH 1000
#define MAX_DESCS 1024

void __real___sycl_register_lib(struct devimg_device_binaries *desc);
void __wrap___sycl_register_lib(struct devimg_device_binaries *desc);

static struct {
	unsigned calls;
	double total_ns;
	double first_ns;
	double last_ns;
	long faults;
	struct devimg_device_binaries *descs[MAX_DESCS];
} reg;

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void __wrap___sycl_register_lib(struct devimg_device_binaries *desc)
{
	long f0 = minor_faults();
	double t0 = now_ns(), t1;

	__real___sycl_register_lib(desc);
	t1 = now_ns();
	reg.faults += minor_faults() - f0;
	if (reg.calls < MAX_DESCS)
		reg.descs[reg.calls] = desc;
	if (!reg.calls++)
		reg.first_ns = t0;
	reg.last_ns = t1;
	reg.total_ns += t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static char **make_names(unsigned nimages, unsigned nkernels)
{
	char **names = calloc((size_t)nimages * nkernels, sizeof(*names));
	char buf[128];
	unsigned i, k;

	if (!names)
		return NULL;
	for (i = 0; i < nimages; i++) {
		for (k = 0; k < nkernels; k++) {
			snprintf(buf, sizeof(buf),
				 "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%u_%u",
				 i, k);
			names[(size_t)i * nkernels + k] = strdup(buf);
			if (!names[(size_t)i * nkernels + k])
				return NULL;
		}
	}
	return names;
}

/* One batch of lookups of random names; the ns per lookup. */
static double lookup_batch(char **names, size_t n, unsigned *seed)
{
	struct devimg_image *imgs[4];
	const char *picked[PER_BATCH];
	size_t found, i, j;
	double t0, t1;

	for (i = 0; i < PER_BATCH; i++)
		picked[i] = names[(size_t)rand_r(seed) % n];
	t0 = now_ns();
	for (i = 0; i < PER_BATCH; i++) {
		if (devimg_registry_find_kernel(picked[i], imgs, 4, &found) ||
		    found != 1) {
			fprintf(stderr, "lookup of %s failed\n", picked[i]);
			exit(1);
		}
		for (j = 0; j < found; j++)
			devimg_image_unref(imgs[j]);
	}
	t1 = now_ns();
	return (t1 - t0) / PER_BATCH;
}

/* The first read of the registry: it indexes what was queued. */
static double first_read_us(long *faults)
{
	long f0 = minor_faults();
	double t0 = now_ns(), t1;

	if (devimg_registry_status() != 0) {
		fprintf(stderr, "registration failed\n");
		exit(1);
	}
	t1 = now_ns();
	*faults = minor_faults() - f0;
	return (t1 - t0) / 1e3;
}

/*
 * Unregister and register everything again, then read: the cost without
 * first touches of memory.
 */
static double reregister_us(double *read_us)
{
	unsigned i, n = reg.calls < MAX_DESCS ? reg.calls : MAX_DESCS;
	double t0, total = 0;
	long faults;

	for (i = 0; i < n; i++)
		__sycl_unregister_lib(reg.descs[i]);
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		__real___sycl_register_lib(reg.descs[i]);
		total += now_ns() - t0;
	}
	*read_us = first_read_us(&faults);
	return total / 1e3;
}

int main(int argc, char **argv)
{
	static double per_lookup[BATCHES];
	unsigned nimages, nkernels, seed = 1;
	double rereg, reread, read;
	long read_faults;
	size_t n, nimgs;
	char **names;
	int b;

	if (argc == 2 && strcmp(argv[1], "--start") == 0)
		return 0;
	if (argc != 3)
		return 2;
	nimages = (unsigned)strtoul(argv[1], NULL, 10);
	nkernels = (unsigned)strtoul(argv[2], NULL, 10);
	n = (size_t)nimages * nkernels;
	read = first_read_us(&read_faults);
	if (devimg_registry_images(NULL, 0, &nimgs) != 0 || nimgs != nimages) {
		fprintf(stderr, "expected %u registered images\n", nimages);
		return 1;
	}
	names = make_names(nimages, nkernels);
	if (!names)
		return 1;
	for (b = 0; b < BATCHES; b++)
		per_lookup[b] = lookup_batch(names, n, &seed);
	rereg = reregister_us(&reread);
	qsort(per_lookup, BATCHES, sizeof(per_lookup[0]), cmp_double);
	printf("registration: %u calls, %u images, %zu kernel names: %.1f us in __sycl_register_lib (first call to last return: %.1f us; %ld page faults)\n",
	       reg.calls, nimages, n, reg.total_ns / 1e3,
	       (reg.last_ns - reg.first_ns) / 1e3, reg.faults);
	printf("first registry read (validates, copies and indexes the names): %.1f us (%ld page faults); registration + first read: %.1f us\n",
	       read, read_faults, reg.total_ns / 1e3 + read);
	printf("again after unregistering all (memory reused): registration %.1f us, first read %.1f us\n",
	       rereg, reread);
	printf("lookup (devimg_registry_find_kernel + unref, %d x %d random names): median %.1f ns, min %.1f ns, max %.1f ns per lookup\n",
	       BATCHES, PER_BATCH, per_lookup[BATCHES / 2], per_lookup[0],
	       per_lookup[BATCHES - 1]);
	while (n--)
		free(names[n]);
	free(names);
	return 0;
}
