/*
 * lanes.h: kernel builds beside boots. Every build of a run happens in a
 * child process (run_fork) in a lane of its own, each lane with its own
 * build slot (source tree and build folder: two builds never share one;
 * a background lane takes slot 0's warm tree when no build holds it, see
 * kbuild.c, and on a small host waits for it), so the harness goes on
 * while a lane builds: it boots the commit under test while background
 * lanes build the commits the bisection may need next, and it shows how
 * a long build is going. A lane's result reaches
 * the harness through the build cache: when the lane is done, kbuild_image
 * in the harness is a cache hit (or the failure kbuild remembers).
 *
 * Lane 0 is the foreground: the build the run waits for. Lanes 1.. are
 * background ones, at low priority, for speculation. During a boot they
 * keep to the CPUs the boot does not measure on; between boots (when the
 * run is most likely waiting for them) they get every CPU. A speculative
 * build that turns out not to be wanted (the run asks the foreground for
 * another commit, or the next guesses leave it out) is stopped, so it
 * never holds the warm tree the next build needs; one still wanted when
 * the run ends is killed then.
 *
 * On a host with few CPUs a background build waits for slot 0's warm
 * tree rather than start a tree of its own: a new tree is a whole build
 * (minutes from ccache hits), where the warm one rebuilds a step's change
 * in seconds.
 */
#ifndef IOBISECT_LANES_H
#define IOBISECT_LANES_H

#include "cpus.h"
#include "job.h"
#include "util.h"

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

struct progress;

struct build_lane {
	pid_t pid; /* 0: idle */
	unsigned slot;
	int background;
	char commit[41];
	uint64_t start_ns;
};

struct lanes {
	struct build_lane *lane; /* [0] foreground, then background ones */
	size_t nr;
	const struct job *job;
	const char *repo;
	struct progress *progress; /* may be NULL */
	struct strvec queue;       /* wanted next, not started, best first */
	struct strvec done;        /* built (or failed) in a lane this run */
	struct strvec made;        /* make ran (not served from the cache) */
	/* What the lanes cost (the bench's critical path). */
	double build_seconds;  /* lane time, all lanes */
	double waited_seconds; /* the run waiting for a build */
	unsigned started, speculative, stopped;
	int beside_boot;   /* a boot runs now: keep off its CPUs */
	int own_trees;     /* background builds may open trees of their own */
	cpu_set_t allowed; /* the harness's CPUs: a build's between boots */
	struct cpu_plan plan; /* the job's: a build's CPUs during a boot */
};

/*
 * Set up `background` background lanes (0: builds only when asked). A
 * host with 2 CPUs or more gets one by default (lanes_default).
 */
void lanes_init(struct lanes *l, const struct job *job, const char *repo,
		size_t background, struct progress *progress);
/* Kill what still builds, and reap it. */
void lanes_release(struct lanes *l);

/* Background lanes for a host of `cpus` CPUs: one beside QEMU's. */
size_t lanes_default(long cpus);

/*
 * The commits the run may need next, best first: they replace the queue,
 * and idle background lanes start on them (commits built or building are
 * skipped).
 */
void lanes_prefetch(struct lanes *l, const char *const *commits, size_t n);

/* Reap lanes that ended and start queued builds; never blocks. */
void lanes_poll(struct lanes *l);

/*
 * A boot starts (1) or ended (0): background builds move off the
 * measuring CPUs for it, and back onto every CPU after it; and they
 * yield to everything else while it runs (lanes_priority).
 */
void lanes_beside_boot(struct lanes *l, int booting);

/*
 * The priority of the build in process group `pgid` (0: the caller's):
 * beside a boot, nice 10 (or the run's, if lower) and the idle I/O class,
 * so the boot's figures and the host's other work come first; between
 * boots, when the run waits for it, the run's own, as a foreground build
 * has: left at nice 10, a guess the run waited for got a fraction of the
 * CPUs beside another user's builds at nice 0.
 */
void lanes_priority(pid_t pgid, int beside_boot);

/*
 * Make sure a lane has built `commit`: return at once when one did this
 * run, wait for the lane building it, or build it in the foreground lane
 * and wait. Returns 0 (the caller then asks kbuild_image, which finds the
 * image or the failure), or -1 after error() (interrupted, fork failed).
 */
int lanes_build(struct lanes *l, const char *commit);

/* Did a lane run make for `commit` (not a cache hit)? */
int lanes_made(const struct lanes *l, const char *commit);

#endif
