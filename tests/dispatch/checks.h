/* SPDX-License-Identifier: MIT */
/*
 * The dispatch suite's checks that every backend's runner makes on the
 * suite's kernels (tests/dispatch/dispatch.cl and its SPIR-V, PTX and
 * Level Zero forms): dispatch-run on OpenCL and CUDA, where the device
 * runs them and results are read back (RUNNER_SUMS), and contract-run on
 * the Level Zero recording driver, which runs nothing (RUNNER_COPIES:
 * each launch is followed by a finish, and the shell test reads what the
 * driver was asked in its call log). Include after runner.h, once.
 */
#ifndef DEVIMG_TESTS_DISPATCH_CHECKS_H
#define DEVIMG_TESTS_DISPATCH_CHECKS_H

#include "tests/runner.h"

/* offN (N = dims) launched at offset off over glob, what it wrote in out. */
struct dispatch_offset {
	unsigned dims;
	char name[8];
	size_t ext[3], total;
	int *out;
	struct devimg_kernel *k;
	struct devimg_buf *b;
};

/*
 * Make offN for dims dimensions (its argument count checked where the
 * driver reports it: RUNNER_COPIES), a zeroed buffer of the extent it
 * covers (ext = off + glob in the dimensions used, else 1, so w = ext[0]
 * and h = ext[1]: 8 and 6), its arguments set, and launch it at offset
 * off over glob. The caller checks, finishes and releases.
 */
static inline int dispatch_offset_launch(struct env *e,
					 struct dispatch_offset *o,
					 unsigned dims, enum runner_check check)
{
	static const size_t off[3] = { 3, 2, 1 }, glob[3] = { 5, 4, 3 };
	unsigned i, w, h;
	int err;

	o->dims = dims;
	o->ext[0] = o->ext[1] = o->ext[2] = 1;
	for (i = 0; i < dims; i++)
		o->ext[i] = off[i] + glob[i];
	o->total = o->ext[0] * o->ext[1] * o->ext[2];
	o->out = calloc(o->total, sizeof(*o->out));
	CHECK(o->out, "calloc");
	snprintf(o->name, sizeof(o->name), "off%u", dims);
	err = devimg_kernel_new(e->dev, o->name, &o->k);
	CHECK(err == 0, "kernel_new(%s): %d", o->name, err);
	if (check == RUNNER_COPIES)
		CHECK(devimg_kernel_arg_count(o->k) == dims,
		      "%s has %u arguments", o->name,
		      devimg_kernel_arg_count(o->k));
	if (runner_buf_with(e, o->out, o->total * sizeof(*o->out), &o->b))
		return -1;
	w = (unsigned)o->ext[0];
	h = (unsigned)o->ext[1];
	CHECK(!devimg_kernel_set_arg_buf(o->k, 0, o->b), "arg 0");
	if (dims > 1)
		CHECK(!devimg_kernel_set_arg(o->k, 1, sizeof(w), &w), "arg w");
	if (dims > 2)
		CHECK(!devimg_kernel_set_arg(o->k, 2, sizeof(h), &h), "arg h");
	err = devimg_launch(e->q, o->k, dims, off, glob, NULL);
	CHECK(err == 0, "launch %s with an offset: %d", o->name, err);
	return 0;
}

/*
 * reduce(in, scale, local int[L], out): each group of L sums its inputs
 * times scale, with local memory between ordinary arguments, in a group
 * size given. Level Zero also checks the argument count (4) that
 * zeKernelGetProperties gives.
 */
static inline int dispatch_reduce(struct env *e, enum runner_check check)
{
	enum { N = 256, L = 32, G = N / L };
	int in[N], out[G] = { 0 }, want, i, j, scale = 3, err;
	struct devimg_buf *bi, *bo;
	struct devimg_kernel *k;
	size_t g = N, l = L;

	for (i = 0; i < N; i++)
		in[i] = i * 7 - 300;
	err = devimg_kernel_new(e->dev, "reduce", &k);
	CHECK(err == 0, "kernel_new(reduce): %d", err);
	if (check == RUNNER_COPIES)
		CHECK(devimg_kernel_arg_count(k) == 4,
		      "reduce has %u arguments", devimg_kernel_arg_count(k));
	if (runner_buf_with(e, in, sizeof(in), &bi) ||
	    runner_buf_with(e, out, sizeof(out), &bo))
		return -1;
	CHECK(!devimg_kernel_set_arg_buf(k, 0, bi) &&
	      !devimg_kernel_set_arg(k, 1, sizeof(scale), &scale) &&
	      !devimg_kernel_set_arg_local(k, 2, L * sizeof(int)) &&
	      !devimg_kernel_set_arg_buf(k, 3, bo), "args");
	err = devimg_launch(e->q, k, 1, NULL, &g, &l);
	CHECK(err == 0, "launch reduce: %d", err);
	if (check == RUNNER_COPIES) {
		CHECK(!devimg_queue_finish(e->q), "finish");
	} else {
		CHECK(!devimg_buf_read(e->q, bo, 0, sizeof(out), out), "read");
		for (i = 0; i < G; i++) {
			for (want = 0, j = 0; j < L; j++)
				want += in[i * L + j];
			CHECK(out[i] == want * scale, "group %d: %d, want %d",
			      i, out[i], want * scale);
		}
	}
	devimg_kernel_unref(k);
	devimg_buf_unref(bi);
	devimg_buf_unref(bo);
	printf("ok local-memory reduction with ordinary arguments\n");
	return 0;
}

