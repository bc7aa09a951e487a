/*
 * html_answer.c: what the stored answer explains (summary.json's
 * "changes", "share" and "revert", bisect_report.h) on the report page:
 * a table of every change the bisection found under the summary cards,
 * the culprit's share, the revert check's line, and a marker per change
 * in each plot (html_plot.c). A summary.json without those keys (an
 * older one, or none) adds nothing: the page is what it was. Markup:
 *
 *   <table class="changes"><tr data-commit=ID class="slower|faster"> ...
 *   <p class="share">, <p class="revert" data-state=STATE>
 *   <g class="change slower|faster" data-commit=ID data-change-pct=X>
 */
#include "html.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* The rules only a page with changes or a revert needs: in its head. */
static const char answer_css[] =
	"svg g.change path{fill:#d43d3d}svg g.change.faster path{fill:#2e9e5b}"
	"svg g.change text{fill:#d43d3d;font-size:10px;font-weight:700;"
	"text-anchor:middle}svg g.change.faster text{fill:#2e9e5b}"
	"tr.answer td:first-child{border-left:3px solid #d43d3d}"
	"p.revert,p.share{margin:10px 0 0}";

int html_answer_shown(const struct bisect_report_answer *a)
{
	return a->nr_changes || a->revert != REPORT_REVERT_NONE ||
	       a->have_share;
}

const char *html_answer_css(const struct bisect_report_answer *a)
{
	return html_answer_shown(a) ? answer_css : "";
}

long html_change_index(const struct scan *s, const char *id)
{
	for (size_t i = 0; id[0] && i < s->nr_commits; i++)
		if (!strncmp(s->commits[i].abbrev, id, 12))
			return (long)i;
	return -1;
}

/* "-12.3% slower" or "+4.0% faster": a change's size and its way. */
void html_change_size(struct strbuf *out, const struct bisect_report_change *c)
{
	if (isfinite(c->change_pct))
		strbuf_addf(out, "%+.1f%% ", c->change_pct);
	strbuf_addstr(out, c->faster ? "faster" : "slower");
}

/* A percentage cell: "-" when the summary has no figure. */
static void td_pct(struct strbuf *out, double pct, int decimals)
{
	if (isfinite(pct))
		strbuf_addf(out, "<td class=\"num\">%.*f%%</td>", decimals, pct);
	else
		strbuf_addstr(out, "<td class=\"num\">-</td>");
}

static void change_row(struct strbuf *out, const struct bisect_report_change *c)
{
	strbuf_addf(out, "<tr class=\"%s%s\" data-commit=\"",
		    c->faster ? "faster" : "slower", c->answer ? " answer" : "");
	html_escape(out, c->commit);
	strbuf_addstr(out, "\"><td class=\"id\">");
	html_escape_n(out, c->commit, 12);
	strbuf_addstr(out, "</td><td class=\"id\">");
	html_escape_n(out, c->parent, 12);
	strbuf_addf(out, "</td><td class=\"num %s\">", c->faster ? "pos" : "neg");
	html_change_size(out, c);
	strbuf_addstr(out, "</td>");
	td_pct(out, c->explains_pct, 0);
	td_pct(out, c->confidence * 100, 1);
	strbuf_addf(out, "<td class=\"num\">%u</td><td>%s</td></tr>\n",
		    c->pairs, c->answer ? "the answer" : "");
}

static void render_share(struct strbuf *out,
			 const struct bisect_report_answer *a)
{
	struct strbuf text = STRBUF_INIT;

	if (!a->have_share)
		return;
	bisect_report_share_text(a, &text);
	text.buf[0] = (char)toupper((unsigned char)text.buf[0]);
	strbuf_addstr(out, "<p class=\"share\">");
	html_escape(out, text.buf);
	strbuf_addstr(out, ".</p>\n");
	strbuf_release(&text);
}

static void render_revert(struct strbuf *out,
			  const struct bisect_report_answer *a)
{
	static const char *const state[] = {
		[REPORT_REVERT_NONE] = "none",
		[REPORT_REVERT_MEASURED] = "measured",
		[REPORT_REVERT_CONFLICTS] = "conflicts",
		[REPORT_REVERT_FAILED] = "failed",
	};

	if (a->revert == REPORT_REVERT_NONE)
		return;
	strbuf_addf(out, "<p class=\"revert\" data-state=\"%s\">Reverting "
			 "<span class=\"id\">",
		    state[a->revert]);
	html_escape_n(out, a->reverted, 12);
	strbuf_addstr(out, "</span> on the bad tip ");
	if (a->revert == REPORT_REVERT_CONFLICTS) {
		strbuf_addstr(out, "does not apply cleanly: conflicts in ");
		for (size_t i = 0; i < a->conflicts.nr; i++) {
			strbuf_addstr(out, i ? ", " : "");
			html_escape(out, a->conflicts.v[i]);
		}
	} else if (a->revert == REPORT_REVERT_FAILED) {
		strbuf_addstr(out, "was not measured: ");
		html_escape(out, a->revert_why);
	} else {
		bisect_report_revert_size(a, out);
		strbuf_addf(out, ", %u pair%s against the bad endpoint (%u "
				 "build%s, %u boot%s, %.0f s)",
			    a->revert_pairs, a->revert_pairs == 1 ? "" : "s",
			    a->revert_builds, a->revert_builds == 1 ? "" : "s",
			    a->revert_boots, a->revert_boots == 1 ? "" : "s",
			    a->revert_seconds);
	}
	strbuf_addstr(out, ".</p>\n");
}

void html_render_answer(struct strbuf *out,
			const struct bisect_report_answer *a)
{
	if (!html_answer_shown(a))
		return;
	strbuf_addstr(out, "<h2>What the answer explains</h2>\n");
	if (a->nr_changes) {
		strbuf_addstr(out, "<table class=\"changes\"><thead><tr><th>"
				   "commit</th><th>parent</th><th class=\"num\">"
				   "size</th><th class=\"num\">share of the "
				   "endpoints' drop</th><th class=\"num\">"
				   "confidence</th><th class=\"num\">pairs</th>"
				   "<th></th></tr></thead><tbody>\n");
		for (size_t i = 0; i < a->nr_changes; i++)
			change_row(out, &a->changes[i]);
		strbuf_addstr(out, "</tbody></table>\n");
	}
	render_share(out, a);
	render_revert(out, a);
}
