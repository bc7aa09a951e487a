/*
 * layer.h: one layer of the guest's block stack, and what every kind's
 * maker needs (the table of layers built so far, the packed tools). The
 * makers include this and nothing above it, so the builder (layers.c) can
 * know every kind while no kind knows the builder.
 *
 * Each layer knows the block device the kernel gave it and where its bytes
 * live in its "root" (the disk, md array or file-backed loop device that
 * maps them linearly), so the data pattern written through one layer can
 * be checked through another.
 */
#ifndef IOBISECT_GUEST_LAYER_H
#define IOBISECT_GUEST_LAYER_H

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
	 * Reads return no defined data (the kernel's null_blk leaves the
	 * buffer as it was; inherited by what is stacked on it): a null disk
	 * whose reads cannot be checked either.
	 */
	int nodata;
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

/* What on= may name; the builder checks it, so no maker has to. */
enum layer_on {
	LAYER_ON_LAYER, /* an earlier layer */
	LAYER_ON_NONE,	/* nothing: md names its members= instead */
	LAYER_ON_FILE,	/* an earlier layer, or file:<path> */
};

struct json;

/* A kind of layer: the builder (layers.c) keeps one table of them. */
struct layer_ops {
	const char *kind; /* the spec's directive */
	enum layer_on on;
	/*
	 * Has a request queue of its own (max_sectors_kb in the topology);
	 * a partition or a file system uses the one of what it sits on.
	 */
	int whole;
	/*
	 * Makes the kernel device for l, whose name, kind and line are set;
	 * `on` is the layer named by on=, NULL for none or a file. Returns 0,
	 * or -1 after an `error` frame. NULL for disks: they are found by
	 * serial (disks_find), not made.
	 */
	int (*create)(struct layer *l, struct layer *on);
	/* Optional: the kind's own fields in the `topology` frame. */
	void (*describe)(struct json *j, const struct layer *l);
};

/* Disks first, then the spec's layers in file order. */
extern struct layer layers[LAYERS_MAX];
extern int nr_layers;

struct layer *layer_find(const char *name);
/* A layer under md metadata or a file system: its root is no scratch space. */
void layer_mark_busy(struct layer *l);
/*
 * l maps the bytes of `below` linearly from `offset`: it shares its root,
 * so the pattern can be checked through either, and its null and ro.
 */
void layer_over(struct layer *l, const struct layer *below, uint64_t offset);
/* The path of a packed tool (/sbin, /usr/sbin, /bin, /usr/bin), or NULL. */
const char *layer_tool(const char *name);

#endif
