/*
 * cmd_sweep_sample.c: measuring a sweep's sample (cmd_sweep.h): each
 * commit to the boots it starts with, one at a time or as one Slurm job
 * array, then more boots only beside a step the change-point test leaves
 * undecided (sweep_undecided), where a fixed --boots asked the same of
 * every commit.
 */
#include "cmd_sweep.h"

#include <stdio.h>
#include <stdlib.h>

/* Say why a sampled commit has no figure, the same for either way. */
static void note_failure(struct sweep_run *s, const struct sweep_row *row,
			 const char *first_error, const char *log)
{
	progress_note(&s->progress, "[sweep] %.12s: %s%s%s%s%s", row->id,
		      row->outcome, first_error ? ": " : "",
		      first_error ? first_error : "", log ? ", log: " : "",
		      log ? log : "");
}

/* Measure one commit to `want` boots and keep its per-boot values. */
static int measure(struct sweep_run *s, struct sweep_row *row, size_t k,
		   size_t n, unsigned want)
{
	struct boot_facts r = { 0 };
	char *label = xstrfmt("sweep %zu/%zu", k + 1, n);
	int ret = -1;

	progress_commit(&s->progress, label, (int)k + 1, (int)n, row->id,
			row->subject);
	free(label);
	sample_set_release(&row->set);
	if (measure_commit(&s->m, row->id, want, NULL, &r))
		goto out;
	row->outcome = r.ok ? "ok" : probe_outcome_name(r.outcome);
	if (!r.ok)
		note_failure(s, row, r.first_error, r.log);
	/* What failed still leaves its good boots: keep those as evidence. */
	if (!(!r.ok && r.outcome == PROBE_BUILD_FAILED) &&
	    measure_load(&s->m, row->id, &row->set))
		goto out;
	progress_commit_done(&s->progress);
	ret = 0;
out:
	boot_facts_release(&r);
	return ret;
}

/*
 * The rows at `at` (nr of them) at once to `want` boots each, as one
 * Slurm job array (executor.h); each row's outcome and per-boot values
 * come from its task's document. `first`: the sample's first round, whose
 * rows join the sweep state.
 */
static int measure_slurm(struct sweep_run *s, const size_t *at, size_t nr,
			 unsigned want, int first)
{
	const char **ids = xcalloc(nr + 1, sizeof(*ids));
	struct task_doc *docs = xcalloc(nr + 1, sizeof(*docs));
	int ret;

	for (size_t i = 0; i < nr; i++) {
		ids[i] = s->rows[at[i]].id;
		task_doc_init(&docs[i]);
	}
	ret = executor_measure(&s->exec, &s->job, s->job_path, ids, nr, want,
			       docs, &s->progress);
	for (size_t i = 0; !ret && i < nr; i++) {
		struct sweep_row *row = &s->rows[at[i]];
		struct task_doc *t = &docs[i];
		row->outcome = t->ok ? "ok" : probe_outcome_name(t->outcome);
		if (!t->ok)
			note_failure(s, row, t->first_error, t->log);
		/* What failed still leaves its good boots (as measure()). */
		sample_set_release(&row->set);
		row->set = t->set;
		t->set = (struct sample_set)SAMPLE_SET_INIT;
		measure_count_remote(&s->m, row->id, t->key, t->cached,
				     row->set.nr);
		if (first)
			sweep_state_add(&s->st, row->id, row->subject, "sweep");
	}
	for (size_t i = 0; i < nr; i++)
		task_doc_release(&docs[i]);
	free(docs);
	free(ids);
	return ret;
}

struct changepoint_commit *sweep_sample_series(const struct sweep_run *s)
{
	struct changepoint_commit *series =
		xcalloc(s->nr_rows + 1, sizeof(*series));

	for (size_t i = 0; i < s->nr_rows; i++) {
		series[i].values = s->rows[i].set.values;
		series[i].n = s->rows[i].set.nr;
	}
	return series;
}

/*
 * More boots only where a step is undecided (sweep_undecided): one more
 * for each commit beside it, round after round, until the job's
 * significance decides every step the looser one sees, or those commits
 * have twice runs.max boots. A sample that shows no step, or shows it
 * plainly, takes no boot more. 0, or -1 to stop.
 */
static int top_up(struct sweep_run *s)
{
	struct changepoint_options opt;
	size_t *at = xcalloc(s->nr_rows + 1, sizeof(*at)), nr;
	size_t cap = 2 * (size_t)s->job.runs_max;
	int ret = -1;

	sweep_changepoint_options(&opt, &s->job.threshold);
	for (;;) {
		struct changepoint_commit *series = sweep_sample_series(s);
		unsigned want = 0;
		int r = sweep_undecided(at, &nr, series, s->nr_rows, &opt, cap);

		free(series);
		if (r)
			goto out;
		if (!nr)
			break;
		for (size_t i = 0; i < nr; i++)
			if (s->rows[at[i]].set.nr + 1 > want)
				want = (unsigned)s->rows[at[i]].set.nr + 1;
		progress_note(&s->progress,
			      "[sweep] a step undecided beside %zu commit%s: "
			      "%u boots each",
			      nr, nr == 1 ? "" : "s", want);
		if (s->exec.kind == EXECUTOR_SLURM) {
			if (measure_slurm(s, at, nr, want, 0))
				goto out;
			continue;
		}
		for (size_t i = 0; i < nr; i++)
			if (measure(s, &s->rows[at[i]], i, nr, want))
				goto out;
	}
	ret = 0;
out:
	free(at);
	return ret;
}

int sweep_sample_measure(struct sweep_run *s)
{
	if (s->exec.kind == EXECUTOR_SLURM) {
		size_t *all = xcalloc(s->nr_rows + 1, sizeof(*all));
		int rc;
		for (size_t i = 0; i < s->nr_rows; i++)
			all[i] = i;
		rc = measure_slurm(s, all, s->nr_rows, s->boots, 1);
		free(all);
		/* What the tasks stored is kept whatever happened. */
		if (sweep_state_save(&s->st, s->dir) || rc)
			return -1;
	}
	for (size_t i = 0; s->exec.kind == EXECUTOR_LOCAL && i < s->nr_rows;
	     i++) {
		struct sweep_row *row = &s->rows[i];
		if (measure(s, row, i, s->nr_rows, s->boots)) {
			sweep_state_save(&s->st, s->dir);
			return -1;
		}
		sweep_state_add(&s->st, row->id, row->subject, "sweep");
		if (sweep_state_save(&s->st, s->dir))
			return -1;
	}
	return top_up(s);
}
