# DEVIMG_PROG_CLANG
# -----------------
# CLANG and LLVM_SPIRV, the device compilers of the test suite's images,
# the demo and the benchmarks (DEVIMG_DEVICE_FORMATS then proves what they
# make). The rule:
#  - CLANG= and LLVM_SPIRV=, when given, are taken as they are.
#  - Else CLANG is the newest clang on PATH: clang-23, clang-22, ...
#    clang-15, then an unversioned clang.
#  - LLVM_SPIRV is the llvm-spirv of CLANG's LLVM major N: llvm-spirv-N,
#    or an unversioned llvm-spirv whose --version says N (llvm-spirv
#    reads only its own LLVM's bitcode).
#  - When CLANG was searched for and the newest clang has no llvm-spirv
#    of its major (Debian unstable: clang-23 before any llvm-spirv-23),
#    the newest older clang that has one becomes CLANG, and a notice says
#    so: the test images, SPIR-V included, are then built by one
#    compiler, rather than the SPIR-V ones skipped for want of a
#    translator. With LLVM_SPIRV= given, "has one" means LLVM_SPIRV's
#    major. When no clang has one, the newest clang stays and the SPIR-V
#    images are skipped (DEVIMG_DEVICE_FORMATS warns).
# The check lines name what they tried and what they found.
AC_DEFUN([DEVIMG_PROG_CLANG], [
m4_define([devimg_clang_majors], [23 22 21 20 19 18 17 16 15])
m4_define([devimg_clang_tried], [clang-23 ... clang-15, clang])
AC_ARG_VAR([CLANG], [clang for device code: OpenCL C to SPIR bitcode, CUDA C to PTX])
AC_ARG_VAR([LLVM_SPIRV], [llvm-spirv of CLANG's LLVM release: SPIR bitcode to SPIR-V])

# devimg_find_prog NAME: devimg_found=the path of NAME on PATH, or empty.
devimg_find_prog ()
{
	devimg_found=
	devimg_save_IFS=$IFS
	IFS=$PATH_SEPARATOR
	for devimg_dir in $PATH; do
		IFS=$devimg_save_IFS
		test -z "$devimg_dir" && devimg_dir=.
		AS_IF([AS_EXECUTABLE_P(["$devimg_dir/$[]1"])],
		      [devimg_found=$devimg_dir/$[]1; break])
	done
	IFS=$devimg_save_IFS
}

# devimg_major_of PROG: devimg_major=the LLVM major that PROG --version
# names (clang: "clang version N", llvm-spirv: "LLVM version N"), or empty.
devimg_major_of ()
{
	devimg_major=`$[]1 --version 2>/dev/null | sed -n \
		-e 's/.*clang version \([[0-9]][[0-9]]*\).*/\1/p' \
		-e 's/.*LLVM version \([[0-9]][[0-9]]*\).*/\1/p' | sed 1q`
}

# devimg_spirv_for N: devimg_spirv=the llvm-spirv of LLVM N, or empty.
devimg_spirv_for ()
{
	devimg_spirv=
	AS_IF([test -n "$devimg_user_spirv"], [
		AS_IF([test -n "$devimg_user_spirv_major" &&
		       test "x$devimg_user_spirv_major" = "x$[]1"],
		      [devimg_spirv=$LLVM_SPIRV])
	], [
		devimg_find_prog llvm-spirv-$[]1
		devimg_spirv=$devimg_found
		AS_IF([test -z "$devimg_spirv"], [
			devimg_find_prog llvm-spirv
			AS_IF([test -n "$devimg_found"], [
				devimg_major_of "$devimg_found"
				AS_IF([test "x$devimg_major" = "x$[]1"],
				      [devimg_spirv=$devimg_found])
			])
		])
	])
}

devimg_user_spirv=
devimg_user_spirv_major=
AS_IF([test -n "$LLVM_SPIRV"], [
	devimg_user_spirv=yes
	AS_IF([test "x$LLVM_SPIRV" != xno], [
		devimg_major_of "$LLVM_SPIRV"
		devimg_user_spirv_major=$devimg_major
	])
])

# The clangs found, newest first, when CLANG is not given.
devimg_clangs=
AS_IF([test -n "$CLANG"], [
	AC_MSG_CHECKING([for clang])
	AC_MSG_RESULT([$CLANG (from CLANG)])
], [
	AC_MSG_CHECKING([for a clang (devimg_clang_tried)])
	for devimg_name in m4_foreach_w([devimg_n], devimg_clang_majors,
					[clang-devimg_n ])clang; do
		devimg_find_prog $devimg_name
		test -n "$devimg_found" &&
			devimg_clangs="$devimg_clangs $devimg_found"
	done
	set dummy $devimg_clangs no
	CLANG=$[]2
	AC_MSG_RESULT([$CLANG])
])

devimg_llvm_major=
AS_IF([test "x$CLANG" != xno], [
	devimg_major_of "$CLANG"
	devimg_llvm_major=$devimg_major
])
devimg_spirv_matches=no
AS_IF([test -n "$devimg_user_spirv"], [
	AC_MSG_CHECKING([for llvm-spirv])
	AS_IF([test "x$LLVM_SPIRV" = xno],
	      [AC_MSG_RESULT([no (from LLVM_SPIRV)])],
	      [AC_MSG_RESULT([$LLVM_SPIRV (from LLVM_SPIRV, LLVM ${devimg_user_spirv_major:-unknown})])
	       test -n "$devimg_user_spirv_major" &&
		       test "x$devimg_user_spirv_major" = "x$devimg_llvm_major" &&
		       devimg_spirv_matches=yes])
], [test "x$CLANG" = xno], [
	LLVM_SPIRV=no
], [test -z "$devimg_llvm_major"], [
	AC_MSG_CHECKING([for the llvm-spirv of $CLANG's LLVM])
	AC_MSG_RESULT([no ($CLANG --version names no clang version)])
	LLVM_SPIRV=no
], [
	AC_MSG_CHECKING([for the llvm-spirv of LLVM $devimg_llvm_major (llvm-spirv-$devimg_llvm_major, llvm-spirv)])
	devimg_spirv_for $devimg_llvm_major
	LLVM_SPIRV=${devimg_spirv:-no}
	test "x$LLVM_SPIRV" != xno && devimg_spirv_matches=yes
	AC_MSG_RESULT([$LLVM_SPIRV])
])

# The newest clang has no llvm-spirv of its LLVM: the newest that has
# (not when LLVM_SPIRV=no asks for none).
set dummy $devimg_clangs
AS_IF([test $devimg_spirv_matches = no &&
       test "x$devimg_user_spirv$LLVM_SPIRV" != xyesno], [
	AS_IF([test $[]# -gt 2], [
		shift 2
		devimg_older=
		for devimg_clang in "$[]@"; do
			devimg_older="$devimg_older, `basename "$devimg_clang"`"
		done
		devimg_older=`echo "$devimg_older" | sed 's/^, //'`
		AC_MSG_CHECKING([for an older clang with its llvm-spirv ($devimg_older)])
		devimg_newest=$CLANG
		for devimg_clang in "$[]@"; do
			devimg_major_of "$devimg_clang"
			test -n "$devimg_major" || continue
			devimg_spirv_for $devimg_major
			AS_IF([test -n "$devimg_spirv"], [
				CLANG=$devimg_clang
				devimg_llvm_major=$devimg_major
				LLVM_SPIRV=$devimg_spirv
				break
			])
		done
		AS_IF([test "x$CLANG" = "x$devimg_newest"],
		      [AC_MSG_RESULT([no])],
		      [test -n "$devimg_user_spirv"],
		      [AC_MSG_RESULT([$CLANG with $LLVM_SPIRV])
		       AC_MSG_NOTICE([the test images are built by $CLANG, the newest clang of LLVM_SPIRV's LLVM $devimg_llvm_major])],
		      [AC_MSG_RESULT([$CLANG with $LLVM_SPIRV])
		       AC_MSG_NOTICE([the test images are built by $CLANG, the newest clang that has its llvm-spirv: $devimg_newest has no llvm-spirv of its LLVM (install one, or set CLANG= and LLVM_SPIRV=)])])
	])
])
])

# DEVIMG_DEVICE_FORMATS
# ---------------------
# Which device-image formats the test suite, the demo and the benchmarks
# can build here, each proven by compiling a small kernel:
#   spir   OpenCL C to SPIR 1.2 bitcode with $CLANG
#   spirv  that bitcode to SPIR-V 1.2 with $LLVM_SPIRV, which must come from
#          the same LLVM release as $CLANG (DEVIMG_PROG_CLANG finds them)
#   ptx    CUDA C to PTX with $CLANG (no CUDA installation needed)
# Sets devimg_test_formats (for the summary), substitutes CLANG and
# LLVM_SPIRV and defines the conditionals HAVE_CLANG and HAVE_LLVM_SPIRV.
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
	# Without a CUDA installation clang guesses the PTX version from an
	# old CUDA release: clang 15 takes 7.5, clang 22 takes 4.2, which
	# cannot say sm_80. Ask for PTX 7.5 (CUDA 11.5) where the guess fails.
	AC_MSG_CHECKING([whether $CLANG compiles CUDA C to PTX])
	printf '__attribute__((global)) void k(int *p) { *p = 1; }\n' \
		>$devimg_fmt_dir/k.cu
	CUDA_PTX_FLAGS=
	for devimg_ptx_flags in '' '-Xclang -target-feature -Xclang +ptx75'; do
		AS_IF([$CLANG -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 \
			-nocudainc -nocudalib -Wno-unknown-cuda-version \
			$devimg_ptx_flags -O2 -S -o $devimg_fmt_dir/k.ptx \
			$devimg_fmt_dir/k.cu >&AS_MESSAGE_LOG_FD 2>&1],
		      [CUDA_PTX_FLAGS=$devimg_ptx_flags
		       devimg_test_formats="$devimg_test_formats ptx"
		       break])
	done
	AS_CASE([$devimg_test_formats],
		[*ptx*], [AC_MSG_RESULT([yes${CUDA_PTX_FLAGS:+ (with $CUDA_PTX_FLAGS)}])],
		[AC_MSG_RESULT([no])])
	rm -rf $devimg_fmt_dir
], [LLVM_SPIRV=no])
AS_IF([test "x$LLVM_SPIRV" = xno && test "x$CLANG" != xno],
      [AC_MSG_WARN([no llvm-spirv of LLVM $devimg_llvm_major: no SPIR-V images for the tests (install llvm-spirv-$devimg_llvm_major or set LLVM_SPIRV=)])])
devimg_test_formats=`echo $devimg_test_formats`
AS_IF([test -z "$devimg_test_formats"], [devimg_test_formats=none])
AC_SUBST([CLANG])
AC_SUBST([LLVM_SPIRV])
AC_SUBST([CUDA_PTX_FLAGS])
AM_CONDITIONAL([HAVE_CLANG], [test "x$CLANG" != xno])
AM_CONDITIONAL([HAVE_LLVM_SPIRV], [test "x$LLVM_SPIRV" != xno])
AM_CONDITIONAL([HAVE_PTX], [case $devimg_test_formats in *ptx*) true ;; *) false ;; esac])
])
