/*
 * check_repo.c: the repository module (repo.c) on small git repositories
 * made here with libgit2: revision resolution, the bisection range with a
 * merge and with a diverged good, the ancestor check, checkouts into the
 * private tree (timestamps of unchanged files, the user's HEAD, index and
 * working tree untouched) and descriptions.
 *
 * History (first parent on the left):
 *
 *   c1 (v1.0) - c2 - c3 ----- m - c4   master (HEAD)
 *                \    \      /
 *                 \    s1 --       side
 *                  st1 (v1.1)      stable (diverged from master at c2)
 *   r1                             orphan (a second root)
 */
#include "build_cost.h"
#include "graph.h"
#include "kbuild.h"
#include "objdir_last.h"
#include "repo.h"
#include "narrow.h"
#include "util.h"

#include <check.h>
#include <fcntl.h>
#include <stddef.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[64];
static char *repo_dir;
static struct commit_ids {
	char c1[41], c2[41], c3[41], s1[41], m[41], c4[41], st1[41], r1[41];
} ids;

struct file {
	const char *name, *content;
};

/* A commit of a flat tree holding exactly `files`. */
static void make_commit(git_repository *git, char out[41], const char *ref,
			const struct file *files, const char *const *parents,
			int time_s, const char *msg)
{
	git_treebuilder *tb;
	git_oid blob, tree_oid, commit_oid;
	git_tree *tree;
	git_signature *sig;
	const git_commit *pc[2] = {NULL, NULL};
	size_t np = 0;

	ck_assert_int_eq(git_treebuilder_new(&tb, git, NULL), 0);
	for (const struct file *f = files; f->name; f++) {
		ck_assert_int_eq(
			git_blob_create_from_buffer(&blob, git, f->content,
						    strlen(f->content)),
			0);
		ck_assert_int_eq(git_treebuilder_insert(NULL, tb, f->name,
							&blob,
							GIT_FILEMODE_BLOB),
				 0);
	}
	ck_assert_int_eq(git_treebuilder_write(&tree_oid, tb), 0);
	git_treebuilder_free(tb);
	ck_assert_int_eq(git_tree_lookup(&tree, git, &tree_oid), 0);
	for (; parents && parents[np]; np++) {
		git_oid p;
		ck_assert_int_eq(git_oid_fromstr(&p, parents[np]), 0);
		ck_assert_int_eq(
			git_commit_lookup((git_commit **)&pc[np], git, &p), 0);
	}
	ck_assert_int_eq(git_signature_new(&sig, "A U Thor",
					   "author@example.com",
					   1600000000 + time_s, 0),
			 0);
	ck_assert_int_eq(git_commit_create(&commit_oid, git, ref, sig, sig,
					   NULL, msg, tree, np, pc),
			 0);
	for (size_t i = 0; i < np; i++)
		git_commit_free((git_commit *)pc[i]);
	git_signature_free(sig);
	git_tree_free(tree);
	git_oid_tostr(out, 41, &commit_oid);
}

static void make_tag(git_repository *git, const char *name, const char *id)
{
	git_oid oid, tag;
	git_object *obj;
	git_signature *sig;
	ck_assert_int_eq(git_oid_fromstr(&oid, id), 0);
	ck_assert_int_eq(git_object_lookup(&obj, git, &oid, GIT_OBJECT_COMMIT),
			 0);
	ck_assert_int_eq(git_signature_new(&sig, "A U Thor",
					   "author@example.com", 1600000000, 0),
			 0);
	ck_assert_int_eq(git_tag_create(&tag, git, name, obj, sig, name, 0), 0);
	git_signature_free(sig);
	git_object_free(obj);
}

