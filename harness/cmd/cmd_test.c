/*
 * cmd_test.c: `iobisect test JOB [options]` (its table), the
 * script for `git bisect run`. It tests the commit checked out (HEAD) in
 * the repository of the current directory (else --repo, else the job's),
 * builds it in iobisect's own tree (never the user's), judges it against
 * the good endpoint (driver_test: pairs of the good endpoint and the
 * commit, as `iobisect bisect` confirms an answer, at DRIVER_TEST_ERROR) and
 * answers as git bisect run wants: 0 fast (good/old), 1 slow (bad/new), 125
 * untestable (skip), 128 abort (broken job, missing QEMU, an endpoint that
 * cannot be measured), 130 interrupted. Everything measured is stored, so a
 * commit already measured (by this or by `iobisect bisect`) answers at once.
 *
 *   git bisect start --term-old fast --term-new slow SLOW FAST
 *   git bisect run iobisect test JOB
 */
#include "bisect.h"
#include "cmd.h"
#include "cmd_json.h"
#include "cmd_options.h"
#include "driver_job.h"
#include "job.h"
#include "options.h"
#include "progress.h"
#include "repo.h"
#include "safety.h"
#include "util.h"
#include "version.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(const struct opt *opts)
{
	opt_usage(stderr, "test", NULL, opts);
	return EXIT_ABORT;
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

/*
 * The repository git bisect walks: --repo, else the current directory
 * (git bisect run runs us in the tree it checked out), else the job's.
 */
static int open_walked_repo(struct repo **repo, const char *repo_arg,
			    const struct job *job)
{
	if (repo_arg)
		return repo_open(repo, repo_arg) ? -1 : 0;
	if (!repo_open(repo, "."))
		return 0;
	if (!job->repo)
		return error("not in a git repository and '%s' names none",
			     job->path);
	return repo_open(repo, job->repo) ? -1 : 0;
}

/*
 * The endpoints are the job's words, so they are looked up in the job's
 * repository when it opens (*job_repo; a clone has "origin/x" where the
 * job says "x"). Build from the job's repository too when it holds the
 * commit under test: its private tree is warm, while a throwaway clone's
 * would build cold; the build key is the tree, so the image is the same
 * either way. Returns the repository to build from.
 */
static const char *open_job_repo(struct repo **job_repo,
				 const struct repo *repo, const struct job *job,
				 const char *head)
{
	const char *build_repo = repo_path(repo);

	if (job->repo && job->repo[0]) {
		struct strbuf quiet = STRBUF_INIT;
		char id[41];
		error_capture(&quiet);
		if (repo_open(job_repo, job->repo))
			*job_repo = NULL;
		else if (!repo_resolve(*job_repo, head, id))
			build_repo = job->repo;
		error_capture(NULL);
		strbuf_release(&quiet);
	}
	return build_repo;
}

/*
 * The endpoints' commits in `r`: good always, bad only when the auto
 * line sits halfway (*auto_line): only then is bad measured.
 */
static int resolve_endpoints(const struct job *job, struct repo *r,
			     char good[41], char bad[41], int *auto_line)
{
	if (repo_resolve(r, job->good, good))
		return -1;
	*auto_line = job_needs_bad(job);
	if (job_check_needs_bad(job, job->bad))
		return -1;
	if (*auto_line && repo_resolve(r, job->bad, bad))
		return -1;
	return 0;
}

/*
 * The --json answer: the commit tested, the endpoints (bad NULL when it
 * was not measured), the mark, the exit code and the driver's message.
 */
static json_t *answer_json(const struct job *job, const char *head,
			   const char *good, const char *bad,
			   enum bisect_mark mark, int ret, const char *message)
{
	return json_pack("{s:s, s:s, s:s, s:o, s:s, s:o, s:i, s:s}", "iobisect",
			 version_string(), "job", job->name, "commit", head,
			 "bad", bad ? json_string(bad) : json_null(), "good",
			 good, "mark", json_string(bisect_mark_name(mark)),
			 "exit_code", ret, "message", message);
}

int cmd_test(int argc, char **argv)
{
	struct job job;
	struct repo *repo = NULL, *job_repo = NULL;
	struct progress progress;
	struct driver_result res;
	const char *job_path = NULL, *repo_arg = NULL, *results = NULL;
	const char *build_repo;
	char head[41], good[41], bad[41];
	int ret = EXIT_ABORT, job_ok = 0, force = 0, auto_line, as_json = 0, code;
	json_t *doc = NULL;
	enum bisect_mark mark;
	enum driver_status st;
	const char *destroy = NULL;
	struct safety_hold *holds = NULL;
	size_t nr_holds = 0;

	const struct opt opts[] = {
		OPT_STRING("--repo", &repo_arg, "PATH",
			   "the tree git bisect walks (default: here)"),
		OPT_STRING(
			"--results", &results, "DIR",
			"the results folder (default: the job's \"results\")"),
		OPT_SAFETY(&destroy, &force),
		OPT_FLAG("--json", &as_json,
			 "the answer as one JSON document on stdout "
			 "(commands.md, JSON output)"),
		OPT_ARG("JOB", &job_path, "the job file"),
		OPT_END(),
	};

	if (opt_parse_command("test", NULL, opts, argc, argv, &code))
		return code;
	if (!job_path)
		return usage(opts);
	if (as_json && cmd_json_hold())
		return EXIT_ABORT;
	driver_result_init(&res);
	progress_init(&progress, stderr);
	if (job_load_results(&job, job_path, results))
		goto out;
	job_ok = 1;
	if (cache_dir_check())
		goto out;
	/* Passed-through host disks are checked and held for the whole run. */
	if (safety_check_job(&job, destroy, force, &holds, &nr_holds))
		goto out;
	safety_pin_paths(&job, holds, nr_holds);
	if (!job.good) {
		error("%s: missing key 'good' (the baseline)", job.path);
		goto out;
	}

	if (open_walked_repo(&repo, repo_arg, &job))
		goto out;
	if (repo_resolve(repo, "HEAD", head))
		goto out;
	build_repo = open_job_repo(&job_repo, repo, &job, head);
	if (resolve_endpoints(&job, job_repo ? job_repo : repo, good, bad,
			      &auto_line))
		goto out;
	if (!results && job.results[0] != '/' &&
	    cwd_inside(repo_path(repo))) {
		/* Never write into the tree git bisect is walking. */
		free(job.results);
		job.results = xstrfmt("%s/results", cache_dir());
	}
	st = driver_job_test(&job, build_repo, good, auto_line ? bad : NULL,
			     head, &progress, &res, &mark);
	progress_clear(&progress);
	if (st == DRIVER_CULPRIT) {
		printf("%s\n", res.message ? res.message : "");
		fflush(stdout);
		ret = bisect_exit_code(mark);
		if (as_json)
			doc = answer_json(&job, head, good,
					  auto_line ? bad : NULL, mark, ret,
					  res.message ? res.message : "");
	} else {
		if (res.message)
			error("%s", res.message);
		ret = st == DRIVER_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_ABORT;
	}
out:
	/* No answer (bad input, not separated, interrupted): no document. */
	if (as_json)
		cmd_json_put(doc);
	safety_release_all(holds, nr_holds);
	driver_result_release(&res);
	progress_release(&progress);
	if (repo)
		repo_free(repo);
	if (job_repo)
		repo_free(job_repo);
	if (job_ok)
		job_release(&job);
	return ret;
}
