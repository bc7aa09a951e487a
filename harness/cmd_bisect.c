/*
 * cmd_bisect.c: `iobisect bisect JOB [--log] [--results DIR]`. Measures the
 * endpoints, tests the merge base when good is not an ancestor of bad,
 * drives the bisect engine with real probes, saves the state after every
 * probe (so the same command resumes a killed run), confirms the culprit
 * against its parent and writes the report.
 *
 * Exit codes: 0 culprit found, 1 inconclusive (skips block it, or the
 * culprit did not confirm), 2 endpoints not separated (good is not fast or
 * bad is not slow by the threshold, or the merge base is already slow),
 * 128 abort (bad input, an endpoint that cannot be built or booted, QEMU
 * missing, results folder in use), 130 interrupted (state saved).
 */
#include "bisect.h"
#include "cmd.h"
#include "graph.h"
#include "job.h"
#include "probe.h"
#include "progress.h"
#include "repo.h"
#include "report.h"
#include "run.h"
#include "safety.h"
#include "state.h"
#include "upload.h"
#include "stats.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	EXIT_CULPRIT = 0,
	EXIT_INCONCLUSIVE = 1,
	EXIT_NOT_SEPARATED = 2,
	EXIT_ABORT = 128,
	EXIT_INTERRUPTED = 130,
};

struct bisect_run {
	struct job job;
	int job_loaded;
	struct repo *repo;
	struct progress progress;
	struct probe_ctx ctx;
	int ctx_ready;
	struct bisect_state st;
	char *dir, *state_file;
	struct state_lock lock;
	struct commit_graph graph;
	struct bisect_engine engine;
	/* Totals of earlier runs of this bisection, from the state. */
	unsigned prev_builds, prev_cached, prev_boots, prev_samples;
	double prev_seconds;
	uint64_t t0;
	char *message; /* why it stopped, for the report */
	unsigned steps;
};

static int usage(void)
{
	fprintf(stderr, "usage: iobisect bisect JOB [--log] [--results DIR] "
			"[--destroy-data-on DEV] [--force] [--upload URL] "
			"[--notify URL]\n");
	return EXIT_ABORT;
}

static void run_release(struct bisect_run *b)
{
	if (b->ctx_ready)
		probe_ctx_release(&b->ctx);
	bisect_release(&b->engine);
	graph_release(&b->graph);
	if (b->repo)
		repo_free(b->repo);
	progress_release(&b->progress);
	state_release(&b->st);
	state_unlock(&b->lock);
	if (b->job_loaded)
		job_release(&b->job);
	free(b->dir);
	free(b->state_file);
	free(b->message);
}

static int save(struct bisect_run *b)
{
	b->st.builds = b->prev_builds + b->ctx.builds;
	b->st.builds_cached = b->prev_cached + b->ctx.builds_cached;
	b->st.boots = b->prev_boots + b->ctx.boots;
	b->st.samples = b->prev_samples + b->ctx.samples;
	b->st.seconds = b->prev_seconds + (now_ns() - b->t0) / 1e9;
	return state_save(&b->st, b->state_file);
}

static char *subject_of(struct bisect_run *b, const char *id)
{
	struct commit_info ci = COMMIT_INFO_INIT;
	char *s = NULL;

	if (!repo_describe(b->repo, id, &ci) && ci.subject)
		s = xstrdup(ci.subject);
	commit_info_release(&ci);
	return s ? s : xstrdup("");
}

