# tests/plugins: the plugin set of libdevimg (loader/backend/local.mk) and
# the OpenCL plugin (plugins/opencl/local.mk): discovery, the selector,
# kernels, linking and device globals, on PoCL, NVIDIA's OpenCL and a
# fake driver.

# The plugin set linked on its own, with the core and the registry it
# needs: only the tests of this folder build so.
PLUGIN_TEST_CPPFLAGS = $(AM_CPPFLAGS)
PLUGIN_TEST_LDADD = loader/libdevimg-plugins.la \
	loader/libdevimg-registry.la $(libdevimg_libadd)

# Selector grammar: Check unit tests.
check_PROGRAMS += tests/plugins/selector-test
TESTS += tests/plugins/selector-test
tests_plugins_selector_test_SOURCES = tests/plugins/selector-test.c
tests_plugins_selector_test_CPPFLAGS = $(PLUGIN_TEST_CPPFLAGS)
tests_plugins_selector_test_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_plugins_selector_test_LDADD = $(PLUGIN_TEST_LDADD) $(CHECK_LIBS)

# Lists bound plugins and their devices through the traced calls.
check_PROGRAMS += tests/plugins/plugin-list
tests_plugins_plugin_list_SOURCES = tests/plugins/plugin-list.c
tests_plugins_plugin_list_CPPFLAGS = $(PLUGIN_TEST_CPPFLAGS)
tests_plugins_plugin_list_LDADD = $(PLUGIN_TEST_LDADD)

# Runs kernels on an OpenCL device through the OpenCL plugin.
check_PROGRAMS += tests/plugins/opencl-run
tests_plugins_opencl_run_SOURCES = tests/plugins/opencl-run.c
tests_plugins_opencl_run_CPPFLAGS = $(PLUGIN_TEST_CPPFLAGS)
tests_plugins_opencl_run_LDADD = $(PLUGIN_TEST_LDADD)

# The SPIR-V path and native spec constants, where a device takes SPIR-V.
check_PROGRAMS += tests/plugins/opencl-spirv
tests_plugins_opencl_spirv_SOURCES = tests/plugins/opencl-spirv.c
tests_plugins_opencl_spirv_CPPFLAGS = $(PLUGIN_TEST_CPPFLAGS)
tests_plugins_opencl_spirv_LDADD = $(PLUGIN_TEST_LDADD)

# A plugin that fails to bind in the way DEVIMG_TEST_FAKE says.
check_LTLIBRARIES += tests/plugins/devimg-fake.la
tests_plugins_devimg_fake_la_SOURCES = tests/plugins/fake-plugin.c
tests_plugins_devimg_fake_la_CPPFLAGS = $(AM_CPPFLAGS)
tests_plugins_devimg_fake_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS)
# It also exports devimg_fake_*(), for tests to read back what it holds.
tests_plugins_devimg_fake_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -no-undefined \
	-export-symbols-regex '^devimg_(plugin_init|fake_.*)$$' -rpath /nowhere

# A library making a context in its constructor, and a program opening it
# (tests/plugins/lazy.sh): plugins starting inside a dlopen().
check_LTLIBRARIES += tests/plugins/ctx-in-ctor.la
tests_plugins_ctx_in_ctor_la_SOURCES = tests/plugins/ctx-in-ctor.c
tests_plugins_ctx_in_ctor_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_plugins_ctx_in_ctor_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -no-undefined -rpath /nowhere
tests_plugins_ctx_in_ctor_la_LIBADD = loader/libdevimg.la
check_PROGRAMS += tests/plugins/open-module
tests_plugins_open_module_SOURCES = tests/plugins/open-module.c
tests_plugins_open_module_LDADD = -ldl
# A context going through the plugins as far as the device asked for.
check_PROGRAMS += tests/plugins/first-device
tests_plugins_first_device_SOURCES = tests/plugins/first-device.c
tests_plugins_first_device_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_plugins_first_device_LDADD = loader/libdevimg.la
# Which plugins start under a selector, and that they start at once.
dist_check_SCRIPTS += tests/plugins/lazy.sh
TESTS += tests/plugins/lazy.sh

# A fake OpenCL driver, loaded by the ICD loader where OCL_ICD_VENDORS
# names a folder with its .icd file: tests/plugins/fake-icd.c.
if HAVE_OPENCL
check_LTLIBRARIES += tests/plugins/fake-icd.la
tests_plugins_fake_icd_la_SOURCES = tests/plugins/fake-icd.c
tests_plugins_fake_icd_la_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
tests_plugins_fake_icd_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS) \
	$(PTHREAD_CFLAGS)
tests_plugins_fake_icd_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -no-undefined -export-symbols-regex '^cl' -rpath /nowhere
tests_plugins_fake_icd_la_LIBADD = $(PTHREAD_LIBS)
endif

