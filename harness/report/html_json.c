/*
 * html_json.c: the HTML page's data as JSON (html.h, html_report_json):
 * the commits in order, each series' cells and changepoints, the
 * compared pair, the bisect state and what its stored answer explains,
 * for a program that draws its own.
 */
#include "html.h"
#include "json_num.h"
#include "stats.h"
#include "version.h"

#include <math.h>
#include <stdlib.h>

#define MB 1e6

/* Every commit of the scan, in order. */
static json_t *json_commits(const struct scan *s)
{
	json_t *commits = json_array();

	for (size_t i = 0; i < s->nr_commits; i++) {
		const struct scan_commit *c = &s->commits[i];
		json_t *j = json_pack("{s:s, s:s}", "commit", c->id, "abbrev",
				      c->abbrev);
		if (c->subject)
			json_object_set_new(j, "subject", json_string(c->subject));
		if (c->role)
			json_object_set_new(j, "role", json_string(c->role));
		if (c->first_seen)
			json_object_set_new(j, "first_measured",
					    json_string(c->first_seen));
		json_array_append_new(commits, j);
	}
	return commits;
}

/* A series' cells: each measured commit's boots and their figures. */
static json_t *json_cells(const struct scan *s, const struct scan_series *ser)
{
	json_t *cells = json_array();

	for (size_t c = 0; c < s->nr_commits; c++) {
		const struct scan_cell *cell = &ser->cells[c];
		json_t *bw, *boots;
		/* Made after the skip: a commit with no boots leaked them. */
		if (!cell->nr)
			continue;
		bw = json_array();
		boots = json_array();
		for (size_t b = 0; b < cell->nr; b++) {
			json_array_append_new(bw, json_real(cell->values[b]));
			json_array_append_new(boots,
					      json_integer(cell->boots[b]));
		}
		json_array_append_new(
			cells,
			json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:I}",
				  "commit", s->commits[c].id, "boots",
				  boots, "bw_bytes", bw, "median_mbps",
				  json_num(stats_median(cell->values, cell->nr) / MB),
				  "min_mbps",
				  json_num(stats_min(cell->values, cell->nr) / MB),
				  "max_mbps",
				  json_num(stats_max(cell->values, cell->nr) / MB),
				  "stddev_pct",
				  json_num(cell->nr > 1 ? stats_pct_stddev(cell->values, cell->nr) : NAN),
				  "ignored_documents",
				  (json_int_t)cell->nr_ignored));
	}
	return cells;
}

/* A series' change points. */
static json_t *json_change_points(const struct scan *s,
				  const struct changepoint_result *cr)
{
	json_t *cps = json_array();

	for (size_t j = 0; j < cr->nr; j++) {
		const struct changepoint *c = &cr->points[j];
		json_array_append_new(
			cps,
			json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
				  "commit", s->commits[c->index].id,
				  "before_commit", s->commits[c->before].id,
				  "kind", changepoint_kind_name(c->kind),
				  "before_median_mbps", json_num(c->before_median / MB),
				  "after_median_mbps", json_num(c->after_median / MB),
				  "change_pct", json_num(c->change_pct),
				  "p_value", json_num(c->p_value)));
	}
	return cps;
}

/* A series' drifts: a slow change over several commits. */
static json_t *json_drifts(const struct scan *s,
			   const struct changepoint_result *cr)
{
	json_t *drifts = json_array();

	for (size_t j = 0; j < cr->nr_drifts; j++) {
		const struct changepoint_drift *d = &cr->drifts[j];
		json_array_append_new(
			drifts,
			json_pack("{s:s, s:s, s:o, s:o}", "first_commit",
				  s->commits[d->first].id, "last_commit",
				  s->commits[d->last].id, "change_pct",
				  json_num(d->change_pct), "p_value",
				  json_num(d->p_value)));
	}
	return drifts;
}

/* The pair a series' LKP row compares, into `js` when there is one. */
static void json_compare(json_t *js, const struct scan *s, size_t i,
			 const struct changepoint_result *cr)
{
	long a, b;
	struct scan_compare cmp;

	html_series_pair(s, i, cr, &a, &b);
	if (a < 0 || b < 0)
		return;
	scan_compare(&s->series[i], (size_t)a, (size_t)b, &cmp);
	json_object_set_new(
		js, "compare",
		json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
			  "base", s->commits[a].id, "head",
			  s->commits[b].id, "base_median_mbps",
			  json_num(cmp.a_median / MB), "base_stddev_pct",
			  json_num(cmp.a_stddev_pct), "head_median_mbps",
			  json_num(cmp.b_median / MB), "head_stddev_pct",
			  json_num(cmp.b_stddev_pct), "change_pct",
			  json_num(cmp.change_pct), "p_value",
			  json_num(cmp.p_value), "significant",
			  cmp.significant));
}

/* Series `i`: what it measured, its cells and changes; NULL on error. */
static json_t *json_series(const struct scan *s, const struct html_options *o,
			   size_t i)
{
	const struct scan_series *ser = &s->series[i];
	struct changepoint_result cr;
	json_t *js = json_pack("{s:s, s:s, s:s, s:s, s:s}", "topology",
			       ser->topology, "engine", ser->engine, "point",
			       ser->point, "metric", ser->metric, "clock",
			       clock_name(ser->clock.kind));

	if (ser->clock.kind == CLOCK_VIRTUAL)
		json_object_set_new(js, "icount_shift",
				    json_integer(ser->clock.shift));
	json_t *cells = json_cells(s, ser);
	if (html_series_changes(s, i, &o->cp, &cr)) {
		json_decref(cells);
		json_decref(js);
		return NULL;
	}
	json_compare(js, s, i, &cr);
	json_object_set_new(js, "cells", cells);
	json_object_set_new(js, "change_points", json_change_points(s, &cr));
	json_object_set_new(js, "drifts", json_drifts(s, &cr));
	changepoint_result_release(&cr);
	return js;
}

/*
 * What the stored answer explains, as summary.json holds it, under
 * "answer" (its keys: "changes", "share", "revert"); none: no key.
 */
static void json_answer(json_t *root, const struct scan *s, long culprit)
{
	struct bisect_report_answer a;

	bisect_report_answer_init(&a);
	if (culprit >= 0 &&
	    !bisect_report_answer_load(&a, s->dir, s->state.culprit) &&
	    html_answer_shown(&a)) {
		json_t *j = json_object();
		bisect_report_answer_json(&a, 1, j);
		json_object_set_new(root, "answer", j);
	}
	bisect_report_answer_release(&a);
}

json_t *html_report_json(const struct scan *s, const struct html_options *o)
{
	json_t *root = json_object(), *series = json_array();
	long culprit = html_culprit(s);

	json_object_set_new(root, "job", json_string(s->job));
	json_object_set_new(root, "commit_order", json_string(s->order));
	json_object_set_new(root, "iobisect", json_string(version_string()));
	json_object_set_new(root, "commits", json_commits(s));
	json_object_set_new(root, "culprit",
			    culprit >= 0 ? json_string(s->commits[culprit].id) :
					   json_null());
	for (size_t i = 0; i < s->nr_series; i++) {
		json_t *js = json_series(s, o, i);
		if (!js) {
			json_decref(series);
			json_decref(root);
			return NULL;
		}
		json_array_append_new(series, js);
	}
	json_object_set_new(root, "series", series);
	if (s->has_state)
		json_object_set_new(root, "bisect", state_to_json(&s->state));
	json_answer(root, s, culprit);
	return root;
}
