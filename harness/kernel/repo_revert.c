/*
 * repo_revert.c: a commit with another reverted, in the object database
 * only (see repo_revert.h).
 */
#include "repo_revert.h"
#include "repo.h"
#include "util.h"

#include <git2.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* The conflicting paths of an index the revert left, each once. */
static int conflicts_of(git_index *index, struct strvec *out)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *ours, *theirs;
	int r;

	if (git_index_conflict_iterator_new(&it, index))
		return repo_git_error("cannot list the revert's conflicts");
	while (!(r = git_index_conflict_next(&anc, &ours, &theirs, it))) {
		const git_index_entry *e = ours ? ours : theirs ? theirs : anc;
		if (e && strvec_index(out, e->path) < 0)
			strvec_push(out, e->path);
	}
	git_index_conflict_iterator_free(it);
	return r == GIT_ITEROVER ? 0 : repo_git_error("cannot list the "
						      "revert's conflicts");
}

int repo_revert(struct repo *r, const char *onto, const char *culprit,
		char out[41], struct strvec *conflicts)
{
	git_repository *git = repo_handle(r);
	git_commit *base = NULL, *bad = NULL;
	git_index *index = NULL;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_oid oid, tree_oid;
	git_revert_options opts;
	char *msg = NULL;
	int ret = -1;

	if (git_oid_fromstr(&oid, onto) || git_commit_lookup(&base, git, &oid) ||
	    git_oid_fromstr(&oid, culprit) || git_commit_lookup(&bad, git, &oid)) {
		repo_git_error("cannot read the commits of a revert");
		goto out;
	}
	git_revert_options_init(&opts, GIT_REVERT_OPTIONS_VERSION);
	if (git_revert_commit(&index, git, bad, base,
			      git_commit_parentcount(bad) > 1 ? 1 : 0,
			      &opts.merge_opts)) {
		repo_git_error("cannot revert");
		goto out;
	}
	if (git_index_has_conflicts(index)) {
		ret = conflicts_of(index, conflicts) ? -1 : 1;
		goto out;
	}
	/* The tree and the commit go to the object database; no ref moves. */
	if (git_index_write_tree_to(&tree_oid, index, git) ||
	    git_tree_lookup(&tree, git, &tree_oid) ||
	    git_signature_new(&sig, "iobisect", "iobisect@localhost",
			      git_commit_time(base), 0)) {
		repo_git_error("cannot write the revert's tree");
		goto out;
	}
	msg = xstrfmt("Revert %s onto %s\n\niobisect's revert check: "
		      "no ref names this commit.\n",
		      culprit, onto);
	if (git_commit_create(&oid, git, NULL, sig, sig, NULL, msg, tree, 1,
			      (const git_commit **)&base)) {
		repo_git_error("cannot write the revert's commit");
		goto out;
	}
	git_oid_tostr(out, 41, &oid);
	ret = 0;
out:
	free(msg);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	git_commit_free(bad);
	git_commit_free(base);
	return ret;
}
