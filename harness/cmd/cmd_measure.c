/*
 * cmd_measure.c: `iobisect measure JOB --commit REV|--commit-list FILE
 * --boots N [--results DIR]`, one probe run where another run sent it: a Slurm
 * task of a sweep or a bisection with --executor slurm. It builds REV (0 boots:
 * only that), boots it until N boots are stored for it, and leaves a task
 * document (task_doc.h) for the sender. Exit 0: built and measured; 1:
 * the commit failed to build or boot (the document says how; a verdict
 * for the sender, not a task to run again); 128: bad input or setup; 130:
 * interrupted (scancel, the time limit).
 */
#include "cmd.h"
#include "cmd_options.h"
#include "job.h"
#include "options.h"
#include "probe.h"
#include "progress.h"
#include "repo.h"
#include "run.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

#define MEASURE_SYNOPSIS \
	"JOB --commit REV|--commit-list FILE --boots N [options]"

static int usage(const struct opt *opts)
{
	opt_usage(stderr, "measure", MEASURE_SYNOPSIS, opts);
	return EXIT_ABORT;
}

/*
 * A job array's task measures line SLURM_ARRAY_TASK_ID (from 0) of the
 * list the sender wrote: one sbatch for a whole sweep.
 */
static char *list_entry(const char *list)
{
	const char *task = getenv("SLURM_ARRAY_TASK_ID");
	struct strvec lines = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *rev = NULL;
	long i;

	if (!task || parse_long(task, &i) || i < 0) {
		error("--commit-list '%s': SLURM_ARRAY_TASK_ID is not set to a "
		      "task index",
		      list);
		return NULL;
	}
	if (read_file_max(list, &sb, 1 << 20))
		return NULL;
	strvec_split(&lines, sb.buf, '\n');
	if ((size_t)i < lines.nr)
		rev = xstrdup(lines.v[i]);
	else
		error("--commit-list '%s': no line %ld", list, i + 1);
	strvec_clear(&lines);
	strbuf_release(&sb);
	return rev;
}

int cmd_measure(int argc, char **argv)
{
	struct job job;
	struct repo *repo = NULL;
	struct progress progress;
	const char *job_path = NULL, *rev = NULL, *results = NULL;
	const char *list = NULL;
	char *listed = NULL;
	int boots = -1;
	char id[41];
	int ret = EXIT_ABORT, rc, code;
	const struct opt opts[] = {
		OPT_STRING("--commit", &rev, "REV", "the commit"),
		OPT_STRING("--commit-list", &list, "FILE",
			   "the commit on line SLURM_ARRAY_TASK_ID of FILE"),
		OPT_BOOTS_OR_NONE(&boots, "boots to have stored (0: build only)"),
		OPT_STRING(
			"--results", &results, "DIR",
			"the results folder (default: the job's \"results\")"),
		OPT_ARG("JOB", &job_path, "the job file"),
		OPT_END(),
	};

	if (opt_parse_command("measure", MEASURE_SYNOPSIS, opts, argc, argv,
			      &code))
		return code;
	if (!job_path || !!rev == !!list || boots < 0)
		return usage(opts);
	if (list && !(rev = listed = list_entry(list)))
		return EXIT_ABORT;
	progress_init(&progress, stderr);
	if (job_load_results(&job, job_path, results)) {
		progress_release(&progress);
		return EXIT_ABORT;
	}
	if (!job.repo) {
		error("%s: measure needs \"repo\"", job.path);
		goto out;
	}
	if (cache_dir_check())
		goto out;
	if (repo_open(&repo, job.repo) || repo_resolve(repo, rev, id))
		goto out;
	rc = probe_task(&job, job.repo, id, (unsigned)boots, &progress);
	progress_clear(&progress);
	if (rc >= 0) {
		printf("%s: %s\n", id, rc ? "failed" : "measured");
		ret = rc;
	} else {
		ret = run_interrupted() ? EXIT_INTERRUPTED : EXIT_ABORT;
	}
out:
	if (repo)
		repo_free(repo);
	progress_release(&progress);
	job_release(&job);
	free(listed);
	return ret;
}
