// SPDX-License-Identifier: MIT
/*
 * Driver results: their names, the errno values the plugin interface
 * returns for them, and the per-thread message of the last failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plugins/cuda/cuda-plugin.h"


/*
 * Names of the results the plugin meets most, for a driver whose
 * cuGetErrorName does not know a code (or is missing).
 */
static const struct {
	CUresult code;
	const char *name;
} cu_errors[] = {
#define NAME(code) { code, #code }
	NAME(CUDA_SUCCESS),
	NAME(CUDA_ERROR_INVALID_VALUE),
	NAME(CUDA_ERROR_OUT_OF_MEMORY),
	NAME(CUDA_ERROR_NOT_INITIALIZED),
	NAME(CUDA_ERROR_DEINITIALIZED),
	NAME(CUDA_ERROR_STUB_LIBRARY),
	NAME(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER),
	NAME(CUDA_ERROR_DEVICE_UNAVAILABLE),
	NAME(CUDA_ERROR_NO_DEVICE),
	NAME(CUDA_ERROR_INVALID_DEVICE),
	NAME(CUDA_ERROR_DEVICE_NOT_LICENSED),
	NAME(CUDA_ERROR_INVALID_IMAGE),
	NAME(CUDA_ERROR_INVALID_CONTEXT),
	NAME(CUDA_ERROR_NO_BINARY_FOR_GPU),
	NAME(CUDA_ERROR_INVALID_PTX),
	NAME(CUDA_ERROR_JIT_COMPILER_NOT_FOUND),
	NAME(CUDA_ERROR_UNSUPPORTED_PTX_VERSION),
	NAME(CUDA_ERROR_JIT_COMPILATION_DISABLED),
	NAME(CUDA_ERROR_INVALID_SOURCE),
	NAME(CUDA_ERROR_FILE_NOT_FOUND),
	NAME(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND),
	NAME(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED),
	NAME(CUDA_ERROR_OPERATING_SYSTEM),
	NAME(CUDA_ERROR_INVALID_HANDLE),
	NAME(CUDA_ERROR_NOT_FOUND),
	NAME(CUDA_ERROR_NOT_READY),
	NAME(CUDA_ERROR_ILLEGAL_ADDRESS),
	NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES),
	NAME(CUDA_ERROR_LAUNCH_TIMEOUT),
	NAME(CUDA_ERROR_LAUNCH_FAILED),
	NAME(CUDA_ERROR_NOT_PERMITTED),
	NAME(CUDA_ERROR_NOT_SUPPORTED),
	NAME(CUDA_ERROR_SYSTEM_NOT_READY),
	NAME(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH),
	NAME(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE),
	NAME(CUDA_ERROR_UNKNOWN),
#undef NAME
};

const char *cu_error_name(CUresult err)
{
	const char *name = NULL;
	size_t i;

	if (cu.cuGetErrorName && cu.cuGetErrorName(err, &name) == CUDA_SUCCESS &&
	    name)
		return name;
	for (i = 0; i < sizeof(cu_errors) / sizeof(cu_errors[0]); i++)
		if (cu_errors[i].code == err)
			return cu_errors[i].name;
	return "unknown CUDA error";
}

int cu_errno(CUresult err)
{
	switch (err) {
	case CUDA_SUCCESS:
		return 0;
	case CUDA_ERROR_INVALID_VALUE:
	case CUDA_ERROR_INVALID_CONTEXT:
	case CUDA_ERROR_INVALID_HANDLE:
		return -EINVAL;
	case CUDA_ERROR_OUT_OF_MEMORY:
	case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
		return -ENOMEM;
	case CUDA_ERROR_NOT_INITIALIZED:
	case CUDA_ERROR_DEINITIALIZED:
	case CUDA_ERROR_STUB_LIBRARY:
	case CUDA_ERROR_DEVICE_UNAVAILABLE:
	case CUDA_ERROR_NO_DEVICE:
	case CUDA_ERROR_INVALID_DEVICE:
	case CUDA_ERROR_DEVICE_NOT_LICENSED:
	case CUDA_ERROR_SYSTEM_NOT_READY:
	case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
	case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
		return -ENODEV;
	case CUDA_ERROR_INVALID_IMAGE:
	case CUDA_ERROR_NO_BINARY_FOR_GPU:
	case CUDA_ERROR_INVALID_PTX:
	case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
	case CUDA_ERROR_INVALID_SOURCE:
	case CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND:
	case CUDA_ERROR_SHARED_OBJECT_INIT_FAILED:
		return -ENOEXEC;
	case CUDA_ERROR_NOT_FOUND:
		return -ENOENT;
	case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER:
	case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
	case CUDA_ERROR_JIT_COMPILATION_DISABLED:
	case CUDA_ERROR_NOT_SUPPORTED:
		return -ENOTSUP;
	default:
		return -EIO;
	}
}

int cu_fail(CUresult err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plugin_verror(0, fmt, ap);
	va_end(ap);
	plugin_error_appendf(": %s (%d)", cu_error_name(err), (int)err);
	return cu_errno(err);
}
