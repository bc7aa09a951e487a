/*
 * measure.h: the measuring layer, below every policy. It builds a commit
 * (or finds it built), boots it once and stores what it measured, reads
 * back the per-boot values stored for it, and boots pairs of two commits
 * side by side. It returns boots and never a verdict: the bisection's
 * judge (bisect/judge.h) pools their noise and judges them. The
 * bisection (driver.h), `iobisect test`, `iobisect sweep` (sweep_run.h:
 * its builds, boots and stored values, on Slurm its tasks') and a Slurm
 * task (`iobisect measure`, probe_task) get their evidence here.
 *
 * One command boots beside it instead: `iobisect run` measures no commit
 * at the metric point but an image (built, or given as a file) on every
 * topology of the job, printing each sample as it comes and keeping
 * images on request, none of which a commit's series holds. It builds as
 * the layer's operations do (kbuild_image with the job's build request)
 * and boots through the same boot path (probe_boot_once, probe.h), so
 * its boots are stored, and pooled, as a bisection's are.
 *
 * The world is reached through struct measure_ops only: the real
 * operations (probe.h) reach libgit2, make and QEMU; the Slurm executor's
 * send probes elsewhere (executor.h); a test's replay numbers; the
 * benchmark's resample measured boots.
 *
 * The facts of one build (struct build_facts) and of one boot (struct
 * boot_facts) are each one struct, from the operations up to the policy.
 */
#ifndef IOBISECT_MEASURE_H
#define IOBISECT_MEASURE_H

#include "marks.h"
#include "clock.h"
#include "job.h"
#include "results.h"
#include "run_counts.h"
#include "util.h"

struct progress;

#define MEASURE_REFRESH 2 /* a good boot per this many of a probe's */

/* What a build of one commit came to. */
struct build_facts {
	int failed;		 /* the commit does not build: its own fault */
	int cached;		 /* served from the build cache */
	char key[41];		 /* the build key, "" when unknown */
	char *first_error, *log; /* failed: what and where (owned) */
};
void build_facts_release(struct build_facts *b);
/* A copy of `from` into *to (released first). */
void build_facts_copy(struct build_facts *to, const struct build_facts *from);

/* What one boot (or a commit's boots) came to. */
struct boot_facts {
	int ok; /* the guest ran the workload and its samples are stored */
	/* !ok: PROBE_BUILD_FAILED (measure_commit only), PROBE_BOOT_FAILED,
	   PROBE_PANIC, PROBE_TIMEOUT or PROBE_WORKLOAD_ERROR */
	enum probe_outcome outcome;
	size_t samples;		 /* samples stored */
	char *first_error, *log; /* !ok: what and where (owned) */
};
void boot_facts_release(struct boot_facts *b);
/* What failed, for people: the first error, or the outcome's name. */
const char *boot_facts_text(const struct boot_facts *b);

