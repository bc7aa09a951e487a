/*
 * repo.c: the kernel repository through libgit2 (see repo.h). Checkouts go
 * to a second handle on the same object database whose working tree and
 * index are iobisect's own, so the user's HEAD, index and working tree are
 * never written.
 */
#include "repo.h"
#include "graph.h"
#include "kver.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <git2.h>
#include <git2/sys/repository.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct repo {
	git_repository *git;
	char *path; /* for messages */
	char id[13];
};

int repo_git_error(const char *what)
{
	const git_error *e = git_error_last();
	return error("%s: %s", what,
		     e && e->message ? e->message : "unknown libgit2 error");
}

int repo_open(struct repo **out, const char *path)
{
	git_repository *git = NULL;
	*out = NULL;
	git_libgit2_init();
	if (git_repository_open_ext(&git, path, 0, NULL)) {
		git_libgit2_shutdown();
		return error("'%s' is not a git repository", path);
	}
	struct repo *r = xcalloc(1, sizeof(*r));
	r->git = git;
	const char *wd = git_repository_workdir(git);
	const char *gitdir = git_repository_path(git);
	r->path = xstrdup(wd ? wd : gitdir);
	/* Drop the trailing slash libgit2 gives, so messages read naturally. */
	size_t n = strlen(r->path);
	if (n > 1 && r->path[n - 1] == '/')
		r->path[n - 1] = '\0';
	char hex[41];
	hash_hex(gitdir, strlen(gitdir), hex);
	memcpy(r->id, hex, 12);
	r->id[12] = '\0';
	*out = r;
	return 0;
}

void repo_free(struct repo *r)
{
	if (!r)
		return;
	git_repository_free(r->git);
	free(r->path);
	free(r);
	git_libgit2_shutdown();
}

const char *repo_path(const struct repo *r)
{
	return r->path;
}

const char *repo_id(const struct repo *r)
{
	return r->id;
}

static int lookup_commit(struct repo *r, const char *rev, git_commit **out)
{
	git_object *obj = NULL;
	*out = NULL;
	if (git_revparse_single(&obj, r->git, rev) ||
	    git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT)) {
		git_object_free(obj);
		return error("unknown revision '%s' in '%s'", rev, r->path);
	}
	git_object_free(obj);
	return 0;
}

int repo_resolve(struct repo *r, const char *rev, char id[41])
{
	git_commit *c;
	if (lookup_commit(r, rev, &c))
		return -1;
	git_oid_tostr(id, 41, git_commit_id(c));
	git_commit_free(c);
	return 0;
}

struct tags_at {
	struct repo *r;
	git_oid commit;
	struct strvec *out;
};

static int tag_at(const char *name, git_oid *oid, void *payload)
{
	struct tags_at *t = payload;
	git_object *obj = NULL, *peeled = NULL;

	/* Annotated tags point at a tag object: peel to the commit. */
	if (!git_object_lookup(&obj, t->r->git, oid, GIT_OBJECT_ANY) &&
	    !git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) &&
	    git_oid_equal(git_object_id(peeled), &t->commit))
		strvec_push(t->out, name + strlen("refs/tags/"));
	git_object_free(peeled);
	git_object_free(obj);
	return 0;
}

int repo_tags_at(struct repo *r, const char *commit, struct strvec *out)
{
	struct tags_at t = {r, {{0}}, out};

	if (git_oid_fromstr(&t.commit, commit))
		return error("'%s' is not a commit id", commit);
	if (git_tag_foreach(r->git, tag_at, &t))
		return repo_git_error("cannot list tags");
	return 0;
}

static int resolve_oid(struct repo *r, const char *rev, git_oid *oid)
{
	git_commit *c;
	if (lookup_commit(r, rev, &c))
		return -1;
	git_oid_cpy(oid, git_commit_id(c));
	git_commit_free(c);
	return 0;
}

int repo_is_ancestor(struct repo *r, const char *anc, const char *desc)
{
	git_oid a, d;
	if (resolve_oid(r, anc, &a) || resolve_oid(r, desc, &d))
		return -1;
	if (git_oid_equal(&a, &d))
		return 1;
	int rc = git_graph_descendant_of(r->git, &d, &a);
	if (rc < 0)
		return repo_git_error("cannot walk history");
	return rc;
}

/* The range's ids sorted, so a parent is found by binary search. */
struct oid_index {
	git_oid oid;
	size_t node;
};

static int oid_index_cmp(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct oid_index *)a)->oid,
			   &((const struct oid_index *)b)->oid);
}

