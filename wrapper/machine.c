// SPDX-License-Identifier: MIT
/*
 * The per-machine table of devimg-wrap.
 */
#include <elf.h>
#include <string.h>

#include "util/le.h"
#include "wrapper/machine.h"

/*
 * x86-64:   lea rdi, [rip + descriptor]   48 8d 3d <pc32>
 *           jmp callee                    e9 <plt32>
 * Both displacements are relative to the end of their instruction, four
 * bytes after the field: addend -4.
 */
static const unsigned char x86_64_stub[] = {
	0x48, 0x8d, 0x3d, 0x00, 0x00, 0x00, 0x00,
	0xe9, 0x00, 0x00, 0x00, 0x00,
};

static const struct wrap_stub_reloc x86_64_relocs[] = {
	{ 3, R_X86_64_PC32, -4, WRAP_STUB_DESCRIPTOR },
	{ 8, R_X86_64_PLT32, -4, WRAP_STUB_CALLEE },
};

/*
 * The blob form, x86-64:
 *           lea rdi, [rip + blob]         48 8d 3d <pc32>
 *           movabs rsi, size              48 be <imm64>
 *           jmp callee                    e9 <plt32>
 */
static const unsigned char x86_64_blob_stub[] = {
	0x48, 0x8d, 0x3d, 0x00, 0x00, 0x00, 0x00,
	0x48, 0xbe, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xe9, 0x00, 0x00, 0x00, 0x00,
};

static const struct wrap_stub_reloc x86_64_blob_relocs[] = {
	{ 3, R_X86_64_PC32, -4, WRAP_STUB_DESCRIPTOR },
	{ 18, R_X86_64_PLT32, -4, WRAP_STUB_CALLEE },
};

static void x86_64_put_size(unsigned char *stub, uint64_t size)
{
	put_le64(stub + 9, size);
}

/*
 * AArch64 (little endian):
 *           adrp x0, descriptor               90000000
 *           add  x0, x0, :lo12:descriptor     91000000
 *           b    callee                       14000000
 */
static const unsigned char aarch64_stub[] = {
	0x00, 0x00, 0x00, 0x90,
	0x00, 0x00, 0x00, 0x91,
	0x00, 0x00, 0x00, 0x14,
};

static const struct wrap_stub_reloc aarch64_relocs[] = {
	{ 0, R_AARCH64_ADR_PREL_PG_HI21, 0, WRAP_STUB_DESCRIPTOR },
	{ 4, R_AARCH64_ADD_ABS_LO12_NC, 0, WRAP_STUB_DESCRIPTOR },
	{ 8, R_AARCH64_JUMP26, 0, WRAP_STUB_CALLEE },
};

/*
 * The blob form, AArch64: the size in x1, 16 bits an instruction.
 *           adrp x0, blob                     90000000
 *           add  x0, x0, :lo12:blob           91000000
 *           movz x1, #size[15:0]              d2800001
 *           movk x1, #size[31:16], lsl 16     f2a00001
 *           movk x1, #size[47:32], lsl 32     f2c00001
 *           movk x1, #size[63:48], lsl 48     f2e00001
 *           b    callee                       14000000
 */
static const unsigned char aarch64_blob_stub[] = {
	0x00, 0x00, 0x00, 0x90,
	0x00, 0x00, 0x00, 0x91,
	0x01, 0x00, 0x80, 0xd2,
	0x01, 0x00, 0xa0, 0xf2,
	0x01, 0x00, 0xc0, 0xf2,
	0x01, 0x00, 0xe0, 0xf2,
	0x00, 0x00, 0x00, 0x14,
};

static const struct wrap_stub_reloc aarch64_blob_relocs[] = {
	{ 0, R_AARCH64_ADR_PREL_PG_HI21, 0, WRAP_STUB_DESCRIPTOR },
	{ 4, R_AARCH64_ADD_ABS_LO12_NC, 0, WRAP_STUB_DESCRIPTOR },
	{ 24, R_AARCH64_JUMP26, 0, WRAP_STUB_CALLEE },
};

