/*
 * check_kbuild.c: kernel builds (kbuild.c): build keys (same inputs, same
 * key; a change of tree, config or toolchain, a new key), the toolchain
 * map, finding the first compiler error in a log, and the whole
 * kbuild_image path (cache hit without make, typed failures) on a fake
 * "kernel" whose Makefile only pretends to configure and build.
 */
#include "kbuild.h"
#include "objdir_guard.h"
#include "objdir_last.h"
#include "prebuilt.h"
#include "repo.h"
#include "run.h"
#include "util.h"

#include <check.h>
#include <stdio.h>
#include <fcntl.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(test_key)
{
	char k1[41], k2[41];
	kbuild_key("tree1", "cfg1", "cc=gcc hostcc=gcc gcc 12", k1);
	kbuild_key("tree1", "cfg1", "cc=gcc hostcc=gcc gcc 12", k2);
	ck_assert_str_eq(k1, k2);
	ck_assert_uint_eq(strlen(k1), 40);
	ck_assert_uint_eq(strspn(k1, "0123456789abcdef"), 40);

	static const char *const changed[][3] = {
		{"tree2", "cfg1", "cc=gcc hostcc=gcc gcc 12"},
		{"tree1", "cfg2", "cc=gcc hostcc=gcc gcc 12"},
		{"tree1", "cfg1", "cc=gcc hostcc=gcc gcc 11"},
		{"tree1", "cfg1", "cc=gcc-11 hostcc=gcc gcc 12"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(changed); i++) {
		kbuild_key(changed[i][0], changed[i][1], changed[i][2], k2);
		ck_assert_str_ne(k1, k2);
	}
}
END_TEST

START_TEST(test_toolchain_id)
{
	const char *v12 = "gcc (Debian 12.2.0) 12.2.0";
	char *a = kbuild_toolchain_id("gcc", NULL, v12, NULL);
	char *b = kbuild_toolchain_id("gcc", "gcc", v12, "");
	char *c = kbuild_toolchain_id("gcc", "clang", v12, NULL);
	char *d = kbuild_toolchain_id("gcc", NULL, "gcc (Debian 11.3.0) 11.3.0",
				      NULL);
	/* The same compiler in an environment is another toolchain. */
	char *e = kbuild_toolchain_id("gcc", NULL, v12,
				      "env=chroot:/srv/bookworm id=0123");
	ck_assert_str_eq(a, b); /* HOSTCC defaults to CC */
	/* The host's identity is what it was before environments. */
	ck_assert_str_eq(a, "cc=gcc hostcc=gcc gcc (Debian 12.2.0) 12.2.0");
	ck_assert_str_ne(a, c);
	ck_assert_str_ne(a, d);
	ck_assert_str_eq(e, "cc=gcc hostcc=gcc gcc (Debian 12.2.0) 12.2.0 "
			    "env=chroot:/srv/bookworm id=0123");
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}
END_TEST

static const struct {
	unsigned kver;
	const char *want; /* NULL: no rule */
} pick_cases[] = {
	{KVER(2, 6, 38), "gcc-4.9"}, {KVER(3, 19, 8), "gcc-4.9"},
	{KVER(4, 0, 0), "gcc-8"},    {KVER(6, 1, 0), "gcc-12"},
	{KVER(7, 0, 0), "gcc-12"},   {KVER(2, 4, 0), NULL},
};

START_TEST(test_pick_toolchain)
{
	const struct toolchain_rule rules[] = {
		{{KVER(2, 6, 0), KVER(3, 255, 255)}, "gcc-4.9", NULL, {0}},
		{{KVER(4, 0, 0), KVER(5, 255, 255)}, "gcc-8", NULL, {0}},
		/* Overlaps the one above: the first match wins. */
		{{KVER(4, 0, 0), 0}, "gcc-12", NULL, {0}},
	};
	const struct toolchain_rule *r = kbuild_pick_toolchain(
		rules, ARRAY_SIZE(rules), pick_cases[_i].kver);
	if (!pick_cases[_i].want)
		ck_assert_ptr_null(r);
	else
		ck_assert_str_eq(r->cc, pick_cases[_i].want);
}
END_TEST

static const struct {
	const char *log, *want;
} error_cases[] = {
	{"  CC      block/blk-core.o\n"
	 "block/blk-core.c: In function 'f':\n"
	 "block/blk-core.c:52:1: error: expected ';' before '}' token\n"
	 "make[3]: *** [scripts/Makefile.build:250: block/blk-core.o] Error "
	 "1\n",
	 "block/blk-core.c:52:1: error: expected ';' before '}' token"},
	/* A make error before any compiler error: the compiler's still wins. */
	{"make[1]: *** [Makefile:1] Error 2\n"
	 "fs/x.c:7: error: old gcc style\n",
	 "fs/x.c:7: error: old gcc style"},
	/* Only a link or make failure. */
	{"  LD      vmlinux\n"
	 "make[1]: *** [Makefile:1165: vmlinux] Error 1\n",
	 "make[1]: *** [Makefile:1165: vmlinux] Error 1"},
	{"  CC      a.o\n  CC      b.o\n", NULL},
	/* A warning is not an error. */
	{"a.c:1:2: warning: unused\nmake: *** [x] Error 2\n",
	 "make: *** [x] Error 2"},
};

START_TEST(test_first_error)
{
	char *got = kbuild_first_error(error_cases[_i].log);
	if (!error_cases[_i].want)
		ck_assert_ptr_null(got);
	else
		ck_assert_str_eq(got, error_cases[_i].want);
	free(got);
}
END_TEST

/* ---- kbuild_image on a fake kernel tree -------------------------------- */

static char tmpdir[64];
static char *repo_dir, *runs_path, *frag_ok, *frag_bogus;
static char good_id[41], next_id[41], broken_id[41], halfcmd_id[41];

/*
 * The fake kernel: a Makefile that has the version lines repo.c reads, an
 * allnoconfig that "drops" any CONFIG_BOGUS, and a bzImage that counts its
 * runs, writes one object, an image and a System.map naming the tree's
 * version.txt, and .cmd files naming files of the tree as Kbuild's do, or
 * fails like a compiler when the tree has a file named "broken", or like
 * make over a half-written .cmd file when it has one named "halfcmd".
 */
static char *fake_makefile(void)
{
	return xstrfmt(
		"VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n"
		"allnoconfig:\n"
		"\tgrep -v BOGUS $(KCONFIG_ALLCONFIG) > $(O)/.config\n"
		"bzImage:\n"
		"\techo run >> %s\n"
		"\t@if [ -e broken ]; then echo \"init/main.c:3:1: error: "
		"expected ';' before '}' token\"; exit 1; fi\n"
		"\t@if [ -e halfcmd ]; then echo \"kernel/.exit.o.cmd:5: *** "
		"unterminated call to function 'wildcard': missing ')'.  "
		"Stop.\"; echo \"make[2]: *** [Makefile.build:508: kernel] "
		"Error 2\"; exit 2; fi\n"
		"\tmkdir -p $(O)/arch/x86/boot\n"
		"\techo obj > $(O)/main.o\n"
		"\techo 'deps_main.o := $(CURDIR)/version.txt $(CURDIR)/gone.h "
		"$$(wildcard include/config/X) $(CURDIR)/arch' > "
		"$(O)/.main.o.cmd\n"
		"\techo image-$$(cat version.txt) > "
		"$(O)/arch/x86/boot/bzImage\n"
		"\techo 'cmd_bzImage := cp $(CURDIR)/Makefile x' > "
		"$(O)/arch/x86/boot/.bzImage.cmd\n"
		"\techo ffffffff81000000 T v$$(cat version.txt) > "
		"$(O)/System.map\n",
		runs_path);
}

/* A commit of `files` on `parent`, moving `ref` to it (NULL: none). */
static void commit_files_ref(git_repository *git, char out[41],
			     const char *const *files, const char *parent,
			     const char *ref)
{
	git_treebuilder *tb;
	git_oid oid, tree_oid;
	git_tree *tree;
	git_signature *sig;
	git_commit *p = NULL;
	ck_assert_int_eq(git_treebuilder_new(&tb, git, NULL), 0);
	for (; *files; files += 2) {
		ck_assert_int_eq(git_blob_create_from_buffer(
					 &oid, git, files[1], strlen(files[1])),
				 0);
		ck_assert_int_eq(git_treebuilder_insert(NULL, tb, files[0],
							&oid,
							GIT_FILEMODE_BLOB),
				 0);
	}
	ck_assert_int_eq(git_treebuilder_write(&tree_oid, tb), 0);
	git_treebuilder_free(tb);
	ck_assert_int_eq(git_tree_lookup(&tree, git, &tree_oid), 0);
	if (parent) {
		ck_assert_int_eq(git_oid_fromstr(&oid, parent), 0);
		ck_assert_int_eq(git_commit_lookup(&p, git, &oid), 0);
	}
	ck_assert_int_eq(
		git_signature_new(&sig, "T", "t@example.com", 1600000000, 0),
		0);
	const git_commit *parents[1] = {p};
	ck_assert_int_eq(git_commit_create(&oid, git, ref, sig, sig, NULL,
					   "c\n", tree, p ? 1 : 0, parents),
			 0);
	git_signature_free(sig);
	git_tree_free(tree);
	git_commit_free(p);
	git_oid_tostr(out, 41, &oid);
}

static void commit_files(git_repository *git, char out[41],
			 const char *const *files, const char *parent)
{
	commit_files_ref(git, out, files, parent, "HEAD");
}

static void fake_setup(void)
{
	git_repository *git;
	strcpy(tmpdir, "/tmp/check_kbuild.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	char *cache = xstrfmt("%s/cache", tmpdir);
	setenv("XDG_CACHE_HOME", cache, 1);
	free(cache);
	repo_dir = xstrfmt("%s/linux", tmpdir);
	runs_path = xstrfmt("%s/make-runs", tmpdir);
	frag_ok = xstrfmt("%s/ok.config", tmpdir);
	frag_bogus = xstrfmt("%s/bogus.config", tmpdir);
	ck_assert_int_eq(write_file_atomic(frag_ok, "CONFIG_A=y\n", 11), 0);
	ck_assert_int_eq(write_file_atomic(frag_bogus,
					   "CONFIG_A=y\nCONFIG_BOGUS=y\n", 26),
			 0);

	char *mk = fake_makefile();
	git_libgit2_init();
	ck_assert_int_eq(git_repository_init(&git, repo_dir, 0), 0);
	commit_files(
		git, good_id,
		(const char *[]){"Makefile", mk, "version.txt", "1\n", NULL},
		NULL);
	commit_files(
		git, next_id,
		(const char *[]){"Makefile", mk, "version.txt", "2\n", NULL},
		good_id);
	commit_files(git, broken_id,
		     (const char *[]){"Makefile", mk, "version.txt", "3\n",
				      "broken", "", NULL},
		     next_id);
	/* Off the branch: HEAD stays at broken_id. */
	commit_files_ref(git, halfcmd_id,
			 (const char *[]){"Makefile", mk, "version.txt", "4\n",
					  "halfcmd", "", NULL},
			 next_id, NULL);
	git_repository_free(git);
	git_libgit2_shutdown();
	free(mk);
}

static void fake_teardown(void)
{
	remove_tree(tmpdir);
	free(repo_dir);
	free(runs_path);
	free(frag_ok);
	free(frag_bogus);
}

static int make_runs(void)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;
	if (file_exists(runs_path)) {
		ck_assert_int_eq(read_file(runs_path, &sb), 0);
		for (size_t i = 0; i < sb.len; i++)
			n += sb.buf[i] == '\n';
	}
	strbuf_release(&sb);
	return n;
}

static void build_in(struct build_result *res, const char *rev,
		     const char *fragment, const char *cc, unsigned flags,
		     unsigned slot)
{
	struct kconfig_spec spec = {0};
	struct toolchain_rule rule = {{0, 0}, (char *)cc, NULL, {0}};
	struct build_request req = {0};
	spec.base = "tiny";
	strvec_push(&spec.fragments, fragment);
	req.repo = repo_dir;
	req.rev = rev;
	req.kconfig = &spec;
	req.toolchains = cc ? &rule : NULL;
	req.nr_toolchains = cc ? 1 : 0;
	req.flags = BUILD_QUIET | flags;
	req.jobs = 1;
	req.slot = slot;
	kbuild_image(res, &req);
	strvec_clear(&spec.fragments);
}

static void build(struct build_result *res, const char *rev,
		  const char *fragment, const char *cc)
{
	build_in(res, rev, fragment, cc, 0, 0);
}

/* The "# srcdir" line of a build log. */
static char *log_srcdir(const char *log)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *end, *dir;
	ck_assert_int_eq(read_file(log, &sb), 0);
	line = strstr(sb.buf, "# srcdir ");
	ck_assert_ptr_nonnull(line);
	line += strlen("# srcdir ");
	end = strchr(line, '\n');
	dir = xstrndup(line, end ? (size_t)(end - line) : strlen(line));
	strbuf_release(&sb);
	return dir;
}

