// SPDX-License-Identifier: MIT
/*
 * The environment variables the library reads, each read once, at its
 * first use, with secure_getenv() (unset in set-user-ID and set-group-ID
 * programs), and kept: a later setenv() does not change what the library
 * does. man/devimg.3 (ENVIRONMENT) documents them.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "loader/libdevimg-internal.h"

static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	const char *name;
	atomic_bool read;
	char *value;		/* NULL: unset */
} env_vars[DEVIMG_ENV_COUNT] = {
	[DEVIMG_ENV_TRACE] = { .name = "DEVIMG_TRACE" },
	[DEVIMG_ENV_DEVICE_SELECTOR] = { .name = "DEVIMG_DEVICE_SELECTOR" },
	[DEVIMG_ENV_PLUGIN_PATH] = { .name = "DEVIMG_PLUGIN_PATH" },
	[DEVIMG_ENV_PLUGIN_PATH_ONLY] = { .name = "DEVIMG_PLUGIN_PATH_ONLY" },
	[DEVIMG_ENV_DUMP_IMAGES] = { .name = "DEVIMG_DUMP_IMAGES" },
};

const char *devimg_env(enum devimg_env var)
{
	const char *s;

	if (atomic_load_explicit(&env_vars[var].read, memory_order_acquire))
		return env_vars[var].value;
	pthread_mutex_lock(&env_lock);
	if (!atomic_load_explicit(&env_vars[var].read, memory_order_relaxed)) {
		s = secure_getenv(env_vars[var].name);
		/* Out of memory: the environment's own string, not a copy. */
		env_vars[var].value = s ? strdup(s) : NULL;
		if (s && !env_vars[var].value)
			env_vars[var].value = (char *)s;
		atomic_store_explicit(&env_vars[var].read, true,
				      memory_order_release);
	}
	pthread_mutex_unlock(&env_lock);
	return env_vars[var].value;
}
