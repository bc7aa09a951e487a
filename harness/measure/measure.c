/*
 * measure.c: the measuring layer (see measure.h): a commit's build and
 * boots through the operations, its per-boot values (read through the
 * operations once per boot), and pairs of two commits booted side by
 * side.
 */
#include "measure.h"

#include "progress.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void build_facts_release(struct build_facts *b)
{
	free(b->first_error);
	free(b->log);
	memset(b, 0, sizeof(*b));
}

void build_facts_copy(struct build_facts *to, const struct build_facts *from)
{
	build_facts_release(to);
	*to = *from;
	to->first_error = from->first_error ? xstrdup(from->first_error) : NULL;
	to->log = from->log ? xstrdup(from->log) : NULL;
}

void boot_facts_release(struct boot_facts *b)
{
	free(b->first_error);
	free(b->log);
	memset(b, 0, sizeof(*b));
}

const char *boot_facts_text(const struct boot_facts *b)
{
	return b->first_error ? b->first_error : probe_outcome_name(b->outcome);
}

void measure_init(struct measure *m, const struct job *job,
		  const struct measure_ops *ops, void *payload)
{
	memset(m, 0, sizeof(*m));
	m->job = job;
	m->ops = ops;
	m->payload = payload;
}

/*
 * The clock of the boots: the operations' resolved one, else the job's as
 * it names it ("auto" unresolved counts as the wall clock).
 */
static struct clock measure_clock_of(const struct measure *m)
{
	const struct clock *c = m->ops->clock ? m->ops->clock(m->payload)
					      : NULL;
	const char *named = m->job->machine.clock;
	struct clock named_clock = {CLOCK_WALL, 0};

	if (c)
		return *c;
	if (named && !strcmp(named, "virtual")) {
		named_clock.kind = CLOCK_VIRTUAL;
		named_clock.shift = clock_job_shift(m->job);
	}
	return named_clock;
}

int measure_virtual(const struct measure *m)
{
	return measure_clock_of(m).kind == CLOCK_VIRTUAL;
}

int measure_unit(const struct measure *m, struct strbuf *out)
{
	struct clock c = measure_clock_of(m);

	clock_unit(out, &c);
	return c.kind == CLOCK_VIRTUAL;
}

void measure_release(struct measure *m)
{
	for (size_t i = 0; i < m->nr_series; i++)
		sample_set_release(&m->series[i].set);
	free(m->series);
	strvec_clear(&m->logs);
	strvec_clear(&m->built);
	memset(m, 0, sizeof(*m));
}

void measure_say(struct measure *m, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!m->progress)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	progress_note(m->progress, "%s", sb.buf);
	strbuf_release(&sb);
}

char *measure_subject(struct measure *m, const char *commit)
{
	char *s = m->ops->subject ? m->ops->subject(m->payload, commit) : NULL;
	return s ? s : xstrdup("");
}

static int is_good(const struct measure *m, const char *commit)
{
	return m->good && !strcmp(commit, m->good);
}

static struct measure_series *series_of(struct measure *m, const char *commit)
{
	struct measure_series *s;

	for (size_t i = 0; i < m->nr_series; i++)
		if (!strcmp(m->series[i].commit, commit))
			return &m->series[i];
	ALLOC_GROW(m->series, m->nr_series + 1, m->alloc_series);
	s = &m->series[m->nr_series++];
	memset(s, 0, sizeof(*s));
	snprintf(s->commit, sizeof(s->commit), "%s", commit);
	s->stale = 1;
	return s;
}

void measure_stale(struct measure *m, const char *commit)
{
	series_of(m, commit)->stale = 1;
}

/*
 * The per-boot values of `commit` (a copy: values and counts only), read
 * through the ops once and again after each boot of it.
 */
int measure_load(struct measure *m, const char *commit, struct sample_set *out)
{
	struct measure_series *s = series_of(m, commit);

	if (s->stale) {
		sample_set_release(&s->set);
		if (m->ops->load(m->payload, commit, &s->set))
			return -1;
		s->stale = 0;
	}
	sample_set_copy(out, &s->set);
	return 0;
}

/*
 * The run meets `commit`'s build: counted the first time, as made or as
 * served from the cache, whoever built it (here or a Slurm task), and a
 * failed build's log kept for the report.
 */
