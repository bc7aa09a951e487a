/*
 * state.h: a bisection's state as data, its JSON form in
 * results/<job>/bisect-state.json (rewritten atomically after every probe,
 * the previous copy kept as bisect-state.json.prev), and the `git bisect
 * log`-style history. The conversions to and from JSON and the log are
 * pure; only state_load and state_save touch the file system. The lock
 * that keeps two runs out of one results folder is state_lock.h's.
 */
#ifndef IOBISECT_STATE_H
#define IOBISECT_STATE_H

#include "marks.h"
#include "run_counts.h"
#include "state_lock.h"
#include "util.h"

#include <jansson.h>
#include <stddef.h>

/* The figures a verdict rests on, copied from stats so state stays plain. */
struct state_verdict {
	char *verdict;          /* "good", "bad", "undecided"; NULL: none */
	double good_median;     /* bytes/s, the baseline's median per boot */
	double good_stddev_pct; /* relative stddev of the baseline, percent */
	double median;          /* bytes/s, this commit's median per boot */
	double stddev_pct;
	double effect_pct; /* (median - good_median) / good_median * 100 */
	double p_value;    /* old states' Mann-Whitney p; NAN in new ones */
	double llr;        /* ln of the ratio slow : fast (verdict.h) */
	/* Probability that this verdict is wrong (struct verdict.error). */
	double error;
	unsigned good_boots, boots;
};

/* Why a commit was probed; the state file says "good", "bad", ... */
enum probe_role {
	ROLE_GOOD,       /* the good endpoint */
	ROLE_BAD,        /* the bad endpoint */
	ROLE_MERGE_BASE, /* of endpoints on two branches */
	ROLE_STEP,       /* a commit the engine chose */
	ROLE_CONFIRM,    /* the answer's pairs (driver_confirm.c) */
};

const char *probe_role_name(enum probe_role role);

struct state_verdict;
/*
 * The outcome the state keeps for a commit that was measured: fast or
 * slow by its verdict, else undecided. The file says "ok" for all three
 * (probe_outcome_name), and this reads it back the same.
 */
enum probe_outcome state_measured_outcome(const struct state_verdict *v);

/* One commit measured (or failed to be measured). */
struct state_probe {
	char commit[41];
	char *subject;
	enum probe_role role;
	char *build_key; /* NULL when the build failed */
	int cached;      /* the image came from the build cache */
	/* A measured one is state_measured_outcome's (saved as "ok"). */
	enum probe_outcome outcome;
	enum bisect_mark mark; /* as the engine was told; UNTESTED: none */
	struct state_verdict v;
	unsigned boots;     /* boots this probe ran (not re-used ones) */
	unsigned samples;   /* sample documents behind the verdict */
	char *log;          /* build or console log of a failure */
	char *first_error;  /* first error or panic line */
	char *started, *ended;
	double seconds;
};

/* A mark handed to the bisect engine, in order; replayed on resume. */
struct state_mark {
	char commit[41];
	enum bisect_mark mark; /* good, bad or skip */
	/*
	 * Given by the answer's pairs (a re-mark, driver_confirm.c), not a
	 * step: the file says "by": "pairs".
	 */
	int by_pairs;
};

/*
 * One of the answer's pairs: each boot by its place among its commit's
 * boots (0 the first stored, in the order the store loads them).
 */
struct state_pair {
	unsigned parent, culprit;
};

/* The answer's pairs with one parent of the culprit. */
struct state_confirm_parent {
	char parent[41];
	unsigned parent_from; /* the parent's boots before its pairs */
	struct state_pair *pairs;
	size_t nr_pairs, alloc_pairs;
};

/*
 * The answer's pairs being taken (driver_confirm.c), kept after each
 * pair, so a run stopped within them, or after them before its answer is
 * saved, resumes on them and boots only the pairs missing. The file says
 * "confirm"; a state without it (older ones, none under way) takes the
 * pairs anew.
 */
struct state_confirm {
	char culprit[41];      /* "": none under way */
	unsigned culprit_from; /* the culprit's boots before its pairs */
	struct state_confirm_parent *parents;
	size_t nr_parents, alloc_parents;
};

/*
 * The revert check (driver_revert.c): the bad endpoint with the answer
 * reverted, booted in pairs against it beside the answer, which it never
 * changes. The file says "revert"; a state without it has none begun.
 */
struct state_revert {
	char culprit[41];	 /* the answer reverted; "": none begun */
	char commit[41];	 /* the revert; "": it does not apply */
	struct strvec conflicts; /* then the files it conflicts in */
	/*
	 * Its pairs, kept after each as the confirmation keeps its: the
	 * record's "culprit" is the bad endpoint, its one "parent" the
	 * revert. A run stopped within them resumes on them.
	 */
	struct state_confirm pairs;
};

/*
 * A change found in the range beside the answer (driver_changes.c): a
 * part of it whose ends differ beyond the noise, bisected on its own and
 * its culprit confirmed on pairs against its parent. The answer's own
 * change is the first.
 */
struct state_change {
	char commit[41], parent[41];
	double confidence; /* its pairs' */
	unsigned pairs;	   /* against its parent */
	int faster;	   /* a rise: an improvement within the range */
};

