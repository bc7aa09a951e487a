/*
 * html_counters.c: the report page's block-layer counters (block_counters.h):
 * for each series, what differs most between the two commits its LKP row
 * compares (the culprit and its parent, when there is one) and between
 * the first and last commits measured (the endpoints). Markup:
 *
 *   <table class="counters" data-base=ID data-head=ID data-pair=P
 *          data-topology=T data-point=P data-metric=M>
 *     <tr data-dev=D data-counter=LABEL data-setting=0|1> ...
 */
#include "block_counters.h"
#include "html.h"

#include <math.h>

/* Measured rows shown per table, after which only the settings. */
#define HTML_COUNTER_ROWS 10

static void render_value(struct strbuf *out, const char *text, double v,
			 const char *unit)
{
	strbuf_addstr(out, "<td class=\"num\">");
	if (text)
		html_escape(out, text);
	else
		block_counters_format_value(out, v, unit);
	strbuf_addstr(out, "</td>");
}

static void render_pair(struct strbuf *out, const struct scan *s, size_t series,
			long a, long b, const char *pair)
{
	const struct scan_series *ser = &s->series[series];
	struct block_counters_table t;
	size_t shown = 0;

	block_counters_compare(ser->cells[a].blocks, ser->cells[b].blocks, &t);
	if (!t.nr) {
		block_counters_table_release(&t);
		return;
	}
	strbuf_addstr(out, "<table class=\"counters\" data-base=\"");
	html_escape_n(out, s->commits[a].abbrev, 12);
	strbuf_addstr(out, "\" data-head=\"");
	html_escape_n(out, s->commits[b].abbrev, 12);
	strbuf_addf(out, "\" data-pair=\"%s\" data-topology=\"", pair);
	html_escape(out, ser->topology);
	strbuf_addstr(out, "\" data-point=\"");
	html_escape(out, ser->point);
	strbuf_addstr(out, "\" data-metric=\"");
	html_escape(out, ser->metric);
	strbuf_addf(out, "\" data-clock=\"%s", clock_name(ser->clock.kind));
	strbuf_addf(out, "\"><caption>%s: ", pair);
	html_escape_n(out, s->commits[a].abbrev, 12);
	strbuf_addstr(out, " &rarr; ");
	html_escape_n(out, s->commits[b].abbrev, 12);
	strbuf_addstr(out, " &middot; ");
	html_escape(out, ser->topology);
	strbuf_addstr(out, " ");
	html_escape(out, ser->point);
	strbuf_addstr(out, " ");
	html_escape(out, ser->metric);
	/*
	 * The clock, as the plot names it: the same pair on two clocks
	 * (runs.wall_pairs) is two tables that were titled alike.
	 */
	strbuf_addstr(out, " &middot; ");
	struct strbuf unit = STRBUF_INIT;
	scan_series_unit(ser, &unit);
	html_escape(out, unit.buf);
	strbuf_release(&unit);
	strbuf_addstr(out, "</caption><thead><tr><th class=\"num\">base</th>"
			   "<th class=\"num\">%change</th><th class=\"num\">"
			   "head</th><th>device: counter</th></tr></thead>"
			   "<tbody>\n");
	for (size_t i = 0; i < t.nr; i++) {
		const struct block_counters_row *r = &t.rows[i];
		if (!r->setting && shown++ >= HTML_COUNTER_ROWS)
			continue;
		strbuf_addstr(out, "<tr data-dev=\"");
		html_escape(out, r->dev);
		strbuf_addstr(out, "\" data-counter=\"");
		html_escape(out, r->label);
		strbuf_addf(out, "\" data-setting=\"%d\">", r->setting);
		render_value(out, r->a_text, r->a, r->unit);
		if (isnan(r->change_pct))
			strbuf_addstr(out, "<td class=\"num\"></td>");
		else if (isinf(r->change_pct))
			strbuf_addstr(out, "<td class=\"num pos\">from 0</td>");
		else
			strbuf_addf(out, "<td class=\"num %s\">%+.1f%%</td>",
				    r->change_pct < 0 ? "neg" : "pos",
				    r->change_pct);
		render_value(out, r->b_text, r->b, r->unit);
		strbuf_addstr(out, "<td>");
		html_escape(out, r->dev);
		strbuf_addstr(out, ": ");
		html_escape(out, r->label);
		if (r->setting)
			strbuf_addstr(out, " (setting)");
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addf(out,
		    "</tbody></table>\n<p class=\"note\">medians over "
		    "%zu and %zu samples</p>\n",
		    t.a_samples, t.b_samples);
	block_counters_table_release(&t);
}

void html_render_counters(struct strbuf *out, const struct scan *s,
			  const struct changepoint_result *crs)
{
	int any = 0;

	for (size_t i = 0; i < s->nr_series; i++) {
		const struct scan_series *ser = &s->series[i];
		long a, b, first = -1, last = -1;
		for (size_t c = 0; c < s->nr_commits; c++)
			if (ser->cells[c].nr) {
				if (first < 0)
					first = (long)c;
				last = (long)c;
			}
		html_series_pair(s, i, &crs[i], &a, &b);
		if (!any++)
			strbuf_addstr(out, "<h2>Block-layer counters that "
					   "differ most</h2>\n");
		if (a >= 0 && b >= 0)
			render_pair(out, s, i, a, b,
				    html_culprit(s) == b ? "culprit"
							 : "change");
		if (first >= 0 && last > first && (first != a || last != b))
			render_pair(out, s, i, first, last, "endpoints");
	}
}
