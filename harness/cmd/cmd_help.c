/*
 * cmd_help.c: `iobisect help`: the commands (the usage), a command's
 * options (`help CMD`, its own table printed), a job file's keys (`help
 * job`, `--markdown` for docs/job.md), and what `make man` writes from
 * the same tables: the man pages (`help --man [PAGE]`) and the bash
 * completion (`help --completion`).
 */
#include "cmd.h"
#include "commands.h"
#include "completion.h"
#include "job_keys.h"
#include "manpage.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

int cmd_help_usage(FILE *f)
{
	fprintf(f, "usage: iobisect <command> [options]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n'iobisect help <command>' lists a command's options;\n"
		   "'iobisect help job' the keys of a job file;\n"
		   "'iobisect --version' which build this is.\n");
	return f == stderr ? EXIT_ABORT : 0;
}

/* `help CMD`: the usage made from its table, on stdout. */
static void print_table(const char *cmd, const char *synopsis,
			const struct opt *opts, void *payload)
{
	(void)payload;
	opt_usage_capture(NULL, NULL);
	opt_usage(stdout, cmd, synopsis, opts);
}

/* `help --man`: the pages' names; `help --man PAGE`: the page. */
static int man(const char *page)
{
	struct strbuf out = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	int rc = 0;

	if (!page) {
		manpage_names(&names);
		for (size_t i = 0; i < names.nr; i++)
			printf("%s\n", names.v[i]);
	} else if (!(rc = manpage_write(&out, page))) {
		fputs(out.buf, stdout);
	}
	strvec_clear(&names);
	strbuf_release(&out);
	return rc ? EXIT_ABORT : 0;
}

int cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2)
		return cmd_help_usage(stdout);
	if (!strcmp(argv[1], "job")) {
		/* The job file's keys, from the one table of them. */
		job_keys_print(stdout,
			       argc > 2 && !strcmp(argv[2], "--markdown"));
		return 0;
	}
	if (!strcmp(argv[1], "--man"))
		return man(argc > 2 ? argv[2] : NULL);
	if (!strcmp(argv[1], "--completion")) {
		struct strbuf out = STRBUF_INIT;
		int rc = completion_bash(&out);
		if (!rc)
			fputs(out.buf, stdout);
		strbuf_release(&out);
		return rc ? EXIT_ABORT : 0;
	}
	c = command_find(argv[1]);
	if (!c) {
		error("'%s' is not a command (see 'iobisect help')", argv[1]);
		return EXIT_ABORT;
	}
	return command_read_table(c, print_table, NULL) ? EXIT_ABORT : 0;
}
