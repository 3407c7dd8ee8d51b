// SPDX-License-Identifier: MIT
/*
 * devimg_global_write() and devimg_global_read() through the fake plugin
 * (DEVIMG_TEST_FAKE=globals), which keeps program variables and buffers
 * in host memory and shows them through its exported devimg_fake_*():
 * image-scope globals copied into the program's variable, the memory of
 * the others made once per device, zero-filled, its address written into
 * every program built from an image that defines it; range, scope, host
 * access and missing-operation errors with their messages.
 *
 * Images are SPIR-V modules built here: OpName names a variable and a
 * MaxByteOffset decoration gives its size (how the fake sees variables),
 * HostAccessINTEL decorations (SPV_INTEL_global_variable_host_access)
 * give host access as DPC++'s device compiler writes them.
 */
#include <dlfcn.h>
#include <errno.h>

#include "tests/loader/fixture.h"

#define SET "SYCL/device globals"

#define OP_NAME 5
#define OP_DECORATE 71
#define DEC_MAX_BYTE_OFFSET 45
#define DEC_HOST_ACCESS 6188

struct spv {
	uint32_t w[128];
	size_t n;
};

static void spv_init(struct spv *s)
{
	static const uint32_t header[5] = { 0x07230203, 0x00010400, 0, 16, 0 };

	memcpy(s->w, header, sizeof(header));
	s->n = 5;
}

/* An instruction: opcode, the words fixed (n), then str when not NULL. */
static void spv_op(struct spv *s, uint32_t op, const uint32_t *fixed,
		   size_t n, const char *str)
{
	size_t len = str ? strlen(str) + 1 : 0, words = (len + 3) / 4;

	ck_assert_uint_lt(s->n + 1 + n + words, 128);
	s->w[s->n++] = (uint32_t)(1 + n + words) << 16 | op;
	memcpy(&s->w[s->n], fixed, n * 4);
	s->n += n;
	memset(&s->w[s->n], 0, words * 4);
	if (str)
		memcpy(&s->w[s->n], str, len);
	s->n += words;
}

/* Variable id called name, of size bytes, with host access acc (< 0: none said). */
static void spv_var(struct spv *s, uint32_t id, const char *name,
		    uint32_t size, int acc)
{
	uint32_t sized[3] = { id, DEC_MAX_BYTE_OFFSET, size };
	uint32_t access[3] = { id, DEC_HOST_ACCESS, (uint32_t)acc };

	spv_op(s, OP_NAME, &id, 1, name);
	spv_op(s, OP_DECORATE, sized, 3, NULL);
	if (acc >= 0)
		spv_op(s, OP_DECORATE, access, 3, name);
}

/* The fake device, a queue on it, and what the fake exports. */
struct env {
	struct devimg_ctx *ctx;
	struct devimg_device *dev;
	struct devimg_queue *q;
	int (*var)(unsigned prog, const char *name, void *buf, size_t n);
	unsigned (*count)(const char *what);
};

static void env_open(struct env *e, const char *mode)
{
	void *fake;

	setenv("DEVIMG_PLUGIN_PATH", FAKE_PLUGIN_DIR, 1);
	setenv("DEVIMG_TEST_FAKE", mode, 1);
	unsetenv("DEVIMG_DEVICE_SELECTOR");
	ck_assert_int_eq(devimg_ctx_new(&e->ctx), 0);
	ck_assert_uint_eq(devimg_device_count(e->ctx), 1);
	e->dev = devimg_device_get(e->ctx, 0);
	ck_assert_str_eq(devimg_device_name(e->dev), "devimg fake device");
	ck_assert_int_eq(devimg_queue_new(e->dev, &e->q), 0);
	fake = dlopen(FAKE_PLUGIN_DIR "/devimg-fake.so", RTLD_NOW | RTLD_NOLOAD);
	ck_assert_ptr_nonnull(fake);
	*(void **)&e->var = dlsym(fake, "devimg_fake_program_var");
	*(void **)&e->count = dlsym(fake, "devimg_fake_count");
	ck_assert_ptr_nonnull(e->var);
	ck_assert_ptr_nonnull(e->count);
	dlclose(fake);
}

static void env_close(struct env *e)
{
	devimg_queue_unref(e->q);
	ck_assert_ptr_null(devimg_ctx_unref(e->ctx));
}

/* An image of target whose module is s, with kernel "k". */
static unsigned spv_image(struct fixture *f, const char *target,
			  const struct spv *s)
{
	unsigned img = fx_image(f, target, DEVIMG_FORMAT_SPIRV, s->w,
				s->n * 4);

	fx_entry(f, img, "k");
	return img;
}

