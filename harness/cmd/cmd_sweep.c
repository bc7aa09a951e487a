/*
 * cmd_sweep.c: `iobisect sweep JOB --range A..B [options]` (the options:
 * its table, `iobisect help sweep`). Measures a sample of the commits of
 * a range (--boots, 2 by default, each at the job's metric point, and
 * more beside a step still undecided), keeps
 * results/<job>/sweep-state.json up to date after every commit, finds the
 * change points of the series, and bisects each regression past the job's
 * threshold between the two tested commits around it (and with
 * --bisect-improvements each improvement, for the commit that made it
 * faster) as a derived job, through the same driver as `iobisect bisect`.
 *
 * The results store is the cache: a commit whose boots are stored with the
 * same build key, spec hash and machine is not measured again, so a rerun
 * (or a resumed, killed run) measures only what is missing.
 *
 * What is booted, the change points and their bisections are the
 * policy's (sweep_run.h); this file reads the command line, sets up the
 * job, the repository, the lock and the operations (here, or Slurm's),
 * and prints what the sweep found.
 *
 * Exit codes: 0 no regression, 1 regressions found (culprits named when
 * the bisections found them), 128 bad input or abort, 130 interrupted.
 */
#include "changepoint.h"
#include "clock.h"
#include "cmd.h"
#include "cmd_options.h"
#include "executor.h"
#include "job.h"
#include "measure.h"
#include "options.h"
#include "probe.h"
#include "progress.h"
#include "publish.h"
#include "repo.h"
#include "results.h"
#include "run.h"
#include "state_lock.h"
#include "stats.h"
#include "sweep.h"
#include "sweep_run.h"
#include "threshold.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum {
	EXIT_NO_REGRESSION = 0,
	EXIT_REGRESSION = 1,
};

#define SWEEP_SYNOPSIS "JOB --range A..B [options]"

static int usage(const struct opt *opts)
{
	opt_usage(stderr, "sweep", SWEEP_SYNOPSIS, opts);
	return EXIT_ABORT;
}

/* What `iobisect sweep` holds while it runs; the policy's in `run`. */
struct sweep_cmd {
	struct sweep_run run;
	struct job job;
	int job_loaded;
	const char *job_path;
	struct repo *repo;
	struct progress progress;
	struct probe_ctx ctx;
	int ctx_ready;
	struct executor_probe remote; /* --executor slurm */
	struct measure m;	      /* measures the sample */
	struct state_lock lock;
	char *dir; /* results/<job> */
	struct executor exec;
	const char *upload_url, *notify_url; /* publish.h */
};

static void cmd_release(struct sweep_cmd *s)
{
	sweep_run_release(&s->run);
	measure_release(&s->m);
	executor_probe_release(&s->remote);
	if (s->ctx_ready)
		probe_ctx_release(&s->ctx);
	if (s->repo)
		repo_free(s->repo);
	progress_release(&s->progress);
	state_unlock(&s->lock);
	if (s->job_loaded)
		job_release(&s->job);
	executor_release(&s->exec);
	free(s->dir);
}

/*
 * Resolve "A..B" into full ids. Any problem is one line naming the
 * range and what is wrong with it.
 */
static int resolve_range(struct sweep_cmd *s, const char *range, char a[41],
			 char b[41])
{
	const char *dots = strstr(range, "..");
	struct strbuf why = STRBUF_INIT;
	char *ra = NULL;
	int ret = -1;

	if (!dots || dots == range || !dots[2] || strstr(dots + 2, ".."))
		return error("bad range '%s': expected A..B", range);
	ra = xstrndup(range, dots - range);
	error_capture(&why);
	if (!repo_resolve(s->repo, ra, a) &&
	    !repo_resolve(s->repo, dots + 2, b))
		ret = 0;
	error_capture(NULL);
	if (ret)
		error("bad range '%s': %s", range, why.buf);
	else if (repo_is_ancestor(s->repo, a, b) != 1)
		ret = error("bad range '%s': '%s' is not an ancestor of '%s'",
			    range, ra, dots + 2);
	free(ra);
	strbuf_release(&why);
	return ret;
}

/* The sample: every Nth first-parent commit, or the matching tags. */
static int choose(struct sweep_cmd *s, const char *range, const char *a,
		  const char *b, unsigned every, const char *tags,
		  struct strvec *out)
{
	struct strvec hist = STRVEC_INIT;
	struct sweep_tags all = SWEEP_TAGS_INIT;
	int ret = -1;

