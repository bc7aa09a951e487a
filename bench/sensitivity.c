/*
 * sensitivity.c: how small a slowdown iobisect finds, how often it blames
 * an unchanged commit, and how many boots it spends, by running whole
 * bisections through the harness's own driver (driver.c, linked from
 * libharness.a) over operations that resample measured boots.
 *
 * Input (a file or stdin): one line per sample, "<level> <boot> <bw_bytes>",
 * where <level> names an injected slowdown ("ra128", "ra64", ...; the first
 * level met, or the one given with -b, is the baseline), <boot> identifies
 * the boot within the level and <bw_bytes> is one sample in bytes/s. Each
 * boot is reduced to the median of its samples, as the results store does:
 * boots are the unit of evidence. Without a file, -g PCT makes synthetic
 * levels instead: log-normal boots with PCT% noise at the drops of -l.
 * With a file, -l adds a level per drop: the baseline's own boots scaled.
 *
 * For each level, each trial is one bisection of a linear range of -r
 * commits (16) whose culprit sits at a position drawn per trial: commits
 * before it (and the good endpoint) boot from the baseline's pool, the
 * culprit and later ones (and the bad endpoint) from the level's pool,
 * each boot drawn with replacement. The driver does everything else as it
 * does for `iobisect bisect`: endpoints, steps, top-up, verdicts, the
 * baseline refresh; the job's settings are the demo job's unless -t, -M,
 * -c say otherwise.
 *
 * The machine (-m RATE,OFFSET,HOLD): the pools describe a kernel's boots
 * on a machine that keeps one speed; the development machine has a second,
 * slower mode (a boot or several minutes 25-35% below, whatever kernel
 * runs). With -m, every drawn boot is multiplied by the machine's speed at
 * that moment: from its normal mode it enters a mode OFFSET% away with
 * probability RATE per boot, and leaves it with probability 1 / HOLD per
 * boot (a geometric stay of mean HOLD boots). The mode belongs to the
 * machine, not to a commit: it runs on in time order across every boot
 * of one bisection (endpoints, steps, baseline refreshes, top-up), and a
 * bisection starts in the slow mode as often as the machine is in it.
 * bench/fit-modes.py fits the three numbers to boots of one kernel.
 *
 * Per level it reports: the culprit found (right commit, at the job's
 * confidence), a wrong commit named, the share of wrong ones among the
 * bisections that named a culprit (exit 0: what a user who trusts the exit
 * code is told wrongly), the step verdicts on slowed and on unchanged
 * commits (bad, good, skipped), and the boots per probed commit. The
 * baseline level against itself measures false blame: any culprit named
 * there blames a commit that changed nothing.
 *
 * usage: sensitivity [-b LEVEL] [-n TRIALS] [-t auto|P%|MB/s] [-M MAX]
 *                    [-c CONFIDENCE] [-r COMMITS] [-s SEED]
 *                    [-m RATE,OFFSET,HOLD] [-W PCT]
 *                    [-g NOISE_PCT [-l DROPS]] [-k wall|virtual] [-v] [-R]
 *                    [FILE]
 * (-k: the noise model's priors of that clock, noise.h)
 * (-W: the slowed kernel waits on the device, as on the virtual clock: the
 *  machine's mode (-m) moves its boots alone, and they spread PCT% more;
 *  the unchanged kernel computes and holds still)
 * (-v prints the bisect log of every bisection that named a wrong commit)
 * (-R prints where each level's boots went: endpoints, steps, the rest)
 */
#include "driver.h"
#include "job_keys.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_COMMITS 64
#define MAX_BOOTS 512

struct level {
	char *name;
	double *boots; /* per-boot medians, bytes/s */
	size_t nr;
	/* samples while reading, grouped by boot id */
	char **boot_ids;
	double **samples;
	size_t *nr_samples;
	size_t nr_ids;
};

struct pool {
	struct level *levels;
	size_t nr;
};

static struct level *pool_level(struct pool *p, const char *name)
{
	for (size_t i = 0; i < p->nr; i++)
		if (!strcmp(p->levels[i].name, name))
			return &p->levels[i];
	p->levels = xrealloc(p->levels, (p->nr + 1) * sizeof(*p->levels));
	memset(&p->levels[p->nr], 0, sizeof(p->levels[p->nr]));
	p->levels[p->nr].name = xstrdup(name);
	return &p->levels[p->nr++];
}

