/*
 * executor.h: where a run's probes run. "local" (the default) is this
 * process, through the measuring layer's operations (probe.h). "slurm"
 * sends each probe to a Slurm cluster as a job (a sweep's sample as one
 * job array), each task running `iobisect measure` on a node; what the
 * tasks measure lands in the shared results store, and each leaves a
 * task document (task_doc.h) saying how it went. A task Slurm lost (node
 * failure, preemption, time limit, scancel) runs again, at most
 * slurm_opts.retries times, then the commit is untestable, never slow.
 */
#ifndef IOBISECT_EXECUTOR_H
#define IOBISECT_EXECUTOR_H

#include "measure.h"
#include "job.h"
#include "slurm.h"
#include "task_doc.h"

struct probe_ctx;
struct progress;

enum executor_kind {
	EXECUTOR_LOCAL,
	EXECUTOR_SLURM,
};

struct executor {
	enum executor_kind kind;
	int kind_given; /* --executor was given: the job's kind is not used */
	struct slurm_opts slurm;
	unsigned probes; /* commits probed at once in a bisection round */
};
void executor_init(struct executor *x);
void executor_release(struct executor *x);

/*
 * Fill what the command line left unset from the job's "executor"
 * section. 0, or -1 after error() (a Slurm executor without sbatch).
 */
int executor_from_job(struct executor *x, const struct job *job);

/*
 * Measure `commits` (n full ids) through Slurm: one job array, task i
 * running `iobisect measure job_path --boots boots` on commits[i], lost
 * tasks sent again. docs[i] (task_doc_init'ed) gets each task's document;
 * a commit whose task never got to its end has ok 0 and outcome
 * PROBE_BOOT_FAILED with first_error saying what Slurm said. Returns 0,
 * or -1 after error() or when interrupted (the jobs are cancelled).
 */
int executor_measure(const struct executor *x, const struct job *job,
		     const char *job_path, const char *const *commits, size_t n,
		     unsigned boots, struct task_doc *docs,
		     struct progress *progress);

/*
 * The measuring layer's operations (measure.h) through Slurm: a build is
 * a task that builds only (--boots 0), a boot a task that boots once
 * more, and measure_many one job array for a multisection round. The
 * values the layer reads are those the tasks' documents carry.
 */
struct executor_probe {
	const struct executor *x;
	const struct job *job;
	struct probe_ctx *ctx; /* for subjects, read from the repository */
	struct progress *progress;
	struct task_doc *docs; /* the newest document of each commit */
	size_t nr, alloc;
};
extern const struct measure_ops executor_ops;
void executor_probe_release(struct executor_probe *p);

#endif
