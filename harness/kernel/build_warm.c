/*
 * build_warm.c: what ccache holds, in commits, and what a commit costs
 * beside them (build_warm.h).
 */
#include "build_warm.h"
#include "util.h"

#include <dirent.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct pair {
	char *path, *blob;
};

static int pair_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pair *)a)->path,
		      ((const struct pair *)b)->path);
}

struct gather {
	struct pair *v;
	size_t nr, alloc;
};

static int add_blob(const char *path, const char *blob, void *arg)
{
	struct gather *g = arg;

	ALLOC_GROW(g->v, g->nr + 1, g->alloc);
	g->v[g->nr++] = (struct pair){xstrdup(path), xstrdup(blob)};
	return 0;
}

int warm_delta_load(struct warm_delta *d, struct repo *r, const char *ref,
		    const char *commit)
{
	struct gather g = {NULL, 0, 0};
	int rc = repo_diff_blobs(r, ref, commit, add_blob, &g);

	*d = (struct warm_delta)WARM_DELTA_INIT;
	snprintf(d->commit, sizeof(d->commit), "%s", commit);
	/* git's order is byte order already; sorted here to be sure. */
	if (g.nr)
		qsort(g.v, g.nr, sizeof(*g.v), pair_cmp);
	for (size_t i = 0; i < g.nr; i++) {
		if (!rc) {
			strvec_push(&d->paths, g.v[i].path);
			strvec_push(&d->blobs, g.v[i].blob);
		}
		free(g.v[i].path);
		free(g.v[i].blob);
	}
	free(g.v);
	if (rc)
		warm_delta_release(d);
	return rc ? -1 : 0;
}

void warm_delta_release(struct warm_delta *d)
{
	strvec_clear(&d->paths);
	strvec_clear(&d->blobs);
	*d = (struct warm_delta)WARM_DELTA_INIT;
}

void build_warm_differ(const struct warm_delta *a, const struct warm_delta *b,
		       void (*fn)(const char *path, void *arg), void *arg)
{
	size_t i = 0, j = 0;

	while (i < a->paths.nr || j < b->paths.nr) {
		int c = i == a->paths.nr   ? 1
			: j == b->paths.nr ? -1
					   : strcmp(a->paths.v[i], b->paths.v[j]);
		/* A path in one diff only: that one holds it apart. */
		if (c < 0) {
			fn(a->paths.v[i++], arg);
		} else if (c > 0) {
			fn(b->paths.v[j++], arg);
		} else {
			if (strcmp(a->blobs.v[i], b->blobs.v[j]))
				fn(a->paths.v[i], arg);
			i++;
			j++;
		}
	}
}

struct objects_of {
	const struct kernel_inputs *in;
	uint64_t *which;
	int all;
};

/* The objects that read `path` join which. */
static void add_objects(const char *path, void *arg)
{
	struct objects_of *o = arg;

	if (!o->all)
		o->all = inputs_objects_join(o->in, path, o->which);
}

long build_warm_cost(const struct kernel_inputs *in, const struct warm_delta *c,
		     const struct warm_built *built, size_t nr)
{
	size_t words = in->words;
	uint64_t *left, *cur;
	long n = 0;

	if (!in->bits || in->nr_objects <= 0 || !nr)
		return -1;
	/* Every object of the image until some built state holds it. */
	left = xcalloc(words, sizeof(*left));
	cur = xcalloc(words, sizeof(*cur));
	for (long k = 0; k < in->nr_objects && (size_t)(k / 64) < words; k++)
		left[k / 64] |= UINT64_C(1) << (k % 64);
	for (size_t b = 0; b < nr; b++) {
		struct objects_of o = {in, cur, 0};

		memset(cur, 0, words * sizeof(*cur));
		for (size_t k = 0; k < 2 && built[b].d[k]; k++)
			build_warm_differ(built[b].d[k], c, add_objects, &o);
		if (o.all)
			continue;
		for (size_t w = 0; w < words; w++)
			left[w] &= cur[w];
	}
	for (size_t w = 0; w < words; w++)
		n += __builtin_popcountll(left[w]);
	free(left);
	free(cur);
	return n;
}