/* Record a probe in the state (replacing an earlier one of this role). */
static void note_probe(struct bisect_run *b, const char *commit,
		       const char *role, const struct probe_result *r,
		       const char *mark)
{
	struct state_probe *p = NULL;
	const struct probe_image *img = NULL;
	char ts[32];

	for (size_t i = 0; i < b->st.nr_probes; i++)
		if (!strcmp(b->st.probes[i].commit, commit) &&
		    !strcmp(b->st.probes[i].role, role))
			p = &b->st.probes[i];
	if (!p) {
		p = state_add_probe(&b->st, commit, role);
		p->subject = subject_of(b, commit);
	}
	for (size_t i = 0; i < b->ctx.nr_images; i++)
		if (!strcmp(b->ctx.images[i].commit, commit))
			img = &b->ctx.images[i];
	free(p->build_key);
	p->build_key = img && img->key[0] ? xstrdup(img->key) : NULL;
	p->cached = img ? img->cached : 0;
	free(p->outcome);
	p->outcome = xstrdup(probe_outcome_name(r->outcome));
	free(p->mark);
	p->mark = mark ? xstrdup(mark) : NULL;
	free(p->v.verdict);
	p->v.verdict = NULL;
	if (r->have_verdict) {
		p->v.verdict = xstrdup(verdict_name(r->v.kind));
		p->v.good_median = r->v.base_median;
		p->v.good_stddev_pct = r->v.base_pct_stddev;
		p->v.median = r->v.cand_median;
		p->v.stddev_pct = r->v.cand_pct_stddev;
		p->v.effect_pct = r->v.pct_change;
		p->v.p_value = r->v.kind == VERDICT_GOOD ? r->v.p_fast
							 : r->v.p_slower;
		p->v.error = r->v.error;
		p->v.good_boots = r->v.n_base;
		p->v.boots = r->v.n_cand;
	}
	p->boots += r->boots_run;
	p->samples = r->samples;
	free(p->log);
	p->log = r->log ? xstrdup(r->log) : NULL;
	free(p->first_error);
	p->first_error = r->first_error ? xstrdup(r->first_error) : NULL;
	utc_timestamp(ts, sizeof(ts));
	free(p->ended);
	p->ended = xstrdup(ts);
	p->seconds = r->seconds;
	if (mark && !state_find_mark(&b->st, commit))
		state_add_mark(&b->st, commit, mark);
}

static const char *failure_text(const struct probe_result *r)
{
	return r->first_error ? r->first_error : probe_outcome_name(r->outcome);
}

static void say_verdict(struct bisect_run *b, const char *commit,
			const struct probe_result *r, const char *mark)
{
	if (r->have_verdict && r->v.n_cand)
		progress_note(&b->progress,
			      "[bisect] %.12s is %s: %.1f MB/s ±%.0f%% vs "
			      "%.1f MB/s ±%.0f%% (%+.1f%%, %zu boots)",
			      commit,
			      !strcmp(mark, "bad")	? "slow"
			      : !strcmp(mark, "good") ? "fast"
						      : "undecided (skip)",
			      r->v.cand_median / 1e6, r->v.cand_pct_stddev,
			      r->v.base_median / 1e6, r->v.base_pct_stddev,
			      r->v.pct_change, r->v.n_cand);
	else
		progress_note(&b->progress, "[bisect] %.12s: %s -> %s%s%s",
			      commit, probe_outcome_name(r->outcome), mark,
			      r->log ? ", log: " : "", r->log ? r->log : "");
}

/* A probe returned -1: interrupted (state saved) or aborted. */
static int stopped(struct bisect_run *b)
{
	if (b->ctx.interrupted || run_interrupted()) {
		save(b);
		progress_note(&b->progress,
			      "[bisect] interrupted; state saved in %s: run "
			      "the same command to resume",
			      b->state_file);
		return EXIT_INTERRUPTED;
	}
	b->st.status = STATE_ABORTED;
	save(b);
	return EXIT_ABORT;
}