static void assert_file(const char *path, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(read_file(path, &sb), 0);
	ck_assert_str_eq(sb.buf, want);
	strbuf_release(&sb);
}

START_TEST(test_image_cached)
{
	struct build_result a = BUILD_RESULT_INIT, b = BUILD_RESULT_INIT;
	struct build_result c = BUILD_RESULT_INIT;

	build(&a, "HEAD~2", frag_ok, NULL);
	ck_assert_msg(a.status == BUILD_OK, "%s", a.message);
	ck_assert_str_eq(a.commit, good_id);
	ck_assert_int_eq(a.cached, 0);
	ck_assert_int_eq(a.objects_rebuilt, 1);
	assert_file(a.image, "image-1\n");
	ck_assert(file_exists(a.log));
	ck_assert_int_eq(make_runs(), 1);

	/* Same key: the cache answers and make does not run. */
	build(&b, good_id, frag_ok, NULL);
	ck_assert_int_eq(b.status, BUILD_OK);
	ck_assert_int_eq(b.cached, 1);
	ck_assert_str_eq(b.key, a.key);
	ck_assert_str_eq(b.image, a.image);
	ck_assert_int_eq(make_runs(), 1);

	/* Another tree: another key, built in the same build folder. */
	build(&c, next_id, frag_ok, NULL);
	ck_assert_int_eq(c.status, BUILD_OK);
	ck_assert_int_eq(c.cached, 0);
	ck_assert_str_ne(c.key, a.key);
	assert_file(c.image, "image-2\n");
	assert_file(a.image, "image-1\n");
	ck_assert_int_eq(make_runs(), 2);

	build_result_release(&a);
	build_result_release(&b);
	build_result_release(&c);
}
END_TEST

