// SPDX-License-Identifier: MIT
/*
 * Names from outside reach messages escaped: registration messages, log
 * lines (a custom log function and the default one on stderr), the
 * calling thread's devimg_last_error(); and with --device (run by
 * tests/loader/escape-device.sh, which first makes sure an OpenCL device
 * is there), end to end on that device, a kernel whose descriptor name,
 * target and options hold
 * ESC [ 2 J and a forged "\nFAIL" line: devimg_last_error() and the
 * DEVIMG_TRACE=2 output on stderr show \x1b, never the raw byte or a line
 * of the name's own; the same on images the device takes, where the
 * plugin's message quotes them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "loader/dispatch/dispatch.h"
#include "tests/loader/fixture.h"
#include "util/errmsg.h"

#define EVIL "\x1b[2J\nFAIL"
#define EVIL_ESC "\\x1b[2J\\x0aFAIL"

static void assert_clean(const char *text)
{
	ck_assert_msg(!strchr(text, '\x1b'), "raw ESC in '%s'", text);
	ck_assert_msg(!strstr(text, "\nFAIL") && strncmp(text, "FAIL", 4),
		      "a forged line in '%s'", text);
}

/* Everything written to stderr while fn runs. */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	char *text;
	long n;

	ck_assert(f && saved >= 0);
	fflush(stderr);
	ck_assert_int_ge(dup2(fileno(f), 2), 0);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	text = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(text);
	rewind(f);
	ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return text;
}

START_TEST(test_msg)
{
	struct errmsg m;

	errmsg_esc(&m, -EINVAL, "set '%s' property %zu", EVIL, (size_t)3);
	ck_assert_int_eq(m.code, -EINVAL);
	ck_assert_str_eq(m.msg, "set '" EVIL_ESC "' property 3");
}
END_TEST

START_TEST(test_log_fn)
{
	fx_log_capture();
	log_err("kernel '%s' target %s", EVIL, "a\\b");
	fx_log_release();
	ck_assert_has(fx_log_text(), "kernel '" EVIL_ESC "' target a\\\\b");
	assert_clean(fx_log_text());
}
END_TEST

static void log_some(void *arg)
{
	devimg_set_log_priority(DEVIMG_LOG_DEBUG);
	log_dbg("name %s", (const char *)arg);
	backend_fail(-ENOENT, "no kernel '%s'", (const char *)arg);
}

START_TEST(test_log_stderr)
{
	char *text = capture_stderr(log_some, EVIL);

	ck_assert_has(text, "libdevimg: ");
	ck_assert_has(text, "name " EVIL_ESC "\n");
	ck_assert_has(text, "no kernel '" EVIL_ESC "'\n");
	assert_clean(text);
	free(text);
}
END_TEST

START_TEST(test_last_error)
{
	char long_name[6000];

	ck_assert_int_eq(backend_fail(-ENOENT, "no kernel '%s'", EVIL),
			 -ENOENT);
	ck_assert_str_eq(devimg_last_error(), "no kernel '" EVIL_ESC "'");
	backend_fail_prefix(-ENOENT, "on %s", "dev\x07");
	ck_assert_str_eq(devimg_last_error(),
			 "on dev\\x07: no kernel '" EVIL_ESC "'");
	/* Cut at the bound between two escapes. */
	memset(long_name, '\x1b', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	backend_fail(-ENOENT, "x%s", long_name);
	ck_assert_uint_eq(strlen(devimg_last_error()), 1 + 1023 * 4);
	assert_clean(devimg_last_error());
	backend_fail_prefix(-ENOENT, "yy");
	ck_assert_uint_eq(strlen(devimg_last_error()), 4 + 1 + 1022 * 4);
}
END_TEST

struct run {
	struct fixture f;
	int err;
	int ndevs;
	char msg[4096];
};

static void run_kernel(void *arg)
{
	struct run *r = arg;
	struct devimg_kernel *k = NULL;
	struct devimg_ctx *ctx;

	__sycl_register_lib(&r->f.desc);
	r->err = devimg_ctx_new(&ctx);
	if (r->err < 0) {
		snprintf(r->msg, sizeof(r->msg), "%s", devimg_last_error());
		return;
	}
	r->ndevs = (int)devimg_device_count(ctx);
	if (r->ndevs) {
		r->err = devimg_kernel_new(devimg_device_get(ctx, 0),
					   "k" EVIL, &k);
		snprintf(r->msg, sizeof(r->msg), "%s", devimg_last_error());
		if (k)
			devimg_kernel_unref(k);
	}
	devimg_ctx_unref(ctx);
	__sycl_unregister_lib(&r->f.desc);
}

START_TEST(test_kernel_on_device)
{
	static struct run r;
	unsigned i;
	char *text;

	setenv("DEVIMG_PLUGIN_PATH", PLUGIN_DIR, 1);
	setenv("DEVIMG_TRACE", "2", 1);
	fx_init(&r.f);
	/* SPIR-V and SPIR headers: one of them is taken, or none is. */
	i = fx_image(&r.f, "spir64" EVIL, DEVIMG_FORMAT_SPIRV, fx_spirv,
		     sizeof(fx_spirv));
	fx_entry(&r.f, i, "k" EVIL);
	r.f.images[i].compile_opts = "-O2" EVIL;
	i = fx_image(&r.f, "spir64" EVIL, DEVIMG_FORMAT_LLVMBC, fx_llvmbc,
		     sizeof(fx_llvmbc));
	fx_entry(&r.f, i, "k" EVIL);
	r.f.images[i].compile_opts = "-O2" EVIL;
	text = capture_stderr(run_kernel, &r);
	ck_assert_msg(r.ndevs > 0, "no device: %s", r.msg);
	ck_assert_msg(r.err < 0, "the kernel of garbage images was made");
	printf("devimg_last_error(): %s\n", r.msg);
	ck_assert_has(r.msg, EVIL_ESC);
	assert_clean(r.msg);
	ck_assert_has(text, "libdevimg: ");
	ck_assert_has(text, EVIL_ESC);
	assert_clean(text);
	free(text);
	fx_fini(&r.f);
}
END_TEST

/* The whole of path, or NULL when it cannot be read. */
static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*size = buf ? (size_t)n : 0;
	fclose(f);
	return buf;
}