	if (tags) {
		if (sweep_range_commits(&hist, s->job.repo, a, b) ||
		    sweep_list_tags(&all, s->job.repo))
			goto out;
		sweep_pick_tags(out, NULL, &all, tags, &hist);
		if (!out->nr) {
			error("bad range '%s': no tag matching '%s' in it",
			      range, tags);
			goto out;
		}
	} else {
		if (sweep_first_parents(&hist, s->job.repo, a, b))
			goto out;
		sweep_pick_every(out, &hist, every);
	}
	ret = 0;
out:
	strvec_clear(&hist);
	sweep_tags_release(&all);
	return ret;
}

static void print_table(const struct sweep_cmd *s)
{
	/* A figure in virtual time says so, as run and report do. */
	if (s->ctx.machine.clock.kind == CLOCK_VIRTUAL) {
		struct strbuf unit = STRBUF_INIT;
		clock_unit(&unit, &s->ctx.machine.clock);
		printf("(%s)\n", unit.buf);
		strbuf_release(&unit);
	}
	printf("%-12s  %-24s  %10s  %8s  %5s\n", "commit", "describe", "MB/s",
	       "%stddev", "boots");
	for (size_t i = 0; i < s->run.nr_rows; i++) {
		const struct sweep_row *r = &s->run.rows[i];
		printf("%.12s  %-24s  ", r->id, r->describe ? r->describe : "");
		if (r->set.nr)
			printf("%10.1f  %7.1f%%  %5zu",
			       stats_median(r->set.values, r->set.nr) / 1e6,
			       stats_pct_stddev(r->set.values, r->set.nr),
			       r->set.nr);
		else
			printf("%10s  %8s  %5zu", r->outcome, "-", r->set.nr);
		if (r->set.nr && strcmp(r->outcome, "ok"))
			printf("  (%s)", r->outcome);
		putchar('\n');
	}
}

/*
 * --notify: the regression between sampled commits good and bad, and its
 * culprit, once: a nightly run finds it again and stays quiet.
 */
static void notify(struct sweep_cmd *s, const struct changepoint *cp,
		   const char *good, const char *bad, const char *culprit,
		   const char *subject)
{
	char *name = sweep_bisect_job_name(s->job.name, good, bad);
	char *report = results_job_file(s->job.results, name, "report.txt");
	char *range = xstrfmt("%.12s..%.12s", good, bad);
	char *metric = xstrfmt("%s %s", s->ctx.point->id, s->job.metric);
	char *seen = xstrfmt("%s %s", range, culprit);
	struct upload_notice n = {
		.culprit = culprit,
		.subject = subject,
		.metric = metric,
		.change_pct = cp->change_pct,
		.report = report,
		.job = s->job.name,
		.range = range,
	};

	publish_notice(s->notify_url, &n, s->dir, seen);
	free(seen);
	free(metric);
	free(range);
	free(report);
	free(name);
}

/* --upload: the sweep's folder and those of the bisections it ran. */
static void upload(struct sweep_cmd *s)
{
	DIR *d = opendir(s->job.results);
	struct dirent *e;
	char *prefix = xstrfmt("%s-bisect-", s->job.name);

	publish_upload(s->upload_url, s->dir);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		char *dir = results_job_dir(s->job.results, e->d_name);
		publish_upload(s->upload_url, dir);
		free(dir);
	}
	if (d)
		closedir(d);
	free(prefix);
}

/* The change points, and what the sweep does with each. */
static void print_changes(const struct sweep_cmd *s,
			  const struct sweep_analysis *a)
{
	const struct sweep_row *rows = s->run.rows;

	struct strbuf line = STRBUF_INIT;

	threshold_text(&line, &s->job.threshold);
	printf("\nchange points (%s at %s, threshold %s):\n", s->job.metric,
	       s->ctx.point->id, line.buf);
	strbuf_release(&line);
	if (!a->cps.nr)
		printf("  none\n");
	for (size_t i = 0; i < a->cps.nr; i++) {
		const struct changepoint *cp = &a->cps.points[i];
		printf("  %-11s %.12s..%.12s  %.1f -> %.1f MB/s  %+.1f%%  "
		       "p=%.4f  %s\n",
		       changepoint_kind_name(cp->kind), rows[cp->before].id,
		       rows[cp->index].id, cp->before_median / 1e6,
		       cp->after_median / 1e6, cp->change_pct, cp->p_value,
		       !a->past[i]    ? "below the threshold"
		       : a->bisect[i] ? "bisect"
				      : "reported");
	}
	for (size_t i = 0; i < a->cps.nr_drifts; i++) {
		const struct changepoint_drift *d = &a->cps.drifts[i];
		printf("  drift       %.12s..%.12s  %.1f -> %.1f MB/s  %+.1f%% "
		       " "
		       "p=%.4f  reported\n",
		       rows[d->first].id, rows[d->last].id,
		       d->first_median / 1e6, d->last_median / 1e6,
		       d->change_pct, d->p_value);
	}
}

