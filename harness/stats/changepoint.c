/*
 * changepoint.c: binary segmentation with a rank permutation test over
 * segments (the method and its rules are in changepoint.h). Works on a
 * compact copy of the series: the commits that have values, their boots
 * pooled in one array with per-commit offsets.
 */
#include "changepoint.h"
#include "stats.h"
#include "util.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cp_data {
	size_t m;       /* commits with values */
	size_t *index;  /* compact commit -> series index */
	size_t *off;    /* m + 1 offsets into vals */
	double *vals;   /* every boot, commit after commit */
	const struct changepoint_options *opt;
	struct stats_rng rng;
};

/* A split accepted by the test: compact index of the right side's start. */
struct cp_split {
	size_t k;
	double p;
};

const char *changepoint_kind_name(enum changepoint_kind k)
{
	return k == CHANGEPOINT_REGRESSION ? "regression" : "improvement";
}

void changepoint_result_release(struct changepoint_result *r)
{
	free(r->points);
	free(r->drifts);
	memset(r, 0, sizeof(*r));
}

/* Median of the boots of compact commits [a, b). */
static double range_median(const struct cp_data *d, size_t a, size_t b)
{
	return stats_median(d->vals + d->off[a], d->off[b] - d->off[a]);
}

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	return (x->v > y->v) - (x->v < y->v);
}

/* Mid-ranks (1-based, ties averaged) of v[0..n) into r. */
static void mid_ranks(const double *v, size_t n, double *r)
{
	struct ranked *s = xmalloc(n * sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		s[i].v = v[i];
		s[i].i = i;
	}
	qsort(s, n, sizeof(*s), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && s[j + 1].v == s[i].v)
			j++;
		for (size_t q = i; q <= j; q++)
			r[s[q].i] = (double)(i + j) / 2 + 1;
		i = j + 1;
	}
	free(s);
}

/*
 * Where a segment is cut: the boots of commits [i, j) against the rest of
 * [a, b). i == a or j == b is one split; both inside is a level that
 * comes and goes again (a regression and its fix in one sweep), which no
 * single split separates well.
 */
struct cp_cut {
	size_t i, j;
};

/*
 * The best cut of a segment, and apart from it the best single split (a
 * cut that starts or ends with the segment), each with its |z|: when the
 * best cut turns out to be no level, the best split is what is left.
 */
struct cp_best {
	struct cp_cut any, single;
	double z_any, z_single;
};

/*
 * Largest |z| of the rank sum of an interval of commits against the rest
 * of the segment [a, b) whose ranks are r (in boot order), over the
 * intervals whose pieces all last min_segment commits (circular binary
 * segmentation), and over the single splits alone. Long segments look at
 * single splits only: the interval search is quadratic in commits, and
 * it runs once per permutation. prefix: room for b - a + 1 sums.
 */
#define CP_INTERVAL_MAX 512
static void max_z(const struct cp_data *d, size_t a, size_t b,
		  const double *r, double *prefix, struct cp_best *best)
{
	size_t N = d->off[b] - d->off[a], ms = d->opt->min_segment;
	size_t m = b - a;

	best->z_any = best->z_single = -1;
	best->any.i = best->single.i = a;
	best->any.j = best->single.j = b;
	/* prefix[k]: the ranks of commits [a, a + k) summed. */
	prefix[0] = 0;
	for (size_t k = 0; k < m; k++) {
		prefix[k + 1] = prefix[k];
		for (size_t q = d->off[a + k]; q < d->off[a + k + 1]; q++)
			prefix[k + 1] += r[q - d->off[a]];
	}
	for (size_t i = a; i < b; i++) {
		if (i > a && (i - a < ms || m > CP_INTERVAL_MAX))
			continue;
		for (size_t j = i + ms; j <= b; j++) {
			if ((i == a && j == b) || (j < b && b - j < ms))
				continue;
			double nl = (double)(d->off[j] - d->off[i]);
			double nr = (double)N - nl;
			double rl = prefix[j - a] - prefix[i - a];
			double var = nl * nr * (double)(N + 1) / 12;
			double z = fabs(rl - nl * (double)(N + 1) / 2) /
				   sqrt(var);
			struct cp_cut c = { i, j };
			if (z > best->z_any) {
				best->z_any = z;
				best->any = c;
			}
			if ((i == a || j == b) && z > best->z_single) {
				best->z_single = z;
				best->single = c;
			}
		}
	}
}

