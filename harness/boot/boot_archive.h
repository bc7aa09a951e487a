/*
 * boot_archive.h: the initramfs one boot starts from: /init (the static
 * guest), /spec, the device nodes an old kernel without devtmpfs needs,
 * the host tools the spec asks for with their shared libraries, the files
 * the harness makes for the boot, and fio when a point runs it.
 */
#ifndef IOBISECT_BOOT_ARCHIVE_H
#define IOBISECT_BOOT_ARCHIVE_H

#include <stddef.h>

/* A file of the boot that the harness makes (a fio point's job file). */
struct boot_file {
	const char *path; /* in the guest */
	const char *data;
	size_t len;
};

/*
 * Write the archive of one boot to `out_path`: /init = `guest` (NULL:
 * initramfs_find_guest()), /spec = `spec`, /dev/console and /dev/ttyS0..1,
 * empty /proc, /sys, /dev, /tmp, /mnt, the `nr_files` files of `files`,
 * and each tool of initramfs_tools_for_spec() found on the host in /bin
 * with its libraries (a tool missing on the host is left out with a
 * warning: the guest says what it could not run). A spec with fio points
 * gets fio and its libraries (fio_pack.h) after the rest.
 */
int boot_archive_write(const char *out_path, const char *spec,
		       const char *guest, const struct boot_file *files,
		       size_t nr_files);

#endif