static void count_build(struct measure *m, const char *commit,
			const struct build_facts *b)
{
	for (size_t i = 0; i < m->built.nr; i++)
		if (!strcmp(m->built.v[i], commit))
			return;
	strvec_push(&m->built, commit);
	if (b->cached)
		m->counts.builds_cached++;
	else
		m->counts.builds++;
	if (b->failed && b->log)
		strvec_pushf(&m->logs, "build of %.12s: %s", commit, b->log);
}

int measure_build(struct measure *m, const char *commit,
		  struct build_facts *out)
{
	build_facts_release(out);
	if (m->progress)
		progress_phase(m->progress, "building");
	if (m->ops->build(m->payload, commit, out)) {
		build_facts_release(out);
		return -1;
	}
	count_build(m, commit, out);
	return out->failed ? 1 : 0;
}

int measure_boot(struct measure *m, const char *commit, struct boot_facts *out)
{
	boot_facts_release(out);
	series_of(m, commit)->stale = 1;
	if (m->ops->boot(m->payload, commit, out)) {
		boot_facts_release(out);
		return -1;
	}
	m->counts.boots++;
	m->counts.samples += (unsigned)out->samples;
	if (is_good(m, commit)) {
		m->since_good = 0;
		m->baseline_boots++;
	} else {
		m->since_good++;
	}
	if (!out->ok && out->log)
		strvec_pushf(&m->logs, "%s boot of %.12s: %s",
			     probe_outcome_name(out->outcome), commit,
			     out->log);
	return !out->ok;
}

int measure_tries_spent(unsigned tries, size_t want, unsigned commits)
{
	return tries > want + 2 * (size_t)commits;
}

char *measure_no_sample_error(void)
{
	return xstrdup("boots complete but no sample could be used");
}

int measure_commit(struct measure *m, const char *commit, unsigned want,
		   struct build_facts *build, struct boot_facts *out)
{
	struct build_facts b = {0};
	struct sample_set s = SAMPLE_SET_INIT;
	unsigned tries = 0;
	int r, ret = -1;

	memset(out, 0, sizeof(*out));
	r = measure_build(m, commit, &b);
	if (r < 0)
		goto out;
	out->ok = !r;
	if (r) {
		out->outcome = PROBE_BUILD_FAILED;
		out->first_error = b.first_error;
		out->log = b.log;
		b.first_error = b.log = NULL;
	}
	while (out->ok) {
		if (measure_load(m, commit, &s))
			goto out;
		if (s.nr >= want)
			break;
		if (measure_tries_spent(tries++, want, 1)) {
			out->outcome = PROBE_WORKLOAD_ERROR;
			out->first_error = measure_no_sample_error();
			out->ok = 0;
			break;
		}
		if (m->progress)
			progress_phase(m->progress, "boot %zu/%u", s.nr + 1,
				       want);
		r = measure_boot(m, commit, out);
		if (r < 0)
			goto out;
	}
	ret = 0;
out:
	if (build) {
		build_facts_release(build);
		*build = b;
	} else {
		build_facts_release(&b);
	}
	sample_set_release(&s);
	return ret;
}

int measure_many(struct measure *m, const char *const *commits, size_t n,
		 unsigned boots, struct boot_facts *out)
{
	size_t *had = xcalloc(n + 1, sizeof(*had));
	struct build_facts *builds = xcalloc(n + 1, sizeof(*builds));
	struct boot_facts *facts = xcalloc(n + 1, sizeof(*facts));
	struct sample_set set = SAMPLE_SET_INIT;
	int ret;

	for (size_t i = 0; i < n; i++)
		if (!measure_load(m, commits[i], &set))
			had[i] = set.nr;
	ret = m->ops->measure_many(m->payload, commits, n, boots, builds,
				   facts);
	/* The boots the commits gained are the run's, as a boot's own are. */
	for (size_t i = 0; !ret && i < n; i++) {
		measure_stale(m, commits[i]);
		if (!measure_load(m, commits[i], &set) && set.nr > had[i])
			m->counts.boots += (unsigned)(set.nr - had[i]);
		if (builds[i].key[0])
			count_build(m, commits[i], &builds[i]);
	}
	for (size_t i = 0; i < n; i++) {
		build_facts_release(&builds[i]);
		if (out && !ret)
			out[i] = facts[i];
		else
			boot_facts_release(&facts[i]);
	}
	sample_set_release(&set);
	free(facts);
	free(builds);
	free(had);
	return ret ? -1 : 0;
}

