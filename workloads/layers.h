/*
 * layers.h: the topology as the guest builds it. Disks come first (found
 * by serial), then the spec's layers in file order. Each layer knows the
 * block device the kernel gave it and where its bytes live in its "root"
 * (the disk, md array or file-backed loop device that maps them linearly),
 * so the data pattern written through one layer can be checked through
 * another.
 */
#ifndef IOBISECT_GUEST_LAYERS_H
#define IOBISECT_GUEST_LAYERS_H

#include "spec.h"

#include <stdint.h>

#define LAYERS_MAX (SPEC_MAX_DISKS + SPEC_MAX_LAYERS)

struct layer {
	char name[32];	 /* the spec's name= */
	char kind[8];	 /* disk, part, md, dm, loop, fs */
	char dev[32];	 /* kernel name: vda, vda1, md0, dm-0, loop0 */
	char path[64];	 /* /dev/<dev> */
	char mount[128]; /* fs: the mount point */
	char bus[8];	 /* disk: virtio, scsi, nvme, ide */
	char how[16];	 /* what built it: ioctl, mdadm, LOOP_SET_FD, ... */
	const struct spec_line *line;

	int root; /* index of the layer whose byte offsets the pattern uses */
	uint64_t base; /* byte offset of this layer inside its root */
	int null;      /* reads zeroes, drops writes (QEMU null-co) */
	/*
	 * Read-only (spec ro=1 or BLKROGET on a disk; inherited by what is
	 * stacked on it): read as it is, never filled, checked or written.
	 */
	int ro;
	int busy;     /* carries md metadata or a file system: never raw data */
	int nr_parts; /* partitions made on this disk */
	int has_mbr;  /* disk: sector 0 holds our partition table */
	unsigned char mbr[512];

	/* Roots only: bytes [0, filled) hold the pattern of generation gen. */
	uint64_t filled;
	uint32_t gen;
};

extern struct layer layers[LAYERS_MAX];
extern int nr_layers;

/* Find every spec disk (waits for slow probes, e.g. NVMe). stage "disk". */
int disks_find(const struct spec *s);
/* Build the spec's layers in order. Reports the failing stage. */
int layers_build(const struct spec *s);
/* Send the `topology` frame, read back from the kernel. */
int layers_report(void);
struct layer *layer_find(const char *name);

/* Makers, one per kind (md.c, dm.c, loop.c, layers.c). */
int md_create(struct layer *l, int nr_md);
int dm_create(struct layer *l, const struct layer *on);
int loop_create(struct layer *l, const char *on);
/* md fields for the topology frame. */
struct json;
void md_report(struct json *j, const struct layer *l);

/* Helpers shared by the layer makers (layers.c). */
void layer_mark_busy(struct layer *l);
/* The path of a packed tool (/sbin, /usr/sbin, /bin, /usr/bin), or NULL. */
const char *layers_tool(const char *name);

#endif
