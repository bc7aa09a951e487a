/*
 * commands.h: the table of iobisect's commands (commands.c): each one's
 * name, entry, one line of summary and its exit codes. main.c dispatches
 * from it; the usage, the man pages and the completion are made from it
 * and from each command's table of options.
 */
#ifndef IOBISECT_COMMANDS_H
#define IOBISECT_COMMANDS_H

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* one line; the options are the command's table */
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

#endif