/* f: one spir64 image defining id (size bytes, scope), registered. */
static void one_global(struct fixture *f, struct spv *s, const char *id,
		       uint32_t size, uint32_t scope)
{
	spv_init(s);
	spv_var(s, 1, id, size, -1);
	fx_global(f, spv_image(f, "spir64", s), fx_set(f, 0, SET), id, size,
		  scope);
	__sycl_register_lib(&f->desc);
}

/*
 * Images A and B each define an image-scope global of their own and the
 * pointer global uid_p (24 bytes; the variable in each holds an address).
 */
static void two_pointer_images(struct fixture *f, struct spv *a,
			       struct spv *b)
{
	unsigned set;

	spv_init(a);
	spv_var(a, 1, "uid_a", 4, -1);
	spv_var(a, 2, "uid_p", 8, -1);
	spv_init(b);
	spv_var(b, 1, "uid_b", 4, -1);
	spv_var(b, 2, "uid_p", 8, -1);
	set = fx_set(f, spv_image(f, "spir64", a), SET);
	fx_global(f, 0, set, "uid_a", 4, 1);
	fx_global(f, 0, set, "uid_p", 24, 0);
	set = fx_set(f, spv_image(f, "spir64", b), SET);
	fx_global(f, 1, set, "uid_b", 4, 1);
	fx_global(f, 1, set, "uid_p", 24, 0);
}

/* The address a pointer variable holds (little-endian, as the host). */
static uint64_t address_in(const unsigned char *var)
{
	uint64_t v;

	memcpy(&v, var, sizeof(v));
	return v;
}

/* What a test sets up; its teardown frees it (one process per test). */
static struct fixture f;
static struct spv s, a, b;
static struct env e;

static void setup(void)
{
	fx_init(&f);
}

static void teardown(void)
{
	if (e.ctx)
		env_close(&e);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}

static const struct devimg_global *find(const char *id)
{
	const struct devimg_global *g;

	ck_assert_int_eq(devimg_global_find(id, &g), 0);
	return g;
}

START_TEST(image_scope_writes_read_back)
{
	unsigned char in[16], out[16], var[16];
	const struct devimg_global *g;
	unsigned i;

	one_global(&f, &s, "uid_s", 16, 1);
	env_open(&e, "globals");
	g = find("uid_s");
	for (i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i + 1);
	ck_assert_int_eq(devimg_global_write(e.q, g, 0, 16, in), 0);
	ck_assert_uint_eq(e.count("builds"), 1);
	ck_assert_int_eq(e.var(0, "uid_s", var, 16), 0);
	ck_assert_mem_eq(var, in, 16);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(devimg_global_read(e.q, g, 4, 8, out), 0);
	ck_assert_mem_eq(out, in + 4, 8);
	ck_assert_int_eq(devimg_global_write(e.q, g, 15, 1, "z"), 0);
	ck_assert_int_eq(devimg_global_read(e.q, g, 0, 16, out), 0);
	ck_assert_mem_eq(out, in, 15);
	ck_assert_int_eq(out[15], 'z');
	/* One program, from the cache ever after. */
	ck_assert_uint_eq(e.count("builds"), 1);
	ck_assert_uint_eq(e.count("mems"), 0);
}
END_TEST

START_TEST(bytes_past_the_global_are_refused)
{
	const struct devimg_global *g;
	unsigned char buf[32] = { 0 };

	one_global(&f, &s, "uid_r", 16, 1);
	env_open(&e, "globals");
	g = find("uid_r");
	ck_assert_int_eq(devimg_global_write(e.q, g, 8, 9, buf), -EINVAL);
	ck_assert_str_eq(devimg_last_error(),
			 "devimg_global_write: device global 'uid_r': bytes 8..17 outside its 16 bytes");
	ck_assert_int_eq(devimg_global_read(e.q, g, 17, 0, buf), -EINVAL);
	ck_assert_str_eq(devimg_last_error(),
			 "devimg_global_read: device global 'uid_r': bytes 17..17 outside its 16 bytes");
	ck_assert_int_eq(devimg_global_read(e.q, g, SIZE_MAX, 2, buf), -EINVAL);
	ck_assert_int_eq(devimg_global_read(NULL, g, 0, 1, buf), -EINVAL);
	ck_assert_int_eq(devimg_global_read(e.q, NULL, 0, 1, buf), -EINVAL);
	ck_assert_int_eq(devimg_global_read(e.q, g, 0, 1, NULL), -EINVAL);
	/* Nothing was built for refused requests. */
	ck_assert_uint_eq(e.count("builds"), 0);
}
END_TEST