/* The map beside the cached image at `image`. */
static char *map_of(const char *image)
{
	return xstrfmt("%.*s/System.map", (int)(strrchr(image, '/') - image),
		       image);
}

/*
 * Each image keeps its System.map. One cached before maps were kept
 * takes its build folder's when that folder still holds its very image,
 * and is built again, when a map is wanted, once the folder has moved on.
 */
START_TEST(test_image_keeps_its_map)
{
	struct build_result a = BUILD_RESULT_INIT, b = BUILD_RESULT_INIT;
	struct build_result c = BUILD_RESULT_INIT, d = BUILD_RESULT_INIT;

	build(&a, "HEAD~2", frag_ok, NULL);
	ck_assert_msg(a.status == BUILD_OK, "%s", a.message);
	char *map = map_of(a.image);
	assert_file(map, "ffffffff81000000 T v1\n");

	/* No map, the folder's image the same: adopted, make not run. */
	ck_assert_int_eq(unlink(map), 0);
	build_in(&b, good_id, frag_ok, NULL, BUILD_WANT_MAP, 0);
	ck_assert_int_eq(b.status, BUILD_OK);
	ck_assert_int_eq(b.cached, 1);
	assert_file(map, "ffffffff81000000 T v1\n");
	ck_assert_int_eq(make_runs(), 1);

	/* The folder builds another commit; the first loses its map. */
	build(&c, next_id, frag_ok, NULL);
	ck_assert_int_eq(c.status, BUILD_OK);
	ck_assert_int_eq(make_runs(), 2);
	ck_assert_int_eq(unlink(map), 0);
	/* Not wanted: the image serves as it is. */
	build_result_release(&b);
	build(&b, good_id, frag_ok, NULL);
	ck_assert_int_eq(b.cached, 1);
	ck_assert(!file_exists(map));
	/* Wanted: built again, the map with it, never the other's. */
	build_in(&d, good_id, frag_ok, NULL, BUILD_WANT_MAP, 0);
	ck_assert_int_eq(d.status, BUILD_OK);
	ck_assert_int_eq(d.cached, 0);
	ck_assert_int_eq(make_runs(), 3);
	assert_file(map, "ffffffff81000000 T v1\n");
	assert_file(d.image, "image-1\n");

	free(map);
	build_result_release(&a);
	build_result_release(&b);
	build_result_release(&c);
	build_result_release(&d);
}
END_TEST