size_t measure_repeated(struct measure *m, struct measure_boots **out)
{
	size_t n = 0;

	*out = xcalloc(m->nr_series + 1, sizeof(**out));
	for (size_t i = 0; i < m->nr_series; i++) {
		const struct measure_series *s = &m->series[i];
		if (s->stale || s->set.nr < 2)
			continue;
		(*out)[n++] = (struct measure_boots){s->commit, s->set.values,
						     s->set.nr};
	}
	return n;
}

/*
 * A good boot beside a probe that is still undecided, when the baseline
 * has not been refreshed for MEASURE_REFRESH boots (driver.h: drift).
 */
int measure_refresh_baseline(struct measure *m)
{
	struct boot_facts g = {0};
	int r;

	if (m->since_good < MEASURE_REFRESH)
		return 0;
	if (m->progress)
		progress_phase(m->progress, "baseline boot");
	r = measure_boot(m, m->good, &g);
	if (r > 0)
		measure_say(m, "warning: a boot of the good kernel failed: %s",
			    boot_facts_text(&g));
	boot_facts_release(&g);
	return r < 0 ? -1 : 0;
}

static uint64_t seed_of(const char *a, const char *b)
{
	return fnv1a(fnv1a(FNV1A_INIT, a, SIZE_MAX), b, SIZE_MAX);
}

void measure_pairs_push(struct measure_pairs *p, double pv, double cv,
			size_t p_at, size_t c_at)
{
	ALLOC_GROW(p->pv, p->n + 1, p->alloc_p);
	ALLOC_GROW(p->cv, p->n + 1, p->alloc_c);
	ALLOC_GROW(p->p_at, p->n + 1, p->alloc_p_at);
	ALLOC_GROW(p->c_at, p->n + 1, p->alloc_c_at);
	p->pv[p->n] = pv;
	p->cv[p->n] = cv;
	p->p_at[p->n] = p_at;
	p->c_at[p->n] = c_at;
	p->n++;
}

/*
 * One boot of `commit` for a pair: 0 with *value its figure and *at its
 * place among the commit's boots, 1 when it failed or stored nothing
 * usable (f says how), -1 to stop.
 */
static int pair_boot(struct measure *m, const char *commit, double *value,
		     size_t *at, struct boot_facts *f)
{
	struct sample_set s = SAMPLE_SET_INIT;
	size_t had;
	int r;

	if (measure_load(m, commit, &s))
		return -1;
	had = s.nr;
	r = measure_boot(m, commit, f);
	if (!r && !measure_load(m, commit, &s) && s.nr > had) {
		*value = s.values[s.nr - 1];
		*at = s.nr - 1;
	} else if (!r) {
		r = 1;
	}
	sample_set_release(&s);
	return r;
}

/* One more pair, in the alternation's order: 0, 1 failed, -1 stop. */
static int take_pair(struct measure *m, const char *culprit,
		     struct measure_pairs *p, struct stats_rng *rng,
		     struct boot_facts *f)
{
	double pv = 0, cv = 0;
	size_t p_at = 0, c_at = 0;
	int parent_first, r;

	parent_first = p->n ? p->last_order : stats_rng_uniform(rng) < 0.5;
	p->last_order = parent_first;
	for (int k = 0; k < 2; k++) {
		int is_parent = k == 0 ? parent_first : !parent_first;
		if (m->progress)
			progress_phase(m->progress, "pair %zu: %s %.12s",
				       p->n + 1, is_parent ? "parent" : "culprit",
				       is_parent ? p->parent : culprit);
		r = pair_boot(m, is_parent ? p->parent : culprit,
			      is_parent ? &pv : &cv, is_parent ? &p_at : &c_at,
			      f);
		if (r)
			return r;
	}
	measure_pairs_push(p, pv, cv, p_at, c_at);
	return 0;
}

/*
 * One pair more; a pair with a failed half is dropped and taken again, 3
 * at most. 0, 1 when boots kept failing (*fail says how), -1 to stop.
 */
