/*
 * main.c: iobisect's entry point: global set-up and the dispatch table of
 * subcommands (each lives in its own cmd_<name>.c).
 */
#include "cmd.h"
#include "job_keys.h"
#include "run.h"
#include "util.h"

#include <errno.h>
#include <git2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* one line; the options are the command's table */
};

static const struct command commands[] = {
	{"bisect", cmd_bisect, "find the commit that made a job's figure slow"},
	{"test", cmd_test,
	 "one commit fast or slow: the script for git bisect run"},
	{"sweep", cmd_sweep, "measure a range, find its steps, bisect each"},
	{"run", cmd_run,
	 "boot one kernel on a job's topologies and print MB/s"},
	{"build", cmd_build, "build one commit's kernel image (cached)"},
	{"measure", cmd_measure, "build and boot one commit (a Slurm task)"},
	{"report", cmd_report, "a results folder as an HTML page and JSON"},
	{"compare", cmd_compare, "two commits' stored figures side by side"},
	{"upload", cmd_upload,
	 "send a results folder to a server, or the spool"},
};

static int usage(FILE *f)
{
	fprintf(f, "usage: iobisect <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f, "\n'iobisect help <command>' lists a command's options;\n"
		   "'iobisect help job' the keys of a job file.\n");
	return f == stderr ? 128 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "help") && argc > 2 && !strcmp(argv[2], "job")) {
		/* The job file's keys, from the one table of them. */
		job_keys_print(stdout,
			       argc > 3 && !strcmp(argv[3], "--markdown"));
		return 0;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2))
		return usage(stdout);
	git_libgit2_init();
	run_install_signal_handlers();
	/*
	 * A reader that goes away (`| head`) is a failed write, said once,
	 * not a silent death by SIGPIPE (141). Children get it back.
	 */
	signal(SIGPIPE, SIG_IGN);
	/* "help CMD" is "CMD --help": the usage made from its table. */
	if (!strcmp(argv[1], "help") && argc > 2) {
		argv[1] = argv[2];
		argv[2] = "--help";
		argc = 3;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			int rc = commands[i].fn(argc - 1, argv + 1);
			git_libgit2_shutdown();
			/*
			 * A command a signal stopped was interrupted, whatever
			 * step it was at (a QEMU probe, a lock, a fetch).
			 */
			if (rc == EXIT_ABORT && run_interrupted())
				rc = EXIT_INTERRUPTED;
			if ((fflush(stdout) || ferror(stdout)) && !rc) {
				error("cannot write to the standard output: %s",
				      strerror(errno));
				rc = 1;
			}
			return rc;
		}
	/* One line naming it; the whole list is one 'iobisect help' away. */
	error("'%s' is not a command (see 'iobisect help')", argv[1]);
	return 128;
}
