/*
 * build_cost.c: a commit's build from the folders at hand, in objects
 * (build_cost.h).
 */
#include "build_cost.h"
#include "build_log.h"
#include "kbuild.h"
#include "objdir_last.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int build_cost_init(struct build_cost *bc, struct repo *r, const char *imgdir)
{
	struct image_key k;
	int rc = 0;

	*bc = (struct build_cost)BUILD_COST_INIT;
	bc->repo = r;
	if (image_key_read(imgdir, &k) || !k.config_hash[0] || !k.toolchain)
		rc = error("'%s/key.json' names no configuration and toolchain",
			   imgdir);
	else if (!(bc->objdir = build_log_value(imgdir, "objdir")))
		rc = error("the build log of '%s' names no build folder",
			   imgdir);
	if (!rc) {
		memcpy(bc->config_hash, k.config_hash, 41);
		bc->toolchain = xstrdup(k.toolchain);
		bc->imgdir = xstrdup(imgdir);
		/* An image kept before key.json named it: no warm costs. */
		memcpy(bc->ref, k.commit, 41);
	}
	image_key_release(&k);
	return rc;
}

void build_cost_release(struct build_cost *bc)
{
	for (size_t i = 0; i < bc->imgdirs.nr; i++)
		inputs_release(&bc->inputs[i]);
	free(bc->inputs);
	strvec_clear(&bc->imgdirs);
	strbuf_release(&bc->marks);
	strvec_clear(&bc->said);
	free(bc->costs);
	for (size_t i = 0; i < bc->delta_commits.nr; i++) {
		if (bc->deltas[i])
			warm_delta_release(bc->deltas[i]);
		free(bc->deltas[i]);
	}
	free(bc->deltas);
	strvec_clear(&bc->delta_commits);
	warm_images_release(&bc->images);
	free(bc->objdir);
	free(bc->toolchain);
	free(bc->imgdir);
	*bc = (struct build_cost)BUILD_COST_INIT;
}

struct tally {
	const struct kernel_inputs *in;
	uint64_t *which; /* the objects so far, when the image says which */
	long sum;	 /* else the sum of the paths' objects, at most */
	int all;	 /* every object */
};

/* 1 stops the walk: at every object, no path can add more. */
static int add_path(const char *path, void *arg)
{
	struct tally *t = arg;
	long n;

	if (t->which) {
		t->all = inputs_objects_join(t->in, path, t->which);
		return t->all;
	}
	n = inputs_objects(t->in, path);
	if (n >= t->in->nr_objects)
		t->all = 1;
	else if (n > 0)
		t->sum += n;
	return t->all;
}

long build_cost_diff(struct repo *r, const struct kernel_inputs *in,
		     const char *from, const char *to)
{
	struct tally t = {in, NULL, 0, 0};
	long n;

	if (in->nr_objects <= 0)
		return -1;
	if (in->bits)
		t.which = xcalloc(in->words, sizeof(*t.which));
	if (repo_diff_paths(r, from, to, add_path, &t) < 0) {
		free(t.which);
		return -1;
	}
	n = t.sum;
	for (size_t i = 0; t.which && i < in->words; i++)
		n += __builtin_popcountll(t.which[i]);
	free(t.which);
	return t.all || n > in->nr_objects ? in->nr_objects : n;
}

/* The inputs of the image in `imgdir`, loaded once; NULL without counts. */
static const struct kernel_inputs *image_inputs(struct build_cost *bc,
						const char *imgdir)
{
	int at = strvec_index(&bc->imgdirs, imgdir);

	if (at < 0) {
		bc->inputs = xrealloc(bc->inputs, (bc->imgdirs.nr + 1) *
							  sizeof(*bc->inputs));
		bc->inputs[bc->imgdirs.nr] =
			(struct kernel_inputs)KERNEL_INPUTS_INIT;
		/* Not there, or not read: the folder is not counted. */
		if (inputs_load(&bc->inputs[bc->imgdirs.nr], imgdir))
			inputs_release(&bc->inputs[bc->imgdirs.nr]);
		strvec_push(&bc->imgdirs, imgdir);
		at = (int)bc->imgdirs.nr - 1;
	}
	return bc->inputs[at].nr_objects > 0 ? &bc->inputs[at] : NULL;
}

/* Whether the cache holds `commit`'s image, or its failure, already. */
static int cached(struct build_cost *bc, const char *commit)
{
	char tree[41], key[41];

	if (repo_tree_id(bc->repo, commit, tree))
		return 0;
	kbuild_key(tree, bc->config_hash, bc->toolchain, key);
	return kbuild_cached(key);
}

/*
 * Where `commit`'s cost is among those said while the folders read as
 * they do now and the cache held the same images, or -1; what was said
 * before either moved is forgotten.
 */
static int said_before(struct build_cost *bc, const struct objdir_last *last,
		       size_t nr, const struct strvec *warm, const char *commit)
{
	struct strbuf now = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++)
		strbuf_addf(&now, "%s %s %s %s\n", last[i].objdir,
			    last[i].commit, last[i].from, last[i].imgdir);
	for (size_t i = 0; i < warm->nr; i++)
		strbuf_addf(&now, "built %s\n", warm->v[i]);
	if (strcmp(now.buf, bc->marks.buf)) {
		strbuf_reset(&bc->marks);
		strbuf_addstr(&bc->marks, now.buf);
		strvec_clear(&bc->said);
	}
	strbuf_release(&now);
	return strvec_index(&bc->said, commit);
}

