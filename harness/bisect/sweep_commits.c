/*
 * sweep_commits.c: the repository's side of a sweep (see sweep.h), through
 * libgit2: the first-parent history of a range, every commit of a range,
 * and the repository's tags. repo.h answers single-commit questions; a
 * sweep needs lists, so this file walks the history itself. Nothing here
 * writes to the repository.
 */
#include "sweep.h"

#include "repo.h"

#include <git2.h>
#include <string.h>

static int open_repo(git_repository **out, const char *path)
{
	if (git_repository_open_ext(out, path, 0, NULL) < 0) {
		struct strbuf what = STRBUF_INIT;
		int ret;
		strbuf_addf(&what, "cannot open repository '%s'", path);
		ret = repo_git_error(what.buf);
		strbuf_release(&what);
		return ret;
	}
	return 0;
}

static int parse_id(git_oid *oid, const char *id)
{
	if (git_oid_fromstr(oid, id) < 0)
		return error("'%s' is not a full commit id", id);
	return 0;
}

/* Reverse `sv` in place (walks go newest first, sweeps oldest first). */
static void reverse(struct strvec *sv)
{
	for (size_t i = 0; i < sv->nr / 2; i++) {
		char *t = sv->v[i];
		sv->v[i] = sv->v[sv->nr - 1 - i];
		sv->v[sv->nr - 1 - i] = t;
	}
}

int sweep_first_parents(struct strvec *out, const char *repo_path,
			const char *a, const char *b)
{
	git_repository *repo = NULL;
	git_commit *c = NULL;
	git_oid oa, ob, cur;
	struct strvec back = STRVEC_INIT;
	char hex[41];
	int ret = -1;

	if (parse_id(&oa, a) || parse_id(&ob, b) || open_repo(&repo, repo_path))
		goto out;
	if (!git_oid_equal(&oa, &ob) &&
	    git_graph_descendant_of(repo, &ob, &oa) != 1) {
		error("'%.12s' is not an ancestor of '%.12s'", a, b);
		goto out;
	}
	cur = ob;
	for (;;) {
		/* A reached, or a commit A descends from: A's side ends. */
		if (git_oid_equal(&cur, &oa) ||
		    git_graph_descendant_of(repo, &oa, &cur) == 1)
			break;
		git_oid_tostr(hex, sizeof(hex), &cur);
		strvec_push(&back, hex);
		if (git_commit_lookup(&c, repo, &cur) < 0) {
			repo_git_error("cannot read a commit of the range");
			goto out;
		}
		if (!git_commit_parentcount(c)) {
			/* Unreachable when A is an ancestor; be safe. */
			git_commit_free(c);
			break;
		}
		cur = *git_commit_parent_id(c, 0);
		git_commit_free(c);
		c = NULL;
	}
	strvec_push(out, a);
	reverse(&back);
	for (size_t i = 0; i < back.nr; i++)
		strvec_push(out, back.v[i]);
	ret = 0;
out:
	strvec_clear(&back);
	git_repository_free(repo);
	return ret;
}

int sweep_range_commits(struct strvec *out, const char *repo_path,
			const char *a, const char *b)
{
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_oid oa, ob, oid;
	char hex[41];
	int ret = -1;

	if (parse_id(&oa, a) || parse_id(&ob, b) || open_repo(&repo, repo_path))
		goto out;
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) <
		    0 ||
	    git_revwalk_push(walk, &ob) < 0 ||
	    git_revwalk_hide(walk, &oa) < 0) {
		repo_git_error("cannot walk the range");
		goto out;
	}
	strvec_push(out, a);
	while (!git_revwalk_next(&oid, walk)) {
		git_oid_tostr(hex, sizeof(hex), &oid);
		strvec_push(out, hex);
	}
	ret = 0;
out:
	git_revwalk_free(walk);
	git_repository_free(repo);
	return ret;
}

struct tag_walk {
	git_repository *repo;
	struct sweep_tags *out;
};

static int tag_cb(const char *name, git_oid *oid, void *payload)
{
	struct tag_walk *w = payload;
	git_object *obj = NULL, *peeled = NULL;
	char hex[41];

	/* Tags of trees or blobs are not commits: pass over them. */
	if (git_object_lookup(&obj, w->repo, oid, GIT_OBJECT_ANY) < 0)
		return 0;
	if (!git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT)) {
		git_oid_tostr(hex, sizeof(hex), git_object_id(peeled));
		if (!strncmp(name, "refs/tags/", 10))
			name += 10;
		sweep_tags_push(w->out, name, hex);
		git_object_free(peeled);
	}
	git_object_free(obj);
	return 0;
}

int sweep_list_tags(struct sweep_tags *out, const char *repo_path)
{
	struct tag_walk w = {NULL, out};
	int ret = 0;

	if (open_repo(&w.repo, repo_path))
		return -1;
	if (git_tag_foreach(w.repo, tag_cb, &w) < 0)
		ret = repo_git_error("cannot list the tags");
	git_repository_free(w.repo);
	return ret;
}
