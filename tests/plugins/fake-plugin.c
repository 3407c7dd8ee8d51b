// SPDX-License-Identifier: MIT
/*
 * A plugin that the loader must skip, in the way DEVIMG_TEST_FAKE says:
 *   fail (or unset)  init fails with -ENODEV and a message
 *   abi              init claims ABI version 99
 *   partial          init succeeds with operations missing
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "devimg_plugin.h"

static const char *fake_last_error(void)
{
	return "fake vendor library reports no devices";
}

static void fake_fini(void)
{
}

DEVIMG_PLUGIN_EXPORT int devimg_plugin_init(unsigned abi_version,
					    struct devimg_plugin_ops *ops)
{
	const char *mode = getenv("DEVIMG_TEST_FAKE");

	if (abi_version != DEVIMG_PLUGIN_ABI_VERSION)
		return -EPROTO;
	ops->backend = "fake";
	ops->last_error = fake_last_error;
	ops->fini = fake_fini;
	if (mode && !strcmp(mode, "abi")) {
		ops->abi_version = 99;
		return 0;
	}
	if (mode && !strcmp(mode, "partial"))
		return 0;
	return -ENODEV;
}
