/*
 * probe.c: the real operations under the measuring layer (see probe.h):
 * builds through kbuild, boots through vm, per-boot values from the
 * results store.
 */
#include "probe.h"

#include "job.h"
#include "kbuild.h"
#include "kvm.h"
#include "lanes.h"
#include "progress.h"
#include "repo.h"
#include "repo_revert.h"
#include "qemu.h"
#include "run.h"
#include "task_doc.h"
#include "rundir.h"
#include "vm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * "QEMU emulator version 7.2.22 (Debian ...)" -> "7.2.22": the one rule
 * for the QEMU version in a machine's identity (which boots are pooled).
 */
static char *version_word(const char *line)
{
	const char *v = line ? strstr(line, "version ") : NULL;
	if (!v)
		return xstrdup(line ? line : "unknown");
	v += strlen("version ");
	return xstrndup(v, strcspn(v, " \t\n("));
}

int probe_machine_init(struct probe_machine *pm, struct job *job)
{
	char *line;
	int rc;

	memset(pm, 0, sizeof(*pm));
	pm->kvm = qemu_accel_resolve(&job->machine, kvm_usable());
	if (pm->kvm < 0 || clock_resolve(&pm->clock, job, pm->kvm))
		return -1;
	rc = qemu_version(job->machine.qemu, &line);
	if (rc < 0)
		return -1;
	if (rc)
		return error("cannot run '%s' (is qemu-system-x86 installed?)",
			     job->machine.qemu ? job->machine.qemu
					       : "qemu-system-x86_64");
	pm->qemu_version = version_word(line);
	free(line);
	return 0;
}

void probe_machine_release(struct probe_machine *pm)
{
	free(pm->qemu_version);
	pm->qemu_version = NULL;
}

void probe_machine_id(struct machine_id *out, const struct job *job, int topo,
		      const struct probe_machine *pm)
{
	results_machine_fill(out, job, topo, pm->kvm ? "kvm" : "tcg",
			     pm->qemu_version, &pm->clock);
}

int probe_ctx_init(struct probe_ctx *ctx, struct job *job,
		   const char *repo_path, struct progress *progress)
{
	struct probe_machine pm;
	char *job_dir;

	memset(ctx, 0, sizeof(*ctx));
	ctx->rundir.lock_fd = -1;
	ctx->job = job;
	ctx->repo_path = repo_path;
	ctx->progress = progress;
	if (!job->nr_points)
		return error("%s: the job has no workload point", job->path);
	ctx->point = &job->points[0];
	/*
	 * The first point of that id: with a list of topologies each has
	 * its own point of the same id, and the first topology's is the
	 * default's.
	 */
	for (size_t i = 0; job->metric_point && i < job->nr_points; i++)
		if (!strcmp(job->points[i].id, job->metric_point)) {
			ctx->point = &job->points[i];
			break;
		}
	ctx->topo = ctx->point->topo;
	results_spec_hash(job, ctx->point, ctx->spec_hash);

	if (probe_machine_init(&pm, job))
		return -1;
	probe_machine_id(&ctx->machine, job, ctx->topo, &pm);
	probe_machine_release(&pm);

	/* Boots in a folder of this process's own; what a SIGKILLed run
	 * left behind is reaped there. */
	job_dir = results_job_dir(job->results, job->name);
	if (rundir_open(&ctx->rundir, job->results, job_dir)) {
		results_machine_release(&ctx->machine);
		free(job_dir);
		return -1;
	}
	free(job_dir);
	lanes_init(&ctx->lanes, job, repo_path,
		   lanes_default(sysconf(_SC_NPROCESSORS_ONLN)), progress);
	return 0;
}

static void image_release(struct probe_image *img)
{
	free(img->image);
	free(img->message);
	build_facts_release(&img->build);
}

void probe_ctx_release(struct probe_ctx *ctx)
{
	lanes_release(&ctx->lanes);
	rundir_close(&ctx->rundir);
	for (size_t i = 0; i < ctx->nr_images; i++)
		image_release(&ctx->images[i]);
	free(ctx->images);
	results_machine_release(&ctx->machine);
	ctx->images = NULL;
	ctx->nr_images = 0;
}