enum state_status {
	STATE_RUNNING,
	STATE_DONE,          /* culprit found */
	STATE_INCONCLUSIVE,  /* skips block it */
	STATE_NOT_SEPARATED, /* endpoints do not differ by the threshold */
	STATE_ABORTED,       /* an endpoint could not be measured */
};

struct bisect_state {
	char *job_hash; /* hash_hex of the job file's bytes */
	char *job_name;
	char *good_rev, *bad_rev; /* as the job says them */
	char good[41], bad[41];
	char merge_base[41]; /* "" when good is an ancestor of bad */
	/*
	 * The step that stands in for bad, its level the slow one, while bad
	 * is not built (driver_endpoints.c); "" when bad stands for itself.
	 * The file says "stand_in" (older states have none).
	 */
	char stand_in[41];
	struct strvec candidates; /* the range, full ids, bad first */
	struct state_probe *probes;
	size_t nr_probes, alloc_probes;
	struct state_mark *marks;
	size_t nr_marks, alloc_marks;
	/*
	 * -1, or the number of marks there were when the steps were put in
	 * doubt (pairs contradicted them, or only skips were left): a step's
	 * good or bad mark before it no longer counts (driver.c).
	 */
	long doubt_from;
	enum state_status status;
	char culprit[41];       /* STATE_DONE */
	struct strvec suspects; /* STATE_INCONCLUSIVE: the possible culprits */
	double confidence;      /* STATE_DONE: the pairs' (driver_confirm.c) */
	struct state_confirm confirm;
	struct state_revert revert;
	/*
	 * Commits the steps named whose image is their parent's byte for
	 * byte: no answer, their drop was noise, and the range was judged
	 * again (driver.c). The file says "same_image".
	 */
	struct strvec same_image;
	/*
	 * Commits whose boots held still between the run's two levels (a
	 * level of their own: verdict.h's between). Marked as their verdict
	 * says, but part of neither level (driver_levels.c). The file says
	 * "between".
	 */
	struct strvec between;
	/*
	 * The changes found (driver_changes.c), and whether the search ran
	 * to its end: a finished run asked again takes none of their pairs
	 * twice. The file says "changes" and "changes_sought".
	 */
	struct state_change *changes;
	size_t nr_changes, alloc_changes;
	int changes_sought;
	/*
	 * Not saved: the answer a finished run gave, kept when the run is
	 * asked again, so its pairs are not taken twice.
	 */
	char answered[41];
	double answered_confidence;
	/* Totals over every run of this bisection (resumes add up). */
	struct run_counts counts;
	double seconds;
	char *started, *updated;
	/* What its MB/s are: measure_unit's words; NULL in older states. */
	char *unit;
};

void state_init(struct bisect_state *s);
void state_release(struct bisect_state *s);
/* A change at the end of s->changes, zeroed but its ids. */
struct state_change *state_add_change(struct bisect_state *s,
				      const char *commit, const char *parent);

/* Append a probe (returned for filling; strings in it become owned). */
struct state_probe *state_add_probe(struct bisect_state *s,
				    const char *commit, enum probe_role role);
void state_add_mark(struct bisect_state *s, const char *commit,
		    enum bisect_mark mark);

/* No confirmation under way: the record emptied. */
void state_confirm_clear(struct state_confirm *c);
/* A parent's record appended (its pairs none yet), returned for filling. */
struct state_confirm_parent *
state_confirm_add_parent(struct state_confirm *c, const char *parent,
			 unsigned parent_from);
void state_confirm_add_pair(struct state_confirm_parent *p, unsigned parent,
			    unsigned culprit);

/* No revert check begun: the record emptied. */
void state_revert_clear(struct state_revert *r);

/* The last probe of `commit`, or NULL. */
const struct state_probe *state_find_probe(const struct bisect_state *s,
					   const char *commit);
/* The last mark of `commit`; BISECT_UNTESTED when it was never marked. */
enum bisect_mark state_find_mark(const struct bisect_state *s,
				 const char *commit);

const char *state_status_name(enum state_status st);

/*
 * Pure conversions. state_from_json initialises `s` (left empty on error)
 * and returns -1 after an error() naming `origin` and the key.
 */
json_t *state_to_json(const struct bisect_state *s);
int state_from_json(struct bisect_state *s, const json_t *root,
		    const char *origin);

/* <root>/<job>/bisect-state.json (caller frees). */
char *state_path(const char *root, const char *job);

/*
 * Read the state file. Returns 1 when there is none (a fresh start), 0
 * when loaded, -1 after an error that names the file when it is not a valid
 * state (the file is left where it is, and so is its .prev copy).
 */
int state_load(struct bisect_state *s, const char *path);
/*
 * Write the state: the current file is first copied to <path>.prev, then
 * the new text replaces it atomically. Sets s->updated.
 */
int state_save(struct bisect_state *s, const char *path);

/*
 * The history as `git bisect log` prints it, so `git bisect replay` can
 * read it: "git bisect start", then per mark "# <mark>: [id] subject" and
 * "git bisect <mark> id", with the verdict figures as comment lines, and
 * the end ("# first bad commit: [id] subject").
 */
void state_log(const struct bisect_state *s, struct strbuf *out);

#endif
