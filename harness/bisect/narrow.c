/* narrow.c: the commits that can change the kernel (see narrow.h). */
#include "narrow.h"

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

int narrow_by_inputs(void *arg, const char *const *keys, size_t nr_keys,
		     const struct commit_graph *range,
		     struct commit_graph *out, struct strbuf *why)
{
	const struct narrow_repo *n = arg;
	struct kernel_inputs in = KERNEL_INPUTS_INIT;
	long *same = NULL;
	int rc = 1;

	for (size_t i = 0; i < nr_keys; i++) {
		char *dir;
		int r;

		if (!keys[i] || !*keys[i]) {
			strbuf_addstr(why, "an endpoint's image was not built "
					   "here");
			goto out;
		}
		dir = xstrfmt("%s/images/%s", cache_dir(), keys[i]);
		r = inputs_load(&in, dir);
		free(dir);
		if (r < 0) {
			rc = -1;
			goto out;
		}
		if (r) {
			strbuf_addf(why,
				    "the image %.12s has no list of the files "
				    "it was made from (built before they were "
				    "kept)",
				    keys[i]);
			goto out;
		}
	}
	same = xcalloc(range->nr ? range->nr : 1, sizeof(*same));
	if (narrow_same(n->repo, &in, range, n->good, same)) {
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
