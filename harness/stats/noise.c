/*
 * noise.c: the run's noise model (see noise.h). Pure.
 */
#include "noise.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

void noise_log(double *y, const double *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		y[i] = values[i] > 0 ? log(values[i]) : NAN;
}

double noise_t_logpdf(double z, double nu)
{
	return -(nu + 1) / 2 * log1p(z * z / nu);
}

static double group_mean(const struct noise_group *g)
{
	double s = 0;

	for (size_t i = 0; i < g->n; i++)
		s += g->y[i];
	return s / (double)g->n;
}

static int usable(const struct noise_group *g)
{
	return g->n >= 2 && isfinite(group_mean(g));
}

/*
 * A robust first guess of the scale: the median absolute residual about
 * each group's median (the median boot itself left out of odd groups, its
 * residual is zero by construction), each scaled by 1 / sqrt(1 - 1/n) to
 * stand for one boot, times 1.4826 (the normal law's MAD to sigma). Half
 * the boots can be wild before it moves. 0 without data.
 */
static double mad_scale(const struct noise_group *groups, size_t nr)
{
	double *r, s;
	size_t n = 0, total = 0;

	for (size_t k = 0; k < nr; k++)
		total += usable(&groups[k]) ? groups[k].n : 0;
	if (!total)
		return 0;
	r = xmalloc(total * sizeof(*r));
	for (size_t k = 0; k < nr; k++) {
		const struct noise_group *g = &groups[k];
		double med, f;
		int skipped = !(g->n & 1);

		if (!usable(g))
			continue;
		med = stats_median(g->y, g->n);
		f = 1 / sqrt(1 - 1.0 / (double)g->n);
		for (size_t i = 0; i < g->n; i++) {
			if (!skipped && g->y[i] == med) {
				skipped = 1;
				continue;
			}
			r[n++] = fabs(g->y[i] - med) * f;
		}
	}
	s = n ? 1.4826 * stats_median(r, n) : 0;
	free(r);
	return s;
}

const struct noise_machine *noise_machine_of(int virtual_clock)
{
	static const struct noise_machine wall = {NOISE_PRIOR_SIGMA,
						  NOISE_FLOOR,
						  NOISE_MODE_OFFSET, 0},
					  virt = {NOISE_VIRTUAL_PRIOR_SIGMA,
						  NOISE_VIRTUAL_FLOOR,
						  NOISE_VIRTUAL_MODE_OFFSET,
						  NOISE_VIRTUAL_STEADY};
	return virtual_clock ? &virt : &wall;
}

/*
 * The 10% quantile of chi-square with k degrees of freedom: tabled to
 * 10, Wilson and Hilferty's cube above (within 1% there).
 */
static double chi2_q10(size_t k)
{
	static const double q[] = {0,	  0.0158, 0.211, 0.584, 1.064, 1.610,
				   2.204, 2.833,  3.490, 4.168, 4.865};
	double a = 2.0 / (9.0 * (double)k), c;

	if (k < sizeof(q) / sizeof(q[0]))
		return q[k];
	c = 1 - a - 1.2816 * sqrt(a);
	return (double)k * c * c * c;
}

int noise_steady(const double *y, size_t n, const struct noise_machine *m)
{
	double mean, ss = 0;

	if (!m)
		m = noise_machine_of(0);
	if (!(m->steady > 0) || n < NOISE_STEADY_BOOTS)
		return 0;
	mean = stats_mean(y, n);
	for (size_t i = 0; i < n; i++)
		ss += (y[i] - mean) * (y[i] - mean);
	/* The spread's upper 90% bound, from n - 1 degrees of freedom. */
	return isfinite(ss) && sqrt(ss / chi2_q10(n - 1)) <= m->steady;
}

void noise_prior(struct noise_model *out, const struct noise_machine *m)
{
	if (!m)
		m = noise_machine_of(0);
	out->sigma = m->prior_sigma;
	out->df = NOISE_PRIOR_DF;
	out->nu = NOISE_PRIOR_DF;
	out->boots = out->groups = 0;
	out->mode_rate = NOISE_MODE_RATE;
	out->mode_offset = m->mode_offset;
	out->wild = NOISE_WILD_FLOOR;
	out->mode_seen = 0;
}

/* The prior's weight for the slower mode's depth, in boots. */
#define MODE_OFFSET_PRIOR_BOOTS 5.0
/* Deeper than this many times the prior's depth: no mode, a wild boot. */
#define MODE_DEPTH_MAX 2.5

enum boot_kind { BOOT_KEPT, BOOT_MODE, BOOT_WILD };

/*
 * Where one boot of a group sits: with its commit, in the slower mode, or
 * nowhere. The reference is the group's median from three boots on, and
 * the faster of two boots below that: of two boots a mode apart, the
 * faster one is the commit's level and the other the machine's mode.
 */
