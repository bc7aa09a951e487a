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
	struct measure_pairs p = {.parent = parent};
	struct boot_facts fail = {0};
	double *ratios;
	int r;

	out->pairs = (unsigned)job->wall_pairs;
	out->boots = 0;
	out->parent = out->culprit = out->pair_ratio = NAN;
	wall.machine.clock = xstrdup("wall");
	if (probe_ctx_retime(ctx, &wall)) {
		free(wall.machine.clock);
		return -1;
	}
	measure_init(&m, &wall, &probe_ops, ctx);
	m.progress = ctx->progress;
	if (ctx->progress)
		progress_commit(ctx->progress, "wall clock", 0, 0, culprit,
				NULL);
	/*
	 * In the answer's own alternation (measure.h): whatever speed the
	 * host has for a pair's minute is in both of its boots (the wall
	 * clock's second speed is 25-50% below), so the drop is read within
	 * each pair. Boots that keep failing leave the figures the others
	 * gave.
	 */
	/*
	 * Boots on the wall clock of these two are this measurement's
	 * alone: a run stopped within it keeps its pairs, and the run that
	 * resumes boots only the pairs still missing.
	 */
	r = measure_pairs_stored(&m, culprit, &p, 0, (size_t)job->wall_pairs);
	if (!r)
		r = measure_pairs_take(&m, culprit, &p,
				       (size_t)job->wall_pairs, &fail);
	if (r >= 0) {
		out->parent = median_of(&m, parent);
		out->culprit = median_of(&m, culprit);
		ratios = xcalloc(p.n + 1, sizeof(*ratios));
		for (size_t k = 0; k < p.n; k++)
			ratios[k] = p.cv[k] / p.pv[k];
		if (p.n)
			out->pair_ratio = stats_median(ratios, p.n);
		free(ratios);
	}
	out->boots = m.counts.boots;
	boot_facts_release(&fail);
	measure_pairs_release(&p);
	measure_release(&m);
	if (ctx->progress)
		progress_commit_done(ctx->progress);
	/* The run's own clock again: its report reads its own series. */
	if (probe_ctx_retime(ctx, job))
		r = -1;
	free(wall.machine.clock);
	return r < 0 ? -1 : 0;
}