/* The folders' cost: the cheapest folder's, its name in *objdir. */
static long from_folders(struct build_cost *bc, const struct objdir_last *last,
			 size_t nr, const char *commit, char **objdir)
{
	long best = -1;

	for (size_t i = 0; i < nr; i++) {
		const struct kernel_inputs *in =
			image_inputs(bc, last[i].imgdir);
		long n = in ? build_cost_diff(bc->repo, in, last[i].commit,
					      commit)
			    : -1;
		/*
		 * A mix of two commits: an object is at one or the other,
		 * so what either differs in may be compiled again.
		 */
		if (n >= 0 && last[i].from[0]) {
			long m = build_cost_diff(bc->repo, in, last[i].from,
						 commit);
			n = m < 0		     ? -1
			    : n + m < in->nr_objects ? n + m
						     : in->nr_objects;
		}
		if (n >= 0 && (best < 0 || n < best)) {
			best = n;
			if (objdir) {
				free(*objdir);
				*objdir = xstrdup(last[i].objdir);
			}
		}
	}
	return best;
}

/*
 * `commit`'s diff from the image's commit, loaded once; NULL for a
 * commit this repository does not hold (an image of another repository
 * with the same configuration), quietly.
 */
static const struct warm_delta *delta_of(struct build_cost *bc,
					 const char *commit)
{
	int at = strvec_index(&bc->delta_commits, commit);

	if (at < 0) {
		struct strbuf quiet = STRBUF_INIT;
		struct strbuf *was = error_capture(&quiet);
		struct warm_delta *d = xmalloc(sizeof(*d));

		if (warm_delta_load(d, bc->repo, bc->ref, commit)) {
			free(d);
			d = NULL;
		}
		error_capture(was);
		strbuf_release(&quiet);
		ALLOC_GROW(bc->deltas, bc->delta_commits.nr + 1,
			   bc->alloc_deltas);
		bc->deltas[bc->delta_commits.nr] = d;
		strvec_push(&bc->delta_commits, commit);
		at = (int)bc->delta_commits.nr - 1;
	}
	return bc->deltas[at];
}

/*
 * Whether what ccache holds can be counted: the build goes through it,
 * and the image's objects say which object reads each input.
 */
static int warm_known(struct build_cost *bc)
{
	const struct kernel_inputs *in;

	return bc->ccache && bc->ref[0] &&
	       (in = image_inputs(bc, bc->imgdir)) && in->bits;
}

/*
 * What ccache does not hold of `commit`: the objects every built commit
 * (the folders' marks, the images in `warm`) differs from it in. -1
 * when not known (the image's objects do not say which).
 */
static long from_ccache(struct build_cost *bc, const struct objdir_last *last,
			size_t nr, const struct strvec *warm,
			const char *commit)
{
	const struct kernel_inputs *in = image_inputs(bc, bc->imgdir);
	const struct warm_delta *c = delta_of(bc, commit);
	struct warm_built *built;
	size_t n = 0;
	long cost;

	if (!c)
		return -1;
	built = xcalloc(nr + warm->nr, sizeof(*built));
	for (size_t i = 0; i < nr; i++) {
		built[n].d[0] = delta_of(bc, last[i].commit);
		built[n].d[1] = last[i].from[0] ? delta_of(bc, last[i].from)
						: NULL;
		/* A mix whose either commit is not here is not counted. */
		if (built[n].d[0] && (!last[i].from[0] || built[n].d[1]))
			n++;
	}
	for (size_t i = 0; i < warm->nr; i++) {
		built[n].d[0] = delta_of(bc, warm->v[i]);
		built[n].d[1] = NULL;
		if (built[n].d[0])
			n++;
	}
	cost = build_warm_cost(in, c, built, n);
	free(built);
	return cost;
}

long build_cost_of(struct build_cost *bc, const char *commit, char **objdir)
{
	struct objdir_last *last = NULL;
	struct strvec warm = STRVEC_INIT;
	size_t nr;
	long best = -1, held = -1;
	int at, ccache;

	if (objdir)
		*objdir = NULL;
	if (cached(bc, commit))
		return 0;
	ccache = warm_known(bc);
	nr = objdir_last_siblings(bc->objdir, &last);
	if (ccache)
		build_warm_images(&bc->images, bc->config_hash,
				  bc->toolchain, &warm);
	/* Said already (a guess's question), unless the folder is asked. */
	at = said_before(bc, last, nr, &warm, commit);
	if (at >= 0 && !objdir) {
		best = bc->costs[at];
		goto out;
	}
	if (ccache)
		held = from_ccache(bc, last, nr, &warm, commit);
	if (held < 0 || objdir)
		best = from_folders(bc, last, nr, commit, objdir);
	if (held >= 0)
		best = held;
	ALLOC_GROW(bc->costs, bc->said.nr + 1, bc->alloc_costs);
	bc->costs[bc->said.nr] = best;
	strvec_push(&bc->said, commit);
out:
	objdir_last_release(last, nr);
	strvec_clear(&warm);
	return best;
}
