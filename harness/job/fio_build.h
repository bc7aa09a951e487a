/*
 * fio_build.h: the host's fio, which the guest runs for the fio engine:
 * where it is, which build it is and the oldest kernel its C library runs
 * on. A job with a fio point names the build in its points' keys, so it
 * is read when the job is (job_fio.c); fio_pack.h packs it for a boot.
 */
#ifndef IOBISECT_FIO_BUILD_H
#define IOBISECT_FIO_BUILD_H

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

#endif
