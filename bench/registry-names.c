// SPDX-License-Identifier: MIT
/*
 * The registry's cost for repeated kernel names against as many distinct
 * ones: descriptors built in memory, then, timed, registration
 * (__sycl_register_lib), the first read that settles them
 * (devimg_registry_status), one lookup of every distinct name collecting
 * all its images (devimg_registry_find_kernel, as dispatch does), and
 * unregistration (__sycl_unregister_lib).
 *
 *   registry-names N ROUNDS
 *
 * Three shapes of N entries, each once with N distinct names and once
 * with repeated ones:
 *   one image    1 image of N entries; repeated: all the same name
 *   many images  N images of 1 entry (descriptors of at most 50,000
 *                images); repeated: all the same name
 *   names x 200  200 images of N / 200 entries; repeated: the same
 *                N / 200 names in every image
 * The two variants of a shape run alternately ROUNDS times; each prints
 * its median per phase, and the shape its median of the per-round ratios
 * repeated / distinct of the total, with PASS when it is at most 2.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <devimg/devimg.h>

#define TARGET_RATIO 2.0
#define IMAGES_PER_DESC 50000
#define MAX_ROUNDS 101

enum { REGISTER, SETTLE, LOOKUP, UNREGISTER, TOTAL, NPHASES };

static const char *const phase_names[NPHASES] = {
	"register", "settle", "lookup", "unregister", "total"
};

struct shape {
	const char *name;
	size_t nimages;
	size_t per_image;		/* entries per image */
	size_t nnames_repeated;		/* distinct names when repeated */
};

/* One variant's descriptors and the names to look up. */
struct setup {
	struct devimg_device_binaries *descs;
	size_t ndescs;
	struct devimg_device_image *images;
	struct devimg_offload_entry *entries;
	char **names;			/* the distinct names */
	size_t nnames;
	size_t per_name;		/* images defining each name */
};

static const unsigned char spirv[16] = { 0x03, 0x02, 0x23, 0x07, 0, 0, 1 };

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "registry-names: out of memory\n");
		exit(1);
	}
	return p;
}

/*
 * Entry j of image i is name (i * per_image + j) when distinct, else
 * name j % nnames_repeated.
 */
static void setup_build(struct setup *s, const struct shape *sh,
			bool repeated)
{
	size_t total = sh->nimages * sh->per_image, i, j, d;
	char buf[96];

	s->nnames = repeated ? sh->nnames_repeated : total;
	s->per_name = repeated ? sh->nimages : 1;
	s->names = xcalloc(s->nnames, sizeof(*s->names));
	for (i = 0; i < s->nnames; i++) {
		snprintf(buf, sizeof(buf),
			 "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%zu", i);
		s->names[i] = strdup(buf);
		if (!s->names[i]) {
			fprintf(stderr, "registry-names: out of memory\n");
			exit(1);
		}
	}
	s->entries = xcalloc(total, sizeof(*s->entries));
	s->images = xcalloc(sh->nimages, sizeof(*s->images));
	for (i = 0; i < sh->nimages; i++) {
		struct devimg_device_image *img = &s->images[i];
		struct devimg_offload_entry *e = s->entries + i * sh->per_image;

		for (j = 0; j < sh->per_image; j++)
			e[j].name = s->names[repeated ?
					     j % sh->nnames_repeated :
					     i * sh->per_image + j];
		img->version = DEVIMG_IMAGE_VERSION;
		img->kind = DEVIMG_KIND_SYCL;
		img->format = DEVIMG_FORMAT_SPIRV;
		img->target = "spir64";
		img->bin_begin = spirv;
		img->bin_end = spirv + sizeof(spirv);
		img->entries_begin = e;
		img->entries_end = e + sh->per_image;
	}
	s->ndescs = (sh->nimages + IMAGES_PER_DESC - 1) / IMAGES_PER_DESC;
	s->descs = xcalloc(s->ndescs, sizeof(*s->descs));
	for (d = 0; d < s->ndescs; d++) {
		size_t first = d * IMAGES_PER_DESC;
		size_t n = sh->nimages - first;

		s->descs[d].version = DEVIMG_BINARIES_VERSION;
		s->descs[d].count = (uint16_t)(n < IMAGES_PER_DESC ?
					       n : IMAGES_PER_DESC);
		s->descs[d].images = s->images + first;
	}
}

static void setup_free(struct setup *s)
{
	size_t i;

	for (i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->entries);
	free(s->images);
	free(s->descs);
}

