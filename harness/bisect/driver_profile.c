/*
 * driver_profile.c: the culprit and its parent profiled after the
 * answer is confirmed (driver_profile.h).
 */
#include "driver_profile.h"
#include "profile.h"
#include "profile_diff.h"
#include "progress.h"
#include "qemu.h"
#include "run.h"
#include "tbcount.h"

#include <stdlib.h>
#include <string.h>

/* The kept profile of `commit`, else one profiled boot: 0 or -1. */
static int profile_of(struct profile *out, struct probe_ctx *ctx,
		      const char *commit, const char *plugin,
		      struct progress *progress)
{
	const struct job *job = ctx->job;
	char *path = profile_path(job->results, job->name, commit);
	int rc = profile_load(out, path);
	free(path);
	if (rc <= 0)
		return rc;
	progress_note(progress,
		      "[profile] %.12s: one boot with the instruction-count "
		      "plugin",
		      commit);
	return profile_commit(out, ctx, commit, plugin);
}

void driver_profile_answer(struct probe_ctx *ctx, const char *culprit,
			   const char *parent, struct progress *progress,
			   struct bisect_report *rep)
{
	const struct job *job = ctx->job;
	struct profile a = PROFILE_INIT, b = PROFILE_INIT;
	struct profile_diff d = PROFILE_DIFF_INIT;
	struct clock clock;
	char *plugin = NULL, *why = NULL;

	if (!job->machine.profile || job->bisect_type != BISECT_PERF ||
	    !culprit || !parent)
		return;
	/*
	 * The instruction count is what the virtual clock times; on the
	 * wall clock a profile would explain a figure it did not make.
	 */
	if (qemu_job_clock(&clock, job) || clock.kind != CLOCK_VIRTUAL) {
		rep->profile_note = xstrdup(
			"not taken: the boots are timed by the wall clock, and "
			"a profile counts instructions (machine.clock)");
		return;
	}
	if (!tbcount_available(job->machine.qemu, &plugin, &why)) {
		rep->profile_note = xstrfmt("not taken: %s", why);
		progress_note(progress, "[profile] not taken: %s", why);
		goto out;
	}
	if (profile_of(&a, ctx, parent, plugin, progress) ||
	    profile_of(&b, ctx, culprit, plugin, progress) ||
	    profile_diff(&d, &a, &b)) {
		rep->profile_note = xstrfmt(
			"failed: %s", run_interrupted() ? "interrupted"
				      : error_last()	? error_last()
							: "see above");
		goto out;
	}
	/* The report owns it now. */
	rep->profile = d;
	memset(&d, 0, sizeof(d));
out:
	profile_diff_release(&d);
	profile_release(&a);
	profile_release(&b);
	free(plugin);
	free(why);
}
