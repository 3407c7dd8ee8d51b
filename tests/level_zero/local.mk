# tests/level_zero: the contract tests of the Level Zero plugin
# (plugins/level_zero/local.mk): the real loader with a recording driver
# the tests build, loaded as an alternate driver.
if HAVE_LEVEL_ZERO

# A Level Zero driver that records the calls it gets (ZE_RECORDING_LOG)
# and exports the DDI tables loader 1.8 asks an alternate driver for.
check_LTLIBRARIES += tests/level_zero/libze_recording_driver.la
tests_level_zero_libze_recording_driver_la_SOURCES = \
	tests/level_zero/ze-recording-driver.c \
	tests/level_zero/spirv-scan.c tests/level_zero/spirv-scan.h
tests_level_zero_libze_recording_driver_la_CPPFLAGS = $(AM_CPPFLAGS) \
	$(LEVEL_ZERO_CFLAGS)
tests_level_zero_libze_recording_driver_la_CFLAGS = $(AM_CFLAGS) \
	$(PTHREAD_CFLAGS)
tests_level_zero_libze_recording_driver_la_LDFLAGS = $(AM_LDFLAGS) \
	-module -avoid-version -shared -no-undefined -rpath /nowhere \
	-export-symbols-regex '^ze[st]?Get[A-Za-z]*ProcAddrTable$$'
tests_level_zero_libze_recording_driver_la_LIBADD = $(PTHREAD_LIBS)

# The dispatch API on the plugin (and, without a driver, on OpenCL).
check_PROGRAMS += tests/level_zero/contract-run
tests_level_zero_contract_run_SOURCES = tests/level_zero/contract-run.c
tests_level_zero_contract_run_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/include
tests_level_zero_contract_run_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
tests_level_zero_contract_run_LDADD = loader/libdevimg.la $(PTHREAD_LIBS) -ldl

# Kernel bundles and device image linking through libdevimg.
check_PROGRAMS += tests/level_zero/bundle-run
tests_level_zero_bundle_run_SOURCES = tests/level_zero/bundle-run.c
tests_level_zero_bundle_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_level_zero_bundle_run_CFLAGS = $(AM_CFLAGS)
tests_level_zero_bundle_run_LDADD = loader/libdevimg.la -ldl

# The plugin's operations called directly.
level_zero_plugin_check = tests/level_zero/plugin-check.c \
	tests/level_zero/plugin-check.h
check_PROGRAMS += tests/level_zero/plugin-ops
tests_level_zero_plugin_ops_SOURCES = tests/level_zero/plugin-ops.c \
	$(level_zero_plugin_check)
tests_level_zero_plugin_ops_CPPFLAGS = $(AM_CPPFLAGS)
tests_level_zero_plugin_ops_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
tests_level_zero_plugin_ops_LDADD = $(PTHREAD_LIBS) -ldl

# program_compile and program_link called directly.
check_PROGRAMS += tests/level_zero/link-ops
tests_level_zero_link_ops_SOURCES = tests/level_zero/link-ops.c \
	$(level_zero_plugin_check)
tests_level_zero_link_ops_CPPFLAGS = $(AM_CPPFLAGS)
tests_level_zero_link_ops_CFLAGS = $(AM_CFLAGS)
tests_level_zero_link_ops_LDADD = -ldl

level_zero_shell_tests = \
	tests/level_zero/kernels.sh \
	tests/level_zero/spec-constants.sh \
	tests/level_zero/native-binary.sh \
	tests/level_zero/no-global-offset.sh \
	tests/level_zero/build-failure.sh \
	tests/level_zero/threads.sh \
	tests/level_zero/plugin-ops.sh \
	tests/level_zero/link.sh \
	tests/level_zero/global-ops.sh \
	tests/level_zero/bundle.sh \
	tests/level_zero/two-drivers.sh \
	tests/level_zero/no-driver.sh \
	tests/level_zero/no-driver-opencl.sh
TESTS += $(level_zero_shell_tests)
dist_check_SCRIPTS += $(level_zero_shell_tests)

endif

# A plugin's device-global operations called directly: the CUDA tests run
# it too, so it is built whatever configure found.
check_PROGRAMS += tests/level_zero/global-ops
tests_level_zero_global_ops_SOURCES = tests/level_zero/global-ops.c \
	tests/level_zero/plugin-check.c tests/level_zero/plugin-check.h
tests_level_zero_global_ops_CPPFLAGS = $(AM_CPPFLAGS)
tests_level_zero_global_ops_CFLAGS = $(AM_CFLAGS)
tests_level_zero_global_ops_LDADD = -ldl

# Outside the condition: automake distributes the sources and scripts
# above whatever configure found, and these must go with them.
EXTRA_DIST += tests/level_zero/common.sh tests/level_zero/lsan.supp \
	tests/level_zero/kernels.spvasm tests/level_zero/spec.spvasm \
	tests/level_zero/broken.spvasm tests/level_zero/link-caller.spvasm \
	tests/level_zero/link-helper.spvasm tests/level_zero/globals.spvasm
