/*
 * bisect_report.c: the end report of a bisection (see bisect_report.h):
 * the culprit and how sure we are, an LKP-style table per metric, the cost of the run and
 * where every log is; the same as JSON for programs.
 */
#include "bisect_report.h"
#include "profile_table.h"
#include "json_num.h"
#include "stats.h"
#include "version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Functions in the profile's difference: the text's, summary.json's. */
#define REPORT_PROFILE_ROWS 15
#define SUMMARY_PROFILE_ROWS 50
/* Measured counters in each table, after which only the settings. */
#define REPORT_COUNTER_ROWS 8

void bisect_report_init(struct bisect_report *r)
{
	memset(r, 0, sizeof(*r));
	r->confidence = NAN;
	bisect_report_answer_init(&r->answer);
}

void bisect_report_commit_release(struct bisect_report_commit *c)
{
	free(c->describe);
	free(c->subject);
	free(c->author);
	free(c->date);
	memset(c, 0, sizeof(*c));
}

void bisect_report_release(struct bisect_report *r)
{
	free(r->job);
	bisect_report_commit_release(&r->culprit);
	for (size_t i = 0; i < r->nr_suspects; i++)
		bisect_report_commit_release(&r->suspects[i]);
	free(r->suspects);
	free(r->message);
	free(r->note);
	for (size_t i = 0; i < r->nr_rows; i++) {
		free(r->rows[i].metric);
		free(r->rows[i].unit);
	}
	free(r->rows);
	block_counters_table_release(&r->counters_culprit);
	block_counters_table_release(&r->counters_endpoints);
	profile_diff_release(&r->profile);
	free(r->profile_note);
	strvec_clear(&r->logs);
	free(r->state_file);
	free(r->text);
	bisect_report_answer_release(&r->answer);
	bisect_report_init(r);
}

struct bisect_report_row *bisect_report_add_row(struct bisect_report *r, const char *metric,
				  const char *unit)
{
	struct bisect_report_row *row;

	ALLOC_GROW(r->rows, r->nr_rows + 1, r->alloc_rows);
	row = &r->rows[r->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->metric = xstrdup(metric);
	row->unit = xstrdup(unit);
	row->good_median = row->bad_median = NAN;
	row->good_stddev_pct = row->bad_stddev_pct = NAN;
	return row;
}

/* "± 2%" column; blank when unknown. */
static void add_stddev(struct strbuf *out, double pct)
{
	if (isfinite(pct))
		strbuf_addf(out, "  ±%4.0f%%", pct);
	else
		strbuf_addstr(out, "        ");
}

static void add_value(struct strbuf *out, double v)
{
	if (isfinite(v))
		strbuf_addf(out, "%12.2f", v);
	else
		strbuf_addf(out, "%12s", "-");
}

static void render_table(const struct bisect_report *r, struct strbuf *out)
{
	/* The columns of LKP's comparison: base, %stddev, %change, head. */
	strbuf_addf(out, "%12s%8s%11s %13s%8s  %s\n", "good-median", "%stddev",
		    "%change", "bad-median", "%stddev", "metric");
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct bisect_report_row *row = &r->rows[i];
		double change =
			stats_pct_change(row->good_median, row->bad_median);
		add_value(out, row->good_median);
		add_stddev(out, row->good_stddev_pct);
		if (isfinite(change))
			strbuf_addf(out, "  %+8.1f%%%c", change,
				    row->significant ? '*' : ' ');
		else
			strbuf_addf(out, "  %9s ", "-");
		strbuf_addch(out, ' ');
		add_value(out, row->bad_median);
		add_stddev(out, row->bad_stddev_pct);
		strbuf_addf(out, "  %s ", row->metric);
		if (!strcmp(row->unit, "MB/s"))
			clock_unit(out, &r->clock);
		else
			strbuf_addstr(out, row->unit);
		strbuf_addch(out, '\n');
	}
}

