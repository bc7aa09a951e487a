/*
 * build_id.h: the GNU build id of an ELF file (build_id.c), the note the
 * linker writes (ld --build-id): `iobisect --version` names the guest
 * program by it, as `readelf -n` and debuginfod do.
 */
#ifndef IOBISECT_BUILD_ID_H
#define IOBISECT_BUILD_ID_H

#include <stddef.h>

struct strbuf;

/*
 * Append the build id of the ELF image `data` (`len` bytes) to `out` in
 * hex. 0, or -1 when it is no 64-bit ELF image or has no build id (pure:
 * nothing is printed).
 */
int build_id_of_elf(const unsigned char *data, size_t len, struct strbuf *out);

/* The same for the file at `path`; -1 after error() when unreadable. */
int build_id_of_file(const char *path, struct strbuf *out);

#endif
