/*
 * slurm.h: running probes as Slurm jobs, through Slurm's own commands:
 * `sbatch --parsable` submits (one job, or a job array for a sweep),
 * `squeue -h -r -t all` (or `sacct -n -P -X` once the controller has
 * forgotten the job) says how each task stands, `scancel` stops them.
 * iobisect keeps no queue of its own: what a task measured is in the
 * shared results store, and a task's state only says whether it ran to
 * its end or was lost (node failure, preemption, time limit, cancel) and
 * must run again.
 */
#ifndef IOBISECT_SLURM_H
#define IOBISECT_SLURM_H

#include "job_types.h"
#include "util.h"

#include <stddef.h>

/* Where and how jobs go: the job file's "executor" or the command line. */
struct slurm_opts {
	const char *partition;	/* NULL: the cluster's default */
	const char *account;	/* NULL: the user's default */
	const char *time_limit; /* sbatch --time, e.g. "2:00:00"; NULL: none */
	unsigned cpus_per_task; /* a probe's CPUs; 0: Slurm's default */
	struct strvec extra;	/* more sbatch options, passed as given */
	unsigned retries;	/* runs again of a lost task (EXECUTOR_RETRIES) */
	unsigned poll_ms;	/* between two looks at the queue */
};
void slurm_opts_init(struct slurm_opts *o);
void slurm_opts_release(struct slurm_opts *o);

/* What a task's Slurm state means for the probe it runs. */
enum slurm_fate {
	SLURM_ACTIVE, /* pending, running, completing, requeued, suspended */
	SLURM_ENDED,  /* ran its command to the end: COMPLETED or FAILED */
	SLURM_LOST,   /* cancelled, timed out, node failed, preempted... */
	SLURM_UNKNOWN,
};
enum slurm_fate slurm_fate(const char *state);

/* A task of a submitted job: its array index (0 for a plain job). */
struct slurm_task {
	unsigned index;
	char state[24];
	enum slurm_fate fate;
};

/*
 * The job id sbatch --parsable printed ("1234" or "1234;cluster") into
 * id; -1 when `out` holds none. Pure.
 */
int slurm_parse_job_id(const char *out, char id[32]);

/*
 * The lines of `squeue -h -r -o %i|%T` or `sacct -n -P -X -o
 * JobID,State` for job `id`: "1234_5|RUNNING", "1234|COMPLETED",
 * "1234_[6-9]|PENDING" (an array's not yet started tail), "1234_3|
 * CANCELLED by 0". Sets the state of every task of `tasks` (n of them,
 * indexed by array index) that a line names; lines of other jobs are
 * skipped. Pure.
 */
void slurm_parse_states(const char *text, const char *id,
			struct slurm_task *tasks, size_t n);

/*
 * The sbatch command line: options from `o`, the job's name, the output
 * file (Slurm's patterns: %A the array's job, %a the task), the array
 * ("0-4", "2,5"; NULL: a plain job), and the command run by the task,
 * quoted for sbatch --wrap. Pure.
 */
void slurm_sbatch_argv(struct strvec *argv, const struct slurm_opts *o,
		       const char *name, const char *output, const char *array,
		       const char *const *cmd);

/* Submit; the job id in id. -1 after error() naming what sbatch said. */
int slurm_submit(const struct slurm_opts *o, const char *name,
		 const char *output, const char *array, const char *const *cmd,
		 char id[32]);

/* Look at every task of job `id` once (squeue, then sacct). */
int slurm_look(const char *id, struct slurm_task *tasks, size_t n);

/* Job `id` is seen ended: slurm_cancel_pending need not cancel it. */
void slurm_forget(const char *id);

/* scancel the job (every task of an array); quiet when it is gone. */
void slurm_cancel(const char *id);

/*
 * Jobs submitted and not yet seen ended: cancelled by
 * slurm_cancel_pending() when the harness stops early, so killing
 * iobisect leaves no job behind.
 */
void slurm_cancel_pending(void);

#endif
