/* SPDX-License-Identifier: MIT */
/*
 * The part of the CUDA driver API that devimg calls, declared here with the
 * values NVIDIA documents in cuda.h, so that the plugin (and the launch
 * benchmark) build without the CUDA toolkit: libcuda.so.1 is opened at run
 * time and its entry points are looked up by their exported names, which
 * carry a _v2 suffix where the ABI of a call changed.
 */
#ifndef DEVIMG_CUDA_DRIVER_H
#define DEVIMG_CUDA_DRIVER_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;	/* CUdeviceptr_v2 on LP64 */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUlinkState_st *CUlinkState;
typedef size_t (*CUoccupancyB2DSize)(int block_size);

/* The driver's soname; DEVIMG_CUDA_DRIVER names another file. */
#define CU_DRIVER_SONAME "libcuda.so.1"

/* CUresult values the plugin tells apart (cudaError_enum). */
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_DEINITIALIZED = 4,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
	CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_DEVICE_NOT_LICENSED = 102,
	CUDA_ERROR_INVALID_IMAGE = 200,
	CUDA_ERROR_INVALID_CONTEXT = 201,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
	CUDA_ERROR_INVALID_SOURCE = 300,
	CUDA_ERROR_FILE_NOT_FOUND = 301,
	CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
	CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303,
	CUDA_ERROR_OPERATING_SYSTEM = 304,
	CUDA_ERROR_INVALID_HANDLE = 400,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_NOT_READY = 600,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
	CUDA_ERROR_LAUNCH_TIMEOUT = 702,
	CUDA_ERROR_LAUNCH_FAILED = 719,
	CUDA_ERROR_NOT_PERMITTED = 800,
	CUDA_ERROR_NOT_SUPPORTED = 801,
	CUDA_ERROR_SYSTEM_NOT_READY = 802,
	CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	CUDA_ERROR_UNKNOWN = 999,
};

/* CUdevice_attribute */
enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
	CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/* CUfunction_attribute */
enum {
	CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
	CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/* CUjit_option */
enum {
	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	CU_JIT_OPTIMIZATION_LEVEL = 7,
	CU_JIT_GENERATE_LINE_INFO = 13,
};

/* CUjitInputType */
enum {
	CU_JIT_INPUT_CUBIN = 0,
	CU_JIT_INPUT_PTX = 1,
	CU_JIT_INPUT_FATBINARY = 2,
};

/* CUstream_flags, CUmemAttach_flags */
enum {
	CU_STREAM_NON_BLOCKING = 0x1,
	CU_MEM_ATTACH_GLOBAL = 0x1,
};

/*
 * The entry points: X(field, exported symbol, parameters). Every call
 * returns CUresult. The required ones exist in every driver since CUDA 11;
 * the optional ones may be NULL (cuFuncGetParamInfo came with 12.4; a
 * driver without the cuLink calls cannot link programs).
 */
#define CU_REQUIRED_FUNCTIONS(X)					\
	X(cuInit, cuInit, (unsigned int flags))				\
	X(cuDriverGetVersion, cuDriverGetVersion, (int *version))	\
	X(cuDeviceGetCount, cuDeviceGetCount, (int *count))		\
	X(cuDeviceGet, cuDeviceGet, (CUdevice *dev, int ordinal))	\
	X(cuDeviceGetName, cuDeviceGetName,				\
	  (char *name, int len, CUdevice dev))				\
	X(cuDeviceGetAttribute, cuDeviceGetAttribute,			\
	  (int *value, int attrib, CUdevice dev))			\
	X(cuDeviceTotalMem, cuDeviceTotalMem_v2,			\
	  (size_t *bytes, CUdevice dev))				\
	X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain,		\
	  (CUcontext *ctx, CUdevice dev))				\
	X(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2,	\
	  (CUdevice dev))						\
	X(cuCtxGetCurrent, cuCtxGetCurrent, (CUcontext *ctx))		\
	X(cuCtxSetCurrent, cuCtxSetCurrent, (CUcontext ctx))		\
	X(cuStreamCreate, cuStreamCreate,				\
	  (CUstream *stream, unsigned int flags))			\
	X(cuStreamDestroy, cuStreamDestroy_v2, (CUstream stream))	\
	X(cuStreamSynchronize, cuStreamSynchronize, (CUstream stream))	\
	X(cuMemAlloc, cuMemAlloc_v2, (CUdeviceptr *ptr, size_t size))	\
	X(cuMemAllocManaged, cuMemAllocManaged,				\
	  (CUdeviceptr *ptr, size_t size, unsigned int flags))		\
	X(cuMemFree, cuMemFree_v2, (CUdeviceptr ptr))			\
	X(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2,			\
	  (CUdeviceptr dst, const void *src, size_t n, CUstream stream)) \
	X(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2,			\
	  (void *dst, CUdeviceptr src, size_t n, CUstream stream))	\
	X(cuModuleLoadDataEx, cuModuleLoadDataEx,			\
	  (CUmodule *mod, const void *image, unsigned int noptions,	\
	   int *options, void **values))				\
	X(cuModuleUnload, cuModuleUnload, (CUmodule mod))		\
	X(cuModuleGetFunction, cuModuleGetFunction,			\
	  (CUfunction *fn, CUmodule mod, const char *name))		\
	X(cuModuleGetGlobal, cuModuleGetGlobal_v2,			\
	  (CUdeviceptr *ptr, size_t *bytes, CUmodule mod,		\
	   const char *name))						\
	X(cuFuncGetAttribute, cuFuncGetAttribute,			\
	  (int *value, int attrib, CUfunction fn))			\
	X(cuFuncSetAttribute, cuFuncSetAttribute,			\
	  (CUfunction fn, int attrib, int value))			\
	X(cuLaunchKernel, cuLaunchKernel,				\
	  (CUfunction fn, unsigned int gx, unsigned int gy,		\
	   unsigned int gz, unsigned int bx, unsigned int by,		\
	   unsigned int bz, unsigned int shared_bytes, CUstream stream,	\
	   void **params, void **extra))

#define CU_OPTIONAL_FUNCTIONS(X)					\
	X(cuGetErrorName, cuGetErrorName,				\
	  (CUresult err, const char **name))				\
	X(cuFuncGetParamInfo, cuFuncGetParamInfo,			\
	  (CUfunction fn, size_t index, size_t *offset, size_t *size))	\
	X(cuOccupancyMaxPotentialBlockSize,				\
	  cuOccupancyMaxPotentialBlockSize,				\
	  (int *min_grid, int *block, CUfunction fn,			\
	   CUoccupancyB2DSize smem_of_block, size_t smem, int limit))	\
	X(cuLinkCreate, cuLinkCreate_v2,				\
	  (unsigned int noptions, int *options, void **values,		\
	   CUlinkState *state))						\
	X(cuLinkAddData, cuLinkAddData_v2,				\
	  (CUlinkState state, int type, void *data, size_t size,	\
	   const char *name, unsigned int noptions, int *options,	\
	   void **values))						\
	X(cuLinkComplete, cuLinkComplete,				\
	  (CUlinkState state, void **cubin, size_t *size))		\
	X(cuLinkDestroy, cuLinkDestroy, (CUlinkState state))

/* The table of entry points, filled by cu_driver_open() (driver.c). */
struct cu_driver {
	void *handle;
#define CU_FIELD(field, symbol, params) CUresult (*field) params;
	CU_REQUIRED_FUNCTIONS(CU_FIELD)
	CU_OPTIONAL_FUNCTIONS(CU_FIELD)
#undef CU_FIELD
};

#endif
