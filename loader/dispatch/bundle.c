// SPDX-License-Identifier: MIT
/*
 * Kernel bundles: sets of (device, image) entries of one context in one
 * state, made from the registry and turned into one another by compile,
 * link, build and join. Every program an entry holds belongs to its
 * device's program cache (which lives as long as the context the bundle
 * references), so bundles share programs with each other and with
 * devimg_kernel_new(), and freeing a bundle releases no program.
 *
 * Spec constants: an entry whose image has constants carries its own
 * values, copied along from state to state. Native values are compiled or
 * built into the program (and key its cache entry); emulated ones are
 * copied into the kernels made from the bundle.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "loader/dispatch/dispatch.h"
#include "loader/program/program.h"

struct bundle_entry {
	struct devimg_device *dev;
	struct devimg_image *img;
	enum devimg_image_format fmt;
	struct devimg_spec_values *spec;	/* NULL: no constants */
	/*
	 * OBJECT: the compiled program, NULL when the backend cannot compile
	 * separately (built at link time then); EXECUTABLE: built or linked.
	 */
	struct devimg_plugin_program *prog;
	char *options;			/* OBJECT: the compile options given */
	size_t linked;			/* EXECUTABLE: images linked */
};

/* The distinct kernel names of a bundle's images, in image order. */
struct bundle_names {
	size_t n;
	const char *names[];
};

struct devimg_bundle {
	atomic_uint refcount;
	struct devimg_ctx *ctx;
	enum devimg_bundle_state state;
	size_t n;
	struct bundle_entry *e;
	/* Made on the first devimg_bundle_kernel_*() call, then immutable. */
	_Atomic(struct bundle_names *) names;
};

static const char *const state_names[] = {
	[DEVIMG_BUNDLE_INPUT] = "input",
	[DEVIMG_BUNDLE_OBJECT] = "object",
	[DEVIMG_BUNDLE_EXECUTABLE] = "executable",
};

DEVIMG_EXPORT const char *
devimg_bundle_state_name(enum devimg_bundle_state state)
{
	if ((unsigned)state > DEVIMG_BUNDLE_EXECUTABLE)
		return "unknown";
	return state_names[state];
}

static int nomem(const char *what)
{
	return backend_fail(-ENOMEM, "%s: out of memory", what);
}

static struct devimg_bundle *bundle_alloc(struct devimg_ctx *ctx,
					  enum devimg_bundle_state state)
{
	struct devimg_bundle *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	atomic_init(&b->refcount, 1);
	b->ctx = devimg_ctx_ref(ctx);
	b->state = state;
	return b;
}

DEVIMG_EXPORT struct devimg_bundle *devimg_bundle_ref(struct devimg_bundle *b)
{
	if (b)
		atomic_fetch_add(&b->refcount, 1);
	return b;
}

DEVIMG_EXPORT struct devimg_bundle *
devimg_bundle_unref(struct devimg_bundle *b)
{
	size_t i;

	if (!b)
		return NULL;
	if (atomic_fetch_sub(&b->refcount, 1) > 1)
		return b;
	for (i = 0; i < b->n; i++) {
		devimg_spec_values_unref(b->e[i].spec);
		devimg_image_unref(b->e[i].img);
		free(b->e[i].options);
	}
	free(b->e);
	free(atomic_load(&b->names));
	devimg_ctx_unref(b->ctx);
	free(b);
	return NULL;
}

/* Hand b over as *out, or free it when err < 0; returns err. */
static int bundle_done(struct devimg_bundle *b, int err,
		       struct devimg_bundle **out)
{
	if (err < 0) {
		devimg_bundle_unref(b);
		return err;
	}
	*out = b;
	return 0;
}

/*
 * Append an entry for img on dev, its spec values a copy of from's (NULL:
 * the defaults) when the image has constants. -ENOMEM, or the image's
 * spec-constant error (message set).
 */
