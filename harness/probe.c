/*
 * probe.c: measuring one commit for a bisection (see probe.h): the build,
 * the boots, the store, the interleaved baseline, the verdict.
 */
#include "probe.h"

#include "kbuild.h"
#include "progress.h"
#include "qemu.h"
#include "run.h"
#include "vm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "QEMU emulator version 7.2.22 (Debian ...)" -> "7.2.22". */
static char *version_word(const char *line)
{
	const char *v = line ? strstr(line, "version ") : NULL;
	if (!v)
		return xstrdup(line ? line : "unknown");
	v += strlen("version ");
	return xstrndup(v, strcspn(v, " \t\n("));
}

int probe_ctx_init(struct probe_ctx *ctx, struct job *job,
		   const char *repo_path, struct progress *progress)
{
	char *line, *ver, *pidfile;
	int kvm;

	memset(ctx, 0, sizeof(*ctx));
	ctx->job = job;
	ctx->repo_path = repo_path;
	ctx->progress = progress;
	if (!job->nr_points)
		return error("%s: the job has no workload point", job->path);
	ctx->point = &job->points[0];
	if (job->metric_point)
		for (size_t i = 0; i < job->nr_points; i++)
			if (!strcmp(job->points[i].id, job->metric_point))
				ctx->point = &job->points[i];
	ctx->topo = ctx->point->topo;
	results_spec_hash(job, ctx->point, ctx->spec_hash);

	kvm = qemu_accel_resolve(&job->machine, qemu_kvm_usable());
	if (kvm < 0)
		return -1;
	line = qemu_version(job->machine.qemu);
	if (!line)
		return error("cannot run '%s' (is qemu-system-x86 installed?)",
			     job->machine.qemu ? job->machine.qemu
					       : "qemu-system-x86_64");
	ver = version_word(line);
	results_machine_fill(&ctx->machine, job, ctx->topo,
			     kvm ? "kvm" : "tcg", ver);
	free(line);
	free(ver);

	snprintf(ctx->run_dir, sizeof(ctx->run_dir), "%s/%s/.run",
		 job->results, job->name);
	if (mkdir_p(ctx->run_dir, 0755))
		return -1;
	/* A QEMU that a SIGKILLed run left behind still holds the disks. */
	pidfile = xstrfmt("%s/qemu.pid", ctx->run_dir);
	if (run_reap_stale(pidfile, "qemu"))
		warning("killed a QEMU left running by an earlier run");
	free(pidfile);
	/*
	 * The baseline grows with interleaved good boots, up to twice the
	 * boots a commit may get: enough for the test to reach its floor,
	 * not so many that the good kernel eats the run.
	 */
	ctx->good_boots_cap = 2 * (unsigned)job->runs_max;
	return 0;
}

static void image_release(struct probe_image *img)
{
	free(img->image);
	free(img->log);
	free(img->first_error);
	free(img->message);
}

void probe_ctx_release(struct probe_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nr_images; i++)
		image_release(&ctx->images[i]);
	free(ctx->images);
	results_machine_release(&ctx->machine);
	strvec_clear(&ctx->logs);
	ctx->images = NULL;
	ctx->nr_images = 0;
}

void probe_result_release(struct probe_result *r)
{
	free(r->log);
	free(r->first_error);
	memset(r, 0, sizeof(*r));
}

const struct probe_image *probe_build(struct probe_ctx *ctx,
				      const char *commit)
{
	struct build_request req = { 0 };
	struct build_result res = BUILD_RESULT_INIT;
	struct probe_image *img;

	for (size_t i = 0; i < ctx->nr_images; i++)
		if (!strcmp(ctx->images[i].commit, commit))
			return &ctx->images[i];

	if (ctx->progress)
		progress_phase(ctx->progress, "building");
	req.repo = ctx->repo_path;
	req.rev = commit;
	req.kconfig = &ctx->job->kconfig;
	req.toolchains = ctx->job->toolchains;
	req.nr_toolchains = ctx->job->nr_toolchains;
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
	memcpy(img->key, res.key, sizeof(img->key));
	img->cached = res.cached;
	img->log = res.log ? xstrdup(res.log) : NULL;
	img->first_error = res.first_error ? xstrdup(res.first_error) : NULL;
	img->message = res.message ? xstrdup(res.message) : NULL;
	/* Builds done (make ran) and builds served from the cache. */
	if (res.cached)
		ctx->builds_cached++;
	else
		ctx->builds++;
	if (res.status == BUILD_OK) {
		img->image = xstrdup(res.image);
	} else {
		/* A compile error or a dropped option: the commit's fault. */
		img->failed = 1;
		if (img->log)
			strvec_pushf(&ctx->logs, "build of %.12s: %s", commit,
				     img->log);
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
				    img->key, ctx->spec_hash, &ctx->machine,
				    ctx->point->id, job->metric, out);
}

