/*
 * block_counters.h: the block layer's counters of a sample (the guest's
 * "block_v1", workloads/PROTOCOL.md) made readable: the averages derived
 * from them when a sample is stored, and the table of what differs most
 * between two commits, as LKP prints it (base, %change, head), largest
 * change first. Pure: JSON in, rows and text out.
 */
#ifndef IOBISECT_BLOCK_COUNTERS_H
#define IOBISECT_BLOCK_COUNTERS_H

#include "proto/frame.h"
#include "util.h"

#include <jansson.h>
#include <stdint.h>


/*
 * A copy of a sample's block_v1 with a "derived" object added to each
 * device: reads, writes, merges, average request size, average wait,
 * requests in flight, busy time and requests per MB the workload moved
 * (io_bytes), and the limits as numbers to compare. A quantity whose
 * inputs are missing, or that has no requests to average, is left out,
 * never written as zero. NULL when `block` is not an object with devices.
 */
json_t *block_counters_derive(json_t *block, uint64_t io_bytes);

/* One row of the table: one quantity of one device, base against head. */
struct block_counters_row {
	char *dev;	       /* kernel name: "vda", "md0" */
	const char *label;     /* "avg read request" */
	const char *unit;      /* "KiB", "ms", "" */
	double a, b;	       /* medians over the samples, in unit */
	char *a_text, *b_text; /* a choice (scheduler): the two values */
	double change_pct;     /* NAN for a choice; INFINITY from zero */
	double rank;	       /* how far apart: |ln(b / a)| */
	int setting;	       /* a limit or a choice, not a measurement */
	int order;	       /* the quantity's place in the list of them */
};

struct block_counters_table {
	struct block_counters_row *rows; /* largest first, then the settings */
	size_t nr, alloc;
	size_t a_samples, b_samples; /* samples that carried counters */
};
#define BLOCK_COUNTERS_TABLE_INIT                                                    \
	{                                                                      \
		NULL, 0, 0, 0, 0                                               \
	}
void block_counters_table_release(struct block_counters_table *t);

/*
 * Compare two commits from the stored block_v1 objects of their samples
 * (JSON arrays, each element one sample's, with "derived"): for each
 * device and quantity both sides have, the median of each side; rows
 * that differ, measured ones by |ln(b / a)| (a halving weighs as
 * much as a doubling, which %change does not), events counted from one
 * so that 0 -> 3 writes is not infinitely far. On a tie the quantity
 * that names the mechanism comes first: a request size before the
 * request counts that follow from it. The settings that differ (limits,
 * the scheduler) come last, apart: they are what the kernel was given or
 * chose, the rows above what it did.
 */
void block_counters_compare(json_t *a_blocks, json_t *b_blocks,
		      struct block_counters_table *out);

/*
 * The table for people: "base  %change  head  dev: quantity", at most
 * max_rows measured rows, then the settings that differ, each line
 * prefixed by indent. Nothing when the table is empty.
 */
void block_counters_render(const struct block_counters_table *t, size_t max_rows,
		     const char *indent, struct strbuf *out);
/* One value with its unit, as the table shows it: "1024 KiB". */
void block_counters_format_value(struct strbuf *out, double v, const char *unit);

#endif