static void level_add(struct level *l, const char *boot, double v)
{
	size_t i;

	for (i = 0; i < l->nr_ids; i++)
		if (!strcmp(l->boot_ids[i], boot))
			break;
	if (i == l->nr_ids) {
		l->boot_ids = xrealloc(l->boot_ids, (i + 1) * sizeof(char *));
		l->samples = xrealloc(l->samples, (i + 1) * sizeof(double *));
		l->nr_samples = xrealloc(l->nr_samples, (i + 1) * sizeof(size_t));
		l->boot_ids[i] = xstrdup(boot);
		l->samples[i] = NULL;
		l->nr_samples[i] = 0;
		l->nr_ids++;
	}
	l->samples[i] = xrealloc(l->samples[i],
				 (l->nr_samples[i] + 1) * sizeof(double));
	l->samples[i][l->nr_samples[i]++] = v;
}

static int pool_read(struct pool *p, FILE *f, const char *path)
{
	char name[128], boot[128];
	double v;
	int line = 0, c;

	for (;;) {
		line++;
		c = fscanf(f, "%127s %127s %lf", name, boot, &v);
		if (c == EOF)
			break;
		if (c != 3 || !(v > 0))
			return error("%s:%d: expected '<level> <boot> <bw_bytes>'",
				     path, line);
		level_add(pool_level(p, name), boot, v);
	}
	for (size_t i = 0; i < p->nr; i++) {
		struct level *l = &p->levels[i];
		l->boots = xcalloc(l->nr_ids, sizeof(double));
		for (size_t b = 0; b < l->nr_ids; b++)
			l->boots[b] = stats_median(l->samples[b],
						   l->nr_samples[b]);
		l->nr = l->nr_ids;
	}
	return 0;
}

/* Synthetic levels: 400 log-normal boots each, 200 MB/s less the drop. */
static void pool_synthetic(struct pool *p, double noise_pct, const char *drops,
			   uint64_t seed)
{
	struct stats_rng rng = STATS_RNG_INIT(seed ^ 0x5eed);
	struct strvec dv = STRVEC_INIT;

	strvec_split(&dv, drops, ',');
	for (size_t k = 0; k < dv.nr; k++) {
		char *name = xstrfmt("drop%s", dv.v[k]);
		struct level *l = pool_level(p, name);
		double mb = 200 * (1 - atof(dv.v[k]) / 100);
		free(name);
		l->nr = 400;
		l->boots = xcalloc(l->nr, sizeof(double));
		for (size_t b = 0; b < l->nr; b++)
			l->boots[b] = mb * 1e6 *
				      exp(noise_pct / 100 *
					  stats_rng_normal(&rng));
	}
	strvec_clear(&dv);
}

/*
 * With a file and -l: each drop a level of the baseline's own measured
 * boots, scaled, so a slowed commit spreads as the baseline's kernel did
 * and only the level moves (p->levels may move).
 */
static void pool_scaled(struct pool *p, size_t base, const char *drops)
{
	struct strvec dv = STRVEC_INIT;
	char *name0 = xstrdup(p->levels[base].name);

	strvec_split(&dv, drops, ',');
	for (size_t k = 0; k < dv.nr; k++) {
		char *name = xstrfmt("%s-%s%%", name0, dv.v[k]);
		struct level *l = pool_level(p, name);
		const struct level *b = &p->levels[base];
		double f = 1 - atof(dv.v[k]) / 100;
		free(name);
		l->nr = b->nr;
		l->boots = xcalloc(l->nr, sizeof(double));
		for (size_t i = 0; i < l->nr; i++)
			l->boots[i] = b->boots[i] * f;
	}
	strvec_clear(&dv);
	free(name0);
}

/*
 * The machine's speed over time: a two-state Markov chain on boots. Each
 * boot first moves the state (normal to slow with probability `rate`, slow
 * to normal with 1 / `hold`), then is multiplied by the state's factor.
 */
struct machine {
	double rate;   /* entries into the slow mode per normal boot */
	double factor; /* the slow mode's speed against the normal one */
	double hold;   /* mean boots in the slow mode */
	int slow;      /* the state: in the slow mode */
};