int probe_ctx_retime(struct probe_ctx *ctx, struct job *job)
{
	struct probe_machine pm;

	if (probe_machine_init(&pm, job))
		return -1;
	results_machine_release(&ctx->machine);
	probe_machine_id(&ctx->machine, job, ctx->topo, &pm);
	probe_machine_release(&pm);
	ctx->job = job;
	return 0;
}

const struct probe_image *probe_build(struct probe_ctx *ctx,
				      const char *commit)
{
	struct build_request req;
	struct build_result res = BUILD_RESULT_INIT;
	struct probe_image *img;

	for (size_t i = 0; i < ctx->nr_images; i++)
		if (!strcmp(ctx->images[i].commit, commit))
			return &ctx->images[i];

	if (ctx->progress)
		progress_phase(ctx->progress, "building");
	/*
	 * A lane builds it (or has, beside an earlier boot); what it made
	 * is in the cache for kbuild_image below. A prebuilt image is only
	 * looked up (or fetched), which no lane would do sooner.
	 */
	if (!ctx->job->prebuilt && lanes_build(&ctx->lanes, commit))
		return NULL;
	job_build_request(&req, ctx->job, ctx->repo_path, commit);
	/* The status line is ours while a bisection runs. */
	req.flags = ctx->progress ? BUILD_QUIET : 0;
	kbuild_image(&res, &req);
	if (res.status == BUILD_SETUP_ERROR) {
		error("cannot build %.12s: %s", commit,
		      res.message ? res.message : "set-up failed");
		build_result_release(&res);
		return NULL;
	}

	ALLOC_GROW(ctx->images, ctx->nr_images + 1, ctx->alloc_images);
	img = &ctx->images[ctx->nr_images++];
	memset(img, 0, sizeof(*img));
	snprintf(img->commit, sizeof(img->commit), "%s", commit);
	memcpy(img->build.key, res.key, sizeof(img->build.key));
	img->build.cached = res.cached && !lanes_made(&ctx->lanes, commit);
	img->build.log = res.log ? xstrdup(res.log) : NULL;
	img->build.first_error =
		res.first_error ? xstrdup(res.first_error) : NULL;
	img->message = res.message ? xstrdup(res.message) : NULL;
	if (res.status == BUILD_OK) {
		img->image = xstrdup(res.image);
	} else {
		/* A compile error or a dropped option: the commit's fault. */
		img->build.failed = 1;
	}
	build_result_release(&res);
	return img;
}

int probe_load(struct probe_ctx *ctx, const struct probe_image *img,
	       struct sample_set *out)
{
	const struct job *job = ctx->job;

	sample_set_release(out);
	return results_load_samples(job->results, job->name, img->commit,
				    img->build.key, ctx->spec_hash, &ctx->machine,
				    ctx->point->id, job->metric, out);
}

static char *first_line(const char *s)
{
	return s && *s ? xstrndup(s, strcspn(s, "\n")) : NULL;
}

int probe_boot_once(const struct probe_boot_args *a, struct boot_result *br,
		    unsigned *id, int *stored)
{
	const struct job *job = a->job;
	const char *topo = job->topologies[a->topo].name;
	struct boot_request req = { 0 };
	struct results_boot rb = RESULTS_BOOT_INIT;
	struct strbuf console = STRBUF_INIT;
	char started[32];

	*stored = 0;
	if (results_reserve_boot_id(id, job->results, job->name, a->commit,
				    topo, a->engine))
		return -1;
	req.job = job;
	req.topo = a->topo;
	req.kernel = a->image;
	req.run_dir = a->run_dir;
	req.label = a->commit;
	req.boot_id = *id;
	req.keep_images = a->keep_images;
	req.on_sample = a->on_sample;
	req.sample_payload = a->payload;
	utc_timestamp(started, sizeof(started));
	if (a->before)
		a->before(a->payload, *id);
	if (vm_boot(br, &req)) {
		/* No boot: its number and the folders made for it go. */
		results_release_boot_id(*id, job->results, job->name, a->commit,
					topo, a->engine);
		return -1;
	}
	if (br->status == BOOT_INTERRUPTED)
		return 0;
	if (br->console_log)
		read_file(br->console_log, &console);
	rb.job = job;
	rb.topo = a->topo;
	rb.commit = a->commit;
	rb.build_key = a->build_key;
	rb.boot_id = *id;
	rb.machine = a->machine;
	rb.report = &br->report;
	rb.outcome = boot_status_name(br->status);
	rb.console = console.buf;
	rb.console_len = console.len;
	rb.started = started;
	rb.boot_ns = br->total_ns;
	rb.first_sample_ns = br->first_sample_ns;
	/* Stored before anything else happens: nothing measured is lost. */
	*stored = results_store_boot(&rb) ? -1 : 1;
	strbuf_release(&console);
	return 0;
}

