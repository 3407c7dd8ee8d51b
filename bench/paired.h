/* SPDX-License-Identifier: MIT */
/*
 * The launch benchmarks' measurement: four modes (raw and devimg, each
 * "sync" and "batch"), repetitions interleaved with the order alternating,
 * the batch modes' enqueue loops reported as "submit", and the devimg/raw
 * ratio as the median of the paired ratios of each repetition, which
 * cancels the slow drifts of a shared machine, and the nanoseconds devimg
 * adds per launch: the median of the paired differences, per mode.
 * Included by bench/launch-main.c (OpenCL) and bench/launch-cuda.c (CUDA),
 * each with its targets.
 */
#ifndef DEVIMG_BENCH_PAIRED_H
#define DEVIMG_BENCH_PAIRED_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/*
 * What devimg may add on sync and batch: a ratio, and (when above 0)
 * nanoseconds per launch.
 */
struct paired_target {
	double ratio;
	double ns;
};

enum { RAW_SYNC, RAW_BATCH, DEV_SYNC, DEV_BATCH, NMODES };
/* Figures: the modes, then the enqueue loops of the batch modes. */
enum { RAW_SUBMIT = NMODES, DEV_SUBMIT, NFIGS };

/*
 * One timed run of a mode: microseconds per launch, negative on error;
 * for the batch modes, *submit: the enqueue loop alone.
 */
typedef double (*paired_run_fn)(void *bench, int mode, double *submit);

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of n values, sorting them. */
static double paired_median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * Warm up, then reps interleaved repetitions of every mode; print the
 * figures, the paired ratios and the verdict on sync and batch. what
 * heads the lines ("1000 launches of ..."); tag prefixes error messages.
 * 0, or 1 on a failed run or no memory.
 */
static int paired_measure(void *bench, paired_run_fn run, unsigned reps,
			  const char *what, const char *tag,
			  struct paired_target target)
{
	static const char *const fig_name[NFIGS] = {
		"raw    sync  ", "raw    batch ", "devimg sync  ",
		"devimg batch ", "raw    submit", "devimg submit",
	};
	static const int pair[3][2] = {
		{ DEV_SYNC, RAW_SYNC }, { DEV_BATCH, RAW_BATCH },
		{ DEV_SUBMIT, RAW_SUBMIT },
	};
	static const char *const pair_name[3] = { "sync", "batch", "submit" };
	double *t[NFIGS] = { 0 }, *ratio[3] = { 0 }, *added[3] = { 0 };
	double submit = 0, rmed, amed;
	unsigned r, m, p;
	int pass = 1, ret = 1;

	for (m = 0; m < NFIGS; m++)
		if (!(t[m] = calloc(reps, sizeof(double))))
			goto out;
	for (p = 0; p < 3; p++)
		if (!(ratio[p] = calloc(reps, sizeof(double))) ||
		    !(added[p] = calloc(reps, sizeof(double))))
			goto out;
	/* Warm up: program builds, first-launch paths, caches. */
	for (m = 0; m < NMODES; m++) {
		if (run(bench, (int)m, &submit) < 0) {
			fprintf(stderr, "%s: %s failed\n", tag, fig_name[m]);
			goto out;
		}
	}
	for (r = 0; r < reps; r++) {
		for (m = 0; m < NMODES; m++) {
			/* Alternate raw-first and devimg-first. */
			unsigned mm = r & 1 ? (m + 2) % NMODES : m;

			t[mm][r] = run(bench, (int)mm, &submit);
			if (t[mm][r] < 0) {
				fprintf(stderr, "%s: %s failed\n", tag,
					fig_name[mm]);
				goto out;
			}
			if (mm == RAW_BATCH)
				t[RAW_SUBMIT][r] = submit;
			else if (mm == DEV_BATCH)
				t[DEV_SUBMIT][r] = submit;
		}
		for (p = 0; p < 3; p++) {
			ratio[p][r] = t[pair[p][0]][r] / t[pair[p][1]][r];
			added[p][r] = (t[pair[p][0]][r] - t[pair[p][1]][r]) *
				      1e3;
		}
	}
	printf("%s x %u repetitions, interleaved\n", what, reps);
	for (m = 0; m < NFIGS; m++) {
		double med = paired_median(t[m], reps);

		printf("%s  median %8.3f us/launch  (min %.3f, max %.3f)\n",
		       fig_name[m], med, t[m][0], t[m][reps - 1]);
	}
	printf("ratio devimg/raw (median of paired runs):");
	for (p = 0; p < 3; p++) {
		rmed = paired_median(ratio[p], reps);
		printf(" %s %.3fx", pair_name[p], rmed);
		if (p < 2)
			pass &= rmed <= target.ratio;
	}
	printf("\nadded ns/launch devimg-raw (median of paired runs, quartiles):");
	for (p = 0; p < 3; p++) {
		amed = paired_median(added[p], reps);
		printf(" %s %+.0f (%+.0f..%+.0f)", pair_name[p], amed,
		       added[p][reps / 4], added[p][reps - 1 - reps / 4]);
		if (p < 2 && target.ns > 0)
			pass &= amed <= target.ns;
	}
	if (target.ns > 0)
		printf("\ntarget <= %.2fx and <= %+.0f ns on sync and batch %s\n",
		       target.ratio, target.ns, pass ? "PASS" : "MISS");
	else
		printf("\ntarget <= %.2fx on sync and batch %s\n", target.ratio,
		       pass ? "PASS" : "MISS");
	ret = 0;
out:
	for (m = 0; m < NFIGS; m++)
		free(t[m]);
	for (p = 0; p < 3; p++) {
		free(ratio[p]);
		free(added[p]);
	}
	return ret;
}

#endif
