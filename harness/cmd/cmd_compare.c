/*
 * cmd_compare.c: `iobisect compare A B [--results DIR] [--job NAME]`:
 * LKP's table for two commits from the results store, one row per
 * topology x point x metric both commits were measured on:
 *
 *   base-median  %stddev  %change  head-median  %stddev  metric
 *
 * %stddev is shown above 2% only, as LKP does; a '*' beside %change says
 * the two commits' boots are separated (two-sided Mann-Whitney p <= 0.05).
 * Each clock is a row of its own (store_scan.h), named by its unit: a
 * figure in virtual time is never set against one in wall time.
 * Below each row, the block-layer counters that differ most between the
 * two commits' samples (block_counters.h), settings first.
 */
#include "cmd.h"
#include "block_counters.h"
#include "options.h"
#include "run.h"
#include "store_scan.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

/* Measured counters shown under each row, after the settings that differ. */
#define COMPARE_COUNTER_ROWS 8

static void add_sd(struct strbuf *out, double pct)
{
	if (isfinite(pct) && pct > 2)
		strbuf_addf(out, "  ±%3.0f%%  ", pct);
	else
		strbuf_addstr(out, "         ");
}

/* The table for commits a and b of `s` (pure, for tests). */
void compare_render(const struct scan *s, size_t a, size_t b,
		    struct strbuf *out);

void compare_render(const struct scan *s, size_t a, size_t b,
		    struct strbuf *out)
{
	strbuf_addf(out, "%12.12s           %12s  %12.12s\n",
		    s->commits[a].abbrev, "", s->commits[b].abbrev);
	strbuf_addstr(out, "---------------- ---------  ---------------- "
			   "---------\n");
	strbuf_addstr(out, "         %stddev    %change          %stddev\n");
	for (size_t i = 0; i < s->nr_series; i++) {
		const struct scan_series *ser = &s->series[i];
		struct scan_compare c;
		struct block_counters_table ct;
		if (!ser->cells[a].nr || !ser->cells[b].nr)
			continue;
		scan_compare(ser, a, b, &c);
		strbuf_addf(out, "%10.1f", c.a_median / 1e6);
		add_sd(out, c.a_stddev_pct);
		strbuf_addf(out, "%+8.1f%%%c", c.change_pct,
			    c.significant ? '*' : ' ');
		strbuf_addf(out, " %10.1f", c.b_median / 1e6);
		add_sd(out, c.b_stddev_pct);
		strbuf_addstr(out, "  ");
		scan_series_name(ser, out);
		strbuf_addch(out, ' ');
		scan_series_unit(ser, out);
		strbuf_addf(out, "  (%zu vs %zu boots)\n", c.a_n, c.b_n);
		block_counters_compare(ser->cells[a].blocks, ser->cells[b].blocks,
				 &ct);
		block_counters_render(&ct, COMPARE_COUNTER_ROWS, "    ", out);
		block_counters_table_release(&ct);
	}
}

int cmd_compare(int argc, char **argv)
{
	const char *revs[2] = { NULL, NULL }, *dir = "results", *job = NULL;
	long idx[2];
	struct scan s;
	struct strbuf out = STRBUF_INIT;
	const struct opt opts[] = {
		OPT_STRING("--results", &dir, "DIR", "the results folder"),
		OPT_STRING("--job", &job, "NAME",
			   "the job in the results folder"),
		OPT_ARG("A", &revs[0], "a commit"),
		OPT_ARG("B", &revs[1], "another commit"),
		OPT_END(),
	};

	if (opt_parse(opts, argc, argv, NULL) || !revs[1]) {
		opt_usage(stderr, "compare", NULL, opts);
		return EXIT_ABORT;
	}
	/* Two commits' boots need no bisect state: a bad one is a warning. */
	if (scan_load_flags(&s, dir, job, SCAN_STATE_OPTIONAL))
		return run_interrupted() ? EXIT_INTERRUPTED : 1;
	for (int k = 0; k < 2; k++) {
		idx[k] = scan_find_commit(&s, revs[k]);
		if (idx[k] == -2) {
			error("'%s' is ambiguous in '%s'", revs[k], s.dir);
			scan_release(&s);
			return 1;
		}
		if (idx[k] < 0) {
			error("no results for '%s' in '%s'", revs[k], s.dir);
			scan_release(&s);
			return 1;
		}
	}
	compare_render(&s, (size_t)idx[0], (size_t)idx[1], &out);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	scan_release(&s);
	return 0;
}
