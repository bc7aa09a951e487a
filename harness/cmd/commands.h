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

/*
 * What a command reads or writes beside its arguments: its page's FILES
 * and ENVIRONMENT (manpage.c) say each once.
 */
enum command_uses {
	USES_CACHE = 1 << 0,   /* the cache folder: images, trees, the spool */
	USES_RESULTS = 1 << 1, /* a results folder */
	USES_DATA = 1 << 2,    /* the presets and fragments (IOBISECT_DATA) */
	USES_GUEST = 1 << 3,   /* boots the guest under QEMU */
	USES_PLUGIN = 1 << 4,  /* QEMU's instruction-counting plugin */
	USES_UPLOAD = 1 << 5,  /* an upload endpoint's token */
	USES_SLURM = 1 << 6,   /* Slurm's job arrays */
};

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
	/*
	 * Command lines, each under a "# what it does" line: its page's
	 * EXAMPLES, as typed.
	 */
	const char *examples;
	unsigned uses; /* enum command_uses */
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
