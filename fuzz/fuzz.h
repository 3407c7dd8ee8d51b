/* SPDX-License-Identifier: MIT */
/*
 * Shared by the libFuzzer harnesses: the oracle for error messages. Every
 * failure of the code under test must leave one non-empty line that starts
 * with the input's name; anything else is a finding, reported by abort()
 * so that libFuzzer stores the input.
 */
#ifndef DEVIMG_FUZZ_H
#define DEVIMG_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: assertion '%s' failed: ", \
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* msg (NUL-terminated, at most cap bytes) is one line starting with prefix. */
static inline void fuzz_check_msg(const char *msg, size_t cap,
				  const char *prefix)
{
	FUZZ_ASSERT(memchr(msg, '\0', cap), "error message not terminated");
	FUZZ_ASSERT(msg[0], "error without a message");
	FUZZ_ASSERT(!strchr(msg, '\n'), "error message of several lines: %s",
		    msg);
	if (prefix)
		FUZZ_ASSERT(!strncmp(msg, prefix, strlen(prefix)),
			    "error message does not name the input '%s': %s",
			    prefix, msg);
}

/*
 * What a harness allocates for the code under test, freed together after
 * it: FUZZ_OWNED(o, room) declares o with room for that many pointers.
 */
struct fuzz_owned {
	void **ptrs;
	size_t n, cap;
};

#define FUZZ_OWNED(name, room)						\
	void *name##_ptrs[room];					\
	struct fuzz_owned name = { name##_ptrs, 0, room }

static inline void *fuzz_own(struct fuzz_owned *o, void *p)
{
	if (p) {
		FUZZ_ASSERT(o->n < o->cap, "harness: more than %zu allocations",
			    o->cap);
		o->ptrs[o->n++] = p;
	}
	return p;
}

static inline void fuzz_owned_free(struct fuzz_owned *o)
{
	while (o->n)
		free(o->ptrs[--o->n]);
}

#endif
