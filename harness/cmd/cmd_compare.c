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
 * two commits' samples (block_counters.h), settings first. When both
 * commits were profiled (profile.h: a bisection profiles its culprit and
 * the parent), where the kernel's instructions per MB changed. When the
 * job's bisection is done, every change it found and its revert check
 * (summary.json). With --json, the table and the profile as one document
 * (docs/commands.md).
 */
#include "cmd.h"
#include "cmd_json.h"
#include "bisect_report.h"
#include "block_counters.h"
#include "json_num.h"
#include "options.h"
#include "profile.h"
#include "profile_table.h"
#include "run.h"
#include "store_scan.h"
#include "util.h"
#include "version.h"

#include <math.h>
#include <stdio.h>

/* Measured counters shown under each row, after the settings that differ. */
#define COMPARE_COUNTER_ROWS 8
/* Functions in the profiles' difference. */
#define COMPARE_PROFILE_ROWS 15

/*
 * The two commits' profiles, base against head, when both have one: 1
 * shown (in `out`, or as JSON in *json when json is not NULL), 0 none,
 * -1 after error() when one cannot be read.
 */
static int profile_rows(const char *job_dir, const char *a, const char *b,
			struct strbuf *out, json_t **json)
{
	char *pa = profile_find(job_dir, a), *pb = profile_find(job_dir, b);
	struct profile x = PROFILE_INIT, y = PROFILE_INIT;
	struct profile_diff d = PROFILE_DIFF_INIT;
	int rc = 0;

	if (!pa || !pb)
		goto out;
	rc = -1;
	if (profile_load(&x, pa) || profile_load(&y, pb) ||
	    profile_diff(&d, &x, &y))
		goto out;
	rc = 1;
	if (json) {
		*json = profile_diff_json(&d, COMPARE_PROFILE_ROWS);
		goto out;
	}
	char la[13], lb[13];
	snprintf(la, sizeof(la), "%.12s", x.label ? x.label : a);
	snprintf(lb, sizeof(lb), "%.12s", y.label ? y.label : b);
	if (out->len)
		strbuf_addch(out, '\n');
	profile_diff_render(&d, la, lb, COMPARE_PROFILE_ROWS, "", out);
out:
	profile_diff_release(&d);
	profile_release(&x);
	profile_release(&y);
	free(pa);
	free(pb);
	return rc;
}

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

/*
 * What the job's finished bisection found, under the table: every change
 * and the revert check, as its report.txt words them (summary.json;
 * nothing when it holds neither, or answers another state).
 */
void compare_render_answer(const struct scan *s, struct strbuf *out);

void compare_render_answer(const struct scan *s, struct strbuf *out)
{
	struct bisect_report_answer a;
	struct strbuf lines = STRBUF_INIT;

	if (!s->has_state || s->state.status != STATE_DONE)
		return;
	bisect_report_answer_init(&a);
	if (!bisect_report_answer_load(&a, s->dir, s->state.culprit))
		bisect_report_render_found(&a, &lines);
	if (lines.len)
		strbuf_addf(out, "\nthe bisection's answer %.12s (summary.json):"
				 "\n%s",
			    s->state.culprit, lines.buf);
	strbuf_release(&lines);
	bisect_report_answer_release(&a);
}

/* One counter row of block_counters_compare, for --json. */
static json_t *counter_json(const struct block_counters_row *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "device", json_string(r->dev));
	json_object_set_new(o, "counter", json_string(r->label));
	json_object_set_new(o, "unit", json_string(r->unit));
	/* A choice (the scheduler) is its two words; a number in its unit. */
	json_object_set_new(o, "base", r->a_text ? json_string(r->a_text)
						 : json_num(r->a));
	json_object_set_new(o, "head", r->b_text ? json_string(r->b_text)
						 : json_num(r->b));
	json_object_set_new(o, "change_pct", json_num(r->change_pct));
	json_object_set_new(o, "setting", json_boolean(r->setting));
	return o;
}

/* The rows of compare_render as JSON (pure, for tests). */
json_t *compare_json(const struct scan *s, size_t a, size_t b);

