/*
 * build_id.c: an ELF file's GNU build id (build_id.h), read from its
 * PT_NOTE segments, else from its SHT_NOTE sections: musl-gcc's static
 * guest has the note as a section but no PT_NOTE segment.
 */
#include "build_id.h"
#include "util.h"

#include <elf.h>
#include <string.h>

/* The build id note in the `len` bytes of notes at `p`, into `out`. */
static int scan_notes(const unsigned char *p, size_t len, struct strbuf *out)
{
	size_t off = 0;

	while (len - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr n;
		size_t name, desc;

		memcpy(&n, p + off, sizeof(n));
		off += sizeof(n);
		/* Name and description are each padded to 4 bytes. */
		name = ((size_t)n.n_namesz + 3) & ~(size_t)3;
		desc = ((size_t)n.n_descsz + 3) & ~(size_t)3;
		if (name > len - off || desc > len - off - name)
			return -1;
		if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 &&
		    !memcmp(p + off, "GNU", 4) && n.n_descsz) {
			for (size_t i = 0; i < n.n_descsz; i++)
				strbuf_addf(out, "%02x", p[off + name + i]);
			return 0;
		}
		off += name + desc;
	}
	return -1;
}

int build_id_of_elf(const unsigned char *data, size_t len, struct strbuf *out)
{
	Elf64_Ehdr eh;

	if (len < sizeof(eh) || memcmp(data, ELFMAG, SELFMAG) ||
	    data[EI_CLASS] != ELFCLASS64)
		return -1;
	memcpy(&eh, data, sizeof(eh));
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > len ||
	    (size_t)eh.e_phnum * sizeof(Elf64_Phdr) > len - eh.e_phoff)
		return -1;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, data + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset > len ||
		    ph.p_filesz > len - ph.p_offset)
			continue;
		if (!scan_notes(data + ph.p_offset, ph.p_filesz, out))
			return 0;
	}
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len ||
	    (size_t)eh.e_shnum * sizeof(Elf64_Shdr) > len - eh.e_shoff)
		return -1;
	for (size_t i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;

		memcpy(&sh, data + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_NOTE || sh.sh_offset > len ||
		    sh.sh_size > len - sh.sh_offset)
			continue;
		if (!scan_notes(data + sh.sh_offset, sh.sh_size, out))
			return 0;
	}
	return -1;
}

int build_id_of_file(const char *path, struct strbuf *out)
{
	struct strbuf data = STRBUF_INIT;
	int rc = read_file_max(path, &data, 256 << 20);

	if (!rc)
		rc = build_id_of_elf((const unsigned char *)data.buf, data.len,
				     out);
	strbuf_release(&data);
	return rc;
}
