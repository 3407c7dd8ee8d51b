// SPDX-License-Identifier: MIT
/*
 * global-ops PLUGIN il|native IMAGE [FIRST [OTHER]]: a plugin's device-global
 * operations called directly, as the loader calls them, on the first
 * device of its first platform (a recording driver's): IMAGE, a SPIR-V
 * module (il) or a native binary, defines devimg_test_counter (four
 * 32-bit words, the first FIRST, 0 when not given) and devimg_test_ptr
 * (a 64-bit pointer). Sizes, writes read back (blocking and not, at an
 * offset), ranges, unknown names and unbuilt programs with the messages
 * that name the variable, and a buffer's address stored in the pointer.
 * With OTHER, an image of the same format without the variables, also a
 * program linked from OTHER and IMAGE, in that order, where the counter
 * is found after OTHER. Shared by the CUDA and the Level Zero tests.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/level_zero/plugin-check.h"

#define COUNTER "devimg_test_counter"
#define POINTER "devimg_test_ptr"

struct state {
	struct devimg_plugin_device *dev;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_queue *q;
	struct devimg_plugin_program *prog;
};

/* A program of the image at path, SPIR-V (il) or native. */
static int program(struct state *s, const char *format, const char *path,
		   struct devimg_plugin_program **out)
{
	unsigned char *image;
	size_t size;
	int rc;

	if (read_file(path, &image, &size) < 0)
		return -1;
	if (!strcmp(format, "il"))
		rc = ops.program_create_il(s->ctx, s->dev, image, size, out);
	else
		rc = ops.program_create_binary(s->ctx, s->dev,
					       DEVIMG_PLUGIN_BINARY_NATIVE,
					       image, size, out);
	free(image);
	CHECK(rc == 0, "program_create (%s, %s): %d", format, path, rc);
	return 0;
}

static int setup(struct state *s, const char *format, const char *path)
{
	struct devimg_plugin_platform *pl;
	unsigned n = 0;
	size_t size;

	CHECK(!ops.platform_list(1, &pl, &n) && n == 1, "%u platforms", n);
	CHECK(!ops.device_list(pl, 1, &s->dev, &n) && n == 1, "%u devices", n);
	CHECK(!ops.context_create(1, &s->dev, &s->ctx), "context_create");
	CHECK(!ops.queue_create(s->ctx, s->dev, &s->q), "queue_create");
	if (program(s, format, path, &s->prog) < 0)
		return -1;
	/* Not built yet: no module to hold the variable. */
	CHECK(ops.global_info && ops.global_write && ops.global_read &&
	      ops.mem_address, "the plugin has no device-global operations");
	CHECK_ERR(ops.global_info(s->prog, COUNTER, &size), -EINVAL,
		  "global_info(\"" COUNTER "\")", "not built");
	CHECK(!ops.program_build(s->prog, ""), "program_build");
	return 0;
}

static int check_values(struct state *s, uint32_t first)
{
	uint32_t in[4] = { 11, 22, 33, 44 }, out[4] = { 0 };
	size_t size = 0;

	CHECK(!ops.global_info(s->prog, COUNTER, &size) && size == 16,
	      "size of " COUNTER ": %zu", size);
	CHECK(!ops.global_info(s->prog, POINTER, &size) && size == 8,
	      "size of " POINTER ": %zu", size);
	CHECK(!ops.global_read(s->q, s->prog, COUNTER, 0, 4, out, 1) &&
	      out[0] == first, "initial value %u, want %u", out[0], first);
	CHECK(!ops.global_write(s->q, s->prog, COUNTER, 0, sizeof(in), in, 0),
	      "non-blocking write");
	CHECK(!ops.global_read(s->q, s->prog, COUNTER, 0, sizeof(out), out, 0),
	      "non-blocking read");
	CHECK(!ops.queue_finish(s->q), "finish");
	CHECK(!memcmp(in, out, sizeof(in)), "read back %u %u %u %u", out[0],
	      out[1], out[2], out[3]);
	in[0] = 7;
	in[1] = 8;
	CHECK(!ops.global_write(s->q, s->prog, COUNTER, 8, 8, in, 1),
	      "blocking write at offset 8");
	CHECK(!ops.global_read(s->q, s->prog, COUNTER, 4, 12, out, 1) &&
	      out[0] == 22 && out[1] == 7 && out[2] == 8,
	      "read at offset 4: %u %u %u", out[0], out[1], out[2]);
	CHECK(!ops.global_write(s->q, s->prog, COUNTER, 16, 0, NULL, 1),
	      "an empty write at the end");
	printf("ok values written, read back, at offsets\n");
	return 0;
}