static int entry_add(struct devimg_bundle *b, struct devimg_device *dev,
		     struct devimg_image *img, enum devimg_image_format fmt,
		     const struct devimg_spec_values *from,
		     struct devimg_plugin_program *prog, const char *options,
		     size_t linked)
{
	const struct devimg_spec_const_info *consts;
	struct bundle_entry *v, *e;
	size_t nconsts = 0;
	int err;

	err = devimg_image_spec_consts(img, &consts, &nconsts, NULL, NULL);
	if (err < 0)
		return backend_fail(err, "spec constants of image %u (target %s): %s",
				    devimg_image_index(img),
				    devimg_image_target(img),
				    devimg_strerror(err));
	v = realloc(b->e, (b->n + 1) * sizeof(*v));
	if (!v)
		return nomem("bundle");
	b->e = v;
	e = &v[b->n];
	*e = (struct bundle_entry){
		.dev = dev, .fmt = fmt, .prog = prog, .linked = linked,
	};
	if (options && !(e->options = strdup(options)))
		return nomem("bundle");
	if (nconsts) {
		err = devimg_spec_values_new(img, &e->spec);
		if (err == 0 && from)
			err = spec_values_copy(e->spec, from);
		if (err < 0) {
			devimg_spec_values_unref(e->spec);
			free(e->options);
			return backend_fail(err, "spec constants of image %u: %s",
					    devimg_image_index(img),
					    devimg_strerror(err));
		}
	}
	e->img = devimg_image_ref(img);
	b->n++;
	return 0;
}

static int entry_copy(struct devimg_bundle *b, const struct bundle_entry *e)
{
	return entry_add(b, e->dev, e->img, e->fmt, e->spec, e->prog,
			 e->options, e->linked);
}

/* Whether dev is one of ctx's devices, all of them enumerated. */
static bool of_ctx(const struct devimg_ctx *ctx,
		   const struct devimg_device *dev)
{
	unsigned i;

	for (i = 0; dev && i < ctx->ndevs; i++)
		if (ctx->devs[i] == dev)
			return true;
	return false;
}

/* Whether img is still in a compilable form: SPIR-V, bitcode or PTX. */
static bool compilable(struct devimg_image *img, enum devimg_image_format fmt)
{
	enum image_content c;
	unsigned sm;

	bool ptx;

	if (fmt == DEVIMG_FORMAT_SPIRV || fmt == DEVIMG_FORMAT_LLVMBC)
		return true;
	error_hold();
	ptx = image_content(img, &c, &sm) == 0 && c == CONTENT_PTX;
	error_release();
	return ptx;
}

static bool defines(struct devimg_image *img, const char *name)
{
	size_t i, n = devimg_image_entry_count(img);

	for (i = 0; i < n; i++)
		if (!strcmp(devimg_image_entry_name(img, i), name))
			return true;
	return false;
}