static void setup(void)
{
	git_repository *git;
	strcpy(tmpdir, "/tmp/check_repo.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	repo_dir = xstrfmt("%s/user", tmpdir);
	/* The cache (private trees) goes in the temporary folder too. */
	char *cache = xstrfmt("%s/cache", tmpdir);
	setenv("XDG_CACHE_HOME", cache, 1);
	free(cache);

	git_libgit2_init();
	ck_assert_int_eq(git_repository_init(&git, repo_dir, 0), 0);
	const char *m = "refs/heads/master";
	make_commit(git, ids.c1, m,
		    (struct file[]){{"a.c", "a1\n"}, {"b.c", "b1\n"}, {0}},
		    NULL, 0, "one\n\nbody\n");
	make_tag(git, "v1.0", ids.c1);
	make_commit(git, ids.c2, m,
		    (struct file[]){{"a.c", "a2\n"}, {"b.c", "b1\n"}, {0}},
		    (const char *[]){ids.c1, NULL}, 60, "two\n");
	make_commit(git, ids.c3, m,
		    (struct file[]){{"a.c", "a2\n"}, {"b.c", "b3\n"}, {0}},
		    (const char *[]){ids.c2, NULL}, 120, "three\n");
	make_commit(
		git, ids.s1, "refs/heads/side",
		(struct file[]){
			{"a.c", "a2\n"}, {"b.c", "b1\n"}, {"s.c", "s1\n"}, {0}},
		(const char *[]){ids.c2, NULL}, 130, "side\n");
	make_commit(
		git, ids.m, m,
		(struct file[]){
			{"a.c", "a2\n"}, {"b.c", "b3\n"}, {"s.c", "s1\n"}, {0}},
		(const char *[]){ids.c3, ids.s1, NULL}, 180, "merge\n");
	make_commit(
		git, ids.c4, m,
		(struct file[]){
			{"a.c", "a4\n"}, {"b.c", "b3\n"}, {"s.c", "s1\n"}, {0}},
		(const char *[]){ids.m, NULL}, 240, "four: change a\n");
	make_commit(
		git, ids.st1, "refs/heads/stable",
		(struct file[]){{"a.c", "a-stable\n"}, {"b.c", "b1\n"}, {0}},
		(const char *[]){ids.c2, NULL}, 300, "stable fix\n");
	make_tag(git, "v1.1", ids.st1);
	make_commit(git, ids.r1, "refs/heads/orphan",
		    (struct file[]){{"x.c", "x\n"}, {0}}, NULL, 360,
		    "unrelated root\n");

	/* The user's own checkout of master: HEAD, index and files. */
	git_checkout_options co;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	ck_assert_int_eq(git_checkout_head(git, &co), 0);
	git_repository_free(git);
	git_libgit2_shutdown();
}

static void teardown(void)
{
	remove_tree(tmpdir);
	free(repo_dir);
}

static struct repo *open_repo(void)
{
	struct repo *r;
	ck_assert_int_eq(repo_open(&r, repo_dir), 0);
	return r;
}

static const struct {
	const char *rev;
	size_t off; /* offsetof into ids */
} resolve_cases[] = {
	{"v1.0", offsetof(struct commit_ids, c1)},
	{"v1.1", offsetof(struct commit_ids, st1)},
	{"master", offsetof(struct commit_ids, c4)},
	{"HEAD", offsetof(struct commit_ids, c4)},
	{"HEAD~1", offsetof(struct commit_ids, m)},
	{"HEAD~2", offsetof(struct commit_ids, c3)},
	{"HEAD~1^2", offsetof(struct commit_ids, s1)},
	{"side", offsetof(struct commit_ids, s1)},
	{"v1.1~1", offsetof(struct commit_ids, c2)},
};

START_TEST(test_resolve)
{
	struct repo *r = open_repo();
	char id[41];
	const char *want = (const char *)&ids + resolve_cases[_i].off;
	ck_assert_int_eq(repo_resolve(r, resolve_cases[_i].rev, id), 0);
	ck_assert_str_eq(id, want);
	repo_free(r);
}
END_TEST

START_TEST(test_resolve_ids)
{
	struct repo *r = open_repo();
	char id[41], short_id[8];
	ck_assert_int_eq(repo_resolve(r, ids.c3, id), 0);
	ck_assert_str_eq(id, ids.c3);
	memcpy(short_id, ids.c3, 7);
	short_id[7] = '\0';
	ck_assert_int_eq(repo_resolve(r, short_id, id), 0);
	ck_assert_str_eq(id, ids.c3);
	repo_free(r);
}
END_TEST

START_TEST(test_resolve_unknown)
{
	struct repo *r = open_repo();
	struct strbuf err = STRBUF_INIT;
	char id[41];
	error_capture(&err);
	ck_assert_int_eq(repo_resolve(r, "v9.9", id), -1);
	error_capture(NULL);
	char *want = xstrfmt("unknown revision 'v9.9' in '%s'", repo_dir);
	ck_assert_str_eq(err.buf, want);
	free(want);
	strbuf_release(&err);
	repo_free(r);
}
END_TEST

START_TEST(test_open_not_a_repo)
{
	struct repo *r = (struct repo *)1;
	struct strbuf err = STRBUF_INIT;
	error_capture(&err);
	ck_assert_int_eq(repo_open(&r, "/proc"), -1);
	error_capture(NULL);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(err.buf, "'/proc' is not a git repository");
	strbuf_release(&err);
}
END_TEST

static long node(const struct commit_graph *g, const char *id)
{
	long i = graph_find(g, id);
	ck_assert_msg(i >= 0, "%s not in the range", id);
	return i;
}

START_TEST(test_range_with_merge)
{
	struct repo *r = open_repo();
	struct commit_graph g = {0};
	char base[41];
	ck_assert_int_eq(repo_range(r, "v1.0", "master", &g, base), 0);
	ck_assert_str_eq(base, ids.c1);
	ck_assert_uint_eq(g.nr, 5);
	ck_assert_str_eq(g.nodes[0].id, ids.c4);
	ck_assert_int_eq(graph_find(&g, ids.c1), -1);
	/* Children before parents; parents' indexes are in the range. */
	for (size_t i = 0; i < g.nr; i++)
		for (size_t p = 0; p < g.nodes[i].nr_parents; p++) {
			ck_assert_uint_gt(g.nodes[i].parents[p], i);
			ck_assert_uint_lt(g.nodes[i].parents[p], g.nr);
		}
	const struct commit_node *merge = &g.nodes[node(&g, ids.m)];
	ck_assert_uint_eq(merge->nr_parents, 2);
	ck_assert_int_eq(merge->outside_parents, 0);
	ck_assert_uint_eq(merge->parents[0], (size_t)node(&g, ids.c3));
	ck_assert_uint_eq(merge->parents[1], (size_t)node(&g, ids.s1));
	/* c2's parent is good: outside the range. */
	const struct commit_node *c2 = &g.nodes[node(&g, ids.c2)];
	ck_assert_uint_eq(c2->nr_parents, 0);
	ck_assert_int_eq(c2->outside_parents, 1);
	graph_release(&g);
	repo_free(r);
}
END_TEST

/*
 * The range as the inputs narrow it, from real trees: with a.c the only
 * input, c3 (b.c), the side branch (s.c) and the merge build c2's kernel;
 * with b.c, c2 builds the good side's and the merge c3's, so c4 (bad)
 * sits on c3, whose parent is now outside.
 */
START_TEST(test_narrow_by_inputs)
{
	struct repo *r = open_repo();
	struct commit_graph g = { 0 }, n = { 0 };
	struct kernel_inputs a = KERNEL_INPUTS_INIT, b = KERNEL_INPUTS_INIT;
	char base[41];
	long *same;

	ck_assert_int_eq(repo_range(r, "v1.0", "master", &g, base), 0);
	same = xcalloc(g.nr, sizeof(*same));
	inputs_add(&a, "a.c");
	ck_assert_int_eq(narrow_same(r, &a, &g, base, same), 0);
	ck_assert_int_eq(same[node(&g, ids.c2)], -1);
	ck_assert_int_eq(same[node(&g, ids.c3)], 0);
	ck_assert_int_eq(same[node(&g, ids.s1)], 0);
	ck_assert_int_eq(same[node(&g, ids.m)], 0);
	ck_assert_int_eq(same[node(&g, ids.c4)], -1);
	ck_assert_uint_eq(graph_narrow(&g, same, &n), 2);
	ck_assert_str_eq(n.nodes[0].id, ids.c4);
	ck_assert_str_eq(n.nodes[1].id, ids.c2);
	ck_assert_uint_eq(n.nodes[0].parents[0], 1);
	graph_release(&n);

	inputs_add(&b, "b.c");
	ck_assert_int_eq(narrow_same(r, &b, &g, base, same), 0);
	ck_assert_int_eq(same[node(&g, ids.c2)], 0); /* the outside c1 */
	ck_assert_int_eq(same[node(&g, ids.c3)], -1);
	ck_assert_int_eq(same[node(&g, ids.m)], 0);
	ck_assert_uint_eq(graph_narrow(&g, same, &n), 2);
	ck_assert_str_eq(n.nodes[1].id, ids.c3);
	ck_assert_uint_eq(n.nodes[0].parents[0], 1);
	ck_assert_int_eq(n.nodes[1].outside_parents, 1);
	ck_assert_str_eq(n.nodes[1].outside[0], ids.c1);
	graph_release(&n);

	inputs_release(&a);
	inputs_release(&b);
	free(same);
	graph_release(&g);
	repo_free(r);
}
END_TEST

/* A file `name` in `dir` (made) holding `text`. */
static void put_file(const char *dir, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	ck_assert_int_eq(write_file_atomic(path, text, strlen(text)), 0);
	free(path);
}

/*
 * What a commit costs to build from the folders at hand, on real trees:
 * of 10 objects, a.c is read by 1 and b.c by 7 (a header), counted as a
 * sum when the image does not say which objects, each once when it does. Slot 0 last
 * built c1, slot 1 c3; slot 2 has no mark (a second build began in it
 * half-way). c2
 * changes a.c from c1 (1) but b.c from c3 (7): slot 0, 1 object. c4
 * changes a.c and b.c from c1 (8) but a.c from c3: slot 1, 1. s.c is
 * no input: free. A change past every object is every object. An image
 * in the cache costs nothing. A folder left half-way costs what either
 * of its commits differs in.
 */
START_TEST(test_build_cost_from_folders_at_hand)
{
	struct repo *r = open_repo();
	struct build_cost bc;
	struct kernel_inputs in = KERNEL_INPUTS_INIT;
	char *cfg = xstrfmt("%s/cache/trees/r", tmpdir);
	char *obj0 = xstrfmt("%s/0/obj/cfg", cfg), *obj1 = xstrfmt("%s/1/obj/cfg", cfg);
	char *obj2 = xstrfmt("%s/2/obj/cfg", cfg);
	char *img = xstrfmt("%s/cache/images/one", tmpdir);
	char *log = xstrfmt("# iobisect build x\n# objdir %s\n", obj1);
	char tree[41], key[41];
	char *where = NULL, *cached;
	struct objdir_last last;
	static const char cfg_hash[] = "0123456789012345678901234567890123456789";

	inputs_add(&in, "a.c");
	inputs_add(&in, "b.c");
	in.objects[0] = 1;
	in.objects[1] = 7;
	in.nr_objects = 10;
	ck_assert_int_eq(build_cost_diff(r, &in, ids.c1, ids.c3), 8);
	ck_assert_int_eq(build_cost_diff(r, &in, ids.c3, ids.m), 0);
	in.objects[0] = 5;
	ck_assert_int_eq(build_cost_diff(r, &in, ids.c1, ids.c3), 10);
	in.objects[0] = 1;
	/* Which objects: a.c's one is among b.c's 7, so the two cost 7. */
	in.bits = xcalloc(2, sizeof(*in.bits));
	in.words = 1;
	in.rows = 2;
	in.bits[0] = 1;
	in.bits[1] = 0x7f;
	ck_assert_int_eq(build_cost_diff(r, &in, ids.c1, ids.c3), 7);
	ck_assert_int_eq(build_cost_diff(r, &in, ids.c1, ids.c2), 1);

	ck_assert_int_eq(mkdir_p(img, 0755), 0);
	ck_assert_int_eq(inputs_write(&in, img), 0);
	put_file(img, "key.json", "{\"config_hash\": \"0123456789012345678901234567890123456789\", \"toolchain\": \"cc=gcc\"}");
	put_file(img, "build.log", log);
	ck_assert_int_eq(mkdir_p(obj0, 0755), 0);
	ck_assert_int_eq(mkdir_p(obj1, 0755), 0);
	ck_assert_int_eq(mkdir_p(obj2, 0755), 0);
	ck_assert_int_eq(objdir_last_write(obj0, ids.c1, img), 0);
	ck_assert_int_eq(objdir_last_write(obj1, ids.c3, img), 0);
	/* Slot 2 left half-way from c3 to c4, then once more: no mark. */
	ck_assert_int_eq(objdir_last_write(obj2, ids.c3, img), 0);
	ck_assert_int_eq(objdir_last_begin(obj2, ids.c4), 0);
	ck_assert_int_eq(objdir_last_begin(obj2, ids.c1), 0);
	ck_assert_int_eq(objdir_last_read(obj2, &last), 0);

	ck_assert_int_eq(build_cost_init(&bc, r, img), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, &where), 1);
	ck_assert_str_eq(where, obj0);
	free(where);
	ck_assert_int_eq(build_cost_of(&bc, ids.c4, &where), 1);
	ck_assert_str_eq(where, obj1);
	free(where);
	ck_assert_int_eq(build_cost_of(&bc, ids.s1, NULL), 1);
	ck_assert_int_eq(build_cost_of(&bc, ids.m, NULL), 0);
	/* Said again from memory, until a folder moves. */
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), 1);
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), 1);
	ck_assert_int_eq(objdir_last_forget(obj0), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), 7);
	ck_assert_int_eq(objdir_last_write(obj0, ids.c1, img), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), 1);
	/* c4's image is in the cache: nothing to build. */
	ck_assert_int_eq(repo_tree_id(r, ids.c4, tree), 0);
	kbuild_key(tree, cfg_hash, "cc=gcc", key);
	cached = xstrfmt("%s/images/%s", cache_dir(), key);
	put_file(cached, "bzImage", "image");
	ck_assert_int_eq(build_cost_of(&bc, ids.c4, &where), 0);
	ck_assert_ptr_null(where);
	build_cost_release(&bc);

	/*
	 * Slot 1 alone, half-way from c3 to c4 (a build stopped): c3 costs
	 * what c4 differs in (a.c: 1), c1 what either does (8 + 8: every
	 * object).
	 */
	ck_assert_int_eq(objdir_last_forget(obj0), 0);
	ck_assert_int_eq(objdir_last_begin(obj1, ids.c4), 0);
	ck_assert_int_eq(objdir_last_read(obj1, &last), 1);
	ck_assert_str_eq(last.commit, ids.c4);
	ck_assert_str_eq(last.from, ids.c3);
	free(last.objdir);
	free(last.imgdir);
	ck_assert_int_eq(build_cost_init(&bc, r, img), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.c3, NULL), 1);
	ck_assert_int_eq(build_cost_of(&bc, ids.c1, NULL), 10);
	build_cost_release(&bc);

	/* No folder says what it built: not known. */
	ck_assert_int_eq(objdir_last_forget(obj1), 0);
	ck_assert_int_eq(build_cost_init(&bc, r, img), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), -1);
	build_cost_release(&bc);

	inputs_release(&in);
	free(cached);
	free(cfg);
	free(obj0);
	free(obj1);
	free(obj2);
	free(img);
	free(log);
	repo_free(r);
}
END_TEST

