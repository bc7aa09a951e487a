/*
 * main.c: iobisect's entry point: global set-up and the dispatch table of
 * subcommands (each lives in its own cmd_<name>.c).
 */
#include "cmd.h"
#include "run.h"
#include "util.h"

#include <git2.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{ "build", cmd_build,
	  "build --repo PATH --commit REV [--kconfig a,b,...] [--base tiny|CONFIG] [--cc CC]" },
	{ "run", cmd_run,
	  "run JOB | run --kernel BZIMAGE|--commit REV --topology T --workload W" },
	{ "bisect", cmd_bisect,
	  "bisect JOB [--log] [--executor local|slurm] [--probes K] "
	  "[--partition P] [--account A] [--time-limit T] [--sbatch-arg OPT]" },
	{ "sweep", cmd_sweep,
	  "sweep JOB --range A..B [--every N | --tags PATTERN] [--boots N] "
	  "[--bisect-improvements] [--results DIR] [--upload URL] "
	  "[--notify URL] [--executor local|slurm] [--probes K]" },
	{ "test", cmd_test, "test JOB   (the script for git bisect run)" },
	{ "measure", cmd_measure,
	  "measure JOB --commit REV --boots N [--results DIR]   (a Slurm task)" },
	{ "report", cmd_report,
	  "report RESULTS_DIR --html FILE [--json FILE] [--job NAME] [--min-effect PCT]" },
	{ "compare", cmd_compare, "compare A B [--results DIR] [--job NAME]" },
	{ "upload", cmd_upload,
	  "upload --flush [--url URL] [--spool DIR] | upload JOB_DIR --url URL" },
};

static int usage(FILE *f)
{
	fprintf(f, "usage: iobisect <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  iobisect %s\n", commands[i].usage);
	return f == stderr ? 128 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help"))
		return usage(stdout);
	git_libgit2_init();
	run_install_signal_handlers();
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			int rc = commands[i].fn(argc - 1, argv + 1);
			git_libgit2_shutdown();
			return rc;
		}
	/* One line naming it; the whole list is one 'iobisect help' away. */
	error("'%s' is not a command (see 'iobisect help')", argv[1]);
	return 128;
}
