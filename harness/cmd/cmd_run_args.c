/*
 * cmd_run_args.c: `iobisect run`'s command line (cmd_run.h): its option
 * table, from which its usage is made, and the job a run without a job
 * file makes from --topology, --workload and the others.
 */
#include "cmd_run.h"
#include "cmd_options.h"
#include "options.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* run has two forms: a job file, or a job made from the options. */
static const char synopsis[] =
	"JOB [--kernel BZIMAGE | --commit REV [--repo PATH]] [options]\n"
	"   or: iobisect run --kernel BZIMAGE | --commit REV [--repo PATH]\n"
	"                    --topology PRESET[,key=value...]\n"
	"                    --workload ENGINE[,key=value...] [options]";

/*
 * Split "raid5-4,md0.bitmap=[0,1],chunk_kb=64" at the commas that are not
 * inside brackets, so list values survive.
 */
static void split_top_level(struct strvec *out, const char *s)
{
	struct strbuf cur = STRBUF_INIT;
	int depth = 0;
	for (; *s; s++) {
		if (*s == '[' || *s == '{')
			depth++;
		else if ((*s == ']' || *s == '}') && depth)
			depth--;
		if (*s == ',' && !depth) {
			if (cur.len)
				strvec_push(out, cur.buf);
			strbuf_reset(&cur);
			continue;
		}
		strbuf_addch(&cur, *s);
	}
	if (cur.len)
		strvec_push(out, cur.buf);
	strbuf_release(&cur);
}

/* "--workload seqread,threads=2" -> workload=seqread workload.threads=2 */
static int add_compound(struct strvec *ov, const char *key, const char *arg)
{
	struct strvec parts = STRVEC_INIT;
	int rc = 0;
	split_top_level(&parts, arg);
	if (!parts.nr || strchr(parts.v[0], '=')) {
		rc = error("--%s: '%s' does not start with a name", key, arg);
		goto out;
	}
	strvec_pushf(ov, "%s=%s", key, parts.v[0]);
	for (size_t i = 1; i < parts.nr; i++) {
		if (!strchr(parts.v[i], '=')) {
			rc = error("--%s: '%s' is not key=value", key,
				   parts.v[i]);
			goto out;
		}
		strvec_pushf(ov, "%s.%s", key, parts.v[i]);
	}
out:
	strvec_clear(&parts);
	return rc;
}

static int positive(const char *opt, const char *s, int *out)
{
	long v;
	if (!s || parse_long(s, &v) || v < 1 || v > 100000)
		return error("%s: '%s' is not a positive number", opt,
			     s ? s : "");
	*out = (int)v;
	return 0;
}

/*
 * What an option adds to the job becomes JSON text, which is UTF-8: any
 * other bytes were dropped without a word (--set results=<bytes> wrote to
 * ./results). Say which option, with the bytes shown safely.
 */
static int check_utf8(const char *opt, const char *v)
{
	struct strbuf shown = STRBUF_INIT;

	if (utf8_valid(v))
		return 0;
	strbuf_addsafe(&shown, v, strlen(v));
	error("%s: '%s' is not valid UTF-8 (a job is JSON text)", opt,
	      shown.buf);
	strbuf_release(&shown);
	return -1;
}

/* --topology and --workload: a name, then key=value pairs of it. */
static int compound_opt(const struct opt *opt, const char *v)
{
	struct run_args *a = opt->value;
	const char *key = opt->name + 2;

	if (check_utf8(opt->name, v) || add_compound(&a->overrides, key, v))
		return -1;
	if (!strcmp(key, "topology"))
		a->have_topology = 1;
	else
		a->have_workload = 1;
	return 0;
}

/*
 * --samples, --warmup and --timeout are not OPT_INT: each becomes a job
 * override in its place among --set's, so whichever comes later wins.
 * The job key each one sets; --warmup alone may be 0.
 */
static const struct {
	const char *opt, *key;
} count_keys[] = {
	{ "--samples", "runs.samples" },
	{ "--warmup", "runs.warmup" },
	{ "--timeout", "machine.timeout_s" },
};

static int count_opt(const struct opt *opt, const char *v)
{
	struct run_args *a = opt->value;
	long n;

	if (!strcmp(opt->name, "--warmup")) {
		if (parse_long(v, &n) || n < 0)
			return error("--warmup: '%s' is not a count", v);
	} else {
		int p = 0;
		/* positive() said what is wrong: one line. */
		if (positive(opt->name, v, &p))
			return -1;
		n = p;
	}
	for (size_t i = 0; i < ARRAY_SIZE(count_keys); i++)
		if (!strcmp(opt->name, count_keys[i].opt))
			strvec_pushf(&a->overrides, "%s=%ld", count_keys[i].key,
				     n);
	return 0;
}

