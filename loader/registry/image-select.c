// SPDX-License-Identifier: MIT
/*
 * Which image a device runs: DPC++'s rules (the OpenCL, Level Zero and
 * CUDA adapters' binary selection), applied to the images whose target the
 * backend takes and whose format the device can ingest, so that every
 * image left out says why. Formats declared NONE are guessed from the
 * image's first bytes at selection time, not at registration. With the
 * device's features, an image must also meet its "SYCL/device
 * requirements" (aspects, sub-group size, work-group size); what the
 * device is not known to have is not assumed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "props/props.h"
#include "loader/registry/image-select.h"

static const char *backend_names[] = {
	[DEVIMG_BACKEND_OPENCL] = "opencl",
	[DEVIMG_BACKEND_LEVEL_ZERO] = "level_zero",
	[DEVIMG_BACKEND_CUDA] = "cuda",
};

static const char *type_names[] = {
	[DEVIMG_DEVICE_CPU] = "cpu",
	[DEVIMG_DEVICE_GPU] = "gpu",
	[DEVIMG_DEVICE_ACCELERATOR] = "accelerator",
};

static const char *format_names[] = {
	[DEVIMG_FORMAT_NONE] = "none",
	[DEVIMG_FORMAT_NATIVE] = "native",
	[DEVIMG_FORMAT_SPIRV] = "spirv",
	[DEVIMG_FORMAT_LLVMBC] = "llvmbc",
};

DEVIMG_EXPORT const char *devimg_backend_name(enum devimg_backend backend)
{
	if (backend < DEVIMG_BACKEND_OPENCL || backend > DEVIMG_BACKEND_CUDA)
		return "unknown";
	return backend_names[backend];
}

/* "spirv", or "none (spirv by its magic)" for a guessed format. */
static void format_label(const struct select_cand *c, unsigned f, char *buf,
			 size_t size)
{
	if (c->format == f)
		snprintf(buf, size, "%s", format_names[f]);
	else
		snprintf(buf, size, "%s (%s by its magic)",
			 c->format == DEVIMG_FORMAT_COMPRESSED ? "compressed" :
			 "none", format_names[f]);
}

/* ---- content of the bytes (content.c), cached ---- */

/* Cached as content + 1 | sm << 8, so 0 means "not looked at". */
int image_content(struct devimg_image *img, enum image_content *c,
		  unsigned *sm)
{
	unsigned g = atomic_load(&img->guess);
	int r = 0;

	if (!g && img->format == DEVIMG_FORMAT_COMPRESSED) {
		struct image_unz_view v;

		r = image_unz_get(img, &v);
		if (r < 0)
			return r;
		g = v.content;
	} else if (!g) {
		registry_read_lock();
		if (devimg_image_is_registered(img)) {
			*c = image_content_of(img->bin, img->bin_size, sm);
			g = (unsigned)(*c + 1) | *sm << 8;
		} else {
			r = -ESTALE;
		}
		registry_read_unlock();
		if (r < 0)
			return image_stale(img->id, img->index);
		atomic_store(&img->guess, g);
	}
	*c = (enum image_content)((g & 0xff) - 1);
	*sm = g >> 8;
	return 0;
}

static unsigned format_of_content(enum image_content c)
{
	switch (c) {
	case CONTENT_SPIRV:
		return DEVIMG_FORMAT_SPIRV;
	case CONTENT_LLVMBC:
		return DEVIMG_FORMAT_LLVMBC;
	case CONTENT_ELF:
	case CONTENT_PTX:
		return DEVIMG_FORMAT_NATIVE;
	default:
		return DEVIMG_FORMAT_NONE;
	}
}

DEVIMG_EXPORT int devimg_image_guess_format(struct devimg_image *img,
					    enum devimg_image_format *fmt)
{
	enum image_content c;
	unsigned sm;
	int r;