/* Add the images of imgs that qualify on dev to b (state INPUT). */
static int add_for_device(struct devimg_bundle *b, struct devimg_device *dev,
			  struct devimg_image **imgs, size_t n,
			  const struct devimg_bundle_filter *f, bool any_form)
{
	enum devimg_image_format fmt;
	size_t i, chosen;
	int err;

	for (i = 0; i < n; i++) {
		if (f && f->desc && devimg_image_descriptor(imgs[i]) != f->desc)
			continue;
		error_hold();
		err = devimg_select_image_with(&dev->caps, &dev->features,
					       &imgs[i], 1, &chosen, NULL);
		if (err == 0)
			err = devimg_image_guess_format(imgs[i], &fmt);
		error_release();
		if (err < 0)
			continue;
		if (!any_form && !compilable(imgs[i], fmt))
			continue;
		err = entry_add(b, dev, imgs[i], fmt, NULL, NULL, NULL, 0);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The input bundle of the registered images; any_form: native too. */
static int bundle_gather(struct devimg_ctx *ctx,
			 const struct devimg_bundle_filter *f, bool any_form,
			 struct devimg_bundle **out)
{
	struct devimg_image **imgs = NULL;
	struct devimg_bundle *b;
	size_t n = 0;
	unsigned d, ndevs;
	int err;

	err = ctx_enumerate_all(ctx);
	if (err < 0)
		return err;
	ndevs = f && f->ndevs ? f->ndevs : ctx->ndevs;
	for (d = 0; f && f->ndevs && d < f->ndevs; d++)
		if (!of_ctx(ctx, f->devs ? f->devs[d] : NULL))
			return backend_fail(-EINVAL, "devimg_bundle_new: device %u of the filter is not a device of the context",
					    d);
	err = images_collect(f ? f->kernel : NULL, &imgs, &n);
	if (err == -ENOENT)
		err = 0;
	if (err < 0)
		return backend_fail(err, "devimg_bundle_new: the registry: %s",
				    devimg_strerror(err));
	b = bundle_alloc(ctx, DEVIMG_BUNDLE_INPUT);
	err = b ? 0 : nomem("devimg_bundle_new");
	for (d = 0; err == 0 && d < ndevs; d++)
		err = add_for_device(b, f && f->ndevs ? f->devs[d] :
					ctx->devs[d], imgs, n, f, any_form);
	images_drop(imgs, n);
	return bundle_done(b, err, out);
}

/*
 * What keys e's program: its native spec values when the device takes
 * them and some were set (NULL: the defaults, as devimg_kernel_new()
 * builds).
 */
static int entry_native(const struct bundle_entry *e,
			struct devimg_spec_values **spec, const void **key,
			size_t *size)
{
	const struct devimg_spec_native *list;
	size_t n = 0;
	int err;

	*spec = NULL;
	*key = NULL;
	*size = 0;
	if (!e->spec || e->fmt != DEVIMG_FORMAT_SPIRV ||
	    !(e->dev->info->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS))
		return 0;
	err = devimg_spec_values_native(e->spec, &list, &n);
	if (err == 0 && n) {
		*spec = e->spec;
		err = devimg_spec_values_buffer(e->spec, key, size);
	}
	return err < 0 ? backend_fail(err, "spec constants: %s",
				      devimg_strerror(err)) : 0;
}

/* b must be in state want; has_out: the caller's out pointer is given. */
static int check_state(const struct devimg_bundle *b,
		       enum devimg_bundle_state want, bool has_out,
		       const char *fn)
{
	if (!b || !has_out)
		return backend_fail(-EINVAL, "%s: NULL argument", fn);
	if (b->state != want)
		return backend_fail(-EINVAL, "%s: the bundle is in state %s, %s expected",
				    fn, devimg_bundle_state_name(b->state),
				    devimg_bundle_state_name(want));
	return 0;
}

static int compile_entry(struct devimg_bundle *out,
			 const struct bundle_entry *e, const char *options)
{
	struct devimg_plugin_program *prog = NULL;
	struct devimg_spec_values *spec;
	const void *key;
	size_t size;
	char *opts;
	int err;

	err = entry_native(e, &spec, &key, &size);
	if (err < 0)
		return err;
	opts = link_join_options(devimg_image_compile_opts(e->img), options);
	if (!opts)
		return nomem("devimg_bundle_compile");
	err = progcache_get_object(e->dev, e->img, e->fmt, opts, spec, key,
				   size, &prog);
	free(opts);
	if (err == -ENOTSUP) {
		/* Kept as it is: built, alone, at link time. */
		prog = NULL;
	} else if (err < 0) {
		return err;
	}
	return entry_add(out, e->dev, e->img, e->fmt, e->spec, prog, options,
			 0);
}

static int bundle_compile(struct devimg_bundle *in, const char *options,
			  struct devimg_bundle **out)
{
	struct devimg_bundle *b;
	size_t i;
	int err = 0;

	b = bundle_alloc(in->ctx, DEVIMG_BUNDLE_OBJECT);
	if (!b)
		return nomem("devimg_bundle_compile");
	for (i = 0; i < in->n && err == 0; i++)
		err = compile_entry(b, &in->e[i], options ? options : "");
	return bundle_done(b, err, out);
}

DEVIMG_EXPORT int devimg_bundle_compile(struct devimg_bundle *in,
					const char *options,
					struct devimg_bundle **out)
{
	int err = check_state(in, DEVIMG_BUNDLE_INPUT, out, "devimg_bundle_compile");

	if (err < 0)
		return err;
	return bundle_compile(in, options, out);
}

/* The images of b for dev, borrowed. */
static int pool_of(const struct devimg_bundle *b,
		   const struct devimg_device *dev, struct devimg_image ***pool,
		   size_t *n)
{
	size_t i;

	*n = 0;
	*pool = calloc(b->n ? b->n : 1, sizeof(**pool));
	if (!*pool)
		return nomem("bundle");
	for (i = 0; i < b->n; i++)
		if (b->e[i].dev == dev)
			(*pool)[(*n)++] = b->e[i].img;
	return 0;
}

/*
 * The executable program of e, its image linked with what it imports
 * from (looked for in b first). copts: the compile options given, lopts
 * the link options. *linked: how many images went in.
 */
static int entry_program(const struct devimg_bundle *b,
			 const struct bundle_entry *e, const char *copts,
			 const char *lopts, bool compiled,
			 struct devimg_plugin_program **prog, size_t *linked)
{
	struct devimg_spec_values *spec;
	struct devimg_image **pool;
	struct link_plan plan;
	const void *key;
	size_t npool, size;
	char *all;
	int err;

	err = entry_native(e, &spec, &key, &size);
	if (err == 0)
		err = pool_of(b, e->dev, &pool, &npool);
	if (err < 0)
		return err;
	err = link_plan_make(e->dev, e->img, pool, npool, &plan);
	free(pool);
	if (err < 0)
		return err;
	*linked = plan.n;
	if (plan.n > 1 || compiled) {
		err = link_program(e->dev, &plan, copts, lopts, spec, key, size,
				   prog);
		link_plan_fini(&plan);
		return err;
	}
	link_plan_fini(&plan);
	/* Alone, as devimg_kernel_new() builds it. */
	all = link_build_options(e->img, copts, lopts);
	if (!all)
		return nomem("bundle");
	err = progcache_get(e->dev, e->img, e->fmt, all, spec, key, size, prog);
	free(all);
	return err;
}

/*
 * Executable entries of in's images that define kernels: linked when
 * compiled (OBJECT entries with a program) or importing symbols, built
 * alone otherwise. copts NULL: each OBJECT entry's own compile options.
 */
static int bundle_finish(struct devimg_bundle *in, const char *copts,
			 const char *lopts, struct devimg_bundle **out)
{
	struct devimg_plugin_program *prog;
	const struct bundle_entry *e;
	struct devimg_bundle *b;
	size_t i, linked;
	int err = 0;

	b = bundle_alloc(in->ctx, DEVIMG_BUNDLE_EXECUTABLE);
	if (!b)
		return nomem("bundle");
	for (i = 0; i < in->n && err == 0; i++) {
		e = &in->e[i];
		if (!devimg_image_entry_count(e->img))
			continue;
		err = entry_program(in, e, copts ? copts : e->options, lopts,
				    in->state == DEVIMG_BUNDLE_OBJECT &&
					    e->prog,
				    &prog, &linked);
		if (err == 0)
			err = entry_add(b, e->dev, e->img, e->fmt, e->spec,
					prog, NULL, linked);
	}
	return bundle_done(b, err, out);
}

DEVIMG_EXPORT int devimg_bundle_build(struct devimg_bundle *in,
				      const char *options,
				      struct devimg_bundle **out)
{
	int err = check_state(in, DEVIMG_BUNDLE_INPUT, out, "devimg_bundle_build");

	if (err < 0)
		return err;
	options = options ? options : "";
	return bundle_finish(in, options, options, out);
}

/* Check that bundles[0..n) are of one context and in one state. */
static int check_many(struct devimg_bundle *const *bundles, size_t n,
		      const char *fn)
{
	size_t i;

	if (!n || !bundles)
		return backend_fail(-EINVAL, "%s: no bundle given", fn);
	for (i = 0; i < n; i++) {
		if (!bundles[i])
			return backend_fail(-EINVAL, "%s: bundle %zu is NULL",
					    fn, i);
		if (bundles[i]->ctx != bundles[0]->ctx)
			return backend_fail(-EINVAL, "%s: bundle %zu is of another context than bundle 0",
					    fn, i);
		if (bundles[i]->state != bundles[0]->state)
			return backend_fail(-EINVAL, "%s: bundle %zu is in state %s, bundle 0 in state %s",
					    fn, i,
					    devimg_bundle_state_name(bundles[i]->state),
					    devimg_bundle_state_name(bundles[0]->state));
	}
	return 0;
}

static bool has_entry(const struct devimg_bundle *b,
		      const struct bundle_entry *e)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->e[i].dev == e->dev && b->e[i].img == e->img &&
		    b->e[i].prog == e->prog)
			return true;
	return false;
}

