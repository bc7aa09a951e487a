/*
 * cmd_report.c: `iobisect report RESULTS_DIR --html FILE [--json FILE]
 * [--job NAME] [--min-effect PCT]`: the results folder as one HTML page
 * with plots, change points and the bisection history, and as JSON.
 */
#include "cmd.h"
#include "html.h"
#include "options.h"
#include "run.h"
#include "store_scan.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The outputs are checked before anything is read: one inside the results
 * folder could replace the bisection's state or a sample document, and
 * two of one name would keep only the last.
 */
static int check_outputs(const char *dir, const char *html, const char *json)
{
	const char *out[] = { html, json };
	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		if (out[i] && strcmp(out[i], "-") && path_inside(out[i], dir))
			return error("not writing '%s': it is inside the "
				     "results folder '%s'",
				     out[i], dir);
	if (html && json && same_file_path(html, json))
		return error("--html and --json name the same file '%s'",
			     html);
	return 0;
}

/* "-" is the standard output, as for other tools; any other path a file. */
static int write_report(const char *path, const struct strbuf *out)
{
	if (strcmp(path, "-"))
		return write_output_file(path, out->buf, out->len);
	if (fwrite(out->buf, 1, out->len, stdout) != out->len ||
	    fflush(stdout))
		return error("cannot write the report to the standard output: "
			     "%s",
			     strerror(errno));
	return 0;
}

/*
 * A SIGINT while the page is made (change points over a large store take
 * seconds) stops before anything is written: 1 with *ret the exit code.
 */
static int stopped(int *ret)
{
	if (!run_interrupted())
		return 0;
	error("interrupted: no report written");
	*ret = EXIT_INTERRUPTED;
	return 1;
}

#define REPORT_SYNOPSIS "RESULTS_DIR --html FILE [options]"

int cmd_report(int argc, char **argv)
{
	const char *dir = NULL, *html = NULL, *json = NULL, *job = NULL;
	struct html_options o = HTML_OPTIONS_INIT;
	struct scan s;
	struct strbuf out = STRBUF_INIT;
	char now[32];
	int ret = 1, code;
	const struct opt opts[] = {
		OPT_STRING("--html", &html, "FILE", "the page to write"),
		OPT_STRING("--json", &json, "FILE", "the same data as JSON"),
		OPT_STRING("--job", &job, "NAME",
			   "the job in the results folder"),
		/* A plain decimal: inf, nan and 1e999 hid every change. */
		OPT_DECIMAL("--min-effect", &o.cp.min_effect_pct, 0, 1000,
			    "a percentage", "PCT",
			    "smallest change point to show, in percent"),
		OPT_ARG("RESULTS_DIR", &dir, "a results folder"),
		OPT_END(),
	};

	if (opt_parse_command("report", REPORT_SYNOPSIS, opts, argc, argv,
			      &code))
		return code;
	if (!dir || (!html && !json)) {
		opt_usage(stderr, "report", REPORT_SYNOPSIS, opts);
		return EXIT_ABORT;
	}
	if (check_outputs(dir, html, json))
		return EXIT_ABORT;
	if (scan_load(&s, dir, job))
		return run_interrupted() ? EXIT_INTERRUPTED : 1;
	/* A page of no plot is no report: a wrong folder, not a result. */
	if (!s.nr_series) {
		error("no samples under '%s'", s.dir);
		goto out;
	}
	utc_timestamp(now, sizeof(now));
	o.generated = now;
	if (html) {
		if (html_render(&s, &o, &out) || stopped(&ret) ||
		    write_report(html, &out))
			goto out;
		fprintf(stderr, "report: %s (%zu plots, %zu commits)\n", html,
			s.nr_series, s.nr_commits);
	}
	if (json) {
		json_t *j = html_report_json(&s, &o);
		char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS) :
				 NULL;
		json_decref(j);
		if (stopped(&ret)) {
			free(text);
			goto out;
		}
		if (!text) {
			error("cannot build the JSON report of '%s'", s.dir);
			goto out;
		}
		strbuf_reset(&out);
		strbuf_addstr(&out, text);
		strbuf_addch(&out, '\n');
		free(text);
		if (write_report(json, &out))
			goto out;
		fprintf(stderr, "report: %s\n", json);
	}
	ret = 0;
out:
	strbuf_release(&out);
	scan_release(&s);
	return ret;
}
