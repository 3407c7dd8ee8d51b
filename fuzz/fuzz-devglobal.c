// SPDX-License-Identifier: MIT
/*
 * The device-global decoders (props/device-global.c): devglobal_decode() of a
 * "SYCL/device globals" value, also as devimg-dump shows it
 * (dump_global_text() and dump_global_json()), and
 * devglobal_spirv_access(), the HostAccessINTEL decoration a SPIR-V
 * module gives a variable. The first byte picks: even, the rest is a
 * property value; odd, the next byte is the length of the variable's
 * name (at most 63 bytes, cut at a NUL), then the name, then the module.
 * Each buffer handed over is a malloc'ed copy of exactly its size.
 *
 * Oracles: both decoders are checked against a reference written here
 * from docs/formats.md (the value: 16 bytes, a bit count of 64, a uint32
 * size, a flag of 0 or 1; the module: whole words of either byte order,
 * its magic, instructions of 1 word or more inside it, the first
 * OpDecorate HostAccessINTEL of 6188 or 6147 naming the variable giving
 * its access, 6147's numbered 0 read, 1 write, 2 read_write, 3 none):
 * the same answer, the same access; a refusal is one line.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "props/device-global.h"
#include "wrapper/dump-device-globals.h"
#include "wrapper/json.h"
#include "util/errmsg.h"
#include "util/le.h"

static unsigned char *dup_bytes(const uint8_t *p, size_t n)
{
	unsigned char *b = malloc(n ? n : 1);

	if (b && n)
		memcpy(b, p, n);
	return b;
}

static FILE *devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	FUZZ_ASSERT(f, "cannot open /dev/null");
	return f;
}

static void fuzz_value(const uint8_t *data, size_t size)
{
	struct devglobal_info info = { 7, 7 };
	struct devimg_prop p = { "dg", 2, size, NULL, NULL, 0, NULL };
	struct errmsg why = { 0 };
	struct json_writer w;
	unsigned char *v = dup_bytes(data, size);
	uint64_t nbits = 0;
	char msg[256] = "";
	int r, ok, i;

	if (!v)
		return;
	for (i = 7; size >= 8 && i >= 0; i--)
		nbits = nbits << 8 | v[i];
	ok = size == 16 && nbits == 64 && v[12] <= 1;
	r = devglobal_decode(v, size, &info, msg, sizeof(msg));
	FUZZ_ASSERT(r == (ok ? 0 : -EINVAL), "decode: %d, expected %s", r,
		    ok ? "0" : "-EINVAL");
	if (ok) {
		FUZZ_ASSERT(info.size == get_le32(v + 8) &&
			    info.image_scope == v[12], "decoded %u, %u",
			    info.size, info.image_scope);
	} else {
		fuzz_check_msg(msg, sizeof(msg), "device global value: ");
		FUZZ_ASSERT(info.size == 7 && info.image_scope == 7,
			    "output on failure");
	}
	p.value = v;
	p.payload = size >= 8 ? v + 8 : NULL;
	FUZZ_ASSERT(dump_global_text(devnull(), "SYCL/device globals", &p,
				     &why) == ok, "devimg-dump's view");
	if (!ok)
		fuzz_check_msg(why.msg, sizeof(why.msg),
			       "set 'SYCL/device globals' property 'dg': device global value: ");
	FUZZ_ASSERT(!dump_global_text(devnull(), "SYCL/other", &p, &why),
		    "another set decoded");
	json_init(&w, devnull());
	json_object_begin(&w);
	dump_global_json(&w, "SYCL/device globals", &p, &why);
	json_object_end(&w);
	free(v);
}

/* ---- the reference reading of HostAccessINTEL ---- */

static uint32_t ref_word(const unsigned char *m, size_t i, int swapped)
{
	const unsigned char *q = m + 4 * i;

	return swapped ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 |
			 (uint32_t)q[2] << 8 | q[3] : get_le32(q);
}

/* 0 and *access, -ENOENT, or -EINVAL. */
static int ref_access(const unsigned char *m, size_t size, const char *id,
		      int *access)
{
	static const int old[] = { 1, 2, 3, 0 };
	size_t n = size / 4, i, wc, k, len;
	int swapped;
	uint32_t w, a;
	char name[4096];

	if (size % 4 || n < 5)
		return -EINVAL;
	if (get_le32(m) == 0x07230203u)
		swapped = 0;
	else if (ref_word(m, 0, 1) == 0x07230203u)
		swapped = 1;
	else
		return -EINVAL;
	for (i = 5; i < n; i += wc) {
		w = ref_word(m, i, swapped);
		wc = w >> 16;
		if (wc == 0 || wc > n - i)
			return -EINVAL;
		if ((w & 0xffff) != 71)
			continue;
		if (wc < 3)
			return -EINVAL;
		w = ref_word(m, i + 2, swapped);
		if (w != 6188 && w != 6147)
			continue;
		if (wc < 5)
			return -EINVAL;
		a = ref_word(m, i + 3, swapped);
		if (a > 3)
			return -EINVAL;
		/* The name: bytes from the lowest-order ones of each word. */
		for (k = 0, len = SIZE_MAX; k < 4 * (wc - 4); k++) {
			char c = (char)(ref_word(m, i + 4 + k / 4, swapped) >>
					(8 * (k % 4)));

			if (k < sizeof(name))
				name[k] = c;
			if (!c) {
				len = k;
				break;
			}
		}
		if (len == SIZE_MAX)
			return -EINVAL;
		/* id is shorter than name: a longer name is another. */
		if (len < sizeof(name) && !strcmp(name, id)) {
			*access = w == 6147 ? old[a] : (int)a;
			return 0;
		}
	}
	return -ENOENT;
}

static void fuzz_spirv(const uint8_t *data, size_t size)
{
	enum devglobal_access got = (enum devglobal_access)99;
	char id[64], msg[256] = "";
	unsigned char *m;
	size_t len;
	int want = -1, r, ref;

	if (!size)
		return;
	len = data[0] % sizeof(id);
	if (len > size - 1)
		len = size - 1;
	memcpy(id, data + 1, len);
	id[len] = '\0';
	data += 1 + len;
	size -= 1 + len;
	m = dup_bytes(data, size);
	if (!m)
		return;
	ref = ref_access(m, size, id, &want);
	r = devglobal_spirv_access(m, size, id, &got, msg, sizeof(msg));
	FUZZ_ASSERT(r == ref, "access of '%s': %d, expected %d (%s)", id, r,
		    ref, msg);
	FUZZ_ASSERT(r != 0 || (int)got == want,
		    "access of '%s': %d, expected %d", id, (int)got, want);
	if (r == -EINVAL)
		fuzz_check_msg(msg, sizeof(msg), "SPIR-V module: ");
	else if (r == -ENOENT)
		FUZZ_ASSERT(got == 99, "output for an absent variable");
	free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] % 2)
		fuzz_spirv(data + 1, size - 1);
	else
		fuzz_value(data + 1, size - 1);
	return 0;
}