/*
 * A segment's best cut and best single split, with the permutation
 * p-value of each (one set of permutations serves both); 1 when none fits.
 */
struct cp_test {
	struct cp_cut any, single;
	double p_any, p_single;
};

static void test_segment(struct cp_data *d, size_t a, size_t b,
			 struct cp_test *t)
{
	size_t N = d->off[b] - d->off[a];
	double *r, *prefix;
	struct cp_best obs, perm;
	unsigned ge_any = 0, ge_single = 0;

	t->any.i = t->single.i = a;
	t->any.j = t->single.j = b;
	t->p_any = t->p_single = 1;
	if (b - a < 2 * d->opt->min_segment || N < 3)
		return;
	r = xmalloc(N * sizeof(*r));
	prefix = xmalloc((b - a + 1) * sizeof(*prefix));
	mid_ranks(d->vals + d->off[a], N, r);
	max_z(d, a, b, r, prefix, &obs);
	for (unsigned i = 0; i < d->opt->permutations; i++) {
		for (size_t j = N - 1; j > 0; j--) {
			size_t q = (size_t)(stats_rng_uniform(&d->rng) *
					    (double)(j + 1));
			double tmp = r[j];
			r[j] = r[q];
			r[q] = tmp;
		}
		max_z(d, a, b, r, prefix, &perm);
		/* A tiny tolerance so exact ties count as "as extreme". */
		ge_any += perm.z_any >= obs.z_any - 1e-9;
		ge_single += perm.z_single >= obs.z_single - 1e-9;
	}
	t->any = obs.any;
	t->single = obs.single;
	t->p_any = (1.0 + ge_any) / (1.0 + d->opt->permutations);
	t->p_single = (1.0 + ge_single) / (1.0 + d->opt->permutations);
	free(prefix);
	free(r);
}

/*
 * Do flat levels, cut at cuts[0..nc) (ascending, inside (lo, hi)), fit
 * the commit medians of [lo, hi) better than a straight line does? A
 * drift moves a little at every commit and a line fits it best; a step is
 * a jump between levels. Both are fitted to the logarithm of the medians:
 * speed changes by ratios, and on the linear scale a line through a steep
 * step (355, 225 | 30, 27 MB/s: one noisy commit before a -87% drop, seen
 * in a sweep) fits better than two levels, since it may go below zero
 * where no throughput can.
 */
static int levels_beat_line(const struct cp_data *d, size_t lo, size_t hi,
			    const size_t *cuts, size_t nc)
{
	size_t n = hi - lo;
	double *y = xmalloc(n * sizeof(*y)), *level = xcalloc(n, sizeof(*level));
	double sx = 0, sy = 0, sxx = 0, sxy = 0, slope, icpt;
	double sse_step = 0, sse_line = 0;

	for (size_t i = 0; i < n; i++) {
		y[i] = range_median(d, lo + i, lo + i + 1);
		y[i] = log(y[i] > 0 ? y[i] : DBL_MIN);
		sx += (double)i;
		sy += y[i];
		sxx += (double)i * (double)i;
		sxy += (double)i * y[i];
	}
	/* Each level's mean, piece by piece. */
	for (size_t c = 0, from = 0; c <= nc; c++) {
		size_t to = c < nc ? cuts[c] - lo : n;
		double mean = 0;
		for (size_t i = from; i < to; i++)
			mean += y[i] / (double)(to - from);
		for (size_t i = from; i < to; i++)
			level[i] = mean;
		from = to;
	}
	slope = (sxy - sx * sy / (double)n) / (sxx - sx * sx / (double)n);
	icpt = (sy - slope * sx) / (double)n;
	for (size_t i = 0; i < n; i++) {
		double st = y[i] - level[i];
		double l = y[i] - (icpt + slope * (double)i);
		sse_step += st * st;
		sse_line += l * l;
	}
	free(y);
	free(level);
	return sse_step < sse_line;
}

/*
 * Is the cut of [a, b) a step (or a level that comes and goes) rather
 * than a drift? Over the `window` commits on each side of each cut point,
 * the levels must fit better than a line. A level inside the segment is
 * judged whole: a line never fits fast-slow-fast, where the few commits
 * on one side of one of its ends might.
 */
