/*
 * exit_code.h: the exit codes every command shares, and the driver's
 * statuses that become them. 0, 1 and 2 mean what each command's file
 * says (bisect: culprit, inconclusive, not separated; test: fast, slow;
 * run: ok, a boot failed); these mean the same everywhere, as
 * `git bisect run` reads them.
 */
#ifndef IOBISECT_EXIT_CODE_H
#define IOBISECT_EXIT_CODE_H

enum exit_code {
	EXIT_SKIP = 125,	/* git bisect run's "untestable" */
	EXIT_ABORT = 128,	/* bad input or setup: nothing decided */
	EXIT_INTERRUPTED = 130, /* SIGINT or SIGTERM: measured is kept */
};

#endif