static enum boot_kind boot_kind(double r, size_t n, double clip,
				double mode_floor)
{
	if (r < -clip)
		return r < mode_floor ? BOOT_WILD : BOOT_MODE;
	if (r > clip && n >= 3)
		return BOOT_WILD;
	return BOOT_KEPT;
}

static double group_ref(const struct noise_group *g)
{
	double top = g->y[0];

	if (g->n >= 3)
		return stats_median(g->y, g->n);
	for (size_t i = 1; i < g->n; i++)
		top = fmax(top, g->y[i]);
	return top;
}

void noise_estimate(struct noise_model *out, const struct noise_machine *mach,
		    const struct noise_group *groups, size_t nr_groups)
{
	double ss = 0, df = 0, clip, s, mode_sum = 0, prior;
	double mode_floor;
	size_t n_mode = 0, n_wild = 0;

	if (!mach)
		mach = noise_machine_of(0);
	mode_floor = MODE_DEPTH_MAX * mach->mode_offset;
	prior = NOISE_PRIOR_DF * mach->prior_sigma * mach->prior_sigma;
	noise_prior(out, mach);
	/*
	 * Boots further than NOISE_CLIP robust scales below their commit's
	 * level are the machine's slower mode (or, deeper still, wild), and
	 * those as far above it wild: each is counted as what it is, and left
	 * out of the spread, which is the spread within a mode. The robust
	 * scale is not moved by them while they are fewer than half.
	 */
	clip = mad_scale(groups, nr_groups);
	if (clip < mach->floor)
		clip = mach->floor;
	clip *= NOISE_CLIP;
	for (size_t k = 0; k < nr_groups; k++) {
		const struct noise_group *g = &groups[k];
		double ref, m = 0, c;
		size_t kept = 0;

		if (!usable(g))
			continue;
		ref = group_ref(g);
		c = clip * sqrt(1 - 1.0 / (double)g->n);
		for (size_t i = 0; i < g->n; i++) {
			double r = g->y[i] - ref;
			switch (boot_kind(r, g->n, c, mode_floor)) {
			case BOOT_MODE:
				n_mode++;
				mode_sum += r;
				break;
			case BOOT_WILD:
				n_wild++;
				break;
			default:
				m += g->y[i];
				kept++;
			}
		}
		out->boots += g->n;
		out->groups++;
		if (!kept) /* an even group split far apart: no spread */
			continue;
		m /= (double)kept;
		for (size_t i = 0; i < g->n; i++) {
			double r = g->y[i] - ref;
			if (boot_kind(r, g->n, c, mode_floor) == BOOT_KEPT)
				ss += (g->y[i] - m) * (g->y[i] - m);
		}
		df += (double)(kept - 1);
	}
	s = sqrt((prior + ss) / (NOISE_PRIOR_DF + df));
	out->sigma = s > mach->floor ? s : mach->floor;
	out->df = NOISE_PRIOR_DF + df;
	out->nu = out->df < NOISE_MAX_NU ? out->df : NOISE_MAX_NU;
	out->mode_rate = ((double)n_mode + NOISE_MODE_RATE *
					       NOISE_MODE_PRIOR_BOOTS) /
			 ((double)out->boots + NOISE_MODE_PRIOR_BOOTS);
	out->mode_seen = out->boots ? (double)n_mode / (double)out->boots : 0;
	out->mode_offset =
		(mode_sum + mach->mode_offset * MODE_OFFSET_PRIOR_BOOTS) /
		((double)n_mode + MODE_OFFSET_PRIOR_BOOTS);
	out->wild = ((double)n_wild +
		     NOISE_WILD_FLOOR * NOISE_MODE_PRIOR_BOOTS) /
		    ((double)out->boots + NOISE_MODE_PRIOR_BOOTS);
	if (out->wild < NOISE_WILD_FLOOR)
		out->wild = NOISE_WILD_FLOOR;
}

int noise_steady_boots(const double *bps, size_t n,
		       const struct noise_machine *m)
{
	double *y = xmalloc((n ? n : 1) * sizeof(*y));
	int still;

	noise_log(y, bps, n);
	still = noise_steady(y, n, m);
	free(y);
	return still;
}

void noise_estimate_boots(struct noise_model *out,
			  const struct noise_machine *m,
			  const struct noise_group *bps, size_t nr_groups)
{
	struct noise_group *g = xcalloc(nr_groups + 1, sizeof(*g));
	double **y = xcalloc(nr_groups + 1, sizeof(*y));

	for (size_t i = 0; i < nr_groups; i++) {
		y[i] = xmalloc((bps[i].n ? bps[i].n : 1) * sizeof(double));
		noise_log(y[i], bps[i].y, bps[i].n);
		g[i] = (struct noise_group){y[i], bps[i].n};
	}
	noise_estimate(out, m, g, nr_groups);
	for (size_t i = 0; i < nr_groups; i++)
		free(y[i]);
	free(y);
	free(g);
}
