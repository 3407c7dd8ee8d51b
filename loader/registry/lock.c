// SPDX-License-Identifier: MIT
/*
 * The registry's lock: one rwlock, usable zero-initialized (registration
 * may come before any constructor of this library ran). Writers change
 * what is registered (registry.c); readers look images up or read the
 * descriptor memory of a registered image (introspect.c, decompress.c).
 */
#include <pthread.h>

#include "loader/registry/registry.h"

/*
 * Prefer writers where glibc allows it: eight threads looking kernels up
 * must not starve a dlclose(). No reader ever takes the lock twice.
 */
#ifdef PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
#define REGISTRY_LOCK_INIT PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
#else
#define REGISTRY_LOCK_INIT PTHREAD_RWLOCK_INITIALIZER
#endif

static pthread_rwlock_t lock = REGISTRY_LOCK_INIT;

void registry_read_lock(void)
{
	pthread_rwlock_rdlock(&lock);
}

void registry_write_lock(void)
{
	pthread_rwlock_wrlock(&lock);
}

void registry_unlock(void)
{
	pthread_rwlock_unlock(&lock);
}

void registry_read_unlock(void)
{
	pthread_rwlock_unlock(&lock);
}