/*
 * Launch spec_k and check that the context has made builds programs by
 * then. RUNNER_SUMS: its output cleared first, then what it wrote checked
 * against want (ScalarSpec + add, StructSpec.c, StructSpec.i).
 */
static inline int dispatch_spec_run(struct env *e, struct devimg_kernel *k,
				    struct devimg_buf *b,
				    enum runner_check check, int want0,
				    int want1, int want2, unsigned builds)
{
	static const int clear[3] = { -7777, -7777, -7777 };
	size_t g = 1;
	int out[3], err;

	if (check == RUNNER_SUMS)
		CHECK(!devimg_buf_write(e->q, b, 0, sizeof(clear), clear),
		      "clear");
	err = devimg_launch(e->q, k, 1, NULL, &g, NULL);
	CHECK(err == 0, "launch spec_k: %d", err);
	if (check == RUNNER_COPIES) {
		CHECK(!devimg_queue_finish(e->q), "finish");
	} else {
		CHECK(!devimg_buf_read(e->q, b, 0, sizeof(out), out), "read");
		CHECK(out[0] == want0 && out[1] == want1 && out[2] == want2,
		      "spec_k gave %d %d %d, want %d %d %d", out[0], out[1],
		      out[2], want0, want1, want2);
	}
	CHECK(devimg_ctx_stat_builds(e->ctx) == builds,
	      "spec_k giving %d %d %d: the context built %u programs, want %u",
	      want0, want1, want2, devimg_ctx_stat_builds(e->ctx), builds);
	return 0;
}

/*
 * spec_k with ScalarSpec (int, default 7) and StructSpec { char c; int i; }
 * (defaults 3 and 100), as tests/dispatch/spec.props describes them.
 * Emulated (SPIR bitcode, PTX): the values travel in the implicit last
 * argument, so no launch builds. Native (SPIR-V with SpecIds, on a device
 * that takes them; Level Zero always): a program per set of values: a
 * launch with unchanged values reuses it, new values build once, values
 * seen before (the defaults included) come from the program cache.
 */
static inline int dispatch_spec(struct env *e, int native,
				enum runner_check check)
{
	struct { char c; int i; } sv = { 9, 4242 };
	struct devimg_kernel *k;
	struct devimg_buf *b;
	unsigned n0, one = native ? 1 : 0;
	int add = 10, v, err;

	err = devimg_kernel_new(e->dev, "spec_k", &k);
	CHECK(err == 0, "kernel_new(spec_k): %d", err);
	CHECK(sizeof(sv) == 8, "struct layout");
	CHECK(devimg_kernel_arg_count(k) == 2,
	      "spec_k: %u user arguments, want 2 (%s)",
	      devimg_kernel_arg_count(k),
	      native ? "native spec constants" : "the buffer is implicit");
	CHECK(!devimg_buf_new(e->dev, 3 * sizeof(int), &b), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, b) &&
	      !devimg_kernel_set_arg(k, 1, sizeof(add), &add), "args");
	CHECK(devimg_kernel_set_arg(k, 2, sizeof(add), &add) == -EINVAL,
	      "the implicit argument is not the user's");
	n0 = devimg_ctx_stat_builds(e->ctx);
	if (dispatch_spec_run(e, k, b, check, 7 + 10, 3, 100, n0))
		return -1;
	v = 55;
	CHECK(!devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v),
	      "set ScalarSpec");
	if (dispatch_spec_run(e, k, b, check, 55 + 10, 3, 100, n0 + one) ||
	    dispatch_spec_run(e, k, b, check, 55 + 10, 3, 100, n0 + one))
		return -1;
	CHECK(!devimg_kernel_set_spec_const(k, "StructSpec", sizeof(sv), &sv),
	      "set StructSpec");
	if (dispatch_spec_run(e, k, b, check, 55 + 10, 9, 4242, n0 + 2 * one))
		return -1;
	v = -1;
	CHECK(!devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v),
	      "set ScalarSpec again");
	if (dispatch_spec_run(e, k, b, check, -1 + 10, 9, 4242, n0 + 3 * one))
		return -1;
	/* Back to values built before, then the same value set again. */
	v = 55;
	CHECK(!devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v),
	      "set ScalarSpec back");
	if (dispatch_spec_run(e, k, b, check, 55 + 10, 9, 4242, n0 + 3 * one))
		return -1;
	CHECK(!devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v),
	      "set ScalarSpec to its value");
	if (dispatch_spec_run(e, k, b, check, 55 + 10, 9, 4242, n0 + 3 * one))
		return -1;
	/* Every value back to its default: the program built first. */
	v = 7;
	sv.c = 3;
	sv.i = 100;
	CHECK(!devimg_kernel_set_spec_const(k, "ScalarSpec", sizeof(v), &v) &&
	      !devimg_kernel_set_spec_const(k, "StructSpec", sizeof(sv), &sv),
	      "set the defaults");
	if (dispatch_spec_run(e, k, b, check, 7 + 10, 3, 100, n0 + 3 * one))
		return -1;
	CHECK(devimg_kernel_set_spec_const(k, "NoSuchSpec", 4, &v) == -ENOENT,
	      "unknown constant");
	CHECK(strstr(devimg_last_error(), "NoSuchSpec"), "message: %s",
	      devimg_last_error());
	CHECK(devimg_kernel_set_spec_const(k, "ScalarSpec", 2, &v) == -EINVAL,
	      "wrong size");
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	if (native)
		printf("ok native spec constants: defaults, overrides, a build per new set of values, cache hits\n");
	else
		printf("ok emulated spec constants: defaults, overrides, changes, no rebuild\n");
	return 0;
}

#endif
