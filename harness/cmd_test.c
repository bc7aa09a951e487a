/*
 * cmd_test.c: `iobisect test JOB [--repo PATH] [--results DIR]`, the
 * script for `git bisect run`. It tests the commit checked out (HEAD) in
 * the repository of the current directory (else --repo, else the job's),
 * builds it in iobisect's own tree (never the user's), measures it
 * against the good endpoint's baseline and answers as git bisect run
 * wants: 0 fast (good/old), 1 slow (bad/new), 125 untestable (skip),
 * 128 abort (broken job, missing QEMU, an endpoint that cannot be
 * measured), 130 interrupted. Everything measured is stored, so a commit
 * already measured (by this or by `iobisect bisect`) answers at once.
 *
 *   git bisect start --term-old fast --term-new slow SLOW FAST
 *   git bisect run iobisect test JOB
 */
#include "bisect.h"
#include "cmd.h"
#include "job.h"
#include "probe.h"
#include "progress.h"
#include "repo.h"
#include "run.h"
#include "safety.h"
#include "state.h"
#include "util.h"
#include "verdict.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: iobisect test JOB [--repo PATH] "
			"[--results DIR]\n");
	return 128;
}

/* Is the current directory inside `dir` (the tested working tree)? */
static int cwd_inside(const char *dir)
{
	char cwd[PATH_MAX], *abs = absolute_path(dir);
	size_t n = strlen(abs);
	int inside;

	while (n > 1 && abs[n - 1] == '/')
		abs[--n] = '\0';
	inside = getcwd(cwd, sizeof(cwd)) && !strncmp(cwd, abs, n) &&
		 (cwd[n] == '\0' || cwd[n] == '/');
	free(abs);
	return inside;
}

