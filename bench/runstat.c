// SPDX-License-Identifier: MIT
/*
 * runstat: run one command, then report its wall time and peak resident set
 * size, so that benchmarks need neither GNU time nor bash's `time`.
 *
 *   runstat [-o FILE] [--] COMMAND [ARG]...
 *
 * Writes one line, to FILE (truncated) or else to standard error:
 *
 *   wall_s=0.012345 maxrss_kib=1234 status=0
 *
 * The rusage is the one wait4() returns for the child: its peak RSS is the
 * largest of the child and every descendant it waited for, so a driver that
 * runs its tools as subprocesses is measured as a whole.
 *
 * Exit status: the command's, 128 + N when signal N ended it, 126 when it
 * could not be run, 125 when runstat itself failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#define RUNSTAT_FAIL 125
#define RUNSTAT_NOEXEC 126

static double elapsed_s(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static int usage(void)
{
	fprintf(stderr, "usage: runstat [-o FILE] [--] COMMAND [ARG]...\n");
	return RUNSTAT_FAIL;
}

static int report(const char *path, double wall, long maxrss, int status)
{
	FILE *f = stderr;

	if (path) {
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "runstat: %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	fprintf(f, "wall_s=%.6f maxrss_kib=%ld status=%d\n", wall, maxrss,
		status);
	if (path && fclose(f) != 0) {
		fprintf(stderr, "runstat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	const char *out = NULL;
	int status, code, opt;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+o:")) != -1) {
		if (opt != 'o')
			return usage();
		out = optarg;
	}
	if (optind >= argc)
		return usage();

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "runstat: fork: %s\n", strerror(errno));
		return RUNSTAT_FAIL;
	}
	if (pid == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "runstat: %s: %s\n", argv[optind],
			strerror(errno));
		_exit(RUNSTAT_NOEXEC);
	}

	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "runstat: wait4: %s\n", strerror(errno));
			return RUNSTAT_FAIL;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	if (WIFEXITED(status))
		code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		code = 128 + WTERMSIG(status);
	else
		code = RUNSTAT_FAIL;

	if (report(out, elapsed_s(&t0, &t1), ru.ru_maxrss, code) < 0)
		return RUNSTAT_FAIL;
	return code;
}
