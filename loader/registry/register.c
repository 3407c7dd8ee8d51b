// SPDX-License-Identifier: MIT
/*
 * The registration ABI: __sycl_register_lib() and __sycl_unregister_lib(),
 * called from the constructors and destructors of wrapped objects, possibly
 * before this library's own constructors ran (it has none).
 *
 * Registration is O(images): the descriptor's structure is validated
 * (descriptor.c) and queued in the registry (registry.c), which builds
 * the images when it is first read. Nothing here reads property values,
 * nor image bytes, except to expand a compressed OffloadBinary blob, whose
 * image records live inside its compressed body (blob.c).
 */
#include <errno.h>

#include "loader/registry/registry.h"
#include "util/errmsg.h"

/*
 * desc may also point to an OffloadBinary blob (LLVM's new offload model
 * passes one, with its size or end as a second argument, which is not
 * read: the blob's header gives its size).
 */
DEVIMG_EXPORT void __sycl_register_lib(struct devimg_device_binaries *desc)
{
	const struct devimg_device_binaries *use = desc;
	struct shadow *sh = NULL;
	struct errmsg msg;
	int r;

	if (desc && shadow_is_blob(desc))
		r = shadow_blob(desc, &sh, &msg);
	else
		r = shadow_build(desc, &sh, &msg);
	if (sh)
		use = &sh->desc;
	if (r == 0)
		r = descriptor_validate_as(use, desc, &msg);
	if (r == 0)
		r = registry_add(desc, use, sh);
	if (r < 0)	/* the registry owns it once added */
		shadow_free(sh);
	if (r == -EEXIST) {
		fail_warn(r, "descriptor %p is registered already; ignored",
			  (void *)desc);
		return;
	}
	if (r == -ENOMEM)
		errmsg_esc(&msg, -ENOMEM, "descriptor %p: out of memory",
			   (void *)desc);
	if (r < 0) {
		registry_add_problem(&msg);
		fail_err(r, "rejected: %s", msg.msg);
		return;
	}
	log_info("registered descriptor %p: %u images", (void *)desc,
		 use->count);
}

DEVIMG_EXPORT void __sycl_unregister_lib(struct devimg_device_binaries *desc)
{
	if (registry_remove(desc) < 0) {
		fail_dbg(-ENOENT, "descriptor %p is not registered; nothing to do",
			 (void *)desc);
		return;
	}
	log_info("unregistered descriptor %p", (void *)desc);
}