/* The inputs file beside the cached image at `image`. */
static char *inputs_of(const char *image)
{
	return xstrfmt("%.*s/inputs", (int)(strrchr(image, '/') - image),
		       image);
}

/*
 * Each image keeps the files of the tree its build folder's .cmd files
 * name (a path the tree does not have and a config symbol are not
 * among them), and the folders make went into. One cached before
 * inputs were kept takes them from its build folder while that folder
 * still holds its very image, and stays without once it has moved on.
 */
START_TEST(test_image_keeps_its_inputs)
{
	struct build_result a = BUILD_RESULT_INIT, b = BUILD_RESULT_INIT;
	struct build_result c = BUILD_RESULT_INIT;
	static const char listed[] = "Makefile\narch/x86/boot/\nversion.txt\n";

	build(&a, "HEAD~2", frag_ok, NULL);
	ck_assert_msg(a.status == BUILD_OK, "%s", a.message);
	char *inputs = inputs_of(a.image);
	assert_file(inputs, listed);

	ck_assert_int_eq(unlink(inputs), 0);
	build(&b, good_id, frag_ok, NULL);
	ck_assert_int_eq(b.cached, 1);
	assert_file(inputs, listed);
	ck_assert_int_eq(make_runs(), 1);

	build(&c, next_id, frag_ok, NULL);
	ck_assert_int_eq(c.status, BUILD_OK);
	ck_assert_int_eq(unlink(inputs), 0);
	build_result_release(&b);
	build(&b, good_id, frag_ok, NULL);
	ck_assert_int_eq(b.cached, 1);
	ck_assert(!file_exists(inputs));

	free(inputs);
	build_result_release(&a);
	build_result_release(&b);
	build_result_release(&c);
}
END_TEST

