/*
 * commands.h: the table of iobisect's commands (commands.c): each one's
 * name, entry, one line of summary, a paragraph of description and its
 * exit codes. main.c dispatches
 * from it; the usage, the man pages and the completion are made from it
 * and from each command's table of options.
 */
#ifndef IOBISECT_COMMANDS_H
#define IOBISECT_COMMANDS_H

#include "options.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* one line; the options are the command's table */
	const char *description; /* a paragraph: its man page's DESCRIPTION */
	/*
	 * The exit codes it gives beside the shared ones (cmd.h), one
	 * "CODE meaning" a line; NULL when it gives only 0 and those.
	 */
	const char *exits;
};

/* The commands, in the order usage lists them, closed by a NULL name. */
extern const struct command commands[];

/* The command called `name`, or NULL. */
const struct command *command_find(const char *name);

/*
 * Hand `c`'s table of options to `fn` (options.h, opt_usage_capture), by
 * running it with "--help" while nothing it says is printed. 0 once `fn`
 * has read it; -1 after error() when the command never showed its table.
 */
int command_read_table(const struct command *c, opt_table_fn *fn,
		       void *payload);

#endif
