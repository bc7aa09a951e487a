/*
 * repo.h: the kernel repository, through libgit2 only (the harness never
 * runs git): revisions, the commit range of a bisection, trees and kernel
 * versions for build keys, checkouts into iobisect's own source tree, and
 * commit descriptions for reports. The user's working tree, index and HEAD
 * are never touched.
 */
#ifndef IOBISECT_REPO_H
#define IOBISECT_REPO_H

#include <stddef.h>

struct commit_graph;
struct repo;

/* Open the repository at (or above) `path`. */
int repo_open(struct repo **out, const char *path);
void repo_free(struct repo *r);

/*
 * Turn the last libgit2 error into an error() message "<what>: <libgit2's
 * reason>" and return -1. The one place libgit2 failures become words.
 */
int repo_git_error(const char *what);

/* libgit2's handle, for the repository's own other files (repo_revert.c). */
struct git_repository;
struct git_repository *repo_handle(struct repo *r);

/* The working tree (or git dir of a bare repository), for messages. */
const char *repo_path(const struct repo *r);
/* A short stable hash (12 hex) of the repository's absolute git dir. */
const char *repo_id(const struct repo *r);

/*
 * Resolve a revision (tag, branch, full or short id, "v6.1~3", "HEAD")
 * to a commit id. Error: "unknown revision 'X' in '/path'".
 */
int repo_resolve(struct repo *r, const char *rev, char id[41]);

/* The tags at `commit` (a full id), "v6.1", pushed onto `out` by name. */
struct strvec;
int repo_tags_at(struct repo *r, const char *commit, struct strvec *out);

/* 1 when `anc` is `desc` or one of its ancestors, 0 when not, -1 on error. */
int repo_is_ancestor(struct repo *r, const char *anc, const char *desc);

/*
 * The candidates of a bisection: commits that are ancestors of `bad` (bad
 * included) and not of `good`, nodes[0] = bad, children before parents,
 * merges included. merge_base gets the merge base of good and bad when good
 * is not an ancestor of bad (the bisection tests it first, as git does),
 * else good's id. Errors: no common ancestor, bad an ancestor of good.
 */
int repo_range(struct repo *r, const char *good, const char *bad,
	       struct commit_graph *out, char merge_base[41]);

/* The commit's tree id: the same sources give the same build key. */
int repo_tree_id(struct repo *r, const char *commit, char out[41]);

/*
 * The paths that differ between the trees of two commits, each handed to
 * fn (a renamed file by both names); stops at the first nonzero fn
 * returns and returns it. 0 when all were handed, -1 after error().
 */
int repo_diff_paths(struct repo *r, const char *from, const char *to,
		    int (*fn)(const char *path, void *arg), void *arg);
/*
 * The same with what each path holds at `to`: "<mode> <blob id>" (octal
 * mode, hex id), "" where `to` has no such file. Two commits' diffs from
 * one third say where they differ from each other (build_warm.h).
 */
int repo_diff_blobs(struct repo *r, const char *from, const char *to,
		    int (*fn)(const char *path, const char *blob, void *arg),
		    void *arg);

/* VERSION/PATCHLEVEL/SUBLEVEL of the commit's top Makefile, as KVER(). */
int repo_kernel_version(struct repo *r, const char *commit, unsigned *kver);
/* The same from a Makefile's text; 0 when it names no version. Pure. */
unsigned repo_parse_kernel_version(const char *makefile, size_t len);

/*
 * Where repo_checkout puts a commit when it is given no folder:
 * cache_dir()/src/<repo-id>. Builds use trees of their own, one per slot
 * (kbuild.c). Caller frees.
 */
char *repo_default_workdir(const struct repo *r);

/*
 * Check `commit` out into `workdir` (NULL: repo_default_workdir), with a
 * private index at "<workdir>.index". Forced: local changes are
 * overwritten and files not in the commit's tree are removed. Files whose
 * content did not change since the last checkout are not rewritten, so
 * they keep their mtime and make rebuilds only what changed. The caller
 * holds the folder alone (kbuild.c's src.lock): a lock file left beside
 * the private index is from a checkout that was stopped or killed, and is
 * removed.
 */
int repo_checkout(struct repo *r, const char *commit, const char *workdir);

struct commit_info {
	char id[41];
	char *describe; /* "v6.1-3-gabc1234", "v6.1", or the short id */
	char *subject;
	char *author; /* "Name <email>" */
	char *date;   /* author date, "2022-12-11T14:15:00+00:00" */
};
#define COMMIT_INFO_INIT                                                       \
	{                                                                      \
		{0}, NULL, NULL, NULL, NULL                                    \
	}

int repo_describe(struct repo *r, const char *commit, struct commit_info *out);
void commit_info_release(struct commit_info *ci);

#endif