static int bundle_join(struct devimg_bundle *const *bundles, size_t n,
		       struct devimg_bundle **out)
{
	struct devimg_bundle *b;
	size_t i, j;
	int err = 0;

	b = bundle_alloc(bundles[0]->ctx, bundles[0]->state);
	if (!b)
		return nomem("devimg_bundle_join");
	for (i = 0; i < n && err == 0; i++)
		for (j = 0; j < bundles[i]->n && err == 0; j++)
			if (!has_entry(b, &bundles[i]->e[j]))
				err = entry_copy(b, &bundles[i]->e[j]);
	return bundle_done(b, err, out);
}

DEVIMG_EXPORT int devimg_bundle_join(struct devimg_bundle *const *bundles,
				     size_t n, struct devimg_bundle **out)
{
	int err = check_many(bundles, n, "devimg_bundle_join");

	if (err < 0)
		return err;
	if (!out)
		return backend_fail(-EINVAL, "devimg_bundle_join: NULL out");
	return bundle_join(bundles, n, out);
}

DEVIMG_EXPORT int devimg_bundle_link(struct devimg_bundle *const *objects,
				     size_t n, const char *options,
				     struct devimg_bundle **out)
{
	struct devimg_bundle *all;
	int err = check_many(objects, n, "devimg_bundle_link");

