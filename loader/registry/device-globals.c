// SPDX-License-Identifier: MIT
/*
 * Device globals of the registered images (sycl_ext_oneapi_device_global):
 * reading images for their globals, devimg_global_find() and the
 * host-address ties of devimg_global_bind_host(). The records themselves
 * are device-global-records.c's.
 *
 * A record is made for each unique id when an image defining it is first
 * read, or when a host address is tied to it, and is never freed, so a
 * pointer a caller holds stays valid however libraries come and go; what
 * changes is the list of images that define it now. Registration reads
 * nothing (as for every other property set): the first request after
 * new images were settled reads their "SYCL/device globals" sets, in
 * registration order, and a record takes its size and scope from the
 * first image that defines it. A value that cannot be decoded, or that
 * disagrees with the record, is logged (naming the image and the
 * property) and that image does not define the global.
 *
 * Locks: the registry's (read, to see what is registered; write, when
 * images are unregistered) is taken before the records' lock, which also
 * guards the ties; property copies are made with neither held.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "props/device-global.h"
#include "loader/registry/device-globals.h"
#include "props/props.h"

/* A host address tied to a record. */
struct host_tie {
	struct hash_node node;
	struct host_tie *older;		/* as records are listed */
	uint32_t hash;
	struct devimg_global *g;
	char key[2 * sizeof(uintptr_t) + 1];
};

/* Ties and the images read so far; under the records' lock. */
static struct hash hosts = HASH_INIT;
static struct host_tie *newest_tie;
static uint64_t scanned;

static int global_error(int err, const char *format, ...) DEVIMG_PRINTF(2, 3);

static int global_error(int err, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	err = error_vset(err, NULL, format, ap);
	va_end(ap);
	return err;
}

/* ---- reading images ---- */

/* One property of an image's set, decoded. */
struct decoded {
	const char *id;			/* in the image's property copy */
	struct devglobal_info info;
};

/*
 * The globals img defines, decoded (logged and left out when a value is
 * wrong). *n 0 when none. -ENOMEM; other errors of the property copy
 * leave the image out (it was unregistered, or its sets do not fit).
 */
static int decode_image(struct devimg_image *img, struct decoded **out,
			size_t *n)
{
	const struct devimg_propset_info *set;
	const struct image_props *p;
	struct decoded *d;
	char msg[200];
	size_t i, k = 0;
	int r;

	*out = NULL;
	*n = 0;
	r = image_get_props(img, &p);
	if (r == -ENOMEM)
		return r;
	set = r < 0 ? NULL : globals_set(p);
	if (!set || !set->nprops)
		return 0;
	d = calloc(set->nprops, sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < set->nprops; i++) {
		const struct devimg_property_info *prop = &set->props[i];

		if (prop->type != DEVIMG_PROPERTY_BYTE_ARRAY) {
			log_err("image %" PRIu64 " (index %u): set '%s' property '%s': type %u, expected 2 (byte array)",
				img->id, img->index, GLOBALS_SET, prop->name,
				prop->type);
			continue;
		}
		if (devglobal_decode(prop->data, prop->size, &d[k].info, msg,
				     sizeof(msg)) < 0) {
			log_err("image %" PRIu64 " (index %u): set '%s' property '%s': %s",
				img->id, img->index, GLOBALS_SET, prop->name,
				msg);
			continue;
		}
		d[k++].id = prop->name;
	}
	*out = d;
	*n = k;
	return 0;
}

/* A definition the record refused, logged once the locks are dropped. */
struct refusal {
	struct devimg_global *g;
	struct devimg_image *img;
	struct devglobal_info info;
};

/*
 * Make img's decoded globals its definitions (both locks held): false
 * when d[i] disagrees with its record (then in *ref).
 */
static int commit_one(struct devimg_image *img, const struct decoded *d,
		      struct refusal *ref, bool *refused)
{
	struct devimg_global *g = records_intern(d->id);

