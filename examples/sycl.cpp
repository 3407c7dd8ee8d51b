// SPDX-License-Identifier: MIT
/*
 * SYCL kernels compiled by upstream clang (-fsycl, 22 or 23) and run
 * through libdevimg, with no SYCL library: the few lines of a runtime that
 * a kernel launch needs are written here on top of devimg's C API.
 *
 *   clang++-23 -fsycl -c sycl.cpp -I include
 *   clang++-23 --offload-link sycl.o -o sycl -ldevimg
 *
 * clang compiles the body of each function marked
 * [[clang::sycl_kernel_entry_point(Name)]] for the device as the kernel
 * "_ZTS" + Name's mangling (here _ZTS4Fill and _ZTS5Scale), taking the
 * kernel object (the lambda and what it captured) by value.
 * clang-linker-wrapper links the device code with clang-sycl-linker into
 * SPIR-V and adds a constructor that registers it with
 * __sycl_register_lib(), which libdevimg implements. On the host, clang
 * 23 replaces the entry point's body with a call to
 * sycl_kernel_launch<Name>(kernel name, kernel object), which this file
 * defines; clang 22 leaves the host body empty, so parallel_for() calls
 * the launcher itself, naming the kernel with
 * __builtin_sycl_unique_stable_name().
 *
 * The kernel objects capture host pointers: the device must share the
 * host's address space (system USM, aspect usm_system_allocations), as
 * PoCL's CPU device does.
 */
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include <devimg/devimg.h>

#ifdef __SYCL_DEVICE_ONLY__
/* The SPIR-V built-in, recognised by name by LLVM's SPIR-V backend. */
size_t __spirv_BuiltInGlobalInvocationId(int dim);
#endif

namespace {

/* What the launcher uses: one device, one queue, the range to run. */
struct launch_state {
	struct devimg_device *dev;
	struct devimg_queue *q;
	size_t range;
	int err;
};

launch_state state;

int report(const char *what, const char *name, int err)
{
	const char *detail = devimg_last_error();

	std::fprintf(stderr, "sycl: %s %s: %s%s%s\n", what, name,
		     devimg_strerror(err), detail && *detail ? ": " : "",
		     detail ? detail : "");
	return err;
}

template <typename Name, typename Kernel>
[[clang::sycl_kernel_entry_point(Name)]] void kernel_entry(Kernel k)
{
#ifdef __SYCL_DEVICE_ONLY__
	k(__spirv_BuiltInGlobalInvocationId(0));
#else
	(void)k;
#endif
}

} // namespace

/*
 * Called by the host side of kernel_entry() (clang 23) or parallel_for()
 * (clang 22): each argument is one kernel parameter, passed by value.
 */
template <typename Name, typename... Args>
void sycl_kernel_launch(const char *name, Args... args)
{
	struct devimg_kernel *k = nullptr;
	unsigned i = 0;
	int err;

	if (state.err)
		return;
	err = devimg_kernel_new(state.dev, name, &k);
	if (err) {
		state.err = report("finding kernel", name, err);
		return;
	}
	((err = err ? err : devimg_kernel_set_arg(k, i++, sizeof(args), &args)),
	 ...);
	if (!err)
		err = devimg_launch(state.q, k, 1, nullptr, &state.range,
				    nullptr);
	if (!err)
		err = devimg_queue_finish(state.q);
	if (err)
		state.err = report("running kernel", name, err);
	devimg_kernel_unref(k);
}

namespace {

template <typename Name, typename Kernel>
void parallel_for(size_t n, Kernel k)
{
	state.range = n;
	kernel_entry<Name>(k);
#if __clang_major__ < 23
	sycl_kernel_launch<Name>(__builtin_sycl_unique_stable_name(Name), k);
#endif
}

/* The first device that shares the host's address space, or NULL. */
struct devimg_device *shared_memory_device(struct devimg_ctx *ctx)
{
	const uint64_t usm_system =
		1ull << DEVIMG_ASPECT_USM_SYSTEM_ALLOCATIONS;
	unsigned i, n = devimg_device_count(ctx);

	for (i = 0; i < n; i++) {
		struct devimg_device *dev = devimg_device_get(ctx, i);
		struct devimg_device_features f = {};

		f.size = sizeof(f);
		if (!devimg_device_features(dev, &f) &&
		    (f.aspects & f.aspects_known & usm_system))
			return dev;
	}
	return nullptr;
}

} // namespace

struct Fill;
struct Scale;

/*
 * Built with -DSYCL_EXAMPLE_LIBRARY, the program is a shared library whose
 * sycl_example_main() a test calls after dlopen().
 */
#ifdef SYCL_EXAMPLE_LIBRARY
extern "C" __attribute__((visibility("default"))) int sycl_example_main()
#else
int main()
#endif
{
	enum { N = 256 };
	static int out[N];
	struct devimg_ctx *ctx;
	int *p = out, k = 3, bad = 0, err;

	err = devimg_ctx_new(&ctx);
	if (err)
		return report("creating", "the context", err), EXIT_FAILURE;
	state.dev = shared_memory_device(ctx);
	if (!state.dev) {
		std::fprintf(stderr, "sycl: no device shares the host's memory (usm_system_allocations; PoCL's CPU device does)\n");
		devimg_ctx_unref(ctx);
		return EXIT_FAILURE;
	}
	err = devimg_queue_new(state.dev, &state.q);
	if (err) {
		report("creating a queue on", devimg_device_name(state.dev),
		       err);
		devimg_ctx_unref(ctx);
		return EXIT_FAILURE;
	}
	std::printf("device: %s (%s)\n", devimg_device_name(state.dev),
		    devimg_device_backend(state.dev));

	parallel_for<Fill>(N, [=](size_t i) { p[i] = (int)i * k; });
	parallel_for<Scale>(N, [=](size_t i) { p[i] = p[i] * 2 + 1; });

	devimg_queue_unref(state.q);
	devimg_ctx_unref(ctx);
	if (state.err)
		return EXIT_FAILURE;
	for (int i = 0; i < N; i++)
		bad += out[i] != i * k * 2 + 1;
	std::printf("fill and scale of %d ints: out[0]=%d out[%d]=%d, %s\n",
		    N, out[0], N - 1, out[N - 1],
		    bad ? "WRONG" : "all correct");
	return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