/* The "# objdir" line of a build log. */
static char *log_objdir(const char *log)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *dir;
	ck_assert_int_eq(read_file(log, &sb), 0);
	line = strstr(sb.buf, "# objdir ");
	ck_assert_ptr_nonnull(line);
	line += strlen("# objdir ");
	dir = xstrndup(line, strcspn(line, "\n"));
	strbuf_release(&sb);
	return dir;
}

/*
 * A build folder says what it last built once its image is kept, and
 * after a build in it failed, the two commits it is a mix of; a request
 * for the cache only builds nothing, and says whether make goes through
 * ccache.
 */
START_TEST(test_folder_says_what_it_last_built)
{
	struct build_result a = BUILD_RESULT_INIT, b = BUILD_RESULT_INIT;
	struct objdir_last last;
	char *objdir, *imgdir, *ccache = run_which("ccache");
	int has_ccache = ccache != NULL;

	free(ccache);
	build(&a, good_id, frag_ok, NULL);
	ck_assert_msg(a.status == BUILD_OK, "%s", a.message);
	objdir = log_objdir(a.log);
	imgdir = xstrndup(a.image, (size_t)(strrchr(a.image, '/') - a.image));
	ck_assert_int_eq(objdir_last_read(objdir, &last), 1);
	ck_assert_str_eq(last.commit, a.commit);
	ck_assert_str_eq(last.imgdir, imgdir);
	free(last.objdir);
	free(last.imgdir);

	/*
	 * The cache's answer says whether make compiles through ccache
	 * (the host's, when it has one): every commit built is warm then.
	 */
	build_in(&b, good_id, frag_ok, NULL, BUILD_CACHE_ONLY, 0);
	ck_assert_msg(b.status == BUILD_OK, "%s", b.message);
	ck_assert_int_eq(b.cached, 1);
	ck_assert_int_eq(b.ccache, has_ccache);
	build_result_release(&b);

	build_in(&b, next_id, frag_ok, NULL, BUILD_CACHE_ONLY, 0);
	ck_assert_int_eq(b.status, BUILD_SETUP_ERROR);
	ck_assert_ptr_nonnull(strstr(b.message, "is not in the cache"));
	ck_assert_int_eq(make_runs(), 1);
	build_result_release(&b);

	/* A failed build leaves a mix of the two commits. */
	build(&b, broken_id, frag_ok, NULL);
	ck_assert_int_eq(b.status, BUILD_FAILED);
	ck_assert_int_eq(objdir_last_read(objdir, &last), 1);
	ck_assert_str_eq(last.commit, b.commit);
	ck_assert_str_eq(last.from, a.commit);
	ck_assert_str_eq(last.imgdir, imgdir);
	free(last.objdir);
	free(last.imgdir);
	build_result_release(&b);

	build(&b, next_id, frag_ok, NULL);
	ck_assert_msg(b.status == BUILD_OK, "%s", b.message);
	ck_assert_int_eq(objdir_last_read(objdir, &last), 1);
	ck_assert_str_eq(last.commit, b.commit);
	free(last.objdir);
	free(last.imgdir);

	free(objdir);
	free(imgdir);
	build_result_release(&a);
	build_result_release(&b);
}
END_TEST

/*
 * Builds at once use slots: each its own source tree and build folder
 * (slot 0 whenever it is free), all at the same place relative to trees/ (ccache's base_dir), so the
 * compiler sees the same relative paths in each.
 */
