/*
 * repo_revert.h: a commit of the repository with another one reverted,
 * made in its object database only (libgit2's revert, applied to a
 * commit's tree in memory): no ref names it, and the user's working
 * tree, index and HEAD are never touched. Its full id resolves as any
 * commit's does (repo_resolve), so it is built as one (kbuild.h).
 */
#ifndef IOBISECT_REPO_REVERT_H
#define IOBISECT_REPO_REVERT_H

struct repo;
struct strvec;

/*
 * `onto` (a full id) with `culprit` reverted (a merge against its first
 * parent): 0 with the new commit's full id in `out`; 1 when the revert
 * does not apply cleanly, the conflicting files pushed onto `conflicts`;
 * -1 after error(). Its author, committer and time are fixed (onto's
 * committer time), so the same revert gives the same id every time.
 */
int repo_revert(struct repo *r, const char *onto, const char *culprit,
		char out[41], struct strvec *conflicts);

#endif