/* What one step's bisection found: its culprit, or why none. */
static void print_culprit(struct sweep_cmd *s, const struct changepoint *cp,
			  const char *culprit, int rc)
{
	const char *good = s->run.rows[cp->before].id;
	const char *bad = s->run.rows[cp->index].id;
	int faster = cp->kind == CHANGEPOINT_IMPROVEMENT;
	const char *what = faster ? "improvement" : "regression";

	if (culprit[0]) {
		struct commit_info ci = COMMIT_INFO_INIT;
		repo_describe(s->repo, culprit, &ci);
		printf("%s %.12s..%.12s: culprit %s %s \"%s\"\n", what, good,
		       bad, culprit, ci.describe ? ci.describe : "",
		       ci.subject ? ci.subject : "");
		fflush(stdout);
		if (!faster && s->notify_url)
			notify(s, cp, good, bad, culprit, ci.subject);
		commit_info_release(&ci);
	} else {
		printf("%s %.12s..%.12s: no culprit: bisection %s "
		       "(exit %d); see %s/%s-bisect-%.12s-%.12s\n",
		       what, good, bad, sweep_bisect_outcome(rc), rc,
		       s->job.results, s->job.name, good, bad);
	}
	fflush(stdout);
}

/* The change points, then a bisection of each the policy bisects. */
static int analyse(struct sweep_cmd *s, int bisect_improvements)
{
	struct sweep_analysis a = SWEEP_ANALYSIS_INIT;
	int ret = EXIT_ABORT;

	if (sweep_analyse(&s->run, bisect_improvements, &a))
		goto out;
	print_changes(s, &a);
	if (sweep_state_save(&s->run.st, s->run.dir))
		goto out;
	fflush(stdout);
	for (size_t i = 0; i < a.cps.nr; i++) {
		const struct changepoint *cp = &a.cps.points[i];
		char culprit[41];
		int rc;

		if (!a.bisect[i])
			continue;
		if (run_interrupted()) {
			ret = EXIT_INTERRUPTED;
			goto out;
		}
		/* An improvement is bisected for the commit that sped it up. */
		rc = sweep_bisect_step(&s->run, cp, culprit);
		print_culprit(s, cp, culprit, rc);
		if (rc == EXIT_INTERRUPTED) {
			ret = EXIT_INTERRUPTED;
			goto out;
		}
	}
	ret = a.regressions ? EXIT_REGRESSION : EXIT_NO_REGRESSION;
out:
	sweep_analysis_release(&a);
	return ret;
}

static int interrupted_or_abort(struct sweep_cmd *s)
{
	if (s->ctx.interrupted || run_interrupted()) {
		progress_note(&s->progress,
			      "[sweep] interrupted; what was measured is "
			      "stored: run the same command to resume");
		return EXIT_INTERRUPTED;
	}
	return EXIT_ABORT;
}

/* What the sweep measured, and how long it took since `t0`. */
static void say_measured(const struct sweep_cmd *s, uint64_t t0)
{
	char took[32];

	format_duration(took, sizeof(took), (now_ns() - t0) / 1e9);
	printf("measured %u new boots (%zu commits; kernels: %u built, %u "
	       "from the build cache) in %s\n",
	       s->m.counts.boots, s->run.nr_rows, s->m.counts.builds,
	       s->m.counts.builds_cached, took);
	fflush(stdout);
}

/*
 * --every at most: the kernel's history has some 1.3 million commits; a
 * larger step than this samples only the range's ends.
 */
#define SWEEP_EVERY_MAX 1000000

