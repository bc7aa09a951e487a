/*
 * safety_facts.h: what the host says of a disk before it is passed
 * through (its mounts, holders, partitions, the disks under it, the root
 * file system's disk), gathered from /proc and /sys. safety.h decides
 * from these facts and holds the disk; this module only reads them.
 */
#ifndef IOBISECT_SAFETY_FACTS_H
#define IOBISECT_SAFETY_FACTS_H

#include "util.h"

#include <stdint.h>

struct safety_signature {
	const char *name; /* "ext2/3/4 file system", "md RAID 0.90 member" */
	uint64_t offset;  /* where the magic was found, in bytes */
};

/* What the system says about a path, gathered by safety_facts_gather(). */
struct safety_facts {
	char *path;	 /* realpath of what was given */
	int is_blockdev; /* else a regular file */
	unsigned major, minor;
	struct strvec mounts;  /* "/dev/loop3p1 on /mnt" for each mount */
	struct strvec holders; /* "dm-0 (holds loop3)", "md0 (holds loop3p1)" */
	int root_disk;	       /* it is, or is part of, the disk holding / */
	char *root_why;	       /* "/ is on sda2, a partition of sda" */
	int have_signature;
	struct safety_signature signature;
};
#define SAFETY_FACTS_INIT                                                      \
	{                                                                      \
		NULL, 0, 0, 0, STRVEC_INIT, STRVEC_INIT, 0, NULL, 0,           \
		{                                                              \
			NULL, 0                                                \
		}                                                              \
	}
void safety_facts_release(struct safety_facts *f);

/*
 * Fill `f` for `path`: resolve it (a block device or regular file only),
 * find its mounts, its holders and its partitions' (sysfs), and whether it
 * is on the root disk. The signature is not read here (see
 * safety_check_passthrough, which reads it through the exclusive fd).
 */
int safety_facts_gather(const char *path, struct safety_facts *f);

#endif