static char *first_line(const char *s)
{
	return s && *s ? xstrndup(s, strcspn(s, "\n")) : NULL;
}

int probe_boot(struct probe_ctx *ctx, const struct probe_image *img,
	       int *status, char **first_error, char **log)
{
	const struct job *job = ctx->job;
	const char *topo = job->topologies[ctx->topo].name;
	struct boot_request req = { 0 };
	struct boot_result br;
	struct results_boot rb = RESULTS_BOOT_INIT;
	struct strbuf console = STRBUF_INIT;
	char *dir = NULL;
	unsigned id;
	int ret = -1;

	*first_error = *log = NULL;
	id = results_next_boot_id(job->results, job->name, img->commit, topo,
				  ctx->point->engine);
	req.job = job;
	req.topo = ctx->topo;
	req.kernel = img->image;
	req.run_dir = ctx->run_dir;
	req.label = img->commit;
	req.boot_id = id;
	boot_result_init(&br);
	if (vm_boot(&br, &req))
		goto out;
	*status = br.status;
	if (br.status == BOOT_INTERRUPTED || run_interrupted()) {
		ctx->interrupted = 1;
		error("interrupted");
		goto out;
	}
	if (br.status == BOOT_QEMU_ERROR) {
		/* Not the commit's fault: every boot would fail the same. */
		ctx->qemu_broken = 1;
		error("QEMU failed: %s", br.detail.buf);
		goto out;
	}
	if (br.console_log)
		read_file(br.console_log, &console);
	rb.job = job;
	rb.topo = ctx->topo;
	rb.commit = img->commit;
	rb.build_key = img->key;
	rb.boot_id = id;
	rb.machine = &ctx->machine;
	rb.report = &br.report;
	rb.outcome = boot_status_name(br.status);
	rb.console = console.buf;
	rb.console_len = console.len;
	rb.boot_ns = br.total_ns;
	rb.first_sample_ns = br.first_sample_ns;
	/* Stored before anything else happens: nothing measured is lost. */
	if (results_store_boot(&rb))
		goto out;
	ctx->boots++;
	for (size_t i = 0; i < br.report.nr_samples; i++)
		if (!br.report.samples[i].warmup)
			ctx->samples++;
	if (ctx->progress)
		progress_add_samples(ctx->progress, 0);
	dir = results_boot_dir(job->results, job->name, img->commit, topo,
			       ctx->point->engine);
	if (br.status != BOOT_OK) {
		*first_error = first_line(br.detail.buf);
		*log = xstrfmt("%s/boot-%u.console.log", dir, id);
		strvec_pushf(&ctx->logs, "%s boot %u of %.12s: %s",
			     boot_status_name(br.status), id, img->commit,
			     *log);
	}
	ret = 0;
out:
	free(dir);
	strbuf_release(&console);
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

/* One boot of `img`; *failed tells whether it went wrong. */
static int boot_and_note(struct probe_ctx *ctx, const struct probe_image *img,
			 struct probe_result *out, int *failed)
{
	int status = BOOT_OK;
	char *err = NULL, *log = NULL;

	if (probe_boot(ctx, img, &status, &err, &log))
		return -1;
	out->boots_run++;
	*failed = status != BOOT_OK;
	if (*failed) {
		out->outcome = boot_outcome(status);
		free(out->first_error);
		free(out->log);
		out->first_error = err;
		out->log = log;
	} else {
		free(err);
		free(log);
	}
	return 0;
}

int probe_fill(struct probe_ctx *ctx, const struct probe_image *img,
	       unsigned want, struct probe_result *out)
{
	struct sample_set set = SAMPLE_SET_INIT;
	uint64_t t0 = now_ns();
	unsigned tries = 0;
	int ret = -1, failed = 0;

	out->outcome = PROBE_FAST; /* "measured": the caller decides */
	if (img->failed) {
		out->outcome = PROBE_BUILD_FAILED;
		out->log = img->log ? xstrdup(img->log) : NULL;
		out->first_error = xstrdup(img->first_error ? img->first_error
				    : img->message ? img->message
						   : "build failed");
		ret = 0;
		goto out;
	}
	for (;;) {
		if (probe_load(ctx, img, &set))
			goto out;
		if (set.nr >= want)
			break;
		/* A boot that stores nothing usable must not loop forever. */
		if (tries++ > want + 2) {
			out->outcome = PROBE_WORKLOAD_ERROR;
			out->first_error = xstrdup("boots complete but no "
						   "sample could be used");
			break;
		}
		if (ctx->progress)
			progress_phase(ctx->progress, "boot %zu/%u",
				       set.nr + 1, want);
		if (boot_and_note(ctx, img, out, &failed))
			goto out;
		if (failed)
			break;
	}
	out->boots = set.nr;
	out->samples = set.nr_samples;
	ret = 0;
out:
	out->seconds = (now_ns() - t0) / 1e9;
	sample_set_release(&set);
	return ret;
}

void probe_verdict_input(const struct probe_ctx *ctx,
			 struct verdict_input *in,
			 const struct sample_set *base,
			 const struct sample_set *cand,
			 const struct sample_set *bad)
{
	memset(in, 0, sizeof(*in));
	in->base = base->values;
	in->n_base = base->nr;
	in->cand = cand->values;
	in->n_cand = cand->nr;
	if (bad) {
		in->bad = bad->values;
		in->n_bad = bad->nr;
	}
	in->threshold = ctx->job->threshold;
	in->runs_min = ctx->job->runs_min;
	in->runs_max = ctx->job->runs_max;
	/*
	 * 2% per verdict, not 5%: a bisection makes about log2(n) + 2
	 * verdicts and one wrong one names the wrong commit.
	 */
	in->alpha = PROBE_ALPHA;
}

/*
 * The baseline a candidate is judged against: the most recent good boots
 * only (a window of runs_max), which the 1:1 interleaving keeps measured
 * next to the candidate's, so a machine that slows down for a while (other
 * work on the host) slows both sides alike.
 */
static void recent_window(const struct probe_ctx *ctx,
			  const struct sample_set *all, struct sample_set *win)
{
	size_t w = (size_t)ctx->job->runs_max;

	*win = *all;
	if (all->nr > w) {
		win->values = all->values + (all->nr - w);
		win->cpu_pct = all->cpu_pct ? all->cpu_pct + (all->nr - w)
					    : NULL;
		win->boots = all->boots ? all->boots + (all->nr - w) : NULL;
		win->nr = w;
	}
}

/* Bisect types build and boot ask less than a measurement. */
static int probe_typed(struct probe_ctx *ctx, const struct probe_image *img,
		       struct probe_result *out)
{
	struct sample_set set = SAMPLE_SET_INIT;
	int failed = 0, ret = -1;

	/* Built: that is all "build" asks; "boot" asks for one boot. */
	out->outcome = PROBE_FAST;
	if (ctx->job->bisect_type == BISECT_BUILD)
		return 0;
	if (probe_load(ctx, img, &set))
		goto out;
	if (!set.nr && boot_and_note(ctx, img, out, &failed))
		goto out;
	ret = 0;
out:
	sample_set_release(&set);
	return ret;
}

int probe_commit(struct probe_ctx *ctx, const char *commit,
		 struct probe_result *out)
{
	const struct probe_image *img;
	struct sample_set base = SAMPLE_SET_INIT, cand = SAMPLE_SET_INIT,
			  bad = SAMPLE_SET_INIT;
	const struct job *job = ctx->job;
	uint64_t t0 = now_ns();
	unsigned tries = 0;
	int ret = -1, failed = 0;

	memset(out, 0, sizeof(*out));
	img = probe_build(ctx, commit);
	if (!img)
		goto out;
	if (img->failed) {
		ret = probe_fill(ctx, img, 0, out);
		goto out;
	}
	if (job->bisect_type != BISECT_PERF) {
		ret = probe_typed(ctx, img, out);
		goto out;
	}
	if (!ctx->good) {
		error("no baseline: the good endpoint was not measured");
		goto out;
	}
	for (;;) {
		struct verdict_input in;
		enum verdict_next next = VERDICT_NEXT_BOOT;

		if (probe_load(ctx, img, &cand) ||
		    probe_load(ctx, ctx->good, &base) ||
		    (ctx->bad && probe_load(ctx, ctx->bad, &bad)))
			goto out;
		if (cand.nr >= (size_t)job->runs_min) {
			struct sample_set win;
			recent_window(ctx, &base, &win);
			probe_verdict_input(ctx, &in, &win, &cand,
					    ctx->bad ? &bad : NULL);
			/*
			 * With the auto threshold the line is halfway to the
			 * bad endpoint; when the recent good window has drifted
			 * below the bad median there is no line to judge by.
			 * That is no reason to stop the whole run: boot more,
			 * and call the commit undecided if it stays so.
			 */
			struct strbuf why = STRBUF_INIT;
			error_capture(&why);
			int bad_input = stats_verdict(&out->v, &in);
			error_capture(NULL);
			if (!bad_input) {
				out->have_verdict = 1;
				next = verdict_more_boots(&out->v,
							  job->runs_max);
			} else if (ctx->progress) {
				progress_note(ctx->progress, "no verdict yet: %s",
					      why.buf);
			}
			strbuf_release(&why);
		}
		if (next == VERDICT_NEXT_DONE) {
			out->outcome = out->v.kind == VERDICT_BAD ? PROBE_SLOW
								   : PROBE_FAST;
			break;
		}
		if (next == VERDICT_NEXT_SKIP ||
		    tries++ > (unsigned)job->runs_max + 2) {
			out->outcome = PROBE_UNDECIDED;
			break;
		}
		/*
		 * One good boot before every boot of the candidate, so the
		 * baseline window is measured at the same time as the commit
		 * it judges (see recent_window).
		 */
		{
			struct probe_result gr = { 0 };
			if (ctx->progress)
				progress_phase(ctx->progress,
					       "baseline boot %zu", base.nr + 1);
			if (boot_and_note(ctx, ctx->good, &gr, &failed)) {
				probe_result_release(&gr);
				goto out;
			}
			if (failed)
				warning("a boot of the good kernel failed: %s",
					gr.first_error ? gr.first_error : "?");
			probe_result_release(&gr);
		}
		if (ctx->progress)
			progress_phase(ctx->progress, "boot %zu/%d", cand.nr + 1,
				       job->runs_max);
		if (boot_and_note(ctx, img, out, &failed))
			goto out;
		if (failed)
			break;
	}
	out->boots = cand.nr;
	out->samples = cand.nr_samples;
	ret = 0;
out:
	out->seconds = (now_ns() - t0) / 1e9;
	sample_set_release(&base);
	sample_set_release(&cand);
	sample_set_release(&bad);
	return ret;
}

int probe_endpoints(struct probe_ctx *ctx, const char *good,
		    const char *good_subject, const char *bad,
		    const char *bad_subject, struct probe_result *gr,
		    struct probe_result *br, struct verdict *sep,
		    enum probe_endpoints_status *status)
{
	const struct job *job = ctx->job;
	const struct probe_image *g, *b;
	struct sample_set gs = SAMPLE_SET_INIT, bs = SAMPLE_SET_INIT;
	int ret = -1;

	memset(sep, 0, sizeof(*sep));
	if (ctx->progress)
		progress_commit(ctx->progress, "good", 0, 0, good, good_subject);
	g = probe_build(ctx, good);
	if (!g || probe_fill(ctx, g, job->runs_max, gr))
		goto out;
	if (gr->outcome != PROBE_FAST) {
		*status = ENDPOINTS_GOOD_FAILED;
		ret = 0;
		goto out;
	}
	ctx->good = g;

	if (ctx->progress)
		progress_commit(ctx->progress, "bad", 0, 0, bad, bad_subject);
	b = probe_build(ctx, bad);
	if (!b || probe_fill(ctx, b, job->runs_min, br))
		goto out;
	if (br->outcome != PROBE_FAST) {
		*status = ENDPOINTS_BAD_FAILED;
		ret = 0;
		goto out;
	}
	ctx->bad = b;
	for (;;) {
		struct verdict_input in;

		if (probe_load(ctx, g, &gs) || probe_load(ctx, b, &bs))
			goto out;
		probe_verdict_input(ctx, &in, &gs, &bs, &bs);
		if (verdict_endpoints(sep, &in))
			goto out;
		br->have_verdict = 1;
		br->v = *sep;
		br->boots = bs.nr;
		br->samples = bs.nr_samples;
		if (sep->kind == VERDICT_BAD) {
			*status = ENDPOINTS_SEPARATED;
			break;
		}
		if (sep->kind == VERDICT_GOOD ||
		    bs.nr >= (size_t)job->runs_max) {
			*status = ENDPOINTS_NOT_SEPARATED;
			break;
		}
		/* Undecided: one more of each, the baseline interleaved. */
		if (gs.nr < ctx->good_boots_cap &&
		    probe_fill(ctx, g, gs.nr + 1, gr))
			goto out;
		if (probe_fill(ctx, b, bs.nr + 1, br))
			goto out;
		if (gr->outcome != PROBE_FAST) {
			*status = ENDPOINTS_GOOD_FAILED;
			break;
		}
		if (br->outcome != PROBE_FAST) {
			*status = ENDPOINTS_BAD_FAILED;
			break;
		}
	}
	gr->boots = gs.nr;
	gr->samples = gs.nr_samples;
	ret = 0;
out:
	sample_set_release(&gs);
	sample_set_release(&bs);
	return ret;
}

int probe_fill_pair(struct probe_ctx *ctx, const struct probe_image *a,
		    const struct probe_image *b, unsigned want,
		    struct probe_result *ra, struct probe_result *rb)
{
	for (unsigned n = 1; n <= want; n++) {
		if (probe_fill(ctx, a, n, ra) || probe_fill(ctx, b, n, rb))
			return -1;
		if (ra->outcome != PROBE_FAST || rb->outcome != PROBE_FAST)
			break;
	}
	return 0;
}
