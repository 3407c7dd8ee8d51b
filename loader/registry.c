// SPDX-License-Identifier: MIT
/*
 * The process-wide registry: the registered descriptors with their image
 * records (in registration order) and the kernel-name map over the records'
 * entries. The only global state of the library besides the log settings;
 * guarded by one rwlock and usable zero-initialized, so registration works
 * before any constructor of this library ran.
 *
 * Writers (registration, unregistration) hold the lock only to link and
 * unlink records built outside it. Readers take references under it, so a
 * caller never holds a record that may be freed; a record outlives its
 * unregistration as long as references remain, keeping its copied strings.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "libdevimg-internal.h"

#define MAX_PROBLEMS 16
#define LOOKUP_LOCAL 16

struct reg_desc {
	const struct devimg_device_binaries *desc;
	struct devimg_image **imgs;
	size_t n;
};

struct registry {
	pthread_rwlock_t lock;
	struct hash kernels;
	struct reg_desc *descs;
	size_t ndescs;
	size_t cap;
	size_t nimages;
	uint64_t last_id;
	struct devimg_msg problems[MAX_PROBLEMS];
	unsigned nproblems;
};

/*
 * Prefer writers where glibc allows it: eight threads looking kernels up
 * must not starve a dlclose(). No reader ever takes the lock twice.
 */
#ifdef PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
#define REGISTRY_LOCK_INIT PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
#else
#define REGISTRY_LOCK_INIT PTHREAD_RWLOCK_INITIALIZER
#endif

static struct registry registry = {
	.lock = REGISTRY_LOCK_INIT,
	.kernels = HASH_INIT,
};

void registry_read_lock(void)
{
	pthread_rwlock_rdlock(&registry.lock);
}

void registry_read_unlock(void)
{
	pthread_rwlock_unlock(&registry.lock);
}

static struct reg_desc *find_desc(const struct devimg_device_binaries *desc)
{
	size_t i;

	for (i = 0; i < registry.ndescs; i++) {
		if (registry.descs[i].desc == desc)
			return &registry.descs[i];
	}
	return NULL;
}

static size_t count_entries(struct devimg_image **imgs, size_t n)
{
	size_t i, total = 0;

	for (i = 0; i < n; i++)
		total += imgs[i]->nentries;
	return total;
}

/* Room for one more descriptor and its names, so linking cannot fail. */
static int make_room(struct devimg_image **imgs, size_t n)
{
	int r;

	if (registry.ndescs == registry.cap) {
		size_t cap = registry.cap ? registry.cap * 2 : 16;
		struct reg_desc *descs;

		descs = realloc(registry.descs, cap * sizeof(*descs));
		if (!descs)
			return -ENOMEM;
		registry.descs = descs;
		registry.cap = cap;
	}
	r = hash_reserve(&registry.kernels,
			 registry.kernels.count + count_entries(imgs, n));
	return r;
}

static void link_image(struct devimg_image *img)
{
	size_t j;

	img->id = ++registry.last_id;
	for (j = 0; j < img->nentries; j++)
		hash_insert(&registry.kernels, img->entries[j].name,
			    img->entries[j].hash, img);
	atomic_store(&img->registered, true);
	registry.nimages++;
}

static void unlink_image(struct devimg_image *img)
{
	size_t j;

	for (j = 0; j < img->nentries; j++)
		hash_remove(&registry.kernels, img->entries[j].name,
			    img->entries[j].hash);
	atomic_store(&img->registered, false);
	registry.nimages--;
}

int registry_add(const struct devimg_device_binaries *desc,
		 struct devimg_image **imgs, size_t n)
{
	struct reg_desc *rd;
	size_t i;
	int r;

	pthread_rwlock_wrlock(&registry.lock);
	r = find_desc(desc) ? -EEXIST : make_room(imgs, n);
	if (r < 0)
		goto out;
	rd = &registry.descs[registry.ndescs++];
	rd->desc = desc;
	rd->imgs = imgs;
	rd->n = n;
	for (i = 0; i < n; i++)
		link_image(imgs[i]);
out:
	pthread_rwlock_unlock(&registry.lock);
	return r;
}

/* Free what an empty registry still holds, so nothing looks leaked. */
static void release_if_empty(void)
{
	if (registry.ndescs)
		return;
	hash_fini(&registry.kernels);
	free(registry.descs);
	registry.descs = NULL;
	registry.cap = 0;
}

int registry_remove(const struct devimg_device_binaries *desc)
{
	struct reg_desc removed;
	struct reg_desc *rd;
	size_t i;

	pthread_rwlock_wrlock(&registry.lock);
	rd = find_desc(desc);
	if (!rd) {
		pthread_rwlock_unlock(&registry.lock);
		return -ENOENT;
	}
	removed = *rd;
	for (i = 0; i < removed.n; i++)
		unlink_image(removed.imgs[i]);
	memmove(rd, rd + 1,
		(size_t)(registry.descs + registry.ndescs - (rd + 1)) *
			sizeof(*rd));
	registry.ndescs--;
	release_if_empty();
	pthread_rwlock_unlock(&registry.lock);

	for (i = 0; i < removed.n; i++)
		devimg_image_unref(removed.imgs[i]);
	free(removed.imgs);
	return 0;
}

