/*
 * sweep_run.h: a sweep's policy, over the measuring layer's operations as
 * a bisection's is (driver.h): which commits of the sample are booted and
 * how often (each to the boots it starts with, then more only beside a
 * step still undecided), what the sample's change points are and which of
 * them are bisected, and each such bisection, as a job derived from the
 * sweep's (sweep.h). Here (probe_ops) a commit is measured after the
 * other; on Slurm (executor_ops, whose measure_many sends one job array)
 * a round of the sample at once. `iobisect sweep` (cmd_sweep.c) sets it
 * up and prints what it found.
 */
#ifndef IOBISECT_SWEEP_RUN_H
#define IOBISECT_SWEEP_RUN_H

#include "changepoint.h"
#include "job.h"
#include "measure.h"
#include "sweep.h"

struct executor;
struct progress;
struct repo;

/* One commit of the sample and what the sweep got from it. */
struct sweep_row {
	char id[41];
	char *describe, *subject;
	const char *outcome; /* "ok", "build-failure", ... */
	struct sample_set set;
};

struct sweep_run {
	/* Set by the caller. */
	const struct job *job;
	const char *job_path; /* the derived jobs are made from its text */
	struct progress *progress;
	/* Measures the sample: its ops' measure_many, a round at once. */
	struct measure *m;
	const struct executor *exec; /* the bisections'; NULL: here */
	const char *dir;	     /* results/<job>: the sweep state */
	unsigned boots; /* per commit of the sample to start with (--boots) */
	/* The sample, and the state that gives the store its order. */
	struct sweep_state st;
	struct sweep_row *rows;
	size_t nr_rows;
};
void sweep_run_release(struct sweep_run *s);

/* A row per commit of `sample`, named as git describe names it. */
void sweep_run_rows(struct sweep_run *s, const struct strvec *sample,
		    struct repo *repo);

/*
 * Measure the sample: every row to s->boots boots (one round at once
 * when the operations can, else commit by commit), the sweep state saved
 * as it goes, then more boots beside each step still undecided
 * (sweep_top_up_round). 0, or -1 (interrupted, or aborted after
 * error()).
 */
int sweep_sample_measure(struct sweep_run *s);

/* The sample as the change-point detector reads it (caller frees). */
struct changepoint_commit *sweep_sample_series(const struct sweep_run *s);

/* The sample's change points and what the sweep does with each. */
struct sweep_analysis {
	struct changepoint_result cps;
	/* per change point: past the job's threshold; to be bisected */
	int *past, *bisect;
	unsigned regressions; /* steps down to be bisected */
};
#define SWEEP_ANALYSIS_INIT { CHANGEPOINT_RESULT_INIT, NULL, NULL, 0 }
void sweep_analysis_release(struct sweep_analysis *a);

/*
 * The sample's change points (the job's threshold, sweep_past_threshold),
 * which are bisected: the regressions past it, and the improvements too
 * when `bisect_improvements`. Each point's commit takes its role in the
 * sweep state (for the caller to save once it has said them). 0, or -1
 * after error().
 */
int sweep_analyse(struct sweep_run *s, int bisect_improvements,
		  struct sweep_analysis *out);

/*
 * Bisect the step `cp` between the tested commits around it (a rise, for
 * the commit that made it faster, when it is an improvement), as the job
 * the sweep derives for it: its file is written beside the sweep's state
 * so `iobisect bisect FILE` resumes it by hand; a bisection this sweep
 * finished already is read, not run again. *culprit gets the culprit's
 * id ("" when none). Returns the bisection's status (driver.h).
 */
int sweep_bisect_step(struct sweep_run *s, const struct changepoint *cp,
		      char culprit[41]);
/* That status for people: "culprit found", "inconclusive", ... */
const char *sweep_bisect_outcome(int status);

#endif
