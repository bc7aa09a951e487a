/*
 * boot_images.c: the disk files of one boot, made before QEMU starts and
 * removed when it ends (see boot_images.h).
 */
#include "boot_images.h"
#include "safety.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sparse file of `size_mb` MiB: only what the guest writes takes space. */
static int make_image(const char *path, uint64_t size_mb)
{
	int fd = open_nofollow(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)(size_mb << 20))) {
		int e = errno;
		close(fd);
		unlink(path);
		return error("cannot size '%s': %s", path, strerror(e));
	}
	close(fd);
	return 0;
}

void boot_images_release(struct boot_images *im, int remove)
{
	for (size_t i = 0; i < im->nr; i++) {
		/* tmpfs images hold RAM: they never outlive the boot. */
		if (im->path[i] &&
		    (remove || !strncmp(im->path[i], "/dev/shm/", 9)))
			unlink(im->path[i]);
		free(im->path[i]);
	}
	free(im->path);
	free(im->host);
	memset(im, 0, sizeof(*im));
}

int boot_images_prepare(struct boot_images *im, const struct topology *t,
			const char *run_dir, unsigned boot_id)
{
	im->nr = t->nr_disks;
	im->path = xcalloc(t->nr_disks, sizeof(*im->path));
	im->host = xcalloc(t->nr_disks, sizeof(*im->host));
	/* Again at each boot: what /dev/shm has left may have shrunk. */
	if (safety_check_tmpfs(t, SAFETY_TMPFS_DIR))
		return -1;
	for (size_t i = 0; i < t->nr_disks; i++) {
		const struct disk_spec *d = &t->disks[i];
		struct stat st;
		switch (d->backing) {
		case BACKING_IMAGE:
			im->path[i] = xstrfmt("%s/d%zu.img", run_dir, i);
			break;
		case BACKING_TMPFS:
			im->path[i] = xstrfmt("%s/iobisect-%ld-%u-d%zu.img",
					      SAFETY_TMPFS_DIR, (long)getpid(),
					      boot_id, i);
			break;
		case BACKING_HOST:
			if (!d->path || stat(d->path, &st))
				return error("cannot pass through '%s': %s",
					     d->path ? d->path : "(no path)",
					     strerror(errno));
			im->host[i].host_blockdev = S_ISBLK(st.st_mode);
			continue;
		case BACKING_NULL:
			continue;
		}
		if (!d->size_mb)
			return error("disk '%s': size_mb is 0",
				     d->name ? d->name : "?");
		if (make_image(im->path[i], d->size_mb))
			return -1;
		im->host[i].image = im->path[i];
	}
	return 0;
}
