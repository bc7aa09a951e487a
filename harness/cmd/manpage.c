/*
 * manpage.c: the man pages, in roff, from the tables (manpage.h). The
 * words around the tables are few and written here once; what a command
 * takes, and what a job key means, come only from the tables.
 */
#include "manpage.h"
#include "commands.h"
#include "exit_code.h"
#include "job_keys.h"
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
	strbuf_addstr(out, "\n");
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
	roff(out, p->c->description);
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
	see_also(out, self);
	free(self);
	strbuf_release(&syn);
}

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
	strbuf_addstr(
		out,
		".SH ENVIRONMENT\n"
		".TP\n.B IOBISECT_DATA\n"
		"the folder of the topology presets (qemu/) and Kconfig "
		"fragments (kconfigs/); by default the source folder of the "
		"build tree the binary runs from, else where the program "
		"was installed (\\fIprefix\\fR/share/iobisect), else the "
		"source folder it was built in; never the working folder\n"
		".TP\n.B IOBISECT_GUEST\n"
		"the guest program; by default the same way: the build "
		"folder, else "
		"\\fIprefix\\fR/libexec/iobisect/iobisect\\-guest\n"
		".TP\n.B IOBISECT_PLUGIN\n"
		"the QEMU plugin that counts a profile's instructions; by "
		"default the same way: "
		"\\fIprefix\\fR/libexec/iobisect/iobisect\\-tbcount.so\n"
		".SH FILES\n"
		".TP\n.I results/\n"
		"the default results folder: one folder per job, then per "
		"commit, with a JSON document per sample\n"
		".TP\n.I ~/.cache/iobisect/\n"
		"built kernel images, by build key\n");
	see_also(out, "iobisect(1)");
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
		"\\fIkey\\fR=\\fIvalue\\fR sets one on the command line.\n"
		".SH EXAMPLE\n.EX\n"
		"{\n  \"repo\": \"~/src/linux\", \"good\": \"v6.1\", "
		"\"bad\": \"my\\-slow\\-branch\",\n"
		"  \"topology\": \"virtio\",\n"
		"  \"workload\": {\"engine\": \"rawread\", \"target\": \"d0\", "
		"\"bs_kb\": 4, \"size_mb\": 128}\n}\n.EE\n"
		".SH KEYS\n");
	for (const struct job_key *k = job_keys; k->key; k++) {
		strbuf_addstr(out, ".TP\n.B ");
		roff(out, k->key);
		strbuf_addstr(out, "\n");
		roff(out, k->help);
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