	*refused = false;
	if (!g)
		return -ENOMEM;
	if (g->known && (g->size != d->info.size ||
			 g->image_scope != !!d->info.image_scope)) {
		*ref = (struct refusal){ g, img, d->info };
		*refused = true;
		return 0;
	}
	if (g->ndefs && g->defs[g->ndefs - 1] == img)
		return 0;	/* the set names it twice */
	if (records_add_def(g, img) < 0)
		return -ENOMEM;
	if (!g->known) {
		g->size = d->info.size;
		g->image_scope = d->info.image_scope;
		g->known = true;
	}
	return 0;
}

static void log_refusal(const struct refusal *r)
{
	struct devimg_image *first = r->g->ndefs ? r->g->defs[0] : NULL;

	log_err("image %" PRIu64 " (index %u): set '%s' property '%s': %u bytes%s, but %s%" PRIu64 " defines it with %u bytes%s; ignored",
		r->img->id, r->img->index, GLOBALS_SET, r->g->id,
		r->info.size,
		r->info.image_scope ? " with device_image_scope" : "",
		first ? "image " : "an image unregistered since, ",
		first ? first->id : 0, r->g->size,
		r->g->image_scope ? " with device_image_scope" : "");
}

/*
 * Read the images settled since the last call: decode without locks,
 * then, with the registry read-locked so none is unregistered meanwhile,
 * add the definitions of those still registered and not read by another
 * thread in between. Cheap when nothing new was settled.
 */
static int sync_images(void)
{
	struct devimg_image **imgs = NULL;
	struct decoded **dec = NULL;
	struct refusal *refs = NULL;
	size_t n = 0, *ndec = NULL, nrefs = 0, maxrefs = 0, i, j;
	uint64_t seen;
	int r;

	registry_settle();
	records_lock();
	seen = scanned;
	records_unlock();
	if (registry_newest_id() <= seen)
		return 0;
	r = images_collect(NULL, &imgs, &n);
	if (r < 0 || n == 0)	/* all unregistered meanwhile */
		return r;
	dec = calloc(n, sizeof(*dec));
	ndec = calloc(n, sizeof(*ndec));
	if (!dec || !ndec) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (imgs[i]->id <= seen)
			continue;
		r = decode_image(imgs[i], &dec[i], &ndec[i]);
		if (r < 0)
			goto out;
		maxrefs += ndec[i];
	}
	refs = calloc(maxrefs ? maxrefs : 1, sizeof(*refs));
	if (!refs) {
		r = -ENOMEM;
		goto out;
	}
	registry_read_lock();
	records_lock();
	for (i = 0; i < n && r == 0; i++) {
		if (imgs[i]->id <= scanned)
			continue;
		for (j = 0; j < ndec[i] && r == 0; j++) {
			bool refused;

			if (!image_is_registered(imgs[i]))
				break;
			r = commit_one(imgs[i], &dec[i][j], &refs[nrefs],
				       &refused);
			nrefs += refused;
		}
		if (r == 0)
			scanned = imgs[i]->id;
	}
	records_unlock();
	registry_unlock();
	for (i = 0; i < nrefs; i++)
		log_refusal(&refs[i]);
out:
	for (i = 0; dec && i < n; i++)
		free(dec[i]);
	free(dec);
	free(ndec);
	free(refs);
	images_drop(imgs, n);
	return r;
}

/* ---- for the dispatch wing ---- */

int globals_defs(const struct devimg_global *g, struct devimg_image ***imgs,
		 size_t *n)
{
	struct devimg_image **v = NULL;
	size_t k = 0, i;
	int r = sync_images();

	if (r < 0)
		return global_error(r, "device global '%s': %s", g->id,
				    devimg_strerror(r));
	records_lock();
	if (g->ndefs) {
		v = calloc(g->ndefs, sizeof(*v));
		r = v ? 0 : -ENOMEM;
		for (i = 0; v && i < g->ndefs; i++)
			v[k++] = devimg_image_ref(g->defs[i]);
	}
	records_unlock();
	if (r < 0)
		return global_error(r, "device global '%s': out of memory",
				    g->id);
	if (!k)
		return global_error(-ENOENT, "no registered image defines device global '%s'",
				    g->id);
	*imgs = v;
	*n = k;
	return 0;
}

