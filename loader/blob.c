// SPDX-License-Identifier: MIT
/*
 * OffloadBinary blobs handed to __sycl_register_lib(): not read by this
 * build yet.
 */
#include <errno.h>

#include "libdevimg-internal.h"

bool shadow_is_blob(const void *arg)
{
	(void)arg;
	return false;
}

int shadow_blob(const void *arg, struct shadow **out, struct devimg_msg *msg)
{
	(void)arg;
	(void)out;
	(void)msg;
	return -ENOTSUP;
}

void shadow_blob_free(struct shadow *sh)
{
	(void)sh;
}
