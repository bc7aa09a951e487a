/*
 * marks.h: the words a bisection's engine, its state and its reports
 * share: the mark a commit is given (good, bad, skip, as git says them)
 * and what a probe of it came to. Enums in memory; names only at the
 * edges (the state file, the log, the reports). Pure.
 */
#ifndef IOBISECT_MARKS_H
#define IOBISECT_MARKS_H

enum bisect_mark {
	BISECT_UNTESTED, /* no mark (yet) */
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,
};

/* What a probe of one commit came to. */
enum probe_outcome {
	PROBE_BUILD_FAILED,
	PROBE_BOOT_FAILED, /* no kernel start, no guest, bad console */
	PROBE_PANIC,
	PROBE_TIMEOUT,
	PROBE_WORKLOAD_ERROR, /* booted, but the workload could not run */
	PROBE_FAST,           /* verdict good */
	PROBE_SLOW,           /* verdict bad */
	PROBE_UNDECIDED,      /* verdict undecided at runs_max */
};

/* "good", "bad", "skip"; "untested" for BISECT_UNTESTED. */
const char *bisect_mark_name(enum bisect_mark mark);
/* "good", "bad" or "skip" to *out; -1 for any other word. */
int bisect_mark_parse(const char *name, enum bisect_mark *out);

/* 1 when the commit was measured: fast, slow or undecided. */
int probe_outcome_measured(enum probe_outcome o);
/*
 * How a probe ended, as the state and reports name it: "build-failure",
 * "boot-failure", "panic", "timeout", "workload-error", or "ok" for a
 * commit that was measured (fast, slow or undecided: its verdict says).
 */
const char *probe_outcome_name(enum probe_outcome o);
/*
 * A failure's name to *out and 0; "ok" gives 1 (measured: the caller
 * tells fast, slow and undecided apart by the verdict); -1 for any other
 * word.
 */
int probe_outcome_parse(const char *name, enum probe_outcome *out);

#endif
