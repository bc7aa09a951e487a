/*
 * bisect_report.h: the report at the end of a bisection, as plain data filled by
 * cmd_bisect.c, rendered for people (results/<job>/report.txt, also
 * printed) and for programs (results/<job>/summary.json). Rendering is
 * pure; bisect_report_write is the only function that touches files.
 */
#ifndef IOBISECT_BISECT_REPORT_H
#define IOBISECT_BISECT_REPORT_H

#include "clock.h"
#include "block_counters.h"
#include "profile_diff.h"
#include "run_counts.h"
#include "state.h"
#include "util.h"

#include <jansson.h>

/* One row of the LKP-style table: one metric, good side against bad. */
struct bisect_report_row {
	char *metric;  /* "read MB/s seqread bs_kb=4" */
	char *unit;    /* "MB/s", "%CPU": figures are in this unit */
	double good_median, good_stddev_pct;
	double bad_median, bad_stddev_pct;
	int significant; /* the verdict separated them: mark with '*' */
};

/* A commit as the report names it (strings owned). */
struct bisect_report_commit {
	char id[41];
	char *describe, *subject, *author, *date;
};

/*
 * What the answer explains, filled by the driver and rendered by
 * bisect_report_answer.c: the culprit's drop against the endpoints', the
 * revert check, and the commits the steps named whose image was their
 * parent's. Beside the answer: none of it changes it.
 */
enum bisect_report_revert {
	REPORT_REVERT_NONE,	 /* not taken (off, not a perf answer) */
	REPORT_REVERT_MEASURED,	 /* its pairs were booted */
	REPORT_REVERT_CONFLICTS, /* it does not apply: conflicts */
	REPORT_REVERT_FAILED,	 /* it could not be measured: revert_why */
};

/*
 * A change in the range (driver_changes.c): the answer's, and the others
 * found in the parts of the range whose ends differ beyond the noise.
 */
struct bisect_report_change {
	char commit[41], parent[41];
	double change_pct;   /* against its parent, medians of all boots */
	double explains_pct; /* of the endpoints' drop, in log ratio */
	double confidence;   /* its pairs'; NAN: not known */
	unsigned pairs;	     /* against its parent */
	int answer;	     /* the bisection's answer */
	int faster;	     /* a rise: an improvement within the range */
};

struct bisect_report_answer {
	/* The culprit against its parent and the endpoints, medians. */
	int have_share;
	double endpoints_pct;	/* bad against good */
	double culprit_pct;	/* the culprit against its (first) parent */
	double explains_pct;	/* of the endpoints' drop, in log ratio */
	double rest_pct;	/* what it leaves: 100 - explains_pct */
	int rest_beyond_noise; /* the rest is more than the noise allows */
	/* The bad endpoint with the culprit reverted, in pairs against it. */
	enum bisect_report_revert revert;
	char reverted[41];	 /* the culprit */
	char revert_commit[41];	 /* no ref names it */
	struct strvec conflicts; /* REPORT_REVERT_CONFLICTS: the files */
	char *revert_why;	 /* REPORT_REVERT_FAILED: why */
	unsigned revert_pairs;	 /* pairs its figures rest on */
	unsigned revert_boots;	 /* boots this run gave it, both sides */
	unsigned revert_builds;	 /* builds (0: its image was cached) */
	double revert_seconds;	 /* what it took this run */
	double revert_bad, revert_median; /* medians in the pairs, bytes/s */
	double revert_pct;	/* the revert against bad, within a pair */
	double brought_pct;	/* the endpoints' drop it brings back */
	double brought_mbps;	/* the same in MB/s, at the bad level */
	/* Named by the steps, image identical to the parent's: no answer. */
	struct strvec same_image;
	/* Every change found, oldest first (runs.changes); 0: not sought. */
	struct bisect_report_change *changes;
	size_t nr_changes;
};
/* A change at the end of a->changes, zeroed, figures NAN. */
struct bisect_report_change *
bisect_report_answer_add_change(struct bisect_report_answer *a);
void bisect_report_answer_init(struct bisect_report_answer *a);
void bisect_report_answer_release(struct bisect_report_answer *a);
/* A copy of `from` into *to (released first). */
void bisect_report_answer_copy(struct bisect_report_answer *to,
			       const struct bisect_report_answer *from);
/* Its lines in report.txt (nothing when there is nothing to say). */
void bisect_report_render_answer(const struct bisect_report_answer *a,
				 int done, struct strbuf *out);
/* Its keys in summary.json: "share", "revert", "same_image", "changes". */
void bisect_report_answer_json(const struct bisect_report_answer *a,
			       int done, json_t *o);
