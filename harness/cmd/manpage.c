/*
 * manpage.c: the man pages, in roff, from the tables (manpage.h). The
 * words around the tables are few and written here once; what a command
 * takes, and what a job key means, come only from the tables.
 */
#include "manpage.h"
#include "commands.h"
#include "exit_code.h"
#include "job.h"
#include "job_keys.h"
#include "job_reference.h"
#include "util.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

/*
 * The first `n` bytes of `s` as roff text: a backslash is \e, a minus
 * (options are typed, so a hyphen would not do) is \-, and a line that
 * would start with '.' or '\'' is not taken for a request.
 */
static void roff_n(struct strbuf *out, const char *s, size_t n)
{
	int bol = !out->len || out->buf[out->len - 1] == '\n';

	for (size_t i = 0; i < n && s[i]; i++) {
		if (bol && (s[i] == '.' || s[i] == '\''))
			strbuf_addstr(out, "\\&");
		bol = s[i] == '\n';
		if (s[i] == '\\')
			strbuf_addstr(out, "\\e");
		else if (s[i] == '-')
			strbuf_addstr(out, "\\-");
		else
			strbuf_addch(out, s[i]);
	}
}

static void roff(struct strbuf *out, const char *s)
{
	roff_n(out, s, strlen(s));
}

/* Where `make install` and the package put docs/NAME.md (docdir). */
#define DOC_DIR "/usr/share/doc/iobisect/"

/*
 * A table's text, whose "docs/NAME.md" (the source tree's) is named
 * where a reader of the page has it: the installed documentation.
 */
static void roff_doc(struct strbuf *out, const char *s)
{
	const char *p;

	while ((p = strstr(s, "docs/"))) {
		roff_n(out, s, (size_t)(p - s));
		roff(out, DOC_DIR);
		s = p + 5;
	}
	roff(out, s);
}