/*
 * An image of `commit` in the cache for cfg and cc=gcc (its tree from r;
 * r NULL: a commit of another repository).
 */
static void cache_image(struct repo *r, const char *commit, const char *cfg)
{
	char tree[41] = "ffffffffffffffffffffffffffffffffffffffff", key[41];
	char *dir, *json;

	if (r)
		ck_assert_int_eq(repo_tree_id(r, commit, tree), 0);
	kbuild_key(tree, cfg, "cc=gcc", key);
	dir = xstrfmt("%s/images/%s", cache_dir(), key);
	json = xstrfmt("{\"config_hash\": \"%s\", \"toolchain\": \"cc=gcc\", "
		       "\"commit\": \"%s\"}",
		       cfg, commit);
	put_file(dir, "key.json", json);
	put_file(dir, "bzImage", "image");
	free(dir);
	free(json);
}

/*
 * With ccache, every commit built before is warm, not only the folders':
 * of 10 objects a.c feeds 0-2 and b.c 3-9. The folder last built c1; the
 * cache holds c1's and c3's images. c2, between c1's change to a.c and
 * c3's to b.c, differs from c1 in a.c (3 objects: the folder's cost) and
 * from c3 in b.c, so ccache holds each of its objects: 0. s1 (b.c as c1,
 * a.c as c3) the same; st1 changes a.c from both: 3. An image of
 * another repository's commit is not counted, quietly.
 */
