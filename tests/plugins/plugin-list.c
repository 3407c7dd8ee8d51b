// SPDX-License-Identifier: MIT
/*
 * plugin-list [--devices|--link]: bind plugins as the environment says and
 * print one line per plugin ("backend file"); with --devices, also one line
 * per device that DEVIMG_DEVICE_SELECTOR keeps ("backend:index type name"),
 * numbered per backend across its platforms, through the traced calls; with
 * --link, the result and message of program_compile and program_link
 * ("backend: op = rc: message"), called with no program.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/backend/plugins.h"
#include "loader/backend/device-selector.h"

static int list_devices(struct devimg_plugin *p,
			const struct devimg_selector *sel)
{
	struct devimg_plugin_platform *pl[8];
	struct devimg_plugin_device *dev[32];
	unsigned npl, ndev, i, j, index = 0;

	if (devimg_plugin_platform_list(p, 8, pl, &npl) < 0)
		return -1;
	for (i = 0; i < npl && i < 8; i++) {
		devimg_plugin_platform_info(p, pl[i]);
		if (devimg_plugin_device_list(p, pl[i], 32, dev, &ndev) < 0)
			return -1;
		for (j = 0; j < ndev && j < 32; j++, index++) {
			const struct devimg_plugin_device_info *di =
				devimg_plugin_device_info(p, dev[j]);

			if (!devimg_selector_keep(sel, di->backend, index,
						  di->type))
				continue;
			printf("%s:%u %s %s\n", di->backend, index,
			       devimg_plugin_type_name(di->type), di->name);
		}
	}
	return 0;
}

/* The optional operations, called where a plugin refuses them. */
static void try_link(struct devimg_plugin *p)
{
	struct devimg_plugin_program *out = NULL;
	int rc;

	rc = devimg_plugin_program_compile(p, NULL, "");
	printf("%s: program_compile = %d: %s\n", devimg_plugin_backend(p), rc,
	       devimg_plugin_last_error(p));
	rc = devimg_plugin_program_link(p, NULL, NULL, 0, NULL, "", &out);
	printf("%s: program_link = %d: %s\n", devimg_plugin_backend(p), rc,
	       devimg_plugin_last_error(p));
}

int main(int argc, char **argv)
{
	bool devices = argc > 1 && !strcmp(argv[1], "--devices");
	bool link = argc > 1 && !strcmp(argv[1], "--link");
	struct devimg_plugins_config cfg;
	struct devimg_selector_error err;
	struct devimg_selector *sel;
	struct devimg_plugins *ps;
	unsigned i;
	int rc = EXIT_SUCCESS;

	if (devimg_selector_parse(getenv("DEVIMG_DEVICE_SELECTOR"), &sel,
				  &err) < 0) {
		fprintf(stderr, "DEVIMG_DEVICE_SELECTOR: %s\n", err.msg);
		return EXIT_FAILURE;
	}
	devimg_plugins_config_env(&cfg);
	if (devimg_plugins_load(&cfg, &ps) < 0) {
		fprintf(stderr, "plugin-list: out of memory\n");
		devimg_selector_free(sel);
		return EXIT_FAILURE;
	}
	for (i = 0; i < devimg_plugins_count(ps); i++) {
		struct devimg_plugin *p = devimg_plugins_get(ps, i);

		printf("%s %s\n", devimg_plugin_backend(p),
		       devimg_plugin_file(p));
		if (devices && list_devices(p, sel) < 0)
			rc = EXIT_FAILURE;
		if (link)
			try_link(p);
	}
	devimg_plugins_free(ps);
	devimg_selector_free(sel);
	return rc;
}
