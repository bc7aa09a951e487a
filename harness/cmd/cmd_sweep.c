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
 * Exit codes: 0 no regression, 1 regressions found (culprits named when
 * the bisections found them), 128 bad input or abort, 130 interrupted.
 */
#include "changepoint.h"
#include "clock.h"
#include "cmd.h"
#include "cmd_sweep.h"
#include "cmd_options.h"
#include "driver_job.h"
#include "executor.h"
#include "job.h"
#include "measure.h"
#include "options.h"
#include "probe.h"
#include "progress.h"
#include "publish.h"
#include "qemu.h"
#include "repo.h"
#include "results.h"
#include "run.h"
#include "state.h"
#include "stats.h"
#include "sweep.h"
#include "util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


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

static void run_release(struct sweep_run *s)
{
	for (size_t i = 0; i < s->nr_rows; i++) {
		free(s->rows[i].describe);
		free(s->rows[i].subject);
		sample_set_release(&s->rows[i].set);
	}
	free(s->rows);
	measure_release(&s->m);
	if (s->ctx_ready)
		probe_ctx_release(&s->ctx);
	if (s->repo)
		repo_free(s->repo);
	progress_release(&s->progress);
	state_unlock(&s->lock);
	sweep_state_release(&s->st);
	if (s->job_loaded)
		job_release(&s->job);
	executor_release(&s->exec);
	free(s->dir);
}

/*
 * Resolve "A..B" into full ids. Any problem is one line naming the
 * range and what is wrong with it.
 */