START_TEST(test_image_slots)
{
	struct build_result a = BUILD_RESULT_INIT, b = BUILD_RESULT_INIT;
	char *sa, *sb;

	build_in(&a, good_id, frag_ok, NULL, BUILD_NO_CACHE, 0);
	ck_assert_msg(a.status == BUILD_OK, "%s", a.message);
	sa = log_srcdir(a.log);
	/* Slot 0 is free: a build asking for slot 1 takes the warm tree. */
	build_in(&b, good_id, frag_ok, NULL, BUILD_NO_CACHE, 1);
	ck_assert_msg(b.status == BUILD_OK, "%s", b.message);
	sb = log_srcdir(b.log);
	ck_assert_str_eq(sa, sb);
	free(sb);
	build_result_release(&b);
	/* Slot 0 held by another build: slot 1 gets a tree of its own. */
	char *lock0 = xstrfmt("%.*s.lock", (int)strlen(sa), sa);
	int fd = open(lock0, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
	build_in(&b, good_id, frag_ok, NULL, BUILD_NO_CACHE, 1);
	close(fd);
	free(lock0);
	ck_assert_msg(b.status == BUILD_OK, "%s", b.message);
	sb = log_srcdir(b.log);
	ck_assert_str_ne(sa, sb);
	ck_assert_ptr_nonnull(strstr(sa, "/trees/"));
	ck_assert_ptr_nonnull(strstr(sb, "/trees/"));
	ck_assert_str_eq(sa + strlen(sa) - 6, "/0/src");
	ck_assert_str_eq(sb + strlen(sb) - 6, "/1/src");
	/* The same key from either slot: one image. */
	ck_assert_str_eq(a.key, b.key);
	free(sa);
	free(sb);
	build_result_release(&a);
	build_result_release(&b);
}
END_TEST

START_TEST(test_image_failures)
{
	struct build_result r = BUILD_RESULT_INIT;

	build(&r, good_id, frag_ok, "gcc-4.9");
	ck_assert_int_eq(r.status, BUILD_SETUP_ERROR);
	ck_assert_str_eq(r.message, "compiler 'gcc-4.9' not found");
	build_result_release(&r);

	build(&r, "v9", frag_ok, NULL);
	ck_assert_int_eq(r.status, BUILD_SETUP_ERROR);
	char *want = xstrfmt("unknown revision 'v9' in '%s'", repo_dir);
	ck_assert_str_eq(r.message, want);
	free(want);
	build_result_release(&r);

	build(&r, good_id, "nosuchfragment", NULL);
	ck_assert_int_eq(r.status, BUILD_SETUP_ERROR);
	ck_assert_str_eq(r.message,
			 "unknown kconfig fragment 'nosuchfragment'");
	build_result_release(&r);

	build(&r, good_id, frag_bogus, NULL);
	ck_assert_int_eq(r.status, BUILD_CONFIG_ERROR);
	ck_assert_ptr_nonnull(
		strstr(r.message, "CONFIG_BOGUS=y (now: not set)"));
	ck_assert_ptr_null(r.image);
	build_result_release(&r);
	ck_assert_int_eq(make_runs(), 0);

	build(&r, broken_id, frag_ok, NULL);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_str_eq(
		r.first_error,
		"init/main.c:3:1: error: expected ';' before '}' token");
	ck_assert_ptr_nonnull(strstr(r.message, r.first_error));
	ck_assert_ptr_null(r.image);
	ck_assert(file_exists(r.log));
	build_result_release(&r);

	/*
	 * A compiler error is the commit's own: asking again gives the same
	 * failure and error line without running make.
	 */
	build(&r, broken_id, frag_ok, NULL);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_int_eq(r.cached, 1);
	ck_assert_str_eq(
		r.first_error,
		"init/main.c:3:1: error: expected ';' before '}' token");
	ck_assert_int_eq(make_runs(), 1);
	build_result_release(&r);

	/*
	 * Only make's own error line (a build folder a killed make left
	 * half-written) may be the machine's: make runs again next time.
	 */
	for (int k = 2; k <= 3; k++) {
		build(&r, halfcmd_id, frag_ok, NULL);
		ck_assert_int_eq(r.status, BUILD_FAILED);
		ck_assert_int_eq(r.cached, 0);
		ck_assert_int_eq(make_runs(), k);
		build_result_release(&r);
	}
}
END_TEST

/*
 * A toolchain in an environment (here a prefix that only sets a variable,
 * so the host's compiler answers inside it): make runs through it, the
 * key differs from the same compiler's on the host, and its build folder
 * is its own.
 */
START_TEST(test_image_environment)
{
	struct build_result a = BUILD_RESULT_INIT, b = BUILD_RESULT_INIT;
	struct toolchain_rule rule = {{0, 0}, "cc", NULL, {0}};
	struct kconfig_spec spec = {0};
	struct build_request req = {0};
	struct strbuf log = STRBUF_INIT;

	build(&a, good_id, frag_ok, "cc");
	ck_assert_msg(a.status == BUILD_OK, "%s", a.message);
	rule.env.kind = TOOLENV_PREFIX;
	strvec_split(&rule.env.prefix, "env IOBISECT_ENV_OUT={out}", ' ');
	spec.base = "tiny";
	strvec_push(&spec.fragments, frag_ok);
	req.repo = repo_dir;
	req.rev = good_id;
	req.kconfig = &spec;
	req.toolchains = &rule;
	req.nr_toolchains = 1;
	req.flags = BUILD_QUIET;
	req.jobs = 1;
	kbuild_image(&b, &req);
	ck_assert_msg(b.status == BUILD_OK, "%s", b.message);
	ck_assert_int_eq(b.cached, 0);
	/* A prefix's environment may not see the host's ccache: none. */
	ck_assert_int_eq(b.ccache, 0);
	ck_assert_str_ne(a.key, b.key);
	ck_assert_int_eq(make_runs(), 2);
	assert_file(b.image, "image-1\n");
	ck_assert_int_eq(read_file(b.log, &log), 0);
	ck_assert_ptr_nonnull(
		strstr(log.buf, " env=env IOBISECT_ENV_OUT={out} id="));
	/* A folder of its own: the host's is not rebuilt by it. */
	ck_assert_ptr_null(strstr(log.buf, a.key));
	ck_assert_ptr_nonnull(strstr(strstr(log.buf, "# objdir "), "-"));

	/* Asked again: the cache, through the same identity. */
	build_result_release(&b);
	kbuild_image(&b, &req);
	ck_assert_int_eq(b.cached, 1);
	ck_assert_int_eq(make_runs(), 2);
	build_result_release(&a);
	build_result_release(&b);
	strbuf_release(&log);
	strvec_clear(&spec.fragments);
	toolenv_release(&rule.env);
}
END_TEST

/* A bzImage as far as the harness looks: the boot header's signature. */
static void write_image(const char *path, const char *tag)
{
	char data[1024];
	char *dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));

	memset(data, 0, sizeof(data));
	memcpy(data + 0x202, "HdrS", 4);
	snprintf(data + 0x300, 64, "%s", tag);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	ck_assert_int_eq(write_file_atomic(path, data, sizeof(data)), 0);
	free(dir);
}