	if (err == 0)
		err = check_state(objects[0], DEVIMG_BUNDLE_OBJECT, out,
				  "devimg_bundle_link");
	if (err < 0)
		return err;
	err = bundle_join(objects, n, &all);
	if (err < 0)
		return err;
	err = bundle_finish(all, NULL, options ? options : "", out);
	devimg_bundle_unref(all);
	return err;
}

int bundle_filter_read(const struct devimg_bundle_filter *filter,
		       struct devimg_bundle_filter *f)
{
	int err;

	memset(f, 0, sizeof(*f));
	f->size = sizeof(*f);
	if (!filter)
		return 0;
	err = api_struct_size("devimg_bundle_filter", filter->size,
			      DEVIMG_SIZE_0_1(devimg_bundle_filter, ndevs));
	if (err < 0)
		return err;
	api_struct_read(f, sizeof(*f), filter);
	return 0;
}

DEVIMG_EXPORT int devimg_bundle_new(struct devimg_ctx *ctx,
				    enum devimg_bundle_state state,
				    const struct devimg_bundle_filter *filter,
				    struct devimg_bundle **out)
{
	struct devimg_bundle_filter f;
	struct devimg_bundle *in = NULL;
	int err;

	if (!ctx || !out)
		return backend_fail(-EINVAL, "devimg_bundle_new: NULL argument");
	if ((unsigned)state > DEVIMG_BUNDLE_EXECUTABLE)
		return backend_fail(-EINVAL, "devimg_bundle_new: state %d (0 input, 1 object, 2 executable)",
				    (int)state);
	err = bundle_filter_read(filter, &f);
	if (err < 0)
		return backend_fail_prefix(err, "devimg_bundle_new");
	err = bundle_gather(ctx, filter ? &f : NULL,
			    state == DEVIMG_BUNDLE_EXECUTABLE, &in);
	if (err < 0 || state == DEVIMG_BUNDLE_INPUT) {
		if (err == 0)
			*out = in;
		return err;
	}
	if (state == DEVIMG_BUNDLE_OBJECT)
		err = bundle_compile(in, "", out);
	else
		err = bundle_finish(in, "", "", out);
	devimg_bundle_unref(in);
	return err;
}

DEVIMG_EXPORT enum devimg_bundle_state
devimg_bundle_state(const struct devimg_bundle *b)
{
	return b ? b->state : DEVIMG_BUNDLE_INPUT;
}