	if (!img || !fmt)
		return fail_null("devimg_image_guess_format");
	if (img->format != DEVIMG_FORMAT_NONE &&
	    img->format != DEVIMG_FORMAT_COMPRESSED) {
		*fmt = (enum devimg_image_format)img->format;
		return 0;
	}
	r = image_content(img, &c, &sm);
	if (r < 0)
		return r;
	*fmt = (enum devimg_image_format)format_of_content(c);
	return 0;
}

/* ---- the rules ---- */

/* The target preferred on the device, and the fallback (NULL: none). */
static const char *preferred_target(const struct devimg_device_caps *dev)
{
	if (dev->backend == DEVIMG_BACKEND_CUDA)
		return "nvptx64";
	if (dev->backend == DEVIMG_BACKEND_LEVEL_ZERO)
		return "spir64_gen";
	switch (dev->type) {
	case DEVIMG_DEVICE_CPU:
		return "spir64_x86_64";
	case DEVIMG_DEVICE_GPU:
		return "spir64_gen";
	default:
		return "spir64_fpga";
	}
}

/* NVIDIA's OpenCL takes PTX: nvptx64 images come second there. */
static const char *second_target(const struct devimg_device_caps *dev)
{
	return dev->backend == DEVIMG_BACKEND_OPENCL && dev->ptx ?
		"nvptx64" : NULL;
}

static const char *fallback_target(const struct devimg_device_caps *dev)
{
	return dev->backend == DEVIMG_BACKEND_CUDA ? NULL : "spir64";
}

/*
 * Whether target is name. LLVM's new offload model writes a triple
 * ("spirv64-unknown-unknown", "nvptx64-nvidia-cuda"): its arch is what
 * counts there, SPIR-V's "spirv64" standing for "spir64".
 */
static bool is(const char *target, const char *name)
{
	size_t n;

	if (!name)
		return false;
	if (strcmp(target, name) == 0)
		return true;
	n = strcspn(target, "-");
	if (!target[n])
		return false;
	if (n == 7 && strncmp(target, "spirv64", n) == 0)
		return strcmp(name, "spir64") == 0;
	return strlen(name) == n && strncmp(target, name, n) == 0;
}

bool select_target_fits(const struct devimg_device_caps *dev,
			const char *target)
{
	return is(target, preferred_target(dev)) ||
	       is(target, second_target(dev)) ||
	       is(target, fallback_target(dev));
}

/* Whether the device reads PTX, so the sm of PTX images matters. */
static bool takes_ptx(const struct devimg_device_caps *dev)
{
	return dev->backend == DEVIMG_BACKEND_CUDA || dev->ptx;
}

static bool valid_device(const struct devimg_device_caps *dev)
{
	return dev->backend >= DEVIMG_BACKEND_OPENCL &&
	       dev->backend <= DEVIMG_BACKEND_CUDA &&
	       dev->type >= DEVIMG_DEVICE_CPU &&
	       dev->type <= DEVIMG_DEVICE_ACCELERATOR;
}

/* Why an OpenCL device cannot take an image for another device type. */
static const char *opencl_type_of(const char *target)
{
	if (strcmp(target, "spir64_x86_64") == 0)
		return "cpu";
	if (strcmp(target, "spir64_gen") == 0)
		return "gpu";
	if (strcmp(target, "spir64_fpga") == 0)
		return "accelerator";
	return NULL;
}

static void say(char (*why)[DEVIMG_REASON_MAX], size_t i,
		const struct select_cand *c, const char *format, ...)
	DEVIMG_PRINTF(4, 5);

static void say(char (*why)[DEVIMG_REASON_MAX], size_t i,
		const struct select_cand *c, const char *format, ...)
{
	va_list args;
	size_t n;

	if (!why)
		return;
	/*
	 * Targets come from descriptors and blobs: every conversion is
	 * escaped, so that a reason stays one line.
	 */
	n = esc_snprintf(why[i], DEVIMG_REASON_MAX, NULL,
			 "image %zu (target %.40s): ", i, c->target);
	if (n >= DEVIMG_REASON_MAX)
		return;
	va_start(args, format);
	esc_vsnprintf(why[i] + n, DEVIMG_REASON_MAX - n, NULL, format,
		      args);
	va_end(args);
}

