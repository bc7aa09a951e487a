/*
 * driver_levels.c: the run's two levels as its boots show them: every
 * boot of the good endpoint and of the commits marked good (the fast
 * level), every boot of the bad endpoint and of those marked bad (the
 * slow one), and whether each held still (noise_steady). A kernel that
 * computes holds still on the virtual clock, and then one boot of a
 * commit shows where it sits; one that waits on QEMU's device moves with
 * the host's load, and its boots keep the slower mode's doubt. The boots
 * are taken over the whole run, minutes apart, so a level that moved in
 * the run shows it. A commit that sat still between the levels (the
 * state's between) is a level of its own, part of neither, whatever its
 * mark: in the slow level it would make that level move.
 */
#include "driver.h"
#include "driver_priv.h"

#include <stdlib.h>
#include <string.h>

/* Is mark i its commit's last (pairs re-mark a commit)? */
static int last_of_its_commit(const struct bisect_state *st, size_t i)
{
	for (size_t k = i + 1; k < st->nr_marks; k++)
		if (!strcmp(st->marks[k].commit, st->marks[i].commit))
			return 0;
	return 1;
}

/* Append the boots of `commit`, as ln(bytes/s), to y. */
static int add_boots(struct driver *d, const char *commit, double **y,
		     size_t *n, size_t *alloc)
{
	struct sample_set s = SAMPLE_SET_INIT;

	if (measure_load(&d->m, commit, &s))
		return -1;
	ALLOC_GROW(*y, *n + s.nr, *alloc);
	noise_log(*y + *n, s.values, s.nr);
	*n += s.nr;
	sample_set_release(&s);
	return 0;
}

static int level_steady(struct driver *d, const char *endpoint,
			enum bisect_mark mark, int *out)
{
	const struct bisect_state *st = d->st;
	double *y = NULL;
	size_t n = 0, alloc = 0;
	int ret = -1;

	*out = 0;
	if (endpoint && endpoint[0] && add_boots(d, endpoint, &y, &n, &alloc))
		goto out;
	/* Each commit once, as its last mark has it. */
	for (size_t i = 0; st && i < st->nr_marks; i++) {
		const char *c = st->marks[i].commit;
		if (st->marks[i].mark != mark || !last_of_its_commit(st, i) ||
		    (endpoint && !strcmp(c, endpoint)) ||
		    strvec_index(&st->between, c) >= 0)
			continue;
		if (add_boots(d, c, &y, &n, &alloc))
			goto out;
	}
	*out = noise_steady(y, n, measure_noise_machine(&d->m));
	ret = 0;
out:
	free(y);
	return ret;
}

void driver_between(struct driver *d, const char *commit,
		    const struct verdict *v)
{
	if (!v->between)
		return;
	if (d->st && strvec_index(&d->st->between, commit) < 0)
		strvec_push(&d->st->between, commit);
	driver_say(d,
		   "[bisect] %.12s reads %.1f MB/s, between the levels %.1f "
		   "and %.1f: a second change in the range; it is %s",
		   commit, v->own_level / 1e6, v->fast_level / 1e6,
		   v->bad_level / 1e6,
		   v->kind == VERDICT_BAD ? "slow" : "fast");
}

int driver_steady_levels(struct driver *d, unsigned *out)
{
	int fast, slow = 0;

	*out = 0;
	if (!(measure_noise_machine(&d->m)->steady > 0))
		return 0; /* the wall clock: every level has the mode */
	if (level_steady(d, d->good, BISECT_GOOD, &fast) ||
	    (d->bad_built && level_steady(d, d->bad, BISECT_BAD, &slow)))
		return -1;
	*out = (fast ? VERDICT_STEADY_FAST : 0) |
	       (slow ? VERDICT_STEADY_SLOW : 0);
	return 0;
}
