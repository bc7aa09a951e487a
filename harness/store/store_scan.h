/*
 * store_scan.h: reading a results folder back into series for reports:
 * per topology, engine, point and metric, one cell per commit holding the
 * per-boot values (the median of each boot's samples, bytes/s). Commits
 * are put in history order from the bisect state (good, then the range
 * oldest first), else from a sweep state (results/<job>/sweep-state.json:
 * {"commits": ["<id>" or {"commit": "<id>", "subject": ...}, ...]} oldest
 * first), else by the time their first document was written.
 *
 * The never-pool rule of results_load.c holds here too: within a cell
 * only the documents sharing one build key, spec hash and machine are
 * pooled (the identity with the most boots wins; the others are counted as
 * ignored), and only complete, verified samples count. Samples of another
 * clock (clock.h) are another series.
 */
#ifndef IOBISECT_STORE_SCAN_H
#define IOBISECT_STORE_SCAN_H

#include "clock.h"
#include "state.h"
#include "util.h"

#include <jansson.h>
#include <stddef.h>

struct scan_commit {
	char *id;        /* full id as the documents give it */
	char abbrev[13]; /* the folder name */
	char *subject;   /* from the bisect/sweep state, or NULL */
	char *first_seen; /* earliest "started" of its documents */
	char *role;      /* "good", "bad", "culprit", "step"... or NULL */
	/* Its profile.json (profile.h), as stored, or NULL: none. */
	json_t *profile;
};

/* One commit's evidence in one series. */
struct scan_cell {
	double *values; /* per boot, bytes/s, ascending boot id */
	unsigned *boots;
	size_t nr;
	size_t nr_ignored; /* documents left out (other identity, bad) */
	/* The block-layer counters of the same samples (block_counters.h). */
	json_t *blocks;
};

struct scan_series {
	char *topology, *engine, *point, *metric;
	/* What timed its samples: one series per clock (and shift). */
	struct clock clock;
	struct scan_cell *cells; /* one per scan commit, same order */
};

struct scan {
	char *dir; /* the job folder */
	char *job;
	const char *order; /* "bisect-state", "sweep-state", "timestamps" */
	struct scan_commit *commits;
	size_t nr_commits;
	struct scan_series *series; /* sorted by topology, point, metric */
	size_t nr_series, alloc_series;
	int has_state;
	struct bisect_state state; /* valid when has_state */
};

/*
 * Load every sample document under `dir`, which is either a job folder
 * (results/<job>) or a results root holding jobs: then `job` names the
 * one to read, and may be NULL when there is only one. Returns 0, or -1
 * after error() (no such folder, no job, several jobs and none chosen,
 * an invalid bisect state).
 */
int scan_load(struct scan *out, const char *dir, const char *job);

enum scan_flags {
	/*
	 * The reader needs no bisect state (compare): an invalid one is a
	 * warning, and the commits keep their sweep or timestamp order.
	 */
	SCAN_STATE_OPTIONAL = 1 << 0,
};
int scan_load_flags(struct scan *out, const char *dir, const char *job,
		    unsigned flags);
void scan_release(struct scan *s);

/* Index of the commit named by a full id or a prefix of >= 4, or -1
   (-2 when the prefix is ambiguous). */
long scan_find_commit(const struct scan *s, const char *rev);

/* LKP's comparison of one series between two commits. */
struct scan_compare {
	double a_median, b_median; /* bytes/s; NAN when no boots */
	double a_stddev_pct, b_stddev_pct;
	double change_pct;
	size_t a_n, b_n;
	double p_value;  /* two-sided Mann-Whitney; NAN below 2 boots a side */
	int significant; /* p <= 0.05 */
};
void scan_compare(const struct scan_series *ser, size_t a, size_t b,
		  struct scan_compare *out);

/* "virtio/rawread bs_kb=2048 read" for people, escaped (strbuf_addsafe). */
void scan_series_name(const struct scan_series *ser, struct strbuf *out);
/* Its figures' unit: "MB/s" or "MB/s in virtual time (icount, shift 3)". */
void scan_series_unit(const struct scan_series *ser, struct strbuf *out);

#endif
