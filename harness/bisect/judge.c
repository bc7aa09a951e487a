/*
 * judge.c: every verdict of a run, from the boots measure returns (see
 * judge.h): the run's noise model, the levels that held still, and the
 * input of each kind of verdict.
 */
#include "judge.h"

#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void judge_init(struct judge *j, struct measure *m,
		const struct bisect_state *st)
{
	*j = (struct judge){
		.m = m,
		.machine = noise_machine_of(measure_virtual(m)),
		.line = m->job->threshold,
		.faster = m->job->faster,
		.runs_min = m->job->runs_min,
		.st = st,
		.bad = NULL,
	};
}

void judge_give_way(struct judge *j)
{
	j->line = (struct threshold){THRESHOLD_AUTO, 0};
}

/* The baseline a verdict compares with: the last JUDGE_WINDOW boots. */
static void window(const double *all, size_t nr, const double **v, size_t *n)
{
	*n = nr > JUDGE_WINDOW ? JUDGE_WINDOW : nr;
	*v = all ? all + (nr - *n) : NULL;
}

/*
 * Every commit read so far with two boots or more (the good endpoint
 * through its window), on the log scale, from the run's priors.
 */
void judge_noise(struct judge *j, struct noise_model *out)
{
	struct measure_boots *b;
	size_t nr = measure_repeated(j->m, &b);
	/* Each commit's boots in bytes/s (noise_estimate_boots). */
	struct noise_group *g = xcalloc(nr + 1, sizeof(*g));

	for (size_t i = 0; i < nr; i++) {
		g[i] = (struct noise_group){b[i].values, b[i].nr};
		if (j->m->good && !strcmp(b[i].commit, j->m->good))
			window(b[i].values, b[i].nr, &g[i].y, &g[i].n);
	}
	noise_estimate_boots(out, j->machine, g, nr);
	free(g);
	free(b);
}

/* Is mark i its commit's last (pairs re-mark a commit)? */
static int last_of_its_commit(const struct bisect_state *st, size_t i)
{
	for (size_t k = i + 1; k < st->nr_marks; k++)
		if (!strcmp(st->marks[k].commit, st->marks[i].commit))
			return 0;
	return 1;
}

/* Append the boots of `commit` (bytes/s) to v. */
static int add_boots(struct judge *j, const char *commit, double **v,
		     size_t *n, size_t *alloc)
{
	struct sample_set s = SAMPLE_SET_INIT;

	if (measure_load(j->m, commit, &s))
		return -1;
	ALLOC_GROW(*v, *n + s.nr, *alloc);
	if (s.nr)
		memcpy(*v + *n, s.values, s.nr * sizeof(double));
	*n += s.nr;
	sample_set_release(&s);
	return 0;
}

/*
 * Did the level of `endpoint` and the commits marked `mark` hold still:
 * every boot of them, each commit once as its last mark has it, taken
 * over the whole run, minutes apart, so a level that moved shows it. A
 * kernel that computes holds still on the virtual clock, and then one
 * boot of a commit shows where it sits; one that waits on QEMU's device
 * moves with the host's load, and its boots keep the slower mode's doubt.
 * A commit that sat still between the levels (the state's between) is a
 * level of its own, part of neither whatever its mark: in the slow level
 * it would make that level move.
 */
static int level_steady(struct judge *j, const char *endpoint,
			enum bisect_mark mark, int *out)
{
	const struct bisect_state *st = j->st;
	double *v = NULL;
	size_t n = 0, alloc = 0;
	int ret = -1;

	*out = 0;
	if (endpoint && endpoint[0] && add_boots(j, endpoint, &v, &n, &alloc))
		goto out;
	for (size_t i = 0; st && i < st->nr_marks; i++) {
		const char *c = st->marks[i].commit;
		if (st->marks[i].mark != mark || !last_of_its_commit(st, i) ||
		    (endpoint && !strcmp(c, endpoint)) ||
		    strvec_index(&st->between, c) >= 0)
			continue;
		if (add_boots(j, c, &v, &n, &alloc))
			goto out;
	}
	*out = noise_steady_boots(v, n, j->machine);
	ret = 0;
out:
	free(v);
	return ret;
}

int judge_steady(struct judge *j, unsigned *out)
{
	int fast, slow = 0;

	*out = 0;
	if (!(j->machine->steady > 0))
		return 0; /* the wall clock: every level has the mode */
	if (level_steady(j, j->m->good, BISECT_GOOD, &fast) ||
	    (j->bad && level_steady(j, j->bad, BISECT_BAD, &slow)))
		return -1;
	*out = (fast ? VERDICT_STEADY_FAST : 0) |
	       (slow ? VERDICT_STEADY_SLOW : 0);
	return 0;
}

