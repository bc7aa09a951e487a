/*
 * cmd_upload.c: `iobisect upload --flush [--url URL] [--spool DIR]` sends
 * what earlier runs left in the spool (every endpoint, or only URL);
 * `iobisect upload RESULTS_DIR --url URL` sends a job folder's documents
 * and summary. The bearer token comes from $IOBISECT_UPLOAD_TOKEN.
 */
#include "cmd.h"
#include "options.h"
#include "run.h"
#include "upload.h"
#include "util.h"

#include <stdio.h>

#define UPLOAD_SYNOPSIS "--flush [options] | JOB_DIR --url URL [options]"

int cmd_upload(int argc, char **argv)
{
	struct upload_options o = UPLOAD_OPTIONS_INIT;
	struct upload_counts c;
	const char *dir = NULL;
	int flush = 0, rc;
	const struct opt opts[] = {
		OPT_FLAG("--flush", &flush, "send what the spool holds"),
		OPT_STRING("--url", &o.url, "URL", "where to send"),
		OPT_STRING("--spool", &o.spool, "DIR", "the spool folder"),
		OPT_ARG("JOB_DIR", &dir, "a job's results folder"),
		OPT_END(),
	};

	if (opt_parse_command("upload", UPLOAD_SYNOPSIS, opts, argc, argv,
			      &rc))
		return rc;
	if (flush == !!dir || (dir && !o.url)) {
		opt_usage(stderr, "upload", UPLOAD_SYNOPSIS, opts);
		return EXIT_ABORT;
	}
	if (o.url ? upload_check_endpoint(&o, o.url) : upload_check_token(&o))
		return EXIT_ABORT;
	if (!o.spool && cache_dir_check())
		return EXIT_ABORT;
	rc = flush ? upload_flush(&o, &c) : upload_job(&o, dir, &c);
	fprintf(stderr, "upload: %zu sent, %zu already sent, %zu kept in the "
			"spool\n",
		c.sent, c.already, c.kept);
	return run_interrupted() ? EXIT_INTERRUPTED : rc ? 1 : 0;
}
