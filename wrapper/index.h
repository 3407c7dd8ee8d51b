/* SPDX-License-Identifier: MIT */
/*
 * The self-describing index that devimg-wrap puts beside the binary
 * descriptor, so that tools find every image, option string, entry name and
 * property set from the file alone, in objects, executables (PIE or not) and
 * shared libraries, also after strip.
 *
 * Layout of a wrapped object (ELF64 relocatable):
 *
 *   __CLANG_OFFLOAD_BUNDLE__<kind>-<target>  one per image, as DPC++'s
 *                    clang-offload-wrapper names them (kind "sycl",
 *                    "openmp", "hip" or "host"; ".rodata.devimg" for an
 *                    image without a target): SHF_ALLOC progbits, align 16
 *                    (1 for at most 16 bytes), image N's bytes, exactly.
 *                    Local symbol __devimg_image_N (STT_OBJECT, its size).
 *   .devimg          SHF_ALLOC progbits, align 8: one index blob (below).
 *                    Local symbol __devimg_index.
 *   .data.rel.ro.devimg  the descriptor (include/devimg/descriptor.h):
 *                    device_binaries, device_image[], property_set[],
 *                    property[], offload_entry[]; its pointers are absolute
 *                    relocations into .devimg and the image sections.
 *                    Local symbol __devimg_descriptor. Then, 16-aligned,
 *                    one libomptarget __tgt_bin_desc per other kind
 *                    (openmp, hip) with its __tgt_device_image array.
 *   .text.devimg     constructor and destructor (tail calls to
 *                    __sycl_register_lib / __sycl_unregister_lib with the
 *                    descriptor's address). Local __devimg_register /
 *                    __devimg_unregister. Then a pair calling
 *                    __tgt_register_lib / __tgt_unregister_lib per
 *                    libomptarget descriptor.
 *   .init_array.1, .fini_array.1   pointers to them, priority 1 as in DPC++.
 *                    Without anything to register, these three sections
 *                    are left out, as is any empty relocation section.
 *   omp_offloading_entries  empty, with OpenMP or HIP images: it makes the
 *                    linker define __start_/__stop_omp_offloading_entries.
 *   .note.GNU-stack  empty: no executable stack.
 *   .tgtimg          SHF_ALLOC|SHF_WRITE, align 16: {address, size} of each
 *                    image (64-bit words; the address an absolute
 *                    relocation), as clang-offload-extract reads them.
 *                    Left out, like the constructor and destructor, with
 *                    -emit-reg-funcs=0.
 *
 * Every string and property value the descriptor points to lives inside
 * the index blob, so the descriptor and the index share them.
 *
 * The linker concatenates the .devimg sections of all wrapped objects into
 * one output section; a reader walks it blob by blob: each blob starts at an
 * 8-byte boundary with DEVIMG_INDEX_MAGIC, and its size field (a multiple
 * of 8) leads to the next; zero bytes between blobs are alignment padding.
 *
 * All integers are in the target's byte order. Offsets named *_off are from
 * the start of the blob. The one exception is devimg_index_image.bin_rel:
 * a self-relative displacement (the image's address minus the address of
 * the bin_rel field itself), written as a PC-relative 64-bit relocation
 * (R_X86_64_PC64, R_AARCH64_PREL64) that the static linker resolves, so a
 * linked file needs no dynamic relocation to be read. In a relocatable
 * object the field holds 0 and a reader applies the relocation from
 * .rela.devimg.
 */
#ifndef DEVIMG_WRAPPER_INDEX_H
#define DEVIMG_WRAPPER_INDEX_H

#include <stdint.h>

#define DEVIMG_INDEX_MAGIC "DEVIMGX1"	/* 8 bytes, no NUL */
#define DEVIMG_INDEX_VERSION 1
#define DEVIMG_INDEX_ALIGN 8
#define DEVIMG_IMAGE_ALIGN 16

#define DEVIMG_SECTION_INDEX ".devimg"
#define DEVIMG_SECTION_IMAGE_PREFIX "__CLANG_OFFLOAD_BUNDLE__"
#define DEVIMG_SECTION_IMAGE_NOTARGET ".rodata.devimg"
#define DEVIMG_SECTION_TGTIMG ".tgtimg"
#define DEVIMG_SECTION_DESCRIPTOR ".data.rel.ro.devimg"
#define DEVIMG_SECTION_TEXT ".text.devimg"

/* Offset 0 of a blob. */
struct devimg_index_header {
	char magic[8];
	uint32_t version;	/* DEVIMG_INDEX_VERSION */
	uint32_t header_size;	/* sizeof(struct devimg_index_header) */
	uint64_t size;		/* the whole blob, a multiple of 8 */
	uint16_t binaries_version;	/* device_binaries.version written */
	uint16_t nimages;
	uint32_t images_off;	/* struct devimg_index_image[nimages] */
	uint32_t image_size;	/* sizeof(struct devimg_index_image) */
	uint32_t reserved;
};

struct devimg_index_image {
	int64_t bin_rel;	/* see above */
	uint64_t bin_size;
	uint16_t version;	/* device_image.version */
	uint8_t kind;
	uint8_t format;
	uint32_t target_off;	/* NUL-terminated strings */
	uint32_t compile_opts_off;
	uint32_t link_opts_off;
	uint32_t manifest_off;	/* manifest bytes; both 0 when none */
	uint32_t manifest_size;
	uint32_t entries_off;	/* uint32_t[nentries]: name offsets */
	uint32_t nentries;
	uint32_t propsets_off;	/* struct devimg_index_propset[npropsets] */
	uint32_t npropsets;
};

struct devimg_index_propset {
	uint32_t name_off;
	uint32_t props_off;	/* struct devimg_index_prop[nprops] */
	uint32_t nprops;
	uint32_t reserved;
};

struct devimg_index_prop {
	uint32_t name_off;
	uint32_t type;		/* enum devimg_property_type */
	uint32_t value_off;	/* BYTE_ARRAY, STRING: the value's bytes; else 0 */
	uint32_t reserved;
	uint64_t size;		/* exactly property.size of the descriptor */
};

#if !defined(__cplusplus)
_Static_assert(sizeof(struct devimg_index_header) == 40, "index header");
_Static_assert(sizeof(struct devimg_index_image) == 56, "index image");
_Static_assert(sizeof(struct devimg_index_propset) == 16, "index propset");
_Static_assert(sizeof(struct devimg_index_prop) == 24, "index prop");
#endif

#endif
