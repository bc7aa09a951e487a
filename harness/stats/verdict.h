/*
 * verdict.h: turning per-boot numbers into fast / slow / undecided, as a
 * sequential test that stops as soon as the boots so far are decisive.
 *
 * The unit of evidence is the boot: each boot is one value, the median of
 * its samples in bytes/s (struct sample_set), taken as y = ln(bytes/s)
 * (noise.h says why). The candidate is judged against two levels:
 *  - fast: the good endpoint's boots (the baseline);
 *  - slow: the line the threshold draws below the baseline (a percentage
 *    or MB/s), or with "auto" the bad endpoint's own level.
 * After each boot the ratio of how well each level explains the
 * candidate's boots (a likelihood ratio under the run's noise model,
 * Student-t, with the uncertainty of the baseline's and the bad level's
 * own estimates in it) is compared with Wald's bounds for the error asked:
 * at ln((1 - e) / e) it is slow, at -ln((1 - e) / e) fast, in between one
 * more boot. The bounds hold however many looks are taken, so there is no
 * split of alpha over looks: a -85% cliff is decided by its first boot, a
 * -5% drop at 2% noise in a few, and high noise simply asks for more.
 *
 * Each side is composite: fast is the baseline's level or above it, slow
 * the slow level or below it, each explained as well as its nearest point
 * allows, so a -90% cliff against a 10% line is plainly slow. A boot that
 * neither side explains (between the levels, four scales from both)
 * decides nothing: it earns another boot.
 *
 * A line keeps its meaning: with a percentage or MB/s threshold, fast is
 * "less of a drop than the line" and slow "more", each side starting
 * VERDICT_LINE_ZONE of the way from the line to the baseline, so a
 * commit whose boots agree on -20% is not slow under a 25% line, and one
 * at -30% is. (Weighing "at the baseline" against "at the line" put the
 * boundary half-way, and called -20% slow.)
 *
 * The machine has a slower mode (noise.h): each boot is weighed against
 * each side as the normal mode or the slower one would explain it, so a
 * boot between the levels, where an unchanged commit in the slower mode
 * reads, is worth little, and a boot at the bad level on a cliff, which
 * no mode of the good level explains, decides alone. A boot can also be
 * wild at the model's measured rate, which bounds what one boot is worth.
 *
 * Pure: no I/O; invalid input returns -1 after error().
 */
#ifndef IOBISECT_VERDICT_H
#define IOBISECT_VERDICT_H

#include "noise.h"
#include "threshold.h"

#include <stddef.h>

enum verdict_kind { VERDICT_UNDECIDED, VERDICT_GOOD, VERDICT_BAD };

/* Wald's error per verdict when the caller gives none. */
#define VERDICT_ERROR_DEFAULT 0.01
/* A boot between the levels, this many scales from both, fits neither. */
#define VERDICT_IMPLAUSIBLE_Z 4.0
/*
 * A commit between the levels needs this many boots that hold still
 * before it is a level of its own (verdict.h's between): as many as a
 * level needs to be said to hold still (noise.h), since that is what it
 * claims; one or two boots may be a hiccup, which reads anything.
 */
#define VERDICT_BETWEEN_BOOTS NOISE_STEADY_BOOTS
/* A line's zone: this share of the way to the baseline on either side. */
#define VERDICT_LINE_ZONE 0.2
/* The slower mode's depth ranges over these multiples of its measure. */
#define VERDICT_MODE_RANGE_LO 0.6
#define VERDICT_MODE_RANGE_HI 1.8
/* Pairs confirm a drop of at least this many of their spreads. */
#define VERDICT_PAIRS_MIN_Z 2.0
/* The endpoints' drop error weighs on pairs as on this many at most. */
#define VERDICT_PAIRS_SHARED 3.0
/* From this many pairs on, their own spread, when wider, is their noise. */
#define VERDICT_PAIRS_OWN_SPREAD 4
/* The spread of drops the endpoint test (auto) is tuned for, ln units. */
#define VERDICT_MIXTURE_TAU 0.2

/*
 * What the run's boots show of its levels (noise_steady): the fast one
 * (the baseline and the commits judged fast) or the slow one held still.
 * A level that held still has no slower mode: a boot away from it is the
 * commit, so one boot where one boot shows it decides (a boot between
 * the levels of a kernel that moves is worth little, as before).
 */
enum verdict_steady {
	VERDICT_STEADY_FAST = 1 << 0,
	VERDICT_STEADY_SLOW = 1 << 1,
};

/*
 * The endpoint whose few boots cap what a commit's boots can say (one
 * boot may be wild, so n boots of the thinnest side are worth at most n
 * times a wild boot's odds): while that cap is below the bound, more
 * boots of the commit cannot decide it, and one more of that endpoint
 * can.
 */
enum verdict_thin {
	VERDICT_THIN_NONE,
	VERDICT_THIN_BASE, /* the good endpoint (the baseline) */
	VERDICT_THIN_BAD,  /* the bad endpoint, whose level auto tests */
};

struct verdict_input {
	const double *base; /* good endpoint, one value per boot, bytes/s */
	size_t n_base;
	const double *cand; /* the commit under test, one value per boot */
	size_t n_cand;
	/* Bad endpoint, per boot: the slow level of THRESHOLD_AUTO. */
	const double *bad;
	size_t n_bad;
	struct threshold threshold;
	int faster; /* the change sought is a rise (job "direction") */
	/* NULL: estimated from base, bad and cand (noise_estimate). */
	const struct noise_model *noise;
	/* The priors of that estimate (noise_machine_of); NULL: wall clock. */
	const struct noise_machine *machine;
	double error; /* Wald's alpha = beta; 0: VERDICT_ERROR_DEFAULT */
	int runs_min; /* no verdict before this many candidate boots */
	unsigned steady; /* enum verdict_steady */
};

