/*
 * fio_pack.h: Debian's fio for the guest. Where it is on the host, which
 * build it is, the oldest kernel its C library runs on, and the part of a
 * boot's initramfs that carries it: fio at PROTO_FIO_PATH with its ELF
 * interpreter and every library it needs at their host paths, a newc
 * archive of its own made once per fio build and kept in the cache.
 */
#ifndef IOBISECT_FIO_PACK_H
#define IOBISECT_FIO_PACK_H

#include "fio_build.h"
#include "initramfs.h"

/* 1 when a spec text has a point of the fio engine. Pure. */
int fio_pack_wanted(const char *spec);

/*
 * Append fio's archive to `ir` (finishing it): from the cache, or made
 * and stored there when the fio build or any file it holds changed.
 */
int fio_pack_append(struct initramfs *ir);

#endif
