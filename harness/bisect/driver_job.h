/*
 * driver_job.h: a job's bisection for real. Opens the job's repository
 * (libgit2), lists the range, resumes the state in
 * results/<job>/bisect-state.json under the folder's lock, runs the driver
 * (driver.h) over the real operations (probe.h), and turns what it found
 * into the report (bisect_report.h). `iobisect bisect` and `iobisect sweep` call
 * driver_job_bisect; `iobisect test` calls driver_job_test.
 */
#ifndef IOBISECT_DRIVER_JOB_H
#define IOBISECT_DRIVER_JOB_H

#include "driver.h"
#include "job.h"
#include "bisect_report.h"
#include "clock.h"

struct executor;

struct progress;

struct driver_job_opts {
	/*
	 * What identifies the job's text (hash_hex of the file, or of a
	 * sweep's derived description): a state left by another version of
	 * the job is refused, not resumed.
	 */
	const char *job_hash;
	struct progress *progress; /* required */
	/* Where probes run; NULL: here (executor.h). */
	const struct executor *exec;
};

/*
 * Bisect `job` (its repo, good and bad), resuming what the state holds,
 * and write report.txt and summary.json into results/<job>/. *rep (set up
 * by bisect_report_init) gets the report for the caller to print. Returns the
 * status (the exit code of `iobisect bisect`); on DRIVER_INTERRUPTED no
 * report is written, the state is.
 */
enum driver_status driver_job_bisect(struct job *job,
				     const struct driver_job_opts *o,
				     struct bisect_report *rep);

/*
 * `git bisect run`'s question for `commit`, built from `build_repo`, with
 * `good` (and `bad`, needed by "auto") as full ids. res->message is the
 * line to print; *mark the answer when DRIVER_CULPRIT is returned.
 */
enum driver_status
driver_job_test(struct job *job, const char *build_repo, const char *good,
		const char *bad, const char *commit, struct progress *progress,
		struct driver_result *res, enum bisect_mark *mark);

/*
 * What an inconclusive run on the virtual clock says when its disks wait
 * on the host's time: which disk takes the host out. NULL otherwise (an
 * answer, the wall clock, disks whose waits are the guest's); the caller
 * frees it.
 */
char *driver_job_host_waits_note(const struct job *job, int inconclusive,
				 enum clock_kind clock);

#endif
