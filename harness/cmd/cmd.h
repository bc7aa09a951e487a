/*
 * cmd.h: the subcommands of iobisect, one file each (cmd_<name>.c). Each
 * takes the arguments after its name and returns the process exit code.
 */
#ifndef IOBISECT_CMD_H
#define IOBISECT_CMD_H

/*
 * The exit codes every command shares. 0, 1 and 2 mean what each
 * command's file says (bisect: culprit, inconclusive, not separated; test:
 * fast, slow; run: ok, a boot failed); these mean the same everywhere.
 */
enum cmd_exit {
	EXIT_SKIP = 125,	/* git bisect run's "untestable" */
	EXIT_ABORT = 128,	/* bad input or setup: nothing decided */
	EXIT_INTERRUPTED = 130, /* SIGINT or SIGTERM: measured is kept */
};

int cmd_build(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_measure(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_upload(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_help(int argc, char **argv);

#include <stdio.h>
/* The commands and what they do, on `f`: 0 on stdout, 128 on stderr. */
int cmd_help_usage(FILE *f);

#endif
