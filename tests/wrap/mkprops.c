// SPDX-License-Identifier: MIT
/*
 * Test input generator: pseudo-random property sets from a seed, written
 * twice: as .props text (byte arrays in the LSB-first base64 of
 * docs/formats.md section 2, encoded here independently of props/) and as the
 * "property_sets" JSON array that docs/dump-json.md expects for them.
 *
 * usage: mkprops SEED OUT.props OUT.json
 * Seed 0 gives a file without sets (which DPC++ refuses); other seeds
 * give specialization constants (composites with padding leaves
 * included), their defaults, uint32 properties (some written with leading
 * zeros), byte-array properties (bit counts that are not whole bytes) and
 * sometimes an empty set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 32;
}

static uint32_t below(uint32_t n)
{
	return next() % n;
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* LSB-first base64 of n bytes, no padding. */
static void encode(FILE *f, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 3 <= n; i += 3) {
		fputc(b64[p[i] & 63], f);
		fputc(b64[(p[i + 1] << 2 | p[i] >> 6) & 63], f);
		fputc(b64[(p[i + 2] << 4 | p[i + 1] >> 4) & 63], f);
		fputc(b64[p[i + 2] >> 2], f);
	}
	if (n - i == 1) {
		fputc(b64[p[i] & 63], f);
		fputc(b64[p[i] >> 6], f);
	} else if (n - i == 2) {
		fputc(b64[p[i] & 63], f);
		fputc(b64[(p[i + 1] << 2 | p[i] >> 6) & 63], f);
		fputc(b64[p[i + 1] >> 4], f);
	}
}

struct out {
	FILE *props;
	FILE *json;
	int nsets;
	int nprops;
};

static void open_set(struct out *o, const char *name)
{
	fprintf(o->props, "[%s]\n", name);
	fprintf(o->json, "%s{\"name\": \"%s\", \"properties\": [",
		o->nsets++ ? ", " : "", name);
	o->nprops = 0;
}

static void close_set(struct out *o)
{
	fputs("]}", o->json);
}

static void prop_head(struct out *o, const char *name, int type)
{
	fprintf(o->props, "%s=%d|", name, type);
	fprintf(o->json, "%s{\"name\": \"%s\", ", o->nprops++ ? ", " : "",
		name);
}

/* payload of ceil(bits / 8) bytes after the 8-byte bit count. */
static void bytes_prop(struct out *o, const char *name, uint64_t bits,
		       const unsigned char *payload, const char *extra)
{
	size_t n = (bits + 7) / 8, i;
	unsigned char *buf = malloc(8 + n + 1);

	for (i = 0; i < 8; i++)
		buf[i] = bits >> (8 * i);
	memcpy(buf + 8, payload, n);
	prop_head(o, name, 2);
	encode(o->props, buf, 8 + n);
	fputc('\n', o->props);
	fprintf(o->json, "\"type\": \"byte_array\", \"bits\": %llu, \"value\": \"",
		(unsigned long long)bits);
	for (i = 0; i < n; i++)
		fprintf(o->json, "%02x", payload[i]);
	fprintf(o->json, "\"%s}", extra);
	free(buf);
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* A constant of nleaves leaves, every other one a padding leaf. */
static uint32_t spec_const(struct out *o, int k, uint32_t *id)
{
	unsigned char payload[12 * 8];
	char name[64], extra[1024];
	uint32_t nleaves = 1 + below(4), off = 0, i;
	size_t len;

	strcpy(extra, ", \"descriptors\": [");
	for (i = 0; i < nleaves; i++) {
		uint32_t size = 1u << below(4);
		uint32_t leaf = (i % 2 && nleaves > 2) ? 0xffffffffu : (*id)++;

		put32(payload + 12 * i, leaf);
		put32(payload + 12 * i + 4, off);
		put32(payload + 12 * i + 8, size);
		len = strlen(extra);
		snprintf(extra + len, sizeof(extra) - len,
			 "%s{\"id\": %u, \"offset\": %u, \"size\": %u}",
			 i ? ", " : "", leaf, off, size);
		off += size;
	}
	strcat(extra, "]");
	snprintf(name, sizeof(name), "9d329ad59055e972____ZL%dSpec%d", 10 + k,
		 k);
	bytes_prop(o, name, 96ull * nleaves, payload, extra);
	return off;
}

static void spec_sets(struct out *o)
{
	unsigned char defaults[256];
	uint32_t id = 0, total = 0, i;
	int k, n = 1 + below(4);

	open_set(o, "SYCL/specialization constants");
	for (k = 0; k < n; k++)
		total += spec_const(o, k, &id);
	close_set(o);
	open_set(o, "SYCL/specialization constants default values");
	for (i = 0; i < total; i++)
		defaults[i] = next();
	bytes_prop(o, "all", 8ull * total, defaults, "");
	close_set(o);
}

static void misc_set(struct out *o)
{
	unsigned char payload[64];
	char name[32];
	int i, n = 1 + below(6);

	open_set(o, "SYCL/misc properties");
	for (i = 0; i < n; i++) {
		uint32_t bits = 1 + below(8 * sizeof(payload));
		size_t j;

		snprintf(name, sizeof(name), "prop%d", i);
		switch (below(3)) {
		case 0:
			prop_head(o, name, 1);
			bits = i == 0 ? 0xffffffffu : next();
			fprintf(o->props, "%u\n", bits);
			fprintf(o->json, "\"type\": \"uint32\", \"value\": %u}",
				bits);
			break;
		case 1:
			bits = below(1000);
			prop_head(o, name, 1);
			fprintf(o->props, "000%u\n", bits);
			fprintf(o->json, "\"type\": \"uint32\", \"value\": %u}",
				bits);
			break;
		default:
			for (j = 0; j < sizeof(payload); j++)
				payload[j] = next();
			if (bits % 8)
				payload[bits / 8] &= (1u << (bits % 8)) - 1;
			bytes_prop(o, name, bits, payload, "");
			break;
		}
	}
	close_set(o);
}

int main(int argc, char **argv)
{
	struct out o = { 0 };

	if (argc != 4) {
		fputs("usage: mkprops SEED OUT.props OUT.json\n", stderr);
		return 2;
	}
	rng = strtoull(argv[1], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	o.props = fopen(argv[2], "w");
	o.json = fopen(argv[3], "w");
	if (!o.props || !o.json) {
		perror("mkprops");
		return 2;
	}
	fputc('[', o.json);
	if (strtoull(argv[1], NULL, 0) != 0) {
		spec_sets(&o);
		misc_set(&o);
		if (below(2)) {
			open_set(&o, "Empty");
			close_set(&o);
		}
	}
	fputs("]\n", o.json);
	return fclose(o.props) || fclose(o.json) ? 2 : 0;
}
