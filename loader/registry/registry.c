// SPDX-License-Identifier: MIT
/*
 * The process-wide registry: the registered descriptors with their image
 * records (in registration order) and the kernel-name map over the records'
 * entries. The only global state of the library besides the log settings;
 * guarded by one rwlock and usable zero-initialized, so registration works
 * before any constructor of this library ran.
 *
 * Registration only queues a descriptor. The first reader after it
 * settles the queue under the write lock: it builds the image records
 * (copying the names they own), assigns ids in registration order and
 * indexes the names. Unregistration unlinks records (or drops a queued
 * descriptor, which costs nothing). Readers take references under the
 * lock, so a caller never holds a record that may be freed; a record
 * outlives its unregistration as long as references remain, keeping its
 * copied strings.
 *
 * The name index maps each distinct kernel name to the chain of images
 * defining it, one node per (name, image) pair, in link order, which is id
 * order: a lookup walks exactly its results, already sorted and without
 * duplicates. A name listed again by the same image adds no node. The
 * nodes live in an array per descriptor, one per entry, so linking and
 * unlinking an entry costs O(1) however many images share its name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/escape.h"
#include "loader/registry/device-globals.h"
#include "loader/registry/registry.h"
#include "util/errmsg.h"

#define MAX_PROBLEMS 16

/* Entry j of an image in the name index. */
struct name_ref {
	struct hash_node node;
	struct devimg_image *img;	/* NULL: the image listed the name before */
};

struct reg_desc {
	const void *key;		/* what unregistration is given */
	const struct devimg_device_binaries *desc;
	struct shadow *shadow;		/* owned; desc is its own, or NULL */
	struct devimg_image **imgs;	/* NULL until settled */
	struct name_ref *refs;		/* per entry of imgs[0], imgs[1]... */
	size_t n;
	bool settled;
};

static struct name_ref *ref_of(const struct hash_node *node)
{
	return (struct name_ref *)((char *)node -
				   offsetof(struct name_ref, node));
}

struct registry {
	struct hash kernels;
	struct reg_desc *descs;
	size_t ndescs;
	size_t cap;
	size_t nimages;
	uint64_t last_id;
	atomic_size_t queued;		/* descriptors not settled yet */
	struct errmsg problems[MAX_PROBLEMS];
	unsigned nproblems;
};

static struct registry registry = {
	.kernels = HASH_INIT,
};

/* Newest first: libraries are mostly unloaded in reverse order. */
static struct reg_desc *find_desc(const void *key)
{
	size_t i;

	for (i = registry.ndescs; i-- > 0;) {
		if (registry.descs[i].key == key)
			return &registry.descs[i];
	}
	return NULL;
}

static void drop_desc(struct reg_desc *rd)
{
	memmove(rd, rd + 1,
		(size_t)(registry.descs + registry.ndescs - (rd + 1)) *
			sizeof(*rd));
	registry.ndescs--;
}

/* Keep a problem; the lock is held. */
static void add_problem_locked(const struct errmsg *msg)
{
	if (registry.nproblems < MAX_PROBLEMS)
		registry.problems[registry.nproblems] = *msg;
	if (registry.nproblems < UINT32_MAX)
		registry.nproblems++;
}

/*
 * Index img's entries with the nodes refs[0..nentries). The image linked
 * last is at the end of every chain it joined, so a name the image listed
 * already is seen at once in the chain's last node.
 */
static void link_image(struct devimg_image *img, struct name_ref *refs)
{
	size_t j;

	img->id = ++registry.last_id;
	for (j = 0; j < img->nentries; j++) {
		const struct image_entry *e = &img->entries[j];
		struct hash_node *first;
		size_t pos;

		first = hash_find_pos(&registry.kernels, e->name, e->hash,
				      &pos);
		if (first && ref_of(first->prev)->img == img) {
			refs[j].img = NULL;
			continue;
		}
		refs[j].img = img;
		hash_insert_at(&registry.kernels, pos, &refs[j].node, e->name,
			       e->hash);
	}
	atomic_store(&img->registered, true);
	registry.nimages++;
}

static void unlink_image(struct devimg_image *img, struct name_ref *refs)
{
	size_t j;

	for (j = 0; j < img->nentries; j++) {
		if (refs[j].img)
			hash_remove(&registry.kernels, &refs[j].node,
				    img->entries[j].hash);
	}
	atomic_store(&img->registered, false);
	globals_image_gone(img);
	image_unz_release(img);
	registry.nimages--;
}

int registry_add(const void *key, const struct devimg_device_binaries *desc,
		 struct shadow *sh)
{
	int r = 0;

