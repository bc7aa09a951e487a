/*
 * profile_table.c: a profile's table and two profiles' difference
 * (profile_table.h).
 */
#include "profile_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OUTSIDE "[outside System.map]"

/* 12345678 -> "12.3M": instruction counts span six orders. */
static void add_count(struct strbuf *out, double v, int width)
{
	char buf[32];
	double a = fabs(v);
	if (a >= 1e9)
		snprintf(buf, sizeof(buf), "%.2fG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, sizeof(buf), "%.2fM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, sizeof(buf), "%.1fk", v / 1e3);
	else
		snprintf(buf, sizeof(buf), "%.0f", v);
	strbuf_addf(out, "%*s", width, buf);
}

/*
 * Names and labels come from a System.map or a profile.json, and the
 * table goes to a terminal and report.txt: escaped as error lines are.
 */
static void add_name(struct strbuf *out, const char *s)
{
	strbuf_addsafe(out, s, strlen(s));
}

/* `s` escaped, then padded on the left to `width`, as %*s would. */
static void add_label(struct strbuf *out, const char *s, int width)
{
	struct strbuf safe = STRBUF_INIT;
	add_name(&safe, s);
	strbuf_addf(out, "%*s", width, safe.buf);
	strbuf_release(&safe);
}

void profile_render(const struct profile *p, size_t max_rows,
		    struct strbuf *out)
{
	double mb = (double)p->io_bytes / 1e6;
	strbuf_addstr(out, "profile of ");
	add_name(out, p->label ? p->label : "?");
	strbuf_addf(out,
		    ": %s\n"
		    "%u sample(s), %.1f MB moved, %llu disk request(s); kernel "
		    "%llu instructions, user space %llu\n",
		    PROFILE_UNIT_NOTE, p->samples,
		    mb, (unsigned long long)p->requests,
		    (unsigned long long)p->kernel_insns,
		    (unsigned long long)p->user_insns);
	strbuf_addf(out, "%10s %10s %7s  %s\n", "insns/MB", "insns/req",
		    "share", "function");
	add_count(out, profile_per_mb(p, p->kernel_insns), 10);
	strbuf_addch(out, ' ');
	if (p->requests)
		add_count(out, profile_per_request(p, p->kernel_insns), 10);
	else
		strbuf_addf(out, "%10s", "-");
	strbuf_addf(out, " %6.1f%%  [all kernel]\n", 100.0);
	for (size_t i = 0; i < p->nr && i < max_rows; i++) {
		uint64_t n = p->fns[i].insns;
		add_count(out, profile_per_mb(p, n), 10);
		strbuf_addch(out, ' ');
		if (p->requests)
			add_count(out, profile_per_request(p, n), 10);
		else
			strbuf_addf(out, "%10s", "-");
		strbuf_addf(out, " %6.2f%%  ",
			    p->kernel_insns ? 100.0 * (double)n /
						      (double)p->kernel_insns
					    : 0);
		add_name(out, p->fns[i].name);
		strbuf_addch(out, '\n');
	}
	if (p->unknown_insns)
		strbuf_addf(out, "%10s %10s %6.2f%%  %s\n", "", "",
			    p->kernel_insns ? 100.0 * (double)p->unknown_insns /
						      (double)p->kernel_insns
					    : 0,
			    OUTSIDE);
}

static void render_row(struct strbuf *out, const char *indent,
		       const struct profile_diff_row *r)
{
	strbuf_addstr(out, indent);
	add_count(out, r->a, 12);
	if (isnan(r->change_pct))
		strbuf_addf(out, " %9s ", "new");
	else
		strbuf_addf(out, " %+8.1f%% ", r->change_pct);
	add_count(out, r->b, 12);
	strbuf_addstr(out, "  ");
	add_name(out, r->name);
	strbuf_addch(out, '\n');
}

void profile_diff_render(const struct profile_diff *d, const char *a_label,
			 const char *b_label, size_t max_rows,
			 const char *indent, struct strbuf *out)
{
	strbuf_addf(out, "%skernel instructions per MB moved, %s\n", indent,
		    PROFILE_UNIT_NOTE);
	strbuf_addstr(out, indent);
	add_label(out, a_label, 12);
	strbuf_addf(out, " %9s ", "%change");
	add_label(out, b_label, 12);
	strbuf_addstr(out, "  function (by the change in instructions per "
			   "MB)\n");
	render_row(out, indent, &d->total);
	for (size_t i = 0; i < d->nr && i < max_rows; i++)
		render_row(out, indent, &d->rows[i]);
	if (d->nr > max_rows)
		strbuf_addf(out, "%s%zu more function(s) changed less\n",
			    indent, d->nr - max_rows);
	/* Every function's change, listed or not, makes the total's. */
	strbuf_addf(out, "%sthe functions' changes add up to %+.0f "
			 "instructions per MB, the total's %+.0f\n",
		    indent, d->rows_sum, d->total.b - d->total.a);
}

static json_t *row_json(const struct profile_diff_row *r)
{
	return json_pack("{s:s, s:f, s:f, s:o}", "function", r->name,
			 "base_insns_per_mb", r->a, "head_insns_per_mb", r->b,
			 "change_pct",
			 isnan(r->change_pct) ? json_null()
					      : json_real(r->change_pct));
}

json_t *profile_diff_json(const struct profile_diff *d, size_t max_rows)
{
	json_t *rows = json_array();
	for (size_t i = 0; i < d->nr && i < max_rows; i++)
		json_array_append_new(rows, row_json(&d->rows[i]));
	return json_pack("{s:s, s:o, s:o}", "unit", PROFILE_UNIT_NOTE,
			 "total", row_json(&d->total), "functions", rows);
}
