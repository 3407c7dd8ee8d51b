# DEVIMG_CHECK_WARNINGS(VARIABLE, FLAGS)
# ---------------------------------------
# Append to VARIABLE each of FLAGS that the C compiler accepts without a
# diagnostic. Probes with -Werror so that a flag the compiler merely warns
# about is left out.
AC_DEFUN([DEVIMG_CHECK_WARNINGS], [
	AC_LANG_PUSH([C])
	for devimg_flag in m4_normalize([$2]); do
		AS_VAR_PUSHDEF([devimg_cv], [devimg_cv_cflag_$devimg_flag])
		AC_CACHE_CHECK([whether $CC accepts $devimg_flag], [devimg_cv], [
			devimg_save_CFLAGS=$CFLAGS
			dnl GCC accepts any -Wno-foo silently; probe the positive form.
			devimg_probe=`echo "$devimg_flag" | sed 's/^-Wno-/-W/'`
			CFLAGS="$CFLAGS -Werror $devimg_probe"
			AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
					  [AS_VAR_SET([devimg_cv], [yes])],
					  [AS_VAR_SET([devimg_cv], [no])])
			CFLAGS=$devimg_save_CFLAGS])
		AS_VAR_IF([devimg_cv], [yes], [$1="$$1 $devimg_flag"])
		AS_VAR_POPDEF([devimg_cv])
	done
	AC_LANG_POP([C])
])

# DEVIMG_CHECK_VISIBILITY
# -----------------------
# Define VISIBILITY_CFLAGS to -fvisibility=hidden when the compiler has it;
# exported symbols are marked with DEVIMG_EXPORT.
AC_DEFUN([DEVIMG_CHECK_VISIBILITY], [
	AC_CACHE_CHECK([whether $CC supports -fvisibility=hidden], [devimg_cv_visibility], [
		devimg_save_CFLAGS=$CFLAGS
		CFLAGS="$CFLAGS -Werror -fvisibility=hidden"
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[__attribute__((visibility("default"))) int f(void);]], [])],
				  [devimg_cv_visibility=yes], [devimg_cv_visibility=no])
		CFLAGS=$devimg_save_CFLAGS])
	AS_IF([test "x$devimg_cv_visibility" = xyes],
	      [VISIBILITY_CFLAGS=-fvisibility=hidden], [VISIBILITY_CFLAGS=])
	AC_SUBST([VISIBILITY_CFLAGS])
])
