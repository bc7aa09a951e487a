/*
 * lanes.c: kernel builds in child processes beside boots (see lanes.h).
 */
#include "lanes.h"

#include "job.h"
#include "kbuild.h"
#include "progress.h"
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A line in a log at least this often while the run waits for a build. */
#define LANES_SIGN_OF_LIFE_S 60

/* ioprio_set(2) has no glibc wrapper. */
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_WHO_PGRP 2

/*
 * Background builds open trees of their own only with this many CPUs to
 * build on: a new tree is a whole build from ccache hits (227-249 s on
 * the 2-CPU development machine, 10-build) against 20-30 s for a step in
 * the warm tree, and on a small host it runs beside every other build.
 */
#define LANES_OWN_TREE_MIN_CPUS 8

size_t lanes_default(long cpus)
{
	return cpus >= 2 ? 1 : 0;
}

void lanes_init(struct lanes *l, const struct job *job, const char *repo,
		size_t background, struct progress *progress)
{
	memset(l, 0, sizeof(*l));
	l->job = job;
	l->repo = repo;
	l->progress = progress;
	l->nr = 1 + background;
	l->lane = xcalloc(l->nr, sizeof(*l->lane));
	for (size_t i = 0; i < l->nr; i++) {
		l->lane[i].slot = (unsigned)i;
		l->lane[i].background = i > 0;
	}
	if (sched_getaffinity(0, sizeof(l->allowed), &l->allowed))
		CPU_ZERO(&l->allowed);
	cpu_plan_make(&l->plan, &job->machine);
	int spare = CPU_COUNT(&l->allowed) -
		    (job->machine.cpus > 0 ? job->machine.cpus : 1);
	l->own_trees = spare >= LANES_OWN_TREE_MIN_CPUS;
}

static struct build_lane *building(struct lanes *l, const char *commit)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->lane[i].pid && !strcmp(l->lane[i].commit, commit))
			return &l->lane[i];
	return NULL;
}

void lanes_priority(pid_t pgid, int beside_boot)
{
	int own = getpriority(PRIO_PROCESS, 0);
	int nice = beside_boot && own < 10 ? 10 : own;

	/* Back up from 10 needs the privilege to; without, it stays. */
	setpriority(PRIO_PGRP, (id_t)pgid, nice);
	syscall(SYS_ioprio_set, IOPRIO_WHO_PGRP, pgid,
		beside_boot ? IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT : 0);
}

/*
 * The child: build `commit` in the lane's slot and exit. A background
 * lane started beside a boot yields the CPU and the disk to everything
 * else (lanes_priority); while a boot runs it keeps off the CPUs the boot
 * measures on (cpus.h; lanes_beside_boot moves it after that). Its make
 * gets a job per CPU, so that between boots, when the run waits for it,
 * it uses them all: a step's rebuild took 16 s at -j2 against 20 s at
 * -j1.
 */
static void __attribute__((noreturn))
lane_child(struct lanes *l, const struct build_lane *lane)
{
	struct build_request req;
	struct build_result res = BUILD_RESULT_INIT;
	struct strbuf quiet = STRBUF_INIT;
	unsigned slot = lane->slot;

	job_build_request(&req, l->job, l->repo, lane->commit);
	if (lane->background) {
		if (l->beside_boot)
			lanes_priority(0, 1);
		req.jobs = CPU_COUNT(&l->allowed);
		if (l->plan.pinned && l->beside_boot)
			sched_setaffinity(0, sizeof(l->plan.build),
					  &l->plan.build);
		/* Slot 0's warm tree, waiting for it if need be. */
		if (!l->own_trees)
			slot = 0;
	}
	req.slot = slot;
	req.flags = BUILD_QUIET;
	/* What went wrong is the harness's to say, when it asks the cache. */
	error_capture(&quiet);
	kbuild_image(&res, &req);
	/* 2: served from the cache (an image, or a failure remembered). */
	_exit(res.cached ? 2 : res.status != BUILD_OK ? 1 : 0);
}

static int lane_start(struct lanes *l, struct build_lane *lane,
		      const char *commit)
{
	pid_t pid;

	snprintf(lane->commit, sizeof(lane->commit), "%s", commit);
	pid = run_fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		lane_child(l, lane);
	lane->pid = pid;
	lane->start_ns = now_ns();
	l->started++;
	l->speculative += lane->background;
	if (l->progress)
		progress_lane(l->progress, lane->slot, commit);
	return 0;
}

/* What every end of a lane's build counts, reaped or stopped. */
static void lane_ended(struct lanes *l, struct build_lane *lane)
{
	lane->pid = 0;
	l->build_seconds += (now_ns() - lane->start_ns) / 1e9;
}

/* Reap `lane` if it ended: 1 when it did. */
static int lane_reap(struct lanes *l, struct build_lane *lane)
{
	int code;

	if (!lane->pid || !run_poll(lane->pid, &code))
		return 0;
	lane_ended(l, lane);
	strvec_push(&l->done, lane->commit);
	if (code != 2)
		strvec_push(&l->made, lane->commit);
	if (l->progress)
		progress_lane(l->progress, lane->slot, NULL);
	return 1;
}

