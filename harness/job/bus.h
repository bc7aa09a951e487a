/*
 * bus.h: what differs from one disk bus to the next, as one table
 * (bus_info[], a row per enum disk_bus), in the way fio's ioengine_ops
 * say what an engine can do: QEMU's device, its shared controller, where
 * a disk sits on it, how QEMU caps a request, and flags. Every row is
 * expanded from proto/spec_keys.h's PROTO_BUSES, the list that also gives
 * the enum and the names, so a bus added there has all its columns or does
 * not compile. Callers ask the table what a bus can do and never name one;
 * the guest finds its disks by the serial QEMU gives them
 * (workloads/disks.c).
 */
#ifndef IOBISECT_BUS_H
#define IOBISECT_BUS_H

#include "proto/spec_keys.h"

#define BUS_ENUM(suffix, ...) BUS_##suffix,
enum disk_bus { PROTO_BUSES(BUS_ENUM) };
#undef BUS_ENUM
#define BUS_ONE(...) +1
enum { NR_BUSES = 0 PROTO_BUSES(BUS_ONE) };
#undef BUS_ONE

/* Where a disk sits on its bus: what its -device says besides the drive. */
enum bus_place {
	PLACE_ALONE,	/* a PCI function of its own, or no device at all */
	PLACE_SCSI_ID,	/* target = the disk's index, on the bus's controller */
	PLACE_IDE_UNIT, /* the pc machine's PIIX: two buses, two units */
};

/*
 * How QEMU caps a request at the disk's max_sectors_kb. The guest writes
 * queue/max_sectors_kb on every bus too (guest_spec.c).
 */
enum bus_cap {
	CAP_NONE,	 /* QEMU 7.2 has no knob: the guest's cap alone */
	CAP_MAX_IO_SIZE, /* max_io_size= in bytes */
	CAP_MDTS,	 /* mdts=, a power of two of 4 KiB pages, 8 KiB least */
};

enum bus_flags {
	/*
	 * The guest kernel's own disk (null_blk, set by its module
	 * parameters on the kernel's command line): no device, backing,
	 * cache or throttle of QEMU's, and no wait in host time.
	 */
	BUS_GUEST = 1 << 0,
	/* QEMU attaches it read-only (ide-hd: "Block node is read-only"). */
	BUS_RO = 1 << 1,
	/*
	 * Its queue can be served in the vCPU's thread (ioeventfd=off, on the
	 * controller when there is one): a null-co request with no latency
	 * and no throttle is then done before the guest runs on. NVMe queues
	 * its work for QEMU's main loop whatever is asked.
	 */
	BUS_AT_ONCE = 1 << 2,
};

struct bus_info {
	const char *name;
	const char *device;
	const char *controller;
	enum bus_place place;
	enum bus_cap cap;
	unsigned flags;
};

extern const struct bus_info bus_info[NR_BUSES];

/* 1 when bus `b`'s flags hold all of `flags`; 0 for a bus out of range. */
int bus_has(enum disk_bus b, unsigned flags);

#endif
