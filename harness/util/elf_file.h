/*
 * elf_file.h: what an ELF program asks of the dynamic linker, read from
 * its bytes: the interpreter, the libraries and where to look for them,
 * and the oldest kernel its C library runs on. Pure.
 */
#ifndef IOBISECT_ELF_FILE_H
#define IOBISECT_ELF_FILE_H

#include "util.h"

#include <stddef.h>

/*
 * What the ELF file in `data` asks of the dynamic linker: its interpreter
 * (NULL for a static program; caller frees) and its DT_NEEDED names in
 * order, and the folders of DT_RUNPATH (or DT_RPATH) into `runpath` when
 * it is not NULL: where the dynamic linker looks first for this file's
 * libraries (Debian's librados keeps its own in
 * /usr/lib/x86_64-linux-gnu/ceph). Returns -1 (with an error naming
 * `origin`) when the data is not a 64-bit little-endian ELF file.
 */
int elf_file_deps(char **interp, struct strvec *needed,
		  struct strvec *runpath, const void *data, size_t len,
		  const char *origin);

/*
 * The floor an ELF file's GNU ABI tag note sets ("3.2.0": glibc's
 * dynamic linker refuses to run on an older kernel) into `out`.
 * 0, 1 when the file has no such note, -1 when it is not a 64-bit
 * little-endian ELF file.
 */
int elf_file_abi_tag(const void *data, size_t len, char out[32]);

#endif
