/*
 * boot_images.h: the disk files one boot makes for QEMU (sparse images in
 * the run folder, tmpfs images in SAFETY_TMPFS_DIR) and what a host disk
 * passed through is, and their removal when the boot ends.
 */
#ifndef IOBISECT_BOOT_IMAGES_H
#define IOBISECT_BOOT_IMAGES_H

#include "job.h"
#include "qemu.h"

#include <stddef.h>

/* Paths of the images vm_boot created, to remove afterwards. */
struct boot_images {
	char **path;
	struct qemu_disk_host *host;
	size_t nr;
};

/*
 * Make the images of topology `t` for boot `boot_id` in `run_dir`, after
 * checking again that /dev/shm holds the tmpfs ones. 0, or -1 after
 * error(); what was made is in `im` either way, for boot_images_release.
 */
int boot_images_prepare(struct boot_images *im, const struct topology *t,
			const char *run_dir, unsigned boot_id);

/* Remove the images when `remove` (tmpfs ones always) and free `im`. */
void boot_images_release(struct boot_images *im, int remove);

#endif
