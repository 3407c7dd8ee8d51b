// SPDX-License-Identifier: MIT
/*
 * devimg-ls: list the devices libdevimg sees through its plugins, one line
 * each, or as JSON. Linked with libdevimg-internal for what the public API
 * does not show (version, native formats, plugin capabilities, the bound
 * plugins); the devices themselves come from devimg_ctx_new(), so
 * DEVIMG_DEVICE_SELECTOR and DEVIMG_PLUGIN_PATH apply as for any program:
 * under a selector only the plugins of the backends it names start, and
 * without one every plugin does and every device is listed.
 *
 * Names, versions and paths come from drivers and the environment: the
 * text output escapes them (escape.h), the JSON output per JSON.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#include "loader/dispatch/dispatch.h"
#include "util/escape.h"

#define PROG "devimg-ls"

static const struct {
	unsigned bit;
	const char *name;
} formats[] = {
	{ DEVIMG_PLUGIN_FORMAT_SPIRV, "spirv" },
	{ DEVIMG_PLUGIN_FORMAT_SPIR, "spir" },
	{ DEVIMG_PLUGIN_FORMAT_NATIVE, "native" },
	{ DEVIMG_PLUGIN_FORMAT_PTX, "ptx" },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static const char *type_name(enum devimg_device_type type)
{
	switch (type) {
	case DEVIMG_DEVICE_CPU:
		return "cpu";
	case DEVIMG_DEVICE_GPU:
		return "gpu";
	case DEVIMG_DEVICE_ACCELERATOR:
		return "accelerator";
	}
	return "unknown";
}

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

/* A JSON string, losing no byte (esc_json()). */
static void json_str(const char *s)
{
	const char *t = str_or_empty(s);

	esc_json(stdout, t, strlen(t));
}

/* The device's index among the context's devices of its backend. */
static unsigned backend_index(struct devimg_ctx *ctx, unsigned i)
{
	const char *backend = devimg_device_backend(devimg_device_get(ctx, i));
	unsigned j, n = 0;

	for (j = 0; j < i; j++)
		if (!strcmp(devimg_device_backend(devimg_device_get(ctx, j)),
			    backend))
			n++;
	return n;
}

static void print_text(struct devimg_ctx *ctx)
{
	unsigned i, f, n = devimg_device_count(ctx);

	for (i = 0; i < n; i++) {
		struct devimg_device *dev = devimg_device_get(ctx, i);
		const struct devimg_plugin_device_info *info = dev->info;
		const char *sep = "";

		esc_fprintf(stdout, NULL, "[%s:%u] %s, %s, %s, formats: ",
			    devimg_device_backend(dev),
			    backend_index(ctx, i),
			    type_name(dev->caps.type),
			    devimg_device_name(dev),
			    str_or_empty(info->version));
		for (f = 0; f < NFORMATS; f++) {
			if (info->formats & formats[f].bit) {
				printf("%s%s", sep, formats[f].name);
				sep = " ";
			}
		}
		printf("%s, spec-constants: %s, global-offset: %s\n",
		       *sep ? "" : "none",
		       info->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS ?
			       "native" : "emulated",
		       info->caps & DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET ?
			       "native" : "emulated");
	}
}

