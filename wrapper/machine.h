/* SPDX-License-Identifier: MIT */
/*
 * What devimg-wrap needs to know about a host machine: everything else in
 * the object it writes is the same for every 64-bit little-endian Linux
 * target.
 *
 * A registration stub is the code of the constructor (and, identically, of
 * the destructor): it loads the descriptor's address into the first
 * argument register and tail-calls __sycl_register_lib (or
 * __sycl_unregister_lib). Its bytes carry zeros where the relocations
 * listed with it go. The blob form's stub (devimg-wrap -form=blob) also
 * loads the blob's size, an immediate the writer puts in, into the second
 * argument register: __sycl_register_lib(blob, size).
 */
#ifndef DEVIMG_WRAPPER_MACHINE_H
#define DEVIMG_WRAPPER_MACHINE_H

#include <stddef.h>
#include <stdint.h>

/* What a relocation in the stub refers to. */
enum wrap_stub_target {
	WRAP_STUB_DESCRIPTOR,	/* the descriptor (offset 0 of its section) */
	WRAP_STUB_CALLEE,	/* __sycl_register_lib, __sycl_unregister_lib */
};

struct wrap_stub_reloc {
	uint32_t offset;	/* from the start of the stub */
	uint32_t type;		/* R_<machine>_* */
	int64_t addend;
	enum wrap_stub_target target;
};

#define WRAP_STUB_MAX_RELOCS 4

struct wrap_machine {
	const char *name;		/* architecture part of the triple */
	uint16_t e_machine;		/* EM_* */
	unsigned char ei_data;		/* ELFDATA2LSB or ELFDATA2MSB */
	uint32_t r_abs64;		/* word-sized absolute: S + A */
	uint32_t r_prel64;		/* 64-bit PC-relative: S + A - P */
	const unsigned char *stub;	/* one constructor or destructor */
	uint32_t stub_size;
	uint32_t stub_align;		/* and the distance between the two */
	unsigned char text_fill;	/* padding between them */
	const struct wrap_stub_reloc *stub_relocs;
	unsigned nstub_relocs;
	/* The blob form's stub: WRAP_STUB_DESCRIPTOR is the blob. */
	const unsigned char *blob_stub;
	uint32_t blob_stub_size;	/* at most blob_stub_align */
	uint32_t blob_stub_align;	/* and the distance between the two */
	const struct wrap_stub_reloc *blob_stub_relocs;
	unsigned nblob_stub_relocs;
	/* Put size into a copy of blob_stub. */
	void (*blob_stub_put_size)(unsigned char *stub, uint64_t size);
};

/*
 * The machine of a host triple: "x86_64", "x86_64-linux-gnu",
 * "x86_64-unknown-linux-gnu", "aarch64-linux-gnu", ... An architecture
 * without further parts means Linux. Returns NULL for an architecture we
 * cannot write or an operating system other than Linux.
 */
const struct wrap_machine *wrap_machine_from_triple(const char *triple);

/* The machine that devimg-wrap itself was built for, else x86_64. */
const struct wrap_machine *wrap_machine_default(void);

#endif
