// SPDX-License-Identifier: MIT
/*
 * The libraries libdevimg opens at run time, for packaging tools: an ELF
 * note in .note.dlopen (owner "FDO", type 0x407c0c0a) whose description
 * is a JSON array, one object per library, as the ELF dlopen metadata
 * convention (systemd.io/ELF_DLOPEN_METADATA) describes. libzstd expands
 * compressed images (props/unzstd.c), zlib compressed OffloadBinary
 * bodies (props/offload-inflate.c); both are opened on first use only.
 */
#include <stddef.h>
#include <stdint.h>

#define DLOPEN_NOTE_TYPE 0x407c0c0au
#define DLOPEN_JSON							\
	"[{\"feature\":\"zstd\",\"description\":\"compressed device "	\
	"images\",\"priority\":\"recommended\",\"soname\":"		\
	"[\"libzstd.so.1\"]},{\"feature\":\"zlib\",\"description\":"	\
	"\"zlib-compressed OffloadBinary blobs\",\"priority\":"	\
	"\"recommended\",\"soname\":[\"libz.so.1\"]}]"

struct dlopen_note {
	uint32_t namesz;
	uint32_t descsz;
	uint32_t type;
	char name[4];
	char desc[(sizeof(DLOPEN_JSON) + 3) & ~(size_t)3];
};

__attribute__((section(".note.dlopen"), aligned(4), used))
static const struct dlopen_note devimg_dlopen_note = {
	.namesz = 4,
	.descsz = sizeof(DLOPEN_JSON),
	.type = DLOPEN_NOTE_TYPE,
	.name = "FDO",
	.desc = DLOPEN_JSON,
};