static int endpoints(struct bisect_run *b)
{
	struct probe_result gr = { 0 }, br = { 0 };
	struct verdict sep;
	enum probe_endpoints_status es;
	char *gs = subject_of(b, b->st.good), *bs = subject_of(b, b->st.bad);
	int ret;

	if (b->job.bisect_type != BISECT_PERF) {
		/* build/boot: good must pass and bad fail the type's test. */
		enum bisect_mark gm, bm;
		progress_commit(&b->progress, "good", 0, 0, b->st.good, gs);
		if (probe_commit(&b->ctx, b->st.good, &gr)) {
			ret = stopped(b);
			goto out;
		}
		gm = bisect_classify(b->job.bisect_type, gr.outcome);
		note_probe(b, b->st.good, "good", &gr, bisect_mark_name(gm));
		progress_commit(&b->progress, "bad", 0, 0, b->st.bad, bs);
		if (probe_commit(&b->ctx, b->st.bad, &br)) {
			ret = stopped(b);
			goto out;
		}
		bm = bisect_classify(b->job.bisect_type, br.outcome);
		note_probe(b, b->st.bad, "bad", &br, bisect_mark_name(bm));
		if (gm != BISECT_GOOD || bm != BISECT_BAD) {
			b->message = xstrfmt(
				"for a %s bisection good must pass and bad fail: "
				"good %.12s %s, bad %.12s %s",
				b->job.bisect_type == BISECT_BUILD ? "build"
								   : "boot",
				b->st.good, probe_outcome_name(gr.outcome), b->st.bad,
				probe_outcome_name(br.outcome));
			b->st.status = STATE_NOT_SEPARATED;
			ret = EXIT_NOT_SEPARATED;
		} else {
			ret = 0;
		}
		save(b);
		goto out;
	}

	if (probe_endpoints(&b->ctx, b->st.good, gs, b->st.bad, bs, &gr, &br,
			    &sep, &es)) {
		ret = stopped(b);
		goto out;
	}
	note_probe(b, b->st.good, "good", &gr,
		   es == ENDPOINTS_GOOD_FAILED ? NULL : "good");
	if (es != ENDPOINTS_GOOD_FAILED)
		note_probe(b, b->st.bad, "bad", &br,
			   es == ENDPOINTS_SEPARATED ? "bad" : NULL);
	switch (es) {
	case ENDPOINTS_SEPARATED:
		progress_note(&b->progress, "[bisect] endpoints: %s",
			      sep.reason);
		ret = 0;
		break;
	case ENDPOINTS_NOT_SEPARATED:
		b->message = xstrfmt("endpoints not separated: %s",
				     sep.reason);
		b->st.status = STATE_NOT_SEPARATED;
		ret = EXIT_NOT_SEPARATED;
		break;
	default: {
		int good = es == ENDPOINTS_GOOD_FAILED;
		const struct probe_result *r = good ? &gr : &br;
		b->message = xstrfmt(
			"the %s endpoint %.12s cannot be measured: %s: %s%s%s",
			good ? "good" : "bad",
			good ? b->st.good : b->st.bad,
			probe_outcome_name(r->outcome), failure_text(r),
			r->log ? "; log: " : "", r->log ? r->log : "");
		b->st.status = STATE_ABORTED;
		ret = EXIT_ABORT;
		break;
	}
	}
	save(b);
out:
	free(gs);
	free(bs);
	probe_result_release(&gr);
	probe_result_release(&br);
	return ret;
}

/* git tests the merge base first when good is not an ancestor of bad. */
static int merge_base(struct bisect_run *b)
{
	struct probe_result r = { 0 };
	enum bisect_mark m;
	char *subject;
	int ret = 0;

	if (!b->st.merge_base[0])
		return 0;
	if (state_find_mark(&b->st, b->st.merge_base)) {
		m = !strcmp(state_find_mark(&b->st, b->st.merge_base), "bad")
			    ? BISECT_BAD
			    : BISECT_GOOD;
		goto judged;
	}
	subject = subject_of(b, b->st.merge_base);
	progress_commit(&b->progress, "merge-base", 0, 0, b->st.merge_base,
			subject);
	free(subject);
	if (probe_commit(&b->ctx, b->st.merge_base, &r)) {
		probe_result_release(&r);
		return stopped(b);
	}
	m = bisect_classify(b->job.bisect_type, r.outcome);
	note_probe(b, b->st.merge_base, "merge-base", &r, bisect_mark_name(m));
	say_verdict(b, b->st.merge_base, &r, bisect_mark_name(m));
	probe_result_release(&r);
	save(b);
judged:
	if (m == BISECT_BAD) {
		b->message = xstrfmt(
			"the merge base %.12s is already slow: the slowdown came "
			"before it, between it and good %.12s there is a fix",
			b->st.merge_base, b->st.good);
		b->st.status = STATE_NOT_SEPARATED;
		save(b);
		ret = EXIT_NOT_SEPARATED;
	} else if (m == BISECT_SKIP) {
		progress_note(&b->progress,
			      "warning: the merge base %.12s could not be "
			      "tested: the first slow commit may be older",
			      b->st.merge_base);
	}
	return ret;
}

static enum bisect_mark mark_from_name(const char *m)
{
	return !strcmp(m, "good") ? BISECT_GOOD
	       : !strcmp(m, "bad") ? BISECT_BAD
				   : BISECT_SKIP;
}

/* The marks of earlier runs, replayed into the engine. */
static int replay(struct bisect_run *b)
{
	for (size_t i = 0; i < b->st.nr_marks; i++) {
		long n = graph_find(&b->graph, b->st.marks[i].commit);
		if (n <= 0) /* the endpoints and the merge base */
			continue;
		if (bisect_mark(&b->engine, (size_t)n,
				mark_from_name(b->st.marks[i].mark)))
			return -1;
		b->steps++;
	}
	return 0;
}