START_TEST(pointer_global_memory_is_made_once)
{
	unsigned char zeros[24] = { 0 }, in[24], out[24], pa[8], pb[8];
	const struct devimg_global *p;
	unsigned i;

	two_pointer_images(&f, &a, &b);
	__sycl_register_lib(&f.desc);
	env_open(&e, "globals");
	/* Each write builds one image's program. */
	ck_assert_int_eq(devimg_global_write(e.q, find("uid_a"), 0, 4, "aaa"), 0);
	ck_assert_int_eq(devimg_global_write(e.q, find("uid_b"), 0, 4, "bbb"), 0);
	ck_assert_uint_eq(e.count("builds"), 2);
	ck_assert_uint_eq(e.count("mems"), 1);
	ck_assert_int_eq(e.var(0, "uid_p", pa, 8), 0);
	ck_assert_int_eq(e.var(1, "uid_p", pb, 8), 0);
	ck_assert_mem_eq(pa, pb, 8);
	ck_assert_uint_ne(address_in(pa), 0);
	p = find("uid_p");
	ck_assert_int_eq(devimg_global_image_scope(p), 0);
	/* Zero-filled: the fake fills new buffers with 0xa5. */
	memset(out, 0xff, sizeof(out));
	ck_assert_int_eq(devimg_global_read(e.q, p, 0, 24, out), 0);
	ck_assert_mem_eq(out, zeros, 24);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(0x40 + i);
	ck_assert_int_eq(devimg_global_write(e.q, p, 0, 24, in), 0);
	ck_assert_int_eq(devimg_global_read(e.q, p, 8, 16, out), 0);
	ck_assert_mem_eq(out, in + 8, 16);
	/* The address in the programs is that memory's (host memory here). */
	ck_assert_mem_eq((const void *)(uintptr_t)address_in(pa), in, 24);
	ck_assert_uint_eq(e.count("mems"), 1);
	ck_assert_uint_eq(e.count("builds"), 2);
}
END_TEST

START_TEST(programs_built_after_first_use_get_the_address)
{
	unsigned char in[24], pa[8], pb[8];
	const struct devimg_global *p;

	two_pointer_images(&f, &a, &b);
	__sycl_register_lib(&f.desc);
	env_open(&e, "globals");
	p = find("uid_p");
	memset(in, 0x3c, sizeof(in));
	ck_assert_int_eq(devimg_global_write(e.q, p, 0, 24, in), 0);
	ck_assert_uint_eq(e.count("builds"), 0);
	ck_assert_uint_eq(e.count("mems"), 1);
	ck_assert_int_eq(devimg_global_read(e.q, find("uid_b"), 0, 4, pb), 0);
	ck_assert_int_eq(devimg_global_read(e.q, find("uid_a"), 0, 4, pa), 0);
	ck_assert_int_eq(e.var(0, "uid_p", pb, 8), 0);
	ck_assert_int_eq(e.var(1, "uid_p", pa, 8), 0);
	ck_assert_mem_eq(pa, pb, 8);
	ck_assert_uint_ne(address_in(pa), 0);
	ck_assert_mem_eq((const void *)(uintptr_t)address_in(pa), in, 24);
	ck_assert_uint_eq(e.count("mems"), 1);
}
END_TEST

START_TEST(image_scope_in_two_images_is_refused)
{
	unsigned char buf[4];

	spv_init(&s);
	spv_var(&s, 1, "uid_2", 4, -1);
	fx_global(&f, spv_image(&f, "spir64", &s), fx_set(&f, 0, SET),
		  "uid_2", 4, 1);
	fx_global(&f, spv_image(&f, "spir64", &s), fx_set(&f, 1, SET),
		  "uid_2", 4, 1);
	__sycl_register_lib(&f.desc);
	env_open(&e, "globals");
	ck_assert_int_eq(devimg_global_read(e.q, find("uid_2"), 0, 4, buf),
			 -EINVAL);
	ck_assert_has(devimg_last_error(),
		      "device global 'uid_2' has device_image_scope, but image ");
	ck_assert_has(devimg_last_error(), "(index 0, target spir64) and image ");
	ck_assert_has(devimg_last_error(),
		      "(index 1, target spir64) both define it for device devimg fake device");
	ck_assert_uint_eq(e.count("builds"), 0);
}
END_TEST

START_TEST(no_image_for_the_device)
{
	unsigned char buf[4];
	unsigned img;

	img = fx_image(&f, "nvptx64", DEVIMG_FORMAT_NATIVE, fx_ptx,
		       strlen(fx_ptx));
	fx_global(&f, img, fx_set(&f, img, SET), "uid_c", 4, 1);
	__sycl_register_lib(&f.desc);
	env_open(&e, "globals");
	ck_assert_int_eq(devimg_global_read(e.q, find("uid_c"), 0, 4, buf),
			 -ENOENT);
	ck_assert_has(devimg_last_error(),
		      "no image compatible with device devimg fake device (fake) defines device global 'uid_c'; image 0 (target nvptx64)");
}
END_TEST