static bool target_ok(const struct devimg_device_caps *dev,
		      const struct select_cand *c, size_t i,
		      char (*why)[DEVIMG_REASON_MAX])
{
	const char *for_type;

	if (select_target_fits(dev, c->target))
		return true;
	for_type = opencl_type_of(c->target);
	if (dev->backend == DEVIMG_BACKEND_OPENCL && for_type)
		say(why, i, c, "for %s devices, device is %s", for_type,
		    type_names[dev->type]);
	else
		say(why, i, c, "not for backend %s",
		    backend_names[dev->backend]);
	return false;
}

static unsigned effective_format(const struct select_cand *c)
{
	if (c->format != DEVIMG_FORMAT_NONE &&
	    c->format != DEVIMG_FORMAT_COMPRESSED)
		return c->format;
	return format_of_content(c->content);
}

static bool native_ok(const struct devimg_device_caps *dev,
		      const struct select_cand *c, size_t i,
		      char (*why)[DEVIMG_REASON_MAX])
{
	if (!takes_ptx(dev) || c->content != CONTENT_PTX ||
	    !dev->cuda_cc || !c->ptx_sm || c->ptx_sm <= dev->cuda_cc)
		return true;
	say(why, i, c, "PTX for sm_%u, device has compute capability %u.%u",
	    c->ptx_sm, dev->cuda_cc / 10, dev->cuda_cc % 10);
	return false;
}

static bool format_ok(const struct devimg_device_caps *dev,
		      const struct select_cand *c, size_t i,
		      char (*why)[DEVIMG_REASON_MAX])
{
	unsigned f = effective_format(c);
	char label[40];

	if (f > DEVIMG_FORMAT_LLVMBC)
		f = DEVIMG_FORMAT_NONE;
	format_label(c, f, label, sizeof(label));
	switch (f) {
	case DEVIMG_FORMAT_SPIRV:
		if (dev->spirv)
			return true;
		say(why, i, c, "format %s: device has no SPIR-V ingestion",
		    label);
		return false;
	case DEVIMG_FORMAT_LLVMBC:
		if (dev->spir)
			return true;
		say(why, i, c, "format %s: device has no SPIR bitcode ingestion",
		    label);
		return false;
	case DEVIMG_FORMAT_NATIVE:
		return native_ok(dev, c, i, why);
	default:
		if (c->unz_error)
			say(why, i, c, "format compressed: %s", c->unz_error);
		else if (c->stale)
			say(why, i, c,
			    "format none: unregistered before its format was guessed");
		else
			say(why, i, c,
			    "format none: bytes are not SPIR-V, LLVM bitcode, ELF or PTX");
		return false;
	}
}

/* ---- device requirements ---- */

/* "fp16", or "70" for an aspect without a name. */
static const char *aspect_label(uint32_t id, char *buf, size_t size)
{
	const char *name = props_aspect_name(id);

	if (name)
		return name;
	snprintf(buf, size, "%" PRIu32, id);
	return buf;
}

static bool aspects_ok(const struct devimg_device_features *feat,
		       const struct select_cand *c, size_t i,
		       char (*why)[DEVIMG_REASON_MAX])
{
	const struct select_reqs *r = c->reqs;
	char num[16];
	const char *name;
	uint64_t bit;
	size_t j;

	for (j = 0; j < r->naspects; j++) {
		uint32_t a = r->aspects[j];

		bit = a < 64 ? (uint64_t)1 << a : 0;
		if (bit & feat->aspects_known & feat->aspects)
			continue;
		name = aspect_label(a, num, sizeof(num));
		if (bit & feat->aspects_known)
			say(why, i, c, "needs aspect %s, device lacks it", name);
		else if (feat->aspects_reported)
			say(why, i, c, "needs aspect %s, which is not known for the device",
			    name);
		else
			say(why, i, c, "needs aspect %s; the plugin reports no aspects, only the device type's are known",
			    name);
		return false;
	}
	return true;
}