START_TEST(test_build_cost_from_ccache)
{
	struct repo *r = open_repo();
	struct build_cost bc;
	struct kernel_inputs in = KERNEL_INPUTS_INIT;
	static const char cfg[] = "0123456789012345678901234567890123456789";
	char *obj0 = xstrfmt("%s/cache/trees/r/0/obj/cfg", tmpdir);
	char *img = xstrfmt("%s/cache/images/ref", tmpdir);
	char *log = xstrfmt("# iobisect build x\n# objdir %s\n", obj0);
	char *key = xstrfmt("{\"config_hash\": \"%s\", \"toolchain\": "
			    "\"cc=gcc\", \"commit\": \"%s\"}",
			    cfg, ids.c4);
	struct strbuf errors = STRBUF_INIT;
	struct strbuf *was;

	inputs_add(&in, "a.c");
	inputs_add(&in, "b.c");
	in.objects[0] = 3;
	in.objects[1] = 7;
	in.nr_objects = 10;
	in.bits = xcalloc(2, sizeof(*in.bits));
	in.words = 1;
	in.rows = 2;
	in.bits[0] = 0x7;
	in.bits[1] = 0x3f8;
	ck_assert_int_eq(mkdir_p(img, 0755), 0);
	ck_assert_int_eq(inputs_write(&in, img), 0);
	put_file(img, "key.json", key);
	put_file(img, "build.log", log);
	ck_assert_int_eq(mkdir_p(obj0, 0755), 0);
	ck_assert_int_eq(objdir_last_write(obj0, ids.c1, img), 0);
	cache_image(r, ids.c1, cfg);
	cache_image(r, ids.c3, cfg);
	cache_image(NULL, "1234567890123456789012345678901234567890", cfg);

	/* Without ccache: the folder's cost. */
	ck_assert_int_eq(build_cost_init(&bc, r, img), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), 3);
	build_cost_release(&bc);

	ck_assert_int_eq(build_cost_init(&bc, r, img), 0);
	bc.ccache = 1;
	was = error_capture(&errors);
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.s1, NULL), 0);
	ck_assert_int_eq(build_cost_of(&bc, ids.st1, NULL), 3);
	error_capture(was);
	ck_assert_str_eq(errors.buf, "");
	/* Asked again: the same (said from memory). */
	ck_assert_int_eq(build_cost_of(&bc, ids.c2, NULL), 0);
	build_cost_release(&bc);

	inputs_release(&in);
	strbuf_release(&errors);
	free(obj0);
	free(img);
	free(log);
	free(key);
	repo_free(r);
}
END_TEST

