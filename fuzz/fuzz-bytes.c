// SPDX-License-Identifier: MIT
/*
 * The decoders of byte arrays: the LSB-first base64 of .props text, the
 * bit-count header, spec-constant descriptors and their layout against a
 * defaults blob, and the launch metadata decoders (argument masks, integer
 * lists, work-group sizes). The first input byte picks the decoder; every
 * buffer handed over is a malloc'ed copy of exactly its size, so that an
 * over-read is caught by ASan.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "props/props.h"
#include "util/errmsg.h"

#define WHERE "fuzz"

static unsigned char *dup_bytes(const uint8_t *p, size_t n)
{
	unsigned char *b = malloc(n ? n : 1);

	if (b && n)
		memcpy(b, p, n);
	return b;
}

static void check_err(int r, const struct errmsg *err)
{
	FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM, "unexpected error %d", r);
	fuzz_check_msg(err->msg, sizeof(err->msg), NULL);
}

/* Text to bytes and back: encode(decode(t)) decodes to the same bytes. */
static void fuzz_b64_text(const uint8_t *data, size_t size)
{
	unsigned char *out, *again;
	size_t n = 0, bad = SIZE_MAX, n2 = 0;
	char *text;
	int r;

	if (props_b64_decoded_len(size, &n) < 0) {
		FUZZ_ASSERT(size % 4 == 1, "length %zu refused", size);
		r = props_b64_decode((const char *)data, size, NULL, &bad);
		FUZZ_ASSERT(r == -EINVAL && bad == size, "bad_pos %zu", bad);
		return;
	}
	out = malloc(n ? n : 1);
	if (!out)
		return;
	r = props_b64_decode((const char *)data, size, out, &bad);
	if (r < 0) {
		FUZZ_ASSERT(bad < size, "bad_pos %zu of %zu", bad, size);
		goto out;
	}
	FUZZ_ASSERT(props_b64_encoded_len(n) == size,
		    "%zu bytes encode to %zu characters, decoded from %zu", n,
		    props_b64_encoded_len(n), size);
	text = malloc(size ? size : 1);
	again = malloc(n ? n : 1);
	if (text && again) {
		props_b64_encode(out, n, text);
		FUZZ_ASSERT(props_b64_decoded_len(size, &n2) == 0 && n2 == n,
			    "length");
		FUZZ_ASSERT(props_b64_decode(text, size, again, NULL) == 0,
			    "encoder output does not decode");
		FUZZ_ASSERT(!n || !memcmp(out, again, n), "round trip differs");
	}
	free(text);
	free(again);
out:
	free(out);
}

/* Bytes to text and back. */
static void fuzz_b64_bytes(const uint8_t *data, size_t size)
{
	size_t len = props_b64_encoded_len(size), n = 0, i;
	unsigned char *back;
	char *text;

	FUZZ_ASSERT(len != SIZE_MAX, "length overflow for %zu", size);
	text = malloc(len ? len : 1);
	back = malloc(size ? size : 1);
	if (!text || !back)
		goto out;
	props_b64_encode(data, size, text);
	for (i = 0; i < len; i++)
		FUZZ_ASSERT(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
				   text[i]) && text[i],
			    "character %zu outside the alphabet", i);
	FUZZ_ASSERT(props_b64_decoded_len(len, &n) == 0 && n == size,
		    "decoded length %zu of %zu", n, size);
	FUZZ_ASSERT(props_b64_decode(text, len, back, NULL) == 0, "decode");
	FUZZ_ASSERT(!size || !memcmp(back, data, size), "round trip differs");
out:
	free(text);
	free(back);
}

static void fuzz_payload(const uint8_t *data, size_t size)
{
	struct errmsg err = { 0 };
	const unsigned char *payload = NULL;
	unsigned char *buf = dup_bytes(data, size);
	uint64_t nbits = 0;
	int r;

	if (!buf)
		return;
	r = props_bytes_payload(size ? buf : NULL, size, WHERE, &payload,
				&nbits, &err);
	if (r < 0) {
		check_err(r, &err);
	} else {
		FUZZ_ASSERT(payload == buf + PROPS_BYTES_HEADER, "payload");
		FUZZ_ASSERT((nbits + 7) / 8 == size - PROPS_BYTES_HEADER,
			    "%llu bits in %zu bytes",
			    (unsigned long long)nbits, size);
	}
	free(buf);
}

/* Leaves of a decoded constant are non-empty, disjoint and inside it. */
static void check_const(const struct props_spec_const *c)
{
	size_t i, j;

	FUZZ_ASSERT(c->ndescs > 0, "no leaves");
	for (i = 0; i < c->ndescs; i++) {
		const struct props_spec_desc *a = &c->descs[i];

		FUZZ_ASSERT(a->size && (uint64_t)a->offset + a->size <= c->size,
			    "leaf %zu outside the constant", i);
		FUZZ_ASSERT(a->id == PROPS_SPEC_PADDING_ID ||
			    a->id >= c->first_id, "first_id");
		for (j = i + 1; j < c->ndescs && j < 64; j++) {
			const struct props_spec_desc *b = &c->descs[j];

			FUZZ_ASSERT((uint64_t)a->offset + a->size <= b->offset ||
				    (uint64_t)b->offset + b->size <= a->offset,
				    "leaves %zu and %zu overlap", i, j);
		}
	}
}