/*
 * Those keys read back from summary.json's object `o` into *a (initialized
 * by the caller); a key that is missing or not of its kind is left out.
 */
void bisect_report_answer_from_json(struct bisect_report_answer *a,
				    json_t *o);
/*
 * The same keys read from <dir>/summary.json into *a (initialized by the
 * caller) for the pages that show a stored bisection (html.c, compare):
 * 0 when it holds a finished answer naming `culprit` (NULL: any); 1 when
 * there is none, it is stale, or it cannot be read (after a warning),
 * and *a is left as it was.
 */
int bisect_report_answer_load(struct bisect_report_answer *a, const char *dir,
			      const char *culprit);
/*
 * What a measured revert check did to the drop: "brings back N% of the
 * drop (+M MB/s)", "none" under half a percent, or the revert's own
 * change when the endpoints give no drop to share.
 */
void bisect_report_revert_size(const struct bisect_report_answer *a,
			       struct strbuf *out);
/*
 * The culprit's share of the endpoints' drop, and whether the rest is
 * beyond the noise, as one sentence in lower case without its stop
 * (report.txt, compare and the HTML page say it alike).
 */
void bisect_report_share_text(const struct bisect_report_answer *a,
			      struct strbuf *out);
/*
 * Every change found (even the answer's alone) and the revert check, a
 * line each, as report.txt words them; nothing when neither is known.
 */
void bisect_report_render_found(const struct bisect_report_answer *a,
				struct strbuf *out);

struct bisect_report {
	char *job;
	enum state_status status;
	struct bisect_report_commit culprit; /* STATE_DONE */
	char parent[41];              /* the culprit's (first) parent */
	double confidence;            /* NAN: not known */
	int identical_image;   /* the culprit's bzImage equals its parent's */
	struct bisect_report_answer answer;
	struct bisect_report_commit *suspects; /* STATE_INCONCLUSIVE */
	size_t nr_suspects;
	char *message; /* one line: why it stopped (not separated, aborted) */
	char *note;    /* one line: how the job was read, or NULL */
	/*
	 * What timed the boots (the caller's clock_resolve; zero: the wall
	 * clock): rows in MB/s are shown in its unit.
	 */
	struct clock clock;
	struct bisect_report_row *rows;
	size_t nr_rows, alloc_rows;
	/*
	 * The culprit and its parent on TCG's wall clock, when the virtual
	 * clock found the answer (runs.wall_pairs; wall_pairs.h). pairs 0:
	 * not measured.
	 */
	struct bisect_report_wall {
		unsigned pairs; /* asked */
		unsigned boots; /* booted, failures included */
		double parent, culprit; /* median per boot, bytes/s; NAN: none */
		double pair_ratio; /* median culprit/parent within a pair */
	} wall;
	/* What the block layer did differently: parent -> culprit, and
	   good -> bad endpoints (empty without counters). */
	struct block_counters_table counters_culprit, counters_endpoints;
	/*
	 * Where the kernel's instructions per MB changed, parent -> culprit
	 * (profile_diff.h; no rows and no total: none), or why there is
	 * none (NULL: not asked, machine.profile false).
	 */
	struct profile_diff profile;
	char *profile_note;
	unsigned steps;         /* bisection probes (endpoints excluded) */
	struct run_counts counts;
	double seconds;
	struct strvec logs; /* "what: path" */
	char *state_file;   /* for --log */
	/* report.txt as it was stored (bisect_report_load): printed as it is. */
	char *text;
};

void bisect_report_init(struct bisect_report *r);
void bisect_report_release(struct bisect_report *r);
void bisect_report_commit_release(struct bisect_report_commit *c);

/* Append a row; the strings are copied. */
struct bisect_report_row *bisect_report_add_row(struct bisect_report *r, const char *metric,
				  const char *unit);

/* The text report. */
void bisect_report_render_text(const struct bisect_report *r, struct strbuf *out);
/* The JSON summary (units in key names: *_mbps, *_pct, *_seconds). */
json_t *bisect_report_to_json(const struct bisect_report *r);

/* Write <dir>/report.txt and <dir>/summary.json atomically. */
int bisect_report_write(const struct bisect_report *r, const char *dir);
/*
 * A finished bisection's report read back from <dir> (bisect_report_load.c):
 * summary.json's answer and figures into `r`, report.txt's text into
 * r->text. 0; 1 when the folder holds no stored answer that names
 * `culprit` (none yet: quietly; a spoiled or stale one: after a
 * warning), and `r` is left as it was.
 */
int bisect_report_load(struct bisect_report *r, const char *dir, const char *culprit);

#endif