static void render_commit(struct strbuf *out, const struct bisect_report_commit *c)
{
	strbuf_addf(out, "  commit   %s\n", c->id);
	if (c->subject)
		strbuf_addf(out, "  subject  %s\n", c->subject);
	if (c->describe)
		strbuf_addf(out, "  describe %s\n", c->describe);
	if (c->author)
		strbuf_addf(out, "  author   %s\n", c->author);
	if (c->date)
		strbuf_addf(out, "  date     %s\n", c->date);
}

/* The wall clock's drop: within pairs when any, else of the medians. */
static double wall_ratio(const struct bisect_report_wall *w)
{
	return isfinite(w->pair_ratio) ? w->pair_ratio : w->culprit / w->parent;
}

/*
 * The culprit against its parent on TCG's wall clock, beside the clock
 * that found it. Sizes are compared as log ratios; a drop more than
 * REPORT_SIZES_APART times larger (or smaller) on one clock is said in
 * words, since a line drawn from either does not carry over to the other,
 * and neither is hardware's (docs/clocks.md).
 */
#define REPORT_SIZES_APART 1.5
static void render_wall(const struct bisect_report *r, struct strbuf *out)
{
	const struct bisect_report_wall *w = &r->wall;
	const struct bisect_report_row *row = r->nr_rows ? &r->rows[0] : NULL;
	double lw, lv, k;

	if (!w->pairs || r->status != STATE_DONE)
		return;
	if (!(w->parent > 0) || !(w->culprit > 0)) {
		strbuf_addf(out, "\n  on TCG's wall clock: no figure (%u boots "
				 "gave no sample)\n",
			    w->boots);
		return;
	}
	lw = log(wall_ratio(w));
	strbuf_addf(out,
		    "\n  on TCG's wall clock (%u pairs in turns): parent "
		    "%.1f, culprit %.1f MB/s, %+.1f%%\n",
		    w->pairs, w->parent / 1e6, w->culprit / 1e6,
		    (wall_ratio(w) - 1) * 100);
	if (!row || !(row->good_median > 0) || !(row->bad_median > 0))
		return;
	lv = log(row->bad_median / row->good_median);
	if (lw * lv <= 0) {
		strbuf_addstr(out, "    the wall clock does not show the drop "
				   "the virtual clock found\n");
		return;
	}
	k = fabs(lw) > fabs(lv) ? lw / lv : lv / lw;
	if (k > REPORT_SIZES_APART)
		strbuf_addf(out,
			    "    %.1fx %s than the virtual clock's %+.1f%% (in "
			    "log ratio): neither TCG clock is hardware, and a "
			    "line drawn from one does not carry over to the "
			    "other (docs/clocks.md)\n",
			    k, fabs(lw) > fabs(lv) ? "larger" : "smaller",
			    stats_pct_change(row->good_median, row->bad_median));
}