static bool sub_group_ok(const struct devimg_device_features *feat,
			 const struct select_cand *c, size_t i,
			 char (*why)[DEVIMG_REASON_MAX])
{
	uint32_t want = c->reqs->sub_group_size;
	char have[96];
	size_t len = 0;
	unsigned j;

	if (!want)
		return true;
	for (j = 0; j < feat->nsub_group_sizes; j++)
		if (feat->sub_group_sizes[j] == want)
			return true;
	if (!feat->nsub_group_sizes) {
		say(why, i, c, "needs sub-group size %" PRIu32 ", device reports no sub-group sizes",
		    want);
		return false;
	}
	have[0] = '\0';
	for (j = 0; j < feat->nsub_group_sizes && len < sizeof(have); j++)
		len += (size_t)snprintf(have + len, sizeof(have) - len, "%s%" PRIu32,
					j ? ", " : "", feat->sub_group_sizes[j]);
	say(why, i, c, "needs sub-group size %" PRIu32 ", device has %s", want,
	    have);
	return false;
}

/* "8x8x2": the first dims sizes. */
static void size_label(const uint64_t *size, unsigned dims, char *buf,
		       size_t bufsize)
{
	size_t len = 0;
	unsigned d;

	buf[0] = '\0';
	for (d = 0; d < dims && len < bufsize; d++)
		len += (size_t)snprintf(buf + len, bufsize - len, "%s%" PRIu64,
					d ? "x" : "", size[d]);
}

static bool work_group_ok(const struct devimg_device_features *feat,
			  const struct select_cand *c, size_t i,
			  char (*why)[DEVIMG_REASON_MAX])
{
	const struct select_reqs *r = c->reqs;
	uint64_t total = 1;
	char label[72];
	unsigned d;

	if (!r->wg_dims)
		return true;
	size_label(r->wg_size, r->wg_dims, label, sizeof(label));
	for (d = 0; d < r->wg_dims; d++) {
		size_t max = feat->max_work_item_sizes[d];

		if (max && r->wg_size[d] > max) {
			say(why, i, c, "needs work-group size %s, device allows %zu in dimension %u",
			    label, max, d);
			return false;
		}
		total = total > UINT64_MAX / r->wg_size[d] ? UINT64_MAX :
			total * r->wg_size[d];
	}
	if (feat->max_work_group_size && total > feat->max_work_group_size) {
		say(why, i, c, "needs work-group size %s (%" PRIu64 " work-items), device allows %zu",
		    label, total, feat->max_work_group_size);
		return false;
	}
	return true;
}

static bool requirements_ok(const struct devimg_device_features *feat,
			    const struct select_cand *c, size_t i,
			    char (*why)[DEVIMG_REASON_MAX])
{
	if (!feat || !c->reqs)
		return true;
	switch (c->reqs->error) {
	case 0:
		break;
	case -ESTALE:
		say(why, i, c, "unregistered before its device requirements were read");
		return false;
	case -EINVAL:
		say(why, i, c, "malformed device requirements (the log says which)");
		return false;
	default:
		say(why, i, c, "device requirements unreadable: %s",
		    devimg_strerror(c->reqs->error));
		return false;
	}
	return aspects_ok(feat, c, i, why) && sub_group_ok(feat, c, i, why) &&
	       work_group_ok(feat, c, i, why);
}

static bool qualifies(const struct devimg_device_caps *dev,
		      const struct devimg_device_features *feat,
		      const struct select_cand *c, size_t i,
		      char (*why)[DEVIMG_REASON_MAX])
{
	if (c->kind != DEVIMG_KIND_SYCL) {
		say(why, i, c, "offload kind %u is not SYCL (4)", c->kind);
		return false;
	}
	if (!target_ok(dev, c, i, why))
		return false;
	if (!c->size) {
		say(why, i, c, "empty image");
		return false;
	}
	return format_ok(dev, c, i, why) && requirements_ok(feat, c, i, why);
}

/*
 * The first qualifying image with the preferred target, else the first
 * with the second target, else the last with the fallback target.
 */