void registry_add_problem(const struct devimg_msg *msg)
{
	pthread_rwlock_wrlock(&registry.lock);
	if (registry.nproblems < MAX_PROBLEMS)
		registry.problems[registry.nproblems] = *msg;
	if (registry.nproblems < UINT32_MAX)
		registry.nproblems++;
	pthread_rwlock_unlock(&registry.lock);
}

DEVIMG_EXPORT int devimg_registry_status(void)
{
	int r = 0;

	pthread_rwlock_rdlock(&registry.lock);
	if (registry.nproblems)
		r = registry.problems[0].err;
	pthread_rwlock_unlock(&registry.lock);
	return r;
}

DEVIMG_EXPORT unsigned devimg_registry_problem_count(void)
{
	unsigned n;

	pthread_rwlock_rdlock(&registry.lock);
	n = registry.nproblems;
	pthread_rwlock_unlock(&registry.lock);
	return n;
}

DEVIMG_EXPORT int devimg_registry_problem(unsigned i, int *err, char *buf,
					  size_t size)
{
	int r = -ENOENT;

	pthread_rwlock_rdlock(&registry.lock);
	if (i < registry.nproblems && i < MAX_PROBLEMS) {
		const struct devimg_msg *m = &registry.problems[i];

		if (err)
			*err = m->err;
		if (buf && size) {
			strncpy(buf, m->text, size - 1);
			buf[size - 1] = '\0';
		}
		r = 0;
	}
	pthread_rwlock_unlock(&registry.lock);
	return r;
}

DEVIMG_EXPORT int devimg_registry_images(struct devimg_image **imgs,
					 size_t max, size_t *n)
{
	size_t d, i, k = 0;

	if (!n || (max && !imgs))
		return -EINVAL;
	pthread_rwlock_rdlock(&registry.lock);
	for (d = 0; d < registry.ndescs; d++) {
		const struct reg_desc *rd = &registry.descs[d];

		for (i = 0; i < rd->n; i++, k++) {
			if (k < max)
				imgs[k] = devimg_image_ref(rd->imgs[i]);
		}
	}
	pthread_rwlock_unlock(&registry.lock);
	*n = k;
	return 0;
}

/* Insert img into found[0..n) ordered by id; false when already there. */
static bool insert_by_id(struct devimg_image **found, size_t n,
			 struct devimg_image *img)
{
	size_t i = n;

	while (i > 0 && found[i - 1]->id > img->id)
		i--;
	if (i > 0 && found[i - 1] == img)
		return false;
	memmove(found + i + 1, found + i, (n - i) * sizeof(*found));
	found[i] = img;
	return true;
}

/*
 * The distinct images defining name, by id (registration order); the
 * registry lock is held. *found is local or, past its size, malloc'ed.
 */
static int collect(const char *name, uint32_t hash,
		   struct devimg_image ***found, size_t *cap, size_t *n)
{
	struct devimg_image *img;
	size_t pos;

	*n = 0;
	for (img = hash_find(&registry.kernels, name, hash, &pos); img;
	     img = hash_find_next(&registry.kernels, name, hash, &pos)) {
		if (*n == *cap) {
			struct devimg_image **more;
			size_t cap2 = *cap * 4;

			more = malloc(cap2 * sizeof(*more));
			if (!more)
				return -ENOMEM;
			memcpy(more, *found, *n * sizeof(*more));
			if (*cap > LOOKUP_LOCAL)
				free(*found);
			*found = more;
			*cap = cap2;
		}
		if (insert_by_id(*found, *n, img))
			(*n)++;
	}
	return 0;
}

DEVIMG_EXPORT int devimg_registry_find_kernel(const char *name,
					      struct devimg_image **imgs,
					      size_t max, size_t *n)
{
	struct devimg_image *local[LOOKUP_LOCAL], **found = local;
	size_t cap = LOOKUP_LOCAL, k, i;
	uint32_t hash;
	int r;

	if (!name || !n || (max && !imgs))
		return -EINVAL;
	hash = hash_string(name);
	pthread_rwlock_rdlock(&registry.lock);
	r = collect(name, hash, &found, &cap, &k);
	for (i = 0; r == 0 && i < k && i < max; i++)
		imgs[i] = devimg_image_ref(found[i]);
	pthread_rwlock_unlock(&registry.lock);
	if (found != local)
		free(found);
	if (r < 0)
		return r;
	*n = k;
	return k ? 0 : -ENOENT;
}