void bisect_report_render_text(const struct bisect_report *r, struct strbuf *out)
{
	char took[32];

	switch (r->status) {
	case STATE_DONE:
		strbuf_addf(out, "%s: first slow commit found\n\n",
			    r->job ? r->job : "bisect");
		render_commit(out, &r->culprit);
		if (isfinite(r->confidence))
			strbuf_addf(out,
				    "  confidence %.1f%% (from fresh pairs of "
				    "the culprit and its parent)\n",
				    r->confidence * 100);
		if (r->identical_image)
			strbuf_addf(out,
				    "  warning: its kernel image is byte-identical "
				    "to its parent's (%.12s): the result is "
				    "probably noise\n",
				    r->parent);
		break;
	case STATE_INCONCLUSIVE:
		strbuf_addf(out, "%s: inconclusive: the first bad commit is "
				 "one of:\n",
			    r->job ? r->job : "bisect");
		for (size_t i = 0; i < r->nr_suspects; i++)
			strbuf_addf(out, "  %s %s\n", r->suspects[i].id,
				    r->suspects[i].subject
					    ? r->suspects[i].subject
					    : "");
		break;
	case STATE_NOT_SEPARATED:
	case STATE_ABORTED:
	case STATE_RUNNING:
		strbuf_addf(out, "%s: %s\n", r->job ? r->job : "bisect",
			    r->status == STATE_RUNNING ? "interrupted"
			    : r->status == STATE_ABORTED ? "aborted"
							 : "endpoints not "
							   "separated");
		break;
	}
	if (r->message)
		strbuf_addf(out, "  %s\n", r->message);
	if (r->note)
		strbuf_addf(out, "  %s\n", r->note);
	bisect_report_render_answer(&r->answer, r->status == STATE_DONE, out);
	if (r->nr_rows) {
		strbuf_addch(out, '\n');
		if (r->status == STATE_DONE)
			strbuf_addf(out, "  %.12s (parent) against %.12s "
					 "(culprit), medians per boot:\n",
				    r->parent, r->culprit.id);
		render_table(r, out);
	}
	render_wall(r, out);
	if (r->counters_culprit.nr) {
		strbuf_addf(out, "\n  block-layer counters, %.12s (parent) -> "
				 "%.12s (culprit), medians of samples:\n",
			    r->parent, r->culprit.id);
		block_counters_render(&r->counters_culprit, REPORT_COUNTER_ROWS, "",
				out);
	}
	if (r->counters_endpoints.nr) {
		strbuf_addstr(out, "\n  block-layer counters, good -> bad "
				   "endpoints:\n");
		block_counters_render(&r->counters_endpoints, REPORT_COUNTER_ROWS,
				"", out);
	}
	if (r->profile.total.name) {
		strbuf_addf(out, "\n  profile, %.12s (parent) -> %.12s "
				 "(culprit), one boot each:\n",
			    r->parent, r->culprit.id);
		profile_diff_render(&r->profile, "parent", "culprit",
				    REPORT_PROFILE_ROWS, "  ", out);
	} else if (r->profile_note) {
		strbuf_addf(out, "\n  profile: %s\n", r->profile_note);
	}
	format_duration(took, sizeof(took), r->seconds);
	strbuf_addf(out,
		    "\n  %u steps, %u builds done, %u served from cache, %u "
		    "boots, %u samples, %s\n",
		    r->steps, r->counts.builds, r->counts.builds_cached,
		    r->counts.boots, r->counts.samples, took);
	/* The program that made these figures, so they can be traced. */
	strbuf_addf(out, "  iobisect %s\n", version_string());
	if (r->state_file)
		strbuf_addf(out, "  history: %s (iobisect bisect JOB --log)\n",
			    r->state_file);
	if (r->logs.nr) {
		strbuf_addstr(out, "  logs:\n");
		for (size_t i = 0; i < r->logs.nr; i++)
			strbuf_addf(out, "    %s\n", r->logs.v[i]);
	}
}

static json_t *commit_json(const struct bisect_report_commit *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(c->id));
	if (c->describe)
		json_object_set_new(o, "describe", json_string(c->describe));
	if (c->subject)
		json_object_set_new(o, "subject", json_string(c->subject));
	if (c->author)
		json_object_set_new(o, "author", json_string(c->author));
	if (c->date)
		json_object_set_new(o, "date", json_string(c->date));
	return o;
}

