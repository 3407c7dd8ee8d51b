# The second hand-written wrapped object (see fixture-a.s): a bitcode image
# of format "none", an image with out-of-range kind and format, strings
# that need escaping (quotes, control characters, bytes that are not UTF-8),
# properties of unknown types. Linked after fixture-a.o, its images are
# numbered 2 and 3.

	.section __CLANG_OFFLOAD_BUNDLE__sycl-spir64_x86_64,"a",@progbits
	.balign 16
img0:
	.ascii "BC"
	.byte 0xc0, 0xde, 0x35, 0x14, 0, 0, 5, 0, 0, 0
img0_end:

	.section "__CLANG_OFFLOAD_BUNDLE__sycl-a/b c","a",@progbits
	.balign 16
img1:
	.byte 0x7f
	.ascii "ELF"
	.byte 2, 1, 1, 0
img1_end:

	.section .devimg,"a",@progbits
	.balign 8
blob:
	.ascii "DEVIMGX1"
	.4byte 1, 40
	.8byte blob_end - blob
	.2byte 1, 2
	.4byte images - blob, 56, 0
images:
	.8byte img0 - .
	.8byte img0_end - img0
	.2byte 2
	.byte 4, 0			# sycl, none: guess from the magic
	.4byte s_x86 - blob, s_copts - blob, s_empty - blob
	.4byte 0, 0
	.4byte entries0 - blob, 1
	.4byte sets0 - blob, 1

	.8byte img1 - .
	.8byte img1_end - img1
	.2byte 7
	.byte 9, 7			# out of range: shown as numbers
	.4byte s_odd - blob, s_empty - blob, s_empty - blob
	.4byte 0, 0
	.4byte 0, 0			# no entries
	.4byte 0, 0

entries0:
	.4byte s_kernel - blob
sets0:
	.4byte s_set - blob, props0 - blob, 3, 0
props0:
	.4byte s_unknown - blob, 0, 0, 0
	.8byte 12
	.4byte s_nine - blob, 9, 0, 0
	.8byte 5
	.4byte s_empty_bytes - blob, 2, v_empty - blob, 0
	.8byte 8
v_empty:
	.8byte 0

s_empty:	.asciz ""
s_x86:		.asciz "spir64_x86_64"
s_odd:		.asciz "a/b c"
s_copts:	.ascii "-DX=\"a b\" \\ "
		.byte 0xff, 0xfe, 0x01, 0x0a
		.ascii " caf"
		.byte 0xc3, 0xa9, 0
s_kernel:	.asciz "_ZTS6kernel"
s_set:		.asciz "SYCL/misc properties"
s_unknown:	.asciz "unknown_type"
s_nine:		.asciz "type_nine"
s_empty_bytes:	.asciz "no_bits"
	.balign 8
blob_end:

	.section .note.GNU-stack,"",@progbits
