/*
 * progress.h: what a long bisection says on stderr while it runs. On a
 * terminal, one status line rewritten in place: step k of about log2(n),
 * the commit under test (short id and subject), what it is doing, samples
 * so far, time spent and an estimate of the time left. Otherwise (a log, a
 * pipe) only plain lines at the moments that matter, "[bisect] step 2/4
 * testing abc1234 subject", never a line per sample.
 */
#ifndef IOBISECT_PROGRESS_H
#define IOBISECT_PROGRESS_H

#include "util.h"

#include <stdint.h>
#include <stdio.h>

#define PROGRESS_LANES 4

struct progress {
	FILE *out;
	int tty;           /* rewrite one line in place */
	int line_shown;    /* a status line is on screen */
	uint64_t start_ns; /* the whole run */
	uint64_t step_start_ns;
	int step, steps; /* step k of about `steps` (0: endpoints/confirm) */
	double step_seconds; /* time of the finished steps, for the estimate */
	int steps_done;
	char commit[13];
	char *subject;
	char *phase;      /* "building", "boot 3/8", ... */
	size_t samples;   /* samples measured so far, whole run */
	/* Builds running beside (lanes.h), by slot; "" when idle. */
	char lane[PROGRESS_LANES][13];
	uint64_t lane_start_ns[PROGRESS_LANES];
};

/* `out` is normally stderr; tty decides the style (isatty of out). */
void progress_init(struct progress *p, FILE *out);
void progress_release(struct progress *p);

/*
 * A new commit is tested. `label` is "step" (with step/steps), or a role
 * such as "good", "bad", "merge-base", "confirm". Prints the plain line
 * when not on a terminal.
 */
void progress_commit(struct progress *p, const char *label, int step,
		     int steps, const char *commit, const char *subject);
/* The phase changed ("building", "boot 2/8"); terminal only. */
void progress_phase(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A build lane started `commit` (NULL: it ended). Background lanes (slot
 * 1 and up) show on the status line, and in a log as a line when they
 * start and end.
 */
void progress_lane(struct progress *p, unsigned slot, const char *commit);
/* A background lane's build was stopped: the run needs another commit. */
void progress_lane_stopped(struct progress *p, unsigned slot);
/* Samples were stored; terminal only. */
void progress_add_samples(struct progress *p, size_t n);
/* The commit's probe finished (feeds the time estimate). */
void progress_commit_done(struct progress *p);
/* A line for people, printed above the status line (both styles). */
void progress_note(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Remove the status line (before the report is printed). */
void progress_clear(struct progress *p);

/*
 * The status line for `now_ns`, pure, for tests: "step 2/4 abc1234
 * subject | boot 3/8 | build 9bf921ae9c93 40s | 42 samples | 3m10s,
 * ~6m left".
 */
void progress_format(const struct progress *p, uint64_t now_ns,
		     struct strbuf *out);

#endif