int repo_range(struct repo *r, const char *good, const char *bad,
	       struct commit_graph *out, char merge_base[41])
{
	git_oid g, b, base;
	git_revwalk *walk = NULL;
	git_oid *oids = NULL;
	size_t nr = 0, alloc = 0;
	struct oid_index *index = NULL;
	int ret = -1;

	out->nodes = NULL;
	out->nr = 0;
	if (resolve_oid(r, good, &g) || resolve_oid(r, bad, &b))
		return -1;

	int rc = git_merge_base(&base, r->git, &g, &b);
	if (rc == GIT_ENOTFOUND)
		return error("'%s' and '%s' have no common ancestor", good,
			     bad);
	if (rc)
		return repo_git_error("cannot find a merge base");
	if (git_oid_equal(&base, &b))
		return error(
			"'%s' is an ancestor of '%s': no commits to bisect",
			bad, good);
	/*
	 * When good is an ancestor of bad the merge base is good itself;
	 * otherwise it is the commit the bisection must test first.
	 */
	git_oid_tostr(merge_base, 41, &base);

	if (git_revwalk_new(&walk, r->git) ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL) ||
	    git_revwalk_push(walk, &b) || git_revwalk_hide(walk, &g)) {
		repo_git_error("cannot walk history");
		goto out;
	}
	git_oid oid;
	while (!(rc = git_revwalk_next(&oid, walk))) {
		ALLOC_GROW(oids, nr + 1, alloc);
		oids[nr++] = oid;
	}
	if (rc != GIT_ITEROVER) {
		repo_git_error("cannot walk history");
		goto out;
	}
	if (!nr || !git_oid_equal(&oids[0], &b)) {
		error("cannot list the commits between '%s' and '%s'", good,
		      bad);
		goto out;
	}

	index = xcalloc(nr, sizeof(*index));
	for (size_t i = 0; i < nr; i++) {
		index[i].oid = oids[i];
		index[i].node = i;
	}
	qsort(index, nr, sizeof(*index), oid_index_cmp);

	out->nodes = xcalloc(nr, sizeof(*out->nodes));
	out->nr = nr;
	for (size_t i = 0; i < nr; i++) {
		struct commit_node *n = &out->nodes[i];
		git_commit *c;
		git_oid_tostr(n->id, sizeof(n->id), &oids[i]);
		if (git_commit_lookup(&c, r->git, &oids[i])) {
			repo_git_error("cannot read commit");
			goto out;
		}
		unsigned np = git_commit_parentcount(c);
		n->parents = xcalloc(np ? np : 1, sizeof(*n->parents));
		for (unsigned p = 0; p < np; p++) {
			struct oid_index key = {*git_commit_parent_id(c, p), 0};
			struct oid_index *hit = bsearch(
				&key, index, nr, sizeof(*index), oid_index_cmp);
			char id[41];
			if (hit) {
				n->parents[n->nr_parents++] = hit->node;
				continue;
			}
			if (!n->outside)
				n->outside = xcalloc(np, sizeof(*n->outside));
			git_oid_tostr(id, sizeof(id), git_commit_parent_id(c, p));
			n->outside[n->outside_parents++] = xstrdup(id);
		}
		git_commit_free(c);
	}
	ret = 0;
out:
	if (ret)
		graph_release(out);
	free(index);
	free(oids);
	git_revwalk_free(walk);
	return ret;
}

int repo_tree_id(struct repo *r, const char *commit, char out[41])
{
	git_commit *c;
	if (lookup_commit(r, commit, &c))
		return -1;
	git_oid_tostr(out, 41, git_commit_tree_id(c));
	git_commit_free(c);
	return 0;
}

/* The diff of the trees of two commits, names only, into *out. */
static int diff_commits(struct repo *r, const char *from, const char *to,
			git_diff **out)
{
	git_commit *a = NULL, *b = NULL;
	git_tree *ta = NULL, *tb = NULL;
	git_diff_options opts;
	int rc = -1;

	*out = NULL;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	/* Names only: no content is read, and no rename is looked for. */
	opts.flags |= GIT_DIFF_SKIP_BINARY_CHECK;
	if (lookup_commit(r, from, &a) || lookup_commit(r, to, &b))
		goto out;
	if (git_commit_tree(&ta, a) || git_commit_tree(&tb, b) ||
	    git_diff_tree_to_tree(out, r->git, ta, tb, &opts)) {
		repo_git_error("cannot compare trees");
		goto out;
	}
	rc = 0;
out:
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(a);
	git_commit_free(b);
	return rc;
}