static int machine_parse(struct machine *m, const char *arg)
{
	double offset;
	char extra;

	memset(m, 0, sizeof(*m));
	if (sscanf(arg, "%lf,%lf,%lf%c", &m->rate, &offset, &m->hold,
		   &extra) != 3 ||
	    !(m->rate >= 0 && m->rate <= 1) || !(offset > -100) ||
	    !(offset < 1000) || !(m->hold >= 1))
		return error("bad machine model '%s' (RATE,OFFSET,HOLD: 0 <= "
			     "RATE <= 1, OFFSET a percentage above -100, "
			     "HOLD >= 1 boots)",
			     arg);
	m->factor = 1 + offset / 100;
	return 0;
}

/*
 * A bisection starts where the machine happens to be: in the slow mode
 * with the chain's stationary probability rate / (rate + 1 / hold).
 */
static void machine_start(struct machine *m, struct stats_rng *rng)
{
	double leave = 1 / m->hold;

	m->slow = m->rate > 0 &&
		  stats_rng_uniform(rng) < m->rate / (m->rate + leave);
}

/* The factor of the next boot; a machine with rate 0 stays at 1. */
static double machine_boot(struct machine *m, struct stats_rng *rng)
{
	if (m->rate <= 0)
		return 1;
	if (m->slow)
		m->slow = !(stats_rng_uniform(rng) < 1 / m->hold);
	else
		m->slow = stats_rng_uniform(rng) < m->rate;
	return m->slow ? m->factor : 1;
}

static int verbose; /* -v: the log of every bisection that named wrong */
static int by_role; /* -R: where the boots went, per bisection */
static double waits_pct; /* -W: the slowed kernel's own extra spread */

/* One trial: a range whose commits boot from one of two pools. */
struct trial {
	const struct level *fast, *slow;
	size_t n;      /* commits in the range */
	int culprit;   /* first slow position (1..n; n + 1: none) */
	struct commit_graph g;
	char good[41];
	struct stats_rng *rng;
	struct machine machine; /* runs on across the trial's boots */
	double values[MAX_COMMITS + 1][MAX_BOOTS];
	size_t nr[MAX_COMMITS + 1];
	unsigned boots, probed;
};

static int position(const struct trial *t, const char *commit)
{
	if (!strcmp(commit, t->good))
		return 0;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(commit, t->g.nodes[i].id))
			return (int)(t->n - i);
	return -1;
}

static int trial_build(void *payload, const char *commit,
		       struct build_facts *out)
{
	struct trial *t = payload;

	snprintf(out->key, sizeof(out->key), "%040x", position(t, commit));
	return 0;
}

static int trial_boot(void *payload, const char *commit,
		      struct boot_facts *out)
{
	struct trial *t = payload;
	int p = position(t, commit);
	const struct level *l = p >= t->culprit ? t->slow : t->fast;
	size_t i = (size_t)(stats_rng_uniform(t->rng) * (double)l->nr);

	if (p < 0 || t->nr[p] >= MAX_BOOTS)
		return error("trial: %s booted too often", commit);
	double speed = machine_boot(&t->machine, t->rng), v;

	if (!t->nr[p])
		t->probed++;
	v = l->boots[i < l->nr ? i : l->nr - 1];
	/*
	 * -W: only the slowed kernel waits on the device, so only its boots
	 * feel the machine's mode and spread the more; the other computes.
	 */
	if (waits_pct > 0)
		v *= p >= t->culprit ? speed * exp(waits_pct / 100 *
						   stats_rng_normal(t->rng))
				     : 1;
	else
		v *= speed;
	t->values[p][t->nr[p]++] = v;
	t->boots++;
	out->ok = 1;
	out->samples = 1;
	return 0;
}

static int trial_load(void *payload, const char *commit,
		      struct sample_set *out)
{
	struct trial *t = payload;
	int p = position(t, commit);

	if (p < 0)
		return error("trial: unknown commit %s", commit);
	sample_set_copy_values(out, t->values[p], t->nr[p]);
	return 0;
}

static const struct measure_ops trial_ops = {
	.build = trial_build,
	.boot = trial_boot,
	.load = trial_load,
};

