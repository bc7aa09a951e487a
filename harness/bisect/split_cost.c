/* split_cost.c: a job's steps by what they cost to build (split_cost.h). */
#include "split_cost.h"
#include "kbuild.h"

#include <stdlib.h>
#include <string.h>

/* The bad endpoint's image, from the cache only: its folders and keys. */
static int set_up(struct split_cost *s)
{
	struct build_request req;
	struct build_result res = BUILD_RESULT_INIT;
	struct strbuf quiet = STRBUF_INIT;
	int rc = -1;

	if (s->job->prebuilt || !s->bad || !*s->bad)
		return -1;
	job_build_request(&req, s->job, s->job->repo, s->bad);
	req.flags |= BUILD_CACHE_ONLY | BUILD_QUIET;
	error_capture(&quiet);
	if (!kbuild_image(&res, &req)) {
		char *dir =
			xstrndup(res.image,
				 (size_t)(strrchr(res.image, '/') - res.image));
		rc = build_cost_init(&s->bc, s->repo, dir) ? -1 : 1;
		/* What ccache holds is warm too, when make goes through it. */
		s->bc.ccache = res.ccache;
		free(dir);
	}
	error_capture(NULL);
	strbuf_release(&quiet);
	build_result_release(&res);
	return rc;
}

long split_cost_of(void *arg, const char *commit)
{
	struct split_cost *s = arg;

	if (!s->ready)
		s->ready = set_up(s);
	return s->ready > 0 ? build_cost_of(&s->bc, commit, NULL) : -1;
}

void split_cost_release(struct split_cost *s)
{
	if (s->ready > 0)
		build_cost_release(&s->bc);
	s->ready = 0;
}