static int is_sharp(const struct cp_data *d, size_t a, size_t b,
		    const struct cp_cut *cut)
{
	size_t w = d->opt->window, cuts[2], nc = 0, lo, hi;

	if (cut->i > a)
		cuts[nc++] = cut->i;
	if (cut->j < b)
		cuts[nc++] = cut->j;
	lo = cuts[0] - (cuts[0] - a < w ? cuts[0] - a : w);
	hi = cuts[nc - 1] + (b - cuts[nc - 1] < w ? b - cuts[nc - 1] : w);
	/* One commit on a side (or two in all) decides nothing. */
	if (cuts[0] - lo < 2 || hi - cuts[nc - 1] < 2)
		return 1;
	return levels_beat_line(d, lo, hi, cuts, nc);
}

/*
 * A level inside the segment must be a level: every commit of [i, j) has
 * its median nearer the interval's level than the rest's. One wild commit
 * with a normal neighbour makes an interval whose pooled boots differ from
 * the rest, but the neighbour sits at the old level, so it is no level.
 */
static int interval_is_level(const struct cp_data *d, size_t a, size_t b,
			     const struct cp_cut *cut)
{
	size_t n_out = (d->off[cut->i] - d->off[a]) + (d->off[b] - d->off[cut->j]);
	double *out, in_level, out_level;
	size_t got = 0;
	int ok = 1;

	if (cut->i == a || cut->j == b)
		return 1;
	out = xmalloc(n_out * sizeof(*out));
	for (size_t q = d->off[a]; q < d->off[cut->i]; q++)
		out[got++] = d->vals[q];
	for (size_t q = d->off[cut->j]; q < d->off[b]; q++)
		out[got++] = d->vals[q];
	out_level = stats_median(out, got);
	in_level = range_median(d, cut->i, cut->j);
	for (size_t k = cut->i; k < cut->j && ok; k++) {
		double m = range_median(d, k, k + 1);
		ok = fabs(m - in_level) < fabs(m - out_level);
	}
	free(out);
	return ok;
}

static double pct(double before, double after)
{
	return before != 0 ? stats_pct_change(before, after) : NAN;
}

static void add_drift(struct changepoint_result *out, const struct cp_data *d,
		      size_t a, size_t b, double p)
{
	struct changepoint_drift *dr;
	double first = range_median(d, a, a + 1);
	double last = range_median(d, b - 1, b);
	double c = pct(first, last);

	if (!(fabs(c) >= d->opt->min_effect_pct))
		return;
	ALLOC_GROW(out->drifts, out->nr_drifts + 1, out->alloc_drifts);
	dr = &out->drifts[out->nr_drifts++];
	dr->first = d->index[a];
	dr->last = d->index[b - 1];
	dr->first_median = first;
	dr->last_median = last;
	dr->change_pct = c;
	dr->p_value = p;
}

static int cmp_split(const void *a, const void *b)
{
	const struct cp_split *x = a, *y = b;
	return (x->k > y->k) - (x->k < y->k);
}

/*
 * Turn the accepted splits into change points, measuring each against the
 * levels between its neighbours, and drop the weakest one below the
 * minimum effect until every remaining step is large enough (dropping a
 * step merges two levels, which changes its neighbours' effects).
 */
static void settle(struct changepoint_result *out, const struct cp_data *d,
		   struct cp_split *s, size_t ns)
{
	if (ns)
		qsort(s, ns, sizeof(*s), cmp_split);
	for (;;) {
		size_t weakest = ns;
		double weak_effect = INFINITY;
		for (size_t j = 0; j < ns; j++) {
			size_t lo = j ? s[j - 1].k : 0;
			size_t hi = j + 1 < ns ? s[j + 1].k : d->m;
			double e = fabs(pct(range_median(d, lo, s[j].k),
					    range_median(d, s[j].k, hi)));
			if (!(e >= d->opt->min_effect_pct) &&
			    (weakest == ns || !(e >= weak_effect))) {
				weakest = j;
				weak_effect = e;
			}
		}
		if (weakest == ns)
			break;
		memmove(s + weakest, s + weakest + 1,
			(ns - weakest - 1) * sizeof(*s));
		ns--;
	}
	for (size_t j = 0; j < ns; j++) {
		size_t lo = j ? s[j - 1].k : 0;
		size_t hi = j + 1 < ns ? s[j + 1].k : d->m;
		struct changepoint *c;
		ALLOC_GROW(out->points, out->nr + 1, out->alloc);
		c = &out->points[out->nr++];
		c->index = d->index[s[j].k];
		c->before = d->index[s[j].k - 1];
		c->before_median = range_median(d, lo, s[j].k);
		c->after_median = range_median(d, s[j].k, hi);
		c->change_pct = pct(c->before_median, c->after_median);
		c->kind = c->after_median < c->before_median ?
				  CHANGEPOINT_REGRESSION :
				  CHANGEPOINT_IMPROVEMENT;
		c->p_value = s[j].p;
	}
}

