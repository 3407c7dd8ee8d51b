// SPDX-License-Identifier: MIT
/*
 * What OpenCL's info strings say: the version of a platform or device
 * ("OpenCL 3.0 ...") and whether an extension list names an extension.
 * Read by devices.c and device-globals.c alike, calling neither.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plugins/opencl/opencl.h"

unsigned ocl_parse_version(const char *version)
{
	unsigned major, minor;

	if (!version || sscanf(version, "OpenCL %u.%u", &major, &minor) != 2 ||
	    minor > 9)
		return 0;
	return major * 100 + minor * 10;
}

/* Whether a space-separated extension list names ext exactly. */
bool ocl_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		bool start = p == list || p[-1] == ' ';
		bool end = p[n] == '\0' || p[n] == ' ';

		if (start && end)
			return true;
		p += n;
	}
	return false;
}