START_TEST(test_range_diverged_good)
{
	struct repo *r = open_repo();
	struct commit_graph g = {0};
	char base[41];
	/* v1.1 is on a branch of its own: the merge base is tested first. */
	ck_assert_int_eq(repo_range(r, "v1.1", "master", &g, base), 0);
	ck_assert_str_eq(base, ids.c2);
	ck_assert_uint_eq(g.nr, 4);
	ck_assert_str_eq(g.nodes[0].id, ids.c4);
	ck_assert_int_eq(graph_find(&g, ids.c2), -1);
	ck_assert_int_eq(graph_find(&g, ids.st1), -1);
	node(&g, ids.s1);
	node(&g, ids.c3);
	graph_release(&g);
	repo_free(r);
}
END_TEST

START_TEST(test_range_no_common_ancestor)
{
	struct repo *r = open_repo();
	struct commit_graph g = {0};
	struct strbuf err = STRBUF_INIT;
	char base[41];
	error_capture(&err);
	ck_assert_int_eq(repo_range(r, "orphan", "master", &g, base), -1);
	error_capture(NULL);
	ck_assert_str_eq(err.buf,
			 "'orphan' and 'master' have no common ancestor");
	ck_assert_uint_eq(g.nr, 0);
	strbuf_release(&err);
	repo_free(r);
}
END_TEST