static void trial_init(struct trial *t, size_t n, int culprit,
		       const struct level *fast, const struct level *slow,
		       const struct machine *m, struct stats_rng *rng)
{
	memset(t, 0, sizeof(*t));
	t->n = n;
	t->culprit = culprit;
	t->fast = fast;
	t->slow = slow;
	t->rng = rng;
	t->machine = *m;
	machine_start(&t->machine, rng);
	snprintf(t->good, sizeof(t->good), "%040x", 0xffff);
	graph_linear(&t->g, n);
}

/* What the trials of one level came to. */
struct tally {
	long trials, found, wrong, not_separated, inconclusive, other;
	/* step verdicts: on slowed and on unchanged commits */
	long slow_bad, slow_good, slow_skip, fast_bad, fast_good, fast_skip;
	long boots, probed;
	long role_boots[2]; /* the endpoints' and the steps' */
};

static void count_steps(struct tally *y, const struct trial *t,
			const struct bisect_state *st)
{
	for (size_t i = 0; i < st->nr_probes; i++) {
		const struct state_probe *p = &st->probes[i];
		int pos = position(t, p->commit), slowed;
		if (p->role == ROLE_GOOD || p->role == ROLE_BAD)
			y->role_boots[0] += p->boots;
		else if (p->role == ROLE_STEP)
			y->role_boots[1] += p->boots;
		if (p->role != ROLE_STEP || p->mark == BISECT_UNTESTED ||
		    pos < 0)
			continue;
		slowed = pos >= t->culprit;
		if (p->mark == BISECT_BAD)
			slowed ? y->slow_bad++ : y->fast_bad++;
		else if (p->mark == BISECT_GOOD)
			slowed ? y->slow_good++ : y->fast_good++;
		else
			slowed ? y->slow_skip++ : y->fast_skip++;
	}
}


static void run_level(struct tally *y, const struct job *job,
		      const struct machine *m, const struct level *fast,
		      const struct level *slow, size_t commits, long trials,
		      uint64_t seed)
{
	struct stats_rng rng = STATS_RNG_INIT(seed);
	struct strbuf quiet = STRBUF_INIT;

	memset(y, 0, sizeof(*y));
	error_capture(&quiet);
	for (long k = 0; k < trials; k++) {
		struct trial *t = xmalloc(sizeof(*t));
		struct bisect_state st;
		struct driver d;
		struct driver_result res;
		/* Anywhere but the bad end: at least one step to take. */
		int culprit = 1 + (int)(stats_rng_uniform(&rng) *
					(double)(commits - 1));
		enum driver_status s;

		trial_init(t, commits, fast == slow ? (int)commits + 1 : culprit,
			   fast, slow, m, &rng);
		state_init(&st);
		memcpy(st.good, t->good, 41);
		memcpy(st.bad, t->g.nodes[0].id, 41);
		driver_init(&d, job, &trial_ops, t, &t->g, &st);
		s = driver_bisect(&d, &res);
		y->trials++;
		if (s == DRIVER_CULPRIT) {
			if (position(t, res.culprit) == t->culprit) {
				y->found++;
			} else {
				y->wrong++;
				if (verbose) {
					struct strbuf sb = STRBUF_INIT;
					state_log(&st, &sb);
					printf("culprit %d, named %d\n%s",
					       t->culprit,
					       position(t, res.culprit), sb.buf);
					strbuf_release(&sb);
				}
			}
		} else if (s == DRIVER_NOT_SEPARATED) {
			y->not_separated++;
		} else if (s == DRIVER_INCONCLUSIVE) {
			y->inconclusive++;
		} else {
			y->other++;
		}
		count_steps(y, t, &st);
		y->boots += t->boots;
		y->probed += t->probed;
		strbuf_reset(&quiet);
		driver_result_release(&res);
		driver_release(&d);
		state_release(&st);
		graph_release(&t->g);
		free(t);
	}
	error_capture(NULL);
	strbuf_release(&quiet);
}