START_TEST(host_access_is_honoured)
{
	const struct devimg_global *ro, *wo, *na, *rw;
	unsigned char buf[4] = { 1, 2, 3, 4 };
	unsigned set;

	spv_init(&s);
	spv_var(&s, 1, "uid_ro", 4, 1);
	spv_var(&s, 2, "uid_wo", 4, 2);
	spv_var(&s, 3, "uid_na", 4, 0);
	spv_var(&s, 4, "uid_rw", 4, 3);
	set = fx_set(&f, spv_image(&f, "spir64", &s), SET);
	fx_global(&f, 0, set, "uid_ro", 4, 1);
	fx_global(&f, 0, set, "uid_wo", 4, 1);
	fx_global(&f, 0, set, "uid_na", 4, 1);
	fx_global(&f, 0, set, "uid_rw", 4, 1);
	__sycl_register_lib(&f.desc);
	env_open(&e, "globals");
	ro = find("uid_ro");
	wo = find("uid_wo");
	na = find("uid_na");
	rw = find("uid_rw");
	ck_assert_int_eq(devimg_global_write(e.q, ro, 0, 4, buf), -EACCES);
	ck_assert_str_eq(devimg_last_error(),
			 "device global 'uid_ro' has host access 'read': the host may not write it");
	ck_assert_int_eq(devimg_global_read(e.q, ro, 0, 4, buf), 0);
	ck_assert_int_eq(devimg_global_read(e.q, wo, 0, 4, buf), -EACCES);
	ck_assert_str_eq(devimg_last_error(),
			 "device global 'uid_wo' has host access 'write': the host may not read it");
	ck_assert_int_eq(devimg_global_write(e.q, wo, 0, 4, buf), 0);
	ck_assert_int_eq(devimg_global_write(e.q, na, 0, 4, buf), -EACCES);
	ck_assert_int_eq(devimg_global_read(e.q, na, 0, 4, buf), -EACCES);
	ck_assert_str_eq(devimg_last_error(),
			 "device global 'uid_na' has host access 'none': the host may not read it");
	ck_assert_int_eq(devimg_global_write(e.q, rw, 0, 4, buf), 0);
	ck_assert_int_eq(devimg_global_read(e.q, rw, 0, 4, buf), 0);
}
END_TEST

START_TEST(a_plugin_without_the_operations)
{
	unsigned char buf[24] = { 0 };

	two_pointer_images(&f, &a, &b);
	__sycl_register_lib(&f.desc);
	env_open(&e, "globals-short");
	ck_assert_int_eq(devimg_global_write(e.q, find("uid_a"), 0, 4, buf),
			 -ENOTSUP);
	ck_assert_has(devimg_last_error(),
		      "device global 'uid_a' in the program of image ");
	ck_assert_has(devimg_last_error(),
		      "on devimg fake device: the fake plugin (");
	ck_assert_has(devimg_last_error(), ") has no global_write operation");
	ck_assert_int_eq(devimg_global_read(e.q, find("uid_p"), 0, 24, buf),
			 -ENOTSUP);
	ck_assert_has(devimg_last_error(),
		      "device global 'uid_p' on devimg fake device: the fake plugin (");
	ck_assert_has(devimg_last_error(), ") has no mem_address operation");
	/* The memory made for the address it could not tell is gone again. */
}
END_TEST

START_TEST(an_unloaded_global_is_not_found)
{
	const struct devimg_global *g;
	unsigned char buf[4];

	one_global(&f, &s, "uid_gone", 4, 1);
	env_open(&e, "globals");
	g = find("uid_gone");
	__sycl_unregister_lib(&f.desc);
	ck_assert_int_eq(devimg_global_read(e.q, g, 0, 4, buf), -ENOENT);
	ck_assert_str_eq(devimg_last_error(),
			 "no registered image defines device global 'uid_gone'");
}
END_TEST

static Suite *global_rw_suite(void)
{
	Suite *suite = suite_create("global-rw");
	TCase *tc = tcase_create("fake");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, image_scope_writes_read_back);
	tcase_add_test(tc, bytes_past_the_global_are_refused);
	tcase_add_test(tc, pointer_global_memory_is_made_once);
	tcase_add_test(tc, programs_built_after_first_use_get_the_address);
	tcase_add_test(tc, image_scope_in_two_images_is_refused);
	tcase_add_test(tc, no_image_for_the_device);
	tcase_add_test(tc, host_access_is_honoured);
	tcase_add_test(tc, a_plugin_without_the_operations);
	tcase_add_test(tc, an_unloaded_global_is_not_found);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return run_suite(global_rw_suite());
}