void warm_images_release(struct warm_images *w)
{
	strvec_clear(&w->dirs);
	free(w->v);
	*w = (struct warm_images)WARM_IMAGES_INIT;
}

/* Newest first, then by commit. */
static int image_cmp(const void *a, const void *b)
{
	const struct warm_image *x = a, *y = b;

	if (x->when != y->when)
		return x->when > y->when ? -1 : 1;
	return strcmp(x->commit, y->commit);
}

int image_key_read(const char *dir, struct image_key *k)
{
	char *key = xstrfmt("%s/key.json", dir);
	json_t *j = json_load_file(key, 0, NULL);
	const char *cfg = json_string_value(json_object_get(j, "config_hash"));
	const char *tc = json_string_value(json_object_get(j, "toolchain"));
	const char *commit = json_string_value(json_object_get(j, "commit"));
	struct stat st;
	int rc = j && !stat(key, &st) ? 0 : -1;

	*k = (struct image_key)IMAGE_KEY_INIT;
	if (!rc) {
		k->when = st.st_mtime;
		if (cfg && strlen(cfg) == 40)
			memcpy(k->config_hash, cfg, 41);
		if (tc)
			k->toolchain = xstrdup(tc);
		if (commit && strlen(commit) == 40)
			memcpy(k->commit, commit, 41);
	}
	json_decref(j);
	free(key);
	return rc;
}

void image_key_release(struct image_key *k)
{
	free(k->toolchain);
	*k = (struct image_key)IMAGE_KEY_INIT;
}

/*
 * The image in `dir` into *out (commit "" when it is of another
 * configuration or toolchain, or a failure): 1, or 0 while it has no
 * key.json yet (a build on its way: asked again).
 */
static int image_of(const char *dir, const char *config_hash,
		    const char *toolchain, struct warm_image *out)
{
	struct image_key k;
	char *image = xstrfmt("%s/bzImage", dir);
	int read = !image_key_read(dir, &k);

	*out = (struct warm_image){"", k.when};
	if (read && k.commit[0] && k.toolchain &&
	    !strcmp(k.config_hash, config_hash) &&
	    !strcmp(k.toolchain, toolchain) && file_exists(image))
		memcpy(out->commit, k.commit, 41);
	image_key_release(&k);
	free(image);
	return read;
}

size_t build_warm_images(struct warm_images *seen, const char *config_hash,
			 const char *toolchain, struct strvec *out)
{
	char *top = xstrfmt("%s/images", cache_dir());
	DIR *dir = opendir(top);
	struct warm_image *v = NULL;
	size_t nr = 0, alloc = 0, n;
	struct dirent *e;

	while (dir && (e = readdir(dir))) {
		int at = strvec_index(&seen->dirs, e->d_name);
		struct warm_image one;
		char *path;

		if (e->d_name[0] == '.')
			continue;
		if (at < 0) {
			path = xstrfmt("%s/%s", top, e->d_name);
			if (!image_of(path, config_hash, toolchain, &one)) {
				free(path);
				continue;
			}
			free(path);
			ALLOC_GROW(seen->v, seen->dirs.nr + 1, seen->alloc);
			seen->v[seen->dirs.nr] = one;
			strvec_push(&seen->dirs, e->d_name);
			at = (int)seen->dirs.nr - 1;
		}
		if (!seen->v[at].commit[0])
			continue;
		ALLOC_GROW(v, nr + 1, alloc);
		v[nr++] = seen->v[at];
	}
	if (dir)
		closedir(dir);
	if (nr)
		qsort(v, nr, sizeof(*v), image_cmp);
	n = nr < BUILD_WARM_MAX_IMAGES ? nr : BUILD_WARM_MAX_IMAGES;
	for (size_t i = 0; i < n; i++)
		strvec_push(out, v[i].commit);
	free(v);
	free(top);
	return n;
}
