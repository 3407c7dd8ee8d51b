/* SPDX-License-Identifier: MIT */
/* devimg-dump --check: findings in .props files. */
#ifndef DEVIMG_WRAPPER_CHECK_H
#define DEVIMG_WRAPPER_CHECK_H

/*
 * Read each .props file as DPC++'s tools read it and print one line per
 * finding to standard output, "FILE:LINE: what": text those tools lose or
 * change without a word (props_note_fn in props.h), specialization
 * constants that DPC++'s runtime would lay out other than they say (a
 * defaults blob of the wrong length, a last leaf short of the constant's
 * end, a property that is no byte array) and text they refuse (the
 * reader's error, "FILE:LINE:COL: what"). A file that cannot be read
 * at all is reported on standard error. Returns 0 when every file is
 * clean, 1 otherwise.
 */
int check_props_files(char **files, int n);

#endif
