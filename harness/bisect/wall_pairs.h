/*
 * wall_pairs.h: the answer's size on TCG's wall clock. The virtual clock
 * finds the commit with a hundredth of the wall clock's noise, but it
 * shrinks what a regression costs 3-60x against the wall clock (it
 * charges nothing for QEMU's work per request; docs/clocks.md), so a
 * person comparing the report with what a machine showed needs the other
 * size too. After an answer found on the virtual clock, the culprit and
 * its parent are booted in turns on the wall clock (runs.wall_pairs
 * pairs), stored under that clock's series, and their medians reported.
 */
#ifndef IOBISECT_WALL_PAIRS_H
#define IOBISECT_WALL_PAIRS_H

#include "bisect_report.h"

struct job;
struct probe_ctx;

/*
 * Boot `parent` and `culprit` in turns, `job->wall_pairs` pairs, on the
 * wall clock, through `ctx` (which booted the bisection: its images are
 * built), and put it back on the run's clock after. 0 with *out filled
 * (its figures NAN when no boot gave a sample), -1 after error() when a boot
 * could not even start or the run was interrupted.
 */
int wall_pairs_run(struct probe_ctx *ctx, struct job *job,
		   const char *parent, const char *culprit,
		   struct bisect_report_wall *out);

#endif