static void print_json(struct devimg_ctx *ctx, struct devimg_plugins *ps,
		       int verbose)
{
	unsigned i, f, n = devimg_device_count(ctx);

	/* docs/dump-json.md, "devimg-ls --json". */
	printf("{\"format_version\": 1, ");
	if (verbose) {
		unsigned np = ps ? devimg_plugins_count(ps) : 0;

		printf("\"plugins\": [");
		for (i = 0; i < np; i++) {
			struct devimg_plugin *p = devimg_plugins_get(ps, i);

			printf("%s{\"backend\": ", i ? ", " : "");
			json_str(devimg_plugin_backend(p));
			printf(", \"file\": ");
			json_str(devimg_plugin_file(p));
			printf("}");
		}
		printf("], ");
	}
	printf("\"devices\": [");
	for (i = 0; i < n; i++) {
		struct devimg_device *dev = devimg_device_get(ctx, i);
		const struct devimg_plugin_device_info *info = dev->info;
		const char *sep = "";

		printf("%s\n  {\"backend\": ", i ? "," : "");
		json_str(devimg_device_backend(dev));
		printf(", \"index\": %u, \"type\": ", backend_index(ctx, i));
		json_str(type_name(dev->caps.type));
		printf(", \"name\": ");
		json_str(devimg_device_name(dev));
		printf(", \"vendor\": ");
		json_str(info->vendor);
		printf(", \"version\": ");
		json_str(info->version);
		printf(", \"driver_version\": ");
		json_str(info->driver_version);
		printf(", \"formats\": [");
		for (f = 0; f < NFORMATS; f++) {
			if (info->formats & formats[f].bit) {
				printf("%s", sep);
				json_str(formats[f].name);
				sep = ", ";
			}
		}
		printf("], \"native_spec_constants\": %s",
		       info->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS ?
			       "true" : "false");
		printf(", \"native_global_offset\": %s",
		       info->caps & DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET ?
			       "true" : "false");
		if (dev->caps.cuda_cc)
			printf(", \"cuda_cc\": %u", dev->caps.cuda_cc);
		printf("}");
	}
	printf("%s]}\n", n ? "\n" : "");
}

static void print_plugins(struct devimg_plugins *ps)
{
	unsigned i, np = ps ? devimg_plugins_count(ps) : 0;

	printf("plugins: %u\n", np);
	for (i = 0; i < np; i++) {
		struct devimg_plugin *p = devimg_plugins_get(ps, i);

		esc_fprintf(stdout, NULL, "  %s: %s\n",
			    devimg_plugin_backend(p),
			    devimg_plugin_file(p));
	}
}

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [-v] [--json]\n"
	      "List the devices libdevimg sees through its plugins.\n"
	      "\n"
	      "  -v, --verbose  also list the plugins that were bound\n"
	      "  -j, --json     print one JSON object\n"
	      "  -h, --help     print this help and exit\n"
	      "  -V, --version  print the version and exit\n"
	      "\n"
	      "DEVIMG_DEVICE_SELECTOR and DEVIMG_PLUGIN_PATH apply.\n",
	      f);
}

/* What follows "it has 0: " in libdevimg's message, or all of it. */
static const char *no_device_why(const char *msg)
{
	const char *why = strstr(msg, "it has 0: ");

	return why ? why + strlen("it has 0: ") : msg;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct devimg_plugins *ps;
	struct devimg_ctx *ctx;
	int c, err, json = 0, verbose = 0;

	while ((c = getopt_long(argc, argv, "vjhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			puts(PROG " (" PACKAGE_NAME ") " PACKAGE_VERSION);
			return 0;
		default:
			fputs("Try '" PROG " --help'.\n", stderr);
			return 2;
		}
	}
	if (optind < argc) {
		esc_fprintf(stderr, NULL,
			    PROG ": unexpected argument '%s'\n",
			    argv[optind]);
		return 2;
	}

	/*
	 * Every device is listed: start every plugin now, side by side,
	 * rather than the first alone for the context's first device.
	 */
	ps = dispatch_plugins();
	devimg_plugins_count(ps);
	err = devimg_ctx_new(&ctx);
	if (err < 0) {
		/* Escaped by libdevimg; a build log keeps its lines. */
		const char *msg = devimg_last_error();

		fprintf(stderr, PROG ": %s\n",
			*msg ? msg : devimg_strerror(err));
		return 1;
	}
	if (json) {
		print_json(ctx, ps, verbose);
	} else {
		if (verbose)
			print_plugins(ps);
		print_text(ctx);
	}
	/* Why none: libdevimg's account of its search, escaped there. */
	if (devimg_device_count(ctx) == 0 && !devimg_device_get(ctx, 0))
		fprintf(stderr, PROG ": no devices: %s\n",
			no_device_why(devimg_last_error()));
	devimg_ctx_unref(ctx);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs(PROG ": cannot write standard output\n", stderr);
		return 1;
	}
	return 0;
}