struct measure_ops {
	/*
	 * Build `commit` (a full id), or find it built. 0 (out->failed says
	 * whether it built), or -1 after error() when no build could even be
	 * tried: the run aborts.
	 */
	int (*build)(void *payload, const char *commit,
		     struct build_facts *out);
	/*
	 * Boot the commit's image once and store what it measured. 0 (out
	 * says how it went), or -1 after error(): interrupted (see
	 * run_interrupted) or QEMU itself broken; the run stops.
	 */
	int (*boot)(void *payload, const char *commit, struct boot_facts *out);
	/* The per-boot values stored for `commit`, in boot order. */
	int (*load)(void *payload, const char *commit, struct sample_set *out);
	/* Optional: the commit's subject for people (owned), or NULL. */
	char *(*subject)(void *payload, const char *commit);
	/*
	 * Optional: the commits the run may need next, best first, to build
	 * beside the boots to come (a hint: nothing waits for it).
	 */
	void (*prefetch)(void *payload, const char *const *commits, size_t n);
	/*
	 * Optional: build `n` commits and boot each until `boots` are stored,
	 * all at once (a multisection round, a sweep's sample, on a
	 * cluster). builds[i] and out[i] (zeroed) get what commit i's build
	 * and boots came to. 0, or -1 after error() as boot.
	 */
	int (*measure_many)(void *payload, const char *const *commits,
			    size_t n, unsigned boots,
			    struct build_facts *builds, struct boot_facts *out);
	/*
	 * Optional: the clock that times the boots, as resolved ("auto"
	 * included). NULL: the job's machine.clock as it names it. The noise
	 * model's priors follow it (noise.h: noise_machine_of).
	 */
	const struct clock *(*clock)(void *payload);
	/*
	 * Optional: 1 when the images `a` and `b` built (measure_build
	 * first) have the same bytes, 0 when not, -1 when it is not known.
	 * An answer whose image is its parent's cannot be one (driver.c).
	 */
	int (*same_image)(void *payload, const char *a, const char *b);
	/*
	 * Optional: `bad` with `culprit` reverted, a commit of the operations'
	 * own object database that no ref names (repo_revert.h), built and
	 * booted by its full id as any commit is. 0 with the id in `out`, 1
	 * when the revert does not apply cleanly (`conflicts` gets the files),
	 * -1 after error(). NULL: no revert check (driver_revert.c).
	 */
	int (*revert)(void *payload, const char *bad, const char *culprit,
		      char out[41], struct strvec *conflicts);
};

struct measure {
	/* Set by measure_init. */
	const struct job *job;
	const struct measure_ops *ops;
	void *payload;
	/* Set by the caller when it has them. */
	struct progress *progress; /* NULL: quiet */
	const char *good; /* the baseline commit (full id), NULL: none */

	/*
	 * What this run measured, counted here only, as the operations
	 * report it: every command and report reads these.
	 */
	struct run_counts counts;
	unsigned baseline_boots; /* of counts.boots, the baseline's */
	unsigned since_good; /* boots since the last good one */
	struct strvec logs;  /* "<what>: <path>" of failures */
	struct strvec built; /* commits built (or found built) this run */
	/* Per-boot values read through ops->load, re-read after a boot. */
	struct measure_series {
		char commit[41];
		struct sample_set set;
		int stale;
	} * series;
	size_t nr_series, alloc_series;
};

void measure_init(struct measure *m, const struct job *job,
		  const struct measure_ops *ops, void *payload);
void measure_release(struct measure *m);

/* A line for people above the status line (nothing when quiet). */
void measure_say(struct measure *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * What its figures are in: "MB/s", or "MB/s in virtual time (icount,
 * shift N)" when the instruction count times the boots (clock_unit).
 * Returns 1 in that case, where the words are worth saying, else 0.
 */
int measure_unit(const struct measure *m, struct strbuf *out);
/* 1 when the instruction count times the boots (the virtual clock). */
int measure_virtual(const struct measure *m);
/* The commit's subject for people, "" when unknown (caller frees). */
char *measure_subject(struct measure *m, const char *commit);

/*
 * Build `commit`: 0 built, 1 it does not build (out says why), -1 stop.
 * Builds and cache hits are counted once per commit and run.
 */
int measure_build(struct measure *m, const char *commit,
		  struct build_facts *out);
/* Boot `commit` once: 0 it went well, 1 it failed (out says how), -1 stop. */
int measure_boot(struct measure *m, const char *commit,
		 struct boot_facts *out);
/*
 * The per-boot values of `commit` (a copy, with the boot ids and CPU
 * where the operations keep them), read once per boot.
 */
int measure_load(struct measure *m, const char *commit,
		 struct sample_set *out);
/* Read `commit`'s values again: boots were stored behind the layer. */
void measure_stale(struct measure *m, const char *commit);
/*
 * Boots of `commits` commits, `want` boots asked in all, that store
 * nothing usable must not loop forever: true once `tries` boots have
 * been spent past what a run of usable boots would need.
 */
