// SPDX-License-Identifier: MIT
/*
 * Decoders of launch metadata in libdevimg-props: kernel argument masks
 * (bit i of the payload, least significant first), lists of little-endian
 * integers, work-group sizes and aspect names, on byte arrays built here
 * and on .props text as sycl-post-link writes it.
 */
#include <errno.h>

#include "tests/props/testutil.h"
#include "util/errmsg.h"
#include "util/le.h"

/* A byte array: the 8-byte bit count, then the payload. */
struct bytes {
	unsigned char b[8 + 64];
	uint64_t size;
};

static struct bytes mk(const void *payload, size_t n, uint64_t nbits)
{
	struct bytes x;

	memset(&x, 0, sizeof(x));
	put_le64(x.b, nbits);
	if (n)
		memcpy(x.b + 8, payload, n);
	x.size = 8 + n;
	return x;
}

static struct bytes mk_u32(const uint32_t *v, size_t n)
{
	unsigned char p[64];
	size_t i;

	for (i = 0; i < n; i++)
		put_le32(p + i * 4, v[i]);
	return mk(p, n * 4, n * 32);
}

START_TEST(test_arg_mask_bits_lsb_first)
{
	/* Arguments 0 and 2 of 3 eliminated: one byte 0x05. */
	struct bytes x = mk("\x05", 1, 3);
	struct errmsg err = { 0 };
	const unsigned char *mask;
	uint64_t nargs;

	ck_assert_int_eq(props_param_opt_decode(x.b, x.size, "m", &mask,
						&nargs, &err), 0);
	ck_assert_uint_eq(nargs, 3);
	ck_assert_int_eq(props_arg_eliminated(mask, 0), 1);
	ck_assert_int_eq(props_arg_eliminated(mask, 1), 0);
	ck_assert_int_eq(props_arg_eliminated(mask, 2), 1);

	/* Ten arguments: 1 and 8 eliminated, across the byte boundary. */
	x = mk("\x02\x01", 2, 10);
	ck_assert_int_eq(props_param_opt_decode(x.b, x.size, "m", &mask,
						&nargs, &err), 0);
	ck_assert_uint_eq(nargs, 10);
	ck_assert_int_eq(props_arg_eliminated(mask, 1), 1);
	ck_assert_int_eq(props_arg_eliminated(mask, 8), 1);
	ck_assert_int_eq(props_arg_eliminated(mask, 0) +
			 props_arg_eliminated(mask, 7) +
			 props_arg_eliminated(mask, 9), 0);
}
END_TEST

START_TEST(test_arg_mask_malformed)
{
	struct bytes x = mk("\x05", 1, 12);	/* 12 bits need 2 bytes */
	struct errmsg err = { 0 };
	const unsigned char *mask;
	uint64_t nargs = 77;

	ck_assert_int_eq(props_param_opt_decode(x.b, x.size, "set 'S' property 'k'",
						&mask, &nargs, &err), -EINVAL);
	ck_assert_err_has(err, "set 'S' property 'k': header bit count larger than the payload");
	ck_assert_uint_eq(nargs, 77);
	ck_assert_int_eq(props_param_opt_decode(x.b, 4, "k", &mask, &nargs,
						&err), -EINVAL);
	ck_assert_err_has(err, "shorter than its bit-count header");
}
END_TEST