START_TEST(test_range_reversed)
{
	struct repo *r = open_repo();
	struct commit_graph g = {0};
	struct strbuf err = STRBUF_INIT;
	char base[41];
	error_capture(&err);
	ck_assert_int_eq(repo_range(r, "master", "v1.0", &g, base), -1);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(err.buf, "'v1.0' is an ancestor of"));
	strbuf_release(&err);
	repo_free(r);
}
END_TEST

static const struct {
	const char *anc, *desc;
	int want;
} ancestor_cases[] = {
	{"v1.0", "master", 1}, {"master", "v1.0", 0},	{"v1.1", "master", 0},
	{"side", "master", 1}, {"master", "master", 1}, {"orphan", "master", 0},
};

START_TEST(test_is_ancestor)
{
	struct repo *r = open_repo();
	ck_assert_int_eq(repo_is_ancestor(r, ancestor_cases[_i].anc,
					  ancestor_cases[_i].desc),
			 ancestor_cases[_i].want);
	repo_free(r);
}
END_TEST

static time_t mtime_of(const char *dir, const char *name)
{
	char *p = xstrfmt("%s/%s", dir, name);
	struct stat st;
	int rc = stat(p, &st);
	free(p);
	return rc ? (time_t)-1 : st.st_mtime;
}

static void age_files(const char *dir, const char *const *names)
{
	for (; *names; names++) {
		char *p = xstrfmt("%s/%s", dir, *names);
		struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
		ck_assert_int_eq(utimensat(AT_FDCWD, p, old, 0), 0);
		free(p);
	}
}

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(read_file(path, &sb), 0);
	return strbuf_detach(&sb);
}

