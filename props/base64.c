// SPDX-License-Identifier: MIT
/*
 * The base64 of byte arrays in .props text: standard alphabet, no padding,
 * and bits packed least-significant first (docs/formats.md, "Byte
 * arrays"), so a standard codec gives wrong bytes.
 */
#include <errno.h>

#include "props/internal.h"

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

size_t props_b64_encoded_len(size_t n)
{
	size_t rem = n % 3;

	if (n / 3 > (SIZE_MAX - 3) / 4)
		return SIZE_MAX;
	return 4 * (n / 3) + (rem ? rem + 1 : 0);
}

int props_b64_decoded_len(size_t len, size_t *n)
{
	size_t rem = len % 4;

	if (rem == 1)
		return -EINVAL;
	*n = 3 * (len / 4) + (rem ? rem - 1 : 0);
	return 0;
}

void props_b64_encode(const void *in, size_t n, char *out)
{
	const unsigned char *b = in;
	unsigned b0, b1, b2;
	size_t i;

	for (i = 0; i + 3 <= n; i += 3) {
		b0 = b[i];
		b1 = b[i + 1];
		b2 = b[i + 2];
		*out++ = b64_alphabet[b0 & 63];
		*out++ = b64_alphabet[(b1 << 2 | b0 >> 6) & 63];
		*out++ = b64_alphabet[(b2 << 4 | b1 >> 4) & 63];
		*out++ = b64_alphabet[b2 >> 2];
	}
	if (i == n)
		return;
	b0 = b[i];
	b1 = i + 1 < n ? b[i + 1] : 0;
	*out++ = b64_alphabet[b0 & 63];
	*out++ = b64_alphabet[(b1 << 2 | b0 >> 6) & 63];
	if (i + 1 < n)
		*out = b64_alphabet[b1 >> 4];
}

/* Values of up to four characters; -1 and *bad set at the first bad one. */
static int b64_group(const char *in, size_t k, unsigned c[4], size_t *bad)
{
	size_t j;
	int v;

	c[0] = c[1] = c[2] = c[3] = 0;
	for (j = 0; j < k; j++) {
		v = b64_value((unsigned char)in[j]);
		if (v < 0) {
			*bad = j;
			return -1;
		}
		c[j] = (unsigned)v;
	}
	return 0;
}

int props_b64_decode(const char *in, size_t len, unsigned char *out,
		     size_t *bad_pos)
{
	size_t i, k, bad = 0, n;
	unsigned c[4];

	if (props_b64_decoded_len(len, &n) < 0) {
		if (bad_pos)
			*bad_pos = len;
		return -EINVAL;
	}
	for (i = 0; i < len; i += 4) {
		k = len - i < 4 ? len - i : 4;
		if (b64_group(in + i, k, c, &bad) < 0) {
			if (bad_pos)
				*bad_pos = i + bad;
			return -EINVAL;
		}
		*out++ = (unsigned char)(c[0] | c[1] << 6);
		if (k > 2)
			*out++ = (unsigned char)(c[1] >> 2 | c[2] << 4);
		if (k > 3)
			*out++ = (unsigned char)(c[2] >> 4 | c[3] << 2);
	}
	return 0;
}
