// SPDX-License-Identifier: MIT
/*
 * Device image linking: which images a program is linked from. An image
 * whose "SYCL/imported symbols" names symbols is linked with images that
 * list them in "SYCL/exported symbols", and with the images those import
 * from in turn. An exporter qualifies when it is compatible with the
 * device (devimg_select_image_with(), requirements included) and has the
 * root image's format; it is looked for first among the images the
 * caller offers (a bundle's), then among all registered images, where
 * DPC++'s preference among several is applied. The registry is scanned
 * only for an image that imports something, and at most once per plan.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/program/program.h"

#define EXPORTED_SET "SYCL/exported symbols"
#define IMPORTED_SET "SYCL/imported symbols"

/* The property set called name of img; *set NULL when absent. */
static int image_set(struct devimg_image *img, const char *name,
		     const struct devimg_propset_info **set)
{
	const struct devimg_propset_info *sets;
	size_t n, i;
	int err;

	*set = NULL;
	err = devimg_image_propsets(img, &sets, &n);
	if (err < 0)
		return err;
	for (i = 0; i < n; i++)
		if (!strcmp(sets[i].name, name)) {
			*set = &sets[i];
			break;
		}
	return 0;
}

int link_image_imports(struct devimg_image *img, size_t *n)
{
	const struct devimg_propset_info *set;
	int err;

	err = image_set(img, IMPORTED_SET, &set);
	if (err < 0)
		return err;
	*n = set ? set->nprops : 0;
	return 0;
}

static bool exports(struct devimg_image *img, const char *sym)
{
	const struct devimg_propset_info *set;
	size_t i;

	if (image_set(img, EXPORTED_SET, &set) < 0 || !set)
		return false;
	for (i = 0; i < set->nprops; i++)
		if (!strcmp(set->props[i].name, sym))
			return true;
	return false;
}

static bool in_plan(const struct link_plan *plan,
		    const struct devimg_image *img)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		if (plan->imgs[i] == img)
			return true;
	return false;
}

/* Whether img may be linked into plan's program for dev. */
static bool qualifies(struct devimg_device *dev, const struct link_plan *plan,
		      struct devimg_image *img, enum devimg_image_format fmt)
{
	enum devimg_image_format f;
	size_t chosen;

	bool fits;

	if (in_plan(plan, img))
		return false;
	error_hold();
	fits = devimg_image_guess_format(img, &f) == 0 && f == fmt &&
	       devimg_select_image_with(&dev->caps, &dev->features, &img, 1,
					&chosen, NULL) == 0;
	error_release();
	return fits;
}