struct verdict {
	enum verdict_kind kind;
	size_t n_base, n_cand;
	double base_median, cand_median;	 /* bytes/s */
	double base_pct_stddev, cand_pct_stddev; /* LKP's %stddev */
	double pct_change; /* (cand_median - base_median) / base_median * 100 */
	double shift;	   /* Hodges-Lehmann shift cand - base, bytes/s */
	double cliff_delta; /* cand against base, in [-1, 1] */
	double fast_level;  /* bytes/s: the baseline's level */
	double slow_level;  /* bytes/s: the line, or the bad endpoint's level */
	double sigma_pct;   /* the noise model's spread of one boot, percent */
	double nu;	    /* its Student-t degrees of freedom */
	/*
	 * ln of the likelihood ratio slow : fast of the boots so far (for the
	 * auto endpoint test, of "a drop" : "no drop"); positive says slow.
	 */
	double llr;
	double bound; /* |llr| >= bound decides: ln((1 - error) / error) */
	/*
	 * The chance that this verdict is wrong given the boots: 1 / (1 +
	 * e^|llr|) (the side the ratio favours, even odds before the boots);
	 * for the auto endpoint test, 1 / the mixture ratio. At most the
	 * error asked when decided.
	 */
	double error;
	int implausible;  /* the last boot fits neither level */
	/*
	 * A level of its own (verdict_decide): its boots held still between
	 * the run's two levels, both of which held still, VERDICT_IMPLAUSIBLE_Z
	 * scales or more from each. Not noise: a second change in the range.
	 * It is judged by where it sits, against the line, or with auto
	 * against the middle of the two levels (nearer the slow one: slow),
	 * and out->error is the chance its level is on the other side.
	 */
	int between;
	double own_level; /* bytes/s: its level, when between */
	double bad_level; /* bytes/s: the bad endpoint's, NAN without boots */
	unsigned steady;  /* levels it took as held still: enum verdict_steady */
	enum verdict_thin thin; /* whose boots to add when undecided */
	char reason[360]; /* one line for people, no trailing newline */
};

/*
 * Decide on the candidate: VERDICT_BAD (slow) when llr >= bound,
 * VERDICT_GOOD (fast) when llr <= -bound, otherwise UNDECIDED (also with
 * fewer than runs_min boots, or when the last boot is implausible).
 * Returns 0, or -1 after error() (no baseline or candidate boots, auto
 * without a bad endpoint slower than good, a threshold that puts the line
 * at or below zero).
 */
int verdict_decide(struct verdict *out, const struct verdict_input *in);

/*
 * Are the endpoints separated: is the bad endpoint slow compared with the
 * good one? `in->bad` is tested, `in->cand` is ignored. VERDICT_BAD: yes,
 * bisect; VERDICT_GOOD: no, stop; VERDICT_UNDECIDED: boot the endpoints
 * again (at the cap: stop).
 *  - a percentage or MB/s threshold: verdict_decide with bad as the
 *    candidate (slow means at the line, fast at the baseline);
 *  - auto: there is no line until the endpoints draw one, so the test is
 *    "bad is below good at all", a one-sided mixture sequential test
 *    (drops spread as a half-Cauchy of scale VERDICT_MIXTURE_TAU), whose
 *    error bound also holds at any number of looks. It never says
 *    VERDICT_GOOD: only the cap ends an auto test that does not separate.
 * out->reason gives both medians in MB/s with their spread.
 */
int verdict_endpoints(struct verdict *out, const struct verdict_input *in);

/*
 * The answer's own test: pairs of boots of the culprit's parent and of the
 * culprit, taken back to back in a balanced order, judged on the ratio
 * within each pair (verdict.c says why). VERDICT_BAD: the culprit is
 * slower than its parent by the drop (confirmed, at error_right);
 * VERDICT_GOOD: it is not (contradicted, at error_wrong); UNDECIDED: one
 * more pair. out->error is the chance the answer is wrong given the pairs.
 */
struct verdict_pairs_input {
	const double *parent, *culprit; /* pair k: parent[k], culprit[k] */
	size_t n;
	/*
	 * ln(slow / fast) sought, < 0: the endpoints' measured drop for auto
	 * (drop_se its uncertainty), or the threshold's line (line set).
	 */
	double drop, drop_se;
	int line;
	int faster;
	const struct noise_model *noise; /* one boot's, as in a verdict */
	double error_right, error_wrong;
	/*
	 * enum verdict_steady: both levels held still over the run, so no
	 * slow stretch of the machine is in a pair, and a drop many pair
	 * scales deep is confirmed by as few pairs as it takes.
	 */
	unsigned steady;
	/*
	 * The clock's priors (noise_machine_of; NULL: the wall clock's):
	 * when one level held still over the run, the other's own boots in
	 * the pairs that hold still (noise_steady) make it one that did.
	 */
	const struct noise_machine *machine;
};
int verdict_pairs(struct verdict *out, const struct verdict_pairs_input *in);

/*
 * Is a drop `d` (ln units, either sign) deeper than any slower mode can
 * read: past VERDICT_MODE_RANGE_HI times the deeper of the model's mode
 * and the wall clock's (a kernel that waits on QEMU's device moves that
 * far on the virtual clock too)? Such a drop is a cliff: no stretch of
 * the machine explains it, so one boot a side, or one pair, shows it.
 */
int verdict_beyond_modes(double d, const struct noise_model *nm);

/* "good", "bad", "undecided". */
const char *verdict_name(enum verdict_kind k);


#endif