/*
 * Stop the background builds of commits not in `keep`: guesses the run no
 * longer needs. They may hold slot 0's tree, which the next build wants;
 * make deletes what it was writing when it gets SIGTERM, and the next
 * checkout rewrites what differs from the index, so the tree stays whole.
 */
static void stop_guesses(struct lanes *l, const char *const *keep, size_t n)
{
	for (size_t i = 1; i < l->nr; i++) {
		struct build_lane *lane = &l->lane[i];
		int wanted = 0;

		if (!lane->pid || lane_reap(l, lane))
			continue;
		for (size_t k = 0; k < n && !wanted; k++)
			wanted = keep[k] && !strcmp(keep[k], lane->commit);
		if (wanted)
			continue;
		run_kill(lane->pid);
		lane_ended(l, lane);
		l->stopped++;
		if (l->progress)
			progress_lane_stopped(l->progress, lane->slot);
	}
}

void lanes_beside_boot(struct lanes *l, int booting)
{
	l->beside_boot = booting;
	for (size_t i = 1; i < l->nr; i++)
		if (l->lane[i].pid)
			lanes_priority(l->lane[i].pid, booting);
	if (!l->plan.pinned)
		return;
	for (size_t i = 1; i < l->nr; i++)
		if (l->lane[i].pid)
			cpus_move_group(l->lane[i].pid,
					booting ? &l->plan.build : &l->allowed);
}

void lanes_poll(struct lanes *l)
{
	for (size_t i = 0; i < l->nr; i++)
		lane_reap(l, &l->lane[i]);
	/*
	 * Sharing slot 0, a guess would only queue behind the foreground's
	 * build (and then hold up the one after it).
	 */
	if (!l->own_trees && l->lane[0].pid)
		return;
	for (size_t i = 1; i < l->nr; i++) {
		struct build_lane *lane = &l->lane[i];
		while (!lane->pid && l->queue.nr) {
			char *c = xstrdup(l->queue.v[0]);
			struct strvec rest = STRVEC_INIT;
			for (size_t k = 1; k < l->queue.nr; k++)
				strvec_push(&rest, l->queue.v[k]);
			strvec_clear(&l->queue);
			l->queue = rest;
			if (strvec_index(&l->done, c) < 0 && !building(l, c) &&
			    lane_start(l, lane, c))
				warning("a background build of %.12s could not "
					"start",
					c);
			free(c);
		}
	}
}

void lanes_prefetch(struct lanes *l, const char *const *commits, size_t n)
{
	stop_guesses(l, commits, n);
	strvec_clear(&l->queue);
	for (size_t i = 0; i < n; i++)
		if (commits[i] && strvec_index(&l->done, commits[i]) < 0 &&
		    !building(l, commits[i]) &&
		    strvec_index(&l->queue, commits[i]) < 0)
			strvec_push(&l->queue, commits[i]);
	lanes_poll(l);
}

int lanes_build(struct lanes *l, const char *commit)
{
	struct build_lane *lane;
	uint64_t t0 = now_ns(), said = t0;

	lanes_poll(l);
	if (strvec_index(&l->done, commit) >= 0)
		return 0;
	lane = building(l, commit);
	if (!lane) {
		/* The foreground lane only ever runs what the run waits for. */
		lane = &l->lane[0];
		if (lane->pid)
			return error("the foreground build lane is busy");
		/* Every guess was wrong: none may hold the tree it needs. */
		stop_guesses(l, NULL, 0);
		strvec_clear(&l->queue);
		if (lane_start(l, lane, commit))
			return -1;
	}
	/* lanes_poll may reap it too: the list of done builds says. */
	while (!lane_reap(l, lane) && strvec_index(&l->done, commit) < 0) {
		struct timespec ts = {0, 200 * 1000000};
		uint64_t now;

		if (run_interrupted())
			return error("interrupted");
		nanosleep(&ts, NULL);
		now = now_ns();
		if (l->progress) {
			progress_phase(l->progress, "building (%.0fs)",
				       (now - t0) / 1e9);
			if ((now - said) / 1e9 >= LANES_SIGN_OF_LIFE_S) {
				progress_note(l->progress,
					      "[build] %.12s still building "
					      "(%.0f s)",
					      commit, (now - t0) / 1e9);
				said = now;
			}
		}
		lanes_poll(l);
	}
	l->waited_seconds += (now_ns() - t0) / 1e9;
	lanes_poll(l);
	return 0;
}

int lanes_made(const struct lanes *l, const char *commit)
{
	return strvec_index(&l->made, commit) >= 0;
}

void lanes_release(struct lanes *l)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->lane[i].pid) {
			run_kill(l->lane[i].pid);
			l->lane[i].pid = 0;
		}
	free(l->lane);
	strvec_clear(&l->queue);
	strvec_clear(&l->done);
	strvec_clear(&l->made);
	memset(l, 0, sizeof(*l));
}