static int check_errors(struct state *s)
{
	uint32_t v[4] = { 0 };
	size_t size;

	CHECK_ERR(ops.global_write(s->q, s->prog, COUNTER, 12, 8, v, 1),
		  -EINVAL, "global_write(\"" COUNTER "\")",
		  "bytes 12..20 outside the 16-byte variable");
	CHECK_ERR(ops.global_read(s->q, s->prog, COUNTER, 17, 0, v, 1),
		  -EINVAL, "global_read(\"" COUNTER "\")",
		  "bytes 17..17 outside the 16-byte variable");
	CHECK_ERR(ops.global_read(s->q, s->prog, COUNTER, SIZE_MAX, 2, v, 1),
		  -EINVAL, "outside the 16-byte variable");
	CHECK_ERR(ops.global_write(s->q, s->prog, "devimg_no_such", 0, 4, v,
				   1),
		  -ENOENT, "global_write", "\"devimg_no_such\"");
	CHECK_ERR(ops.global_read(s->q, s->prog, "devimg_no_such", 0, 4, v, 1),
		  -ENOENT, "global_read", "\"devimg_no_such\"");
	CHECK_ERR(ops.global_info(s->prog, "devimg_no_such", &size), -ENOENT,
		  "global_info", "\"devimg_no_such\"");
	CHECK_ERR(ops.global_write(s->q, s->prog, COUNTER, 0, 4, NULL, 1),
		  -EINVAL, "NULL argument");
	printf("ok ranges, unknown names and NULLs refused, the variable named\n");
	return 0;
}

/* What a global without image scope holds: a buffer's device address. */
static int check_pointer(struct state *s)
{
	struct devimg_plugin_mem *mem;
	uint64_t addr = 0, back = 0;

	CHECK(!ops.mem_create(s->ctx, 0, 64, &mem), "mem_create");
	CHECK(!ops.mem_address(mem, &addr) && addr, "mem_address");
	CHECK(!ops.global_write(s->q, s->prog, POINTER, 0, 8, &addr, 1) &&
	      !ops.global_read(s->q, s->prog, POINTER, 0, 8, &back, 1) &&
	      back == addr, "pointer %#llx read back as %#llx",
	      (unsigned long long)addr, (unsigned long long)back);
	CHECK_ERR(ops.mem_address(NULL, &addr), -EINVAL, "mem_address");
	ops.mem_release(mem);
	printf("ok a buffer's address stored in " POINTER "\n");
	return 0;
}

/* The variables of a program linked from other and image. */
static int check_linked(struct state *s, const char *format,
			const char *image, const char *other)
{
	struct devimg_plugin_program *objs[2] = { NULL, NULL }, *linked = NULL;
	uint32_t v = 99, back = 0;
	size_t size = 0;
	int rc = -1;

	if (program(s, format, other, &objs[0]) < 0 ||
	    program(s, format, image, &objs[1]) < 0)
		goto out;
	if (ops.program_compile(objs[0], "") || ops.program_compile(objs[1], "") ||
	    ops.program_link(s->ctx, s->dev, 2, objs, "", &linked)) {
		fprintf(stderr, "FAIL: compile or link: %s\n", ops.last_error());
		failed = 1;
		goto out;
	}
	if (ops.global_info(linked, COUNTER, &size) || size != 16 ||
	    ops.global_write(s->q, linked, COUNTER, 4, 4, &v, 1) ||
	    ops.global_read(s->q, linked, COUNTER, 4, 4, &back, 1) ||
	    back != 99) {
		fprintf(stderr, "FAIL: the linked program's counter: size %zu, read %u: %s\n",
			size, back, ops.last_error());
		failed = 1;
		goto out;
	}
	rc = 0;
	printf("ok " COUNTER " found in a program linked from two\n");
out:
	if (linked)
		ops.program_release(linked);
	if (objs[1])
		ops.program_release(objs[1]);
	if (objs[0])
		ops.program_release(objs[0]);
	return rc;
}

int main(int argc, char **argv)
{
	struct state s = { 0 };
	uint32_t first;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: %s PLUGIN il|native IMAGE [FIRST [OTHER]]\n",
			argv[0]);
		return 2;
	}
	first = argc >= 5 ? (uint32_t)strtoul(argv[4], NULL, 0) : 0;
	if (plugin_open(argv[1]) < 0)
		return 1;
	if (setup(&s, argv[2], argv[3]) == 0 && check_values(&s, first) == 0 &&
	    check_errors(&s) == 0 && check_pointer(&s) == 0 && argc == 6)
		check_linked(&s, argv[2], argv[3], argv[5]);
	if (s.prog)
		ops.program_release(s.prog);
	if (s.q)
		ops.queue_release(s.q);
	if (s.ctx)
		ops.context_release(s.ctx);
	if (ops.fini)
		ops.fini();
	return failed;
}
