/*
 * html.c: the HTML page and the JSON document of a results folder (see
 * html.h). Figures are stored in bytes/s and shown in MB/s (10^6 bytes).
 * Plots share one x axis (every commit of the scan, in history order) so
 * the eye can run down the page from one topology to the next. What a
 * series' plot and rows are drawn from is in html_series.c, the plot in
 * html_plot.c, the counters in html_counters.c, what the stored answer
 * explains (its changes, the revert check) in html_answer.c.
 */
#include "html.h"
#include "stats.h"
#include "store_file.h"
#include "version.h"

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define MB 1e6

static void fmt_mbps(struct strbuf *out, double v)
{
	if (!isfinite(v))
		strbuf_addstr(out, "-");
	else if (v >= 1000)
		strbuf_addf(out, "%.0f", v);
	else if (v >= 10)
		strbuf_addf(out, "%.1f", v);
	else
		strbuf_addf(out, "%.2f", v);
}

static void td_num(struct strbuf *out, double v, const char *cls)
{
	strbuf_addf(out, "<td class=\"num%s%s\">", cls ? " " : "", cls ? cls : "");
	fmt_mbps(out, v);
	strbuf_addstr(out, "</td>");
}

/* LKP shows %stddev only above 2%. */
static void td_stddev(struct strbuf *out, double pct)
{
	if (isfinite(pct) && pct > 2)
		strbuf_addf(out, "<td class=\"num sd\">&#177; %.0f%%</td>", pct);
	else
		strbuf_addstr(out, "<td class=\"num sd\"></td>");
}

static void render_lkp(struct strbuf *out, const struct scan *s,
		       const struct changepoint_result *crs)
{
	strbuf_addstr(out, "<table class=\"lkp\"><thead><tr><th>base</th>"
			   "<th class=\"num\">MB/s</th><th>%stddev</th>"
			   "<th class=\"num\">%change</th><th>head</th>"
			   "<th class=\"num\">MB/s</th><th>%stddev</th>"
			   "<th>metric</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < s->nr_series; i++) {
		long a, b;
		struct scan_compare cmp;
		html_series_pair(s, i, &crs[i], &a, &b);
		if (a < 0 || b < 0)
			continue;
		scan_compare(&s->series[i], (size_t)a, (size_t)b, &cmp);
		strbuf_addstr(out, "<tr><td class=\"id\">");
		html_escape_n(out, s->commits[a].abbrev, 12);
		strbuf_addstr(out, "</td>");
		td_num(out, cmp.a_median / MB, NULL);
		td_stddev(out, cmp.a_stddev_pct);
		strbuf_addf(out, "<td class=\"num %s\">%+.1f%%%s</td>",
			    cmp.change_pct < 0 ? "neg" : "pos", cmp.change_pct,
			    cmp.significant ? "*" : "");
		strbuf_addstr(out, "<td class=\"id\">");
		html_escape_n(out, s->commits[b].abbrev, 12);
		strbuf_addstr(out, "</td>");
		td_num(out, cmp.b_median / MB, NULL);
		td_stddev(out, cmp.b_stddev_pct);
		strbuf_addstr(out, "<td>");
		struct strbuf name = STRBUF_INIT;
		scan_series_name(&s->series[i], &name);
		strbuf_addch(&name, ' ');
		scan_series_unit(&s->series[i], &name);
		html_escape(out, name.buf);
		strbuf_release(&name);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table>\n<p class=\"note\">* the two "
			   "commits' stored boots are separated (two-sided "
			   "Mann-Whitney, p &le; 0.05): a comparison of what "
			   "is stored, not a bisection's verdict, which is a "
			   "sequential test. %stddev is shown above 2% "
			   "only.</p>\n");
}

