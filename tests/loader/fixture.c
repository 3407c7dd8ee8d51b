// SPDX-License-Identifier: MIT
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/loader/fixture.h"

const unsigned char fx_spirv[16] = { 0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0 };
const unsigned char fx_llvmbc[16] = { 'B', 'C', 0xc0, 0xde, 0x35, 0x14 };
const unsigned char fx_elf[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
const char fx_ptx[] = "//\n// Generated\n//\n\n.version 7.0\n.target sm_80\n"
		      ".address_size 64\n";

void fx_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->desc.version = DEVIMG_BINARIES_VERSION;
	f->desc.images = f->images;
}

void fx_fini(struct fixture *f)
{
	size_t i;

	for (i = 0; i < f->nowned; i++)
		free(f->owned[i]);
	f->nowned = 0;
}

unsigned fx_image(struct fixture *f, const char *target, unsigned format,
		  const void *bin, size_t size)
{
	unsigned i = f->desc.count++;
	struct devimg_device_image *img = &f->images[i];

	assert(i < FX_IMAGES);
	img->version = DEVIMG_IMAGE_VERSION;
	img->kind = DEVIMG_KIND_SYCL;
	img->format = (uint8_t)format;
	img->target = target;
	img->compile_opts = "";
	img->link_opts = "";
	img->bin_begin = bin;
	img->bin_end = (const unsigned char *)bin + size;
	return i;
}

void fx_entry(struct fixture *f, unsigned img, const char *name)
{
	struct devimg_device_image *di = &f->images[img];
	size_t n = di->entries_begin ?
		(size_t)(di->entries_end - di->entries_begin) : 0;

	assert(n < FX_ENTRIES);
	f->entries[img][n].name = (char *)name;
	di->entries_begin = f->entries[img];
	di->entries_end = f->entries[img] + n + 1;
}

unsigned fx_set(struct fixture *f, unsigned img, const char *name)
{
	struct devimg_device_image *di = &f->images[img];
	size_t n = di->props_begin ?
		(size_t)(di->props_end - di->props_begin) : 0;

	assert(n < FX_SETS);
	f->sets[img][n].name = (char *)name;
	di->props_begin = f->sets[img];
	di->props_end = f->sets[img] + n + 1;
	return (unsigned)n;
}

static struct devimg_property *add_prop(struct fixture *f, unsigned img,
					unsigned set, const char *name)
{
	struct devimg_property_set *s = &f->sets[img][set];
	size_t n = s->begin ? (size_t)(s->end - s->begin) : 0;

	assert(n < FX_PROPS);
	s->begin = f->props[img][set];
	s->end = s->begin + n + 1;
	s->begin[n].name = (char *)name;
	return &s->begin[n];
}

void fx_u32(struct fixture *f, unsigned img, unsigned set, const char *name,
	    uint32_t value)
{
	struct devimg_property *p = add_prop(f, img, set, name);

	p->type = DEVIMG_PROPERTY_UINT32;
	p->size = value;
}

void fx_bytes(struct fixture *f, unsigned img, unsigned set, const char *name,
	      const void *payload, uint64_t nbits)
{
	struct devimg_property *p = add_prop(f, img, set, name);
	size_t n = (size_t)((nbits + 7) / 8);
	unsigned char *buf = calloc(1, 8 + n);
	int i;

	assert(buf);
	for (i = 0; i < 8; i++)
		buf[i] = (unsigned char)(nbits >> (8 * i));
	if (n)
		memcpy(buf + 8, payload, n);
	f->owned[f->nowned++] = buf;
	p->type = DEVIMG_PROPERTY_BYTE_ARRAY;
	p->value = buf;
	p->size = 8 + n;
}

void fx_global(struct fixture *f, unsigned img, unsigned set, const char *id,
	       uint32_t size, uint32_t scope)
{
	unsigned char v[8];
	int i;

	for (i = 0; i < 4; i++) {
		v[i] = (unsigned char)(size >> (8 * i));
		v[4 + i] = (unsigned char)(scope >> (8 * i));
	}
	fx_bytes(f, img, set, id, v, 64);
}

void fx_spec(struct fixture *f, unsigned img, unsigned set, const char *name,
	     const uint32_t *tuples, size_t n)
{
	unsigned char *payload = calloc(n ? n : 1, 12);
	size_t i;
	int b;

	assert(payload);
	for (i = 0; i < n * 3; i++) {
		for (b = 0; b < 4; b++)
			payload[i * 4 + b] = (unsigned char)(tuples[i] >> (8 * b));
	}
	fx_bytes(f, img, set, name, payload, (uint64_t)n * 12 * 8);
	free(payload);
}

/* ---- log capture ---- */

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_buf[16384];
static int saved_priority;

static void capture(void *data, int priority, const char *file, int line,
		    const char *fn, const char *format, va_list args)
	__attribute__((format(printf, 6, 0)));

static void capture(void *data, int priority, const char *file, int line,
		    const char *fn, const char *format, va_list args)
{
	size_t len;

	pthread_mutex_lock(&log_lock);
	len = strlen(log_buf);
	if (len < sizeof(log_buf) - 1) {
		vsnprintf(log_buf + len, sizeof(log_buf) - len, format, args);
		len = strlen(log_buf);
		if (len < sizeof(log_buf) - 1)
			strcat(log_buf, "\n");
	}
	pthread_mutex_unlock(&log_lock);
}

void fx_log_capture(void)
{
	fx_log_clear();
	saved_priority = devimg_get_log_priority();
	devimg_set_log_priority(DEVIMG_LOG_DEBUG);
	devimg_set_log_fn(capture, NULL);
}

void fx_log_release(void)
{
	devimg_set_log_fn(NULL, NULL);
	devimg_set_log_priority(saved_priority);
}

const char *fx_log_text(void)
{
	return log_buf;
}

void fx_log_clear(void)
{
	pthread_mutex_lock(&log_lock);
	log_buf[0] = '\0';
	pthread_mutex_unlock(&log_lock);
}