static void fuzz_spec(const uint8_t *data, size_t size)
{
	struct errmsg err = { 0 };
	struct props_spec_const c;
	unsigned char *buf = dup_bytes(data, size);
	int r;

	if (!buf)
		return;
	r = props_spec_decode("k", size ? buf : NULL, size, &c, &err);
	if (r < 0) {
		check_err(r, &err);
	} else {
		check_const(&c);
		props_spec_const_fini(&c);
	}
	free(buf);
}

/*
 * Several constants and a defaults blob: a count byte, then per constant
 * a length byte and its buffer; the rest is the defaults blob (none when
 * the count's top bit is set).
 */
static void fuzz_layout(const uint8_t *data, size_t size)
{
	struct props_spec_const consts[8];
	struct errmsg err = { 0 };
	unsigned char *bufs[8] = { NULL }, *defaults = NULL;
	size_t n = 0, want, len, i;
	uint64_t sum = 0;
	uint32_t total = 0;
	int no_defaults, r;

	if (!size)
		return;
	want = data[0] & 7;
	no_defaults = data[0] & 0x80;
	data++;
	size--;
	while (n < want && size) {
		len = data[0] < size - 1 ? data[0] : size - 1;
		bufs[n] = dup_bytes(data + 1, len);
		if (!bufs[n])
			goto out;
		r = props_spec_decode("c", bufs[n], len, &consts[n], &err);
		data += 1 + len;
		size -= 1 + len;
		if (r < 0) {
			free(bufs[n]);
			bufs[n] = NULL;
			continue;
		}
		n++;
	}
	defaults = no_defaults ? NULL : dup_bytes(data, size);
	r = props_spec_layout(consts, n, defaults, size, &total, &err);
	if (r < 0) {
		check_err(r, &err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		FUZZ_ASSERT(consts[i].blob_offset == sum, "blob offset");
		sum += consts[i].size;
	}
	FUZZ_ASSERT(sum == total, "total");
	FUZZ_ASSERT(no_defaults || size == PROPS_BYTES_HEADER + (uint64_t)total,
		    "defaults of %zu bytes for %u", size, total);
out:
	for (i = 0; i < n; i++)
		props_spec_const_fini(&consts[i]);
	for (i = 0; i < 8; i++)
		free(bufs[i]);
	free(defaults);
}

static void fuzz_launch(const uint8_t *data, size_t size)
{
	struct errmsg err = { 0 };
	const unsigned char *mask = NULL;
	unsigned char *buf;
	uint64_t nargs = 0, vals[4], wg[3];
	unsigned elem, dims = 0, i;
	size_t n = 0;
	int r;

	if (!size)
		return;
	elem = data[0] & 1 ? 8 : 4;
	if (data[0] & 2)
		elem = data[0] >> 2;	/* any element size */
	buf = dup_bytes(data + 1, size - 1);
	if (!buf)
		return;
	size--;
	r = props_param_opt_decode(buf, size, WHERE, &mask, &nargs, &err);
	if (r < 0)
		check_err(r, &err);
	else
		for (i = 0; i < nargs && i < 4096; i++)
			(void)props_arg_eliminated(mask, i);
	r = props_uint_list(buf, size, elem, WHERE, vals, 4, &n, &err);
	if (r < 0)
		check_err(r, &err);
	else
		FUZZ_ASSERT((uint64_t)n * elem + PROPS_BYTES_HEADER <= size,
			    "%zu integers of %u in %zu bytes", n, elem, size);
	r = props_work_group_size(buf, size, elem, WHERE, wg, &dims, &err);
	if (r < 0) {
		check_err(r, &err);
	} else {
		/* 0: an empty list, no requirement (as DPC++ reads it). */
		FUZZ_ASSERT(dims <= 3, "dims %u", dims);
		for (i = 0; i < 3; i++)
			FUZZ_ASSERT(wg[i] >= 1, "size 0 in %u", i);
	}
	free(buf);
	for (i = 0; i < 128; i++)
		(void)props_aspect_name(data[0] + i * 256u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 6) {
	case 0:
		fuzz_b64_text(data + 1, size - 1);
		break;
	case 1:
		fuzz_b64_bytes(data + 1, size - 1);
		break;
	case 2:
		fuzz_payload(data + 1, size - 1);
		break;
	case 3:
		fuzz_spec(data + 1, size - 1);
		break;
	case 4:
		fuzz_layout(data + 1, size - 1);
		break;
	default:
		fuzz_launch(data + 1, size - 1);
		break;
	}
	return 0;
}
