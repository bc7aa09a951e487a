/*
 * html_plot.c: one series' SVG plot on the report page (html.h): MB/s per
 * commit, a median dot and a min-max whisker per commit, the levels
 * between change points, the change points, the culprit's column and
 * the changes the bisection found (html_answer.c).
 * Plots share one x axis (every commit of the scan, in history order).
 */
#include "html.h"
#include "stats.h"

#include <math.h>

#define MB 1e6

/* Plot geometry, in SVG user units. */
#define PW 760.0
#define PH 270.0
#define PL 64.0  /* left margin: y labels */
#define PR 20.0
#define PT 22.0
#define PB 58.0 /* bottom margin: rotated commit labels */

/* A round step for about `n` ticks over `span`. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/*
 * One series' plot: its commits spread over the x axis, its MB/s on a y
 * axis of round steps that holds every boot.
 */
struct plot {
	const struct scan *s;
	const struct scan_series *ser;
	size_t n;         /* commits: the x axis */
	double ph;        /* the plotting area's height */
	double dx;        /* one commit's column */
	double y0, y1;    /* the y axis' ends, MB/s */
	double step;      /* between two grid lines, MB/s */
};

/* The middle of commit `i`'s column. */
static double plot_x(const struct plot *p, double i)
{
	return PL + p->dx * (i + 0.5);
}

static double plot_y(const struct plot *p, double v)
{
	return PT + p->ph - (v - p->y0) / (p->y1 - p->y0) * p->ph;
}

/* The y axis: round steps over every boot, a margin above and below. */
static void plot_fit(struct plot *p)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t c = 0; c < p->n; c++)
		for (size_t b = 0; b < p->ser->cells[c].nr; b++) {
			double v = p->ser->cells[c].values[b] / MB;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	if (hi - lo < hi * 0.02) { /* a flat series: show +-5% */
		lo -= hi * 0.05;
		hi += hi * 0.05;
	}
	p->step = nice_step(hi - lo, 5);
	p->y0 = floor((lo - (hi - lo) * 0.08) / p->step) * p->step;
	p->y1 = ceil((hi + (hi - lo) * 0.08) / p->step) * p->step;
	if (p->y0 < 0)
		p->y0 = 0;
}

/* The <svg> element, its data attributes and its title. */
static void plot_open(struct strbuf *out, const struct plot *p)
{
	const struct scan_series *ser = p->ser;

	strbuf_addstr(out, "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\"");
	strbuf_addstr(out, " data-topology=\"");
	html_escape(out, ser->topology);
	strbuf_addstr(out, "\" data-engine=\"");
	html_escape(out, ser->engine);
	strbuf_addstr(out, "\" data-point=\"");
	html_escape(out, ser->point);
	strbuf_addstr(out, "\" data-metric=\"");
	html_escape(out, ser->metric);
	strbuf_addf(out, "\" data-clock=\"%s\"", clock_name(ser->clock.kind));
	strbuf_addf(out, " viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n", PW, PH);
	struct strbuf name = STRBUF_INIT;
	scan_series_name(ser, &name);
	strbuf_addch(&name, ' ');
	scan_series_unit(ser, &name);
	strbuf_addstr(out, "<title>");
	html_escape(out, name.buf);
	strbuf_addstr(out, " per commit</title>\n");
	strbuf_release(&name);
}

/* Grid and y axis. */
static void plot_grid(struct strbuf *out, const struct plot *p)
{
	double step = p->step;

	for (double v = p->y0; v <= p->y1 + step / 2; v += step) {
		strbuf_addf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" "
				 "y1=\"%.1f\" y2=\"%.1f\"/>",
			    PL, PW - PR, plot_y(p, v), plot_y(p, v));
		strbuf_addf(out, "<text class=\"ylab\" x=\"%.1f\" y=\"%.1f\">"
				 "%.*f</text>\n",
			    PL - 8, plot_y(p, v) + 4,
			    step >= 1 ? 0 : step >= 0.1 ? 1 : 2, v);
	}
	strbuf_addf(out, "<text class=\"axis\" transform=\"translate(14 %.1f) "
			 "rotate(-90)\">MB/s%s</text>\n",
		    PT + p->ph / 2,
		    p->ser->clock.kind == CLOCK_VIRTUAL ? " in virtual time" : "");
}