static int plan_add(struct link_plan *plan, struct devimg_image *img)
{
	struct devimg_image **v;

	v = realloc(plan->imgs, (plan->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	plan->imgs = v;
	v[plan->n++] = devimg_image_ref(img);
	return 0;
}

struct registry_view {
	struct devimg_image **imgs;
	size_t n;
	bool loaded;
};

static int registry_load(struct registry_view *r)
{
	int err;

	if (r->loaded)
		return 0;
	err = images_collect(NULL, &r->imgs, &r->n);
	r->loaded = err == 0;
	return err;
}

/*
 * The registered image that should provide sym (DPC++'s preference among
 * the qualifying ones), or NULL.
 */
static int from_registry(struct devimg_device *dev, struct link_plan *plan,
			 struct registry_view *r, const char *sym,
			 enum devimg_image_format fmt,
			 struct devimg_image **found)
{
	struct devimg_image **cand;
	size_t n = 0, i, chosen;
	int err;

	*found = NULL;
	err = registry_load(r);
	if (err < 0)
		return err;
	cand = calloc(r->n ? r->n : 1, sizeof(*cand));
	if (!cand)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		if (exports(r->imgs[i], sym) &&
		    qualifies(dev, plan, r->imgs[i], fmt))
			cand[n++] = r->imgs[i];
	if (n && devimg_select_image_with(&dev->caps, &dev->features, cand,
					  n, &chosen, NULL) == 0)
		*found = cand[chosen];
	free(cand);
	return 0;
}

/* Resolve the imports of plan->imgs[at], adding their providers. */
static int resolve(struct devimg_device *dev, struct link_plan *plan,
		   size_t at, struct devimg_image *const *pool, size_t npool,
		   struct registry_view *r, enum devimg_image_format fmt)
{
	struct devimg_image *img = plan->imgs[at], *found;
	const struct devimg_propset_info *set;
	const char *sym;
	size_t i, j;
	int err;

	err = image_set(img, IMPORTED_SET, &set);
	if (err < 0 || !set)
		return err;
	for (i = 0; i < set->nprops; i++) {
		sym = set->props[i].name;
		found = NULL;
		for (j = 0; j < plan->n && !found; j++)
			if (exports(plan->imgs[j], sym))
				found = plan->imgs[j];
		if (found)
			continue;
		for (j = 0; j < npool && !found; j++)
			if (exports(pool[j], sym) &&
			    qualifies(dev, plan, pool[j], fmt))
				found = pool[j];
		if (!found) {
			err = from_registry(dev, plan, r, sym, fmt, &found);
			if (err < 0)
				return err;
		}
		if (!found)
			return backend_fail(-ENOEXEC, "image %u (target %s) imports '%s', which no registered image compatible with %s exports",
					    devimg_image_index(img),
					    devimg_image_target(img), sym,
					    devimg_device_name(dev));
		err = plan_add(plan, found);
		if (err < 0)
			return err;
	}
	return 0;
}

int link_plan_make(struct devimg_device *dev, struct devimg_image *root,
		   struct devimg_image *const *pool, size_t npool,
		   struct link_plan *plan)
{
	struct registry_view r = { 0 };
	enum devimg_image_format fmt;
	size_t at;
	int err;

	*plan = (struct link_plan){ 0 };
	err = devimg_image_guess_format(root, &fmt);
	if (err == 0)
		err = plan_add(plan, root);
	/* plan->n grows as providers are found: their imports too. */
	for (at = 0; err == 0 && at < plan->n; at++)
		err = resolve(dev, plan, at, pool, npool, &r, fmt);
	if (r.loaded)
		images_drop(r.imgs, r.n);
	if (err == -ENOMEM)
		err = backend_fail(err, "linking image %u: out of memory",
				   devimg_image_index(root));
	else if (err < 0 && err != -ENOEXEC)
		err = backend_fail(err, "linking image %u (target %s): %s",
				   devimg_image_index(root),
				   devimg_image_target(root),
				   devimg_strerror(err));
	if (err < 0)
		link_plan_fini(plan);
	return err;
}

void link_plan_fini(struct link_plan *plan)
{
	while (plan->n)
		devimg_image_unref(plan->imgs[--plan->n]);
	free(plan->imgs);
	plan->imgs = NULL;
}

/* "a b" of two option strings, either possibly empty. */
char *link_join_options(const char *a, const char *b)
{
	size_t al = strlen(a), bl = strlen(b);
	char *s = malloc(al + bl + 2);

	if (!s)
		return NULL;
	memcpy(s, a, al);
	s[al] = ' ';
	memcpy(s + al + (al && bl), b, bl + 1);
	return s;
}

char *link_build_options(struct devimg_image *img, const char *copts,
			 const char *lopts)
{
	char *c = link_join_options(devimg_image_compile_opts(img), copts);
	char *l = link_join_options(devimg_image_link_opts(img), lopts);
	char *all = c && l ? link_join_options(c, l) : NULL;

	free(c);
	free(l);
	return all;
}

int link_program(struct devimg_device *dev, const struct link_plan *plan,
		 const char *compile_opts, const char *link_opts,
		 struct devimg_spec_values *spec, const void *spec_key,
		 size_t key_size, struct devimg_plugin_program **out)
{
	struct progcache_unit *u;
	char **opts;
	char *lopts;
	size_t i;
	int err = -ENOMEM;

	u = calloc(plan->n, sizeof(*u));
	opts = calloc(plan->n, sizeof(*opts));
	lopts = link_join_options(devimg_image_link_opts(plan->imgs[0]),
				  link_opts);
	if (!u || !opts || !lopts)
		goto out;
	for (i = 0; i < plan->n; i++) {
		u[i].img = plan->imgs[i];
		opts[i] = link_join_options(
			devimg_image_compile_opts(plan->imgs[i]), compile_opts);
		if (!opts[i])
			goto out;
		u[i].options = opts[i];
		err = devimg_image_guess_format(u[i].img, &u[i].fmt);
		if (err < 0)
			goto out;
	}
	u[0].spec = spec;
	u[0].spec_key = spec_key;
	u[0].key_size = key_size;
	err = progcache_get_linked(dev, u, plan->n, lopts, out);
	lopts = (free(lopts), NULL);
out:
	for (i = 0; opts && i < plan->n; i++)
		free(opts[i]);
	free(opts);
	free(u);
	free(lopts);
	if (err == -ENOMEM)
		return backend_fail(err, "linking image %u: out of memory",
				    devimg_image_index(plan->imgs[0]));
	if (err < 0 && ((err != -ENOEXEC && err != -ENOTSUP) || plan->n == 1))
		return err;
	if (err < 0)
		return backend_fail_prefix(err, "image %u (target %s) imports symbols from %zu other image(s) and must be linked with them on %s",
					   devimg_image_index(plan->imgs[0]),
					   devimg_image_target(plan->imgs[0]),
					   plan->n - 1, devimg_device_name(dev));
	return 0;
}
