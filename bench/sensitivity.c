/*
 * sensitivity.c: how small a slowdown iobisect's verdicts see, and how
 * often they blame an unchanged commit, by resampling pooled boots.
 *
 * Input (stdin or a file): one line per sample, "<level> <boot> <bw_bytes>",
 * where <level> names an injected slowdown ("ra128", "ra64", ...; the first
 * level met, or the one given with -b, is the baseline), <boot> identifies
 * the boot within the level and <bw_bytes> is one sample in bytes/s. Each
 * boot is reduced to the median of its samples, as the store does
 * (results_load_samples): boots are the unit of evidence.
 *
 * For each level, many trials replay what a bisection does (probe.c), with
 * boots drawn with replacement from the pools: the good endpoint gets
 * runs_max boots and the bad one (the slowed level) runs_min, then
 * verdict_endpoints() decides whether they are separated, adding one boot of
 * each while undecided (good up to twice runs_max); then a slowed candidate
 * and an unchanged one are probed as probe_commit() does: one interleaved
 * good boot before every candidate boot, the verdict from runs_min
 * candidate boots on, against the most recent runs_max good boots, until
 * stats_verdict() decides or runs_max is reached (skip). The statistics
 * are the harness's own (libharness.a: stats_verdict, verdict_endpoints,
 * stats_median), with probe.c's alpha of 0.02 and the job's threshold.
 *
 * "Right" for a level is: endpoints separated, the slowed candidate BAD and
 * the unchanged one GOOD. With the baseline level as the "slowed" one
 * (no slowdown), any BAD verdict is a false blame.
 *
 * usage: sensitivity [-b LEVEL] [-n TRIALS] [-t auto|P%] [-m MIN] [-M MAX]
 *                    [-s SEED] [FILE]
 */
#include "stats.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SENS_ALPHA 0.02 /* probe.c's PROBE_ALPHA */

/*
 * Verdict calls that fail (an auto threshold whose bad endpoint is not
 * slower than the current good window): probe_commit() would stop the
 * bisection with that error. Counted, and their messages kept quiet.
 */
static long sens_errors;
static struct strbuf sens_errbuf = STRBUF_INIT;

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

static double draw(const struct level *l, struct stats_rng *rng)
{
	size_t i = (size_t)(stats_rng_uniform(rng) * (double)l->nr);
	return l->boots[i < l->nr ? i : l->nr - 1];
}

struct sim {
	const struct level *good, *bad;
	struct threshold threshold;
	int runs_min, runs_max;
	/* state of one trial */
	double base[256], badv[256];
	size_t n_base, n_bad;
};

static void sim_input(struct sim *s, struct verdict_input *in,
		      const double *base, size_t n_base, const double *cand,
		      size_t n_cand)
{
	memset(in, 0, sizeof(*in));
	in->base = base;
	in->n_base = n_base;
	in->cand = cand;
	in->n_cand = n_cand;
	in->bad = s->badv;
	in->n_bad = s->n_bad;
	in->threshold = s->threshold;
	in->runs_min = s->runs_min;
	in->runs_max = s->runs_max;
	in->alpha = SENS_ALPHA;
}

/* probe_endpoints(): 1 separated, 0 not, -1 error. */
static int sim_endpoints(struct sim *s, struct stats_rng *rng)
{
	size_t cap = 2 * (size_t)s->runs_max;

	s->n_base = s->n_bad = 0;
	while (s->n_base < (size_t)s->runs_max)
		s->base[s->n_base++] = draw(s->good, rng);
	while (s->n_bad < (size_t)s->runs_min)
		s->badv[s->n_bad++] = draw(s->bad, rng);
	for (;;) {
		struct verdict_input in;
		struct verdict v;

		sim_input(s, &in, s->base, s->n_base, NULL, 0);
		if (verdict_endpoints(&v, &in)) {
			/*
			 * auto threshold, bad not slower than good: the
			 * bisection stops before any probe (exit 2).
			 */
			strbuf_reset(&sens_errbuf);
			return 0;
		}
		if (v.kind == VERDICT_BAD)
			return 1;
		if (v.kind == VERDICT_GOOD || s->n_bad >= (size_t)s->runs_max)
			return 0;
		if (s->n_base < cap)
			s->base[s->n_base++] = draw(s->good, rng);
		s->badv[s->n_bad++] = draw(s->bad, rng);
	}
}

