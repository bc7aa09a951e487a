/*
 * part.c: a primary partition on a disk: an MBR entry written to the disk
 * (so the image describes itself) and BLKPG_ADD_PARTITION (so no rescan of
 * a disk in use is needed, and null disks, which drop the write, work too).
 */
#include "kinds.h"
#include "report.h"
#include "sys.h"
#include "uapi.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static int part_create(struct layer *l, struct layer *disk)
{
	uint64_t start_mb, size_mb, disk_bytes;
	int pno = disk->nr_parts + 1;
	struct blkpg_partition part;
	struct blkpg_ioctl_arg arg;
	int fd, rc = -1;

	if (strcmp(disk->kind, "disk"))
		return report_error("disk",
				    "partition '%s' must sit on a disk, "
				    "not on '%s'",
				    l->name, disk->name);
	if (pno > 4)
		return report_error("disk",
				    "disk '%s' has no room for a fifth "
				    "primary partition",
				    disk->name);
	if (spec_u64(l->line, "start_mb", 1, &start_mb) ||
	    spec_u64(l->line, "size_mb", 0, &size_mb))
		return -1;
	if (sys_blk_size(disk->path, &disk_bytes) < 0)
		return report_error("disk", "cannot get the size of '%s': %s",
				    disk->path, strerror(errno));
	uint64_t start = start_mb << 20;
	uint64_t len = size_mb ? size_mb << 20 : disk_bytes - start;
	if (start < 512 || start + len > disk_bytes || len == 0)
		return report_error("disk",
				    "partition '%s' (%llu MiB at %llu "
				    "MiB) does not fit disk '%s' (%llu bytes)",
				    l->name, (unsigned long long)(len >> 20),
				    (unsigned long long)start_mb, disk->name,
				    (unsigned long long)disk_bytes);

	/*
	 * A read-only disk keeps whatever sector 0 holds: the partition
	 * exists in the kernel only (BLKPG needs no write access).
	 */
	unsigned char *e = disk->mbr + 446 + 16 * (pno - 1);
	e[0] = 0;
	e[1] = 0xfe, e[2] = 0xff, e[3] = 0xff; /* CHS: use LBA */
	e[4] = 0x83;
	e[5] = 0xfe, e[6] = 0xff, e[7] = 0xff;
	put_le32(e + 8, (uint32_t)(start >> 9));
	put_le32(e + 12, (uint32_t)(len >> 9));
	disk->mbr[510] = 0x55;
	disk->mbr[511] = 0xaa;
	disk->has_mbr = !disk->ro;

	fd = open(disk->path, (disk->ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (fd < 0)
		return report_error("disk", "cannot open '%s': %s", disk->path,
				    strerror(errno));
	if (!disk->null && !disk->ro) {
		/* Keep any boot code; only the table and signature are ours. */
		unsigned char old[512];
		if (pread(fd, old, 512, 0) == 512 && pno == 1)
			memcpy(disk->mbr, old, 446);
		if (pwrite(fd, disk->mbr, 512, 0) != 512 || fsync(fd) < 0) {
			report_error("disk",
				     "cannot write the partition table "
				     "of '%s': %s",
				     disk->path, strerror(errno));
			goto out;
		}
	}
	memset(&part, 0, sizeof(part));
	part.start = (long long)start;
	part.length = (long long)len;
	part.pno = pno;
	arg.op = BLKPG_DEL_PARTITION;
	arg.flags = 0;
	arg.datalen = sizeof(part);
	arg.data = &part;
	ioctl(fd, BLKPG,
	      &arg); /* a stale one from an earlier boot; ENXIO is fine */
	arg.op = BLKPG_ADD_PARTITION;
	if (ioctl(fd, BLKPG, &arg) < 0) {
		report_error("disk", "cannot add partition %d to '%s': %s", pno,
			     disk->path, strerror(errno));
		goto out;
	}
	disk->nr_parts = pno;
	if (snprintf(l->dev, sizeof(l->dev), "%s%s%d", disk->dev,
		     isdigit((unsigned char)disk->dev[strlen(disk->dev) - 1])
			     ? "p"
			     : "",
		     pno) >= (int)sizeof(l->dev)) {
		report_error("disk", "name of partition %d of '%s' too long",
			     pno, disk->dev);
		goto out;
	}
	if (sys_blk_node(l->dev, l->path, sizeof(l->path)) < 0) {
		report_error("disk", "cannot find partition '%s': %s", l->dev,
			     strerror(errno));
		goto out;
	}
	snprintf(l->how, sizeof(l->how), "BLKPG");
	layer_over(l, disk, start);
	rc = 0;
out:
	close(fd);
	return rc;
}

const struct layer_ops part_ops = {
	.kind = "part",
	.create = part_create,
};
