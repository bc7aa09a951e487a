/*
 * html.h: the report of a results folder as one self-contained HTML page
 * (inline CSS and SVG; nothing fetched from the network, no script) and
 * the same data as JSON for programs. For each topology x point x metric:
 * a plot of MB/s (10^6 bytes/s) per commit, median dot and min-max
 * whisker, the levels between change points, the change points and the
 * culprit marked; then the LKP-style tables and the bisection history.
 *
 * Markup a test or a scraper can rely on:
 *   <svg class="plot" data-topology=T data-engine=E data-point=P
 *        data-metric=M> ... one per series
 *   <g class="changepoint" data-commit=ID data-kind=regression|improvement
 *      data-change-pct=X> ... one per change point in a plot
 *   <g class="culprit" data-commit=ID> ... in every plot that measured the
 *      culprit, and <div class="culprit" data-commit=ID> in the summary
 *   <table class="lkp">, <table class="history">, <table class="profile">
 *   <g class="change slower|faster" data-commit=ID data-change-pct=X> ...
 *      per change the bisection found (summary.json), in every plot that
 *      measured it; <table class="changes">, <p class="revert"> (html_answer.c)
 *
 * Rendering is pure (the scan is data); only the caller writes the file.
 */
#ifndef IOBISECT_HTML_H
#define IOBISECT_HTML_H

#include "bisect_report.h"
#include "changepoint.h"
#include "store_scan.h"
#include "util.h"

#include <jansson.h>

struct html_options {
	struct changepoint_options cp;
	const char *title; /* NULL: "iobisect: <job>" */
	const char *generated; /* timestamp shown in the footer, or NULL */
};
#define HTML_OPTIONS_INIT { CHANGEPOINT_OPTIONS_INIT, NULL, NULL }

/* The culprit's index in scan->commits, or -1 (no state, not done). */
long html_culprit(const struct scan *s);

/* The change points of one series (see changepoint.h). */
int html_series_changes(const struct scan *s, size_t series,
			const struct changepoint_options *cp,
			struct changepoint_result *out);

/* The two commits a series' LKP row compares: around the culprit, else
   around its first change point, else first against last. -1: none. */
void html_series_pair(const struct scan *s, size_t series,
		      const struct changepoint_result *cr, long *base,
		      long *head);

int html_render(const struct scan *s, const struct html_options *o,
		struct strbuf *out);
/*
 * Series `series`' plot, its change points `cr` drawn, and the changes of
 * the stored answer `a` (html_plot.c).
 */
void html_render_plot(struct strbuf *out, const struct scan *s,
		      size_t series, const struct changepoint_result *cr,
		      long culprit, const struct bisect_report_answer *a);
/*
 * The stored answer's changes, share and revert check (html_answer.c):
 * shown when summary.json holds any of them.
 */
int html_answer_shown(const struct bisect_report_answer *a);
/* The CSS rules they need ("" when nothing is shown). */
const char *html_answer_css(const struct bisect_report_answer *a);
/* The table of changes, the share and the revert line; nothing if none. */
void html_render_answer(struct strbuf *out,
			const struct bisect_report_answer *a);
/* The index in s->commits of the change commit `id`, or -1. */
long html_change_index(const struct scan *s, const char *id);
/* "-12.3% slower" or "+4.0% faster". */
void html_change_size(struct strbuf *out,
		      const struct bisect_report_change *c);
/* The class that colours a commit of role `role`: good, bad, skip, other. */
const char *html_role_class(const char *role);
/* Text made safe inside HTML elements and attribute values. */
void html_escape(struct strbuf *out, const char *s);
/* The same for at most `max` bytes of `s` (an abbreviated commit id). */
void html_escape_n(struct strbuf *out, const char *s, size_t max);
/*
 * The block-layer counters that differ most, per series: the pair its
 * LKP row compares and the endpoints (<table class="counters">,
 * html_counters.c).
 */
void html_render_counters(struct strbuf *out, const struct scan *s,
			  const struct changepoint_result *crs);
/*
 * Where the kernel's instructions per MB changed between the pair the
 * first series' LKP row compares, when both were profiled
 * (<table class="profile">, html_profile.c).
 */
void html_render_profile(struct strbuf *out, const struct scan *s,
			 const struct changepoint_result *crs);
/* The page's data as JSON (html_json.c); a new reference. */
json_t *html_report_json(const struct scan *s, const struct html_options *o);

#endif
