/*
 * sweep_steps.c: what a sweep makes of its sample (sweep_run.h): the
 * change points, which of them are bisected, and each bisection as a job
 * derived from the sweep's, through the same driver as `iobisect bisect`
 * (driver_job.h).
 */
#include "sweep_run.h"
#include "driver_job.h"
#include "qemu.h"
#include "results.h"
#include "state.h"
#include "progress.h"

#include <stdlib.h>
#include <string.h>

void sweep_analysis_release(struct sweep_analysis *a)
{
	changepoint_result_release(&a->cps);
	free(a->past);
	free(a->bisect);
	a->past = a->bisect = NULL;
	a->regressions = 0;
}

int sweep_analyse(struct sweep_run *s, int bisect_improvements,
		  struct sweep_analysis *out)
{
	struct changepoint_commit *series = sweep_sample_series(s);
	struct changepoint_options opt;
	int ret = -1;

	sweep_changepoint_options(&opt, &s->job->threshold);
	if (changepoint_detect(&out->cps, series, s->nr_rows, &opt))
		goto out;
	out->past = xcalloc(out->cps.nr + 1, sizeof(*out->past));
	out->bisect = xcalloc(out->cps.nr + 1, sizeof(*out->bisect));
	for (size_t i = 0; i < out->cps.nr; i++) {
		const struct changepoint *cp = &out->cps.points[i];
		int slower = cp->kind == CHANGEPOINT_REGRESSION;
		struct sweep_point *p = &s->st.v[cp->index];

		out->past[i] = sweep_past_threshold(&s->job->threshold, cp);
		out->bisect[i] =
			out->past[i] && (slower || bisect_improvements);
		out->regressions += out->bisect[i] && slower;
		free(p->role);
		p->role = xstrdup(slower ? "step" : "improvement");
	}
	ret = 0;
out:
	free(series);
	return ret;
}

/*
 * The derived bisection's results folder starts with the boots the sweep
 * already stored of its two endpoints: the store pools by build key, spec
 * hash and machine, not by job, so they count as its evidence and the
 * endpoints are not booted again.
 */
static int seed_endpoint(struct sweep_run *s, const char *derived,
			 const char *commit)
{
	char *from, *to;
	int ret;

	from = results_commit_dir(s->job->results, s->job->name, commit);
	to = results_commit_dir(s->job->results, derived, commit);
	ret = link_tree(from, to);
	free(from);
	free(to);
	return ret;
}

/*
 * Bisect the derived job `job_file` (its text `text`) named `name`, its
 * endpoints' boots seeded: *status gets the bisection's status. 0, or -1
 * when it could not start.
 */
static int run_derived(struct sweep_run *s, const char *name,
		       const char *job_file, const struct strbuf *text,
		       const char *good, const char *bad, int *status)
{
	struct driver_job_opts o = { 0 };
	struct bisect_report rep;
	struct job job;
	char hash[41];
	int ret = -1;

	if (seed_endpoint(s, name, good) || seed_endpoint(s, name, bad) ||
	    job_load(&job, job_file))
		return -1;
	bisect_report_init(&rep);
	progress_note(s->progress,
		      "[sweep] bisecting %.12s..%.12s as job '%s' (%s)", good,
		      bad, name, job_file);
	hash_hex(text->buf, text->len, hash);
	/* The report names the clock its figures are in. */
	if (!qemu_job_clock(&rep.clock, &job)) {
		o.job_hash = hash;
		o.progress = s->progress;
		o.exec = s->exec;
		*status = driver_job_bisect(&job, &o, &rep);
		ret = 0;
	}
	job_release(&job);
	bisect_report_release(&rep);
	return ret;
}

int sweep_bisect_step(struct sweep_run *s, const struct changepoint *cp,
		      char culprit[41])
{
	const char *good = s->rows[cp->before].id, *bad = s->rows[cp->index].id;
	int faster = cp->kind == CHANGEPOINT_IMPROVEMENT;
	char *name = sweep_bisect_job_name(s->job->name, good, bad);
	char *job_file = xstrfmt("%s/%s.json", s->dir, name);
	char *root = absolute_path(s->job->results);
	char *state_file = state_path(s->job->results, name);
	struct strbuf orig = STRBUF_INIT, text = STRBUF_INIT;
	struct bisect_state st;
	int rc = DRIVER_ABORT, r;

	culprit[0] = '\0';
	state_init(&st);
	if (!root || read_file(s->job_path, &orig) ||
	    sweep_bisect_job_text(&text, orig.buf, s->job_path, name, good, bad,
				  root, faster) ||
	    write_file_atomic(job_file, text.buf, text.len))
		goto out;

	/* A bisection this sweep already finished is read, not rerun. */
	r = state_load(&st, state_file);
	if (r < 0)
		goto out;
	if (r == 0 && st.status == STATE_DONE && st.culprit[0]) {
		rc = 0;
		goto found;
	}
	state_release(&st);
	state_init(&st);

	if (run_derived(s, name, job_file, &text, good, bad, &rc) ||
	    state_load(&st, state_file))
		goto out;
found:
	if (st.status == STATE_DONE && st.culprit[0])
		memcpy(culprit, st.culprit, 41);
out:
	free(name);
	free(job_file);
	free(root);
	free(state_file);
	strbuf_release(&orig);
	strbuf_release(&text);
	state_release(&st);
	return rc;
}

const char *sweep_bisect_outcome(int status)
{
	switch (status) {
	case 0:
		return "culprit found";
	case 1:
		return "inconclusive";
	case 2:
		return "not separated";
	case EXIT_INTERRUPTED:
		return "interrupted";
	default:
		return "aborted";
	}
}
