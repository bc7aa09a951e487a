/*
 * main.c: iobisect's entry point: global set-up and the dispatch over the
 * table of commands (commands.c; each lives in its own cmd_<name>.c).
 */
#include "cmd.h"
#include "commands.h"
#include "job_keys.h"
#include "run.h"
#include "util.h"

#include <git2.h>
#include <stdio.h>
#include <string.h>

static int usage(FILE *f)
{
	fprintf(f, "usage: iobisect <command> [options]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n'iobisect help <command>' lists a command's options;\n"
		   "'iobisect help job' the keys of a job file.\n");
	return f == stderr ? 128 : 0;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2)
		return usage(stderr);
	/* As every tool answers it; the same as `iobisect version`. */
	if (!strcmp(argv[1], "--version"))
		argv[1] = "version";
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
	/* "help CMD" is "CMD --help": the usage made from its table. */
	if (!strcmp(argv[1], "help") && argc > 2) {
		argv[1] = argv[2];
		argv[2] = "--help";
		argc = 3;
	}
	cmd = command_find(argv[1]);
	if (cmd) {
		int rc = cmd->fn(argc - 1, argv + 1);
		git_libgit2_shutdown();
		return rc;
	}
	/* One line naming it; the whole list is one 'iobisect help' away. */
	error("'%s' is not a command (see 'iobisect help')", argv[1]);
	return 128;
}