int measure_tries_spent(unsigned tries, size_t want, unsigned commits);
/* The first error said of boots spent that way (caller frees). */
char *measure_no_sample_error(void);

/*
 * Build `commit` and boot it until `want` boots are stored (a sweep's
 * sample of a range, a Slurm task; no verdict). out->ok, or what failed;
 * *build (may be NULL) gets the build's facts. Returns 0, or -1 to stop
 * (see run_interrupted).
 */
int measure_commit(struct measure *m, const char *commit, unsigned want,
		   struct build_facts *build, struct boot_facts *out);

/*
 * Build `n` commits and boot each until `boots` are stored, all at once
 * (ops->measure_many, which the caller checks is there: a multisection
 * round, a sweep's sample, on a cluster). out[i] (may be NULL) gets how
 * commit i went. The boots the commits gained, as measure_load reads
 * them before and after, count as the run's, and each build (key "" when
 * none was tried) once per commit as measure_build counts it. 0, or -1
 * to stop.
 */
int measure_many(struct measure *m, const char *const *commits, size_t n,
		 unsigned boots, struct boot_facts *out);

/* A commit's boots as the layer holds them: one value each, boot order. */
struct measure_boots {
	const char *commit;
	const double *values;
	size_t nr;
};
/*
 * The boots of every commit read so far with two or more, none booted
 * since: what the run's noise model pools (judge.h). *out (the caller
 * frees it) points into the layer's own copies, good until the next load
 * or boot. Returns how many.
 */
size_t measure_repeated(struct measure *m, struct measure_boots **out);
/* A good boot when the baseline is MEASURE_REFRESH boots old. */
int measure_refresh_baseline(struct measure *m);

/* Pairs of `parent` and a commit, booted back to back. */
struct measure_pairs {
	const char *parent;
	double *pv, *cv; /* pair k: the parent's boot, the commit's boot */
	/* pair k: each boot's place among its commit's boots (measure_load) */
	size_t *p_at, *c_at;
	size_t n, alloc_p, alloc_c, alloc_p_at, alloc_c_at;
	size_t parent_from; /* the parent's boots before its pairs */
	unsigned failed;    /* pairs dropped for a failed boot */
	int last_order;	    /* the pairs boot the parent first */
};
void measure_pairs_release(struct measure_pairs *p);
/* One pair more: its two figures and its boots' places. */
void measure_pairs_push(struct measure_pairs *p, double pv, double cv,
			size_t p_at, size_t c_at);
/*
 * The pairs already stored, at most `n`: p->parent's boots after
 * p->parent_from beside `commit`'s after `from`, the k-th of each the
 * k-th pair, in the alternation measure_pairs_take would go on with. A
 * run stopped within its pairs and resumed takes only the pairs it
 * lacks. 0, or -1 to stop.
 */
int measure_pairs_stored(struct measure *m, const char *commit,
			 struct measure_pairs *p, size_t from, size_t n);
/*
 * The pairs a record names, read again: p's pairs as the caller pushed
 * them from its record (their places; their figures are read here); a
 * pair whose boots the store no longer holds is dropped. Then the boots of the two stored
 * after the record's last pair (after p->parent_from and `from` when it
 * has none) become a pair when they are one boot of each: a pair taken
 * whose record was not kept yet. Anything else there is no pair (see
 * measure.c). 0, or -1 to stop.
 */
int measure_pairs_reread(struct measure *m, const char *commit,
			 struct measure_pairs *p, size_t from);
/*
 * Boot pairs of p->parent and `commit`, alternating (the first pair's
 * order drawn from a seed of the two), until there are `n`: the judge
 * takes them one at a time (judge_pairs), a measurement beside an answer
 * all at once (its size on another clock, wall_pairs.h). A pair with a
 * failed half is taken again, 3 times at most. 0, 1 when boots kept
 * failing (*fail says how), -1 to stop.
 */
int measure_pairs_take(struct measure *m, const char *commit,
		       struct measure_pairs *p, size_t n,
		       struct boot_facts *fail);

#endif
