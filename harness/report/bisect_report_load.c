/*
 * bisect_report_load.c: a finished bisection's report read back
 * (bisect_report.h). Running the same command again on a finished folder
 * prints the answer that was stored and publishes its figures: a re-run
 * that walked the stored evidence again had less in hand than the run
 * that confirmed the culprit (no parent, no table), and rewrote the
 * report with less.
 */
#include "bisect_report.h"
#include "json_num.h"
#include "store_file.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The report files are iobisect's own and small. */
#define REPORT_MAX ((size_t)4 << 20)

static char *str_dup(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? xstrdup(s) : NULL;
}

static int load_rows(struct bisect_report *r, json_t *rows)
{
	size_t i;
	json_t *j;

	if (!json_is_array(rows))
		return -1;
	json_array_foreach(rows, i, j) {
		json_t *m = json_object_get(j, "metric");
		json_t *u = json_object_get(j, "unit");
		const char *metric = json_string_value(m);
		const char *unit = json_string_value(u);
		struct bisect_report_row *row;

		if (!metric || !unit)
			return -1;
		row = bisect_report_add_row(r, metric, unit);
		row->good_median = json_num_at(j, "good_median");
		row->good_stddev_pct = json_num_at(j, "good_stddev_pct");
		row->bad_median = json_num_at(j, "bad_median");
		row->bad_stddev_pct = json_num_at(j, "bad_stddev_pct");
		row->significant =
			json_is_true(json_object_get(j, "significant"));
	}
	return 0;
}

int bisect_report_load(struct bisect_report *r, const char *dir, const char *culprit)
{
	struct strbuf text = STRBUF_INIT, sum = STRBUF_INIT;
	char *tpath = xstrfmt("%s/report.txt", dir);
	char *spath = xstrfmt("%s/summary.json", dir);
	json_t *o = NULL, *c, *logs, *v;
	const char *id, *status, *parent;
	struct clock clock;
	int ret = 1;
	size_t i;

	if (!store_file_exists(tpath) || !store_file_exists(spath))
		goto out;
	if (store_file_read(tpath, &text, REPORT_MAX) ||
	    store_file_read(spath, &sum, REPORT_MAX))
		goto spoiled;
	o = json_loads(sum.buf, JSON_REJECT_DUPLICATES, NULL);
	c = json_object_get(o, "culprit");
	id = json_string_value(json_object_get(c, "id"));
	status = json_string_value(json_object_get(o, "status"));
	parent = json_string_value(json_object_get(o, "parent"));
	/* Only the answer the state holds is served: another is stale. */
	if (!json_is_object(o) || !status || strcmp(status, "done") || !id ||
	    strcmp(id, culprit) || !parent || strlen(parent) >= 41)
		goto spoiled;
	clock = r->clock;
	bisect_report_release(r);
	r->clock = clock;
	r->job = str_dup(o, "job");
	r->status = STATE_DONE;
	snprintf(r->culprit.id, sizeof(r->culprit.id), "%s", id);
	r->culprit.describe = str_dup(c, "describe");
	r->culprit.subject = str_dup(c, "subject");
	r->culprit.author = str_dup(c, "author");
	r->culprit.date = str_dup(c, "date");
	snprintf(r->parent, sizeof(r->parent), "%s", parent);
	r->confidence = json_num_at(o, "confidence");
	r->identical_image =
		json_is_true(json_object_get(o, "identical_image"));
	r->message = str_dup(o, "message");
	/* What stands beside the answer: its share, revert, changes. */
	bisect_report_answer_from_json(&r->answer, o);
	if (load_rows(r, json_object_get(o, "metrics"))) {
		bisect_report_release(r);
		goto spoiled;
	}
	r->steps = json_count_at(o, "steps");
	run_counts_from_json(&r->counts, o);
	r->seconds = json_num_at(o, "total_seconds");
	logs = json_object_get(o, "logs");
	json_array_foreach(logs, i, v)
		if (json_is_string(v))
			strvec_push(&r->logs, json_string_value(v));
	r->state_file = str_dup(o, "state_file");
	r->text = strbuf_detach(&text);
	ret = 0;
	goto out;
spoiled:
	warning("the stored report in '%s' does not hold the answer %.12s: "
		"it is written again",
		dir, culprit);
out:
	json_decref(o);
	strbuf_release(&text);
	strbuf_release(&sum);
	free(tpath);
	free(spath);
	return ret;
}

int bisect_report_answer_load(struct bisect_report_answer *a, const char *dir,
			      const char *culprit)
{
	char *path = xstrfmt("%s/summary.json", dir);
	json_t *o = NULL;
	const char *status, *id;
	int ret = 1;

	if (!store_file_exists(path))
		goto out;
	o = store_json_optional(path, REPORT_MAX, JSON_REJECT_DUPLICATES,
				"the stored answer");
	status = json_string_value(json_object_get(o, "status"));
	id = json_string_value(
		json_object_get(json_object_get(o, "culprit"), "id"));
	/* Another answer's figures are not this one's: a stale summary. */
	if (!status || strcmp(status, "done") || !id ||
	    (culprit && strcmp(id, culprit)))
		goto out;
	bisect_report_answer_from_json(a, o);
	ret = 0;
out:
	json_decref(o);
	free(path);
	return ret;
}
