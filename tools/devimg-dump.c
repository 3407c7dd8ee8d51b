// SPDX-License-Identifier: MIT
/*
 * devimg-dump: the device images an ELF file, a SYCLBIN or an
 * OffloadBinary file carries, as text or JSON, or extracted; .props files
 * decoded or checked. The command line; the work is in wrapper/dump.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "wrapper/check.h"
#include "wrapper/dump.h"
#include "util/escape.h"
#include "wrapper/outfile.h"

#define PROG DUMP_PROG

/* ---- command line ---- */

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [--json | --extract DIR [--raw]] FILE...\n"
	      "       " PROG " --props [--json] FILE.props...\n"
	      "       " PROG " --check FILE.props...\n"
	      "Show the device images that ELF objects, executables and shared\n"
	      "libraries would register with __sycl_register_lib when loaded\n"
	      "(devimg-wrap's, DPC++'s and LLVM's forms), without running them;\n"
	      "also SYCLBIN files, OffloadBinary files and .llvm.offloading\n"
	      "sections (listed as llvm-objdump lists them).\n"
	      "\n"
	      "  -j, --json         print JSON (docs/dump-json.md)\n"
	      "  -x, --extract DIR  write each image to DIR/FILE.INDEX.TARGET.EXT; a\n"
	      "                     name written already in the same run gets a\n"
	      "                     number before EXT instead (.2, .3, ...)\n"
	      "  -r, --raw          with --extract: write compressed images as stored\n"
	      "                     (the zstd frame, .zst), not expanded\n"
	      "  -p, --props        the FILEs are .props files: decode them\n"
	      "  -c, --check        the FILEs are .props files: print what DPC++'s\n"
	      "                     tools would silently change or drop, and what\n"
	      "                     they refuse, one FILE:LINE: line each; exit 1\n"
	      "                     when there is any\n"
	      "  -h, --help         print this help and exit\n"
	      "  -V, --version      print the version and exit\n"
	      "\n"
	      "Exit status: 0 when every FILE was read, 1 when one could not\n"
	      "be, 2 on a usage error.\n", f);
}

static int check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s: --extract: %s\n",
			    dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		esc_fprintf(stderr, NULL, PROG ": %s: --extract: %s\n",
			    dir, strerror(ENOTDIR));
		return -1;
	}
	return 0;
}

/* Returns -1 to exit 2, 1 to exit 0 (help, version), 0 to go on. */
static int parse_args(int argc, char **argv, struct dump_job *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "extract", required_argument, NULL, 'x' },
		{ "props", no_argument, NULL, 'p' },
		{ "raw", no_argument, NULL, 'r' },
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, json = 0;

	while ((c = getopt_long(argc, argv, "jx:prchV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'x':
			o->dir = optarg;
			break;
		case 'p':
			o->props = 1;
			break;
		case 'r':
			o->raw = 1;
			break;
		case 'c':
			o->check = 1;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			puts(PROG " (" PACKAGE_NAME ") " PACKAGE_VERSION);
			return 1;
		default:
			fputs("Try '" PROG " --help'.\n", stderr);
			return -1;
		}
	}
	if (optind == argc) {
		fputs(PROG ": no FILE given; try '" PROG " --help'.\n", stderr);
		return -1;
	}
	if (o->dir && (json || o->props)) {
		fputs(PROG ": --extract cannot be combined with --json or --props\n",
		      stderr);
		return -1;
	}
	if (o->raw && !o->dir) {
		fputs(PROG ": --raw needs --extract\n", stderr);
		return -1;
	}
	if (o->check && (o->dir || json || o->props)) {
		fputs(PROG ": --check cannot be combined with other options\n",
		      stderr);
		return -1;
	}
	o->mode = o->dir ? DUMP_EXTRACT : json ? DUMP_JSON : DUMP_TEXT;
	return 0;
}

int main(int argc, char **argv)
{
	struct dump_job o = { 0 };
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? 2 : 0;
	if (o.mode == DUMP_EXTRACT && check_dir(o.dir) < 0)
		return 1;
	if (o.mode == DUMP_EXTRACT)
		out_catch_signals();
	if (o.check)
		return check_props_files(argv + optind, argc - optind);
	ret = dump_run(argv + optind, argc - optind, &o);
	dump_job_fini(&o);
	return ret;
}