static void render_history(struct strbuf *out, const struct scan *s)
{
	const struct bisect_state *st = &s->state;

	strbuf_addstr(out, "<table class=\"history\"><thead><tr><th>#</th>"
			   "<th>commit</th><th>role</th><th>mark</th>"
			   "<th>outcome</th><th class=\"num\">MB/s</th>"
			   "<th class=\"num\">vs good</th><th class=\"num\">"
			   "boots</th><th class=\"num\">error</th><th>subject</th>"
			   "</tr></thead><tbody>\n");
	for (size_t i = 0; i < st->nr_probes; i++) {
		const struct state_probe *p = &st->probes[i];
		const char *mark = p->mark == BISECT_UNTESTED
					   ? NULL
					   : bisect_mark_name(p->mark);
		strbuf_addf(out,
			    "<tr class=\"%s\"><td class=\"num\">%zu</td>"
			    "<td class=\"id\">",
			    html_role_class(mark), i + 1);
		html_escape_n(out, p->commit, 12);
		strbuf_addstr(out, "</td><td>");
		html_escape(out, probe_role_name(p->role));
		strbuf_addstr(out, "</td><td>");
		html_escape(out, mark);
		strbuf_addstr(out, "</td><td>");
		html_escape(out, probe_outcome_name(p->outcome));
		strbuf_addstr(out, "</td>");
		td_num(out, p->v.median / MB, NULL);
		if (isfinite(p->v.effect_pct) && p->v.verdict)
			strbuf_addf(out, "<td class=\"num %s\">%+.1f%%</td>",
				    p->v.effect_pct < 0 ? "neg" : "pos",
				    p->v.effect_pct);
		else
			strbuf_addstr(out, "<td></td>");
		strbuf_addf(out, "<td class=\"num\">%u</td>", p->v.boots);
		/* The verdict's chance of being wrong (older states: p). */
		if (isfinite(p->v.error) && p->v.verdict)
			strbuf_addf(out, "<td class=\"num\">%.2g</td>",
				    isfinite(p->v.llr) ? p->v.error
						       : p->v.p_value);
		else
			strbuf_addstr(out, "<td></td>");
		strbuf_addstr(out, "<td>");
		html_escape(out, p->subject);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table>\n");
}

/*
 * The tables `iobisect run` left beside a commit's boots (table.json):
 * each report's own table, as the job laid it out.
 */
static void render_table(struct strbuf *out, const char *abbrev, json_t *t)
{
	json_t *keys = json_object_get(t, "row_keys"), *row, *v;
	const char *ck = json_string_value(json_object_get(t, "column_key"));
	size_t r, k;

	strbuf_addstr(out, "<h3>");
	html_escape(out, abbrev);
	strbuf_addstr(out, ": ");
	html_escape(out, json_string_value(json_object_get(t, "title")));
	strbuf_addstr(out, "</h3>\n<table><thead><tr>");
	json_array_foreach(keys, k, v) {
		strbuf_addstr(out, "<th>");
		html_escape(out, json_string_value(v));
		strbuf_addstr(out, "</th>");
	}
	json_array_foreach(json_object_get(t, "columns"), k, v) {
		strbuf_addstr(out, "<th>");
		if (strcmp(ck, "metric")) {
			html_escape(out, ck);
			strbuf_addch(out, '=');
		}
		html_escape(out, json_string_value(v));
		strbuf_addstr(out, " MB/s</th>");
	}
	strbuf_addstr(out, "</tr></thead><tbody>\n");
	json_array_foreach(json_object_get(t, "rows"), r, row) {
		strbuf_addstr(out, "<tr>");
		json_array_foreach(keys, k, v) {
			strbuf_addstr(out, "<td>");
			html_escape(out, json_string_value(
					 json_object_get(row, json_string_value(v))));
			strbuf_addstr(out, "</td>");
		}
		json_array_foreach(json_object_get(row, "cells"), k, v) {
			json_t *m = json_object_get(v, "mbps");
			td_num(out, json_is_number(m) ? json_number_value(m) : NAN,
			       NULL);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table>\n");
}

static void render_tables(struct strbuf *out, const struct scan *s)
{
	int any = 0;
	for (size_t i = 0; i < s->nr_commits; i++) {
		char *path = xstrfmt("%s/%s/table.json", s->dir,
				     s->commits[i].abbrev);
		json_t *t = store_json_optional(path, STORE_TABLE_MAX,
						JSON_REJECT_DUPLICATES,
						"a table");
		free(path);
		if (json_is_array(json_object_get(t, "row_keys")) &&
		    json_is_string(json_object_get(t, "column_key"))) {
			if (!any++)
				strbuf_addstr(out, "<h2>Tables</h2>\n");
			render_table(out, s->commits[i].abbrev, t);
		}
		json_decref(t);
	}
}

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"margin:0;background:#f6f7f9;color:#1d2330}"
	"header{background:#1d2330;color:#fff;padding:18px 32px}"
	"header h1{margin:0;font-size:20px;font-weight:600}"
	"header p{margin:4px 0 0;color:#b8c0cf}"
	"main{max-width:1100px;margin:0 auto;padding:8px 32px 40px}"
	"h2{font-size:16px;margin:28px 0 10px;border-bottom:1px solid #dde1e7;"
	"padding-bottom:4px}"
	"h3{font-size:14px;margin:0 0 6px;font-weight:600}"
	".cards{display:flex;flex-wrap:wrap;gap:12px;margin-top:16px}"
	".card{background:#fff;border:1px solid #dde1e7;border-radius:6px;"
	"padding:10px 14px;min-width:130px}"
	".card b{display:block;font-size:18px}.card span{color:#6b7383;"
	"font-size:12px}"
	"div.culprit{border-left:4px solid #d43d3d}"
	".fig{background:#fff;border:1px solid #dde1e7;border-radius:6px;"
	"padding:12px 14px;margin:12px 0}"
	".fig .sub{color:#6b7383;font-size:12px;margin-left:8px;font-weight:400}"
	"svg.plot{width:100%;height:auto;display:block}"
	"svg .grid{stroke:#eceef2}svg .axisline{stroke:#9aa3b2}"
	"svg text{font-size:11px;fill:#6b7383}"
	"svg .ylab{text-anchor:end}svg .axis{text-anchor:middle}"
	"svg .xlab{font-family:ui-monospace,monospace;font-size:10px;"
	"text-anchor:end}"
	"svg .culprit-label{fill:#d43d3d;font-weight:700}"
	"svg .whisker{stroke:#5b6b86;stroke-width:1.4}"
	"svg .median{fill:#2f6fd6;stroke:#fff;stroke-width:1.2}"
	"svg .good .median{fill:#2e9e5b}svg .bad .median{fill:#d43d3d}"
	"svg .skip .median{fill:#a0a7b4}"
	"svg .level{stroke:#f0a030;stroke-width:2;stroke-dasharray:6 4;"
	"opacity:.85}"
	"svg .changepoint line{stroke:#8a4fd6;stroke-width:1.5;"
	"stroke-dasharray:4 3}"
	"svg .changepoint text{fill:#8a4fd6;font-weight:700}"
	"svg g.culprit rect{fill:#d43d3d;opacity:.09}"
	"svg g.culprit text{fill:#d43d3d;font-weight:700;text-anchor:middle}"
	"table{border-collapse:collapse;background:#fff;width:100%;"
	"border:1px solid #dde1e7;font-size:13px}"
	"th,td{padding:5px 10px;border-bottom:1px solid #eceef2;text-align:left}"
	"th{background:#f0f2f5;font-weight:600}"
	".num{text-align:right;font-variant-numeric:tabular-nums}"
	".id{font-family:ui-monospace,monospace}"
	".neg{color:#c02f2f}.pos{color:#23834a}.sd{color:#6b7383}"
	"tr.bad td:first-child{border-left:3px solid #d43d3d}"
	"tr.good td:first-child{border-left:3px solid #2e9e5b}"
	".note{color:#6b7383;font-size:12px}"
	".legend span{margin-right:16px;font-size:12px;color:#6b7383}"
	".legend i{display:inline-block;width:10px;height:10px;"
	"border-radius:50%;margin-right:5px;vertical-align:-1px}"
	"footer{color:#9aa3b2;font-size:12px;text-align:center;padding:20px}";

static void card(struct strbuf *out, const char *value, const char *label)
{
	strbuf_addstr(out, "<div class=\"card\"><b>");
	html_escape(out, value);
	strbuf_addstr(out, "</b><span>");
	html_escape(out, label);
	strbuf_addstr(out, "</span></div>");
}

/* The document's head, its title and the page's header. */
static void render_head(struct strbuf *out, const struct scan *s,
			const struct html_options *o,
			const struct bisect_report_answer *a)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
			   "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
			   "content=\"width=device-width\">\n<title>");
	if (o->title)
		html_escape(out, o->title);
	else {
		strbuf_addstr(out, "iobisect: ");
		html_escape(out, s->job);
	}
	strbuf_addf(out, "</title>\n<style>%s%s</style></head><body>\n", css,
		    html_answer_css(a));

	strbuf_addstr(out, "<header><h1>");
	if (o->title)
		html_escape(out, o->title);
	else {
		strbuf_addstr(out, "iobisect report: ");
		html_escape(out, s->job);
	}
	strbuf_addf(out, "</h1><p>%zu commits, %zu series, commit order from "
			 "%s</p></header>\n<main>\n",
		    s->nr_commits, s->nr_series, s->order);
}

/* Summary cards: the bisection, its culprit and confidence, changes. */
static void render_cards(struct strbuf *out, const struct scan *s,
			 long culprit, size_t nr_changes)
{
	strbuf_addstr(out, "<div class=\"cards\">");
	if (s->has_state) {
		card(out, state_status_name(s->state.status), "bisection");
		if (culprit >= 0) {
			const struct scan_commit *c = &s->commits[culprit];
			strbuf_addstr(out, "<div class=\"card culprit\" "
					   "data-commit=\"");
			html_escape(out, c->id);
			strbuf_addstr(out, "\"><b class=\"id\">");
			html_escape_n(out, c->abbrev, 12);
			strbuf_addstr(out, "</b><span>culprit");
			if (c->subject) {
				strbuf_addstr(out, ": ");
				html_escape(out, c->subject);
			}
			strbuf_addstr(out, "</span></div>");
		}
		if (isfinite(s->state.confidence) && culprit >= 0) {
			char b[32];
			snprintf(b, sizeof(b), "%.1f%%",
				 s->state.confidence * 100);
			card(out, b, "confidence");
		}
	}
	{
		char b[32];
		snprintf(b, sizeof(b), "%zu", nr_changes);
		card(out, b, "change points");
	}
	strbuf_addstr(out, "</div>\n");
}

/* A figure's heading: the series, then its change points and drifts. */
static void render_figure_title(struct strbuf *out, const struct scan *s,
				const struct scan_series *ser,
				const struct changepoint_result *cr)
{
	strbuf_addstr(out, "<h3>");
	html_escape(out, ser->topology);
	strbuf_addstr(out, " / ");
	html_escape(out, ser->engine);
	strbuf_addstr(out, " &middot; ");
	html_escape(out, ser->point);
	strbuf_addstr(out, " &middot; ");
	html_escape(out, ser->metric);
	strbuf_addstr(out, " &middot; ");
	struct strbuf unit = STRBUF_INIT;
	scan_series_unit(ser, &unit);
	html_escape(out, unit.buf);
	strbuf_release(&unit);
	strbuf_addstr(out, "<span class=\"sub\">");
	for (size_t j = 0; j < cr->nr; j++) {
		strbuf_addf(out, "%s%s %+.1f%% at ", j ? "; " : "",
			    changepoint_kind_name(cr->points[j].kind),
			    cr->points[j].change_pct);
		html_escape_n(out, s->commits[cr->points[j].index].abbrev, 12);
		strbuf_addf(out, " (p %.2g)", cr->points[j].p_value);
	}
	for (size_t j = 0; j < cr->nr_drifts; j++) {
		strbuf_addf(out, "%sdrift %+.1f%% from ",
			    cr->nr || j ? "; " : "", cr->drifts[j].change_pct);
		html_escape_n(out, s->commits[cr->drifts[j].first].abbrev, 12);
		strbuf_addstr(out, " to ");
		html_escape_n(out, s->commits[cr->drifts[j].last].abbrev, 12);
	}
	if (!cr->nr && !cr->nr_drifts)
		strbuf_addstr(out, "no change point");
	strbuf_addstr(out, "</span></h3>\n");
}

/* MB/s per commit: the legend, then a figure per series. */
static void render_figures(struct strbuf *out, const struct scan *s,
			   const struct changepoint_result *crs, long culprit,
			   const struct bisect_report_answer *a)
{
	strbuf_addstr(out, "<h2>MB/s per commit</h2>\n<p class=\"legend\">"
			   "<span><i style=\"background:#2e9e5b\"></i>good"
			   "</span><span><i style=\"background:#d43d3d\"></i>"
			   "bad</span><span><i style=\"background:#2f6fd6\">"
			   "</i>other</span><span>dot: median of the boots, "
			   "whisker: min-max; dashed orange: level between "
			   "change points; dashed violet: change point</span>");
	if (a->nr_changes)
		strbuf_addstr(out, "<span>triangle: a change the bisection "
				   "found, its size against its parent</span>");
	strbuf_addstr(out, "</p>\n");
	for (size_t i = 0; i < s->nr_series; i++) {
		strbuf_addstr(out, "<div class=\"fig\">");
		render_figure_title(out, s, &s->series[i], &crs[i]);
		html_render_plot(out, s, i, &crs[i], culprit, a);
		strbuf_addstr(out, "</div>\n");
	}
}

/* Every commit of the scan, then the footer that closes the page. */
static void render_commits(struct strbuf *out, const struct scan *s,
			   const struct html_options *o)
{
	strbuf_addstr(out, "<h2>Commits</h2>\n<table class=\"commits\"><thead>"
			   "<tr><th>#</th><th>commit</th><th>role</th>"
			   "<th>subject</th><th>first measured</th></tr>"
			   "</thead><tbody>\n");
	for (size_t i = 0; i < s->nr_commits; i++) {
		const struct scan_commit *c = &s->commits[i];
		strbuf_addf(out, "<tr class=\"%s\"><td class=\"num\">%zu</td>"
				 "<td class=\"id\">",
			    html_role_class(c->role), i + 1);
		html_escape(out, c->id);
		strbuf_addstr(out, "</td><td>");
		html_escape(out, c->role);
		strbuf_addstr(out, "</td><td>");
		html_escape(out, c->subject);
		strbuf_addstr(out, "</td><td>");
		html_escape(out, c->first_seen);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table>\n</main>\n<footer>iobisect ");
	html_escape(out, version_string());
	if (o->generated) {
		strbuf_addstr(out, " &middot; ");
		html_escape(out, o->generated);
	}
	strbuf_addstr(out, " &middot; MB/s = 10<sup>6</sup> bytes/s</footer>"
			   "\n</body></html>\n");
}

int html_render(const struct scan *s, const struct html_options *o,
		struct strbuf *out)
{
	struct changepoint_result *crs;
	long culprit = html_culprit(s);
	struct bisect_report_answer a;
	size_t nr_changes = 0;
	int ret = 0;

	bisect_report_answer_init(&a);
	/* What the stored answer explains: nothing when none is stored. */
	if (culprit >= 0)
		bisect_report_answer_load(&a, s->dir, s->state.culprit);

	crs = xcalloc(s->nr_series + 1, sizeof(*crs));
	for (size_t i = 0; i < s->nr_series && !ret; i++) {
		ret = html_series_changes(s, i, &o->cp, &crs[i]);
		nr_changes += crs[i].nr;
	}
	if (ret)
		goto out;

	render_head(out, s, o, &a);
	render_cards(out, s, culprit, nr_changes);
	html_render_answer(out, &a);
	render_figures(out, s, crs, culprit, &a);
	strbuf_addstr(out, "<h2>Comparison (LKP style)</h2>\n");
	render_lkp(out, s, crs);
	html_render_counters(out, s, crs);
	html_render_profile(out, s, crs);
	if (s->has_state) {
		strbuf_addstr(out, "<h2>Bisection history</h2>\n");
		render_history(out, s);
	}
	render_tables(out, s);
	render_commits(out, s, o);
out:
	for (size_t i = 0; i < s->nr_series; i++)
		changepoint_result_release(&crs[i]);
	free(crs);
	bisect_report_answer_release(&a);
	return ret;
}