int probe_boot(struct probe_ctx *ctx, const struct probe_image *img,
	       int *status, size_t *samples, char **first_error, char **log)
{
	const struct job *job = ctx->job;
	const char *topo = job->topologies[ctx->topo].name;
	struct probe_boot_args a = {
		.job = job,
		.topo = ctx->topo,
		.engine = ctx->point->engine,
		.commit = img->commit,
		.build_key = img->build.key,
		.image = img->image,
		.run_dir = ctx->rundir.path,
		.machine = &ctx->machine,
	};
	struct boot_result br;
	char *dir = NULL;
	unsigned id;
	int ret = -1, stored;

	*first_error = *log = NULL;
	*samples = 0;
	boot_result_init(&br);
	if (probe_boot_once(&a, &br, &id, &stored))
		goto out;
	*status = br.status;
	if (br.status == BOOT_INTERRUPTED || run_interrupted()) {
		ctx->interrupted = 1;
		error("interrupted");
		goto out;
	}
	if (stored < 0)
		goto out;
	if (br.status == BOOT_QEMU_ERROR) {
		/* Not the commit's fault: every boot would fail the same. */
		ctx->qemu_broken = 1;
		error("QEMU failed: %s", br.detail.buf);
		goto out;
	}
	for (size_t i = 0; i < br.report.nr_samples; i++)
		if (!br.report.samples[i].warmup)
			(*samples)++;
	if (ctx->progress)
		progress_add_samples(ctx->progress, 0);
	dir = results_boot_dir(job->results, job->name, img->commit, topo,
			       ctx->point->engine);
	if (br.status != BOOT_OK) {
		*first_error = first_line(br.detail.buf);
		*log = xstrfmt("%s/boot-%u.console.log", dir, id);
	}
	ret = 0;
out:
	free(dir);
	boot_result_release(&br);
	return ret;
}


static enum probe_outcome boot_outcome(int status)
{
	switch (status) {
	case BOOT_PANIC:
		return PROBE_PANIC;
	case BOOT_TIMEOUT:
		return PROBE_TIMEOUT;
	case BOOT_WORKLOAD_ERROR:
		return PROBE_WORKLOAD_ERROR;
	default:
		return PROBE_BOOT_FAILED;
	}
}

static int ops_build(void *payload, const char *commit,
		     struct build_facts *out)
{
	struct probe_ctx *ctx = payload;
	const struct probe_image *img = probe_build(ctx, commit);

	if (!img)
		return -1;
	build_facts_copy(out, &img->build);
	if (!img->build.failed) {
		/* What a build that worked said is nobody's concern. */
		free(out->first_error);
		free(out->log);
		out->first_error = out->log = NULL;
	} else if (!out->first_error) {
		out->first_error = xstrdup(img->message ? img->message
							: "build failed");
	}
	return 0;
}

/*
 * The image of `commit`, and its build key, whoever asks first. A
 * resumed bisection reads the boots of commits an earlier run judged
 * (the levels, the noise) and boots the answer's pairs, none of which
 * this run built: the build cache or the prebuilt source has them, and
 * probe_build finds them there (a cache hit) as it would for a build.
 */
static const struct probe_image *image_of(struct probe_ctx *ctx,
					  const char *commit)
{
	return probe_build(ctx, commit);
}

