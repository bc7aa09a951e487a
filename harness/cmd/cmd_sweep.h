/*
 * cmd_sweep.h: what `iobisect sweep` holds while it runs, shared by
 * cmd_sweep.c (the command, the analysis, the bisections) and
 * cmd_sweep_sample.c (measuring the sample). Private to the two.
 */
#ifndef IOBISECT_CMD_SWEEP_H
#define IOBISECT_CMD_SWEEP_H

#include "changepoint.h"
#include "executor.h"
#include "job.h"
#include "measure.h"
#include "probe.h"
#include "progress.h"
#include "repo.h"
#include "state.h"
#include "sweep.h"

/* One commit of the sample and what the sweep got from it. */
struct sweep_row {
	char id[41];
	char *describe, *subject;
	const char *outcome; /* "ok", "build-failure", ... */
	struct sample_set set;
};

struct sweep_run {
	struct job job;
	int job_loaded;
	const char *job_path;
	struct repo *repo;
	struct progress progress;
	struct probe_ctx ctx;
	int ctx_ready;
	struct measure m; /* measures the sample */
	struct state_lock lock;
	char *dir; /* results/<job> */
	struct sweep_state st;
	struct sweep_row *rows;
	size_t nr_rows;
	unsigned boots; /* per commit of the sample to start with (--boots) */
	struct executor exec;
	const char *upload_url, *notify_url; /* publish.h */
};

/*
 * Measure the sample: every row to s->boots boots (one Slurm job array,
 * or commit by commit), the sweep state saved as it goes, then more
 * boots beside each step still undecided. 0, or -1 (interrupted, or
 * aborted after error()).
 */
int sweep_sample_measure(struct sweep_run *s);

/* The sample as the change-point detector reads it (caller frees). */
struct changepoint_commit *sweep_sample_series(const struct sweep_run *s);

#endif
