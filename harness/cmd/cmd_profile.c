/*
 * cmd_profile.c: `iobisect profile JOB --commit REV`, where one kernel
 * spends its instructions in the job's workload: one boot with
 * iobisect's QEMU plugin, and the table of its top functions by
 * instructions per MB moved and per request (profile.h). The profile
 * is kept beside the commit's boots, where `compare` finds it.
 */
#include "cmd.h"
#include "job.h"
#include "options.h"
#include "probe.h"
#include "profile.h"
#include "profile_table.h"
#include "repo.h"
#include "run.h"
#include "tbcount.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE "JOB --commit REV | --kernel BZIMAGE [--map SYSTEM.MAP] [options]"

struct profile_args {
	const char *job_path, *rev, *kernel, *map;
	struct strvec overrides;
	int rows;
};

static int set_opt(const struct opt *opt, const char *v)
{
	struct profile_args *a = opt->value;
	strvec_push(&a->overrides, v);
	return 0;
}

static int results_opt(const struct opt *opt, const char *v)
{
	struct profile_args *a = opt->value;
	return job_override_results(&a->overrides, v);
}

/* A kernel given as a file: its map beside it, or --map. */
static int profile_image(struct profile *p, struct probe_ctx *ctx,
			 const struct profile_args *a, const char *plugin)
{
	char *counts = xstrfmt("%s/profile.counts", ctx->rundir.path);
	struct profile_request req = {
		.job = ctx->job,
		.topo = ctx->topo,
		.image = a->kernel,
		.map = a->map,
		.label = "kernel",
		.run_dir = ctx->rundir.path,
		.plugin = plugin,
		.counts = counts,
	};
	int rc = profile_boot(p, &req);
	free(counts);
	return rc;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_args a = {.overrides = STRVEC_INIT, .rows = 25};
	struct job job;
	struct probe_ctx ctx;
	struct profile p = PROFILE_INIT;
	struct repo *repo = NULL;
	char *plugin = NULL, *why = NULL;
	char id[41];
	int code = EXIT_ABORT, loaded = 0, ctx_ok = 0;
	const struct opt opts[] = {
		OPT_STRING("--commit", &a.rev, "REV",
			   "build this commit (or take it from the cache)"),
		OPT_STRING("--kernel", &a.kernel, "BZIMAGE",
			   "boot this image instead"),
		OPT_STRING("--map", &a.map, "FILE",
			   "its System.map (default: beside the image)"),
		OPT_INT("--rows", &a.rows, 1, 100000, "a number of rows", "N",
			"functions in the table (default 25)"),
		OPT_CALLBACK_F("--set", set_opt, &a, OPT_JOINED, "key=value",
			       "set a job key (again for more)"),
		OPT_CALLBACK_F("--results", results_opt, &a, OPT_JOINED, "DIR",
			       "the results folder (default: the job's "
			       "\"results\")"),
		OPT_ARG("JOB", &a.job_path, "the job file"),
		OPT_END(),
	};

	if (opt_parse_command("profile", USAGE, opts, argc, argv, &code))
		goto out;
	code = EXIT_ABORT;
	if (!a.job_path || !!a.rev == !!a.kernel) {
		opt_usage(stderr, "profile", USAGE, opts);
		goto out;
	}
	if (job_load_overrides(&job, a.job_path,
			       (const char *const *)a.overrides.v))
		goto out;
	loaded = 1;
	if (cache_dir_check())
		goto out;
	/* The one line a host without plugins gets. */
	if (!tbcount_available(job.machine.qemu, &plugin, &why)) {
		error("cannot profile: %s", why);
		goto out;
	}
	if (a.rev) {
		if (!job.repo) {
			error("%s: --commit needs the job's \"repo\"", job.path);
			goto out;
		}
		if (repo_open(&repo, job.repo) || repo_resolve(repo, a.rev, id))
			goto out;
	}
	if (probe_ctx_init(&ctx, &job, job.repo, NULL))
		goto out;
	ctx_ok = 1;
	/*
	 * A line for a log: the build (a map wanted) may take minutes. A
	 * commit by its short id, an image by its whole path.
	 */
	char *shown = a.rev ? xstrfmt("%.12s", id) : xstrdup_safe(a.kernel);
	fprintf(stderr, "profile: %s, one boot with %s\n", shown, plugin);
	free(shown);
	int rc = a.rev ? profile_commit(&p, &ctx, id, plugin)
		       : profile_image(&p, &ctx, &a, plugin);
	if (rc) {
		code = run_interrupted() ? EXIT_INTERRUPTED : 1;
		goto out;
	}
	struct strbuf sb = STRBUF_INIT;
	profile_render(&p, (size_t)a.rows, &sb);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	if (a.rev) {
		char *path = profile_path(job.results, job.name, id);
		printf("profile: %s\n", path);
		free(path);
	}
	code = 0;
out:
	if (ctx_ok)
		probe_ctx_release(&ctx);
	if (repo)
		repo_free(repo);
	if (loaded)
		job_release(&job);
	profile_release(&p);
	strvec_clear(&a.overrides);
	free(plugin);
	free(why);
	return code;
}