static int ops_boot(void *payload, const char *commit, struct boot_facts *out)
{
	struct probe_ctx *ctx = payload;
	const struct probe_image *img = image_of(ctx, commit);
	int status = BOOT_OK;

	if (!img || !img->image)
		return img ? error("%.12s has no image", commit) : -1;
	if (ctx->progress)
		progress_phase(ctx->progress, "booting");
	/* Background builds start (or go on) beside the boot, off its CPUs. */
	lanes_beside_boot(&ctx->lanes, 1);
	lanes_poll(&ctx->lanes);
	int r = probe_boot(ctx, img, &status, &out->samples, &out->first_error,
			   &out->log);
	lanes_beside_boot(&ctx->lanes, 0);
	if (r)
		return -1;
	lanes_poll(&ctx->lanes);
	out->ok = status == BOOT_OK;
	if (!out->ok)
		out->outcome = boot_outcome(status);
	return 0;
}

static int ops_load(void *payload, const char *commit, struct sample_set *out)
{
	struct probe_ctx *ctx = payload;
	const struct probe_image *img = image_of(ctx, commit);

	return img ? probe_load(ctx, img, out) : -1;
}

static char *ops_subject(void *payload, const char *commit)
{
	struct probe_ctx *ctx = payload;
	struct commit_info ci = COMMIT_INFO_INIT;
	char *s = NULL;

	if (ctx->repo && !repo_describe(ctx->repo, commit, &ci) && ci.subject)
		s = xstrdup(ci.subject);
	commit_info_release(&ci);
	return s;
}

static void ops_prefetch(void *payload, const char *const *commits, size_t n)
{
	struct probe_ctx *ctx = payload;

	/* Nothing to build ahead when images come ready-made. */
	if (!ctx->job->prebuilt)
		lanes_prefetch(&ctx->lanes, commits, n);
}

static const struct clock *ops_clock(void *payload)
{
	const struct probe_ctx *ctx = payload;

	return &ctx->machine.clock;
}

int probe_same_image(const struct probe_image *a, const struct probe_image *b)
{
	if (!a || !b || !a->image || !b->image)
		return -1;
	return files_same(a->image, b->image);
}

static int ops_same_image(void *payload, const char *a, const char *b)
{
	struct probe_ctx *ctx = payload;

	return probe_same_image(image_of(ctx, a), image_of(ctx, b));
}

static int ops_revert(void *payload, const char *bad, const char *culprit,
		      char out[41], struct strvec *conflicts)
{
	struct probe_ctx *ctx = payload;

	if (!ctx->repo)
		return error("no repository to revert %.12s in", culprit);
	return repo_revert(ctx->repo, bad, culprit, out, conflicts);
}

const struct measure_ops probe_ops = {
	.build = ops_build,
	.boot = ops_boot,
	.load = ops_load,
	.subject = ops_subject,
	.prefetch = ops_prefetch,
	.clock = ops_clock,
	.same_image = ops_same_image,
	.revert = ops_revert,
};

int probe_task(struct job *job, const char *build_repo, const char *commit,
	       unsigned want, struct progress *progress)
{
	struct probe_ctx ctx;
	struct measure m;
	struct build_facts b = {0};
	struct boot_facts r = {0};
	struct task_doc t;
	char *path;
	int ret = -1;

	task_doc_init(&t);
	if (probe_ctx_init(&ctx, job, build_repo, progress))
		return -1;
	measure_init(&m, job, &probe_ops, &ctx);
	m.progress = progress;
	if (measure_commit(&m, commit, want, &b, &r))
		goto out;
	memcpy(t.commit, commit, 41);
	t.ok = r.ok;
	t.outcome = r.outcome;
	t.first_error = r.first_error;
	t.log = r.log;
	r.first_error = r.log = NULL;
	memcpy(t.key, b.key, 41);
	t.cached = b.cached;
	if (r.ok && measure_load(&m, commit, &t.set))
		goto out;
	path = task_doc_path(job->results, job->name, commit);
	if (!task_doc_write(&t, path))
		ret = t.ok ? 0 : 1;
	free(path);
out:
	build_facts_release(&b);
	boot_facts_release(&r);
	task_doc_release(&t);
	measure_release(&m);
	probe_ctx_release(&ctx);
	return ret;
}
