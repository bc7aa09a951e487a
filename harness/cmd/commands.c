/*
 * commands.c: the table of iobisect's commands (commands.h). Each lives
 * in its own cmd_<name>.c, whose header comment says more of its codes.
 */
#include "commands.h"
#include "cmd.h"
#include "util.h"

#include <string.h>

/* clang-format off */
const struct command commands[] = {
	{ "bisect", cmd_bisect, "find the commit that made a job's figure slow",
	  "Measures the job's good and bad endpoints, bisects between them to "
	  "the first slow commit, confirms the answer on fresh boots of it and "
	  "its parent taken side by side, and writes report.txt under the "
	  "results folder. A run interrupted resumes where it stopped when "
	  "given the same command.",
	  "0 culprit found at the job's confidence\n"
	  "1 inconclusive (the suspects are listed)\n"
	  "2 endpoints not separated\n" },
	{ "test", cmd_test,
	  "one commit fast or slow: the script for git bisect run",
	  "Measures the commit checked out in the repository (or stored "
	  "figures of it) and answers as git bisect run wants: "
	  "git bisect run iobisect test JOB works in any kernel tree.",
	  "0 fast (good)\n1 slow (bad)\n125 untestable (skip)\n" },
	{ "sweep", cmd_sweep, "measure a range, find its steps, bisect each",
	  "Measures a sample of the range (every Nth commit, or the tags), "
	  "finds its change points, and bisects each regression between the "
	  "two sampled commits around it. A rerun measures nothing new.",
	  "0 no regression\n1 regressions found\n" },
	{ "run", cmd_run,
	  "boot one kernel on a job's topologies and print MB/s",
	  "Boots one kernel (the job's, a prebuilt image, or a commit built) "
	  "on each of the job's topologies and prints MB/s per sample and a "
	  "summary; without a job file, --topology and --workload make one.",
	  "0 every boot ok\n1 a build or boot failed, or no boot gave a "
	  "usable sample\n" },
	{ "build", cmd_build, "build one commit's kernel image (cached)",
	  "Builds a bzImage from a repository and a revision with the Kconfig "
	  "fragments, or serves it from the cache of images by build key, and "
	  "prints its path, its key and the time taken.",
	  "0 built or found in the cache\n1 the build failed\n" },
	{ "measure", cmd_measure, "build and boot one commit (a Slurm task)",
	  "One probe: builds the commit and boots it N times, storing the "
	  "results; what each Slurm task of a bisection or a sweep runs on a "
	  "node.",
	  "0 built and measured\n1 the commit failed to build or boot\n" },
	{ "profile", cmd_profile,
	  "where one kernel spends its instructions in the workload",
	  "Boots one kernel once with iobisect's QEMU plugin, which counts "
	  "the guest kernel's instructions while the workload's measured "
	  "samples run, and prints its top functions by instructions per MB "
	  "moved and per request, with their share of all the kernel's. The "
	  "counts are the emulated CPU's instructions, exact, not cycles. "
	  "Needs a QEMU that loads plugins and the kernel's System.map (kept "
	  "beside each image built).",
	  "0 profiled\n1 the build or the profiled boot failed\n" },
	{ "report", cmd_report, "a results folder as an HTML page and JSON",
	  "Writes one self-contained HTML page of a results folder: MB/s per "
	  "commit for each topology and point, the change points and the "
	  "culprit marked, the bisection's history; --json writes the same "
	  "data.",
	  NULL },
	{ "compare", cmd_compare, "two commits' stored figures side by side",
	  "Prints two commits' stored figures as a %stddev %change %stddev "
	  "table, with the block-layer counters that differ most under each "
	  "row.",
	  NULL },
	{ "upload", cmd_upload,
	  "send a results folder to a server, or the spool",
	  "Sends a job's results folder to an upload endpoint (the token in "
	  "IOBISECT_UPLOAD_TOKEN), or with --flush what was spooled while the "
	  "endpoint was down.",
	  NULL },
	{ "version", cmd_version,
	  "the release, the build, the guest's build id and the QEMU found",
	  "Prints the release and the build's git describe, the guest program "
	  "it would boot and its build id, the folder of its presets and "
	  "fragments, the QEMU on PATH with its version and whether it loads "
	  "the profile's plugin. Every stored "
	  "document, report.txt and the HTML page name the same version.",
	  NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};
/* clang-format on */

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

	/* Nothing a command says while its table is read is news. */
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