# Device globals through the OpenCL plugin's table (opened as the loader
# opens it): on the fake driver, which offers
# cl_intel_global_variable_access, and on PoCL, which does not.
check_PROGRAMS += tests/plugins/opencl-globals
tests_plugins_opencl_globals_SOURCES = tests/plugins/opencl-globals.c
tests_plugins_opencl_globals_CPPFLAGS = $(AM_CPPFLAGS)
tests_plugins_opencl_globals_LDADD = -ldl
# Its variables: LLVM IR as DPC++ gives device globals to llvm-spirv.
if HAVE_CLANG
if HAVE_LLVM_SPIRV
check_DATA += tests/plugins/globals.spv
endif
endif
CLEANFILES += tests/plugins/globals.spv tests/plugins/globals.spv.bc
EXTRA_DIST += tests/plugins/globals.ll
tests/plugins/globals.spv: $(top_srcdir)/tests/plugins/globals.ll
	$(AM_V_GEN)$(MKDIR_P) tests/plugins && \
	$(CLANG) -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -x ir \
		-o $@.bc $(top_srcdir)/tests/plugins/globals.ll && \
	$(SPIRV_TRANSLATE) --spirv-ext=+SPV_INTEL_global_variable_decorations \
		-o $@ $@.bc

# Device globals through the public API on PoCL (globals-pocl.sh): the
# runner, and its image made at build time from LLVM IR as DPC++ gives
# device globals to llvm-spirv, as SPIR bitcode (PoCL 3) and SPIR-V (PoCL 6).
check_PROGRAMS += tests/plugins/globals-pocl
tests_plugins_globals_pocl_SOURCES = tests/plugins/globals-pocl.c \
	tests/runner.h
tests_plugins_globals_pocl_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_plugins_globals_pocl_LDADD = loader/libdevimg.la -ldl
if HAVE_CLANG
check_DATA += tests/plugins/globals-pocl.bc
if HAVE_LLVM_SPIRV
check_DATA += tests/plugins/globals-pocl.spv
endif
endif
CLEANFILES += tests/plugins/globals-pocl.bc tests/plugins/globals-pocl.spv
EXTRA_DIST += tests/plugins/globals-pocl.ll
tests/plugins/globals-pocl.bc: $(top_srcdir)/tests/plugins/globals-pocl.ll
	$(AM_V_GEN)$(MKDIR_P) tests/plugins && \
	$(CLANG) -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -x ir \
		-o $@ $(top_srcdir)/tests/plugins/globals-pocl.ll
tests/plugins/globals-pocl.spv: tests/plugins/globals-pocl.bc
	$(AM_V_GEN)$(SPIRV_TRANSLATE) \
		--spirv-ext=+SPV_INTEL_global_variable_decorations -o $@ \
		tests/plugins/globals-pocl.bc

plugin_shell_tests = tests/plugins/discovery.sh \
	tests/plugins/opencl-pocl.sh tests/plugins/opencl-spirv.sh \
	tests/plugins/opencl-link.sh tests/plugins/opencl-nvidia.sh \
	tests/plugins/link-absent.sh \
	tests/plugins/opencl-globals-fake.sh \
	tests/plugins/opencl-globals-host-access.sh \
	tests/plugins/opencl-globals-pocl.sh \
	tests/plugins/globals-pocl.sh
dist_check_SCRIPTS += $(plugin_shell_tests)
TESTS += $(plugin_shell_tests)
# The kernels of opencl-pocl.sh, made at build time as SPIR 1.2 bitcode
# and the SPIR-V translated from it (the .spv rule of Makefile.am), so
# that a build tree carried to a machine without clang runs the test.
plugins_test_bitcode = tests/plugins/kernels.bc tests/plugins/broken.bc
if HAVE_CLANG
check_DATA += $(plugins_test_bitcode)
if HAVE_LLVM_SPIRV
check_DATA += $(plugins_test_bitcode:.bc=.spv)
endif
endif
CLEANFILES += $(plugins_test_bitcode) $(plugins_test_bitcode:.bc=.spv)
tests/plugins/%.bc: $(top_srcdir)/tests/plugins/%.cl
	$(AM_V_GEN)$(MKDIR_P) tests/plugins && $(SPIR_COMPILE) -o $@ $<

# PTX of the OpenCL flavour for NVIDIA's OpenCL, made at build time.
if HAVE_PTX
check_DATA += tests/plugins/nv-vadd.ptx
endif
CLEANFILES += tests/plugins/nv-vadd.ptx
tests/plugins/nv-vadd.ptx: $(top_srcdir)/tests/plugins/nv-vadd.cl
	$(AM_V_GEN)$(MKDIR_P) tests/plugins && \
	$(CLANG) -cc1 -triple nvptx64-nvidia-nvcl -target-cpu sm_80 \
		-cl-std=CL1.2 -O2 -S -o $@ $<

EXTRA_DIST += tests/plugins/nv-vadd.cl
EXTRA_DIST += tests/plugins/kernels.cl tests/plugins/broken.cl \
	tests/plugins/fill.spvasm tests/plugins/lsan.supp \
	tests/plugins/link-helper.spvasm tests/plugins/link-caller.spvasm
