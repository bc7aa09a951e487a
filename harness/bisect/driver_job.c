/*
 * driver_job.c: a job's bisection for real (see driver_job.h): the
 * repository and range, the state and its lock, the driver over the real
 * operations, and the report.
 */
#include "driver_job.h"
#include "driver_profile.h"

#include "executor.h"
#include "graph.h"
#include "narrow.h"
#include "split_cost.h"
#include "probe.h"
#include "progress.h"
#include "repo.h"
#include "run.h"
#include "state.h"
#include "stats.h"
#include "store_scan.h"
#include "util.h"
#include "wall_pairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bisect_job {
	struct job *job;
	struct progress *progress;
	struct repo *repo;
	struct probe_ctx ctx;
	int ctx_ready;
	struct bisect_state st;
	char *dir, *state_file;
	struct state_lock lock;
	struct commit_graph graph;
	struct narrow_repo narrow;
	struct split_cost cost;
	struct driver d;
	int driver_ready;
	struct driver_result res;
	struct executor_probe remote; /* --executor slurm */
	struct bisect_report_wall wall;      /* the answer on the wall clock */
};

static void bisect_job_release(struct bisect_job *b)
{
	if (b->driver_ready)
		driver_release(&b->d);
	driver_result_release(&b->res);
	split_cost_release(&b->cost);
	executor_probe_release(&b->remote);
	if (b->ctx_ready)
		probe_ctx_release(&b->ctx);
	graph_release(&b->graph);
	if (b->repo)
		repo_free(b->repo);
	state_release(&b->st);
	state_unlock(&b->lock);
	free(b->dir);
	free(b->state_file);
}

/*
 * Load the state of an earlier run (checking it is a run of this job and
 * range) or start a fresh one, and list the range.
 */
static int start(struct bisect_job *b, const char *hash)
{
	struct job *job = b->job;
	char good[41], bad[41], mb[41];
	int r;

	r = state_load(&b->st, b->state_file);
	if (r < 0)
		return -1;
	if (r == 0 && strcmp(b->st.job_hash, hash))
		return error("'%s' belongs to a bisection started with another "
			     "version of '%s'; move it away to start over",
			     b->state_file, job->path);
	if (repo_open(&b->repo, job->repo) ||
	    repo_resolve(b->repo, job->good, good) ||
	    repo_resolve(b->repo, job->bad, bad) ||
	    repo_range(b->repo, good, bad, &b->graph, mb))
		return -1;
	if (r == 0 && (strcmp(b->st.good, good) || strcmp(b->st.bad, bad)))
		return error(
			"'%s' is a bisection of %.12s..%.12s but the job "
			"now says %.12s..%.12s; move it away to start over",
			b->state_file, b->st.good, b->st.bad, good, bad);
	if (r == 0)
		progress_note(b->progress,
			      "[bisect] resuming %s: %zu marks, %u boots "
			      "stored",
			      b->state_file, b->st.nr_marks, b->st.counts.boots);
	if (r == 1) {
		b->st.job_hash = xstrdup(hash);
		b->st.job_name = xstrdup(job->name);
		b->st.good_rev = xstrdup(job->good);
		b->st.bad_rev = xstrdup(job->bad);
		memcpy(b->st.good, good, 41);
		memcpy(b->st.bad, bad, 41);
		if (strcmp(mb, good))
			memcpy(b->st.merge_base, mb, 41);
		for (size_t i = 0; i < b->graph.nr; i++)
			strvec_push(&b->st.candidates, b->graph.nodes[i].id);
	}
	/* A finished run is run again on what is stored: same answer. */
	if (b->st.status == STATE_DONE) {
		memcpy(b->st.answered, b->st.culprit, 41);
		b->st.answered_confidence = b->st.confidence;
	}
	/*
	 * Its pairs were judged to the end: asked again, an answer below the
	 * confidence takes pairs of its own, as it always did. Only a
	 * stopped run's pairs are resumed (driver_confirm.c).
	 */
	if (b->st.status == STATE_DONE || b->st.status == STATE_INCONCLUSIVE)
		state_confirm_clear(&b->st.confirm);
	b->st.status = STATE_RUNNING;
	b->st.culprit[0] = '\0';
	strvec_clear(&b->st.suspects);
	b->st.confidence = NAN;
	return 0;
}

