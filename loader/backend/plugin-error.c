// SPDX-License-Identifier: MIT
/*
 * backend_fail(): the error channel (error.c) for the program and
 * dispatch wings, whose messages quote the plugin's last one.
 */
#include <stdarg.h>

#include "loader/backend/backend.h"

int backend_fail(int err, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	err = error_vset(err, devimg_plugin_last_text(), format, ap);
	va_end(ap);
	return err;
}

int backend_fail_prefix(int err, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	err = error_vprefix(err, devimg_plugin_last_text(), format, ap);
	va_end(ap);
	return err;
}
