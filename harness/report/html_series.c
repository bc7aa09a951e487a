/*
 * html_series.c: what the report page (html.c, html_counters.c) reads of
 * a series before it draws anything: the culprit's column, the change
 * points, the two commits its rows compare, a commit's role's colour;
 * and text made safe for HTML.
 */
#include "html.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *html_role_class(const char *role)
{
	if (!role)
		return "other";
	if (!strcmp(role, "good"))
		return "good";
	if (!strcmp(role, "bad") || !strcmp(role, "culprit"))
		return "bad";
	if (!strcmp(role, "skip"))
		return "skip";
	return "other";
}

void html_escape(struct strbuf *out, const char *s)
{
	html_escape_n(out, s, SIZE_MAX);
}

void html_escape_n(struct strbuf *out, const char *s, size_t max)
{
	for (; s && *s && max; s++, max--) {
		switch (*s) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&#39;"); break;
		default: strbuf_addch(out, *s);
		}
	}
}

long html_culprit(const struct scan *s)
{
	if (!s->has_state || s->state.status != STATE_DONE)
		return -1;
	for (size_t i = 0; i < s->nr_commits; i++)
		if (!strncmp(s->commits[i].abbrev, s->state.culprit, 12))
			return (long)i;
	return -1;
}

int html_series_changes(const struct scan *s, size_t series,
			const struct changepoint_options *cp,
			struct changepoint_result *out)
{
	const struct scan_series *ser = &s->series[series];
	struct changepoint_commit *c = xcalloc(s->nr_commits + 1, sizeof(*c));
	int ret;

	for (size_t i = 0; i < s->nr_commits; i++) {
		c[i].values = ser->cells[i].values;
		c[i].n = ser->cells[i].nr;
	}
	ret = changepoint_detect(out, c, s->nr_commits, cp);
	free(c);
	return ret;
}

void html_series_pair(const struct scan *s, size_t series,
		      const struct changepoint_result *cr, long *base,
		      long *head)
{
	const struct scan_series *ser = &s->series[series];
	long culprit = html_culprit(s);

	*base = *head = -1;
	if (culprit >= 0 && ser->cells[culprit].nr) {
		*head = culprit;
		for (long i = culprit - 1; i >= 0 && *base < 0; i--)
			if (ser->cells[i].nr)
				*base = i;
		if (*base >= 0)
			return;
	}
	if (cr && cr->nr) {
		*base = (long)cr->points[0].before;
		*head = (long)cr->points[0].index;
		return;
	}
	*base = *head = -1;
	for (size_t i = 0; i < s->nr_commits; i++)
		if (ser->cells[i].nr) {
			if (*base < 0)
				*base = (long)i;
			*head = (long)i;
		}
	if (*base == *head)
		*head = -1;
}
