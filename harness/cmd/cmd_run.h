/*
 * cmd_run.h: `iobisect run`'s command line, read by cmd_run_args.c for
 * cmd_run.c. Private to the two.
 */
#ifndef IOBISECT_CMD_RUN_H
#define IOBISECT_CMD_RUN_H

#include "util.h"

#include <stdio.h>

struct run_args {
	const char *job_path;
	const char *kernel, *commit, *repo;
	const char *label; /* a prebuilt image's name in result paths */
	int boots;
	int keep_images;
	int force;
	int help; /* -h or --help: the usage is printed, nothing to run */
	int json; /* --json: one document on stdout (cmd_json.h) */
	int have_topology, have_workload;
	const char *destroy_data_on;
	struct strvec overrides;
};

/*
 * Parse argv into *a; with `usage`, print the usage there instead. 0, or
 * -1 after one error line (and the short usage, for a word refused).
 */
int cmd_run_parse_args(struct run_args *a, int argc, char **argv,
		       FILE *usage);

#endif
