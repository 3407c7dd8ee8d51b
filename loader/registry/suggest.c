// SPDX-License-Identifier: MIT
/*
 * Names close to a kernel name that no registered image defines, so that
 * the error can say what was searched and what the user may have meant
 * (a typo, a mangled name against its plain one, a case slip).
 *
 * Closeness, best first: the same name but for case; a name holding the
 * one asked for or held by it (a mangled "_ZTS4vadd" for "vadd"); then an
 * edit distance of at most a quarter of the name's length, three at most,
 * measured in a band of that width, so that each name costs at most its
 * length times seven steps and names of another length nothing.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loader/registry/registry.h"

#define SUGGEST_MAX 3
#define DISTANCE_MAX 3
/* Longer names are compared by case and containment only. */
#define DISTANCE_LEN_MAX 1024

struct suggestion {
	const char *name;
	uint64_t image;
	unsigned score;		/* 0 best; UINT_MAX: none */
};

/*
 * The edit distance of a and b when at most t, else t + 1: one row of the
 * dynamic programme at a time, cells outside the band |i - j| <= t taken
 * as t + 1.
 */
static unsigned distance(const char *a, size_t la, const char *b, size_t lb,
			 unsigned t)
{
	unsigned row[DISTANCE_LEN_MAX + 1];
	size_t i, j;

	if ((la > lb ? la - lb : lb - la) > t)
		return t + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j <= t ? (unsigned)j : t + 1;
	for (i = 1; i <= la; i++) {
		unsigned diag = row[0], best;
		size_t lo = i > t ? i - t : 1, hi = i + t < lb ? i + t : lb;

		row[0] = i <= t ? (unsigned)i : t + 1;
		best = row[0];
		if (lo > 1)
			diag = row[lo - 1], row[lo - 1] = t + 1;
		for (j = lo; j <= hi; j++) {
			unsigned up = row[j], left = row[j - 1];
			unsigned v = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < v)
				v = up + 1;
			if (left + 1 < v)
				v = left + 1;
			if (v > t + 1)
				v = t + 1;
			diag = up;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (hi < lb)
			row[hi + 1] = t + 1;
		if (best > t)
			return t + 1;
	}
	return row[lb];
}

/* The score of candidate c for name, UINT_MAX when not close. */
static unsigned score(const char *name, size_t len, const char *c,
		      unsigned t)
{
	size_t lc = strlen(c);
	unsigned d;

	if (lc == len && !strcasecmp(c, name))
		return 0;
	if (strstr(c, name) || strstr(name, c))
		return 1;
	if (len > DISTANCE_LEN_MAX || lc > DISTANCE_LEN_MAX || t == 0)
		return UINT32_MAX;
	d = distance(name, len, c, lc, t);
	return d <= t ? 1 + d : UINT32_MAX;
}

/* Keep c among the best, in order; earlier ones win ties. */
static void consider(struct suggestion *best, const char *c, uint64_t image,
		     unsigned s)
{
	int i, k;

	for (i = 0; i < SUGGEST_MAX; i++)
		if (best[i].name && !strcmp(best[i].name, c))
			return;
	for (i = 0; i < SUGGEST_MAX && best[i].score <= s; i++)
		;
	if (i == SUGGEST_MAX)
		return;
	for (k = SUGGEST_MAX - 1; k > i; k--)
		best[k] = best[k - 1];
	best[i] = (struct suggestion){ c, image, s };
}

/* Append the distinct targets of imgs, four at most. */
static size_t put_targets(char *buf, size_t size, size_t len,
			  struct devimg_image **imgs, size_t n)
{
	const char *seen[4];
	size_t nseen = 0, i, k;

	for (i = 0; i < n && len < size; i++) {
		const char *t = imgs[i]->target ? imgs[i]->target : "";

		for (k = 0; k < nseen && strcmp(seen[k], t); k++)
			;
		if (k < nseen)
			continue;
		if (nseen == 4) {
			len += (size_t)snprintf(buf + len, size - len, ", ...");
			break;
		}
		seen[nseen++] = t;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					nseen > 1 ? ", " : "", *t ? t : "none");
	}
	return len;
}

void registry_suggest(const char *name, char *buf, size_t size)
{
	struct suggestion best[SUGGEST_MAX];
	struct devimg_image **imgs;
	size_t n, i, e, len, nentries = 0, lname = strlen(name);
	unsigned t = lname / 4 < DISTANCE_MAX ? (unsigned)(lname / 4) :
						DISTANCE_MAX;

	if (!size)
		return;
	buf[0] = '\0';
	if (images_collect(NULL, &imgs, &n) < 0)
		return;
	if (n == 0) {
		snprintf(buf, size, "no image is registered (is the wrapped object linked in?)");
		images_drop(imgs, n);
		return;
	}
	for (i = 0; i < SUGGEST_MAX; i++)
		best[i] = (struct suggestion){ NULL, 0, UINT32_MAX };
	for (i = 0; i < n; i++) {
		nentries += imgs[i]->nentries;
		for (e = 0; e < imgs[i]->nentries; e++) {
			const char *c = imgs[i]->entries[e].name;
			unsigned s = score(name, lname, c, t);

			if (s != UINT32_MAX)
				consider(best, c, imgs[i]->id, s);
		}
	}
	len = (size_t)snprintf(buf, size, "searched %zu image%s (target%s ",
			       n, n == 1 ? "" : "s", n == 1 ? "" : "s");
	len = put_targets(buf, size, len, imgs, n);
	if (len < size)
		len += (size_t)snprintf(buf + len, size - len, ") of %zu name%s",
					nentries, nentries == 1 ? "" : "s");
	for (i = 0; i < SUGGEST_MAX && best[i].name && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len,
					"%s'%s' (image %" PRIu64 ")",
					i ? ", " : "; closest: ",
					best[i].name, best[i].image);
	if (!best[0].name && len < size)
		snprintf(buf + len, size - len, "; none close");
	images_drop(imgs, n);
}
