/*
 * wall_pairs.c: the answer's size on TCG's wall clock (see wall_pairs.h).
 * The pairs only measure: the answer was confirmed on the clock that
 * found it, and nothing here can change it.
 */
#include "wall_pairs.h"

#include "measure.h"
#include "probe.h"
#include "progress.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>

/*
 * Boot `commit` once; *value gets the figure of the boot, NAN when it
 * gave none (failed, or no usable sample). 0, or -1 to stop.
 */
static int boot_one(struct measure *m, const char *commit, double *value)
{
	struct sample_set s = SAMPLE_SET_INIT;
	struct boot_facts f = {0};
	size_t before;
	int r = -1;

	*value = NAN;
	if (measure_load(m, commit, &s))
		goto out;
	before = s.nr;
	sample_set_release(&s);
	if (measure_boot(m, commit, &f) < 0)
		goto out;
	if (measure_load(m, commit, &s))
		goto out;
	if (s.nr > before)
		*value = s.values[s.nr - 1];
	r = 0;
out:
	boot_facts_release(&f);
	sample_set_release(&s);
	return r;
}

/* The median per-boot figure of every wall-clock boot stored. */
static double median_of(struct measure *m, const char *commit)
{
	struct sample_set s = SAMPLE_SET_INIT;
	double v = NAN;

	if (!measure_load(m, commit, &s) && s.nr)
		v = stats_median(s.values, s.nr);
	sample_set_release(&s);
	return v;
}

int wall_pairs_run(struct probe_ctx *ctx, struct job *job,
		   const char *parent, const char *culprit,
		   struct bisect_report_wall *out)
{
	struct job wall = *job;
	struct measure m;
	const char *turn[2] = {parent, culprit};
	double *ratios = xcalloc(job->wall_pairs + 1, sizeof(*ratios));
	size_t nr = 0;
	int ret = -1;

	out->pairs = (unsigned)job->wall_pairs;
	out->boots = 0;
	out->parent = out->culprit = out->pair_ratio = NAN;
	wall.machine.clock = xstrdup("wall");
	if (probe_ctx_retime(ctx, &wall)) {
		free(wall.machine.clock);
		free(ratios);
		return -1;
	}
	measure_init(&m, &wall, &probe_ops, ctx);
	m.progress = ctx->progress;
	if (ctx->progress)
		progress_commit(ctx->progress, "wall clock", 0, 0, culprit,
				NULL);
	/*
	 * Parent, culprit, parent, culprit: whatever speed the host has for
	 * a pair's minute is in both of its boots (the wall clock's second
	 * speed is 25-50% below), so the drop is read within each pair.
	 */
	for (int p = 0; p < job->wall_pairs; p++) {
		double v[2];
		for (int k = 0; k < 2; k++) {
			if (ctx->progress)
				progress_phase(ctx->progress,
					       "wall clock, pair %d/%d, %s", p + 1,
					       job->wall_pairs,
					       k ? "culprit" : "parent");
			if (boot_one(&m, turn[k], &v[k]))
				goto out;
		}
		if (v[0] > 0 && v[1] > 0)
			ratios[nr++] = v[1] / v[0];
	}
	out->parent = median_of(&m, parent);
	out->culprit = median_of(&m, culprit);
	if (nr)
		out->pair_ratio = stats_median(ratios, nr);
	ret = 0;
out:
	out->boots = m.counts.boots;
	measure_release(&m);
	if (ctx->progress)
		progress_commit_done(ctx->progress);
	/* The run's own clock again: its report reads its own series. */
	if (probe_ctx_retime(ctx, job))
		ret = -1;
	free(wall.machine.clock);
	free(ratios);
	return ret;
}