/*
 * probe_commit(): the verdict kind (UNDECIDED: skipped at runs_max) and
 * the boots it took, the candidate's and the interleaved good ones.
 */
static enum verdict_kind sim_probe(struct sim *s, const struct level *cand_l,
				   struct stats_rng *rng, int *boots)
{
	double cand[64];
	size_t n_cand = 0;

	*boots = 0;
	for (;;) {
		if (n_cand >= (size_t)s->runs_min) {
			struct verdict_input in;
			struct verdict v;
			size_t w = (size_t)s->runs_max;
			const double *base = s->base;
			size_t nb = s->n_base;

			if (nb > w) {
				base += nb - w;
				nb = w;
			}
			sim_input(s, &in, base, nb, cand, n_cand);
			if (stats_verdict(&v, &in)) {
				sens_errors++;
				strbuf_reset(&sens_errbuf);
				return VERDICT_UNDECIDED;
			}
			switch (verdict_more_boots(&v, s->runs_max)) {
			case VERDICT_NEXT_DONE:
				return v.kind;
			case VERDICT_NEXT_SKIP:
				return VERDICT_UNDECIDED;
			case VERDICT_NEXT_BOOT:
				break;
			}
		}
		if (n_cand >= (size_t)s->runs_max + 2 || s->n_base >= 250)
			return VERDICT_UNDECIDED;
		s->base[s->n_base++] = draw(s->good, rng);
		cand[n_cand++] = draw(cand_l, rng);
		*boots += 2;
	}
}

static int parse_threshold(const char *arg, struct threshold *t)
{
	char *end;

	if (!strcmp(arg, "auto")) {
		t->kind = THRESHOLD_AUTO;
		t->value = 0;
		return 0;
	}
	t->kind = THRESHOLD_PERCENT;
	t->value = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%")) || !(t->value > 0))
		return error("bad threshold '%s' (auto or a percentage)", arg);
	return 0;
}