DEVIMG_EXPORT size_t devimg_bundle_image_count(const struct devimg_bundle *b)
{
	return b ? b->n : 0;
}

static const struct bundle_entry *entry_at(const struct devimg_bundle *b,
					   size_t i)
{
	if (b && i < b->n)
		return &b->e[i];
	if (!b)
		backend_fail(-EINVAL, "NULL bundle (image %zu)", i);
	else
		backend_fail(-ERANGE, "no image %zu in the bundle, it has %zu",
			     i, b->n);
	return NULL;
}

DEVIMG_EXPORT struct devimg_image *
devimg_bundle_image(const struct devimg_bundle *b, size_t i)
{
	const struct bundle_entry *e = entry_at(b, i);

	return e ? e->img : NULL;
}

DEVIMG_EXPORT struct devimg_device *
devimg_bundle_image_device(const struct devimg_bundle *b, size_t i)
{
	const struct bundle_entry *e = entry_at(b, i);

	return e ? e->dev : NULL;
}

DEVIMG_EXPORT enum devimg_image_format
devimg_bundle_image_format(const struct devimg_bundle *b, size_t i)
{
	const struct bundle_entry *e = entry_at(b, i);

	return e ? e->fmt : DEVIMG_FORMAT_NONE;
}

DEVIMG_EXPORT size_t devimg_bundle_image_linked(const struct devimg_bundle *b,
						size_t i)
{
	const struct bundle_entry *e = entry_at(b, i);

	return e ? e->linked : 0;
}

DEVIMG_EXPORT int devimg_bundle_has_kernel(const struct devimg_bundle *b,
					   const char *name,
					   const struct devimg_device *dev)
{
	size_t i;

	for (i = 0; b && name && i < b->n; i++)
		if ((!dev || b->e[i].dev == dev) && defines(b->e[i].img, name))
			return 1;
	return 0;
}

/* Whether kernel j of image i's name came in an earlier image or entry. */
static bool named_before(const struct devimg_bundle *b, size_t i, size_t j)
{
	const char *name = devimg_image_entry_name(b->e[i].img, j);
	size_t k, m;

	for (k = 0; k <= i; k++)
		for (m = 0; m < (k < i ? devimg_image_entry_count(b->e[k].img) :
					 j); m++)
			if (!strcmp(devimg_image_entry_name(b->e[k].img, m),
				    name))
				return true;
	return false;
}

/* The distinct names into names (NULL: count only); returns how many. */
static size_t list_names(const struct devimg_bundle *b, const char **names)
{
	size_t i, j, total = 0;

	for (i = 0; i < b->n; i++)
		for (j = 0; j < devimg_image_entry_count(b->e[i].img); j++) {
			if (named_before(b, i, j))
				continue;
			if (names)
				names[total] = devimg_image_entry_name(
					b->e[i].img, j);
			total++;
		}
	return total;
}

/* b's names, listed on first use; NULL when -ENOMEM. */
static const struct bundle_names *bundle_names(const struct devimg_bundle *b)
{
	struct devimg_bundle *w = (struct devimg_bundle *)b;
	struct bundle_names *l = atomic_load(&w->names), *expected = NULL;
	size_t n, bytes;

	if (l)
		return l;
	n = list_names(b, NULL);
	if (size_mul(n, sizeof(l->names[0]), &bytes) ||
	    size_add(bytes, sizeof(*l), &bytes))
		return NULL;
	l = malloc(bytes);
	if (!l)
		return NULL;
	l->n = list_names(b, l->names);
	/* Another thread may have published first: keep one list. */
	if (!atomic_compare_exchange_strong(&w->names, &expected, l)) {
		free(l);
		l = expected;
	}
	return l;
}

DEVIMG_EXPORT size_t devimg_bundle_kernel_count(const struct devimg_bundle *b)
{
	const struct bundle_names *l = b ? bundle_names(b) : NULL;

	return l ? l->n : 0;
}

DEVIMG_EXPORT const char *
devimg_bundle_kernel_name(const struct devimg_bundle *b, size_t i)
{
	const struct bundle_names *l = b ? bundle_names(b) : NULL;

	return l && i < l->n ? l->names[i] : NULL;
}