json_t *compare_json(const struct scan *s, size_t a, size_t b)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < s->nr_series; i++) {
		const struct scan_series *ser = &s->series[i];
		struct scan_compare c;
		struct block_counters_table ct;
		json_t *o, *counters = json_array();
		size_t shown = 0;
		if (!ser->cells[a].nr || !ser->cells[b].nr) {
			json_decref(counters);
			continue;
		}
		scan_compare(ser, a, b, &c);
		o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "topology",
			      ser->topology, "engine", ser->engine, "point",
			      ser->point, "metric", ser->metric, "clock",
			      clock_name(ser->clock.kind));
		if (ser->clock.kind == CLOCK_VIRTUAL)
			json_object_set_new(o, "icount_shift",
					    json_integer(ser->clock.shift));
		json_object_set_new(o, "base_median_mbps",
				    json_num(c.a_median / 1e6));
		json_object_set_new(o, "base_stddev_pct",
				    json_num(c.a_stddev_pct));
		json_object_set_new(o, "base_boots", json_integer((json_int_t)c.a_n));
		json_object_set_new(o, "head_median_mbps",
				    json_num(c.b_median / 1e6));
		json_object_set_new(o, "head_stddev_pct",
				    json_num(c.b_stddev_pct));
		json_object_set_new(o, "head_boots", json_integer((json_int_t)c.b_n));
		json_object_set_new(o, "change_pct", json_num(c.change_pct));
		json_object_set_new(o, "p_value", json_num(c.p_value));
		json_object_set_new(o, "significant", json_boolean(c.significant));
		block_counters_compare(ser->cells[a].blocks, ser->cells[b].blocks,
				       &ct);
		/* The rows the table shows: the measured first, the settings. */
		for (size_t k = 0; k < ct.nr; k++)
			if (ct.rows[k].setting || shown++ < COMPARE_COUNTER_ROWS)
				json_array_append_new(counters,
						      counter_json(&ct.rows[k]));
		block_counters_table_release(&ct);
		json_object_set_new(o, "counters", counters);
		json_array_append_new(rows, o);
	}
	return rows;
}

/* A commit named by compare --json: as stored, or as given when not. */
static json_t *commit_json(const struct scan *s, long idx, const char *rev)
{
	if (idx < 0)
		return json_pack("{s:s, s:n}", "commit", rev, "subject");
	return json_pack("{s:s, s:s, s:o}", "commit", s->commits[idx].id,
			 "abbrev", s->commits[idx].abbrev, "subject",
			 s->commits[idx].subject
				 ? json_string(s->commits[idx].subject)
				 : json_null());
}

int cmd_compare(int argc, char **argv)
{
	const char *revs[2] = { NULL, NULL }, *dir = "results", *job = NULL;
	long idx[2];
	struct scan s;
	struct strbuf out = STRBUF_INIT;
	json_t *doc = NULL, *profile = NULL;
	int as_json = 0;
	const struct opt opts[] = {
		OPT_FLAG("--json", &as_json,
			 "one JSON document on stdout (commands.md, JSON output)"),
		OPT_STRING("--results", &dir, "DIR", "the results folder"),
		OPT_STRING("--job", &job, "NAME",
			   "the job in the results folder"),
		OPT_ARG("A", &revs[0], "a commit"),
		OPT_ARG("B", &revs[1], "another commit"),
		OPT_END(),
	};

	int rc;

	if (opt_parse_command("compare", NULL, opts, argc, argv, &rc))
		return rc;
	if (!revs[1]) {
		opt_usage(stderr, "compare", NULL, opts);
		return EXIT_ABORT;
	}
	if (as_json && cmd_json_hold())
		return EXIT_ABORT;
	/* Two commits' boots need no bisect state: a bad one is a warning. */
	if (scan_load_flags(&s, dir, job, SCAN_STATE_OPTIONAL)) {
		cmd_json_put(NULL);
		return run_interrupted() ? EXIT_INTERRUPTED : 1;
	}
	int code = 0, profiled;
	for (int k = 0; k < 2; k++) {
		idx[k] = scan_find_commit(&s, revs[k]);
		if (idx[k] == -2) {
			error("'%s' is ambiguous in '%s'", revs[k], s.dir);
			code = 1;
		}
	}
	if (!code && as_json) {
		doc = json_object();
		json_object_set_new(doc, "job", json_string(s.job));
		json_object_set_new(doc, "base", commit_json(&s, idx[0], revs[0]));
		json_object_set_new(doc, "head", commit_json(&s, idx[1], revs[1]));
		json_object_set_new(doc, "rows",
				    idx[0] >= 0 && idx[1] >= 0
					    ? compare_json(&s, (size_t)idx[0],
							   (size_t)idx[1])
					    : json_array());
		json_object_set_new(doc, "iobisect",
				    json_string(version_string()));
	} else if (!code && idx[0] >= 0 && idx[1] >= 0) {
		compare_render(&s, (size_t)idx[0], (size_t)idx[1], &out);
		compare_render_answer(&s, &out);
	}
	/* Two commits only profiled (iobisect profile) still compare. */
	profiled = code ? 0
			: profile_rows(s.dir,
				       idx[0] >= 0 ? s.commits[idx[0]].abbrev
						   : revs[0],
				       idx[1] >= 0 ? s.commits[idx[1]].abbrev
						   : revs[1],
				       &out, as_json ? &profile : NULL);
	if (profiled < 0)
		code = 1;
	if (doc)
		json_object_set_new(doc, "profile",
				    profile ? profile : json_null());
	for (int k = 0; !code && !profiled && k < 2; k++)
		if (idx[k] < 0) {
			error("no results for '%s' in '%s'", revs[k], s.dir);
			code = 1;
		}
	if (as_json)
		/* A commit with no results is no comparison: no document. */
		cmd_json_put(code ? (json_decref(doc), NULL) : doc);
	else
		fputs(out.buf, stdout);
	strbuf_release(&out);
	scan_release(&s);
	return code;
}