START_TEST(test_uint_list)
{
	static const uint32_t v[] = { 5, 6, 0xffffffffu };
	struct bytes x = mk_u32(v, 3);
	struct errmsg err = { 0 };
	uint64_t out[3] = { 0 }, big[2];
	unsigned char p[16];
	size_t n;

	ck_assert_int_eq(props_uint_list(x.b, x.size, 4, "a", out, 3, &n,
					 &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(out[0], 5);
	ck_assert_uint_eq(out[1], 6);
	ck_assert_uint_eq(out[2], 0xffffffffu);
	/* Fewer places than values: the count is still all of them. */
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(props_uint_list(x.b, x.size, 4, "a", out, 1, &n,
					 &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(out[0], 5);
	ck_assert_uint_eq(out[1], 0);
	ck_assert_int_eq(props_uint_list(x.b, x.size, 4, "a", NULL, 0, &n,
					 &err), 0);
	ck_assert_uint_eq(n, 3);

	put_le64(p, 4096);
	put_le64(p + 8, (uint64_t)1 << 40);
	x = mk(p, 16, 128);
	ck_assert_int_eq(props_uint_list(x.b, x.size, 8, "a", big, 2, &n,
					 &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(big[0], 4096);
	ck_assert_uint_eq(big[1], (uint64_t)1 << 40);

	x = mk("\1\0\0\0\2", 5, 40);
	ck_assert_int_eq(props_uint_list(x.b, x.size, 4, "set 'S' property 'a'",
					 out, 3, &n, &err), -EINVAL);
	ck_assert_err_has(err, "set 'S' property 'a': 40 bits are not whole 32-bit integers");
	ck_assert_int_eq(props_uint_list(x.b, x.size, 3, "a", out, 3, &n,
					 &err), -EINVAL);
	ck_assert_err_has(err, "element size 3, expected 4 or 8");
}
END_TEST

START_TEST(test_work_group_size)
{
	static const uint32_t three[] = { 1, 2, 4 }, one[] = { 8 };
	static const uint32_t four[] = { 1, 2, 3, 4 }, zero[] = { 16, 0 };
	struct errmsg err = { 0 };
	struct bytes x = mk_u32(three, 3);
	uint64_t wg[3];
	unsigned dims;

	ck_assert_int_eq(props_work_group_size(x.b, x.size, 4, "w", wg, &dims,
					       &err), 0);
	ck_assert_uint_eq(dims, 3);
	ck_assert_uint_eq(wg[0], 1);
	ck_assert_uint_eq(wg[1], 2);
	ck_assert_uint_eq(wg[2], 4);
	x = mk_u32(one, 1);
	ck_assert_int_eq(props_work_group_size(x.b, x.size, 4, "w", wg, &dims,
					       &err), 0);
	ck_assert_uint_eq(dims, 1);
	ck_assert_uint_eq(wg[0], 8);
	ck_assert_uint_eq(wg[1], 1);
	ck_assert_uint_eq(wg[2], 1);
	x = mk_u32(four, 4);
	ck_assert_int_eq(props_work_group_size(x.b, x.size, 4, "w", wg, &dims,
					       &err), -EINVAL);
	ck_assert_err_has(err, "w: 4 sizes, expected 0 to 3 (one per dimension)");
	x = mk_u32(zero, 2);
	ck_assert_int_eq(props_work_group_size(x.b, x.size, 4, "w", wg, &dims,
					       &err), -EINVAL);
	ck_assert_err_has(err, "w: size 0 in dimension 1, expected at least 1");
	/* An empty list: no requirement, as DPC++'s runtime reads it. */
	x = mk(NULL, 0, 0);
	ck_assert_int_eq(props_work_group_size(x.b, x.size, 4, "w", wg, &dims,
					       &err), 0);
	ck_assert_uint_eq(dims, 0);
	ck_assert_uint_eq(wg[0], 1);
	ck_assert_uint_eq(wg[2], 1);
}
END_TEST

/*
 * .props text as sycl-post-link writes it: DPC++'s own test expects
 * SpirKernel1@reqd_work_group_size {1, 2, 4} to read as below.
 */
START_TEST(test_from_props_text)
{
	static const char text[] =
		"[SYCL/program metadata]\n"
		"SpirKernel1@reqd_work_group_size=2|gBAAAAAAAAQAAAAACAAAAQAAAAA\n"
		"SpirKernel3@reqd_work_group_size=2|gAAAAAAAAAABAAAA\n"
		"[SYCL/kernel param opt]\n"
		"kernel_a=2|DAAAAAAAAAQB\n"
		"[SYCL/device requirements]\n"
		"aspects=2|ABAAAAAAAAQAAAAAGAAAAA\n"
		"reqd_work_group_size_uint64_t=2|ABAAAAAAAAAQAAAAAAAAAA\n"
		"[Second image's]\n"
		"reqd_work_group_size_uint64_t=2|ABAAAAAAAAAIAAAAAAAAAA\n";
	struct errmsg err = { 0 };
	const struct props_prop *p;
	const struct props_set *s;
	const unsigned char *mask;
	struct props *props;
	uint64_t wg[3], nargs, v[4];
	unsigned dims;
	size_t n;

	ck_assert_int_eq(props_parse(TEXT(text), "t.props", &props, &err), 0);
	s = props_find_set(props, PROPS_SET_PROGRAM_METADATA);
	p = props_set_find(s, "SpirKernel1" PROPS_META_REQD_WORK_GROUP_SIZE);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(props_work_group_size(p->data, p->size, 4, "w", wg,
					       &dims, &err), 0);
	ck_assert_uint_eq(dims, 3);
	ck_assert_uint_eq(wg[0], 1);
	ck_assert_uint_eq(wg[1], 2);
	ck_assert_uint_eq(wg[2], 4);
	p = props_set_find(s, "SpirKernel3@reqd_work_group_size");
	ck_assert_int_eq(props_work_group_size(p->data, p->size, 4, "w", wg,
					       &dims, &err), 0);
	ck_assert_uint_eq(dims, 1);
	ck_assert_uint_eq(wg[0], 4);

	s = props_find_set(props, PROPS_SET_KERNEL_PARAM_OPT);
	p = props_set_find(s, "kernel_a");
	ck_assert_int_eq(props_param_opt_decode(p->data, p->size, "k", &mask,
						&nargs, &err), 0);
	ck_assert_uint_eq(nargs, 3);
	ck_assert_uint_eq(mask[0], 0x05);

	s = props_find_set(props, PROPS_SET_DEVICE_REQS);
	p = props_set_find(s, PROPS_REQ_ASPECTS);
	ck_assert_int_eq(props_uint_list(p->data, p->size, 4, "a", v, 4, &n,
					 &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(v[0], 1);
	ck_assert_uint_eq(v[1], 6);
	ck_assert_str_eq(props_aspect_name((uint32_t)v[0]), "cpu");
	ck_assert_str_eq(props_aspect_name((uint32_t)v[1]), "fp64");
	/* DPC++'s test: two images' reqd_work_group_size_uint64_t, 64 and 32. */
	p = props_set_find(s, PROPS_REQ_WORK_GROUP_SIZE_64);
	ck_assert_int_eq(props_work_group_size(p->data, p->size, 8, "w", wg,
					       &dims, &err), 0);
	ck_assert_uint_eq(dims, 1);
	ck_assert_uint_eq(wg[0], 64);
	p = props_set_find(props_find_set(props, "Second image's"),
			   PROPS_REQ_WORK_GROUP_SIZE_64);
	ck_assert_int_eq(props_work_group_size(p->data, p->size, 8, "w", wg,
					       &dims, &err), 0);
	ck_assert_uint_eq(wg[0], 32);
	props_free(props);
}
END_TEST

START_TEST(test_aspect_names)
{
	ck_assert_str_eq(props_aspect_name(1), "cpu");
	ck_assert_str_eq(props_aspect_name(2), "gpu");
	ck_assert_str_eq(props_aspect_name(3), "accelerator");
	ck_assert_str_eq(props_aspect_name(5), "fp16");
	ck_assert_str_eq(props_aspect_name(6), "fp64");
	ck_assert_str_eq(props_aspect_name(9), "image");
	ck_assert_str_eq(props_aspect_name(12), "queue_profiling");
	ck_assert_str_eq(props_aspect_name(13), "usm_device_allocations");
	ck_assert_str_eq(props_aspect_name(28), "atomic64");
	ck_assert_str_eq(props_aspect_name(61), "ext_intel_fpga_task_sequence");
	ck_assert_ptr_null(props_aspect_name(0));
	ck_assert_ptr_null(props_aspect_name(16));
	ck_assert_ptr_null(props_aspect_name(62));
	ck_assert_ptr_null(props_aspect_name(0xffffffffu));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("launch-props");
	TCase *tc = tcase_create("decode");

	tcase_add_test(tc, test_arg_mask_bits_lsb_first);
	tcase_add_test(tc, test_arg_mask_malformed);
	tcase_add_test(tc, test_uint_list);
	tcase_add_test(tc, test_work_group_size);
	tcase_add_test(tc, test_from_props_text);
	tcase_add_test(tc, test_aspect_names);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
