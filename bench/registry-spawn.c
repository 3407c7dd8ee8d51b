// SPDX-License-Identifier: MIT
/*
 * Start-up time of programs: run each PROGRAM --start ROUNDS times,
 * round-robin so that all see the same machine state (the order reversed
 * every other round), and print one line per program with the median and
 * the minimum wall time of a whole fork + exec + exit, in microseconds;
 * for every program after the first, also what it adds to the first (the
 * baseline): the median of the paired differences of each round, with
 * its quartiles, which cancels the drifts of a shared machine:
 *
 *   registry-spawn ROUNDS PROGRAM...
 *   PROGRAM median_us=412.3 min_us=380.1 [added_us=12.3 q1_us=8.1 q3_us=16.0]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double run_once(const char *prog)
{
	double t0 = now_us();
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		execl(prog, prog, "--start", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "%s --start failed\n", prog);
		exit(1);
	}
	return now_us() - t0;
}

int main(int argc, char **argv)
{
	int rounds, nprogs = argc - 2, r, p;
	double *t, *d, *base;

	if (argc < 3)
		return 2;
	rounds = atoi(argv[1]);
	if (rounds < 1)
		return 2;
	t = calloc((size_t)rounds * (size_t)nprogs, sizeof(*t));
	d = calloc((size_t)rounds, sizeof(*d));
	base = calloc((size_t)rounds, sizeof(*base));
	if (!t || !d || !base)
		return 1;
	for (r = 0; r < rounds; r++) {
		for (p = 0; p < nprogs; p++) {
			int q = r & 1 ? nprogs - 1 - p : p;

			t[(size_t)q * (size_t)rounds + (size_t)r] =
				run_once(argv[2 + q]);
		}
	}
	/* Sorting reorders a program's runs: pair with a copy. */
	for (r = 0; r < rounds; r++)
		base[r] = t[r];
	for (p = 0; p < nprogs; p++) {
		double *tp = t + (size_t)p * (size_t)rounds;

		printf("%s", argv[2 + p]);
		if (p > 0) {
			for (r = 0; r < rounds; r++)
				d[r] = tp[r] - base[r];
			qsort(d, (size_t)rounds, sizeof(*d), cmp_double);
		}
		qsort(tp, (size_t)rounds, sizeof(*tp), cmp_double);
		printf(" median_us=%.1f min_us=%.1f", tp[rounds / 2], tp[0]);
		if (p > 0)
			printf(" added_us=%.1f q1_us=%.1f q3_us=%.1f",
			       d[rounds / 2], d[rounds / 4],
			       d[rounds - 1 - rounds / 4]);
		printf("\n");
	}
	free(base);
	free(d);
	free(t);
	return 0;
}
