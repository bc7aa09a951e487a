/*
 * sweep_sample.c: measuring a sweep's sample (sweep_run.h): each commit
 * to the boots it starts with, one at a time or, when the operations
 * measure many at once (a Slurm job array), as one round, then more boots
 * only beside a step the change-point test leaves undecided
 * (sweep_top_up_round), where a fixed --boots asked the same of every
 * commit.
 */
#include "sweep_run.h"
#include "progress.h"
#include "repo.h"

#include <stdio.h>
#include <stdlib.h>

void sweep_run_release(struct sweep_run *s)
{
	for (size_t i = 0; i < s->nr_rows; i++) {
		free(s->rows[i].describe);
		free(s->rows[i].subject);
		sample_set_release(&s->rows[i].set);
	}
	free(s->rows);
	s->rows = NULL;
	s->nr_rows = 0;
	sweep_state_release(&s->st);
}

void sweep_run_rows(struct sweep_run *s, const struct strvec *sample,
		    struct repo *repo)
{
	s->rows = xcalloc(sample->nr + 1, sizeof(*s->rows));
	for (size_t i = 0; i < sample->nr; i++) {
		struct sweep_row *row = &s->rows[s->nr_rows++];
		struct commit_info ci = COMMIT_INFO_INIT;

		snprintf(row->id, sizeof(row->id), "%s", sample->v[i]);
		row->outcome = "ok";
		if (!repo_describe(repo, row->id, &ci)) {
			row->describe =
				ci.describe ? xstrdup(ci.describe) : NULL;
			row->subject = ci.subject ? xstrdup(ci.subject) : NULL;
		}
		commit_info_release(&ci);
	}
}

/* Say why a sampled commit has no figure, the same for either way. */
static void note_failure(struct sweep_run *s, const struct sweep_row *row,
			 const struct boot_facts *r)
{
	progress_note(s->progress, "[sweep] %.12s: %s%s%s%s%s", row->id,
		      row->outcome, r->first_error ? ": " : "",
		      r->first_error ? r->first_error : "",
		      r->log ? ", log: " : "", r->log ? r->log : "");
}

/*
 * How a row's commit went (r), and its per-boot values: what failed
 * still leaves its good boots, kept as evidence.
 */
static int take_row(struct sweep_run *s, struct sweep_row *row,
		    const struct boot_facts *r)
{
	row->outcome = r->ok ? "ok" : probe_outcome_name(r->outcome);
	if (!r->ok)
		note_failure(s, row, r);
	sample_set_release(&row->set);
	if (!(!r->ok && r->outcome == PROBE_BUILD_FAILED) &&
	    measure_load(s->m, row->id, &row->set))
		return -1;
	return 0;
}

/* Measure one commit to `want` boots and keep its per-boot values. */
static int measure_row(struct sweep_run *s, struct sweep_row *row, size_t k,
		       size_t n, unsigned want)
{
	struct boot_facts r = { 0 };
	char *label = xstrfmt("sweep %zu/%zu", k + 1, n);
	int ret = -1;

	progress_commit(s->progress, label, (int)k + 1, (int)n, row->id,
			row->subject);
	free(label);
	sample_set_release(&row->set);
	if (measure_commit(s->m, row->id, want, NULL, &r) ||
	    take_row(s, row, &r))
		goto out;
	progress_commit_done(s->progress);
	ret = 0;
out:
	boot_facts_release(&r);
	return ret;
}

/*
 * The rows at `at` (nr of them) at once to `want` boots each
 * (measure_many: one Slurm job array). `first`: the sample's first
 * round, whose rows join the sweep state.
 */
static int measure_rows_at_once(struct sweep_run *s, const size_t *at,
				size_t nr, unsigned want, int first)
{
	const char **ids = xcalloc(nr + 1, sizeof(*ids));
	struct boot_facts *facts = xcalloc(nr + 1, sizeof(*facts));
	int ret;

	for (size_t i = 0; i < nr; i++)
		ids[i] = s->rows[at[i]].id;
	ret = measure_many(s->m, ids, nr, want, facts);
	for (size_t i = 0; !ret && i < nr; i++) {
		struct sweep_row *row = &s->rows[at[i]];
		ret = take_row(s, row, &facts[i]);
		if (!ret && first)
			sweep_state_add(&s->st, row->id, row->subject, "sweep");
	}
	for (size_t i = 0; i < nr; i++)
		boot_facts_release(&facts[i]);
	free(facts);
	free(ids);
	return ret;
}

/* The rows at `at` to `want` boots each, at once or one by one. */
static int measure_rows(struct sweep_run *s, const size_t *at, size_t nr,
			unsigned want)
{
	if (s->m->ops->measure_many)
		return measure_rows_at_once(s, at, nr, want, 0);
	for (size_t i = 0; i < nr; i++)
		if (measure_row(s, &s->rows[at[i]], i, nr, want))
			return -1;
	return 0;
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
 * More boots only where a step is undecided (sweep_top_up_round), round
 * after round, until the job's significance decides every step the
 * looser one sees, or those commits have twice runs.max boots. A sample
 * that shows no step, or shows it plainly, takes no boot more. 0, or -1
 * to stop.
 */
static int top_up(struct sweep_run *s)
{
	struct changepoint_options opt;
	size_t *at = xcalloc(s->nr_rows + 1, sizeof(*at)), nr;
	size_t cap = 2 * (size_t)s->job->runs_max;
	int ret = -1;

	sweep_changepoint_options(&opt, &s->job->threshold);
	for (;;) {
		struct changepoint_commit *series = sweep_sample_series(s);
		unsigned want;
		int r = sweep_top_up_round(at, &nr, &want, series, s->nr_rows,
					   &opt, cap);

		free(series);
		if (r)
			goto out;
		if (!nr)
			break;
		progress_note(s->progress,
			      "[sweep] a step undecided beside %zu commit%s: "
			      "%u boots each",
			      nr, nr == 1 ? "" : "s", want);
		if (measure_rows(s, at, nr, want))
			goto out;
	}
	ret = 0;
out:
	free(at);
	return ret;
}

/* Every row to s->boots at once; what was measured is kept whatever. */
static int first_round_at_once(struct sweep_run *s)
{
	size_t *all = xcalloc(s->nr_rows + 1, sizeof(*all));
	int rc;

	for (size_t i = 0; i < s->nr_rows; i++)
		all[i] = i;
	rc = measure_rows_at_once(s, all, s->nr_rows, s->boots, 1);
	free(all);
	if (sweep_state_save(&s->st, s->dir) || rc)
		return -1;
	return 0;
}

/* Every row to s->boots, one after the other, the state saved after each. */
static int first_round_by_row(struct sweep_run *s)
{
	for (size_t i = 0; i < s->nr_rows; i++) {
		struct sweep_row *row = &s->rows[i];
		if (measure_row(s, row, i, s->nr_rows, s->boots)) {
			sweep_state_save(&s->st, s->dir);
			return -1;
		}
		sweep_state_add(&s->st, row->id, row->subject, "sweep");
		if (sweep_state_save(&s->st, s->dir))
			return -1;
	}
	return 0;
}

int sweep_sample_measure(struct sweep_run *s)
{
	int r = s->m->ops->measure_many ? first_round_at_once(s)
					: first_round_by_row(s);

	return r ? -1 : top_up(s);
}