json_t *bisect_report_to_json(const struct bisect_report *r)
{
	json_t *o = json_object(), *rows = json_array(), *a;

	json_object_set_new(o, "job", json_string(r->job ? r->job : ""));
	json_object_set_new(o, "status",
			    json_string(state_status_name(r->status)));
	if (r->status == STATE_DONE) {
		json_object_set_new(o, "culprit", commit_json(&r->culprit));
		json_object_set_new(o, "parent", json_string(r->parent));
		json_object_set_new(o, "confidence", json_num(r->confidence));
		json_object_set_new(o, "identical_image",
				    json_boolean(r->identical_image));
	}
	bisect_report_answer_json(&r->answer, r->status == STATE_DONE, o);
	a = json_array();
	for (size_t i = 0; i < r->nr_suspects; i++)
		json_array_append_new(a, commit_json(&r->suspects[i]));
	json_object_set_new(o, "suspects", a);
	if (r->message)
		json_object_set_new(o, "message", json_string(r->message));
	if (r->note)
		json_object_set_new(o, "note", json_string(r->note));
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct bisect_report_row *row = &r->rows[i];
		json_t *j = json_object();
		double change =
			stats_pct_change(row->good_median, row->bad_median);
		json_object_set_new(j, "metric", json_string(row->metric));
		json_object_set_new(j, "unit", json_string(row->unit));
		json_object_set_new(j, "good_median", json_num(row->good_median));
		json_object_set_new(j, "good_stddev_pct",
				    json_num(row->good_stddev_pct));
		json_object_set_new(j, "bad_median", json_num(row->bad_median));
		json_object_set_new(j, "bad_stddev_pct",
				    json_num(row->bad_stddev_pct));
		json_object_set_new(j, "change_pct", json_num(change));
		json_object_set_new(j, "significant",
				    json_boolean(row->significant));
		json_array_append_new(rows, j);
	}
	json_object_set_new(o, "metrics", rows);
	if (r->wall.pairs && r->status == STATE_DONE) {
		json_t *w = json_object();
		json_object_set_new(w, "pairs", json_integer(r->wall.pairs));
		json_object_set_new(w, "boots", json_integer(r->wall.boots));
		json_object_set_new(w, "parent_mbps", json_num(r->wall.parent / 1e6));
		json_object_set_new(w, "culprit_mbps",
				    json_num(r->wall.culprit / 1e6));
		json_object_set_new(w, "change_pct",
				    json_num((wall_ratio(&r->wall) - 1) * 100));
		json_object_set_new(o, "wall_clock", w);
	}
	if (r->profile.total.name)
		json_object_set_new(o, "profile",
				    profile_diff_json(&r->profile,
						      SUMMARY_PROFILE_ROWS));
	else if (r->profile_note)
		json_object_set_new(o, "profile_note",
				    json_string(r->profile_note));
	json_object_set_new(o, "clock", json_string(clock_name(r->clock.kind)));
	if (r->clock.kind == CLOCK_VIRTUAL)
		json_object_set_new(o, "icount_shift",
				    json_integer(r->clock.shift));
	json_object_set_new(o, "iobisect", json_string(version_string()));
	json_object_set_new(o, "steps", json_integer(r->steps));
	run_counts_to_json(o, &r->counts);
	json_object_set_new(o, "total_seconds", json_num(r->seconds));
	a = json_array();
	for (size_t i = 0; i < r->logs.nr; i++)
		json_array_append_new(a, json_string(r->logs.v[i]));
	json_object_set_new(o, "logs", a);
	if (r->state_file)
		json_object_set_new(o, "state_file",
				    json_string(r->state_file));
	return o;
}

int bisect_report_write(const struct bisect_report *r, const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	char *path = NULL, *dump = NULL;
	json_t *j;
	int ret = -1;

	if (mkdir_p(dir, 0777))
		return -1;
	bisect_report_render_text(r, &text);
	path = xstrfmt("%s/report.txt", dir);
	if (write_file_atomic(path, text.buf, text.len))
		goto out;
	free(path);
	j = bisect_report_to_json(r);
	dump = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(j);
	path = xstrfmt("%s/summary.json", dir);
	if (!dump) {
		error("cannot render '%s'", path);
		goto out;
	}
	strbuf_reset(&text);
	strbuf_addstr(&text, dump);
	strbuf_addch(&text, '\n');
	ret = write_file_atomic(path, text.buf, text.len);
out:
	free(path);
	free(dump);
	strbuf_release(&text);
	return ret;
}
