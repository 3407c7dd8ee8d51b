// SPDX-License-Identifier: MIT
/*
 * Opening and reading the tools' input files: never blocking (a FIFO or a
 * device given by mistake is refused, not waited on), only regular files
 * whose size is their length (not those of /proc or /sys), and never more
 * bytes than a named limit (devimg_limits.h), checked before reading.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/devimg_limits.h"
#include "util/errmsg.h"
#include "util/input.h"

static const char *kind_of(mode_t mode)
{
	if (S_ISCHR(mode))
		return "character device";
	if (S_ISBLK(mode))
		return "block device";
	if (S_ISFIFO(mode))
		return "FIFO";
	if (S_ISSOCK(mode))
		return "socket";
	if (S_ISLNK(mode))
		return "symbolic link";
	return "unknown kind";
}

/*
 * File systems whose files are generated when read: their size says
 * nothing of their length (0 in /proc, 4096 in /sys), so they are no
 * input, however regular they look.
 */
static const char *generated_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return NULL;
	switch ((unsigned long)sf.f_type) {
	case PROC_SUPER_MAGIC:
		return "proc file system";
	case SYSFS_MAGIC:
		return "sysfs";
	case DEBUGFS_MAGIC:
		return "debugfs";
	case TRACEFS_MAGIC:
		return "tracefs";
	case SECURITYFS_MAGIC:
		return "securityfs";
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
		return "cgroup file system";
	case EFIVARFS_MAGIC:
		return "efivarfs";
	case PSTOREFS_MAGIC:
		return "pstore";
	case BPF_FS_MAGIC:
		return "bpf file system";
	default:
		return NULL;
	}
}

/* 1 when a file of size 0 yields bytes all the same; 0 when not. */
static int has_hidden_bytes(int fd)
{
	char c;
	ssize_t n;

	do
		n = pread(fd, &c, 1, 0);
	while (n < 0 && errno == EINTR);
	return n > 0;
}

int input_open(const char *path, uint64_t limit, uint64_t *size,
	       struct errmsg *err)
{
	const char *fs;
	struct stat st;
	int fd, flags, r;

	/* O_NONBLOCK: opening a FIFO without a writer must not block. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		/* A socket (ENXIO) or a device without a driver (ENODEV). */
		if ((r == -ENXIO || r == -ENODEV) && stat(path, &st) == 0 &&
		    !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
			errmsg_set(err, "%s: cannot read: not a regular file (%s)",
				   path, kind_of(st.st_mode));
		else
			errmsg_set(err, "%s: cannot open: %s", path,
				   strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		errmsg_set(err, "%s: cannot read: %s", path, strerror(-r));
		goto err_close;
	}
	if (S_ISDIR(st.st_mode)) {
		r = -EISDIR;
		errmsg_set(err, "%s: cannot read: %s", path, strerror(EISDIR));
		goto err_close;
	}
	if (!S_ISREG(st.st_mode)) {
		r = -EINVAL;
		errmsg_set(err, "%s: cannot read: not a regular file (%s)",
			   path, kind_of(st.st_mode));
		goto err_close;
	}
	fs = generated_fs(fd);
	if (!fs && st.st_size == 0 && has_hidden_bytes(fd))
		fs = "0 bytes in size but not empty";
	if (fs) {
		r = -EINVAL;
		errmsg_set(err, "%s: cannot read: not a regular file (%s)",
			   path, fs);
		goto err_close;
	}
	if ((uint64_t)st.st_size > limit) {
		r = -EFBIG;
		errmsg_set(err, "%s: cannot read: too large (%" PRIu64
			   " bytes, at most %" PRIu64 ")",
			   path, (uint64_t)st.st_size, limit);
		goto err_close;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		r = -errno;
		errmsg_set(err, "%s: cannot read: %s", path, strerror(-r));
		goto err_close;
	}
	*size = (uint64_t)st.st_size;
	return fd;

err_close:
	close(fd);
	return r;
}

/* Read up to n bytes at off; fewer only at the end of the file. */
static ssize_t read_full(int fd, char *buf, size_t n, off_t off)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = pread(fd, buf + got, n - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int input_read(const char *path, uint64_t limit, char **buf,
	       size_t *len, struct errmsg *err)
{
	uint64_t size;
	ssize_t n, more;
	char *data, extra;
	int fd, r;

	fd = input_open(path, limit, &size, err);
	if (fd < 0)
		return fd;
	if (size > SIZE_MAX - 1) {
		r = -EFBIG;
		errmsg_set(err, "%s: cannot read: %s", path, strerror(EFBIG));
		goto out;
	}
	data = malloc((size_t)size + 1);
	if (!data) {
		r = -ENOMEM;
		errmsg_set(err, "%s: cannot read: %s", path, strerror(ENOMEM));
		goto out;
	}
	/* The size checked is the bound: a file that grew is refused. */
	n = read_full(fd, data, (size_t)size, 0);
	more = n < 0 ? 0 : read_full(fd, &extra, 1, (off_t)n);
	if (n < 0 || more < 0) {
		r = -errno;
		errmsg_set(err, "%s: cannot read: %s", path, strerror(-r));
		free(data);
		goto out;
	}
	if (more) {
		r = -EFBIG;
		errmsg_set(err, "%s: cannot read: grew while being read (beyond %" PRIu64 " bytes)",
			   path, size);
		free(data);
		goto out;
	}
	data[n] = '\0';
	*buf = data;
	*len = (size_t)n;
	r = 0;
out:
	close(fd);
	return r;
}

int input_slurp(const char *path, char **buf, size_t *len,
		struct errmsg *err)
{
	return input_read(path, DEVIMG_LIMIT_TEXT_FILE, buf, len, err);
}
