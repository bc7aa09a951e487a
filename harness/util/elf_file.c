/*
 * elf_file.c: reading an ELF file as the dynamic linker would (elf_file.h): only
 * what it looks at.
 */
#include "elf_file.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const Elf64_Phdr *phdr_at(const unsigned char *d, size_t len,
				 const Elf64_Ehdr *eh, unsigned i)
{
	uint64_t off = eh->e_phoff + (uint64_t)i * eh->e_phentsize;
	if (off + sizeof(Elf64_Phdr) > len)
		return NULL;
	return (const Elf64_Phdr *)(d + off);
}

/* File offset of virtual address `va`, through the PT_LOAD segments. */
static int va_to_off(const unsigned char *d, size_t len, const Elf64_Ehdr *eh,
		     uint64_t va, uint64_t *off)
{
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = phdr_at(d, len, eh, i);
		if (!ph)
			return -1;
		if (ph->p_type == PT_LOAD && va >= ph->p_vaddr &&
		    va < ph->p_vaddr + ph->p_filesz) {
			*off = va - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return -1;
}

int elf_file_deps(char **interp, struct strvec *needed,
		    struct strvec *runpath, const void *data, size_t len,
		    const char *origin)
{
	const unsigned char *d = data;
	*interp = NULL;
	if (len < sizeof(Elf64_Ehdr) || memcmp(d, ELFMAG, SELFMAG) ||
	    d[EI_CLASS] != ELFCLASS64 || d[EI_DATA] != ELFDATA2LSB)
		return error("'%s' is not a 64-bit little-endian ELF file",
			     origin);
	Elf64_Ehdr eh;
	memcpy(&eh, d, sizeof(eh));
	if (eh.e_phentsize != sizeof(Elf64_Phdr))
		return error("'%s' has unexpected program headers", origin);
	const Elf64_Phdr *dyn = NULL;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		const Elf64_Phdr *ph = phdr_at(d, len, &eh, i);
		if (!ph)
			return error("'%s' is truncated", origin);
		if (ph->p_type == PT_INTERP) {
			if (ph->p_offset + ph->p_filesz > len || !ph->p_filesz)
				return error("'%s' is truncated", origin);
			*interp =
				xstrndup((const char *)d + ph->p_offset,
					 strnlen((const char *)d + ph->p_offset,
						 ph->p_filesz));
		} else if (ph->p_type == PT_DYNAMIC) {
			dyn = ph;
		}
	}
	if (!dyn)
		return 0;
	if (dyn->p_offset + dyn->p_filesz > len)
		goto truncated;
	const Elf64_Dyn *ents = (const Elf64_Dyn *)(d + dyn->p_offset);
	size_t n = dyn->p_filesz / sizeof(Elf64_Dyn);
	uint64_t strtab_va = 0, strsz = 0;
	for (size_t i = 0; i < n && ents[i].d_tag != DT_NULL; i++) {
		if (ents[i].d_tag == DT_STRTAB)
			strtab_va = ents[i].d_un.d_ptr;
		else if (ents[i].d_tag == DT_STRSZ)
			strsz = ents[i].d_un.d_val;
	}
	uint64_t strtab;
	if (!strtab_va || va_to_off(d, len, &eh, strtab_va, &strtab) ||
	    strtab + strsz > len)
		goto truncated;
	for (size_t i = 0; i < n && ents[i].d_tag != DT_NULL; i++) {
		int64_t tag = ents[i].d_tag;
		int is_path = tag == DT_RUNPATH || tag == DT_RPATH;
		if (tag != DT_NEEDED && !(is_path && runpath))
			continue;
		uint64_t at = ents[i].d_un.d_val;
		if (at >= strsz)
			goto truncated;
		char *str = xstrndup((const char *)d + strtab + at, strsz - at);
		if (is_path)
			strvec_split(runpath, str, ':');
		else
			strvec_push(needed, str);
		free(str);
	}
	return 0;
truncated:
	free(*interp);
	*interp = NULL;
	return error("'%s' has a damaged dynamic section", origin);
}

int elf_file_abi_tag(const void *data, size_t len, char out[32])
{
	const unsigned char *d = data;
	Elf64_Ehdr eh;
	if (len < sizeof(eh) || memcmp(d, ELFMAG, SELFMAG) ||
	    d[EI_CLASS] != ELFCLASS64 || d[EI_DATA] != ELFDATA2LSB)
		return -1;
	memcpy(&eh, d, sizeof(eh));
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		const Elf64_Phdr *ph = phdr_at(d, len, &eh, i);
		if (!ph)
			return -1;
		if (ph->p_type != PT_NOTE || ph->p_offset > len ||
		    ph->p_filesz > len - ph->p_offset)
			continue;
		/* Notes: namesz, descsz, type, then name and desc, each
		 * padded to 4 bytes (ELF64 GNU notes keep 4). */
		const unsigned char *p = d + ph->p_offset,
				    *end = p + ph->p_filesz;
		while (end - p >= 12) {
			uint32_t nsz, dsz, type;
			memcpy(&nsz, p, 4);
			memcpy(&dsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			size_t npad = (nsz + 3u) & ~3u, dpad = (dsz + 3u) & ~3u;
			if (npad > (size_t)(end - p) - 12 ||
			    dpad > (size_t)(end - p) - 12 - npad)
				break;
			const unsigned char *name = p + 12, *desc = name + npad;
			uint32_t w[4];
			if (type == NT_GNU_ABI_TAG && nsz == 4 &&
			    !memcmp(name, "GNU", 4) && dsz >= 16) {
				memcpy(w, desc, 16);
				/* w[0] is the OS: 0 for Linux. */
				if (w[0] != 0)
					return 1;
				snprintf(out, 32, "%u.%u.%u", w[1], w[2], w[3]);
				return 0;
			}
			p += 12 + npad + dpad;
		}
	}
	return 1;
}
