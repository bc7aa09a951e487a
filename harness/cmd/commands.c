/*
 * commands.c: the table of iobisect's commands (commands.h). Each lives
 * in its own cmd_<name>.c, whose header comment says more of its codes.
 */
#include "commands.h"
#include "cmd.h"
#include "util.h"

#include <string.h>

const struct command commands[] = {
	{"bisect", cmd_bisect, "find the commit that made a job's figure slow",
	 "0 culprit found at the job's confidence\n"
	 "1 inconclusive (the suspects are listed)\n"
	 "2 endpoints not separated\n"},
	{"test", cmd_test,
	 "one commit fast or slow: the script for git bisect run",
	 "0 fast (good)\n1 slow (bad)\n125 untestable (skip)\n"},
	{"sweep", cmd_sweep, "measure a range, find its steps, bisect each",
	 "0 no regression\n1 regressions found\n"},
	{"run", cmd_run, "boot one kernel on a job's topologies and print MB/s",
	 "0 every boot ok\n1 a build or boot failed\n"},
	{"build", cmd_build, "build one commit's kernel image (cached)",
	 "0 built or found in the cache\n1 the build failed\n"},
	{"measure", cmd_measure, "build and boot one commit (a Slurm task)",
	 "0 built and measured\n1 the commit failed to build or boot\n"},
	{"report", cmd_report, "a results folder as an HTML page and JSON",
	 NULL},
	{"compare", cmd_compare, "two commits' stored figures side by side",
	 NULL},
	{"upload", cmd_upload,
	 "send a results folder to a server, or the spool", NULL},
	{"version", cmd_version,
	 "the release, the build, the guest's build id and the QEMU found",
	 NULL},
	{NULL, NULL, NULL, NULL},
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

struct reading {
	opt_table_fn *fn;
	void *payload;
	int seen;
};

static void read_once(const char *cmd, const char *synopsis,
		      const struct opt *opts, void *payload)
{
	struct reading *r = payload;

	if (!r->seen++)
		r->fn(cmd, synopsis, opts, r->payload);
}

int command_read_table(const struct command *c, opt_table_fn *fn, void *payload)
{
	struct reading r = {fn, payload, 0};
	struct strbuf quiet = STRBUF_INIT, *prev;
	char *argv[] = {(char *)c->name, "--help", NULL};

	/* "--help" is an unknown option to most; what they say is not news. */
	prev = error_capture(&quiet);
	opt_usage_capture(read_once, &r);
	c->fn(2, argv);
	opt_usage_capture(NULL, NULL);
	error_capture(prev);
	strbuf_release(&quiet);
	if (!r.seen)
		return error("'%s --help' did not show its options", c->name);
	return 0;
}
