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
	  "2 endpoints not separated\n",
	  "# The demo's job: a Linux 6.1 tree with a readahead regression\n"
	  "iobisect bisect tests/jobs/demo.json\n"
	  "# Its history, as git bisect log prints one\n"
	  "iobisect bisect job.json --log\n"
	  "# Each probe a Slurm job, four commits at once\n"
	  "iobisect bisect job.json --executor slurm --partition short "
	  "--probes 4\n",
	  USES_CACHE | USES_RESULTS | USES_DATA | USES_GUEST | USES_PLUGIN |
		  USES_UPLOAD },
	{ "test", cmd_test,
	  "one commit fast or slow: the script for git bisect run",
	  "Measures the commit checked out in the repository (or stored "
	  "figures of it) and answers as git bisect run wants: "
	  "git bisect run iobisect test JOB works in any kernel tree.",
	  "0 fast (good)\n1 slow (bad)\n125 untestable (skip)\n",
	  "# git bisect run in a kernel tree, the job's endpoints git's\n"
	  "cd ~/src/linux\n"
	  "git bisect start --term-old fast --term-new slow v6.2 v6.1\n"
	  "git bisect run iobisect test ~/job.json\n"
	  "git bisect reset\n",
	  USES_CACHE | USES_RESULTS | USES_DATA | USES_GUEST },
	{ "sweep", cmd_sweep, "measure a range, find its steps, bisect each",
	  "Measures a sample of the range (every Nth commit, or the tags), "
	  "finds its change points, and bisects each regression between the "
	  "two sampled commits around it. A rerun measures nothing new.",
	  "0 no regression\n1 regressions found\n",
	  "# Every 50th commit of a release, then a bisection of each step\n"
	  "iobisect sweep job.json --range v6.1..v6.2 --every 50\n"
	  "# The release candidates' tags instead, each probe a Slurm job\n"
	  "iobisect sweep job.json --range v6.1..v6.2 --tags 'v6.2-rc*' "
	  "--executor slurm\n",
	  USES_CACHE | USES_RESULTS | USES_DATA | USES_GUEST | USES_UPLOAD },
	{ "run", cmd_run,
	  "boot one kernel on a job's topologies and print MB/s",
	  "Boots one kernel (the job's, a prebuilt image, or a commit built) "
	  "on each of the job's topologies and prints MB/s per sample and a "
	  "summary; without a job file, --topology and --workload make one.",
	  "0 every boot ok\n1 a build or boot failed, or no boot gave a "
	  "usable sample\n",
	  "# No job file: an image, a preset and an engine with a key\n"
	  "iobisect run --kernel bzImage --topology virtio "
	  "--workload rawread,bs_kb=4\n"
	  "# The job's kernel three times, on TCG\n"
	  "iobisect run job.json --boots 3 --set machine.accel=tcg\n"
	  "# A commit of the job's repository, built first\n"
	  "iobisect run job.json --commit v6.1\n",
	  USES_CACHE | USES_RESULTS | USES_DATA | USES_GUEST },
	{ "build", cmd_build, "build one commit's kernel image (cached)",
	  "Builds a bzImage from a repository and a revision with the Kconfig "
	  "fragments, or serves it from the cache of images by build key, and "
	  "prints it as lines of a name and a value: image PATH (the bzImage), "
	  "key, commit, time, and whether the cache held it. The images are "
	  "kept under the cache folder, in images/KEY/ (bzImage, System.map, "
	  "build.log, key.json), with the build trees beside them (FILES).",
	  "0 built or found in the cache\n1 the build failed\n",
	  "# Prints image ~/.cache/iobisect/images/KEY/bzImage, then the "
	  "key\n"
	  "iobisect build --repo ~/src/linux --commit v6.1\n"
	  "# Two more fragments on the base, make -j 8\n"
	  "iobisect build --repo ~/src/linux --commit HEAD --kconfig "
	  "virtio,md -j 8\n",
	  USES_CACHE | USES_DATA },
	{ "measure", cmd_measure, "build and boot one commit (a Slurm task)",
	  "One probe: builds the commit and boots it N times, storing the "
	  "results; what each Slurm task of a bisection or a sweep runs on a "
	  "node.",
	  "0 built and measured\n1 the commit failed to build or boot\n",
	  "# One probe, as a Slurm task of a bisection runs it\n"
	  "iobisect measure job.json --commit 1a2b3c4d --boots 2\n"
	  "# A job array: the commit on line SLURM_ARRAY_TASK_ID of the "
	  "list\n"
	  "sbatch --array=0-9 --wrap 'iobisect measure job.json "
	  "--commit-list commits.txt --boots 2'\n",
	  USES_CACHE | USES_RESULTS | USES_DATA | USES_GUEST | USES_SLURM },
	{ "profile", cmd_profile,
	  "where one kernel spends its instructions in the workload",
	  "Boots one kernel once with iobisect's QEMU plugin, which counts "
	  "the guest kernel's instructions while the workload's measured "
	  "samples run, and prints its top functions by instructions per MB "
	  "moved and per request, with their share of all the kernel's. The "
	  "counts are the emulated CPU's instructions, exact, not cycles. "
	  "Needs a QEMU that loads plugins and the kernel's System.map (kept "
	  "beside each image built).",
	  "0 profiled\n1 the build or the profiled boot failed\n",
	  "# The top 40 functions of a commit's kernel\n"
	  "iobisect profile job.json --commit v6.1 --rows 40\n"
	  "# An image built elsewhere, with its map\n"
	  "iobisect profile job.json --kernel bzImage --map System.map\n",
	  USES_CACHE | USES_RESULTS | USES_DATA | USES_GUEST | USES_PLUGIN },
	{ "report", cmd_report, "a results folder as an HTML page and JSON",
	  "Writes one self-contained HTML page of a results folder: MB/s per "
	  "commit for each topology and point, the change points and the "
	  "culprit marked, the bisection's history; --json writes the same "
	  "data.",
	  NULL,
	  "# The page of every job in the results folder\n"
	  "iobisect report results --html report.html\n"
	  "# One job's page and its data\n"
	  "iobisect report results --job demo --html demo.html --json "
	  "demo.json\n",
	  USES_RESULTS },
	{ "compare", cmd_compare, "two commits' stored figures side by side",
	  "Prints two commits' stored figures as a %stddev %change %stddev "
	  "table, with the block-layer counters that differ most under each "
	  "row.",
	  NULL,
	  "# A culprit's figures beside its parent's, as the store holds "
	  "them\n"
	  "iobisect compare 1a2b3c4d 5e6f7a8b --results results --job demo\n",
	  USES_RESULTS },
	{ "upload", cmd_upload,
	  "send a results folder to a server, or the spool",
	  "Sends a job's results folder to an upload endpoint (the token in "
	  "IOBISECT_UPLOAD_TOKEN), or with --flush what was spooled while the "
	  "endpoint was down.",
	  NULL,
	  "# A job's folder to a server\n"
	  "IOBISECT_UPLOAD_TOKEN=... iobisect upload results/demo --url "
	  "https://ci.example.org/iobisect\n"
	  "# What waited in the spool\n"
	  "iobisect upload --flush\n",
	  USES_CACHE | USES_RESULTS | USES_UPLOAD },
	{ "version", cmd_version,
	  "the release, the build, the guest's build id and the QEMU found",
	  "Prints the release and the build's git describe, the guest program "
	  "it would boot and its build id, the folder of its presets and "
	  "fragments, the QEMU on PATH with its version and whether it loads "
	  "the profile's plugin. Every stored "
	  "document, report.txt and the HTML page name the same version.",
	  NULL,
	  "# What a bug report should name\n"
	  "iobisect version\n",
	  USES_DATA | USES_GUEST | USES_PLUGIN },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0 },
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