int main(int argc, char **argv)
{
	struct pool pool = { 0 };
	struct threshold threshold = { THRESHOLD_AUTO, 0 };
	const char *base_name = NULL, *path = "-";
	long trials = 4000;
	int runs_min = 3, runs_max = 8, opt;
	uint64_t seed = 7;
	const struct level *good;
	FILE *f = stdin;

	while ((opt = getopt(argc, argv, "b:n:t:m:M:s:")) != -1) {
		switch (opt) {
		case 'b': base_name = optarg; break;
		case 'n': trials = atol(optarg); break;
		case 't':
			if (parse_threshold(optarg, &threshold))
				return 2;
			break;
		case 'm': runs_min = atoi(optarg); break;
		case 'M': runs_max = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: sensitivity [-b LEVEL] [-n TRIALS] "
					"[-t auto|P%%] [-m MIN] [-M MAX] [-s SEED] [FILE]\n");
			return 2;
		}
	}
	if (trials < 1 || runs_min < 1 || runs_max < runs_min || runs_max > 32)
		die("bad -n, -m or -M");
	if (optind < argc) {
		path = argv[optind];
		if (!(f = fopen(path, "r")))
			die("cannot open '%s': %s", path, strerror(errno));
	}
	error_capture(&sens_errbuf);
	if (pool_read(&pool, f, path))
		return 1;
	if (f != stdin)
		fclose(f);
	if (!pool.nr)
		die("no samples in '%s'", path);
	good = &pool.levels[0];
	if (base_name) {
		good = NULL;
		for (size_t i = 0; i < pool.nr; i++)
			if (!strcmp(pool.levels[i].name, base_name))
				good = &pool.levels[i];
		if (!good)
			die("no level '%s' in '%s'", base_name, path);
	}

	printf("# %ld trials per level, runs %d..%d, alpha %.2f, threshold %s\n",
	       trials, runs_min, runs_max, SENS_ALPHA,
	       threshold.kind == THRESHOLD_AUTO ? "auto" : "percent");
	printf("%-10s %5s %9s %8s %7s | %9s %9s %9s %9s | %8s %8s %8s %8s %6s | %7s\n",
	       "level", "boots", "MB/s", "%stddev", "drop%", "separated",
	       "slow=BAD", "fast=GOOD", "right", "boots/s", "boots/f",
	       "falseBAD", "slowGOOD", "errors", "1boot");
	for (size_t li = 0; li < pool.nr; li++) {
		const struct level *l = &pool.levels[li];
		struct stats_rng rng = STATS_RNG_INIT(seed + li);
		struct sim s = { 0 };
		long errors0 = sens_errors, script_right = 0;
		/*
		 * The hand-written script: one boot per commit against a
		 * fixed number, put halfway between the two medians (a
		 * user who knows both figures).
		 */
		double script_line;
		long sep = 0, slow_bad = 0, fast_good = 0, right = 0,
		     fast_bad = 0, slow_good = 0, boots_slow = 0, boots_fast = 0;
		double gm = stats_median(good->boots, good->nr);
		double lm = stats_median(l->boots, l->nr);

		script_line = (stats_median(good->boots, good->nr) +
			       stats_median(l->boots, l->nr)) / 2;
		s.good = good;
		s.bad = l;
		s.threshold = threshold;
		s.runs_min = runs_min;
		s.runs_max = runs_max;
		for (long t = 0; t < trials; t++) {
			int b1 = 0, b2 = 0, is_sep, ok;
			enum verdict_kind ks = VERDICT_UNDECIDED, kf;

			/*
			 * With a fixed threshold there is no endpoint test
			 * to pass; count the probes only.
			 */
			script_right += draw(l, &rng) < script_line &&
					draw(good, &rng) >= script_line;
			is_sep = sim_endpoints(&s, &rng);
			sep += is_sep;
			if (threshold.kind == THRESHOLD_AUTO && !is_sep) {
				/* no bisection: nothing is probed */
				boots_slow += 0;
				continue;
			}
			ks = sim_probe(&s, l, &rng, &b1);
			kf = sim_probe(&s, good, &rng, &b2);
			slow_bad += ks == VERDICT_BAD;
			slow_good += ks == VERDICT_GOOD;
			fast_good += kf == VERDICT_GOOD;
			fast_bad += kf == VERDICT_BAD;
			boots_slow += b1;
			boots_fast += b2;
			ok = is_sep && ks == VERDICT_BAD && kf == VERDICT_GOOD;
			right += ok;
		}
		{
			long probed = threshold.kind == THRESHOLD_AUTO ? sep
								       : trials;
			printf("%-10s %5zu %9.1f %8.2f %7.1f | %8.1f%% %8.1f%% "
			       "%8.1f%% %8.1f%% | %8.2f %8.2f %7.2f%% %7.2f%% %6ld | %6.1f%%\n",
			       l->name, l->nr, lm / 1e6,
			       stats_pct_stddev(l->boots, l->nr),
			       100.0 * (lm - gm) / gm, 100.0 * sep / trials,
			       100.0 * slow_bad / trials,
			       100.0 * fast_good / trials,
			       100.0 * right / trials,
			       probed ? (double)boots_slow / probed : 0,
			       probed ? (double)boots_fast / probed : 0,
			       probed ? 100.0 * fast_bad / probed : 0,
			       probed ? 100.0 * slow_good / probed : 0,
			       sens_errors - errors0,
			       100.0 * script_right / trials);
		}
	}
	printf("# separated: endpoint test says bad is slower; slow=BAD: the "
	       "slowed candidate marked bad (counted over all trials);\n"
	       "# fast=GOOD: an unchanged candidate marked good; right: all "
	       "three; boots/s, boots/f: boots per probe, slowed and unchanged\n"
	       "# (candidate + interleaved good); falseBAD: unchanged candidate "
	       "marked bad, per probed trial; slowGOOD: the slowed candidate "
	       "marked good (a missed regression), per probed trial;\n"
	       "# errors: probes whose verdict failed (auto threshold, bad "
	       "endpoint not slower than the good window: the bisection "
	       "would stop);\n"
	       "# 1boot: a one-boot-per-commit script with a fixed line "
	       "halfway between the medians gets both a slowed and an "
	       "unchanged commit right\n");
	return 0;
}