START_TEST(test_checkout_keeps_mtimes)
{
	struct repo *r = open_repo();
	char *wd = xstrfmt("%s/tree", tmpdir);
	char *user_index = xstrfmt("%s/.git/index", repo_dir);
	char *user_head = xstrfmt("%s/.git/HEAD", repo_dir);
	char *user_a = xstrfmt("%s/a.c", repo_dir);
	char *index_before = slurp(user_index);
	char *head_before = slurp(user_head);

	ck_assert_int_eq(repo_checkout(r, ids.c3, wd), 0);
	char *a = xstrfmt("%s/a.c", wd);
	char *text = slurp(a);
	ck_assert_str_eq(text, "a2\n");
	free(text);
	ck_assert_int_eq(mtime_of(wd, "s.c"), -1);
	age_files(wd, (const char *[]){"a.c", "b.c", NULL});
	/* Something the target does not have: it must go. */
	char *junk = xstrfmt("%s/junk.o", wd);
	ck_assert_int_eq(write_file_atomic(junk, "x", 1), 0);

	ck_assert_int_eq(repo_checkout(r, ids.c4, wd), 0);
	text = slurp(a);
	ck_assert_str_eq(text, "a4\n");
	free(text);
	ck_assert_int_ne(mtime_of(wd, "a.c"), 1000000000);
	ck_assert_int_eq(mtime_of(wd, "b.c"), 1000000000);
	ck_assert_int_ne(mtime_of(wd, "s.c"), -1);
	ck_assert_int_eq(file_exists(junk), 0);

	/* Back to the root: files the root lacks are removed. */
	ck_assert_int_eq(repo_checkout(r, "v1.0", wd), 0);
	ck_assert_int_eq(mtime_of(wd, "s.c"), -1);
	text = slurp(a);
	ck_assert_str_eq(text, "a1\n");
	free(text);

	/* The user's HEAD, index and files are as they were. */
	char *index_after = slurp(user_index);
	char *head_after = slurp(user_head);
	ck_assert_str_eq(index_after, index_before);
	ck_assert_str_eq(head_after, head_before);
	text = slurp(user_a);
	ck_assert_str_eq(text, "a4\n");
	free(text);
	char id[41];
	ck_assert_int_eq(repo_resolve(r, "HEAD", id), 0);
	ck_assert_str_eq(id, ids.c4);

	free(index_after);
	free(head_after);
	free(index_before);
	free(head_before);
	free(junk);
	free(a);
	free(user_a);
	free(user_head);
	free(user_index);
	free(wd);
	repo_free(r);
}
END_TEST

/*
 * A checkout stopped half-way (a lane's build the run no longer wanted,
 * SIGTERMed) left "<tree>.index.lock", and every later checkout of that
 * tree failed with "the index is locked" (49-fio, on a fresh tree).
 */
START_TEST(test_checkout_after_a_stopped_one)
{
	struct repo *r = open_repo();
	char *wd = xstrfmt("%s/stopped", tmpdir);
	char *lock = xstrfmt("%s/stopped.index.lock", tmpdir);
	char *a = xstrfmt("%s/a.c", wd);

	ck_assert_int_eq(repo_checkout(r, ids.c3, wd), 0);
	ck_assert_int_eq(write_file_atomic(lock, "", 0), 0);
	ck_assert_int_eq(repo_checkout(r, ids.c4, wd), 0);
	ck_assert_int_eq(file_exists(lock), 0);
	char *text = slurp(a);
	ck_assert_str_eq(text, "a4\n");
	free(text);
	free(a);
	free(lock);
	free(wd);
	repo_free(r);
}
END_TEST

START_TEST(test_checkout_default_workdir)
{
	struct repo *r = open_repo();
	char *wd = repo_default_workdir(r);
	char *want_prefix = xstrfmt("%s/cache/iobisect/src/", tmpdir);
	ck_assert_int_eq(strncmp(wd, want_prefix, strlen(want_prefix)), 0);
	ck_assert_str_eq(wd + strlen(want_prefix), repo_id(r));
	ck_assert_uint_eq(strlen(repo_id(r)), 12);
	ck_assert_int_eq(repo_checkout(r, "side", NULL), 0);
	ck_assert_int_ne(mtime_of(wd, "s.c"), -1);
	free(want_prefix);
	free(wd);
	repo_free(r);
}
END_TEST

START_TEST(test_repo_id_stable)
{
	struct repo *a = open_repo(), *b;
	char *sub = xstrfmt("%s/.git", repo_dir);
	ck_assert_int_eq(repo_open(&b, sub), 0);
	ck_assert_str_eq(repo_id(a), repo_id(b));
	free(sub);
	repo_free(a);
	repo_free(b);
}
END_TEST