int globals_of_image(struct devimg_image *img,
		     const struct devimg_global ***out, size_t *n)
{
	const struct devimg_global **v;
	const struct devimg_propset_info *set;
	const struct image_props *p;
	size_t i, j, k = 0;
	int r;

	*out = NULL;
	*n = 0;
	r = sync_images();
	if (r < 0)
		return r;
	if (image_get_props(img, &p) < 0 || !(set = globals_set(p)) ||
	    !set->nprops)
		return 0;
	v = calloc(set->nprops, sizeof(*v));
	if (!v)
		return -ENOMEM;
	records_lock();
	for (i = 0; i < set->nprops; i++) {
		const char *id = set->props[i].name;
		struct devimg_global *g = records_find(id);

		for (j = 0; g && j < g->ndefs; j++)
			if (g->defs[j] == img) {
				v[k++] = g;
				break;
			}
	}
	records_unlock();
	*out = v;
	*n = k;
	return 0;
}

bool globals_access_known(const struct devimg_global *g,
			  const struct devimg_image *img, int *access)
{
	bool known;

	records_lock();
	known = g->access_img && g->access_img == img->id;
	if (known)
		*access = g->access;
	records_unlock();
	return known;
}

void globals_access_keep(const struct devimg_global *g,
			 const struct devimg_image *img, int access)
{
	/* The record is never freed nor read-only memory: only this changes. */
	struct devimg_global *w = (struct devimg_global *)g;

	records_lock();
	w->access_img = img->id;
	w->access = access;
	records_unlock();
}

/* ---- names in modules ---- */

int globals_symbol(struct devimg_image *img, const struct devimg_global *g,
		   bool mapped, char **out)
{
	const struct devimg_property_info *prop = NULL;
	char name[512];
	uint64_t len, bits = 0;
	int r, i;

	if (mapped) {
		if (snprintf(name, sizeof(name), "%s%s", g->id,
			     PROPS_META_GLOBAL_ID_MAPPING) >= (int)sizeof(name))
			name[0] = '\0';	/* no such property can match */
		error_hold();
		r = name[0] ? devimg_image_find_property(img,
				PROPS_SET_PROGRAM_METADATA, name, &prop) :
			      -ENOENT;
		error_release();
		if (r < 0 && r != -ENOENT)
			return global_error(r, "image %" PRIu64 " (index %u): device global '%s': %s",
					    img->id, img->index, g->id,
					    devimg_strerror(r));
	}
	if (!prop) {
		*out = strdup(g->id);
		return *out ? 0 : global_error(-ENOMEM, "device global '%s': out of memory",
					       g->id);
	}
	/* The 8-byte bit count, then the name's bytes, no NUL. */
	len = prop->size >= 8 ? prop->size - 8 : 0;
	for (i = 7; len && i >= 0; i--)
		bits = bits << 8 | prop->data[i];
	if (prop->type != DEVIMG_PROPERTY_BYTE_ARRAY || !len ||
	    len > UINT64_MAX / 8 || bits != 8 * len ||
	    memchr(prop->data + 8, '\0', len))
		return global_error(-EINVAL, "image %" PRIu64 " (index %u): set '%s' property '%s': not a byte array holding a name",
				    img->id, img->index,
				    PROPS_SET_PROGRAM_METADATA, name);
	*out = strndup((const char *)prop->data + 8, len);
	return *out ? 0 : global_error(-ENOMEM, "device global '%s': out of memory",
				       g->id);
}

/* ---- the public functions ---- */

