/*
 * cmd_bisect.c: `iobisect bisect JOB [options]`: options (its table),
 * the passthrough disks' checks, then the bisection (driver_job.h), the
 * report on stdout and, when asked, the upload and the webhook.
 *
 * Exit codes (enum driver_status): 0 culprit found at the job's
 * confidence, 1 inconclusive (skips block it, or the culprit stays below
 * the confidence target), 2 endpoints not separated (good is not fast or
 * bad is not slow by the threshold, or the merge base is already slow),
 * 128 abort (bad input, an endpoint that cannot be built or booted, QEMU
 * missing, results folder in use), 130 interrupted (state saved).
 */
#include "cmd.h"
#include "cmd_json.h"
#include "cmd_options.h"
#include "driver_job.h"
#include "executor.h"
#include "job.h"
#include "options.h"
#include "progress.h"
#include "publish.h"
#include "qemu.h"
#include "bisect_report.h"
#include "safety.h"
#include "state.h"
#include "stats.h"
#include "upload.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

static int usage(const struct opt *opts)
{
	opt_usage(stderr, "bisect", NULL, opts);
	return DRIVER_ABORT;
}

static int print_log(const struct job *job)
{
	struct bisect_state st;
	struct strbuf out = STRBUF_INIT;
	char *file = state_path(job->results, job->name);
	int r;

	state_init(&st);
	r = state_load(&st, file);
	if (r > 0)
		error("no bisection in '%s/%s'", job->results, job->name);
	if (!r) {
		state_log(&st, &out);
		fputs(out.buf, stdout);
	}
	strbuf_release(&out);
	state_release(&st);
	free(file);
	return r ? DRIVER_ABORT : 0;
}

/*
 * --upload: every document of the job folder and the summary go to the
 * endpoint (what cannot be sent waits in the spool for the next run or
 * `iobisect upload --flush`); --notify: a short webhook message when a
 * culprit was found. Neither changes the exit code: the result stands.
 */
static void publish(const struct job *job, const struct bisect_report *rep,
		    const char *upload_url, const char *notify_url)
{
	if (upload_url) {
		char *dir = results_job_dir(job->results, job->name);
		publish_upload(upload_url, dir);
		free(dir);
	}
	if (notify_url && rep->status == STATE_DONE) {
		char *report = results_job_file(job->results, job->name,
						"report.txt");
		struct upload_notice n = {
			.culprit = rep->culprit.id,
			.subject = rep->culprit.subject,
			.metric = rep->nr_rows ? rep->rows[0].metric
					       : job->metric,
			.change_pct = rep->nr_rows && rep->rows[0].good_median
				? stats_pct_change(rep->rows[0].good_median,
						   rep->rows[0].bad_median)
				: 0,
			.report = report,
			.job = job->name,
		};
		publish_notice(notify_url, &n, NULL, NULL);
		free(report);
	}
}

/*
 * What is refused before the job is read: --log with --json, a --json
 * whose standard output cannot be held, and a bad --upload or --notify
 * URL (found now, not after hours of bisection). 0, or -1 after error().
 */
static int check_options(int show_log, int as_json, const char *upload_url,
			 const char *notify_url)
{
	const struct upload_options uo = UPLOAD_OPTIONS_INIT;

	if (show_log && as_json)
		return error("--log and --json: give one (the log is text)");
	if (as_json && cmd_json_hold())
		return -1;
	if ((upload_url && upload_check_endpoint(&uo, upload_url)) ||
	    (notify_url && upload_check_endpoint(&uo, notify_url)))
		return -1;
	return 0;
}

/*
 * The report for people on stdout, as the driver wrote it or rendered
 * from `rep`; with --json it goes to stderr (cmd_json.h).
 */
static void print_report(const struct bisect_report *rep, struct strbuf *text)
{
	strbuf_reset(text);
	if (rep->text)
		strbuf_addstr(text, rep->text);
	else
		bisect_report_render_text(rep, text);
	fputs(text->buf, stdout);
	fflush(stdout);
}

int cmd_bisect(int argc, char **argv)
{
	struct job job;
	struct bisect_report rep;
	struct progress progress;
	struct driver_job_opts o = { 0 };
	struct strbuf text = STRBUF_INIT;
	const char *job_path = NULL, *results = NULL, *destroy = NULL;
	const char *upload_url = NULL, *notify_url = NULL;
	int show_log = 0, force = 0, job_ok = 0, ret = DRIVER_ABORT, code;
	int as_json = 0;
	json_t *doc = NULL;
	struct safety_hold *holds = NULL;
	size_t nr_holds = 0;
	char hash[41];
	struct executor exec;

	executor_init(&exec);
	const struct opt opts[] = {
		OPT_FLAG("--log", &show_log,
			 "print the bisection's log and stop"),
		OPT_FLAG("--json", &as_json,
			 "the answer as one JSON document on stdout "
			 "(summary.json's; commands.md, JSON output)"),
		OPT_STRING(
			"--results", &results, "DIR",
			"the results folder (default: the job's \"results\")"),
		OPT_STRING("--upload", &upload_url, "URL",
			   "send the results folder there when done"),
		OPT_STRING("--notify", &notify_url, "URL",
			   "post a notice of a culprit there, once"),
		OPT_SAFETY(&destroy, &force),
		OPT_EXECUTOR(&exec),
		OPT_ARG("JOB", &job_path, "the job file"),
		OPT_END(),
	};

	bisect_report_init(&rep);
	if (opt_parse_command("bisect", NULL, opts, argc, argv, &code)) {
		executor_release(&exec);
		return code;
	}
	if (!job_path) {
		executor_release(&exec);
		return usage(opts);
	}
	if (check_options(show_log, as_json, upload_url, notify_url)) {
		executor_release(&exec);
		return DRIVER_ABORT;
	}
	progress_init(&progress, stderr);
	if (job_load_results(&job, job_path, results))
		goto out;
	job_ok = 1;
	if (show_log) {
		ret = print_log(&job);
		goto out;
	}
	if (cache_dir_check())
		goto out;
	/* A state of another version of the job file is not resumed. */
	if (read_file(job_path, &text))
		goto out;
	hash_hex(text.buf, text.len, hash);
	/* Passed-through host disks are checked and held for the whole run. */
	if (safety_check_job(&job, destroy, force, &holds, &nr_holds))
		goto out;
	safety_pin_paths(&job, holds, nr_holds);
	if (executor_from_job(&exec, &job))
		goto out;
	/* The report names the clock its figures are in. */
	if (qemu_job_clock(&rep.clock, &job))
		goto out;
	o.job_hash = hash;
	o.progress = &progress;
	o.exec = &exec;
	ret = driver_job_bisect(&job, &o, &rep);
	if (ret == DRIVER_INTERRUPTED || !rep.job)
		goto out;
	print_report(&rep, &text);
	if (as_json) {
		doc = bisect_report_to_json(&rep);
		json_object_set_new(doc, "exit_code", json_integer(ret));
	}
	publish(&job, &rep, upload_url, notify_url);
out:
	/* Stopped before an answer (bad input, interrupted): no document. */
	if (as_json)
		cmd_json_put(doc);
	strbuf_release(&text);
	safety_release_all(holds, nr_holds);
	bisect_report_release(&rep);
	progress_release(&progress);
	executor_release(&exec);
	if (job_ok)
		job_release(&job);
	return ret;
}