static int resolve_range(struct sweep_run *s, const char *range, char a[41],
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
static int choose(struct sweep_run *s, const char *range, const char *a,
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

static void print_table(struct sweep_run *s)
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
	for (size_t i = 0; i < s->nr_rows; i++) {
		const struct sweep_row *r = &s->rows[i];
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
 * The derived bisection's results folder starts with the boots the sweep
 * already stored of its two endpoints: the store pools by build key, spec
 * hash and machine, not by job, so they count as its evidence and the
 * endpoints are not booted again.
 */
static int seed_endpoint(struct sweep_run *s, const char *derived,
			 const char *commit)
{
	char *from, *to;
	int ret;

	from = results_commit_dir(s->job.results, s->job.name, commit);
	to = results_commit_dir(s->job.results, derived, commit);
	ret = link_tree(from, to);
	free(from);
	free(to);
	return ret;
}

/*
 * Bisect the step between tested commits good and bad (a rise when
 * `faster`), as the job the sweep derives for it: its file is written
 * beside the sweep's state so `iobisect bisect FILE` resumes it by hand.
 * *culprit gets the culprit's id ("" when none). Returns the bisection's
 * status.
 */
static int bisect_step(struct sweep_run *s, const char *good, const char *bad,
		       int faster, char culprit[41])
{
	char *name = sweep_bisect_job_name(s->job.name, good, bad);
	char *job_file = xstrfmt("%s/%s.json", s->dir, name);
	char *root = absolute_path(s->job.results);
	char *state_file = state_path(s->job.results, name);
	struct strbuf orig = STRBUF_INIT, text = STRBUF_INIT;
	struct bisect_state st;
	struct job job;
	struct bisect_report rep;
	struct driver_job_opts o = { 0 };
	char hash[41];
	int rc = DRIVER_ABORT, r, job_ok = 0;

	culprit[0] = '\0';
	state_init(&st);
	bisect_report_init(&rep);
	if (!root || read_file(s->job_path, &orig) ||
	    sweep_bisect_job_text(&text, orig.buf, s->job_path, name, good, bad,
				  root, faster) ||
	    write_file_atomic(job_file, text.buf, text.len))
		goto out;

	/* A bisection this sweep already finished is read, not rerun. */
	r = state_load(&st, state_file);
	if (r < 0)
		goto out;
	if (r == 0 && st.status == STATE_DONE && st.culprit[0]) {
		rc = 0;
		goto found;
	}
	state_release(&st);
	state_init(&st);

	if (seed_endpoint(s, name, good) || seed_endpoint(s, name, bad) ||
	    job_load(&job, job_file))
		goto out;
	job_ok = 1;
	progress_note(&s->progress,
		      "[sweep] bisecting %.12s..%.12s as job '%s' (%s)", good,
		      bad, name, job_file);
	hash_hex(text.buf, text.len, hash);
	/* The report names the clock its figures are in. */
	if (qemu_job_clock(&rep.clock, &job))
		goto out;
	o.job_hash = hash;
	o.progress = &s->progress;
	o.exec = &s->exec;
	rc = driver_job_bisect(&job, &o, &rep);
	if (state_load(&st, state_file))
		goto out;
found:
	if (st.status == STATE_DONE && st.culprit[0])
		memcpy(culprit, st.culprit, 41);
out:
	if (job_ok)
		job_release(&job);
	bisect_report_release(&rep);
	free(name);
	free(job_file);
	free(root);
	free(state_file);
	strbuf_release(&orig);
	strbuf_release(&text);
	state_release(&st);
	return rc;
}

static const char *bisect_outcome(int rc)
{
	switch (rc) {
	case 0:
		return "culprit found";
	case 1:
		return "inconclusive";
	case 2:
		return "not separated";
	case EXIT_INTERRUPTED:
		return "interrupted";
	default:
		return "aborted";
	}
}

/*
 * --notify: the regression between sampled commits good and bad, and its
 * culprit, once: a nightly run finds it again and stays quiet.
 */
static void notify(struct sweep_run *s, const struct changepoint *cp,
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
static void upload(struct sweep_run *s)
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

static int analyse(struct sweep_run *s, int bisect_improvements)
{
	struct changepoint_commit *series = sweep_sample_series(s);
	struct changepoint_options opt;
	struct changepoint_result cps = CHANGEPOINT_RESULT_INIT;
	int regressions = 0, ret = EXIT_ABORT;

	sweep_changepoint_options(&opt, &s->job.threshold);
	if (changepoint_detect(&cps, series, s->nr_rows, &opt))
		goto out;

	printf("\nchange points (%s at %s, threshold ", s->job.metric,
	       s->ctx.point->id);
	if (s->job.threshold.kind == THRESHOLD_AUTO)
		printf("auto):\n");
	else
		printf("%g%s):\n", s->job.threshold.value,
		       s->job.threshold.kind == THRESHOLD_PERCENT ? "%"
								  : " MB/s");
	if (!cps.nr)
		printf("  none\n");
	for (size_t i = 0; i < cps.nr; i++) {
		const struct changepoint *cp = &cps.points[i];
		int past = sweep_past_threshold(&s->job.threshold, cp);
		int bisect = past && (cp->kind == CHANGEPOINT_REGRESSION ||
				      bisect_improvements);
		printf("  %-11s %.12s..%.12s  %.1f -> %.1f MB/s  %+.1f%%  "
		       "p=%.4f  %s\n",
		       changepoint_kind_name(cp->kind), s->rows[cp->before].id,
		       s->rows[cp->index].id, cp->before_median / 1e6,
		       cp->after_median / 1e6, cp->change_pct, cp->p_value,
		       !past	? "below the threshold"
		       : bisect ? "bisect"
				: "reported");
		free(s->st.v[cp->index].role);
		s->st.v[cp->index].role = xstrdup(
			cp->kind == CHANGEPOINT_REGRESSION ? "step"
							   : "improvement");
	}
	for (size_t i = 0; i < cps.nr_drifts; i++) {
		const struct changepoint_drift *d = &cps.drifts[i];
		printf("  drift       %.12s..%.12s  %.1f -> %.1f MB/s  %+.1f%% "
		       " "
		       "p=%.4f  reported\n",
		       s->rows[d->first].id, s->rows[d->last].id,
		       d->first_median / 1e6, d->last_median / 1e6,
		       d->change_pct, d->p_value);
	}
	if (sweep_state_save(&s->st, s->dir))
		goto out;
	fflush(stdout);

	for (size_t i = 0; i < cps.nr; i++) {
		const struct changepoint *cp = &cps.points[i];
		const char *good = s->rows[cp->before].id;
		const char *bad = s->rows[cp->index].id;
		char culprit[41];
		int rc;

		int faster = cp->kind == CHANGEPOINT_IMPROVEMENT;
		const char *what = faster ? "improvement" : "regression";

		if (!sweep_past_threshold(&s->job.threshold, cp) ||
		    (faster && !bisect_improvements))
			continue;
		regressions += !faster;
		if (run_interrupted()) {
			ret = EXIT_INTERRUPTED;
			goto out;
		}
		/* An improvement is bisected for the commit that sped it up. */
		rc = bisect_step(s, good, bad, faster, culprit);
		if (culprit[0]) {
			struct commit_info ci = COMMIT_INFO_INIT;
			repo_describe(s->repo, culprit, &ci);
			printf("%s %.12s..%.12s: culprit %s %s \"%s\"\n", what,
			       good, bad, culprit,
			       ci.describe ? ci.describe : "",
			       ci.subject ? ci.subject : "");
			fflush(stdout);
			if (!faster && s->notify_url)
				notify(s, cp, good, bad, culprit, ci.subject);
			commit_info_release(&ci);
		} else {
			printf("%s %.12s..%.12s: no culprit: bisection %s "
			       "(exit %d); see %s/%s-bisect-%.12s-%.12s\n",
			       what, good, bad, bisect_outcome(rc), rc,
			       s->job.results, s->job.name, good, bad);
		}
		fflush(stdout);
		if (rc == EXIT_INTERRUPTED) {
			ret = EXIT_INTERRUPTED;
			goto out;
		}
	}
	ret = regressions ? EXIT_REGRESSION : EXIT_NO_REGRESSION;
out:
	free(series);
	changepoint_result_release(&cps);
	return ret;
}

static int interrupted_or_abort(struct sweep_run *s)
{
	if (s->ctx.interrupted || run_interrupted()) {
		progress_note(&s->progress,
			      "[sweep] interrupted; what was measured is "
			      "stored: run the same command to resume");
		return EXIT_INTERRUPTED;
	}
	return EXIT_ABORT;
}

/* A row per sampled commit, named as git describe names it. */
static void make_rows(struct sweep_run *s, const struct strvec *sample)
{
	s->rows = xcalloc(sample->nr + 1, sizeof(*s->rows));
	for (size_t i = 0; i < sample->nr; i++) {
		struct sweep_row *row = &s->rows[s->nr_rows++];
		struct commit_info ci = COMMIT_INFO_INIT;

		snprintf(row->id, sizeof(row->id), "%s", sample->v[i]);
		row->outcome = "ok";
		if (!repo_describe(s->repo, row->id, &ci)) {
			row->describe =
				ci.describe ? xstrdup(ci.describe) : NULL;
			row->subject = ci.subject ? xstrdup(ci.subject) : NULL;
		}
		commit_info_release(&ci);
	}
}

/* What the sweep measured, and how long it took since `t0`. */
static void say_measured(const struct sweep_run *s, uint64_t t0)
{
	char took[32];

	format_duration(took, sizeof(took), (now_ns() - t0) / 1e9);
	printf("measured %u new boots (%zu commits; kernels: %u built, %u "
	       "from the build cache) in %s\n",
	       s->m.counts.boots, s->nr_rows, s->m.counts.builds,
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
	struct sweep_run s;
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
	s.boots = (unsigned)boots;
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
	measure_init(&s.m, &s.job, &probe_ops, &s.ctx);
	s.m.progress = &s.progress;
	progress_note(&s.progress,
		      "[sweep] %s: %zu commits of %s, %d boots "
		      "each",
		      s.job.name, sample.nr, range, s.boots);

	make_rows(&s, &sample);
	if (sweep_sample_measure(&s)) {
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
	run_release(&s);
	return ret;
}
