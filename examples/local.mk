# The demo the README's first command runs: device code in OpenCL C, built
# by clang to SPIR bitcode and translated by llvm-spirv to SPIR-V, both
# images of the same kernel wrapped by devimg-wrap into one object, linked
# into a host program with libdevimg and run on the first device (PoCL on
# the CPU). Image selection picks what the device ingests: SPIR-V where it
# takes IL (PoCL 6, Intel, Level Zero), SPIR where it does not (PoCL 3.1,
# PoCL 5 as Ubuntu 24.04 builds it). SPIR-V is wrapped last: a device that
# takes both falls back to the last spir64 image, so it runs SPIR-V.
# Without llvm-spirv only SPIR is wrapped.
EXTRA_DIST += examples/vadd.cl examples/vadd.sym examples/vadd.props

examples/vadd.bc: $(top_srcdir)/examples/vadd.cl
	$(AM_V_GEN)$(MKDIR_P) examples && $(SPIR_COMPILE) -o $@ $<

vadd_wrap_opts = -kind=sycl -target=spir64 \
	-entries=$(top_srcdir)/examples/vadd.sym \
	-properties=$(top_srcdir)/examples/vadd.props
if HAVE_LLVM_SPIRV
vadd_images = examples/vadd.bc examples/vadd.spv
vadd_wrap_images = -format=llvmbc examples/vadd.bc -format=spirv examples/vadd.spv
else
vadd_images = examples/vadd.bc
vadd_wrap_images = -format=llvmbc examples/vadd.bc
endif

examples/vadd-wrap.o: $(vadd_images) devimg-wrap$(EXEEXT)
	$(AM_V_GEN)./devimg-wrap -o $@ $(vadd_wrap_opts) $(vadd_wrap_images)

EXTRA_PROGRAMS += examples/vadd
examples_vadd_SOURCES = examples/vadd.c
examples_vadd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
examples_vadd_LDADD = examples/vadd-wrap.o loader/libdevimg.la
examples_vadd_DEPENDENCIES = examples/vadd-wrap.o loader/libdevimg.la

CLEANFILES += examples/vadd.bc examples/vadd.spv examples/vadd-wrap.o \
	examples/vadd$(EXEEXT)

.PHONY: demo
demo: examples/vadd$(EXEEXT) devimg-dump$(EXEEXT) $(plugin_LTLIBRARIES)
	./devimg-dump examples/vadd-wrap.o
	@mkdir -p examples/pocl-cache
	POCL_CACHE_DIR=$(abs_builddir)/examples/pocl-cache \
	DEVIMG_PLUGIN_PATH=$(abs_builddir)/plugins/.libs ./examples/vadd

# A counter in a device global across launches, on a CUDA GPU: the device
# code is CUDA C in the form a SYCL compiler lowers it to, compiled to PTX
# by clang, wrapped with its "SYCL/device globals" properties;
# tests/cuda/example.sh runs it.
EXTRA_DIST += examples/device-global.cu examples/device-global.sym \
	examples/device-global.props

if HAVE_PTX
examples/device-global.ptx: $(top_srcdir)/examples/device-global.cu
	$(AM_V_GEN)$(MKDIR_P) examples && $(CLANG) -x cuda \
		--cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
		-Wno-unknown-cuda-version $(CUDA_PTX_FLAGS) -O2 -S -o $@ $<

examples/device-global-wrap.o: examples/device-global.ptx devimg-wrap$(EXEEXT)
	$(AM_V_GEN)./devimg-wrap -o $@ -kind=sycl -target=nvptx64 \
		-format=native -entries=$(top_srcdir)/examples/device-global.sym \
		-properties=$(top_srcdir)/examples/device-global.props \
		examples/device-global.ptx

check_PROGRAMS += examples/device-global
examples_device_global_SOURCES = examples/device-global.c
examples_device_global_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
examples_device_global_LDADD = examples/device-global-wrap.o \
	loader/libdevimg.la
examples_device_global_DEPENDENCIES = examples/device-global-wrap.o \
	loader/libdevimg.la
endif

CLEANFILES += examples/device-global.ptx examples/device-global-wrap.o

# SYCL kernels compiled by upstream clang (22 or later) with -fsycl and
# linked by its clang-linker-wrapper (clang++ --offload-link), run through
# libdevimg with no SYCL library: examples/sycl.cpp says how. Not part of
# the build, as Debian 12 and 13 have no such clang: `make demo-sycl
# SYCL_CXX=clang++-23`. clang-22 runs clang-sycl-linker by its bare name,
# so its folder goes first on PATH.
EXTRA_DIST += examples/sycl.cpp
SYCL_CXX = clang++

.PHONY: demo-sycl
demo-sycl: loader/libdevimg.la devimg-dump$(EXEEXT) $(plugin_LTLIBRARIES)
	@$(MKDIR_P) examples/pocl-cache
	$(SYCL_CXX) -fsycl -I$(top_srcdir)/include -c \
		$(top_srcdir)/examples/sycl.cpp -o examples/sycl.o
	PATH="$$(dirname "$$($(SYCL_CXX) -print-prog-name=clang-sycl-linker)"):$$PATH" \
	$(SYCL_CXX) --offload-link examples/sycl.o -o examples/sycl \
		-L$(abs_builddir)/loader/.libs -ldevimg \
		-Wl,-rpath,$(abs_builddir)/loader/.libs
	./devimg-dump examples/sycl
	POCL_CACHE_DIR=$(abs_builddir)/examples/pocl-cache \
	DEVIMG_PLUGIN_PATH=$(abs_builddir)/plugins/.libs ./examples/sycl

CLEANFILES += examples/sycl.o examples/sycl