static int set_opt(const struct opt *opt, const char *v)
{
	struct run_args *a = opt->value;

	if (check_utf8(opt->name, v))
		return -1;
	strvec_push(&a->overrides, v);
	return 0;
}

static int results_opt(const struct opt *opt, const char *v)
{
	struct run_args *a = opt->value;

	return job_override_results(&a->overrides, v);
}

/*
 * A label stands where a commit's 12 characters do in result paths and
 * in `compare A B`: 4 to 12 of [A-Za-z0-9._-], not starting with a dot,
 * and not of hex digits alone.
 * One image run under two settings can so be compared as two commits.
 */
static int label_check(const char *label)
{
	size_t n = strlen(label);
	if (n < 4 || n > 12 || label[0] == '.' ||
	    strspn(label, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789._-") != n)
		return error("--label '%s': 4 to 12 letters, digits, '.', "
			     "'_' or '-', not starting with '.'",
			     label);
	/* Hex digits alone can be a commit's short id: the image's boots
	 * would be stored, and compared, as that commit's. */
	if (strspn(label, "0123456789abcdefABCDEF") == n)
		return error("--label '%s' could be a commit's id: give it a "
			     "letter past 'f', a '.', '_' or '-'",
			     label);
	return 0;
}

int cmd_run_parse_args(struct run_args *a, int argc, char **argv, FILE *usage)
{
	int code;
	/* Every option of run takes the "--opt=value" form too. */
	const struct opt opts[] = {
		OPT_FLAG_F("--keep-images", &a->keep_images, OPT_JOINED,
			   "leave disk images and the initramfs behind"),
		OPT_STRING_F("--kernel", &a->kernel, OPT_JOINED, "BZIMAGE",
			     "boot this image"),
		OPT_STRING_F("--commit", &a->commit, OPT_JOINED, "REV",
			     "build this commit and boot it"),
		OPT_STRING_F("--repo", &a->repo, OPT_JOINED, "PATH",
			     "the kernel git repository"),
		OPT_STRING_F("--label", &a->label, OPT_JOINED, "NAME",
			     "a prebuilt image's name in the results"),
		OPT_SAFETY(&a->destroy_data_on, &a->force),
		OPT_CALLBACK_F("--topology", compound_opt, a, OPT_JOINED,
			       "PRESET[,key=value...]",
			       "the topology (a job without a file)"),
		OPT_CALLBACK_F("--workload", compound_opt, a, OPT_JOINED,
			       "ENGINE[,key=value...]",
			       "the workload (a job without a file)"),
		OPT_BOOTS_F(&a->boots, OPT_JOINED,
			    "boots per topology (default: runs.min)"),
		OPT_CALLBACK_F("--samples", count_opt, a, OPT_JOINED, "N",
			       "samples of each point per boot"),
		OPT_CALLBACK_F("--warmup", count_opt, a, OPT_JOINED, "N",
			       "samples dropped first"),
		OPT_CALLBACK_F("--timeout", count_opt, a, OPT_JOINED,
			       "SECONDS", "a whole boot at most"),
		OPT_CALLBACK_F("--set", set_opt, a, OPT_JOINED, "key=value",
			       "set a job key (again for more)"),
		OPT_CALLBACK_F(
			"--results", results_opt, a, OPT_JOINED, "DIR",
			"the results folder (default: the job's \"results\")"),
		OPT_FLAG_F("--json", &a->json, OPT_JOINED,
			   "one JSON document on stdout (commands.md, JSON output)"),
		OPT_ARG("JOB", &a->job_path, "the job file"),
		OPT_END(),
	};

	if (usage) {
		opt_usage(usage, "run", synopsis, opts);
		return 0;
	}
	/* -h and --help (also "--help=x") print the usage there. */
	if (opt_parse_command("run", synopsis, opts, argc, argv, &code)) {
		a->help = !code;
		return code ? -1 : 0;
	}
	if (a->kernel && a->commit)
		return error("--kernel and --commit: give one");
	if (a->label && a->commit)
		return error("--label names a prebuilt image; a commit is "
			     "named by itself");
	if (a->label && label_check(a->label))
		return -1;
	if (!a->job_path) {
		if (!a->kernel && !a->commit)
			return error("no kernel: give JOB, --kernel BZIMAGE or "
				     "--commit REV");
		if (!a->have_topology)
			return error("no topology: give --topology PRESET");
		if (!a->have_workload)
			return error("no workload: give --workload ENGINE");
	}
	return 0;
}
