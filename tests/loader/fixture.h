/* SPDX-License-Identifier: MIT */
/*
 * Hand-built binary descriptors for the loader's unit tests, laid out as a
 * wrapped object's would be, and a log function that captures messages.
 */
#ifndef DEVIMG_TESTS_LOADER_FIXTURE_H
#define DEVIMG_TESTS_LOADER_FIXTURE_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#define FX_IMAGES 8
#define FX_ENTRIES 16
#define FX_SETS 4
#define FX_PROPS 8

struct fixture {
	struct devimg_device_binaries desc;
	struct devimg_device_image images[FX_IMAGES];
	struct devimg_offload_entry entries[FX_IMAGES][FX_ENTRIES];
	struct devimg_property_set sets[FX_IMAGES][FX_SETS];
	struct devimg_property props[FX_IMAGES][FX_SETS][FX_PROPS];
	void *owned[FX_IMAGES * FX_SETS * FX_PROPS];
	size_t nowned;
};

/* An empty descriptor: version 1, no images. */
void fx_init(struct fixture *f);
void fx_fini(struct fixture *f);

/* Append an image (version 2, kind SYCL); returns its index. */
unsigned fx_image(struct fixture *f, const char *target, unsigned format,
		  const void *bin, size_t size);
void fx_entry(struct fixture *f, unsigned img, const char *name);
/* Append a set to an image; returns its index. */
unsigned fx_set(struct fixture *f, unsigned img, const char *name);
void fx_u32(struct fixture *f, unsigned img, unsigned set, const char *name,
	    uint32_t value);
/* A byte array: header for nbits, then the payload (copied). */
void fx_bytes(struct fixture *f, unsigned img, unsigned set, const char *name,
	      const void *payload, uint64_t nbits);
/*
 * A "SYCL/device globals" property: {uint32 size, uint32
 * device_image_scope}, 64 bits, as sycl-post-link writes it.
 */
void fx_global(struct fixture *f, unsigned img, unsigned set, const char *id,
	       uint32_t size, uint32_t scope);
/* Spec-constant descriptors {id, offset, size} x n as a byte array. */
void fx_spec(struct fixture *f, unsigned img, unsigned set, const char *name,
	     const uint32_t *tuples, size_t n);

/* Capture log messages (all priorities) into one newline-joined buffer. */
void fx_log_capture(void);
void fx_log_release(void);
const char *fx_log_text(void);
void fx_log_clear(void);

/* Bytes with the magics the selection rules look at. */
extern const unsigned char fx_spirv[16];
extern const unsigned char fx_llvmbc[16];
extern const unsigned char fx_elf[16];
extern const char fx_ptx[];

#define ck_assert_has(text, sub)					\
	ck_assert_msg(strstr((text), (sub)) != NULL,			\
		      "'%s' lacks '%s'", (text), (sub))

static inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	/* Each test in its own process: a fresh registry. */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