static void prebuilt_request(struct build_result *res,
			     const struct prebuilt_source *src, const char *rev)
{
	struct build_request req = {0};

	req.repo = repo_dir;
	req.rev = rev;
	req.prebuilt = src;
	req.flags = BUILD_QUIET;
	kbuild_image(res, &req);
}

/*
 * Images from a folder or a command: the key is the image's hash, make
 * never runs, a commit without an image did not build, and a file that is
 * no bzImage is not taken for one.
 */
START_TEST(test_image_prebuilt)
{
	struct prebuilt_source folder = {0}, command = {0};
	struct build_result r = BUILD_RESULT_INIT;
	struct strbuf data = STRBUF_INIT;
	char *dir = xstrfmt("%s/images", tmpdir), *path, want[41];

	folder.folder = dir;
	strvec_push(&folder.names, "{short}.bzImage");
	strvec_push(&folder.names, PREBUILT_DEFAULT_NAME);
	path = xstrfmt("%s/%s/bzImage", dir, good_id);
	write_image(path, "good");
	ck_assert_int_eq(read_file(path, &data), 0);
	hash_hex(data.buf, data.len, want);

	prebuilt_request(&r, &folder, "HEAD~2");
	ck_assert_msg(r.status == BUILD_OK, "%s", r.message);
	ck_assert_str_eq(r.commit, good_id);
	ck_assert_str_eq(r.key, want);
	ck_assert_str_eq(r.image, path);
	ck_assert_int_eq(r.cached, 1);
	free(path);
	build_result_release(&r);

	/* The first name found wins. */
	path = xstrfmt("%s/%.12s.bzImage", dir, good_id);
	write_image(path, "short");
	prebuilt_request(&r, &folder, good_id);
	ck_assert_str_eq(r.image, path);
	ck_assert_str_ne(r.key, want);
	free(path);
	build_result_release(&r);

	prebuilt_request(&r, &folder, next_id);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_ptr_nonnull(strstr(r.message, "no image for"));
	ck_assert_ptr_nonnull(strstr(r.message, "bzImage"));
	ck_assert_ptr_null(r.image);
	build_result_release(&r);

	path = xstrfmt("%s/%.12s.bzImage", dir, broken_id);
	ck_assert_int_eq(write_file_atomic(path, "ELF", 3), 0);
	prebuilt_request(&r, &folder, broken_id);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_ptr_nonnull(strstr(r.message, "is not a bzImage"));
	free(path);
	build_result_release(&r);

	prebuilt_request(&r, &folder, "v9");
	ck_assert_int_eq(r.status, BUILD_SETUP_ERROR);
	build_result_release(&r);

	/* A command writes {out}; its image is kept by its hash. */
	char *from = xstrfmt("%s/{commit}/bzImage", dir);
	strvec_push(&command.command, "cp");
	strvec_push(&command.command, from);
	strvec_push(&command.command, "{out}");
	prebuilt_request(&r, &command, good_id);
	ck_assert_msg(r.status == BUILD_OK, "%s", r.message);
	ck_assert_str_eq(r.key, want);
	ck_assert_ptr_nonnull(strstr(r.image, "/prebuilt/"));
	ck_assert_ptr_nonnull(strstr(r.image, want));
	build_result_release(&r);
	prebuilt_request(&r, &command, next_id);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_ptr_nonnull(strstr(r.message, "'cp' gave no image for"));
	build_result_release(&r);

	ck_assert_int_eq(make_runs(), 0);
	free(from);
	strvec_clear(&folder.names);
	strvec_clear(&command.command);
	strbuf_release(&data);
	free(dir);
}
END_TEST