/* As the job's "threshold": auto, "25%" or "50MB/s" (a drop in MB/s). */
static int parse_threshold(const char *arg, struct threshold *t)
{
	size_t n = strlen(arg);
	char *num;
	int bad;

	if (!strcmp(arg, "auto")) {
		t->kind = THRESHOLD_AUTO;
		t->value = 0;
		return 0;
	}
	if (n > 1 && arg[n - 1] == '%') {
		t->kind = THRESHOLD_PERCENT;
		num = xstrndup(arg, n - 1);
	} else if (n > 4 && !strcmp(arg + n - 4, "MB/s")) {
		t->kind = THRESHOLD_MBPS;
		num = xstrndup(arg, n - 4);
	} else {
		num = NULL;
	}
	bad = !num || parse_decimal(num, &t->value) || !(t->value > 0) ||
	      (t->kind == THRESHOLD_PERCENT && !(t->value < 100));
	free(num);
	if (bad)
		return error("bad threshold '%s' (auto, a percentage or MB/s)",
			     arg);
	return 0;
}

static const char *threshold_name(const struct threshold *t)
{
	static char buf[64];

	if (t->kind == THRESHOLD_AUTO)
		return "auto";
	snprintf(buf, sizeof(buf), "%g%s", t->value,
		 t->kind == THRESHOLD_PERCENT ? "%" : "MB/s");
	return buf;
}

static double pct(long a, long b)
{
	return b ? 100.0 * (double)a / (double)b : NAN;
}