static int steps(struct bisect_run *b, size_t *culprit)
{
	for (;;) {
		size_t node;
		enum bisect_status s;
		struct probe_result r = { 0 };
		enum bisect_mark m;
		char *subject;
		const char *id;

		if (run_interrupted())
			return stopped(b);
		s = bisect_next(&b->engine, &node);
		if (s == BISECT_ERROR) {
			b->st.status = STATE_ABORTED;
			save(b);
			return EXIT_ABORT;
		}
		if (s == BISECT_DONE) {
			*culprit = node;
			return 0;
		}
		if (s == BISECT_INCONCLUSIVE) {
			size_t *c = NULL, n = bisect_candidates(&b->engine, &c);
			for (size_t i = 0; i < n; i++)
				strvec_push(&b->st.suspects,
					    b->graph.nodes[c[i]].id);
			free(c);
			b->st.status = STATE_INCONCLUSIVE;
			save(b);
			return EXIT_INCONCLUSIVE;
		}
		id = b->graph.nodes[node].id;
		subject = subject_of(b, id);
		b->steps++;
		progress_commit(&b->progress, "step", (int)b->steps,
				(int)(b->steps - 1 +
				      bisect_steps_left(&b->engine)),
				id, subject);
		free(subject);
		if (probe_commit(&b->ctx, id, &r)) {
			probe_result_release(&r);
			return stopped(b);
		}
		m = bisect_classify(b->job.bisect_type, r.outcome);
		if (bisect_mark(&b->engine, node, m)) {
			probe_result_release(&r);
			return EXIT_ABORT;
		}
		note_probe(b, id, "step", &r, bisect_mark_name(m));
		say_verdict(b, id, &r, bisect_mark_name(m));
		probe_result_release(&r);
		progress_commit_done(&b->progress);
		if (save(b))
			return EXIT_ABORT;
	}
}