/* The culprit's column, under everything else. */
static void plot_culprit(struct strbuf *out, const struct plot *p,
			 long culprit)
{
	if (culprit < 0 || !p->ser->cells[culprit].nr)
		return;
	strbuf_addstr(out, "<g class=\"culprit\" data-commit=\"");
	html_escape(out, p->s->commits[culprit].id);
	strbuf_addstr(out, "\">");
	strbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			 "height=\"%.1f\"/>",
		    plot_x(p, (double)culprit) - p->dx / 2, PT, p->dx, p->ph);
	strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\">culprit</text></g>\n",
		    plot_x(p, (double)culprit), PT - 6);
}

/*
 * The levels between change points, from the detector's medians, and the
 * change points: a dashed line between the two commits.
 */
static void plot_changes(struct strbuf *out, const struct plot *p,
			 const struct changepoint_result *cr)
{
	for (size_t j = 0; j <= cr->nr; j++) {
		size_t from = j ? cr->points[j - 1].index : 0;
		size_t to = j < cr->nr ? cr->points[j].before : p->n - 1;
		double level = j < cr->nr ? cr->points[j].before_median :
			       cr->nr ? cr->points[j - 1].after_median : NAN;
		if (!isfinite(level))
			break;
		strbuf_addf(out, "<line class=\"level\" x1=\"%.1f\" x2=\"%.1f\" "
				 "y1=\"%.1f\" y2=\"%.1f\"/>\n",
			    plot_x(p, (double)from) - p->dx * 0.3,
			    plot_x(p, (double)to) + p->dx * 0.3,
			    plot_y(p, level / MB), plot_y(p, level / MB));
	}
	for (size_t j = 0; j < cr->nr; j++) {
		const struct changepoint *c = &cr->points[j];
		double x = (plot_x(p, (double)c->before) +
			    plot_x(p, (double)c->index)) / 2;
		strbuf_addstr(out, "<g class=\"changepoint\" data-commit=\"");
		html_escape(out, p->s->commits[c->index].id);
		strbuf_addf(out, "\" data-kind=\"%s\" data-change-pct=\"%.2f\">",
			    changepoint_kind_name(c->kind), c->change_pct);
		strbuf_addf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				 "y2=\"%.1f\"/>",
			    x, x, PT, PT + p->ph);
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\">%+.1f%%</text></g>\n",
			    x + 4, PT + 12, c->change_pct);
	}
}

/*
 * Each change the bisection found (summary.json): a triangle at the foot
 * of its column, its size and way beside it, in every plot that measured
 * it. The culprit's column is drawn already; its change is marked too.
 */
static void plot_found(struct strbuf *out, const struct plot *p,
		       const struct bisect_report_answer *a)
{
	double foot = PT + p->ph;

	for (size_t j = 0; j < a->nr_changes; j++) {
		const struct bisect_report_change *c = &a->changes[j];
		long i = html_change_index(p->s, c->commit);
		if (i < 0 || !p->ser->cells[i].nr)
			continue;
		double x = plot_x(p, (double)i);
		strbuf_addf(out, "<g class=\"change %s\" data-commit=\"",
			    c->faster ? "faster" : "slower");
		html_escape(out, p->s->commits[i].id);
		strbuf_addf(out, "\" data-change-pct=\"%.2f\"><title>",
			    c->change_pct);
		html_escape(out, p->s->commits[i].abbrev);
		strbuf_addch(out, ' ');
		html_change_size(out, c);
		strbuf_addstr(out, " against its parent");
		if (isfinite(c->explains_pct))
			strbuf_addf(out, ", %.0f%% of the endpoints' drop",
				    c->explains_pct);
		strbuf_addf(out, "%s</title>", c->answer ? ", the answer" : "");
		strbuf_addf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"/>",
			    x - 5, foot, x + 5, foot, x, foot - 8);
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\">", x, foot - 12);
		html_change_size(out, c);
		strbuf_addstr(out, "</text></g>\n");
	}
}