int cmd_test(int argc, char **argv)
{
	struct job job;
	struct repo *repo = NULL, *job_repo = NULL;
	struct probe_ctx ctx;
	struct progress progress;
	struct state_lock lock = STATE_LOCK_INIT;
	struct probe_result r = { 0 }, gr = { 0 }, br = { 0 };
	const char *job_path = NULL, *repo_arg = NULL, *results = NULL;
	const char *build_repo;
	char head[41], good[41], bad[41], *dir = NULL;
	int ret = 128, job_ok = 0, ctx_ok = 0, force = 0, used;
	enum bisect_mark mark;
	const char *destroy = NULL;
	struct safety_hold *holds = NULL;
	size_t nr_holds = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--repo") && i + 1 < argc)
			repo_arg = argv[++i];
		else if (!strcmp(argv[i], "--results") && i + 1 < argc)
			results = argv[++i];
		else if ((used = safety_parse_option(argc, argv, i, &destroy,
						     &force)))
			i += used - 1;
		else if (argv[i][0] == '-' || job_path)
			return usage();
		else
			job_path = argv[i];
	}
	if (!job_path)
		return usage();
	progress_init(&progress, stderr);
	if (job_load(&job, job_path))
		goto out;
	job_ok = 1;
	/* Passed-through host disks are checked and held for the whole run. */
	if (safety_check_job(&job, destroy, force, &holds, &nr_holds))
		goto out;
	safety_pin_paths(&job, holds, nr_holds);
	if (!job.good) {
		error("%s: missing key 'good' (the baseline)", job.path);
		goto out;
	}

	/* git bisect run runs us in the tree it checked out. */
	if (repo_arg) {
		if (repo_open(&repo, repo_arg))
			goto out;
	} else if (repo_open(&repo, ".")) {
		if (!job.repo) {
			error("not in a git repository and '%s' names none",
			      job.path);
			goto out;
		}
		if (repo_open(&repo, job.repo))
			goto out;
	}
	if (repo_resolve(repo, "HEAD", head))
		goto out;
	/*
	 * The endpoints are the job's words, so they are looked up in the
	 * job's repository when it opens (a clone has "origin/x" where the
	 * job says "x"). Build from the job's repository too when it holds
	 * the commit under test: its private tree is warm, while a throwaway
	 * clone's would build cold; the build key is the tree, so the image
	 * is the same either way.
	 */
	build_repo = repo_path(repo);
	if (job.repo && job.repo[0]) {
		struct strbuf quiet = STRBUF_INIT;
		char id[41];
		error_capture(&quiet);
		if (repo_open(&job_repo, job.repo))
			job_repo = NULL;
		else if (!repo_resolve(job_repo, head, id))
			build_repo = job.repo;
		error_capture(NULL);
		strbuf_release(&quiet);
	}
	if (repo_resolve(job_repo ? job_repo : repo, job.good, good))
		goto out;

	if (results) {
		free(job.results);
		job.results = xstrdup(results);
	} else if (job.results[0] != '/' && cwd_inside(repo_path(repo))) {
		/* Never write into the tree git bisect is walking. */
		free(job.results);
		job.results = xstrfmt("%s/results", cache_dir());
	}
	dir = xstrfmt("%s/%s", job.results, job.name);
	if (state_lock(&lock, dir))
		goto out;
	if (probe_ctx_init(&ctx, &job, build_repo, &progress))
		goto out;
	ctx_ok = 1;

	if (job.bisect_type == BISECT_PERF) {
		enum probe_endpoints_status es;
		struct verdict sep;
		if (job.threshold.kind == THRESHOLD_AUTO) {
			/* The auto line sits halfway: bad must be measured. */
			if (!job.bad ||
			    repo_resolve(job_repo ? job_repo : repo, job.bad,
					 bad))
				goto out;
			if (probe_endpoints(&ctx, good, NULL, bad, NULL, &gr, &br,
					    &sep, &es))
				goto abort;
			if (es == ENDPOINTS_NOT_SEPARATED) {
				error("endpoints not separated: %s", sep.reason);
				goto out;
			}
		} else {
			const struct probe_image *g = probe_build(&ctx, good);
			progress_commit(&progress, "good", 0, 0, good, NULL);
			if (!g || probe_fill(&ctx, g, job.runs_max, &gr))
				goto abort;
			es = gr.outcome == PROBE_FAST ? ENDPOINTS_SEPARATED
						      : ENDPOINTS_GOOD_FAILED;
			ctx.good = g;
		}
		if (es == ENDPOINTS_GOOD_FAILED || es == ENDPOINTS_BAD_FAILED) {
			const struct probe_result *f =
				es == ENDPOINTS_GOOD_FAILED ? &gr : &br;
			error("the %s endpoint cannot be measured: %s%s%s",
			      es == ENDPOINTS_GOOD_FAILED ? "good" : "bad",
			      f->first_error ? f->first_error : "failed",
			      f->log ? "; log: " : "", f->log ? f->log : "");
			goto out;
		}
	}

	progress_commit(&progress, "test", 0, 0, head, NULL);
	if (probe_commit(&ctx, head, &r))
		goto abort;
	mark = bisect_classify(job.bisect_type, r.outcome);
	progress_clear(&progress);
	if (r.have_verdict && r.v.n_cand)
		printf("%s: %.12s %.1f MB/s ±%.0f%% vs good %.1f MB/s ±%.0f%% "
		       "(%+.1f%%, %zu boots)\n",
		       mark == BISECT_GOOD  ? "fast"
		       : mark == BISECT_BAD ? "slow"
					    : "untestable",
		       head, r.v.cand_median / 1e6, r.v.cand_pct_stddev,
		       r.v.base_median / 1e6, r.v.base_pct_stddev,
		       r.v.pct_change, r.v.n_cand);
	else
		printf("%s: %.12s %s%s%s\n",
		       mark == BISECT_GOOD  ? "fast"
		       : mark == BISECT_BAD ? "slow"
					    : "untestable",
		       head, r.first_error ? r.first_error : "",
		       r.log ? " log: " : "", r.log ? r.log : "");
	fflush(stdout);
	ret = bisect_exit_code(mark);
	goto out;
abort:
	ret = ctx.interrupted || run_interrupted() ? 130 : 128;
out:
	safety_release_all(holds, nr_holds);
	probe_result_release(&r);
	probe_result_release(&gr);
	probe_result_release(&br);
	if (ctx_ok)
		probe_ctx_release(&ctx);
	state_unlock(&lock);
	progress_release(&progress);
	if (repo)
		repo_free(repo);
	if (job_repo)
		repo_free(job_repo);
	if (job_ok)
		job_release(&job);
	free(dir);
	return ret;
}