static void fail(const char *what, const char *name)
{
	fprintf(stderr, "registry-names: %s%s%s\n", what, name ? ": " : "",
		name ? name : "");
	exit(1);
}

/* One timed round: milliseconds per phase in t. */
static void run_round(const struct setup *s, struct devimg_image **imgs,
		      size_t max, double t[NPHASES])
{
	size_t d, i, j, n;
	double t0;

	t0 = now_ms();
	for (d = 0; d < s->ndescs; d++)
		__sycl_register_lib(&s->descs[d]);
	t[REGISTER] = now_ms() - t0;

	t0 = now_ms();
	if (devimg_registry_status() != 0)
		fail("registration failed", NULL);
	t[SETTLE] = now_ms() - t0;

	t0 = now_ms();
	for (i = 0; i < s->nnames; i++) {
		if (devimg_registry_find_kernel(s->names[i], imgs, max, &n) ||
		    n != s->per_name)
			fail("wrong lookup result", s->names[i]);
		for (j = 0; j < n; j++)
			devimg_image_unref(imgs[j]);
	}
	t[LOOKUP] = now_ms() - t0;

	t0 = now_ms();
	for (d = 0; d < s->ndescs; d++)
		__sycl_unregister_lib(&s->descs[d]);
	t[UNREGISTER] = now_ms() - t0;

	if (devimg_registry_images(NULL, 0, &n) != 0 || n)
		fail("images left after unregistration", NULL);
	t[TOTAL] = t[REGISTER] + t[SETTLE] + t[LOOKUP] + t[UNREGISTER];
}

static bool run_shape(const struct shape *sh, int rounds)
{
	static double t[2][NPHASES][MAX_ROUNDS], ratio[MAX_ROUNDS];
	struct setup s[2];
	struct devimg_image **imgs;
	double round_t[NPHASES], med[2][NPHASES], r;
	int v, p, k;

	imgs = xcalloc(sh->nimages, sizeof(*imgs));
	for (v = 0; v < 2; v++)
		setup_build(&s[v], sh, v);
	/* Alternate, the variant that starts changing each round. */
	for (k = 0; k < rounds; k++) {
		for (v = 0; v < 2; v++) {
			int w = (k + v) % 2;

			run_round(&s[w], imgs, sh->nimages, round_t);
			for (p = 0; p < NPHASES; p++)
				t[w][p][k] = round_t[p];
		}
		ratio[k] = t[1][TOTAL][k] / t[0][TOTAL][k];
	}
	for (v = 0; v < 2; v++) {
		for (p = 0; p < NPHASES; p++)
			med[v][p] = median(t[v][p], (size_t)rounds);
	}
	r = median(ratio, (size_t)rounds);
	printf("-- %s: %zu images x %zu entries (%zu descriptors); repeated: %zu names\n",
	       sh->name, sh->nimages, sh->per_image, s[0].ndescs,
	       sh->nnames_repeated);
	printf("   %-10s %12s %12s\n", "ms", "distinct", "repeated");
	for (p = 0; p < NPHASES; p++)
		printf("   %-10s %12.2f %12.2f\n", phase_names[p], med[0][p],
		       med[1][p]);
	printf("   ratio repeated/distinct %.2f (target <= %.1f): %s\n", r,
	       TARGET_RATIO, r <= TARGET_RATIO ? "PASS" : "MISS");
	for (v = 0; v < 2; v++)
		setup_free(&s[v]);
	free(imgs);
	return r <= TARGET_RATIO;
}

int main(int argc, char **argv)
{
	size_t n;
	int rounds, pass = 0, i;

	if (argc != 3) {
		fprintf(stderr, "usage: registry-names N ROUNDS\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	rounds = atoi(argv[2]);
	if (n < 200 || n % 200 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "registry-names: N a multiple of 200, 1 <= ROUNDS <= %d\n",
			MAX_ROUNDS);
		return 2;
	}
	{
		const struct shape shapes[] = {
			{ "one image", 1, n, 1 },
			{ "many images", n, 1, 1 },
			{ "names x 200", 200, n / 200, n / 200 },
		};

		for (i = 0; i < 3; i++)
			pass += run_shape(&shapes[i], rounds);
	}
	printf("repeated names within %.1fx of distinct: %d of 3 shapes %s\n",
	       TARGET_RATIO, pass, pass == 3 ? "PASS" : "MISS");
	return 0;
}
