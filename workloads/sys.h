/*
 * sys.h: small system helpers shared by the guest's modules: sysfs and
 * proc files, device nodes (mknod when devtmpfs did not make one), running
 * a packed tool, clocks, and block device queries.
 */
#ifndef IOBISECT_GUEST_SYS_H
#define IOBISECT_GUEST_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Read a small file, strip trailing whitespace. -1 with errno set. */
int sys_read(const char *path, char *buf, size_t size);
/* Write `text` to a file such as a sysfs attribute. -1 with errno set. */
int sys_write(const char *path, const char *text);
int sys_exists(const char *path);
int sys_mkdir_p(const char *path);

/*
 * Make sure /dev/<name> exists for block device <name> (as named in
 * /sys/class/block), creating the node from its "dev" file when devtmpfs
 * did not. Writes the path into `path`. -1 with errno set.
 */
int sys_blk_node(const char *name, char *path, size_t size);
/* The kernel name ("vda1") of the block device `path` or of the file
 * system holding the file `path`. -1 with errno set. */
int sys_blk_name(const char *path, char *name, size_t size);
/* major:minor of a block device node. */
int sys_blk_devt(const char *path, unsigned *major, unsigned *minor);

int sys_blk_size(const char *path, uint64_t *bytes);
/* 1 when the kernel holds the device read-only (BLKROGET). */
int sys_blk_ro(const char *path, int *ro);
/* /sys/block/<name>/queue/max_sectors_kb; -1 with errno set. */
int sys_max_sectors_get(const char *name, unsigned long *kb);
int sys_max_sectors_set(const char *name, unsigned long kb);
/*
 * Requests of the block device `path` (or of the file system holding the
 * file `path`) in flight now: the in_flight field of its sysfs stat file
 * (/sys/dev/block/M:m/stat, from Linux 2.6.27). -1 with errno set.
 */
int sys_blk_in_flight(const char *path, unsigned long *n);
/* Readahead in KiB (BLKRAGET / 2); -1 with errno set. */
int sys_ra_get(const char *path, unsigned long *ra_kb);
int sys_ra_set(const char *path, unsigned long ra_kb);

/*
 * Run argv[0] (an absolute path) and wait up to `timeout_s`; its output
 * goes to the console. Returns the exit status, or -1 (errno set, or
 * ETIMEDOUT after killing it).
 */
int sys_run(char *const argv[], int timeout_s);

/* Copy a kernel name into a fixed field; -1 (ENAMETOOLONG) if it does not fit.
 */
int sys_copy(char *dst, size_t size, const char *src);

uint64_t sys_now_ns(void);
/*
 * 1 when the kernel release ("6.1.0-rc1") is older than the floor
 * ("3.2.0"): numbers compared in turn, a missing one counting as 0, the
 * rest ignored. Pure.
 */
int sys_kernel_older(const char *release, const char *floor);
uint64_t sys_mem_total_kb(void);
/* Sync and drop the page cache (BLKFLSBUF on `blkdev` when drop_caches is
 * missing). -1 with errno set. */
int sys_drop_caches(const char *blkdev);

#endif