	registry_write_lock();
	if (find_desc(key)) {
		r = -EEXIST;
		goto out;
	}
	if (registry.ndescs == registry.cap) {
		size_t cap = registry.cap ? registry.cap * 2 : 16;
		struct reg_desc *descs;

		descs = realloc(registry.descs, cap * sizeof(*descs));
		if (!descs) {
			r = -ENOMEM;
			goto out;
		}
		registry.descs = descs;
		registry.cap = cap;
	}
	registry.descs[registry.ndescs++] = (struct reg_desc){
		.key = key,
		.desc = desc,
		.shadow = sh,
	};
	atomic_fetch_add_explicit(&registry.queued, 1, memory_order_release);
out:
	registry_unlock();
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

/* Names the queued descriptors declare: a size hint for the map. */
static size_t queued_names(void)
{
	size_t d, total = 0;
	unsigned i;

	for (d = 0; d < registry.ndescs; d++) {
		const struct devimg_device_binaries *desc =
			registry.descs[d].desc;

		if (registry.descs[d].settled)
			continue;
		for (i = 0; i < desc->count; i++) {
			const struct devimg_device_image *di = &desc->images[i];

			if (di->entries_begin)
				total += (size_t)(di->entries_end -
						  di->entries_begin);
		}
	}
	return total;
}

static size_t count_entries(struct devimg_image **imgs, size_t n)
{
	size_t i, total = 0;

	for (i = 0; i < n; i++)
		total += imgs[i]->nentries;
	return total;
}

/*
 * Rejections found while settling: kept, and logged after the lock as
 * "rejected: ..." (a descriptor) or "rejected image: ..." (one image of
 * a blob, whose others register).
 */
#define SETTLE_LOG_MAX 4

struct settle_log {
	struct errmsg msg[SETTLE_LOG_MAX];
	bool image[SETTLE_LOG_MAX];
	unsigned n;
};

static void settle_keep(struct settle_log *lg, const struct errmsg *msg,
			bool image)
{
	add_problem_locked(msg);
	if (lg->n < SETTLE_LOG_MAX) {
		lg->image[lg->n] = image;
		lg->msg[lg->n++] = *msg;
	}
}

static void settle_reject_image(const struct errmsg *msg, void *arg)
{
	settle_keep(arg, msg, true);
}

/*
 * Settle the queued descriptor rd: its records, ids and names, or its
 * rejection (then false: rd was dropped from the array). A blob's names
 * are read from it now (blob.c), the images whose names cannot be read
 * rejected alone.
 */
static bool settle_one(struct reg_desc *rd, struct settle_log *lg)
{
	struct devimg_image **imgs;
	struct name_ref *refs = NULL;
	struct errmsg msg;
	size_t i, n, total = 0;
	int r = 0;

	if (rd->shadow && rd->shadow->names_pending)
		r = shadow_blob_names(rd->shadow, rd->key, settle_reject_image, lg,
				      &msg);
	n = rd->desc->count;
	if (r == 0)
		r = descriptor_build(rd->desc, rd->key, &imgs, &msg);
	if (r == 0) {
		total = count_entries(imgs, n);
		r = hash_reserve(&registry.kernels,
				 registry.kernels.count + total);
		if (r == 0 && total) {
			size_t bytes;

			/* Not cleared: link_image() writes what is read. */
			if (size_mul(total, sizeof(*refs), &bytes) ||
			    !(refs = malloc(bytes)))
				r = -ENOMEM;
		}
		if (r < 0) {
			for (i = 0; i < n; i++)
				devimg_image_unref(imgs[i]);
			free(imgs);
			errmsg_esc(&msg, r,
				   "descriptor %p: out of memory for its names",
				   rd->key);
		}
	}
	if (r < 0) {
		settle_keep(lg, &msg, false);
		shadow_free(rd->shadow);
		drop_desc(rd);
		return false;
	}
	rd->imgs = imgs;
	rd->refs = refs;
	rd->n = n;
	rd->settled = true;
	for (i = 0; i < n; i++) {
		imgs[i]->shadow = rd->shadow;
		link_image(imgs[i], refs);
		if (refs)	/* NULL when no image has entries */
			refs += imgs[i]->nentries;
	}
	return true;
}

void registry_settle(void)
{
	struct settle_log lg = { .n = 0 };
	unsigned i;
	size_t d;

	if (!atomic_load_explicit(&registry.queued, memory_order_acquire))
		return;
	registry_write_lock();
	if (!atomic_load_explicit(&registry.queued, memory_order_relaxed))
		goto out;
	/* One growth of the map for all of them; settle_one() checks. */
	(void)hash_reserve(&registry.kernels,
			   registry.kernels.count + queued_names());
	for (d = 0; d < registry.ndescs;) {
		if (registry.descs[d].settled ||
		    settle_one(&registry.descs[d], &lg))
			d++;
	}
	atomic_store_explicit(&registry.queued, 0, memory_order_release);
	release_if_empty();
out:
	registry_unlock();
	for (i = 0; i < lg.n; i++)
		log_err("rejected%s: %s", lg.image[i] ? " image" : "",
			lg.msg[i].msg);
}

int registry_remove(const void *key)
{
	struct reg_desc removed;
	struct name_ref *refs;
	struct reg_desc *rd;
	size_t i;

	registry_write_lock();
	rd = find_desc(key);
	if (!rd) {
		registry_unlock();
		return -ENOENT;
	}
	removed = *rd;
	if (!removed.settled)
		atomic_fetch_sub_explicit(&registry.queued, 1,
					  memory_order_relaxed);
	refs = removed.refs;
	for (i = 0; i < removed.n; i++) {
		unlink_image(removed.imgs[i], refs);
		if (refs)	/* NULL when no image has entries */
			refs += removed.imgs[i]->nentries;
	}
	drop_desc(rd);
	release_if_empty();
	registry_unlock();

	for (i = 0; i < removed.n; i++)
		devimg_image_unref(removed.imgs[i]);
	free(removed.imgs);
	free(removed.refs);
	shadow_free(removed.shadow);
	return 0;
}

uint64_t registry_newest_id(void)
{
	uint64_t id;

	registry_read_lock();
	id = registry.last_id;
	registry_unlock();
	return id;
}

void registry_add_problem(const struct errmsg *msg)
{
	registry_write_lock();
	add_problem_locked(msg);
	registry_unlock();
}

DEVIMG_EXPORT int devimg_registry_status(void)
{
	int r = 0;

	registry_settle();
	registry_read_lock();
	if (registry.nproblems)
		r = registry.problems[0].code;
	registry_unlock();
	return r;
}

DEVIMG_EXPORT unsigned devimg_registry_problem_count(void)
{
	unsigned n;

	registry_settle();
	registry_read_lock();
	n = registry.nproblems;
	registry_unlock();
	return n;
}

DEVIMG_EXPORT int devimg_registry_problem(unsigned i, int *err, char *buf,
					  size_t size)
{
	int r = -ENOENT;

	registry_settle();
	registry_read_lock();
	if (i < registry.nproblems && i < MAX_PROBLEMS) {
		const struct errmsg *m = &registry.problems[i];

		if (err)
			*err = m->code;
		if (buf && size) {
			/* Cut between two escapes, never inside one. */
			size_t n = esc_cut(m->msg, size - 1);

			memcpy(buf, m->msg, n);
			buf[n] = '\0';
		}
		r = 0;
	}
	registry_unlock();
	if (r < 0)
		return fail_dbg(r, "registry problem %u: out of range", i);
	return r;
}

DEVIMG_EXPORT int devimg_registry_images(struct devimg_image **imgs,
					 size_t max, size_t *n)
{
	size_t d, i, k = 0;

	if (!n || (max && !imgs))
		return fail_null("devimg_registry_images");
	registry_settle();
	registry_read_lock();
	for (d = 0; d < registry.ndescs; d++) {
		const struct reg_desc *rd = &registry.descs[d];

		for (i = 0; i < rd->n; i++, k++) {
			if (k < max)
				imgs[k] = devimg_image_ref(rd->imgs[i]);
		}
	}
	registry_unlock();
	*n = k;
	return 0;
}

/*
 * The chain of name holds the distinct images defining it in id order
 * (registration order): the answer as it stands.
 */
DEVIMG_EXPORT int devimg_registry_find_kernel(const char *name,
					      struct devimg_image **imgs,
					      size_t max, size_t *n)
{
	const struct hash_node *node;
	uint32_t hash;
	size_t k = 0;

	if (!name || !n || (max && !imgs))
		return fail_null("devimg_registry_find_kernel");
	hash = hash_string(name);
	registry_settle();
	registry_read_lock();
	for (node = hash_find(&registry.kernels, name, hash); node;
	     node = node->next, k++) {
		if (k < max)
			imgs[k] = devimg_image_ref(ref_of(node)->img);
	}
	registry_unlock();
	*n = k;
	if (!k)
		return fail_dbg(-ENOENT, "no image defines kernel '%s'", name);
	return 0;
}

int images_collect(const char *name, struct devimg_image ***imgs, size_t *n)
{
	struct devimg_image **v = NULL;
	size_t got = 0, want;
	int err;

	for (;;) {
		err = name ? devimg_registry_find_kernel(name, v, got, &want) :
			     devimg_registry_images(v, got, &want);
		if (err < 0) {
			free(v);
			return err;
		}
		if (want <= got)
			break;
		while (got--)
			devimg_image_unref(v[got]);
		free(v);
		v = calloc(want, sizeof(*v));
		if (!v)
			return -ENOMEM;
		got = want;
	}
	/*
	 * All unregistered since the array was sized: no snapshot, nothing
	 * to free (callers that find n == 0 return at once).
	 */
	if (want == 0) {
		free(v);
		v = NULL;
	}
	*imgs = v;
	*n = want;
	return 0;
}

void images_drop(struct devimg_image **imgs, size_t n)
{
	while (n)
		devimg_image_unref(imgs[--n]);
	free(imgs);
}
