# The demo the README's first command runs: device code in OpenCL C, built
# to SPIR bitcode by clang, wrapped by devimg-wrap, linked into a host
# program with libdevimg, and run on the first device (PoCL on the CPU).
EXTRA_DIST += examples/vadd.cl examples/vadd.sym examples/vadd.props

examples/vadd.bc: $(top_srcdir)/examples/vadd.cl
	$(AM_V_GEN)$(MKDIR_P) examples && \
	$(CLANG) -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -O2 \
		-cl-std=CL1.2 -finclude-default-header -o $@ $<

examples/vadd-wrap.o: examples/vadd.bc devimg-wrap$(EXEEXT)
	$(AM_V_GEN)./devimg-wrap -o $@ -kind=sycl -target=spir64 -format=llvmbc \
		-entries=$(top_srcdir)/examples/vadd.sym \
		-properties=$(top_srcdir)/examples/vadd.props examples/vadd.bc

EXTRA_PROGRAMS = examples/vadd
examples_vadd_SOURCES = examples/vadd.c
examples_vadd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
examples_vadd_LDADD = examples/vadd-wrap.o loader/libdevimg.la
examples_vadd_DEPENDENCIES = examples/vadd-wrap.o loader/libdevimg.la

CLEANFILES += examples/vadd.bc examples/vadd-wrap.o examples/vadd$(EXEEXT)

.PHONY: demo
demo: examples/vadd$(EXEEXT) devimg-dump$(EXEEXT) $(plugin_LTLIBRARIES)
	./devimg-dump examples/vadd-wrap.o
	@mkdir -p examples/pocl-cache
	POCL_CACHE_DIR=$(abs_builddir)/examples/pocl-cache \
	DEVIMG_PLUGIN_PATH=$(abs_builddir)/plugins/.libs ./examples/vadd