/*
 * The same names and options on images the device can take (the dispatch
 * suite's kernels as SPIR bitcode and as SPIR-V), so that the plugin
 * builds the program with the options and looks the kernel up by name:
 * the plugin's own message quotes them, and must not forge a line either
 * (only a build log keeps its lines).
 */
START_TEST(test_kernel_through_plugin)
{
	static struct run r;
	static const struct { const char *file; unsigned format; } imgs[] = {
		{ DISPATCH_DIR "/dispatch.bc", DEVIMG_FORMAT_LLVMBC },
		{ DISPATCH_DIR "/dispatch.spv", DEVIMG_FORMAT_SPIRV },
	};
	void *bytes[2] = { NULL, NULL };
	unsigned i, j, n = 0;
	size_t size;
	char *text;

	setenv("DEVIMG_PLUGIN_PATH", PLUGIN_DIR, 1);
	setenv("DEVIMG_TRACE", "2", 1);
	fx_init(&r.f);
	for (j = 0; j < 2; j++) {
		bytes[j] = read_file(imgs[j].file, &size);
		if (!bytes[j])
			continue;
		i = fx_image(&r.f, "spir64", imgs[j].format, bytes[j], size);
		fx_entry(&r.f, i, "k" EVIL);
		r.f.images[i].compile_opts = "-DX" EVIL;
		n++;
	}
	ck_assert_msg(n > 0, "no image built in %s", DISPATCH_DIR);
	text = capture_stderr(run_kernel, &r);
	ck_assert_msg(r.ndevs > 0, "no device: %s", r.msg);
	ck_assert_msg(r.err < 0, "kernel 'k' EVIL was made");
	printf("devimg_last_error(): %s\n", r.msg);
	ck_assert_has(r.msg, EVIL_ESC);
	assert_clean(r.msg);
	ck_assert_has(text, EVIL_ESC);
	assert_clean(text);
	free(text);
	fx_fini(&r.f);
	free(bytes[0]);
	free(bytes[1]);
}
END_TEST

static Suite *escape_suite(int device)
{
	Suite *s = suite_create("loader-escape");
	TCase *tc = tcase_create("escape");

	tcase_set_timeout(tc, 120);
	if (device) {
		tcase_add_test(tc, test_kernel_on_device);
		tcase_add_test(tc, test_kernel_through_plugin);
	} else {
		tcase_add_test(tc, test_msg);
		tcase_add_test(tc, test_log_fn);
		tcase_add_test(tc, test_log_stderr);
		tcase_add_test(tc, test_last_error);
	}
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	int device = argc == 2 && !strcmp(argv[1], "--device");

	if (argc > 1 && !device) {
		fprintf(stderr, "usage: %s [--device]\n", argv[0]);
		return 2;
	}
	return run_suite(escape_suite(device));
}
