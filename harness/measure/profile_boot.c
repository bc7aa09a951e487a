/*
 * profile_boot.c: the profiled boot (profile.h): the kernel's map read
 * first (a boot without one would be wasted), one boot with the plugin,
 * then its counts folded.
 */
#include "profile.h"
#include "job.h"
#include "kbuild.h"
#include "kmap.h"
#include "probe.h"
#include "results.h"
#include "vm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int profile_boot(struct profile *out, const struct profile_request *req)
{
	struct ksyms ks = KSYMS_INIT;
	struct tbcount tc = TBCOUNT_INIT;
	struct boot_result br;
	struct strbuf text = STRBUF_INIT;
	char *map = req->map ? xstrdup(req->map) : kmap_path(req->image);
	int rc = -1;

	boot_result_init(&br);
	if (!file_exists(map)) {
		if (req->map)
			error("the System.map given for '%s' ('%s') does not "
			      "exist: a profile names functions from it",
			      req->image, map);
		else
			error("no System.map beside '%s' ('%s'): a profile "
			      "names functions from it",
			      req->image, map);
		goto out;
	}
	if (read_file(map, &text) ||
	    ksyms_parse(&ks, text.buf, text.len, map))
		goto out;
	/* Counts of an earlier boot must not pass for this one's. */
	if (unlink(req->counts) && file_exists(req->counts)) {
		error("cannot remove '%s'", req->counts);
		goto out;
	}
	struct boot_request b = {
		.job = req->job,
		.topo = req->topo,
		.kernel = req->image,
		.run_dir = req->run_dir,
		.label = req->label,
		/* Not a boot of the results store: no number of its own. */
		.boot_id = 1,
		.plugin = req->plugin,
		.plugin_out = req->counts,
	};
	if (vm_boot(&br, &b))
		goto out;
	if (br.status != BOOT_OK) {
		error("the profiled boot of %.12s: %s: %s", req->label,
		      boot_status_name(br.status), br.detail.buf);
		goto out;
	}
	strbuf_reset(&text);
	/* The plugin writes its counts as QEMU exits: none, none counted. */
	if (!file_exists(req->counts)) {
		error("the QEMU plugin wrote no counts for the profiled boot "
		      "of %.12s ('%s' is missing): did QEMU load '%s'?",
		      req->label, req->counts, req->plugin);
		goto out;
	}
	if (read_file(req->counts, &text) ||
	    tbcount_parse(&tc, text.buf, text.len, req->counts))
		goto out;
	profile_release(out);
	out->label = xstrdup(req->label);
	out->wall_s = (double)br.total_ns / 1e9;
	rc = profile_compute(out, &tc, &ks, &br.report);
out:
	boot_result_release(&br);
	tbcount_release(&tc);
	ksyms_release(&ks);
	strbuf_release(&text);
	free(map);
	return rc;
}

int profile_commit(struct profile *out, struct probe_ctx *ctx,
		   const char *commit, const char *plugin)
{
	const struct job *job = ctx->job;
	struct build_request breq;
	struct build_result res = BUILD_RESULT_INIT;
	char *dir = results_commit_dir(job->results, job->name, commit);
	char *counts = xstrfmt("%s/profile.counts", dir);
	char *path = profile_path(job->results, job->name, commit);
	int rc = -1;

	job_build_request(&breq, job, ctx->repo_path, commit);
	breq.flags = BUILD_WANT_MAP | (ctx->progress ? BUILD_QUIET : 0);
	if (kbuild_image(&res, &breq)) {
		error("cannot profile %.12s: %s", commit,
		      res.message ? res.message : "the build failed");
		goto out;
	}
	if (mkdir_below(job->results, dir, 0755))
		goto out;
	struct profile_request req = {
		.job = job,
		.topo = ctx->topo,
		.image = res.image,
		.label = commit,
		.run_dir = ctx->rundir.path,
		.plugin = plugin,
		.counts = counts,
	};
	if (profile_boot(out, &req) || profile_save(out, path))
		goto out;
	rc = 0;
out:
	build_result_release(&res);
	free(dir);
	free(counts);
	free(path);
	return rc;
}
