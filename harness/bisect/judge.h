/*
 * judge.h: the bisection's one judge. Every verdict a run takes, a
 * step's, the endpoints', the answer's pairs, the revert's pairs and
 * `iobisect test`'s pairs, is asked of the pure tests (verdict.h) here,
 * from the boots the measuring layer returns (measure.h), so each kind
 * of input is built once and the same way.
 *
 * The judge keeps what every verdict of a run shares: the noise model's
 * priors, derived once from the clock that times the boots; the line as
 * the run judges it (the job's, or "auto" once it gave way to the
 * endpoints' own drop: judge_give_way); and the levels the run's boots
 * show (judge_steady), read from the bisect state's marks.
 */
#ifndef IOBISECT_JUDGE_H
#define IOBISECT_JUDGE_H

#include "measure.h"
#include "noise.h"
#include "state.h"
#include "threshold.h"
#include "verdict.h"

#define JUDGE_WINDOW 16 /* good boots a verdict compares with */

struct judge {
	struct measure *m; /* the boots */
	/* The priors of the run's clock (noise_machine_of), once a run. */
	const struct noise_machine *machine;
	struct threshold line; /* the job's, or auto once it gave way */
	int faster;	       /* the change sought is a rise */
	int runs_min;	       /* no step's verdict before this many boots */
	/* The marks whose commits make the levels; NULL: none kept. */
	const struct bisect_state *st;
	/* The bad endpoint once built (its boots the slow level), else NULL. */
	const char *bad;
};

/* Set up for a run measured through `m` (its job and its clock). */
void judge_init(struct judge *j, struct measure *m,
		const struct bisect_state *st);
/* The line gives way to the endpoints' own drop: auto from now on. */
void judge_give_way(struct judge *j);
/*
 * The run's noise model, on the run's priors: pooled from every commit
 * read with two boots or more (the good endpoint's last JUDGE_WINDOW),
 * the bad endpoint, the steps, the pairs.
 */
void judge_noise(struct judge *j, struct noise_model *out);

/*
 * Which of the run's levels held still so far (enum verdict_steady in
 * *out): the good endpoint with the commits marked good, the bad one
 * with those marked bad. 0, or -1 to stop.
 */
int judge_steady(struct judge *j, unsigned *out);

/*
 * The verdict on `commit` against the good endpoint (and the bad one's
 * level, once built) from its boots after the first `from`: 0 with *v
 * filled, 1 when there is none yet (said as a note), -1 to stop. *cand
 * gets all its boots.
 */
int judge_step(struct judge *j, const char *commit, size_t from, double error,
	       struct verdict *v, struct sample_set *cand);

/*
 * The endpoints' separation (verdict_endpoints) from good's boots `g`
 * and bad's `b`, at `error`, under `line` (NULL: the run's). *nm gets
 * the noise model it used. 0, or -1 after error().
 */
int judge_endpoints(struct judge *j, const struct sample_set *g,
		    const struct sample_set *b, const struct threshold *line,
		    double error, struct verdict *out, struct noise_model *nm);

/* Pairs of boots and the verdict on them. */
struct judged_pairs {
	struct measure_pairs boots;
	struct verdict v;
	int decided;
	size_t judged; /* the pairs v was given on */
};
void judged_pairs_release(struct judged_pairs *p);

/*
 * The input of an answer's pairs (verdict_pairs_input): the drop sought
 * (the line's, or with auto the endpoints' measured drop `sep`; NULL when
 * they were not measured apart, and good's median is the baseline), the
 * run's priors and the levels that held still, and the errors. 0, or -1
 * after error() when the line draws no drop.
 */
int judge_pairs_input(struct judge *j, struct verdict_pairs_input *in,
		      const struct verdict *sep, double error_right,
		      double error_wrong);

/*
 * Boot pairs of p->boots.parent and `commit` (measure_pairs_take) until
 * their verdict decides or there are `cap`; pairs p holds already are
 * judged before any is booted. 0, 1 when boots kept failing (*fail says
 * how), -1 to stop.
 */
int judge_pairs(struct judge *j, const char *commit, struct judged_pairs *p,
		struct verdict_pairs_input *in, size_t cap,
		struct boot_facts *fail);

#endif
