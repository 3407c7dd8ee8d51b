# DEVIMG_DEVICE_FORMATS
# ---------------------
# Which device-image formats the test suite, the demo and the benchmarks
# can build here, each proven by compiling a small kernel:
#   spir   OpenCL C to SPIR 1.2 bitcode with $CLANG
#   spirv  that bitcode to SPIR-V 1.2 with $LLVM_SPIRV, which must come from
#          the same LLVM release as $CLANG (llvm-spirv-N for clang-N; an
#          unversioned llvm-spirv only when its LLVM version matches)
#   ptx    CUDA C to PTX with $CLANG (no CUDA installation needed)
# Sets devimg_test_formats (for the summary), substitutes LLVM_SPIRV and
# defines the conditionals HAVE_CLANG and HAVE_LLVM_SPIRV.
AC_DEFUN([DEVIMG_DEVICE_FORMATS], [
devimg_test_formats=
devimg_llvm_major=
AS_IF([test "x$CLANG" != xno], [
	AC_MSG_CHECKING([whether $CLANG compiles OpenCL C to SPIR bitcode])
	devimg_fmt_dir=conftest.fmt
	rm -rf $devimg_fmt_dir && mkdir $devimg_fmt_dir
	printf 'kernel void k(global int *p) { p[[get_global_id(0)]] += 1; }\n' \
		>$devimg_fmt_dir/k.cl
	AS_IF([$CLANG -cc1 -triple spir64-unknown-unknown -emit-llvm-bc \
		-cl-std=CL1.2 -finclude-default-header -O2 \
		-o $devimg_fmt_dir/k.bc $devimg_fmt_dir/k.cl >&AS_MESSAGE_LOG_FD 2>&1],
	      [AC_MSG_RESULT([yes])
	       devimg_test_formats="$devimg_test_formats spir"],
	      [AC_MSG_RESULT([no])
	       AC_MSG_WARN([$CLANG cannot make SPIR bitcode: the tests that need SPIR or SPIR-V images will skip])
	       CLANG=no])
])
AS_IF([test "x$CLANG" != xno], [
	devimg_llvm_major=`$CLANG --version 2>/dev/null | sed -n 's/.*clang version \([[0-9]][[0-9]]*\).*/\1/p' | sed 1q`
	AS_IF([test "x$LLVM_SPIRV" = x && test -n "$devimg_llvm_major"],
	      [AC_PATH_PROGS([LLVM_SPIRV], [llvm-spirv-$devimg_llvm_major llvm-spirv], [no])])
	AS_IF([test "x$LLVM_SPIRV" = x], [LLVM_SPIRV=no])
	AS_IF([test "x$LLVM_SPIRV" != xno], [
		devimg_spirv_major=`$LLVM_SPIRV --version 2>/dev/null | sed -n 's/.*LLVM version \([[0-9]][[0-9]]*\).*/\1/p' | sed 1q`
		AC_MSG_CHECKING([whether $LLVM_SPIRV translates $CLANG's bitcode to SPIR-V])
		AS_IF([test "x$devimg_spirv_major" != "x$devimg_llvm_major"],
		      [AC_MSG_RESULT([no (LLVM $devimg_spirv_major, clang's is $devimg_llvm_major)])
		       LLVM_SPIRV=no],
		      [$LLVM_SPIRV --spirv-max-version=1.2 -o $devimg_fmt_dir/k.spv \
				$devimg_fmt_dir/k.bc >&AS_MESSAGE_LOG_FD 2>&1],
		      [AC_MSG_RESULT([yes])
		       devimg_test_formats=" spirv$devimg_test_formats"],
		      [AC_MSG_RESULT([no])
		       LLVM_SPIRV=no])
	])
	AC_MSG_CHECKING([whether $CLANG compiles CUDA C to PTX])
	printf '__attribute__((global)) void k(int *p) { *p = 1; }\n' \
		>$devimg_fmt_dir/k.cu
	AS_IF([$CLANG -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 \
		-nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -S \
		-o $devimg_fmt_dir/k.ptx $devimg_fmt_dir/k.cu >&AS_MESSAGE_LOG_FD 2>&1],
	      [AC_MSG_RESULT([yes])
	       devimg_test_formats="$devimg_test_formats ptx"],
	      [AC_MSG_RESULT([no])])
	rm -rf $devimg_fmt_dir
], [LLVM_SPIRV=no])
AS_IF([test "x$LLVM_SPIRV" = xno && test "x$CLANG" != xno],
      [AC_MSG_WARN([no llvm-spirv of LLVM $devimg_llvm_major: no SPIR-V images for the tests (install llvm-spirv-$devimg_llvm_major or set LLVM_SPIRV=)])])
devimg_test_formats=`echo $devimg_test_formats`
AS_IF([test -z "$devimg_test_formats"], [devimg_test_formats=none])
AC_SUBST([CLANG])
AC_SUBST([LLVM_SPIRV])
AM_CONDITIONAL([HAVE_CLANG], [test "x$CLANG" != xno])
AM_CONDITIONAL([HAVE_LLVM_SPIRV], [test "x$LLVM_SPIRV" != xno])
AM_CONDITIONAL([HAVE_PTX], [case $devimg_test_formats in *ptx*) true ;; *) false ;; esac])
])