/* Whether img has a spec constant called name. */
static bool has_const(struct devimg_image *img, const char *name)
{
	const struct devimg_spec_const_info *consts;
	size_t n = 0, i;
	int err;

	error_hold();
	err = devimg_image_spec_consts(img, &consts, &n, NULL, NULL);
	error_release();
	if (err < 0)
		return false;
	for (i = 0; i < n; i++)
		if (!strcmp(consts[i].name, name))
			return true;
	return false;
}

DEVIMG_EXPORT int devimg_bundle_set_spec_const(struct devimg_bundle *b,
					       const char *symbolic_id,
					       size_t size, const void *value)
{
	size_t i, found = 0;
	int err = check_state(b, DEVIMG_BUNDLE_INPUT, true,
			      "devimg_bundle_set_spec_const");

	if (err < 0)
		return err;
	if (!symbolic_id || !value)
		return backend_fail(-EINVAL, "devimg_bundle_set_spec_const: NULL argument");
	for (i = 0; i < b->n; i++) {
		if (!b->e[i].spec || !has_const(b->e[i].img, symbolic_id))
			continue;
		err = devimg_spec_values_set(b->e[i].spec, symbolic_id, size,
					     value);
		if (err < 0)
			return backend_fail(err, "spec constant '%s' of image %u (target %s), %zu bytes given: %s",
					    symbolic_id,
					    devimg_image_index(b->e[i].img),
					    devimg_image_target(b->e[i].img),
					    size, devimg_strerror(err));
		found++;
	}
	if (!found)
		return backend_fail(-ENOENT, "no image of the bundle has spec constant '%s'",
				    symbolic_id);
	return 0;
}

DEVIMG_EXPORT int devimg_bundle_kernel_new(struct devimg_bundle *b,
					   struct devimg_device *dev,
					   const char *name,
					   devimg_image_selector_fn selector,
					   void *data,
					   struct devimg_kernel **out)
{
	struct devimg_image **imgs;
	struct bundle_entry **from;
	struct kernel_source src;
	size_t i, n = 0, chosen;
	int err = check_state(b, DEVIMG_BUNDLE_EXECUTABLE, out,
			      "devimg_bundle_kernel_new");

	if (err < 0)
		return err;
	if (!name)
		return backend_fail(-EINVAL, "devimg_bundle_kernel_new: NULL argument");
	if (!of_ctx(b->ctx, dev))
		return backend_fail(-EINVAL, "devimg_bundle_kernel_new: the device is not one of the bundle's context");
	imgs = calloc(b->n ? b->n : 1, sizeof(*imgs));
	from = calloc(b->n ? b->n : 1, sizeof(*from));
	if (!imgs || !from) {
		err = nomem("devimg_bundle_kernel_new");
		goto out;
	}
	for (i = 0; i < b->n; i++)
		if (b->e[i].dev == dev && defines(b->e[i].img, name)) {
			imgs[n] = b->e[i].img;
			from[n++] = &b->e[i];
		}
	if (!n) {
		err = backend_fail(-ENOENT, "kernel '%s' is not in the bundle for %s",
				   name, devimg_device_name(dev));
		goto out;
	}
	if (selector) {
		err = selector(data, dev, name, imgs, n);
		if (err >= 0 && (size_t)err >= n)
			err = backend_fail(-EINVAL, "the image selector chose image %d of %zu for kernel '%s'",
					   err, n, name);
		else if (err < 0)
			err = backend_fail(err, "the image selector refused every image of kernel '%s': %s",
					   name, devimg_strerror(err));
		chosen = (size_t)err;
	} else {
		err = devimg_select_image_with(&dev->caps, &dev->features,
					       imgs, n, &chosen, NULL);
		if (err < 0)
			err = backend_fail(err, "no image of kernel '%s' in the bundle is usable on %s any more",
					   name, devimg_device_name(dev));
	}
	if (err < 0)
		goto out;
	src = (struct kernel_source){
		.img = from[chosen]->img, .prog = from[chosen]->prog,
		.spec = from[chosen]->spec,
	};
	err = kernel_new_from(dev, name, &src, out);
out:
	free(imgs);
	free(from);
	return err;
}