/* Each commit's boots: a whisker from min to max, a dot at the median. */
static void plot_boots(struct strbuf *out, const struct plot *p)
{
	const struct scan *s = p->s;

	for (size_t c = 0; c < p->n; c++) {
		const struct scan_cell *cell = &p->ser->cells[c];
		if (!cell->nr)
			continue;
		double med = stats_median(cell->values, cell->nr) / MB;
		double mn = stats_min(cell->values, cell->nr) / MB;
		double mx = stats_max(cell->values, cell->nr) / MB;
		double x = plot_x(p, (double)c);
		strbuf_addf(out, "<g class=\"commit %s\" data-commit=\"",
			    html_role_class(s->commits[c].role));
		html_escape(out, s->commits[c].id);
		strbuf_addstr(out, "\"><title>");
		html_escape(out, s->commits[c].abbrev);
		strbuf_addf(out, "  median %.1f MB/s, min %.1f, max "
				 "%.1f, %zu boots</title>",
			    med, mn, mx, cell->nr);
		strbuf_addf(out, "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" "
				 "y1=\"%.1f\" y2=\"%.1f\"/>",
			    x, x, plot_y(p, mn), plot_y(p, mx));
		for (int e = 0; e < 2; e++)
			strbuf_addf(out, "<line class=\"whisker\" x1=\"%.1f\" "
					 "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
				    x - 4, x + 4, plot_y(p, e ? mx : mn),
				    plot_y(p, e ? mx : mn));
		strbuf_addf(out, "<circle class=\"median\" cx=\"%.1f\" cy=\"%.1f\" "
				 "r=\"4.5\"/></g>\n",
			    x, plot_y(p, med));
	}
}

/* Commit labels, rotated so twenty of them fit, and the x axis. */
static void plot_labels(struct strbuf *out, const struct plot *p,
			long culprit)
{
	for (size_t c = 0; c < p->n; c++) {
		strbuf_addf(out, "<text class=\"xlab%s\" transform=\"translate("
				 "%.1f %.1f) rotate(-35)\">",
			    (long)c == culprit ? " culprit-label" : "",
			    plot_x(p, (double)c) + 3, PT + p->ph + 12);
		html_escape_n(out, p->s->commits[c].abbrev, 7);
		strbuf_addstr(out, "</text>\n");
	}
	strbuf_addf(out, "<line class=\"axisline\" x1=\"%.1f\" x2=\"%.1f\" "
			 "y1=\"%.1f\" y2=\"%.1f\"/>\n",
		    PL, PW - PR, PT + p->ph, PT + p->ph);
}

void html_render_plot(struct strbuf *out, const struct scan *s, size_t si,
		      const struct changepoint_result *cr, long culprit,
		      const struct bisect_report_answer *a)
{
	size_t n = s->nr_commits;
	double pw = PW - PL - PR;
	struct plot p = {
		.s = s,
		.ser = &s->series[si],
		.n = n,
		.ph = PH - PT - PB,
		.dx = n > 1 ? pw / (double)n : pw,
		.y0 = 0,
		.y1 = 0,
		.step = 0,
	};

	plot_fit(&p);
	plot_open(out, &p);
	plot_grid(out, &p);
	plot_culprit(out, &p, culprit);
	plot_changes(out, &p, cr);
	plot_boots(out, &p);
	plot_found(out, &p, a);
	plot_labels(out, &p, culprit);
	strbuf_addstr(out, "</svg>\n");
}
