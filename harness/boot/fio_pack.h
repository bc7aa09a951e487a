/*
 * fio_pack.h: Debian's fio for the guest. Where it is on the host, which
 * build it is, the oldest kernel its C library runs on, and the part of a
 * boot's initramfs that carries it: fio at PROTO_FIO_PATH with its ELF
 * interpreter and every library it needs at their host paths, a newc
 * archive of its own made once per fio build and kept in the cache.
 */
#ifndef IOBISECT_FIO_PACK_H
#define IOBISECT_FIO_PACK_H

#include "initramfs.h"

struct fio_build {
	char *path;	     /* the host's fio */
	char hash[41];	     /* SHA-1 of the binary */
	char kernel_min[32]; /* its dynamic linker's ABI tag; "" for none */
};

/*
 * Find the host's fio and describe it. -1 after one error that says how
 * to install it when there is none.
 */
int fio_build_find(struct fio_build *out);
void fio_build_release(struct fio_build *b);

/* 1 when a spec text has a point of the fio engine. Pure. */
int fio_pack_wanted(const char *spec);

/*
 * Append fio's archive to `ir` (finishing it): from the cache, or made
 * and stored there when the fio build or any file it holds changed.
 */
int fio_pack_append(struct initramfs *ir);

#endif