/* A verdict's input: the baseline's window, the bad level, the noise. */
static void verdict_input_of(struct judge *j, struct verdict_input *in,
			     const struct sample_set *good,
			     const struct sample_set *bad, double error,
			     struct noise_model *nm)
{
	memset(in, 0, sizeof(*in));
	judge_noise(j, nm);
	in->noise = nm;
	in->machine = j->machine;
	window(good->values, good->nr, &in->base, &in->n_base);
	if (bad) {
		in->bad = bad->values;
		in->n_bad = bad->nr;
	}
	in->threshold = j->line;
	in->faster = j->faster;
	in->error = error;
	in->runs_min = j->runs_min;
}

/*
 * No verdict yet (1): no such boots, or an auto line that the baseline's
 * drift has taken away, said as a note; more boots may bring it back.
 */
int judge_step(struct judge *j, const char *commit, size_t from, double error,
	       struct verdict *v, struct sample_set *cand)
{
	struct measure *m = j->m;
	struct sample_set good = SAMPLE_SET_INIT, lvl = SAMPLE_SET_INIT;
	struct verdict_input in;
	struct noise_model nm;
	struct strbuf why = STRBUF_INIT;
	unsigned steady;
	int ret = -1, r;

	if (judge_steady(j, &steady) || measure_load(m, commit, cand) ||
	    measure_load(m, m->good, &good) ||
	    (j->bad && strcmp(commit, j->bad) && measure_load(m, j->bad, &lvl)))
		goto out;
	ret = 1;
	if (cand->nr <= from || !good.nr)
		goto out;
	verdict_input_of(j, &in, &good, lvl.nr ? &lvl : NULL, error, &nm);
	in.cand = cand->values + from;
	in.n_cand = cand->nr - from;
	in.steady = steady;
	error_capture(&why);
	r = verdict_decide(v, &in);
	error_capture(NULL);
	if (r)
		measure_say(m, "no verdict yet on %.12s: %s", commit, why.buf);
	else
		ret = 0;
out:
	strbuf_release(&why);
	sample_set_release(&good);
	sample_set_release(&lvl);
	return ret;
}

int judge_endpoints(struct judge *j, const struct sample_set *g,
		    const struct sample_set *b, const struct threshold *line,
		    double error, struct verdict *out, struct noise_model *nm)
{
	struct verdict_input in;

	verdict_input_of(j, &in, g, b, error, nm);
	if (line)
		in.threshold = *line;
	return verdict_endpoints(out, &in);
}

void judged_pairs_release(struct judged_pairs *p)
{
	measure_pairs_release(&p->boots);
	memset(p, 0, sizeof(*p));
}

/* The baseline's level: the endpoints' test's, else good's median. */
static int good_level(struct judge *j, const struct verdict *sep, double *g)
{
	struct sample_set good = SAMPLE_SET_INIT;

	*g = sep ? sep->base_median : 0;
	if (sep)
		return 0;
	if (measure_load(j->m, j->m->good, &good))
		return -1;
	*g = good.nr ? stats_median(good.values, good.nr) : 0;
	sample_set_release(&good);
	return 0;
}

int judge_pairs_input(struct judge *j, struct verdict_pairs_input *in,
		      const struct verdict *sep, double error_right,
		      double error_wrong)
{
	struct noise_model nm;
	double g;

	memset(in, 0, sizeof(*in));
	judge_noise(j, &nm);
	if (good_level(j, sep, &g))
		return -1;
	if (threshold_pairs_drop(&in->drop, &j->line, g,
				 sep ? sep->cand_median : 0, j->faster))
		return 1;
	in->line = j->line.kind != THRESHOLD_AUTO;
	/* The endpoints' drop is measured: its error weighs on the pairs. */
	if (!in->line && sep)
		in->drop_se = nm.sigma * sqrt(1.0 / (double)sep->n_base +
					      1.0 / (double)sep->n_cand);
	if (judge_steady(j, &in->steady))
		return -1;
	in->faster = j->faster;
	in->machine = j->machine;
	in->error_right = error_right;
	in->error_wrong = error_wrong;
	return 0;
}

int judge_pairs(struct judge *j, const char *commit, struct judged_pairs *p,
		struct verdict_pairs_input *in, size_t cap,
		struct boot_facts *fail)
{
	struct measure_pairs *b = &p->boots;
	struct noise_model nm;
	int r;

	for (;;) {
		if (b->n && p->judged != b->n) {
			judge_noise(j, &nm);
			in->noise = &nm;
			in->parent = b->pv;
			in->culprit = b->cv;
			in->n = b->n;
			r = verdict_pairs(&p->v, in);
			in->noise = NULL;
			if (r)
				return -1;
			p->judged = b->n;
			p->decided = p->v.kind != VERDICT_UNDECIDED;
		}
		if (p->decided || b->n >= cap)
			return 0;
		r = measure_pairs_take(j->m, commit, b, b->n + 1, fail);
		if (r)
			return r;
	}
}
