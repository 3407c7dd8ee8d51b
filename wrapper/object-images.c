// SPDX-License-Identifier: MIT
/*
 * The image bytes: the file's space reserved up front, then each image
 * file copied into the range its section has, with copy_file_range(2), or
 * pread/pwrite where the kernel or file system cannot; an image made in
 * memory (compressed) is written as it is. Memory use never follows the
 * size of the images.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/devimg_limits.h"
#include "wrapper/object-private.h"
#include "util/errmsg.h"
#include "util/input.h"

#define COPY_BUF_SIZE (1u << 20)

static int copy_fallback(int in, loff_t *in_off, int out, loff_t *out_off,
			 uint64_t len)
{
	unsigned char *buf = malloc(COPY_BUF_SIZE);
	int r = 0;

	if (!buf)
		return -ENOMEM;
	while (len) {
		size_t want = len < COPY_BUF_SIZE ? len : COPY_BUF_SIZE;
		ssize_t n = pread(in, buf, want, *in_off);
		ssize_t w;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -ENODATA;
			break;
		}
		w = pwrite(out, buf, n, *out_off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
		*in_off += w;
		*out_off += w;
		len -= w;
	}
	free(buf);
	return r;
}

/* Copy len bytes of in (from 0) to out at dst; -ENODATA if in is shorter. */
static int copy_range(int in, int out, uint64_t dst, uint64_t len)
{
	loff_t in_off = 0, out_off = dst;

	while (len) {
		size_t want = len < (1u << 30) ? len : (1u << 30);
		ssize_t n;

		n = copy_file_range(in, &in_off, out, &out_off, want, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == ENOSYS ||
			      errno == EINVAL || errno == EOPNOTSUPP ||
			      errno == EPERM || errno == ETXTBSY))
			return copy_fallback(in, &in_off, out, &out_off, len);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		len -= n;
	}
	return 0;
}

int obj_write_at(int fd, const void *p, size_t size, uint64_t dst,
		 const char *what, struct errmsg *err, const char *out_name)
{
	const unsigned char *b = p;
	size_t done = 0;

	while (done < size) {
		size_t left = size - done;
		size_t want = left < (1u << 30) ? left : (1u << 30);
		ssize_t n = pwrite(fd, b + done, want, dst + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return obj_set_err(err, "%s: cannot copy into %s: %s",
					   what, out_name,
					   strerror(n < 0 ? errno : EIO));
		done += n;
	}
	return 0;
}

/* Bytes made in memory (a compressed image) go out as they are. */
int obj_copy_image(const struct wrap_image *img, int out, uint64_t dst,
		   struct errmsg *err, const char *out_name)
{
	struct errmsg perr = { 0 };
	uint64_t size;
	int in, r;

	if (img->data)
		return obj_write_at(out, img->data, img->size, dst, img->path,
				    err, out_name);
	in = input_open(img->path, DEVIMG_LIMIT_IMAGE_FILE, &size,
			&perr);
	if (in < 0)
		return obj_set_err(err, "%s", perr.msg);
	if (size != img->size) {
		r = obj_set_err(err, "%s: changed while being wrapped (%llu bytes, %llu expected)",
				img->path, (unsigned long long)size,
				(unsigned long long)img->size);
		goto out;
	}
	r = copy_range(in, out, dst, img->size);
	if (r == -ENODATA)
		r = obj_set_err(err, "%s: became shorter while being wrapped",
				img->path);
	else if (r)
		r = obj_set_err(err, "%s: cannot copy into %s: %s", img->path,
				out_name, strerror(-r));
out:
	close(in);
	return r;
}

/*
 * Allocate the whole file up front: a full disk fails here, before any
 * work, and a file system with delayed allocation (ext4) then has nothing
 * to flush when rename() replaces an existing output, which it otherwise
 * does synchronously.
 */
int obj_reserve_space(int fd, uint64_t size, struct errmsg *err,
		      const char *out_name)
{
	if (fallocate(fd, 0, 0, size) == 0)
		return 0;
	if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINTR)
		return 0;
	return obj_set_err(err, "%s: %s", out_name, strerror(errno));
}

/* Each image into the range of the file that its section was given. */
int obj_copy_images(const struct layout *l, int fd, struct errmsg *err,
		    const char *out_name)
{
	size_t i;

	for (i = 0; i < l->set->nimages; i++) {
		if (obj_copy_image(&l->set->images[i], fd,
				   l->file.secs[SEC_IMAGE0 + i].offset, err,
				   out_name))
			return -1;
	}
	return 0;
}
