// SPDX-License-Identifier: MIT
/*
 * The .props reader (props_parse) and what devimg-dump builds on it
 * (devimg_propsets_from_props: byte arrays validated, spec-constant
 * descriptors decoded, then laid out against the defaults blob).
 * Oracles: errors are one line naming the input; what parses is written
 * back by props_write and reads back equal (the writer's contract).
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "props/props.h"
#include "wrapper/index-reader.h"
#include "util/errmsg.h"

#define FNAME "fuzz.props"

/* Write p and read it back: the same model. */
static void check_roundtrip(const struct props *p)
{
	struct errmsg err = { 0 };
	struct props *back = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	f = open_memstream(&text, &len);
	if (!f)
		return;
	r = props_write(p, f);
	fclose(f);
	FUZZ_ASSERT(r == 0, "props_write of a parsed model: %d", r);
	r = props_parse(text, len, "roundtrip", &back, &err);
	FUZZ_ASSERT(r == 0, "written text does not parse back: %s", err.msg);
	FUZZ_ASSERT(props_equal(p, back), "written text parses to another model");
	props_free(back);
	free(text);
}

/* The spec constants of the view, laid out as the loader does. */
static void check_layout(const struct props *p,
			 const struct devimg_propset *sets, size_t nsets)
{
	const struct props_set *ds = props_find_set(p, PROPS_SET_SPEC_DEFAULTS);
	const struct props_prop *all = NULL;
	struct props_spec_const *consts;
	const char **names;
	struct errmsg err = { 0 };
	size_t i, j, n = 0;
	uint32_t total = 0;
	int r;

	if (ds)
		all = props_set_find(ds, PROPS_SPEC_DEFAULTS_PROP);
	if (all && all->type != PROPS_BYTE_ARRAY)
		all = NULL;
	for (i = 0; i < nsets; i++)
		for (j = 0; j < sets[i].nprops; j++)
			n += sets[i].props[j].spec != NULL;
	if (!n)
		return;
	consts = calloc(n, sizeof(*consts));
	if (!consts)
		return;
	n = 0;
	for (i = 0; i < nsets; i++)
		for (j = 0; j < sets[i].nprops; j++)
			if (sets[i].props[j].spec)
				consts[n++] = *sets[i].props[j].spec;
	names = calloc(n, sizeof(*names));
	if (!names) {
		free(consts);
		return;
	}
	for (i = 0; i < n; i++)
		names[i] = consts[i].name;
	r = props_spec_layout(consts, n, all ? all->data : NULL,
			      all ? all->size : 0, &total, &err);
	if (r < 0) {
		fuzz_check_msg(err.msg, sizeof(err.msg), "set '");
	} else {
		uint64_t sum = 0;

		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(consts[i].blob_offset == sum,
				    "constant %zu at %u, expected %llu", i,
				    consts[i].blob_offset,
				    (unsigned long long)sum);
			sum += consts[i].size;
			FUZZ_ASSERT(consts[i].name == names[i],
				    "constant %zu moved: not in property order", i);
		}
		FUZZ_ASSERT(sum == total, "total %u, sum %llu", total,
			    (unsigned long long)sum);
	}
	free(names);
	free(consts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errmsg err = { 0 };
	struct devimg_propset *sets = NULL;
	struct props *p = NULL;
	size_t nsets = 0;
	int r;

	r = props_parse((const char *)data, size, FNAME, &p, &err);
	if (r < 0) {
		FUZZ_ASSERT(!p, "output on failure");
		FUZZ_ASSERT(r == -EINVAL || r == -ERANGE || r == -ENOMEM,
			    "unexpected error %d", r);
		fuzz_check_msg(err.msg, sizeof(err.msg), FNAME ":");
		return 0;
	}
	check_roundtrip(p);
	err.msg[0] = '\0';
	r = devimg_propsets_from_props(p, FNAME, &sets, &nsets, &err);
	if (r < 0) {
		fuzz_check_msg(err.msg, sizeof(err.msg), FNAME ": ");
	} else {
		FUZZ_ASSERT(nsets == p->nsets, "%zu sets, parsed %zu", nsets,
			    p->nsets);
		check_layout(p, sets, nsets);
		devimg_propsets_free(sets, nsets);
	}
	props_free(p);
	return 0;
}
