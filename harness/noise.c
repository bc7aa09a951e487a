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

void noise_estimate(struct noise_model *out, const struct noise_group *groups,
		    size_t nr_groups)
{
	double prior = NOISE_PRIOR_DF * NOISE_PRIOR_SIGMA * NOISE_PRIOR_SIGMA;
	double ss = 0, df = 0, clip, s;

	/*
	 * Residuals further than NOISE_CLIP robust scales from their
	 * commit's mean count as if they were at NOISE_CLIP (winsorizing):
	 * under a normal law this changes almost nothing (0.3% of boots are
	 * that far), under a heavy tail it keeps one boot hit by a busy
	 * neighbour from setting the scale alone.
	 */
	clip = mad_scale(groups, nr_groups);
	if (clip < NOISE_FLOOR)
		clip = NOISE_FLOOR;
	clip *= NOISE_CLIP;
	out->boots = out->groups = 0;
	for (size_t k = 0; k < nr_groups; k++) {
		const struct noise_group *g = &groups[k];
		double m, c;

		if (!usable(g))
			continue;
		m = group_mean(g);
		c = clip * sqrt(1 - 1.0 / (double)g->n);
		for (size_t i = 0; i < g->n; i++) {
			double r = g->y[i] - m;
			if (fabs(r) > c)
				r = r < 0 ? -c : c;
			ss += r * r;
		}
		df += (double)(g->n - 1);
		out->boots += g->n;
		out->groups++;
	}
	s = sqrt((prior + ss) / (NOISE_PRIOR_DF + df));
	out->sigma = s > NOISE_FLOOR ? s : NOISE_FLOOR;
	out->df = NOISE_PRIOR_DF + df;
	out->nu = out->df < NOISE_MAX_NU ? out->df : NOISE_MAX_NU;
}