static void fill_commit(struct bisect_job *b, struct bisect_report_commit *c,
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

static void add_rows(struct bisect_report *rep, const char *what,
		     const struct sample_set *g, const struct sample_set *x,
		     int significant)
{
	struct bisect_report_row *row;

	row = bisect_report_add_row(rep, what, "MB/s");
	row->good_median = stats_median(g->values, g->nr) / 1e6;
	row->good_stddev_pct = stats_pct_stddev(g->values, g->nr);
	row->bad_median = stats_median(x->values, x->nr) / 1e6;
	row->bad_stddev_pct = stats_pct_stddev(x->values, x->nr);
	row->significant = significant;
	row = bisect_report_add_row(rep, what, "%CPU");
	row->good_median = stats_median(g->cpu_pct, g->nr);
	row->good_stddev_pct = stats_pct_stddev(g->cpu_pct, g->nr);
	row->bad_median = stats_median(x->cpu_pct, x->nr);
	row->bad_stddev_pct = stats_pct_stddev(x->cpu_pct, x->nr);
}

static const struct probe_image *image_of(struct bisect_job *b,
					  const char *commit)
{
	for (size_t i = 0; i < b->ctx.nr_images; i++)
		if (!strcmp(b->ctx.images[i].commit, commit))
			return &b->ctx.images[i];
	return NULL;
}

/*
 * The block-layer counters of the metric point, culprit against parent
 * and bad against good, from what the store holds for them.
 */
static void counter_tables(struct bisect_job *b, struct bisect_report *rep,
			   const char *parent, const char *culprit)
{
	const struct job *job = b->job;
	const char *topo = job->topologies[b->ctx.topo].name;
	struct scan s;
	long ids[4];
	const char *revs[4] = { parent, culprit, b->st.good, b->st.bad };

	if (scan_load_flags(&s, b->dir, NULL, SCAN_STATE_OPTIONAL))
		return;
	for (int k = 0; k < 4; k++)
		ids[k] = scan_find_commit(&s, revs[k]);
	for (size_t i = 0; i < s.nr_series; i++) {
		const struct scan_series *ser = &s.series[i];
		if (strcmp(ser->topology, topo) ||
		    strcmp(ser->point, b->ctx.point->id) ||
		    strcmp(ser->metric, job->metric))
			continue;
		if (ids[0] >= 0 && ids[1] >= 0)
			block_counters_compare(ser->cells[ids[0]].blocks,
					 ser->cells[ids[1]].blocks,
					 &rep->counters_culprit);
		if (ids[2] >= 0 && ids[3] >= 0)
			block_counters_compare(ser->cells[ids[2]].blocks,
					 ser->cells[ids[3]].blocks,
					 &rep->counters_endpoints);
		break;
	}
	scan_release(&s);
}

/* The culprit against its (first) parent, and the endpoints. */
static void culprit_rows(struct bisect_job *b, struct bisect_report *rep,
			 const char *culprit)
{
	const struct probe_image *ci = image_of(b, culprit), *pi, *gi, *bi;
	struct sample_set ps = SAMPLE_SET_INIT, cs = SAMPLE_SET_INIT,
			  gs = SAMPLE_SET_INIT, bs = SAMPLE_SET_INIT;
	const char *parent = b->res.parents.nr ? b->res.parents.v[0] : NULL;

	if (!parent || !ci)
		return;
	snprintf(rep->parent, sizeof(rep->parent), "%s", parent);
	pi = image_of(b, parent);
	gi = image_of(b, b->st.good);
	bi = image_of(b, b->st.bad);
	rep->identical_image = probe_same_image(pi, ci) == 1;
	if (b->job->bisect_type != BISECT_PERF || !pi || !gi || !bi)
		return;
	if (!probe_load(&b->ctx, pi, &ps) && !probe_load(&b->ctx, ci, &cs) &&
	    !probe_load(&b->ctx, gi, &gs) && !probe_load(&b->ctx, bi, &bs) &&
	    ps.nr && cs.nr && gs.nr && bs.nr) {
		add_rows(rep, "read parent/culprit", &ps, &cs,
			 b->res.status == DRIVER_CULPRIT);
		add_rows(rep, "read good/bad endpoints", &gs, &bs, 1);
		counter_tables(b, rep, parent, culprit);
	}
	sample_set_release(&ps);
	sample_set_release(&cs);
	sample_set_release(&gs);
	sample_set_release(&bs);
}

/*
 * An answer the virtual clock found, booted on the wall clock too
 * (wall_pairs.h), so the report can give the size TCG shows there. Only
 * for a confirmed answer of a local run. 0, or -1 when interrupted (the
 * answer is stored: asked again, the run boots the pairs still missing).
 */
static int answer_on_wall(struct bisect_job *b)
{
	const char *parent = b->res.parents.nr ? b->res.parents.v[0] : NULL;

	if (b->st.status != STATE_DONE || !parent || !b->job->wall_pairs ||
	    b->job->bisect_type != BISECT_PERF ||
	    b->ctx.machine.clock.kind != CLOCK_VIRTUAL || b->remote.x)
		return 0;
	progress_note(b->progress,
		      "[bisect] %.12s against its parent on the wall clock, "
		      "%d pairs: the size TCG shows there (runs.wall_pairs)",
		      b->res.culprit, b->job->wall_pairs);
	if (wall_pairs_run(&b->ctx, b->job, parent, b->res.culprit,
			   &b->wall)) {
		if (b->ctx.interrupted)
			return -1;
		/* The answer stands without it: say why it is missing. */
		progress_note(b->progress, "[bisect] no wall-clock figures: %s",
			      error_last() ? error_last() : "boots failed");
		b->wall.pairs = 0;
	}
	return 0;
}

/*
 * A run without an answer on the virtual clock, its disks waiting on
 * QEMU's time: there a kernel that waits spreads with the host's load (the
 * slow one of the re-planted readahead regression 3-8% from boot to boot,
 * its level moving for minutes, the fast one 0.0%; one run in five of it
 * ended inconclusive, 2026-12-06), and the note says what takes the host
 * out, with the one key a preset needs for it. NULL when that is not the
 * case.
 */
char *driver_job_host_waits_note(const struct job *job, int inconclusive,
				 enum clock_kind clock)
{
	if (!inconclusive || clock != CLOCK_VIRTUAL ||
	    !job_waits_on_host(job))
		return NULL;
	return xstrdup("the disks' waits are the host's time on the virtual "
		       "clock, and a kernel that waits spreads with its load: "
		       "on bus nullb (the guest's null_blk; on a preset "
		       "\"disks\": {\"bus\": \"nullb\"}) the latency is "
		       "guest time and keeps its effect above the driver; a "
		       "virtio disk without latency (\"latency_ns\": 0) keeps "
		       "only the instructions a request costs (docs/clocks.md)");
}

static void make_report(struct bisect_job *b, enum driver_status ret,
			struct bisect_report *rep)
{
	const struct bisect_state *st = &b->st;
	char *hint = driver_job_host_waits_note(
		b->job, st->status == STATE_INCONCLUSIVE,
		b->ctx.machine.clock.kind);

	rep->job = xstrdup(b->job->name);
	/*
	 * An interrupted run makes no report: one aborted while its state
	 * still says running was stopped by an error (a state that would
	 * not be saved), and says it, not "interrupted".
	 */
	rep->status = ret == DRIVER_ABORT && st->status == STATE_RUNNING
			      ? STATE_ABORTED
			      : st->status;
	if (b->res.message)
		rep->message = xstrdup(b->res.message);
	else if (rep->status == STATE_ABORTED && error_last())
		/* The error that stopped it, as it was printed. */
		rep->message = xstrdup(error_last());
	if (b->res.note && hint)
		rep->note = xstrfmt("%s; %s", b->res.note, hint);
	else if (b->res.note || hint)
		rep->note = xstrdup(b->res.note ? b->res.note : hint);
	free(hint);
	rep->wall = b->wall;
	bisect_report_answer_copy(&rep->answer, &b->res.answer);
	rep->steps = b->res.steps;
	rep->confidence = b->res.confidence;
	if (b->res.culprit[0]) {
		fill_commit(b, &rep->culprit, b->res.culprit);
		culprit_rows(b, rep, b->res.culprit);
	}
	if (st->status == STATE_INCONCLUSIVE) {
		rep->suspects =
			xcalloc(st->suspects.nr + 1, sizeof(*rep->suspects));
		for (size_t i = 0; i < st->suspects.nr; i++)
			fill_commit(b, &rep->suspects[i], st->suspects.v[i]);
		rep->nr_suspects = st->suspects.nr;
	}
	rep->counts = st->counts;
	rep->seconds = st->seconds;
	for (size_t i = 0; i < b->d.m.logs.nr; i++)
		strvec_push(&rep->logs, b->d.m.logs.v[i]);
	/* Failures of earlier runs of this bisection, from the state. */
	for (size_t i = 0; i < st->nr_probes; i++) {
		const struct state_probe *p = &st->probes[i];
		int seen = 0;
		if (!p->log)
			continue;
		for (size_t j = 0; j < rep->logs.nr; j++)
			seen |= !!strstr(rep->logs.v[j], p->log);
		if (!seen)
			strvec_pushf(&rep->logs, "%s of %.12s: %s",
				     probe_outcome_name(p->outcome), p->commit,
				     p->log);
	}
	strvec_pushf(&rep->logs, "results: %s", b->dir);
	rep->state_file = xstrdup(b->state_file);
	bisect_report_write(rep, b->dir);
}

enum driver_status driver_job_bisect(struct job *job,
				     const struct driver_job_opts *o,
				     struct bisect_report *rep)
{
	struct bisect_job b;
	enum driver_status ret = DRIVER_ABORT;

	memset(&b, 0, sizeof(b));
	b.lock.fd = -1;
	b.job = job;
	b.progress = o->progress;
	state_init(&b.st);
	driver_result_init(&b.res);
	if (job_check_bisect(job))
		goto out;
	b.dir = results_job_dir(job->results, job->name);
	b.state_file = state_path(job->results, job->name);
	if (state_lock(&b.lock, job->results, b.dir) || start(&b, o->job_hash))
		goto out;
	/*
	 * A finished bisection (start set `answered`) is not run again: its
	 * answer is printed as it was stored, and nothing is rewritten.
	 */
	if (b.st.answered[0] && !bisect_report_load(rep, b.dir, b.st.answered)) {
		progress_note(o->progress,
			      "[bisect] %s is finished: its stored answer "
			      "(move it away to start over)",
			      b.dir);
		ret = DRIVER_CULPRIT;
		goto out;
	}
	if (probe_ctx_init(&b.ctx, job, job->repo, o->progress))
		goto out;
	b.ctx_ready = 1;
	b.ctx.repo = b.repo;
	if (o->exec && o->exec->kind == EXECUTOR_SLURM) {
		b.remote = (struct executor_probe){.x = o->exec,
						   .job = job,
						   .ctx = &b.ctx,
						   .progress = o->progress};
		driver_init(&b.d, job, &executor_ops, &b.remote, &b.graph,
			    &b.st);
	} else {
		driver_init(&b.d, job, &probe_ops, &b.ctx, &b.graph, &b.st);
	}
	b.driver_ready = 1;
	if (job->inputs_only) {
		b.narrow = (struct narrow_repo){ .job = job, .repo = b.repo };
		b.d.narrow = narrow_by_inputs;
		b.d.narrow_arg = &b.narrow;
		/* The inputs say what a step costs to build, too. */
		b.cost = (struct split_cost)SPLIT_COST_INIT;
		b.cost.job = job;
		b.cost.repo = b.repo;
		b.cost.bad = b.st.bad;
		b.d.build_cost = split_cost_of;
		b.d.build_cost_arg = &b.cost;
	}
	b.d.state_file = b.state_file;
	b.d.m.progress = o->progress;
	b.d.multi = o->exec ? o->exec->probes : 1;
	ret = driver_bisect(&b.d, &b.res);
	if (ret == DRIVER_CULPRIT && b.d.multi > 1)
		progress_note(o->progress, "[bisect] %u rounds, up to %u commits at once",
			   b.d.rounds, b.d.multi);
	/* After the pairs, alone: nothing else boots beside them. */
	if (ret == DRIVER_CULPRIT && b.st.status == STATE_DONE &&
	    b.res.parents.nr)
		driver_profile_answer(&b.ctx, b.res.culprit,
				      b.res.parents.v[0], o->progress, rep);
	if (ret == DRIVER_CULPRIT && answer_on_wall(&b))
		ret = DRIVER_INTERRUPTED;
	if (ret != DRIVER_INTERRUPTED) {
		progress_clear(o->progress);
		make_report(&b, ret, rep);
	}
out:
	bisect_job_release(&b);
	return ret;
}

enum driver_status
driver_job_test(struct job *job, const char *build_repo, const char *good,
		const char *bad, const char *commit, struct progress *progress,
		struct driver_result *res, enum bisect_mark *mark)
{
	struct state_lock lock = STATE_LOCK_INIT;
	struct probe_ctx ctx;
	struct driver d;
	char *dir = results_job_dir(job->results, job->name);
	enum driver_status ret = DRIVER_ABORT;

	driver_result_init(res);
	if (state_lock(&lock, job->results, dir) ||
	    probe_ctx_init(&ctx, job, build_repo, progress))
		goto out;
	/* No state: git keeps the bisection's. */
	driver_init(&d, job, &probe_ops, &ctx, NULL, NULL);
	d.m.progress = progress;
	ret = driver_test(&d, good, bad, commit, res, mark);
	driver_release(&d);
	probe_ctx_release(&ctx);
out:
	state_unlock(&lock);
	free(dir);
	return ret;
}
