# The demo the README's first command runs: device code in OpenCL C, built
# to SPIR bitcode by clang, wrapped by devimg-wrap, inspected by devimg-dump.
EXTRA_DIST += examples/vadd.cl examples/vadd.sym examples/vadd.props

examples/vadd.bc: $(top_srcdir)/examples/vadd.cl
	$(AM_V_GEN)$(MKDIR_P) examples && \
	$(CLANG) -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -O2 \
		-cl-std=CL1.2 -finclude-default-header -o $@ $<

examples/vadd-wrap.o: examples/vadd.bc devimg-wrap$(EXEEXT)
	$(AM_V_GEN)./devimg-wrap -o $@ -kind=sycl -target=spir64 -format=llvmbc \
		-entries=$(top_srcdir)/examples/vadd.sym \
		-properties=$(top_srcdir)/examples/vadd.props examples/vadd.bc

CLEANFILES += examples/vadd.bc examples/vadd-wrap.o

.PHONY: demo
demo: examples/vadd-wrap.o devimg-dump$(EXEEXT)
	./devimg-dump examples/vadd-wrap.o