static size_t pick(const struct devimg_device_caps *dev,
		   const struct select_cand *c, size_t n, const bool *ok)
{
	size_t i, second = SIZE_MAX, last = SIZE_MAX;

	for (i = 0; i < n; i++) {
		if (!ok[i])
			continue;
		if (is(c[i].target, preferred_target(dev)))
			return i;
		if (second == SIZE_MAX && is(c[i].target, second_target(dev)))
			second = i;
		if (is(c[i].target, fallback_target(dev)))
			last = i;
	}
	return second != SIZE_MAX ? second : last;
}

static void explain_passed_over(const struct devimg_device_caps *dev,
				const struct select_cand *c, size_t i,
				size_t chosen, char (*why)[DEVIMG_REASON_MAX])
{
	if (strcmp(c[i].target, c[chosen].target) != 0)
		say(why, i, &c[i], "image %zu (target %.40s) is preferred on %s %s",
		    chosen, c[chosen].target, backend_names[dev->backend],
		    type_names[dev->type]);
	else if (i > chosen)
		say(why, i, &c[i], "the first %.40s image (%zu) is taken",
		    c[chosen].target, chosen);
	else
		say(why, i, &c[i], "the last %.40s image (%zu) is taken",
		    c[chosen].target, chosen);
}

int select_pick(const struct devimg_device_caps *dev,
		const struct select_cand *c, size_t n, size_t *chosen,
		char (*why)[DEVIMG_REASON_MAX])
{
	return select_pick_with(dev, NULL, c, n, chosen, why);
}

