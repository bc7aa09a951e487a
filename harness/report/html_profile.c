/*
 * html_profile.c: the report page's profile (profile.h): where the
 * kernel's instructions per MB changed between the two commits the
 * first series' LKP row compares (the culprit and its parent), when a
 * bisection profiled both. Markup:
 *
 *   <table class="profile" data-base=ID data-head=ID>
 *     <tr class="total"> ... <tr data-function=NAME> ...
 */
#include "html.h"
#include "profile.h"
#include "profile_table.h"

#include <math.h>

/* Functions shown, after the total. */
#define HTML_PROFILE_ROWS 20

static void row(struct strbuf *out, const struct profile_diff_row *r,
		int total)
{
	strbuf_addstr(out, total ? "<tr class=\"total\">"
				 : "<tr data-function=\"");
	if (!total) {
		html_escape(out, r->name);
		strbuf_addstr(out, "\">");
	}
	strbuf_addf(out, "<td class=\"num\">%.0f</td>", r->a);
	if (isnan(r->change_pct))
		strbuf_addstr(out, "<td class=\"num\">new</td>");
	else
		strbuf_addf(out, "<td class=\"num\">%+.1f%%</td>",
			    r->change_pct);
	strbuf_addf(out, "<td class=\"num\">%.0f</td><td>", r->b);
	html_escape(out, r->name);
	strbuf_addstr(out, "</td></tr>\n");
}

void html_render_profile(struct strbuf *out, const struct scan *s,
			 const struct changepoint_result *crs)
{
	struct profile a = PROFILE_INIT, b = PROFILE_INIT;
	struct profile_diff d = PROFILE_DIFF_INIT;
	struct strbuf quiet = STRBUF_INIT, *prev;
	long base = -1, head = -1;

	if (s->nr_series)
		html_series_pair(s, 0, &crs[0], &base, &head);
	if (base < 0 || head < 0 || !s->commits[base].profile ||
	    !s->commits[head].profile)
		return;
	/* A profile that does not read is no section, not a broken page. */
	prev = error_capture(&quiet);
	int bad = profile_from_json(&a, s->commits[base].profile, "base") ||
		  profile_from_json(&b, s->commits[head].profile, "head") ||
		  profile_diff(&d, &a, &b);
	error_capture(prev);
	if (bad)
		goto out;
	strbuf_addstr(out, "<h2>Profile</h2>\n<p class=\"legend\">Kernel "
			   "instructions per MB moved, one boot each: ");
	html_escape(out, PROFILE_UNIT_NOTE);
	strbuf_addstr(out, ". Functions by the change in instructions per "
			   "MB; all of them add up to the total's.</p>\n"
			   "<table class=\"profile\" data-base=\"");
	html_escape(out, s->commits[base].id);
	strbuf_addstr(out, "\" data-head=\"");
	html_escape(out, s->commits[head].id);
	strbuf_addstr(out, "\"><thead><tr><th>");
	html_escape_n(out, s->commits[base].abbrev, 12);
	strbuf_addstr(out, "</th><th>%change</th><th>");
	html_escape_n(out, s->commits[head].abbrev, 12);
	strbuf_addstr(out, "</th><th>function</th></tr></thead><tbody>\n");
	row(out, &d.total, 1);
	for (size_t i = 0; i < d.nr && i < HTML_PROFILE_ROWS; i++)
		row(out, &d.rows[i], 0);
	strbuf_addstr(out, "</tbody></table>\n");
out:
	strbuf_release(&quiet);
	profile_diff_release(&d);
	profile_release(&a);
	profile_release(&b);
}