/* imm16 is bits 5 to 20 of each move, little-endian words from offset 8. */
static void aarch64_put_size(unsigned char *stub, uint64_t size)
{
	unsigned i;

	for (i = 0; i < 4; i++) {
		unsigned char *w = stub + 8 + 4 * i;

		put_le32(w, get_le32(w) |
			    (uint32_t)((size >> (16 * i)) & 0xffff) << 5);
	}
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct wrap_machine machines[] = {
	{
		.name = "x86_64",
		.e_machine = EM_X86_64,
		.ei_data = ELFDATA2LSB,
		.r_abs64 = R_X86_64_64,
		.r_prel64 = R_X86_64_PC64,
		.stub = x86_64_stub,
		.stub_size = sizeof(x86_64_stub),
		.stub_align = 16,
		.text_fill = 0xcc,	/* int3 */
		.stub_relocs = x86_64_relocs,
		.nstub_relocs = ARRAY_SIZE(x86_64_relocs),
		.blob_stub = x86_64_blob_stub,
		.blob_stub_size = sizeof(x86_64_blob_stub),
		.blob_stub_align = 32,
		.blob_stub_relocs = x86_64_blob_relocs,
		.nblob_stub_relocs = ARRAY_SIZE(x86_64_blob_relocs),
		.blob_stub_put_size = x86_64_put_size,
	},
	{
		.name = "aarch64",
		.e_machine = EM_AARCH64,
		.ei_data = ELFDATA2LSB,
		.r_abs64 = R_AARCH64_ABS64,
		.r_prel64 = R_AARCH64_PREL64,
		.stub = aarch64_stub,
		.stub_size = sizeof(aarch64_stub),
		.stub_align = 16,
		.stub_relocs = aarch64_relocs,
		.nstub_relocs = ARRAY_SIZE(aarch64_relocs),
		.blob_stub = aarch64_blob_stub,
		.blob_stub_size = sizeof(aarch64_blob_stub),
		.blob_stub_align = 32,
		.blob_stub_relocs = aarch64_blob_relocs,
		.nblob_stub_relocs = ARRAY_SIZE(aarch64_blob_relocs),
		.blob_stub_put_size = aarch64_put_size,
	},
};

/* Other spellings of an architecture, as LLVM's triples accept them. */
static const struct {
	const char *alias;
	const char *name;
} arch_aliases[] = {
	{ "amd64", "x86_64" },
	{ "x86-64", "x86_64" },
	{ "arm64", "aarch64" },
};

static const struct wrap_machine *machine_by_arch(const char *arch, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arch_aliases); i++) {
		if (strlen(arch_aliases[i].alias) == len &&
		    !memcmp(arch, arch_aliases[i].alias, len)) {
			arch = arch_aliases[i].name;
			len = strlen(arch);
			break;
		}
	}
	for (i = 0; i < ARRAY_SIZE(machines); i++) {
		if (strlen(machines[i].name) == len &&
		    !memcmp(arch, machines[i].name, len))
			return &machines[i];
	}
	return NULL;
}

/* True when one of the parts after the architecture names Linux. */
static int triple_is_linux(const char *rest)
{
	while (*rest == '-') {
		rest++;
		if (!strncmp(rest, "linux", 5))
			return 1;
		rest += strcspn(rest, "-");
	}
	return 0;
}

const struct wrap_machine *wrap_machine_from_triple(const char *triple)
{
	size_t len = strcspn(triple, "-");
	const struct wrap_machine *m;

	if (len == 0)
		return NULL;
	m = machine_by_arch(triple, len);
	if (!m)
		return NULL;
	if (triple[len] == '\0')
		return m;
	return triple_is_linux(triple + len) ? m : NULL;
}

const struct wrap_machine *wrap_machine_default(void)
{
#if defined(__aarch64__) && defined(__AARCH64EL__)
	return &machines[1];
#else
	return &machines[0];
#endif
}
