/*
 * counters.h: the block layer's own accounting, read around every sample
 * for every device of the topology (disks, partitions, md, dm, loop): the
 * stat file's counters, the queue limits, and md's state. What the kernel
 * sent to the disk says why a sample was slow (request size, merges,
 * queue depth, time in flight), where MB/s only says that it was.
 * The sample frame carries the difference as "block_v1"
 * (workloads/PROTOCOL.md); the host derives the averages from it.
 */
#ifndef IOBISECT_GUEST_COUNTERS_H
#define IOBISECT_GUEST_COUNTERS_H

#include "layer.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The fields of /sys/block/<dev>/stat (Documentation/block/stat.rst), in
 * file order; later kernels append discard and flush fields, not read.
 */
#define COUNTERS_STAT_FIELDS(X)                                                \
	X(reads)                                                               \
	X(read_merges) X(read_sectors) X(read_ticks_ms) X(writes)              \
		X(write_merges) X(write_sectors) X(write_ticks_ms)             \
			X(in_flight) X(io_ticks_ms) X(time_in_queue_ms)
#define COUNTERS_ENUM(name) COUNTERS_##name,
enum { COUNTERS_STAT_FIELDS(COUNTERS_ENUM) COUNTERS_NR_STAT };
#undef COUNTERS_ENUM

/* The queue limits read, numbers all but the scheduler. */
#define COUNTERS_QUEUE_FILES(X)                                                \
	X(max_sectors_kb) X(max_hw_sectors_kb) X(read_ahead_kb) X(nr_requests)
#define COUNTERS_ENUM(name) COUNTERS_Q_##name,
enum { COUNTERS_QUEUE_FILES(COUNTERS_ENUM) COUNTERS_NR_QUEUE };
#undef COUNTERS_ENUM

/* What could be read of one device: a bit unset is missing, not zero. */
enum counters_have {
	COUNTERS_HAVE_STAT = 1 << 0,
	COUNTERS_HAVE_SCHEDULER = 1 << 1,
	COUNTERS_HAVE_SYNC_ACTION = 1 << 2,
	COUNTERS_HAVE_BITMAP = 1 << 3,
	COUNTERS_HAVE_STRIPE_CACHE = 1 << 4,
	/* Then one bit per queue file, from COUNTERS_HAVE_QUEUE << q. */
	COUNTERS_HAVE_QUEUE = 1 << 5,
};

/* One device at one moment. */
struct counters_dev {
	int layer; /* index into layers[] */
	unsigned have;
	int from_diskstats; /* the stat came from /proc/diskstats */
	uint64_t stat[COUNTERS_NR_STAT];
	uint64_t queue[COUNTERS_NR_QUEUE];
	char scheduler[32];
	char sync_action[16];
	uint64_t bitmap_pages, stripe_cache_active;
};

/* Every device of the topology at one moment, and what reading it took. */
struct counters_snap {
	uint64_t at_ns, took_ns;
	int nr;
	struct counters_dev dev[LAYERS_MAX];
};

/* Read every device of the topology (layers[]) now. */
void counters_take(struct counters_snap *s);

struct json;
/* The "block_v1" object of a sample frame: what changed from a to b. */
void counters_json(struct json *j, const struct counters_snap *a,
		   const struct counters_snap *b);

/* Pure parts, for the tests. */

/* The fields of a stat file's text; 0, or -1 when it has fewer than 11. */
int counters_parse_stat(const char *text, uint64_t out[COUNTERS_NR_STAT]);
/*
 * The fields of device `dev` in the text of /proc/diskstats; 0, or -1
 * when it has no line for it with 11 fields (partitions of kernels before
 * 2.6.25 have 4).
 */
int counters_parse_diskstats(const char *text, const char *dev,
			     uint64_t out[COUNTERS_NR_STAT]);
/* The scheduler in use, from "mq-deadline [none]" or "none"; -1: none. */
int counters_parse_scheduler(const char *text, char *out, size_t size);
/*
 * after - before of a counter that only grows: a 32-bit kernel's
 * unsigned long wraps at 2^32, once at most within a sample.
 */
uint64_t counters_delta(uint64_t before, uint64_t after);

#endif
