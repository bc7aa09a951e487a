/*
 * narrow.h: the commits of a range that can change the kernel a job
 * builds. The endpoints' builds name the files their images were made
 * from (inputs.h); a commit whose tree differs from a parent's in none of
 * them builds the same kernel as that parent, so it is never built,
 * booted or named, and the range is bisected as a path limit leaves it
 * (graph_narrow). The first bad commit is always among those kept: a
 * commit that builds its parent's kernel is as fast as that parent.
 */
#ifndef IOBISECT_NARROW_H
#define IOBISECT_NARROW_H

#include "graph.h"
#include "inputs.h"
#include "job.h"
#include "repo.h"
#include "util.h"

/*
 * Which parent each commit of `range` builds the same kernel as, for
 * graph_narrow's same[] (good: the id of an outside parent a graph built
 * by hand leaves out). 0, or -1 after error().
 */
int narrow_same(struct repo *r, const struct kernel_inputs *in,
		const struct commit_graph *range, const char *good,
		long *same);

/*
 * driver.h's narrow operation for a job's repository (arg): the union of
 * the endpoints' inputs decides, each image asked of the build cache
 * with its inputs (BUILD_WANT_INPUTS: one cached before they were kept
 * is built again); commits[0] is the good endpoint. 1 with *why for
 * images not built here (prebuilt).
 */
struct narrow_repo {
	const struct job *job;
	struct repo *repo;
};
int narrow_by_inputs(void *arg, const char *const *commits, size_t nr,
		     const struct commit_graph *range,
		     struct commit_graph *out, struct strbuf *why);

#endif