/* A file of `dir` with an mtime `age` seconds ago. */
static void put_file(const char *dir, const char *name, long age)
{
	char *path = xstrfmt("%s/%s", dir, name);
	struct timespec t[2];

	ck_assert_int_eq(write_file_atomic(path, "x", 1), 0);
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, path, t, 0), 0);
	free(path);
}

static int has_file(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	int r = file_exists(path);
	free(path);
	return r;
}

/*
 * A make killed outright leaves half-written files (43-lanes saw a
 * truncated kernel/.exit.o.cmd fail every later build): the next build
 * finds its mark and removes what was written since, and nothing older.
 */
START_TEST(test_killed_make_is_cleaned)
{
	char dir[] = "/tmp/check_guard.XXXXXX";
	char *sub;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	sub = xstrfmt("%s/kernel", dir);
	ck_assert_int_eq(mkdir_p(sub, 0755), 0);
	put_file(dir, "vmlinux.o", 60);
	put_file(sub, "exit.o", 60);
	/* A make that returned: nothing to clean, the mark goes. */
	ck_assert_int_eq(objdir_guard_begin(dir), 0);
	objdir_guard_end(dir);
	ck_assert_int_eq(objdir_guard_begin(dir), 0);
	/* This one is killed half-way. */
	put_file(sub, ".exit.o.cmd", -1);
	put_file(sub, "fork.o", -1);
	ck_assert_int_eq(objdir_guard_begin(dir), 2);
	ck_assert(!has_file(sub, ".exit.o.cmd") && !has_file(sub, "fork.o"));
	ck_assert(has_file(dir, "vmlinux.o") && has_file(sub, "exit.o"));
	objdir_guard_end(dir);
	/* Counting, as a build counts the objects it rebuilt. */
	struct timespec since = {0, 0};
	clock_gettime(CLOCK_REALTIME, &since);
	since.tv_sec -= 30;
	put_file(sub, "fork.o", -1);
	put_file(sub, ".fork.o.cmd", -1);
	ck_assert_int_eq(objdir_files_since(dir, since, ".o", 0), 1);
	ck_assert(has_file(sub, "fork.o"));
	remove_tree(dir);
	free(sub);
}
END_TEST

static Suite *kbuild_suite(void)
{
	Suite *s = suite_create("kbuild");
	TCase *tc = tcase_create("pure");
	tcase_add_test(tc, test_key);
	tcase_add_test(tc, test_toolchain_id);
	tcase_add_loop_test(tc, test_pick_toolchain, 0, ARRAY_SIZE(pick_cases));
	tcase_add_loop_test(tc, test_first_error, 0, ARRAY_SIZE(error_cases));
	tcase_add_test(tc, test_killed_make_is_cleaned);
	suite_add_tcase(s, tc);

	tc = tcase_create("image");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_image_cached);
	tcase_add_test(tc, test_image_keeps_its_map);
	tcase_add_test(tc, test_image_keeps_its_inputs);
	tcase_add_test(tc, test_image_slots);
	tcase_add_test(tc, test_folder_says_what_it_last_built);
	tcase_add_test(tc, test_image_failures);
	tcase_add_test(tc, test_image_environment);
	tcase_add_test(tc, test_image_prebuilt);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kbuild_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
