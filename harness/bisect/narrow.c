/* narrow.c: the commits that can change the kernel (see narrow.h). */
#include "narrow.h"
#include "kbuild.h"

#include <stdlib.h>
#include <string.h>

static int can_change(const char *path, void *arg)
{
	return inputs_can_change(arg, path);
}

/* 1 when `commit` builds another kernel than `parent`, 0, -1 on error. */
static int differs(struct repo *r, const struct kernel_inputs *in,
		   const char *parent, const char *commit)
{
	return repo_diff_paths(r, parent, commit, can_change, (void *)in);
}

int narrow_same(struct repo *r, const struct kernel_inputs *in,
		const struct commit_graph *range, const char *good,
		long *same)
{
	for (size_t i = 0; i < range->nr; i++) {
		const struct commit_node *c = &range->nodes[i];
		size_t np = c->nr_parents;
		int d = 1;

		same[i] = -1;
		for (size_t k = 0; k < np + (size_t)c->outside_parents && d;
		     k++) {
			const char *p = k < np ? range->nodes[c->parents[k]].id
				      : c->outside ? c->outside[k - np]
						   : good;
			if ((d = differs(r, in, p, c->id)) < 0)
				return -1;
			if (!d)
				same[i] = (long)k;
		}
	}
	return 0;
}

/* The inputs of `commit`'s image, added to *in: 0, 1 (why), -1. */
static int image_inputs(const struct narrow_repo *n, const char *commit,
			struct kernel_inputs *in, struct strbuf *why)
{
	struct build_request req;
	struct build_result res = BUILD_RESULT_INIT;
	char *dir;
	int rc;

	job_build_request(&req, n->job, n->job->repo, commit);
	req.flags |= BUILD_WANT_INPUTS | BUILD_QUIET;
	if (kbuild_image(&res, &req)) {
		/* A build bisection's bad end does not build: no list. */
		if (res.status == BUILD_SETUP_ERROR) {
			rc = error("%s", res.message ? res.message
						     : "build set-up failed");
		} else {
			strbuf_addf(why, "%.12s does not build", commit);
			rc = 1;
		}
		build_result_release(&res);
		return rc;
	}
	dir = xstrndup(res.image, strrchr(res.image, '/') - res.image);
	rc = inputs_load(in, dir);
	if (rc > 0)
		strbuf_addf(why, "the image of %.12s has no list of the files "
				 "it was made from",
			    commit);
	free(dir);
	build_result_release(&res);
	return rc;
}

int narrow_by_inputs(void *arg, const char *const *commits, size_t nr,
		     const struct commit_graph *range,
		     struct commit_graph *out, struct strbuf *why)
{
	const struct narrow_repo *n = arg;
	struct kernel_inputs in = KERNEL_INPUTS_INIT;
	long *same = NULL;
	int rc = 1;

	if (n->job->prebuilt) {
		strbuf_addstr(why, "the images are made elsewhere (prebuilt), "
				   "with no list of the files they were made "
				   "from");
		goto out;
	}
	for (size_t i = 0; i < nr; i++)
		if ((rc = image_inputs(n, commits[i], &in, why)))
			goto out;
	same = xcalloc(range->nr ? range->nr : 1, sizeof(*same));
	if (narrow_same(n->repo, &in, range, commits[0], same)) {
		rc = -1;
		goto out;
	}
	graph_narrow(range, same, out);
	rc = 0;
out:
	free(same);
	inputs_release(&in);
	return rc;
}