static int same_file(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int same = 0;

	if (a && b && !read_file(a, &x) && !read_file(b, &y))
		same = x.len == y.len && !memcmp(x.buf, y.buf, x.len);
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

static void fill_commit(struct bisect_run *b, struct report_commit *c,
			const char *id)
{
	struct commit_info ci = COMMIT_INFO_INIT;

	snprintf(c->id, sizeof(c->id), "%s", id);
	if (repo_describe(b->repo, id, &ci))
		return;
	c->describe = ci.describe ? xstrdup(ci.describe) : NULL;
	c->subject = ci.subject ? xstrdup(ci.subject) : NULL;
	c->author = ci.author ? xstrdup(ci.author) : NULL;
	c->date = ci.date ? xstrdup(ci.date) : NULL;
	commit_info_release(&ci);
}

static void add_rows(struct report *rep, const char *what,
		     const struct sample_set *g, const struct sample_set *x,
		     int significant)
{
	struct report_row *row;

	row = report_add_row(rep, what, "MB/s");
	row->good_median = stats_median(g->values, g->nr) / 1e6;
	row->good_stddev_pct = stats_pct_stddev(g->values, g->nr);
	row->bad_median = stats_median(x->values, x->nr) / 1e6;
	row->bad_stddev_pct = stats_pct_stddev(x->values, x->nr);
	row->significant = significant;
	row = report_add_row(rep, what, "%CPU");
	row->good_median = stats_median(g->cpu_pct, g->nr);
	row->good_stddev_pct = stats_pct_stddev(g->cpu_pct, g->nr);
	row->bad_median = stats_median(x->cpu_pct, x->nr);
	row->bad_stddev_pct = stats_pct_stddev(x->cpu_pct, x->nr);
}

/*
 * The confidence of the result: the chance that no verdict the path
 * depended on was wrong (verdict_path_confidence over the endpoint
 * separation, every decided step and the confirmation).
 */
static double path_confidence(const struct bisect_state *st)
{
	double *err = xcalloc(st->nr_probes + 1, sizeof(*err));
	size_t n = 0;
	double c;

	for (size_t i = 0; i < st->nr_probes; i++) {
		const struct state_probe *p = &st->probes[i];
		if (!p->v.verdict || !isfinite(p->v.error))
			continue;
		if (!strcmp(p->v.verdict, "undecided"))
			continue;
		if (!strcmp(p->role, "good")) /* no verdict of its own */
			continue;
		err[n++] = p->v.error;
	}
	c = verdict_path_confidence(err, n);
	free(err);
	return c;
}

/* The culprit and its parent get runs_max boots and a last verdict. */
static int confirm(struct bisect_run *b, const char *culprit,
		   struct report *rep)
{
	char parent[41];
	char *spec = xstrfmt("%s~1", culprit), *subject;
	const struct probe_image *pi, *ci;
	struct probe_result pr = { 0 }, cr = { 0 };
	struct sample_set ps = SAMPLE_SET_INIT, cs = SAMPLE_SET_INIT,
			  gs = SAMPLE_SET_INIT, bs = SAMPLE_SET_INIT;
	struct verdict_input in;
	int ret = -1;

	if (repo_resolve(b->repo, spec, parent)) {
		free(spec);
		return EXIT_ABORT;
	}
	free(spec);
	snprintf(rep->parent, sizeof(rep->parent), "%s", parent);
	subject = subject_of(b, culprit);
	progress_commit(&b->progress, "confirm", 0, 0, culprit, subject);
	free(subject);
	pi = probe_build(&b->ctx, parent);
	ci = probe_build(&b->ctx, culprit);
	if (!pi || !ci)
		goto stop;
	if (b->job.bisect_type != BISECT_PERF) {
		rep->identical_image = 0;
		ret = 0;
		goto out;
	}
	if (probe_fill_pair(&b->ctx, pi, ci, b->job.runs_max, &pr, &cr))
		goto stop;
	if (pr.outcome != PROBE_FAST || cr.outcome != PROBE_FAST) {
		b->message = xstrfmt("confirmation could not boot %.12s: %s",
				     pr.outcome != PROBE_FAST ? parent : culprit,
				     failure_text(pr.outcome != PROBE_FAST ? &pr
									   : &cr));
		ret = 0;
		goto out;
	}
	if (probe_load(&b->ctx, pi, &ps) || probe_load(&b->ctx, ci, &cs) ||
	    probe_load(&b->ctx, b->ctx.good, &gs) ||
	    probe_load(&b->ctx, b->ctx.bad, &bs))
		goto stop;
	probe_verdict_input(&b->ctx, &in, &ps, &cs, &bs);
	if (stats_verdict(&cr.v, &in))
		goto stop;
	cr.have_verdict = 1;
	note_probe(b, culprit, "confirm", &cr, NULL);
	if (cr.v.kind == VERDICT_GOOD) {
		b->message = xstrfmt("%.12s does not confirm against its parent "
				     "%.12s: %s",
				     culprit, parent, cr.v.reason);
		ret = EXIT_INCONCLUSIVE;
	} else if (cr.v.kind == VERDICT_UNDECIDED) {
		b->message = xstrfmt("warning: not confirmed against the parent "
				     "at %d boots: %s",
				     b->job.runs_max, cr.v.reason);
		ret = 0;
	} else {
		ret = 0;
	}
	rep->identical_image = same_file(pi->image, ci->image);
	add_rows(rep, "read parent/culprit", &ps, &cs,
		 cr.v.kind == VERDICT_BAD);
	add_rows(rep, "read good/bad endpoints", &gs, &bs, 1);
	goto out;
stop:
	ret = stopped(b);
out:
	sample_set_release(&ps);
	sample_set_release(&cs);
	sample_set_release(&gs);
	sample_set_release(&bs);
	probe_result_release(&pr);
	probe_result_release(&cr);
	return ret;
}

static void finish_report(struct bisect_run *b, struct report *rep)
{
	struct strbuf text = STRBUF_INIT;

	rep->job = xstrdup(b->job.name);
	rep->status = b->st.status;
	if (b->message)
		rep->message = xstrdup(b->message);
	rep->steps = 0;
	for (size_t i = 0; i < b->st.nr_probes; i++)
		rep->steps += !strcmp(b->st.probes[i].role, "step");
	if (b->st.status == STATE_INCONCLUSIVE) {
		rep->suspects = xcalloc(b->st.suspects.nr + 1,
					sizeof(*rep->suspects));
		for (size_t i = 0; i < b->st.suspects.nr; i++)
			fill_commit(b, &rep->suspects[i], b->st.suspects.v[i]);
		rep->nr_suspects = b->st.suspects.nr;
	}
	save(b);
	rep->builds = b->st.builds;
	rep->builds_cached = b->st.builds_cached;
	rep->boots = b->st.boots;
	rep->samples = b->st.samples;
	rep->seconds = b->st.seconds;
	for (size_t i = 0; i < b->ctx.logs.nr; i++)
		strvec_push(&rep->logs, b->ctx.logs.v[i]);
	for (size_t i = 0; i < b->st.nr_probes; i++) {
		const struct state_probe *p = &b->st.probes[i];
		int seen = 0;
		if (!p->log)
			continue;
		for (size_t j = 0; j < rep->logs.nr; j++)
			seen |= !!strstr(rep->logs.v[j], p->log);
		if (!seen)
			strvec_pushf(&rep->logs, "%s of %.12s: %s", p->outcome,
				     p->commit, p->log);
	}
	strvec_pushf(&rep->logs, "results: %s", b->dir);
	rep->state_file = xstrdup(b->state_file);
	report_write(rep, b->dir);
	progress_clear(&b->progress);
	report_render_text(rep, &text);
	fputs(text.buf, stdout);
	fflush(stdout);
	strbuf_release(&text);
}

static int print_log(struct bisect_run *b)
{
	struct strbuf out = STRBUF_INIT;
	int r = state_load(&b->st, b->state_file);

	if (r < 0)
		return EXIT_ABORT;
	if (r > 0) {
		error("no bisection in '%s'", b->dir);
		return EXIT_ABORT;
	}
	state_log(&b->st, &out);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	return 0;
}

static int start(struct bisect_run *b, const char *job_path)
{
	struct strbuf text = STRBUF_INIT;
	char good[41], bad[41], mb[41], hash[41];
	int r;

	if (read_file(job_path, &text))
		return -1;
	hash_hex(text.buf, text.len, hash);
	strbuf_release(&text);

	r = state_load(&b->st, b->state_file);
	if (r < 0)
		return -1;
	if (r == 0 && strcmp(b->st.job_hash, hash))
		return error("'%s' belongs to a bisection started with another "
			     "version of '%s'; move it away to start over",
			     b->state_file, job_path);
	b->prev_builds = b->st.builds;
	b->prev_cached = b->st.builds_cached;
	b->prev_boots = b->st.boots;
	b->prev_samples = b->st.samples;
	b->prev_seconds = b->st.seconds;

	if (repo_open(&b->repo, b->job.repo) ||
	    repo_resolve(b->repo, b->job.good, good) ||
	    repo_resolve(b->repo, b->job.bad, bad) ||
	    repo_range(b->repo, good, bad, &b->graph, mb))
		return -1;
	if (r == 0 && (strcmp(b->st.good, good) || strcmp(b->st.bad, bad)))
		return error("'%s' is a bisection of %.12s..%.12s but the job "
			     "now says %.12s..%.12s; move it away to start over",
			     b->state_file, b->st.good, b->st.bad, good, bad);
	if (r == 0)
		progress_note(&b->progress,
			      "[bisect] resuming %s: %zu marks, %u boots "
			      "stored",
			      b->state_file, b->st.nr_marks, b->st.boots);
	if (r == 1) {
		b->st.job_hash = xstrdup(hash);
		b->st.job_name = xstrdup(b->job.name);
		b->st.good_rev = xstrdup(b->job.good);
		b->st.bad_rev = xstrdup(b->job.bad);
		memcpy(b->st.good, good, 41);
		memcpy(b->st.bad, bad, 41);
		if (strcmp(mb, good))
			memcpy(b->st.merge_base, mb, 41);
		for (size_t i = 0; i < b->graph.nr; i++)
			strvec_push(&b->st.candidates, b->graph.nodes[i].id);
	}
	/* A finished run is run again on what is stored: same answer. */
	b->st.status = STATE_RUNNING;
	b->st.culprit[0] = '\0';
	strvec_clear(&b->st.suspects);
	b->st.confidence = NAN;
	return 0;
}

/*
 * --upload: every document of the job folder and the summary go to the
 * endpoint (what cannot be sent waits in the spool for the next run or
 * `iobisect upload --flush`); --notify: a short webhook message when a
 * culprit was found. Neither changes the exit code: the result stands.
 */
static void publish(struct bisect_run *b, const struct report *rep,
		    const char *upload_url, const char *notify_url)
{
	struct upload_options o = UPLOAD_OPTIONS_INIT;
	if (upload_url) {
		struct upload_counts c = { 0 };
		o.url = upload_url;
		upload_job(&o, b->dir, &c);
		printf("upload: %zu sent, %zu already there, %zu spooled\n",
		       c.sent, c.already, c.kept);
	}
	if (notify_url && rep->status == STATE_DONE) {
		char *report = xstrfmt("%s/report.txt", b->dir);
		struct upload_notice n = {
			.culprit = rep->culprit.id,
			.subject = rep->culprit.subject,
			.metric = rep->nr_rows ? rep->rows[0].metric
					       : b->job.metric,
			.change_pct = rep->nr_rows && rep->rows[0].good_median
				? (rep->rows[0].bad_median /
					   rep->rows[0].good_median -
				   1) * 100
				: 0,
			.report = report,
			.job = b->job.name,
		};
		if (!upload_notify(&o, notify_url, &n))
			printf("notified %s\n", notify_url);
		free(report);
	}
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_run b;
	struct report rep;
	const char *job_path = NULL, *results = NULL, *destroy = NULL;
	const char *upload_url = NULL, *notify_url = NULL;
	int show_log = 0, force = 0, used, ret = EXIT_ABORT;
	size_t culprit;
	struct safety_hold *holds = NULL;
	size_t nr_holds = 0;

	memset(&b, 0, sizeof(b));
	b.lock.fd = -1;
	report_init(&rep);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--log"))
			show_log = 1;
		else if (!strcmp(argv[i], "--results") && i + 1 < argc)
			results = argv[++i];
		else if (!strcmp(argv[i], "--upload") && i + 1 < argc)
			upload_url = argv[++i];
		else if (!strcmp(argv[i], "--notify") && i + 1 < argc)
			notify_url = argv[++i];
		else if ((used = safety_parse_option(argc, argv, i, &destroy,
						     &force)))
			i += used - 1;
		else if (argv[i][0] == '-' || job_path)
			return usage();
		else
			job_path = argv[i];
	}
	if (!job_path)
		return usage();
	b.t0 = now_ns();
	progress_init(&b.progress, stderr);
	if (job_load(&b.job, job_path))
		goto out;
	b.job_loaded = 1;
	if (job_check_bisect(&b.job))
		goto out;
	if (results) {
		free(b.job.results);
		b.job.results = xstrdup(results);
	}
	b.dir = xstrfmt("%s/%s", b.job.results, b.job.name);
	b.state_file = state_path(b.job.results, b.job.name);
	if (show_log) {
		ret = print_log(&b);
		goto out;
	}
	/* Passed-through host disks are checked and held for the whole run. */
	if (safety_check_job(&b.job, destroy, force, &holds, &nr_holds))
		goto out;
	safety_pin_paths(&b.job, holds, nr_holds);
	if (state_lock(&b.lock, b.dir))
		goto out;
	if (start(&b, job_path))
		goto out;
	if (probe_ctx_init(&b.ctx, &b.job, b.job.repo, &b.progress))
		goto out;
	b.ctx_ready = 1;

	ret = endpoints(&b);
	if (ret)
		goto report;
	ret = merge_base(&b);
	if (ret)
		goto report;
	if (bisect_init(&b.engine, &b.graph) || replay(&b)) {
		ret = EXIT_ABORT;
		goto out;
	}
	b.steps = 0;
	for (size_t i = 0; i < b.st.nr_probes; i++)
		b.steps += !strcmp(b.st.probes[i].role, "step");
	ret = steps(&b, &culprit);
	if (ret)
		goto report;

	fill_commit(&b, &rep.culprit, b.graph.nodes[culprit].id);
	memcpy(b.st.culprit, b.graph.nodes[culprit].id, 41);
	b.st.status = STATE_DONE;
	ret = confirm(&b, b.st.culprit, &rep);
	if (ret == EXIT_INTERRUPTED || ret == EXIT_ABORT)
		goto out;
	if (ret == EXIT_INCONCLUSIVE) {
		b.st.status = STATE_INCONCLUSIVE;
		strvec_push(&b.st.suspects, b.st.culprit);
		b.st.culprit[0] = '\0';
	}
	b.st.confidence = path_confidence(&b.st);
	rep.confidence = b.st.confidence;
report:
	if (ret == EXIT_INTERRUPTED)
		goto out;
	finish_report(&b, &rep);
	publish(&b, &rep, upload_url, notify_url);
out:
	safety_release_all(holds, nr_holds);
	report_release(&rep);
	run_release(&b);
	return ret;
}