/* Verbatim lines (an example), each as typed. */
static void roff_example(struct strbuf *out, const char *text)
{
	strbuf_addstr(out, ".PP\n.EX\n");
	roff(out, text);
	if (out->len && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addstr(out, ".EE\n");
}

/* The top of a page, up to the NAME line's " \- ". */
static void header(struct strbuf *out, const char *name, int section)
{
	strbuf_addstr(out, ".\\\" Made by `iobisect help --man` from the "
			   "program's tables; do not edit.\n.TH ");
	for (const char *p = name; *p; p++)
		strbuf_addch(out, (*p >= 'a' && *p <= 'z') ? *p - 32 : *p);
	/* The release, not the commit: a page changes when its table does. */
	strbuf_addf(out, " %d \"\" \"iobisect %s\" \"iobisect manual\"\n",
		    section, version_release());
	strbuf_addstr(out, ".SH NAME\n");
	roff(out, name);
	strbuf_addstr(out, " \\- ");
}

static void shared_exits(struct strbuf *out)
{
	strbuf_addf(out,
		    ".TP\n.B %d\nabort: bad input or setup "
		    "(QEMU missing, a file that cannot be read); "
		    "nothing decided\n"
		    ".TP\n.B %d\ninterrupted (SIGINT or SIGTERM): "
		    "what was measured is kept, and the same command "
		    "resumes\n",
		    EXIT_ABORT, EXIT_INTERRUPTED);
}

/* The pages beside `self` ("iobisect-bisect(1)"). */
static void see_also(struct strbuf *out, const char *self)
{
	static const char *const pages[] = {"iobisect(1)", "iobisect-job(5)",
					    "git-bisect(1)",
					    "qemu-system-x86_64(1)"};
	int first = 1;

	strbuf_addstr(out, ".SH SEE ALSO\n");
	for (size_t i = 0; i < ARRAY_SIZE(pages); i++) {
		if (!strcmp(pages[i], self))
			continue;
		size_t n = strcspn(pages[i], "(");
		strbuf_addstr(out, first ? "\\fB" : ",\n\\fB");
		roff_n(out, pages[i], n);
		strbuf_addf(out, "\\fR%s", pages[i] + n);
		first = 0;
	}
	strbuf_addstr(out, "\n.PP\nThe documentation, in Markdown: \\fI");
	roff(out, DOC_DIR);
	strbuf_addstr(out, "\\fR (\\fIprefix\\fR/share/doc/iobisect/ after "
			   "\\fBmake install\\fR): commands.md, job.md, "
			   "operations.md, clocks.md, verdicts.md.\n");
}

/* A FILES or ENVIRONMENT entry, on the pages of the commands that use it. */
struct uses_entry {
	unsigned uses; /* enum command_uses: any of these */
	const char *name;
	const char *text;
};

/* clang-format off */
static const struct uses_entry files[] = {
	{ USES_CACHE, "~/.cache/iobisect/",
	  "the cache folder ($XDG_CACHE_HOME/iobisect/ when XDG_CACHE_HOME is "
	  "an absolute path), this user's only, made on first use" },
	{ USES_CACHE, "~/.cache/iobisect/images/KEY/",
	  "a kernel image built, by build key: bzImage, System.map, build.log, "
	  "key.json; what iobisect build prints as image PATH" },
	{ USES_CACHE, "~/.cache/iobisect/src/ and obj/",
	  "each repository's private source tree and its build folders, "
	  "reused across commits (your working tree is never touched)" },
	{ USES_UPLOAD, "~/.cache/iobisect/spool/",
	  "documents waiting for an upload endpoint that was down" },
	{ USES_RESULTS, "results/",
	  "the default results folder (a job's \"results\", --results DIR): "
	  "a folder per job, then per commit, with a JSON document per "
	  "sample, the bisection's state and report.txt" },
	{ USES_DATA, "/usr/share/iobisect/qemu/NAME.json",
	  "the topology presets (prefix/share/iobisect/ after make install)" },
	{ USES_DATA, "/usr/share/iobisect/kconfigs/",
	  "the Kconfig fragments merged on the base config" },
	{ USES_GUEST, "/usr/libexec/iobisect/iobisect-guest",
	  "the static guest program, PID 1 of every initramfs" },
	{ USES_PLUGIN, "/usr/libexec/iobisect/iobisect-tbcount.so",
	  "the QEMU plugin that counts a profile's instructions" },
};

static const struct uses_entry environment[] = {
	{ USES_DATA, "IOBISECT_DATA",
	  "the folder of the topology presets (qemu/) and Kconfig fragments "
	  "(kconfigs/); by default the source folder of the build tree the "
	  "binary runs from, else where the program was installed "
	  "(prefix/share/iobisect), else the source folder it was built in; "
	  "never the working folder" },
	{ USES_GUEST, "IOBISECT_GUEST",
	  "the guest program; by default the same way: the build folder, else "
	  "prefix/libexec/iobisect/iobisect-guest" },
	{ USES_PLUGIN, "IOBISECT_PLUGIN",
	  "the QEMU plugin that counts a profile's instructions; by default "
	  "the same way: prefix/libexec/iobisect/iobisect-tbcount.so" },
	{ USES_CACHE, "XDG_CACHE_HOME, HOME",
	  "where the cache folder is (FILES); without HOME, no cache, never "
	  "a shared /tmp" },
	{ USES_GUEST, "PATH",
	  "where qemu-system-x86_64 is found, unless the job's machine.qemu "
	  "names it" },
	{ USES_GUEST, "TMPDIR",
	  "scratch files of QEMU's probes; /tmp when unset or relative" },
	{ USES_UPLOAD, "IOBISECT_UPLOAD_TOKEN",
	  "the bearer token sent to an upload endpoint" },
	{ USES_SLURM, "SLURM_ARRAY_TASK_ID",
	  "which line of --commit-list FILE a task of a job array measures" },
};
/* clang-format on */

/* FILES and ENVIRONMENT of a page whose command uses `uses`. */
static void uses_sections(struct strbuf *out, unsigned uses)
{
	const struct { const char *title, *font; const struct uses_entry *e;
		       size_t nr; } sections[] = {
		{ "ENVIRONMENT", "B", environment, ARRAY_SIZE(environment) },
		{ "FILES", "I", files, ARRAY_SIZE(files) },
	};

	for (size_t s = 0; s < ARRAY_SIZE(sections); s++) {
		int any = 0;
		for (size_t i = 0; i < sections[s].nr; i++) {
			const struct uses_entry *e = &sections[s].e[i];
			if (!(e->uses & uses))
				continue;
			if (!any++)
				strbuf_addf(out, ".SH %s\n", sections[s].title);
			strbuf_addf(out, ".TP\n.%s ", sections[s].font);
			roff(out, e->name);
			strbuf_addstr(out, "\n");
			roff(out, e->text);
			strbuf_addstr(out, "\n");
		}
	}
}

/* One option or argument: its name in bold, its value's placeholder. */
static void entry(struct strbuf *out, const struct opt *o)
{
	strbuf_addstr(out, ".TP\n");
	if (o->type == OPTION_ARG) {
		strbuf_addstr(out, "\\fI");
		roff(out, o->name);
		strbuf_addstr(out, "\\fR\n");
	} else {
		strbuf_addstr(out, "\\fB");
		roff(out, o->name);
		strbuf_addstr(out, "\\fR");
		if (o->argh) {
			strbuf_addstr(out, " \\fI");
			roff(out, o->argh);
			strbuf_addstr(out, "\\fR");
		}
		strbuf_addstr(out, "\n");
	}
	roff(out, o->help);
	strbuf_addstr(out, "\n");
}

/*
 * A synopsis as usage prints it, one form a line ("   or: iobisect CMD
 * ..." starts the next, lines indented under it go on), as roff's: each
 * form its own line with the command in bold.
 */
static void synopsis_lines(struct strbuf *out, const char *cmd, const char *syn)
{
	struct strvec lines = STRVEC_INIT;
	char * or = xstrfmt("or: iobisect %s ", cmd);

	strvec_split(&lines, syn, '\n');
	for (size_t i = 0; i < lines.nr; i++) {
		const char *l = lines.v[i] + strspn(lines.v[i], " ");
		if (!strncmp(l, or, strlen(or))) {
			strbuf_addstr(out, ".br\n.B iobisect ");
			roff(out, cmd);
			strbuf_addstr(out, "\n");
			l += strlen(or);
		}
		roff(out, l);
		strbuf_addstr(out, "\n");
	}
	strvec_clear(&lines);
	free(or);
}

struct command_page {
	const struct command *c;
	struct strbuf *out;
};

/* A command's page, written while its table is in reach (commands.h). */
static void command_page(const char *cmd, const char *synopsis,
			 const struct opt *opts, void *payload)
{
	struct command_page *p = payload;
	struct strbuf *out = p->out, syn = STRBUF_INIT;
	char *self = xstrfmt("iobisect-%s(1)", cmd);
	int args = 0; /* arguments with help */

	roff(out, p->c->summary);
	strbuf_addstr(out, "\n.SH SYNOPSIS\n.B iobisect ");
	roff(out, cmd);
	strbuf_addstr(out, "\n");
	opt_synopsis(&syn, synopsis, opts);
	synopsis_lines(out, cmd, syn.buf);
	strbuf_addstr(out, ".SH DESCRIPTION\n");
	roff_doc(out, p->c->description);
	strbuf_addstr(out, "\n");
	for (const struct opt *o = opts; o->type != OPTION_END; o++)
		if (o->type == OPTION_ARG && o->help) {
			if (!args++)
				strbuf_addstr(out, ".SH ARGUMENTS\n");
			entry(out, o);
		}
	strbuf_addstr(out, ".SH OPTIONS\n");
	for (const struct opt *o = opts; o->type != OPTION_END; o++)
		if (o->type != OPTION_ARG && o->help)
			entry(out, o);
	/* Every command's (options.h), in no table. */
	strbuf_addstr(out, ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n"
			   "the usage on the standard output, exit 0; an "
			   "unknown option or a missing value is one error "
			   "line and the usage's first line on the standard "
			   "error, exit 128\n");
	strbuf_addstr(out, ".SH EXIT STATUS\n");
	if (p->c->exits) {
		struct strvec lines = STRVEC_INIT;
		strvec_split(&lines, p->c->exits, '\n');
		for (size_t i = 0; i < lines.nr; i++) {
			size_t n = strcspn(lines.v[i], " ");
			strbuf_addstr(out, ".TP\n.B ");
			roff_n(out, lines.v[i], n);
			strbuf_addstr(out, "\n");
			roff(out, lines.v[i] + n + (lines.v[i][n] == ' '));
			strbuf_addstr(out, "\n");
		}
		strvec_clear(&lines);
	} else {
		strbuf_addstr(out, ".TP\n.B 0\ndone\n");
	}
	shared_exits(out);
	uses_sections(out, p->c->uses);
	strbuf_addstr(out, ".SH EXAMPLES\n");
	roff_example(out, p->c->examples);
	see_also(out, self);
	free(self);
	strbuf_release(&syn);
}

/* clang-format off */
static const char main_examples[] =
	"# The demo: a Linux 6.1 tree with a real readahead regression, "
	"bisected\n"
	"make demo\n"
	"iobisect bisect tests/jobs/demo.json\n"
	"# One kernel on a preset, no job file\n"
	"iobisect run --kernel bzImage --topology virtio --workload rawread\n"
	"# git bisect run in a kernel tree\n"
	"git bisect start --term-old fast --term-new slow v6.2 v6.1\n"
	"git bisect run iobisect test ~/job.json\n"
	"# A release swept every 50 commits, each step bisected\n"
	"iobisect sweep job.json --range v6.1..v6.2 --every 50\n"
	"# The same bisection, each probe a Slurm job\n"
	"iobisect bisect job.json --executor slurm --partition short "
	"--probes 4\n";

static const char job_examples[] =
	"{\n  \"repo\": \"~/src/linux\", \"good\": \"v6.1\", "
	"\"bad\": \"my-slow-branch\",\n"
	"  \"topology\": \"virtio\",\n"
	"  \"workload\": {\"engine\": \"rawread\", \"target\": \"d0\", "
	"\"bs_kb\": 4, \"size_mb\": 128}\n}\n";

static const char job_examples_more[] =
	"{\n  \"repo\": \"~/src/linux\", \"good\": \"v6.1\", "
	"\"bad\": \"v6.2\",\n"
	"  \"topology\": {\"preset\": \"raid0-4\", "
	"\"disks\": {\"latency_ns\": 100000}},\n"
	"  \"workload\": {\"engine\": \"seqread\", \"bs_kb\": [4, 128], "
	"\"threads\": 2},\n"
	"  \"runs\": {\"min\": 2, \"max\": 8}, \"threshold\": \"10%\"\n}\n";

static const char job_examples_set[] =
	"# The same job on another preset and block size, for one run\n"
	"iobisect run job.json --set topology=nvme --set workload.bs_kb=64\n"
	"# A key of every disk of the preset\n"
	"iobisect run job.json --set topology.disks.cache=writeback\n";
/* clang-format on */

static void main_page(struct strbuf *out)
{
	header(out, "iobisect", 1);
	strbuf_addstr(
		out,
		"find the kernel commit that made block I/O slow\n"
		".SH SYNOPSIS\n.B iobisect\n\\fIcommand\\fR [options]\n.br\n"
		".B iobisect help\n[\\fIcommand\\fR | job]\n.br\n"
		".B iobisect \\-\\-version\n"
		".SH DESCRIPTION\n"
		"\\fBiobisect\\fR builds a kernel at each candidate commit of "
		"a "
		"git repository, boots it under QEMU on an emulated disk "
		"topology, runs a fixed block I/O workload in a static guest "
		"program, decides from the samples whether the commit is fast, "
		"slow or untestable, and bisects to the first slow commit. A "
		"job "
		"file (\\fBiobisect-job\\fR(5)) names the repository, the two "
		"endpoints, the topology and the workload.\n"
		".SH COMMANDS\n");
	for (const struct command *c = commands; c->name; c++) {
		strbuf_addstr(out, ".TP\n\\fBiobisect\\-");
		roff(out, c->name);
		strbuf_addstr(out, "\\fR(1)\n");
		roff(out, c->summary);
		strbuf_addstr(out, "\n");
	}
	strbuf_addstr(out, ".SH EXIT STATUS\nEach command's page lists its "
			   "own codes; these mean the same to every "
			   "command.\n");
	shared_exits(out);
	uses_sections(out, ~0u);
	strbuf_addstr(out, ".SH EXAMPLES\n");
	roff_example(out, main_examples);
	see_also(out, "iobisect(1)");
}

/* One key of a section the job's own parsers read: name, then words. */
static void key_entry(struct strbuf *out, const char *prefix, const char *key,
		      const char *text)
{
	strbuf_addstr(out, ".TP\n.B ");
	roff(out, prefix);
	roff(out, key);
	strbuf_addstr(out, "\n");
	roff(out, text);
	strbuf_addstr(out, "\n");
}

/* What the workload's own keys are, beside each engine's. */
static const char *workload_key_text(const char *key)
{
	static const char *const text[][2] = {
		{"engine", "the engine (below); \"workload\": \"ENGINE\" is the "
			   "engine with its defaults"},
		{"target", "the disk, layer or file the engine works on "
			   "(default: a file on the top file system, else the "
			   "top device)"},
		{"samples", "samples of each point in a boot (default: "
			    "runs.samples)"},
		{"warmup", "samples dropped first (default: runs.warmup)"},
		{"job", "fio's job file (beside the job file) or its text "
			"inline"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(text); i++)
		if (!strcmp(text[i][0], key))
			return text[i][1];
	return "";
}

/* Each rule of a table (an engine's, a layer kind's), its value in words. */
static void rule_entries(struct strbuf *out, const char *prefix,
			 const struct key_rule *r, const char *engine)
{
	struct strbuf what = STRBUF_INIT;

	for (; r->key; r++) {
		if (engine && !job_engine_key_given(engine, r))
			continue;
		strbuf_reset(&what);
		job_rule_describe(&what, r);
		if (r->required)
			strbuf_addstr(&what, "; required");
		if (engine && *workload_key_text(r->key))
			strbuf_addf(&what, ": %s", workload_key_text(r->key));
		key_entry(out, prefix, r->key, what.buf);
	}
	strbuf_release(&what);
}

static void workload_section(struct strbuf *out)
{
	const char *const *engines = job_engines();

	strbuf_addstr(out,
		      ".SH WORKLOAD\n"
		      "\"workload\" is an engine's name or an object of the "
		      "engine and its keys. A key given as a list (\"bs_kb\": "
		      "[4, 128]) makes a point of each value, and a list in "
		      "several keys a point of each combination; every point "
		      "is measured in each boot.\n");
	for (size_t i = 0; job_workload_keys[i]; i++)
		key_entry(out, "workload.", job_workload_keys[i],
			  workload_key_text(job_workload_keys[i]));
	strbuf_addstr(out, ".SS Engines\n");
	for (size_t e = 0; engines[e]; e++) {
		strbuf_addstr(out, ".TP\n.B ");
		roff(out, engines[e]);
		strbuf_addstr(out, "\nreports ");
		roff(out, job_engine_metrics((int)e));
		strbuf_addstr(out, "; its keys:\n.RS\n");
		rule_entries(out, "workload.", job_engine_rules(engines[e]),
			     engines[e]);
		strbuf_addstr(out, ".RE\n");
	}
}

/* What a disk's keys are (job_disk.c reads them). */
static const char *disk_key_text(const char *key)
{
	static const char *const text[][2] = {
		{"name", "what layers' \"on\" names (d0, d1, ...)"},
		{"bus", "what the guest sees it on"},
		{"backing", "a sparse image, one in /dev/shm, QEMU's null-co "
			    "(zeroes read, writes dropped), or a host device"},
		{"path", "backing host: the device or file passed through"},
		{"size_mb", "an image's or a null disk's size in MiB"},
		{"latency_ns", "null-co's latency per request"},
		{"write_latency_ns", "images: the least time each write and "
				     "flush takes"},
		{"bps_max", "QEMU's throttle, bytes per second (0: none)"},
		{"iops_max", "QEMU's throttle, requests per second (0: none)"},
		{"readonly", "no writes (a host disk is, unless "
			     "--destroy-data-on names it)"},
		{"cache", "QEMU's cache mode"},
		{"max_sectors_kb", "virtio-blk and SCSI: the request size cap "
				   "(0: QEMU's)"},
		{"memory_backed", "nullb: keep what is written, so it reads "
				  "back"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(text); i++)
		if (!strcmp(text[i][0], key))
			return text[i][1];
	return "";
}

static void topology_section(struct strbuf *out)
{
	const char *const *kinds = job_layer_kinds();

	strbuf_addstr(
		out,
		".SH TOPOLOGY\n"
		"\"topology\" is a preset's name (PRESETS), a preset with "
		"overrides ({\"preset\": NAME, ...}), or a whole topology "
		"({\"name\", \"description\", \"disks\", \"layers\"}); a list "
		"of them measures each. Its keys:\n");
	for (size_t i = 0; job_topology_keys[i]; i++) {
		static const char *const text[][2] = {
			{"preset", "the preset the other keys override"},
			{"name", "the topology's name in results and reports"},
			{"description", "words for people"},
			{"path", "the device of every host disk (backing host)"},
			{"disks", "a list of disks; on a preset, an object of "
				  "disk keys set on every disk"},
			{"layers", "a list of layers built on the disks, in "
				   "order; on a preset, its layers replaced"},
			{"extra_layers", "on a preset, layers added after its "
					 "own"},
		};
		const char *t = "";
		for (size_t j = 0; j < ARRAY_SIZE(text); j++)
			if (!strcmp(text[j][0], job_topology_keys[i]))
				t = text[j][1];
		key_entry(out, "topology.", job_topology_keys[i], t);
	}
	strbuf_addstr(out,
		      ".PP\nOn a preset, a disk's or a layer's name is a key "
		      "too: an object of its keys to set.\n.SS Disks\n"
		      "Each disk of \"disks\" takes:\n");
	for (size_t i = 0; job_disk_keys[i]; i++) {
		const char *const *c = job_disk_key_choices(job_disk_keys[i]);
		struct strbuf what = STRBUF_INIT;
		strbuf_addstr(&what, disk_key_text(job_disk_keys[i]));
		for (size_t j = 0; c && c[j]; j++)
			strbuf_addf(&what, "%s%s", j ? ", " : ": one of ",
				    c[j]);
		key_entry(out, "", job_disk_keys[i], what.buf);
		strbuf_release(&what);
	}
	strbuf_addstr(out, ".SS Layers\nEach layer of \"layers\" has a "
			   "\"kind\", one of these, and its keys:\n");
	for (size_t k = 0; kinds[k]; k++) {
		strbuf_addstr(out, ".TP\n.B ");
		roff(out, kinds[k]);
		strbuf_addstr(out, "\n.RS\n");
		rule_entries(out, "", job_layer_rules(kinds[k]), NULL);
		strbuf_addstr(out, ".RE\n");
	}
}

/* The presets of the data folder, each with its own description. */
static void presets_section(struct strbuf *out)
{
	struct strvec names = STRVEC_INIT;

	job_presets(&names);
	strbuf_addstr(out, ".SH PRESETS\nThe topologies of the data folder "
			   "(FILES), by name:\n");
	for (size_t i = 0; i < names.nr; i++) {
		char *d = job_preset_description(names.v[i]);
		key_entry(out, "", names.v[i], d ? d : "");
		free(d);
	}
	if (!names.nr)
		strbuf_addstr(out, "None found.\n");
	strvec_clear(&names);
}

static void job_page(struct strbuf *out)
{
	struct strbuf range = STRBUF_INIT;

	header(out, "iobisect-job", 5);
	strbuf_addstr(
		out,
		"the job file of iobisect\n"
		".SH DESCRIPTION\n"
		"A job is one JSON object: the kernel repository and its two "
		"endpoints, a disk topology, a workload, and how to decide. "
		"Keys below are written as \\fIsection\\fR.\\fIname\\fR for "
		"those inside an object; \\fB\\-\\-set\\fR "
		"\\fIkey\\fR=\\fIvalue\\fR sets one on the command line (the "
		"value read as JSON when it is JSON, else as a string).\n"
		".SH KEYS\n");
	for (const struct job_key *k = job_keys; k->key; k++) {
		strbuf_addstr(out, ".TP\n.B ");
		roff(out, k->key);
		strbuf_addstr(out, "\n");
		roff_doc(out, k->help);
		strbuf_reset(&range);
		job_key_range(&range, k);
		strbuf_addstr(out, ".\n(");
		roff(out, job_key_type_name(k));
		if (k->def) {
			strbuf_addstr(out, "; default ");
			roff(out, k->def);
		}
		if (range.len) {
			strbuf_addstr(out, "; ");
			roff(out, range.buf);
		}
		strbuf_addstr(out, ")\n");
	}
	workload_section(out);
	topology_section(out);
	presets_section(out);
	uses_sections(out, USES_DATA);
	strbuf_addstr(out, ".SH EXAMPLES\nThe demo's shape: one disk, one "
			   "point.\n");
	roff_example(out, job_examples);
	strbuf_addstr(out, ".PP\nA preset with every disk slower, two block "
			   "sizes, a fixed threshold.\n");
	roff_example(out, job_examples_more);
	strbuf_addstr(out, ".PP\nKeys set on the command line.\n");
	roff_example(out, job_examples_set);
	see_also(out, "iobisect-job(5)");
	strbuf_release(&range);
}

void manpage_names(struct strvec *out)
{
	strvec_push(out, "iobisect.1");
	for (const struct command *c = commands; c->name; c++)
		strvec_pushf(out, "iobisect-%s.1", c->name);
	strvec_push(out, "iobisect-job.5");
}

int manpage_write(struct strbuf *out, const char *name)
{
	const char *cmd;
	const struct command *c;

	if (!strcmp(name, "iobisect.1")) {
		main_page(out);
		return 0;
	}
	if (!strcmp(name, "iobisect-job.5")) {
		job_page(out);
		return 0;
	}
	if (strncmp(name, "iobisect-", 9) || !strstr(name, ".1") ||
	    strcmp(strstr(name, ".1"), ".1"))
		return error("'%s' is not a page of iobisect's", name);
	cmd = name + 9;
	char *word = xstrndup(cmd, strlen(cmd) - 2);
	c = command_find(word);
	free(word);
	if (!c)
		return error("'%s' is not a page of iobisect's", name);
	struct command_page p = {c, out};
	char *page = xstrfmt("iobisect-%s", c->name);
	header(out, page, 1);
	free(page);
	return command_read_table(c, command_page, &p);
}
