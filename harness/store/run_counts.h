/*
 * run_counts.h: what a run cost, counted once: builds (make ran), images
 * served from the cache, boots and sample documents. The measuring layer
 * counts them (measure.h, probe.h), the bisect state keeps their totals
 * over every run of a bisection (state.h), and the report prints them
 * (bisect_report.h); the two documents that hold them write and read
 * them here, under the same keys.
 */
#ifndef IOBISECT_RUN_COUNTS_H
#define IOBISECT_RUN_COUNTS_H

#include <jansson.h>

struct run_counts {
	unsigned builds;	/* make ran (failures included) */
	unsigned builds_cached; /* images served from the build cache */
	unsigned boots;
	unsigned samples; /* sample documents stored */
};

/* *out = a + b, each count (out may be a or b). */
void run_counts_sum(struct run_counts *out, const struct run_counts *a,
		    const struct run_counts *b);

/* "builds", "builds_cached", "boots" and "samples" set in `obj`. */
void run_counts_to_json(json_t *obj, const struct run_counts *c);
/*
 * The same keys read back from `obj`; a key missing, not a count, or past
 * what a count holds reads as 0 (a document's totals are for people).
 */
void run_counts_from_json(struct run_counts *c, const json_t *obj);

#endif