int select_pick_with(const struct devimg_device_caps *dev,
		     const struct devimg_device_features *feat,
		     const struct select_cand *c, size_t n, size_t *chosen,
		     char (*why)[DEVIMG_REASON_MAX])
{
	bool ok[64], *okp = ok;
	size_t i, best;
	int r = -ENOEXEC;

	if (!dev || (n && !c) || !chosen || !valid_device(dev))
		return -EINVAL;
	if (!n)
		return -ENOENT;
	if (n > sizeof(ok) / sizeof(ok[0])) {
		okp = calloc(n, sizeof(*okp));
		if (!okp)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		okp[i] = qualifies(dev, feat, &c[i], i, why);
	best = pick(dev, c, n, okp);
	for (i = 0; best != SIZE_MAX && i < n; i++) {
		if (i == best && why)
			why[i][0] = '\0';
		else if (okp[i])
			explain_passed_over(dev, c, i, best, why);
	}
	if (best != SIZE_MAX) {
		*chosen = best;
		r = 0;
	}
	if (okp != ok)
		free(okp);
	return r;
}

/* Fill a candidate, reading bytes only where the rules need them. */
static void describe(const struct devimg_device_caps *dev,
		     struct devimg_image *img, struct select_cand *c)
{
	bool need;

	*c = (struct select_cand){
		.target = img->target,
		.kind = img->kind,
		.format = img->format,
		.size = img->bin_size,
	};
	if (!select_target_fits(dev, img->target) || !img->bin_size)
		return;
	need = img->format == DEVIMG_FORMAT_NONE ||
	       img->format == DEVIMG_FORMAT_COMPRESSED ||
	       (takes_ptx(dev) && dev->cuda_cc);
	if (need && image_content(img, &c->content, &c->ptx_sm) < 0) {
		struct image_unz_view v = { 0 };

		if (img->format == DEVIMG_FORMAT_COMPRESSED &&
		    image_unz_get(img, &v) < 0)
			c->unz_error = v.why;
		if (!c->unz_error)
			c->stale = img->format == DEVIMG_FORMAT_NONE ||
				   img->format == DEVIMG_FORMAT_COMPRESSED;
	}
}

/*
 * The requirements of an image the device could otherwise take; the
 * aspects are the image's (borrowed).
 */
static void describe_reqs(struct devimg_image *img, struct select_reqs *r)
{
	struct devimg_image_reqs reqs = { .size = sizeof(reqs) };
	int err;

	err = devimg_image_requirements(img, &reqs);
	*r = (struct select_reqs){ .error = err };
	if (err == 0) {
		r->aspects = reqs.aspects;
		r->naspects = reqs.naspects;
		r->sub_group_size = reqs.sub_group_size;
		r->wg_dims = reqs.wg_dims;
		memcpy(r->wg_size, reqs.wg_size, sizeof(r->wg_size));
	}
}

/*
 * The caller's caps and features (NULL stays NULL) as the library's own
 * structs; -EINVAL when a size is below the DEVIMG_0.1 size.
 */
static int read_device(const struct devimg_device_caps *dev,
		       const struct devimg_device_features *feat,
		       struct devimg_device_caps *caps,
		       struct devimg_device_features *features)
{
	int err;

	err = api_struct_size("devimg_device_caps", dev->size,
			      DEVIMG_SIZE_0_1(devimg_device_caps, ptx));
	if (err < 0)
		return err;
	api_struct_read(caps, sizeof(*caps), dev);
	if (!feat)
		return 0;
	err = api_struct_size("devimg_device_features", feat->size,
			      DEVIMG_SIZE_0_1(devimg_device_features,
					      max_work_item_sizes));
	if (err < 0)
		return err;
	api_struct_read(features, sizeof(*features), feat);
	return 0;
}

DEVIMG_EXPORT int
devimg_select_image_with(const struct devimg_device_caps *caps,
			 const struct devimg_device_features *features,
			 struct devimg_image *const *imgs, size_t n,
			 size_t *chosen, char (*reasons)[DEVIMG_REASON_MAX])
{
	struct select_cand cands[16] = { 0 }, *c = cands;
	struct devimg_device_caps dev_caps;
	struct devimg_device_features dev_features;
	const struct devimg_device_caps *dev = &dev_caps;
	const struct devimg_device_features *feat;
	struct select_reqs *reqs = NULL;
	size_t i;
	int r = -ENOMEM;

	if (!caps || (n && !imgs) || !chosen)
		return fail_null("devimg_select_image_with");
	r = read_device(caps, features, &dev_caps, &dev_features);
	if (r < 0)
		return r;
	feat = features ? &dev_features : NULL;
	if (!valid_device(dev))
		return fail_dbg(-EINVAL, "devimg_select_image_with: device capabilities: backend %d or type %d unknown",
				(int)dev->backend, (int)dev->type);
	r = -ENOMEM;
	if (n > sizeof(cands) / sizeof(cands[0])) {
		c = calloc(n, sizeof(*c));
		if (!c)
			return fail_dbg(-ENOMEM, "devimg_select_image_with: %zu images: out of memory",
					n);
	}
	if (feat && n) {
		reqs = calloc(n, sizeof(*reqs));
		if (!reqs) {
			fail_dbg(r, "devimg_select_image_with: %zu images: out of memory",
				 n);
			goto out;
		}
	}
	/* What an image lacks is a reason, not the call's failure. */
	error_hold();
	for (i = 0; i < n; i++) {
		describe(dev, imgs[i], &c[i]);
		if (reqs && select_target_fits(dev, imgs[i]->target)) {
			describe_reqs(imgs[i], &reqs[i]);
			c[i].reqs = &reqs[i];
		}
	}
	error_release();
	r = select_pick_with(dev, feat, c, n, chosen, reasons);
	if (r < 0)
		fail_dbg(r, "devimg_select_image_with: none of %zu images fits the %s device: %s",
			 n, devimg_backend_name(dev->backend),
			 devimg_strerror(r));
out:
	free(reqs);
	if (c != cands)
		free(c);
	return r;
}

DEVIMG_EXPORT int devimg_select_image(const struct devimg_device_caps *dev,
				      struct devimg_image *const *imgs,
				      size_t n, size_t *chosen,
				      char (*reasons)[DEVIMG_REASON_MAX])
{
	return devimg_select_image_with(dev, NULL, imgs, n, chosen, reasons);
}