int main(int argc, char **argv)
{
	struct pool pool = { 0 };
	struct machine machine = { 0 };
	struct job job;
	const char *base_name = NULL, *path = NULL, *drops = "0,3,5,7,10,25,85";
	long trials = 2000, commits = 16;
	double noise = 0;
	int opt, drops_set = 0;
	uint64_t seed = 7;
	const struct level *good;

	memset(&job, 0, sizeof(job));
	job.runs_min = 1;
	job.runs_max = 8;
	job.threshold.kind = THRESHOLD_AUTO;
	job.confidence = job_key_default_num("", "confidence");
	job.bisect_type = BISECT_PERF;
	while ((opt = getopt(argc, argv, "b:n:t:M:c:r:s:m:g:l:k:vRW:")) != -1) {
		switch (opt) {
		case 'v': verbose = 1; break;
		case 'R': by_role = 1; break;
		case 'W': waits_pct = atof(optarg); break;
		case 'b': base_name = optarg; break;
		case 'n': trials = atol(optarg); break;
		case 't':
			if (parse_threshold(optarg, &job.threshold))
				return 2;
			break;
		case 'M': job.runs_max = atoi(optarg); break;
		case 'c': job.confidence = atof(optarg); break;
		case 'r': commits = atol(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'm':
			if (machine_parse(&machine, optarg))
				return 2;
			break;
		case 'g': noise = atof(optarg); break;
		case 'l': drops = optarg; drops_set = 1; break;
		case 'k':
			if (strcmp(optarg, "wall") && strcmp(optarg, "virtual"))
				die("-k: '%s' is not wall or virtual", optarg);
			job.machine.clock = optarg;
			break;
		default:
			fprintf(stderr, "usage: sensitivity [-b LEVEL] [-n TRIALS] "
					"[-t auto|P%%|MB/s] [-M MAX] "
					"[-c CONFIDENCE] [-r COMMITS] [-s SEED] "
					"[-m RATE,OFFSET,HOLD] [-W PCT] "
					"[-g NOISE_PCT [-l DROPS]] "
					"[-k wall|virtual] [-v] [-R] [FILE]\n");
			return 2;
		}
	}
	if (trials < 1 || job.runs_max < 1 || job.runs_max > 32 ||
	    commits < 2 || commits > MAX_COMMITS ||
	    !(job.confidence >= 0.5 && job.confidence < 1))
		die("bad -n, -M, -r or -c");
	if (optind < argc)
		path = argv[optind];
	if (noise > 0) {
		pool_synthetic(&pool, noise, drops, seed);
	} else {
		FILE *f = stdin;
		if (path && strcmp(path, "-") && !(f = fopen(path, "r")))
			die("cannot open '%s': %s", path, strerror(errno));
		if (pool_read(&pool, f, path ? path : "-"))
			return 1;
		if (f != stdin)
			fclose(f);
	}
	if (!pool.nr)
		die("no samples in '%s'", path ? path : "-");
	good = &pool.levels[0];
	if (base_name) {
		good = NULL;
		for (size_t i = 0; i < pool.nr; i++)
			if (!strcmp(pool.levels[i].name, base_name))
				good = &pool.levels[i];
		if (!good)
			die("no level '%s'", base_name);
	}
	if (noise <= 0 && drops_set) {
		size_t at = (size_t)(good - pool.levels);
		pool_scaled(&pool, at, drops);
		good = &pool.levels[at];
	}

	printf("# %ld bisections per level over %ld commits, runs.max %d, "
	       "threshold %s, confidence %.2f, %s clock's priors; baseline "
	       "%s: %zu boots, %.1f MB/s, %.2f%% stddev\n",
	       trials, commits, job.runs_max, threshold_name(&job.threshold),
	       job.confidence,
	       job.machine.clock ? job.machine.clock : "wall", good->name,
	       good->nr,
	       stats_median(good->boots, good->nr) / 1e6,
	       stats_pct_stddev(good->boots, good->nr));
	if (machine.rate > 0)
		printf("# machine: a mode %+.1f%% entered at %.3f per boot, "
		       "held %.1f boots on average (%.1f%% of boots in it)\n",
		       100 * (machine.factor - 1), machine.rate, machine.hold,
		       100 * machine.rate / (machine.rate + 1 / machine.hold));
	else
		printf("# machine: one mode\n");
	printf("%-9s %7s | %6s %6s %7s %6s %6s | %7s %7s %7s | %7s %7s "
	       "%7s | %6s\n",
	       "level", "drop%", "found", "wrong", "wrong|0", "notsep",
	       "incon", "slowBAD", "slowGD", "slowSK", "fastGD", "fastBAD",
	       "fastSK", "boots");
	for (size_t li = 0; li < pool.nr; li++) {
		const struct level *l = &pool.levels[li];
		double gm = stats_median(good->boots, good->nr);
		double lm = stats_median(l->boots, l->nr);
		struct tally y;
		long slow = 0, fast = 0;

		run_level(&y, &job, &machine, good, l, (size_t)commits, trials,
			  seed + li);
		slow = y.slow_bad + y.slow_good + y.slow_skip;
		fast = y.fast_bad + y.fast_good + y.fast_skip;
		printf("%-9s %+7.1f | %5.1f%% %5.2f%% %6.2f%% %5.1f%% %5.1f%% | "
		       "%6.1f%% %6.2f%% %6.1f%% | %6.1f%% %6.2f%% %6.1f%% | "
		       "%6.2f\n",
		       l->name, 100 * (lm - gm) / gm, pct(y.found, y.trials),
		       pct(y.wrong, y.trials),
		       pct(y.wrong, y.found + y.wrong),
		       pct(y.not_separated, y.trials),
		       pct(y.inconclusive, y.trials), pct(y.slow_bad, slow),
		       pct(y.slow_good, slow), pct(y.slow_skip, slow),
		       pct(y.fast_good, fast), pct(y.fast_bad, fast),
		       pct(y.fast_skip, fast),
		       y.probed ? (double)y.boots / (double)y.probed : 0);
		if (by_role)
			printf("%-9s boots a bisection: %.2f: endpoints %.2f, "
			       "steps %.2f, pairs and baseline %.2f\n",
			       "", (double)y.boots / (double)y.trials,
			       (double)y.role_boots[0] / (double)y.trials,
			       (double)y.role_boots[1] / (double)y.trials,
			       (double)(y.boots - y.role_boots[0] -
					y.role_boots[1]) /
				       (double)y.trials);
		fflush(stdout);
	}
	printf("# found: the right culprit named at the job's confidence; "
	       "wrong: another commit named (for the baseline level against "
	       "itself, any culprit: false blame);\n"
	       "# wrong|0: wrong among the bisections that named a culprit "
	       "(exit 0), to hold to 1 - confidence;\n"
	       "# notsep: the endpoints were not shown apart; incon: "
	       "inconclusive (skips, or the culprit below the confidence "
	       "target);\n"
	       "# slowBAD/slowGD/slowSK: step verdicts on slowed commits "
	       "(bad, good, skipped); fastGD/fastBAD/fastSK: on unchanged "
	       "commits;\n"
	       "# boots: boots per probed commit, endpoints, steps, top-up "
	       "and interleaved baseline boots included\n");
	return 0;
}
