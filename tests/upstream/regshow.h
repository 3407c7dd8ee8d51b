/* SPDX-License-Identifier: MIT */
#ifndef DEVIMG_TEST_REGSHOW_H
#define DEVIMG_TEST_REGSHOW_H
/* Print the registry's images, headed "WHEN: N images" (regshow.c). */
void regshow_print(const char *when);
#endif
