// SPDX-License-Identifier: MIT
/*
 * Level Zero results: their names, the errno values the plugin interface
 * returns for them, and the per-thread message of the last failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "level_zero.h"

/* Long enough for a useful build log; longer ones are cut with a note. */
#define MSG_SIZE 16384

static _Thread_local char msg[MSG_SIZE];

static const struct {
	ze_result_t res;
	const char *name;
} results[] = {
#define RESULT(name) { name, #name }
	RESULT(ZE_RESULT_SUCCESS),
	RESULT(ZE_RESULT_NOT_READY),
	RESULT(ZE_RESULT_ERROR_DEVICE_LOST),
	RESULT(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY),
	RESULT(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY),
	RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE),
	RESULT(ZE_RESULT_ERROR_MODULE_LINK_FAILURE),
	RESULT(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET),
	RESULT(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE),
	RESULT(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS),
	RESULT(ZE_RESULT_ERROR_NOT_AVAILABLE),
	RESULT(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE),
	RESULT(ZE_RESULT_ERROR_UNINITIALIZED),
	RESULT(ZE_RESULT_ERROR_UNSUPPORTED_VERSION),
	RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE),
	RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT),
	RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE),
	RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE),
	RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER),
	RESULT(ZE_RESULT_ERROR_INVALID_SIZE),
	RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE),
	RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT),
	RESULT(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT),
	RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION),
	RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION),
	RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT),
	RESULT(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY),
	RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME),
	RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME),
	RESULT(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME),
	RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION),
	RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION),
	RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX),
	RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE),
	RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE),
	RESULT(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED),
	RESULT(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE),
	RESULT(ZE_RESULT_ERROR_OVERLAPPING_REGIONS),
	RESULT(ZE_RESULT_ERROR_UNKNOWN),
#undef RESULT
};

const char *lz_result_name(ze_result_t res)
{
	size_t i;

	for (i = 0; i < sizeof(results) / sizeof(results[0]); i++)
		if (results[i].res == res)
			return results[i].name;
	return "unknown Level Zero result";
}

int lz_errno(ze_result_t res)
{
	switch (res) {
	case ZE_RESULT_SUCCESS:
		return 0;
	case ZE_RESULT_ERROR_DEVICE_LOST:
	case ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET:
	case ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE:
	case ZE_RESULT_ERROR_UNINITIALIZED:
		return -ENODEV;
	case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
	case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
		return -ENOMEM;
	case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE:
	case ZE_RESULT_ERROR_MODULE_LINK_FAILURE:
	case ZE_RESULT_ERROR_INVALID_NATIVE_BINARY:
	case ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED:
		return -ENOEXEC;
	case ZE_RESULT_ERROR_INVALID_KERNEL_NAME:
	case ZE_RESULT_ERROR_INVALID_FUNCTION_NAME:
		return -ENOENT;
	case ZE_RESULT_ERROR_NOT_AVAILABLE:
	case ZE_RESULT_ERROR_UNSUPPORTED_VERSION:
	case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
	case ZE_RESULT_ERROR_UNSUPPORTED_SIZE:
	case ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT:
	case ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION:
	case ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT:
		return -ENOTSUP;
	case ZE_RESULT_ERROR_INVALID_ARGUMENT:
	case ZE_RESULT_ERROR_INVALID_NULL_HANDLE:
	case ZE_RESULT_ERROR_INVALID_NULL_POINTER:
	case ZE_RESULT_ERROR_INVALID_SIZE:
	case ZE_RESULT_ERROR_INVALID_ENUMERATION:
	case ZE_RESULT_ERROR_INVALID_GLOBAL_NAME:
	case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION:
	case ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION:
	case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX:
	case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE:
	case ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE:
	case ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE:
	case ZE_RESULT_ERROR_OVERLAPPING_REGIONS:
		return -EINVAL;
	default:
		return -EIO;
	}
}

static void vset(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static void vset(const char *fmt, va_list ap)
{
	vsnprintf(msg, sizeof(msg), fmt, ap);
}

int lz_fail(ze_result_t res, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vset(fmt, ap);
	va_end(ap);
	len = strlen(msg);
	snprintf(msg + len, sizeof(msg) - len, ": %s (0x%08x)",
		 lz_result_name(res), (unsigned)res);
	return lz_errno(res);
}

int lz_error(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(fmt, ap);
	va_end(ap);
	return errnum;
}

void lz_error_append(const char *text)
{
	static const char cut[] = "\n[... truncated]";
	size_t len = strlen(msg), room = sizeof(msg) - len;
	size_t n = strlen(text);

	if (n < room) {
		memcpy(msg + len, text, n + 1);
		return;
	}
	memcpy(msg + len, text, room - 1);
	memcpy(msg + sizeof(msg) - sizeof(cut), cut, sizeof(cut));
}

const char *lz_last_error(void)
{
	return msg;
}
