// SPDX-License-Identifier: MIT
/* devimg-dump: the "SYCL/device globals" set, decoded. */
#include <inttypes.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "props/device-global.h"
#include "wrapper/dump-device-globals.h"
#include "util/errmsg.h"

/* 1 when decoded into g; 0 when p is not of the set or why says why not. */
static int decode(const char *set, const struct devimg_prop *p,
		  struct devglobal_info *g, struct errmsg *why)
{
	char msg[256];

	if (!set || strcmp(set, PROPS_SET_DEVICE_GLOBALS) ||
	    p->type != DEVIMG_PROPERTY_BYTE_ARRAY)
		return 0;
	if (devglobal_decode(p->value, p->size, g, msg, sizeof(msg)) == 0)
		return 1;
	errmsg_set(why, "set '%s' property '%s': %s", set, p->name, msg);
	return 0;
}

int dump_global_text(FILE *f, const char *set, const struct devimg_prop *p,
		     struct errmsg *why)
{
	struct devglobal_info g;

	if (!decode(set, p, &g, why))
		return 0;
	fprintf(f, "size %" PRIu32 ", image scope %s", g.size,
		g.image_scope ? "yes" : "no");
	return 1;
}

void dump_global_json(struct json_writer *w, const char *set,
		      const struct devimg_prop *p, struct errmsg *why)
{
	struct devglobal_info g;

	if (!decode(set, p, &g, why))
		return;
	json_key(w, "size");
	json_uint(w, g.size);
	json_key(w, "image_scope");
	json_bool(w, g.image_scope);
}