int cmd_sweep(int argc, char **argv)
{
	struct sweep_cmd s;
	struct strvec sample = STRVEC_INIT;
	const char *range = NULL, *tags = NULL, *results = NULL;
	unsigned every = 0;
	int boots = SWEEP_BOOTS_FIRST;
	int bisect_improvements = 0, ret = EXIT_ABORT, code;
	char a[41], b[41];
	uint64_t t0 = now_ns();
	const struct opt opts[] = {
		OPT_STRING("--range", &range, "A..B", "the commits to sample"),
		OPT_UNSIGNED("--every", &every, 1, SWEEP_EVERY_MAX,
			     "a positive integer", "N",
			     "every Nth first-parent commit"),
		OPT_BOOTS(&boots, "boots per sampled commit to start with "
				  "(default 2; more beside a step still "
				  "undecided)"),
		OPT_STRING("--tags", &tags, "PATTERN",
			   "the tags matching PATTERN instead"),
		OPT_FLAG("--bisect-improvements", &bisect_improvements,
			 "bisect the steps up too"),
		OPT_STRING(
			"--results", &results, "DIR",
			"the results folder (default: the job's \"results\")"),
		OPT_EXECUTOR(&s.exec),
		OPT_STRING("--upload", &s.upload_url, "URL",
			   "send the results folder there when done"),
		OPT_STRING("--notify", &s.notify_url, "URL",
			   "post a notice of a culprit there, once"),
		OPT_ARG("JOB", &s.job_path, "the job file"),
		OPT_END(),
	};

	memset(&s, 0, sizeof(s));
	s.lock.fd = -1;
	executor_init(&s.exec);
	if (opt_parse_command("sweep", SWEEP_SYNOPSIS, opts, argc, argv, &code))
		return code;
	if (!s.job_path || !range)
		return usage(opts);
	s.run.boots = (unsigned)boots;
	/* A bad URL is said now, not after a night of measuring. */
	const struct upload_options uo = UPLOAD_OPTIONS_INIT;
	if ((s.upload_url && upload_check_endpoint(&uo, s.upload_url)) ||
	    (s.notify_url && upload_check_endpoint(&uo, s.notify_url)))
		return EXIT_ABORT;
	if (every && tags) {
		error("--every and --tags choose the sample two ways: give "
		      "one");
		return EXIT_ABORT;
	}
	if (!every)
		every = 1;

	progress_init(&s.progress, stderr);
	if (job_load_results(&s.job, s.job_path, results))
		goto out;
	s.job_loaded = 1;
	if (cache_dir_check())
		goto out;
	if (!s.job.repo) {
		error("%s: a sweep needs \"repo\"", s.job_path);
		goto out;
	}
	if (executor_from_job(&s.exec, &s.job))
		goto out;
	if (repo_open(&s.repo, s.job.repo) || resolve_range(&s, range, a, b) ||
	    choose(&s, range, a, b, every, tags, &sample))
		goto out;

	s.dir = results_job_dir(s.job.results, s.job.name);
	if (state_lock(&s.lock, s.job.results, s.dir))
		goto out;
	if (probe_ctx_init(&s.ctx, &s.job, s.job.repo, &s.progress))
		goto out;
	s.ctx_ready = 1;
	/* On Slurm, a round of the sample is one job array (executor.h). */
	if (s.exec.kind == EXECUTOR_SLURM) {
		s.remote = (struct executor_probe){ .x = &s.exec,
						    .job = &s.job,
						    .ctx = &s.ctx,
						    .progress = &s.progress };
		measure_init(&s.m, &s.job, &executor_ops, &s.remote);
	} else {
		measure_init(&s.m, &s.job, &probe_ops, &s.ctx);
	}
	s.m.progress = &s.progress;
	s.run.job = &s.job;
	s.run.job_path = s.job_path;
	s.run.progress = &s.progress;
	s.run.m = &s.m;
	s.run.exec = &s.exec;
	s.run.dir = s.dir;
	progress_note(&s.progress,
		      "[sweep] %s: %zu commits of %s, %d boots "
		      "each",
		      s.job.name, sample.nr, range, s.run.boots);

	sweep_run_rows(&s.run, &sample, s.repo);
	if (sweep_sample_measure(&s.run)) {
		ret = interrupted_or_abort(&s);
		goto out;
	}
	progress_clear(&s.progress);

	print_table(&s);
	say_measured(&s, t0);
	ret = analyse(&s, bisect_improvements);
	if (s.upload_url && (ret == EXIT_REGRESSION || ret == EXIT_NO_REGRESSION))
		upload(&s);
out:
	strvec_clear(&sample);
	cmd_release(&s);
	return ret;
}