int changepoint_detect(struct changepoint_result *out,
		       const struct changepoint_commit *series, size_t n,
		       const struct changepoint_options *opt)
{
	static const struct changepoint_options defaults =
		CHANGEPOINT_OPTIONS_INIT;
	struct cp_data d = { 0 };
	struct cp_split *splits = NULL;
	size_t nr_splits = 0, alloc_splits = 0, total = 0;
	/* Segments still to search, as [a, b) pairs. */
	size_t *stack = NULL, nr_stack = 0, alloc_stack = 0;

	memset(out, 0, sizeof(*out));
	if (!opt)
		opt = &defaults;
	if (opt->min_segment < 1 || !(opt->alpha > 0 && opt->alpha < 1) ||
	    !(opt->min_effect_pct >= 0) || !opt->permutations)
		return error("invalid change-point options (min_segment %zu, "
			     "alpha %g, min effect %g%%, %u permutations)",
			     opt->min_segment, opt->alpha, opt->min_effect_pct,
			     opt->permutations);
	d.opt = opt;
	d.rng.state = opt->seed;
	for (size_t i = 0; i < n; i++)
		total += series[i].n;
	d.index = xcalloc(n + 1, sizeof(*d.index));
	d.off = xcalloc(n + 1, sizeof(*d.off));
	d.vals = xcalloc(total + 1, sizeof(*d.vals));
	for (size_t i = 0; i < n; i++) {
		size_t got = 0;
		for (size_t j = 0; j < series[i].n; j++)
			if (isfinite(series[i].values[j]))
				d.vals[d.off[d.m] + got++] = series[i].values[j];
		if (!got)
			continue;
		d.index[d.m] = i;
		d.off[d.m + 1] = d.off[d.m] + got;
		d.m++;
	}

	ALLOC_GROW(stack, 2, alloc_stack);
	stack[nr_stack++] = 0;
	stack[nr_stack++] = d.m;
	while (nr_stack) {
		size_t b = stack[--nr_stack], a = stack[--nr_stack];
		struct cp_test t;
		size_t ends[4], nr_ends = 0;
		test_segment(&d, a, b, &t);
		struct cp_cut cut = t.any;
		double p = t.p_any;
		if (p > opt->alpha)
			continue;
		/* Not a level: the best single split may still be a step. */
		if (!interval_is_level(&d, a, b, &cut)) {
			cut = t.single;
			p = t.p_single;
			if (p > opt->alpha)
				continue;
		}
		if (!is_sharp(&d, a, b, &cut)) {
			add_drift(out, &d, a, b, p);
			continue;
		}
		ends[nr_ends++] = a;
		if (cut.i > a)
			ends[nr_ends++] = cut.i;
		if (cut.j < b)
			ends[nr_ends++] = cut.j;
		ends[nr_ends++] = b;
		for (size_t e = 1; e + 1 < nr_ends; e++) {
			ALLOC_GROW(splits, nr_splits + 1, alloc_splits);
			splits[nr_splits].k = ends[e];
			splits[nr_splits++].p = p;
		}
		/* Every piece is searched again. */
		ALLOC_GROW(stack, nr_stack + 2 * (nr_ends - 1), alloc_stack);
		for (size_t e = 0; e + 1 < nr_ends; e++) {
			stack[nr_stack++] = ends[e];
			stack[nr_stack++] = ends[e + 1];
		}
	}
	settle(out, &d, splits, nr_splits);

	free(stack);
	free(splits);
	free(d.index);
	free(d.off);
	free(d.vals);
	return 0;
}