int repo_diff_paths(struct repo *r, const char *from, const char *to,
		    int (*fn)(const char *path, void *arg), void *arg)
{
	git_diff *diff;
	int rc = diff_commits(r, from, to, &diff);

	for (size_t i = 0, n = rc ? 0 : git_diff_num_deltas(diff);
	     i < n && !rc; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		rc = fn(d->new_file.path, arg);
		if (!rc && strcmp(d->old_file.path, d->new_file.path))
			rc = fn(d->old_file.path, arg);
	}
	git_diff_free(diff);
	return rc;
}

int repo_diff_blobs(struct repo *r, const char *from, const char *to,
		    int (*fn)(const char *path, const char *blob, void *arg),
		    void *arg)
{
	git_diff *diff;
	int rc = diff_commits(r, from, to, &diff);

	for (size_t i = 0, n = rc ? 0 : git_diff_num_deltas(diff);
	     i < n && !rc; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		char hex[GIT_OID_HEXSZ + 1] = "";
		char blob[GIT_OID_HEXSZ + 16] = "";

		/* No rename is looked for: both sides name one path. */
		if (d->status != GIT_DELTA_DELETED) {
			git_oid_tostr(hex, sizeof(hex), &d->new_file.id);
			snprintf(blob, sizeof(blob), "%o %s",
				 (unsigned)d->new_file.mode, hex);
		}
		rc = fn(d->new_file.path, blob, arg);
	}
	git_diff_free(diff);
	return rc;
}

/* The number after "NAME =" at the start of a line, or -1. */
static long makefile_var(const char *text, size_t len, const char *name)
{
	size_t nl = strlen(name);
	const char *end = text + len;
	for (const char *p = text; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if ((size_t)(eol - p) > nl && !memcmp(p, name, nl)) {
			const char *q = p + nl;
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if (q < eol && *q == '=') {
				q++;
				while (q < eol && (*q == ' ' || *q == '\t'))
					q++;
				if (q == eol)
					return 0; /* "EXTRAVERSION =" */
				if (!isdigit((unsigned char)*q))
					return -1;
				return strtol(q, NULL, 10);
			}
		}
		p = eol + 1;
	}
	return -1;
}

unsigned repo_parse_kernel_version(const char *makefile, size_t len)
{
	long v = makefile_var(makefile, len, "VERSION");
	long p = makefile_var(makefile, len, "PATCHLEVEL");
	long s = makefile_var(makefile, len, "SUBLEVEL");
	if (v <= 0 || p < 0)
		return 0;
	if (s < 0)
		s = 0;
	return KVER((unsigned)v, (unsigned)p, (unsigned)s);
}

int repo_kernel_version(struct repo *r, const char *commit, unsigned *kver)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	int ret = -1;

	if (lookup_commit(r, commit, &c))
		return -1;
	if (git_commit_tree(&tree, c)) {
		repo_git_error("cannot read tree");
		goto out;
	}
	if (git_tree_entry_bypath(&entry, tree, "Makefile") ||
	    git_blob_lookup(&blob, r->git, git_tree_entry_id(entry))) {
		error("commit '%s' has no top Makefile: not a kernel tree?",
		      commit);
		goto out;
	}
	*kver = repo_parse_kernel_version(git_blob_rawcontent(blob),
					  (size_t)git_blob_rawsize(blob));
	if (!*kver) {
		error("no kernel version in the Makefile of '%s'", commit);
		goto out;
	}
	ret = 0;
out:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}

char *repo_default_workdir(const struct repo *r)
{
	return xstrfmt("%s/src/%s", cache_dir(), r->id);
}

