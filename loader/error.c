// SPDX-License-Identifier: MIT
/* Names of the error codes the library returns; thread-safe, no locale. */
#include <errno.h>

#include "libdevimg-internal.h"

static const struct {
	int err;
	const char *text;
} errors[] = {
	{ 0, "success" },
	{ EINVAL, "invalid argument or malformed input" },
	{ ENOMEM, "out of memory" },
	{ ENOENT, "not found" },
	{ EEXIST, "already registered" },
	{ ESTALE, "image no longer registered (its library was unloaded)" },
	{ ENOEXEC, "no image compatible with the device" },
	{ ERANGE, "value out of range" },
	{ ENODEV, "no such device" },
	{ ENOSYS, "not supported" },
	{ ENOTSUP, "not supported by the device or its backend" },
	{ EPROTO, "plugin interface version mismatch" },
	{ EIO, "input/output error" },
	{ EBUSY, "busy" },
	{ EOVERFLOW, "size overflow" },
	{ EAGAIN, "try again" },
	{ EBADMSG, "compressed image cannot be expanded" },
	{ EFBIG, "compressed image too large once expanded" },
};

DEVIMG_EXPORT const char *devimg_strerror(int err)
{
	size_t i;

	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		if (errors[i].err == -err)
			return errors[i].text;
	}
	return "unknown error";
}
