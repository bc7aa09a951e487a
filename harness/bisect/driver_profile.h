/*
 * driver_profile.h: after a bisection has confirmed its answer, where
 * the culprit's kernel spends its instructions against its parent's:
 * one profiled boot of each (profile.h), taken alone after the pairs,
 * and their difference put in the report (bisect_report.h). On where
 * the boots are timed by the virtual clock and QEMU loads the plugin,
 * unless the job's machine.profile is false; a profile that fails is a
 * line in the report, never a failed bisection.
 */
#ifndef IOBISECT_DRIVER_PROFILE_H
#define IOBISECT_DRIVER_PROFILE_H

#include "bisect_report.h"
#include "probe.h"

struct progress;

/*
 * Profile `culprit` and `parent` (full ids) on ctx's job, or take the
 * profiles kept from an earlier run, and set rep->profile to their
 * difference, or rep->profile_note saying why there is none.
 */
void driver_profile_answer(struct probe_ctx *ctx, const char *culprit,
			   const char *parent, struct progress *progress,
			   struct bisect_report *rep);

#endif