static int next_pair(struct measure *m, const char *commit,
		     struct measure_pairs *p, struct stats_rng *rng,
		     struct boot_facts *fail)
{
	for (;;) {
		struct boot_facts f = {0};
		int r = take_pair(m, commit, p, rng, &f);

		if (r > 0 && ++p->failed >= 3) {
			boot_facts_release(fail);
			*fail = f;
			return 1;
		}
		boot_facts_release(&f);
		if (r <= 0)
			return r;
	}
}

/*
 * The stored boots of both commits of `p`, and for pairs not yet begun
 * the order take_pair draws for a first pair, from the same seed. 0, or
 * -1 to stop (both sets released).
 */
static int pairs_load(struct measure *m, const char *commit,
		      struct measure_pairs *p, struct sample_set *ps,
		      struct sample_set *cs)
{
	struct stats_rng rng = STATS_RNG_INIT(seed_of(commit, p->parent));

	if (measure_load(m, p->parent, ps) || measure_load(m, commit, cs)) {
		sample_set_release(ps);
		sample_set_release(cs);
		return -1;
	}
	if (!p->n)
		p->last_order = stats_rng_uniform(&rng) < 0.5;
	return 0;
}

int measure_pairs_stored(struct measure *m, const char *commit,
			 struct measure_pairs *p, size_t from, size_t n)
{
	struct sample_set ps = SAMPLE_SET_INIT, cs = SAMPLE_SET_INIT;

	if (pairs_load(m, commit, p, &ps, &cs))
		return -1;
	while (p->n < n && p->parent_from + p->n < ps.nr && from + p->n < cs.nr)
		measure_pairs_push(p, ps.values[p->parent_from + p->n],
				   cs.values[from + p->n],
				   p->parent_from + p->n, from + p->n);
	sample_set_release(&ps);
	sample_set_release(&cs);
	return 0;
}

int measure_pairs_reread(struct measure *m, const char *commit,
			 struct measure_pairs *p, size_t from)
{
	struct sample_set ps = SAMPLE_SET_INIT, cs = SAMPLE_SET_INIT;
	size_t n = p->n, p_next = p->parent_from, c_next = from;

	/* Pushed again from the first, in the order of a first pair. */
	p->n = 0;
	if (pairs_load(m, commit, p, &ps, &cs)) {
		p->n = n;
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		size_t pa = p->p_at[k], ca = p->c_at[k];
		if (pa >= ps.nr || ca >= cs.nr)
			continue;
		measure_pairs_push(p, ps.values[pa], cs.values[ca], pa, ca);
		p_next = pa + 1 > p_next ? pa + 1 : p_next;
		c_next = ca + 1 > c_next ? ca + 1 : c_next;
	}
	/*
	 * After the last pair recorded, boots of the pair under way when the
	 * run stopped. One of each is that pair whole: the second of a
	 * pair is booted only after the first stored its figure, so a lone
	 * second boot cannot be there, and a first whose second failed would
	 * make two of its commit. A lone boot is half a pair and stays out
	 * of the pairs, its partner not booted again to complete it: a pair
	 * is read as one ratio because both boots had the machine's speed of
	 * the same minute, and a partner booted after the stop (minutes or
	 * hours later, on a host under other load) would put that change
	 * into the ratio. The pair is taken again whole; the lone boot stays
	 * the commit's evidence, as every stored boot is. More boots there
	 * (failed halves, a record not saved) cannot be told apart: none of
	 * them is a pair.
	 */
	if (ps.nr == p_next + 1 && cs.nr == c_next + 1)
		measure_pairs_push(p, ps.values[p_next], cs.values[c_next],
				   p_next, c_next);
	sample_set_release(&ps);
	sample_set_release(&cs);
	return 0;
}

int measure_pairs_take(struct measure *m, const char *commit,
		       struct measure_pairs *p, size_t n,
		       struct boot_facts *fail)
{
	struct stats_rng rng = STATS_RNG_INIT(seed_of(commit, p->parent));
	int r = 0;

	while (!r && p->n < n)
		r = next_pair(m, commit, p, &rng, fail);
	return r;
}

void measure_pairs_release(struct measure_pairs *p)
{
	free(p->pv);
	free(p->cv);
	free(p->p_at);
	free(p->c_at);
	memset(p, 0, sizeof(*p));
}