/* The record of id when an image defines it now (the lock is held). */
static int find_locked(const char *id, const struct devimg_global **out)
{
	struct devimg_global *g = records_find(id);

	if (!g || !g->ndefs)
		return -ENOENT;
	*out = g;
	return 0;
}

DEVIMG_EXPORT int devimg_global_find(const char *unique_id,
				     const struct devimg_global **out)
{
	int r;

	if (!unique_id || !out)
		return global_error(-EINVAL, "devimg_global_find: NULL argument");
	r = sync_images();
	if (r < 0)
		return global_error(r, "devimg_global_find: %s",
				    devimg_strerror(r));
	records_lock();
	r = find_locked(unique_id, out);
	records_unlock();
	if (r < 0)
		return global_error(r, "no registered image defines device global '%s'",
				    unique_id);
	return 0;
}

static void host_key(const void *addr, char *key)
{
	static const char hex[] = "0123456789abcdef";
	uintptr_t a = (uintptr_t)addr;
	size_t i;

	for (i = 0; i < 2 * sizeof(a); i++)
		key[i] = hex[(a >> (4 * (2 * sizeof(a) - 1 - i))) & 0xf];
	key[2 * sizeof(a)] = '\0';
}

static struct host_tie *tie_lookup(const char *key, uint32_t hash)
{
	struct hash_node *node = hash_find(&hosts, key, hash);

	return node ? (struct host_tie *)((char *)node -
					  offsetof(struct host_tie, node)) :
		      NULL;
}

DEVIMG_EXPORT int devimg_global_bind_host(const void *host_addr,
					  const char *unique_id)
{
	struct devimg_global *g;
	struct host_tie *t;
	char key[sizeof(t->key)];
	uint32_t hash;
	int r = 0;

	if (!host_addr || !unique_id)
		return global_error(-EINVAL, "devimg_global_bind_host: NULL argument");
	host_key(host_addr, key);
	hash = hash_string(key);
	records_lock();
	g = records_intern(unique_id);
	t = g ? tie_lookup(key, hash) : NULL;
	if (g && !t) {
		t = calloc(1, sizeof(*t));
		if (t && hash_reserve(&hosts,
				      hosts.count + 1) == 0) {
			memcpy(t->key, key, sizeof(key));
			t->hash = hash;
			hash_insert(&hosts, &t->node, t->key, hash);
			t->older = newest_tie;
			newest_tie = t;
		} else {
			free(t);
			t = NULL;
		}
	}
	if (t)
		t->g = g;
	else
		r = -ENOMEM;
	records_unlock();
	if (r < 0)
		return global_error(r, "devimg_global_bind_host: out of memory");
	return 0;
}

DEVIMG_EXPORT int devimg_global_find_host(const void *host_addr,
					  const struct devimg_global **out)
{
	char key[sizeof(((struct host_tie *)0)->key)];
	const char *id = NULL;
	struct host_tie *t;
	int r;

	if (!host_addr || !out)
		return global_error(-EINVAL, "devimg_global_find_host: NULL argument");
	r = sync_images();
	if (r < 0)
		return global_error(r, "devimg_global_find_host: %s",
				    devimg_strerror(r));
	host_key(host_addr, key);
	records_lock();
	t = tie_lookup(key, hash_string(key));
	if (t)
		id = t->g->id;	/* records are never freed */
	r = id ? find_locked(id, out) : -ENOENT;
	records_unlock();
	if (!id)
		return global_error(r, "no device global is tied to host address %p",
				    host_addr);
	if (r < 0)
		return global_error(r, "host address %p is tied to device global '%s', which no registered image defines",
				    host_addr, id);
	return 0;
}

DEVIMG_EXPORT const char *devimg_global_id(const struct devimg_global *g)
{
	return g ? g->id : NULL;
}

DEVIMG_EXPORT size_t devimg_global_size(const struct devimg_global *g)
{
	return g ? g->size : 0;
}

DEVIMG_EXPORT int devimg_global_image_scope(const struct devimg_global *g)
{
	return g ? g->image_scope : 0;
}