START_TEST(test_describe)
{
	struct repo *r = open_repo();
	struct commit_info ci = COMMIT_INFO_INIT;
	ck_assert_int_eq(repo_describe(r, "master", &ci), 0);
	char *want = xstrfmt("v1.0-5-g%.7s", ids.c4);
	ck_assert_str_eq(ci.describe, want);
	ck_assert_str_eq(ci.id, ids.c4);
	ck_assert_str_eq(ci.subject, "four: change a");
	ck_assert_str_eq(ci.author, "A U Thor <author@example.com>");
	ck_assert_str_eq(ci.date, "2020-09-13T12:30:40+00:00");
	free(want);
	commit_info_release(&ci);

	ck_assert_int_eq(repo_describe(r, "v1.0", &ci), 0);
	ck_assert_str_eq(ci.describe, "v1.0");
	ck_assert_str_eq(ci.subject, "one");
	commit_info_release(&ci);
	repo_free(r);
}
END_TEST

/*
 * A subject with terminal escapes (a title change, a cleared screen, a
 * C1 CSI) is described as text: they reached stdout, stderr and
 * report.txt raw.
 */
START_TEST(test_describe_escapes_a_hostile_subject)
{
	git_repository *git;
	struct repo *r;
	struct commit_info ci = COMMIT_INFO_INIT;
	char id[41];

	git_libgit2_init();
	ck_assert_int_eq(git_repository_open(&git, repo_dir), 0);
	make_commit(git, id, "refs/heads/esc",
		    (struct file[]){{"a.c", "e\n"}, {0}},
		    (const char *[]){ids.c4, NULL}, 400,
		    "two\033]0;owned\007\033[2J\302\233A\n");
	git_repository_free(git);
	r = open_repo();
	ck_assert_int_eq(repo_describe(r, "esc", &ci), 0);
	ck_assert_str_eq(ci.subject,
			 "two\\x1b]0;owned\\x07\\x1b[2J\\xc2\\x9bA");
	ck_assert_ptr_null(strchr(ci.author, '\033'));
	commit_info_release(&ci);
	repo_free(r);
	git_libgit2_shutdown();
}
END_TEST

START_TEST(test_tree_id_and_version)
{
	struct repo *r = open_repo();
	char t1[41], t2[41];
	ck_assert_int_eq(repo_tree_id(r, "v1.0", t1), 0);
	ck_assert_int_eq(repo_tree_id(r, "master", t2), 0);
	ck_assert_str_ne(t1, t2);
	ck_assert_int_eq(repo_tree_id(r, ids.c1, t2), 0);
	ck_assert_str_eq(t1, t2);
	repo_free(r);

	static const char mk[] = "# SPDX\nVERSION = 6\nPATCHLEVEL = 1\n"
				 "SUBLEVEL = 12\nEXTRAVERSION =\nNAME = x\n";
	ck_assert_uint_eq(repo_parse_kernel_version(mk, strlen(mk)),
			  (6u << 16) | (1u << 8) | 12u);
	static const char old[] = "VERSION = 2\nPATCHLEVEL = 6\n"
				  "SUBLEVEL = 38\nEXTRAVERSION = -rc3\n";
	ck_assert_uint_eq(repo_parse_kernel_version(old, strlen(old)),
			  (2u << 16) | (6u << 8) | 38u);
	ck_assert_uint_eq(repo_parse_kernel_version("all:\n", 5), 0);
}
END_TEST

static Suite *repo_suite(void)
{
	Suite *s = suite_create("repo");
	TCase *tc = tcase_create("repo");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_resolve, 0, ARRAY_SIZE(resolve_cases));
	tcase_add_test(tc, test_resolve_ids);
	tcase_add_test(tc, test_resolve_unknown);
	tcase_add_test(tc, test_open_not_a_repo);
	tcase_add_test(tc, test_range_with_merge);
	tcase_add_test(tc, test_narrow_by_inputs);
	tcase_add_test(tc, test_build_cost_from_folders_at_hand);
	tcase_add_test(tc, test_build_cost_from_ccache);
	tcase_add_test(tc, test_range_diverged_good);
	tcase_add_test(tc, test_range_no_common_ancestor);
	tcase_add_test(tc, test_range_reversed);
	tcase_add_loop_test(tc, test_is_ancestor, 0,
			    ARRAY_SIZE(ancestor_cases));
	tcase_add_test(tc, test_checkout_keeps_mtimes);
	tcase_add_test(tc, test_checkout_after_a_stopped_one);
	tcase_add_test(tc, test_checkout_default_workdir);
	tcase_add_test(tc, test_repo_id_stable);
	tcase_add_test(tc, test_describe);
	tcase_add_test(tc, test_describe_escapes_a_hostile_subject);
	tcase_add_test(tc, test_tree_id_and_version);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(repo_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