int repo_checkout(struct repo *r, const char *commit, const char *workdir)
{
	git_repository *co = NULL;
	git_index *index = NULL;
	git_commit *c = NULL;
	char *wd = workdir ? xstrdup(workdir) : repo_default_workdir(r);
	char *index_path = NULL, *lock_path = NULL;
	int ret = -1;

	/* No trailing slash, so "<workdir>.index" sits beside the tree. */
	size_t n = strlen(wd);
	while (n > 1 && wd[n - 1] == '/')
		wd[--n] = '\0';
	index_path = xstrfmt("%s.index", wd);
	if (mkdir_p(wd, 0755))
		goto out;
	/*
	 * A build stopped during its checkout (a lane's guess the run no
	 * longer wants gets SIGTERM: lanes.c) leaves libgit2's lock beside
	 * the index, and every later checkout of this tree failed with "the
	 * index is locked". The caller holds the tree alone, so the lock's
	 * writer is gone.
	 */
	lock_path = xstrfmt("%s.lock", index_path);
	if (unlink(lock_path) && errno != ENOENT) {
		error("cannot remove '%s': %s", lock_path, strerror(errno));
		goto out;
	}
	/*
	 * A second handle: its working tree and index are ours, set in
	 * memory only (update_gitlink = 0 writes nothing in the user's
	 * .git), so nothing the user sees can change.
	 */
	if (git_repository_open(&co, git_repository_path(r->git)) ||
	    git_repository_set_workdir(co, wd, 0) ||
	    git_index_open(&index, index_path) ||
	    git_repository_set_index(co, index)) {
		repo_git_error("cannot set up the private source tree");
		goto out;
	}
	git_oid oid;
	if (resolve_oid(r, commit, &oid))
		goto out;
	if (git_commit_lookup(&c, co, &oid)) {
		repo_git_error("cannot read commit");
		goto out;
	}

	git_checkout_options opts;
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	opts.checkout_strategy = GIT_CHECKOUT_FORCE |
				 GIT_CHECKOUT_REMOVE_UNTRACKED |
				 GIT_CHECKOUT_REMOVE_IGNORED;
	/*
	 * The baseline is what the private index says the tree holds (the
	 * last checkout), not the user's HEAD: only files that differ from
	 * it are written, the rest keep their mtime.
	 */
	opts.baseline_index = index;
	if (git_checkout_tree(co, (git_object *)c, &opts)) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "cannot check '%s' out into '%s'", commit, wd);
		repo_git_error(sb.buf);
		strbuf_release(&sb);
		goto out;
	}
	if (git_index_write(index)) {
		repo_git_error("cannot write the private index");
		goto out;
	}
	ret = 0;
out:
	git_commit_free(c);
	git_index_free(index);
	git_repository_free(co);
	free(lock_path);
	free(index_path);
	free(wd);
	return ret;
}

static char *signature_text(const git_signature *s)
{
	char *text = xstrfmt("%s <%s>", s->name, s->email);
	char *safe = xstrdup_safe(text);
	free(text);
	return safe;
}

static char *signature_date(const git_signature *s)
{
	time_t t = (time_t)s->when.time + (time_t)s->when.offset * 60;
	struct tm tm;
	char buf[32];
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	int off = s->when.offset < 0 ? -s->when.offset : s->when.offset;
	return xstrfmt("%s%c%02d:%02d", buf, s->when.offset < 0 ? '-' : '+',
		       off / 60, off % 60);
}

int repo_describe(struct repo *r, const char *commit, struct commit_info *out)
{
	git_commit *c;
	git_describe_result *d = NULL;
	git_buf buf = GIT_BUF_INIT;

	memset(out, 0, sizeof(*out));
	if (lookup_commit(r, commit, &c))
		return -1;
	git_oid_tostr(out->id, sizeof(out->id), git_commit_id(c));

	git_describe_options dopts;
	git_describe_options_init(&dopts, GIT_DESCRIBE_OPTIONS_VERSION);
	dopts.describe_strategy = GIT_DESCRIBE_TAGS;
	dopts.show_commit_oid_as_fallback = 1;
	git_describe_format_options fopts;
	git_describe_format_options_init(&fopts,
					 GIT_DESCRIBE_FORMAT_OPTIONS_VERSION);
	fopts.abbreviated_size = 7;
	if (!git_describe_commit(&d, (git_object *)c, &dopts) &&
	    !git_describe_format(&buf, d, &fopts))
		out->describe = xstrdup_safe(buf.ptr);
	else
		out->describe = xstrndup(out->id, 12);
	git_buf_dispose(&buf);
	git_describe_result_free(d);

	const char *summary = git_commit_summary(c);
	/*
	 * A commit's subject and author are anyone's text: escapes in them
	 * (a title change, a cleared screen) are shown, never run, on the
	 * terminal, in report.txt and in the logs.
	 */
	out->subject = xstrdup_safe(summary ? summary : "");
	out->author = signature_text(git_commit_author(c));
	out->date = signature_date(git_commit_author(c));
	git_commit_free(c);
	return 0;
}

void commit_info_release(struct commit_info *ci)
{
	free(ci->describe);
	free(ci->subject);
	free(ci->author);
	free(ci->date);
	memset(ci, 0, sizeof(*ci));
}

struct git_repository *repo_handle(struct repo *r)
{
	return r->git;
}
