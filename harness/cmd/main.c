/*
 * main.c: iobisect's entry point: global set-up and the dispatch over the
 * table of commands (commands.c; each lives in its own cmd_<name>.c).
 */
#include "cmd.h"
#include "commands.h"
#include "run.h"
#include "util.h"

#include <errno.h>
#include <git2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/*
 * What a command printed reached its reader: a full disk (/dev/full, or
 * `make man` writing a page) is a failure, said once, for every command.
 * A command that failed has said why already.
 */
static int stdout_written(int rc)
{
	/*
	 * A write that failed already (a page larger than stdout's buffer)
	 * left its errno as the command returned: it says why, when the
	 * flush has nothing left to fail on.
	 */
	int earlier = errno;

	errno = 0;
	if ((fflush(stdout) || ferror(stdout)) && !rc) {
		int why = errno ? errno : earlier;
		error("cannot write to the standard output: %s",
		      why ? strerror(why) : "a write failed");
		rc = 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2)
		return cmd_help_usage(stderr);
	/* As every tool answers it; the same as `iobisect version`. */
	if (!strcmp(argv[1], "--version"))
		argv[1] = "version";
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		argv[1] = "help";
	/* Not in the table: it reads the table (and the commands' own). */
	if (!strcmp(argv[1], "help"))
		return stdout_written(cmd_help(argc - 1, argv + 1));
	git_libgit2_init();
	run_install_signal_handlers();
	/*
	 * A reader that goes away (`| head`) is a failed write, said once,
	 * not a silent death by SIGPIPE (141). Children get it back.
	 */
	signal(SIGPIPE, SIG_IGN);
	cmd = command_find(argv[1]);
	if (cmd) {
		int rc = cmd->fn(argc - 1, argv + 1);
		git_libgit2_shutdown();
		/*
		 * A command a signal stopped was interrupted, whatever step it
		 * was at (a QEMU probe, a lock, a fetch).
		 */
		if (rc == EXIT_ABORT && run_interrupted())
			rc = EXIT_INTERRUPTED;
		return stdout_written(rc);
	}
	/* One line naming it; the whole list is one 'iobisect help' away. */
	error("'%s' is not a command (see 'iobisect help')", argv[1]);
	return EXIT_ABORT;
}
